//! Benson's unconditional life: the chains that can never be captured, even if their owner
//! passes forever and the opponent plays as many moves in a row as it likes.
//!
//! Final-position scoring uses this as hard truth: Monte-Carlo ownership may be noisy, but a
//! chain Benson proves alive is alive, and opponent stones inside its small enclosed regions
//! are dead.
//!
//! The algorithm (D. B. Benson, 1976): for colour `c`, take the `c` chains and the
//! *regions* — maximal connected sets of points not occupied by `c` (empty points and
//! opponent stones). A region is *vital* to a chain when every empty point of the region is
//! a liberty of that chain. Then repeat until nothing changes: drop every chain with fewer
//! than two vital regions still in play, and drop every region that touches a dropped chain.
//! The chains left are unconditionally alive.

use crate::board::{Board, Cell, Color, Point};

/// The result of Benson's algorithm for one colour.
#[derive(Clone, Debug)]
pub struct Unconditional {
    /// Whether the stone on each point belongs to an unconditionally alive chain.
    alive: Vec<bool>,
    /// Whether each point lies in a region that the opponent can never live in: a region
    /// enclosed by unconditionally alive chains whose empty points all touch them.
    safe: Vec<bool>,
}

impl Unconditional {
    /// Whether the stone at `p` is part of an unconditionally alive chain.
    pub fn is_alive(&self, p: Point) -> bool {
        self.alive[p as usize]
    }

    /// Whether `p` lies in a region enclosed by unconditionally alive chains where no
    /// opponent stone can ever live (every empty point there touches the enclosing chains, so
    /// the opponent can make no eye).
    pub fn is_safe_territory(&self, p: Point) -> bool {
        self.safe[p as usize]
    }
}

/// Runs Benson's algorithm for `color` on `board`.
pub fn unconditional_life(board: &Board, color: Color) -> Unconditional {
    let n = board.array_len();
    let own = Cell::stone(color);

    // Chains of `color`, numbered by their head.
    let mut chain_index = vec![usize::MAX; n];
    let mut chain_heads: Vec<Point> = Vec::new();
    for p in board.points() {
        if board.cell(p) == own {
            let h = board.chain_id(p) as usize;
            if chain_index[h] == usize::MAX {
                chain_index[h] = chain_heads.len();
                chain_heads.push(h as Point);
            }
        }
    }

    // Regions: maximal connected sets of non-`color` points.
    struct Region {
        points: Vec<Point>,
        /// Bordering chains (indices), each with whether the region is vital to it.
        borders: Vec<(usize, bool)>,
    }
    let mut region_of = vec![usize::MAX; n];
    let mut regions: Vec<Region> = Vec::new();
    let mut stack: Vec<Point> = Vec::new();
    for p in board.points() {
        if board.cell(p) == own || region_of[p as usize] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut points = Vec::new();
        region_of[p as usize] = id;
        stack.push(p);
        while let Some(q) = stack.pop() {
            points.push(q);
            for nb in board.neighbors(q) {
                let cell = board.cell(nb);
                if cell == Cell::Border || cell == own || region_of[nb as usize] != usize::MAX {
                    continue;
                }
                region_of[nb as usize] = id;
                stack.push(nb);
            }
        }
        let mut border_chains: Vec<usize> = Vec::new();
        for &q in &points {
            for nb in board.neighbors(q) {
                if board.cell(nb) == own {
                    let ci = chain_index[board.chain_id(nb) as usize];
                    if !border_chains.contains(&ci) {
                        border_chains.push(ci);
                    }
                }
            }
        }
        let borders = border_chains
            .into_iter()
            .map(|ci| {
                let head = chain_heads[ci];
                let vital = points.iter().all(|&q| {
                    board.cell(q) != Cell::Empty
                        || board
                            .neighbors(q)
                            .iter()
                            .any(|&nb| board.cell(nb) == own && board.chain_id(nb) == head)
                });
                (ci, vital)
            })
            .collect();
        regions.push(Region { points, borders });
    }

    let mut chain_alive = vec![true; chain_heads.len()];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        let mut vital_count = vec![0usize; chain_heads.len()];
        for (r, region) in regions.iter().enumerate() {
            if !region_alive[r] {
                continue;
            }
            for &(ci, vital) in &region.borders {
                if vital {
                    vital_count[ci] += 1;
                }
            }
        }
        for (ci, alive) in chain_alive.iter_mut().enumerate() {
            if *alive && vital_count[ci] < 2 {
                *alive = false;
                changed = true;
            }
        }
        for (r, region) in regions.iter().enumerate() {
            if region_alive[r] && region.borders.iter().any(|&(ci, _)| !chain_alive[ci]) {
                region_alive[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut alive = vec![false; n];
    for p in board.points() {
        if board.cell(p) == own && chain_alive[chain_index[board.chain_id(p) as usize]] {
            alive[p as usize] = true;
        }
    }
    let mut safe = vec![false; n];
    for (r, region) in regions.iter().enumerate() {
        if !region_alive[r] || region.borders.is_empty() {
            continue;
        }
        // No eye is possible for the opponent where every empty point touches `color`.
        let eyeless = region.points.iter().all(|&q| {
            board.cell(q) != Cell::Empty
                || board.neighbors(q).iter().any(|&nb| board.cell(nb) == own)
        });
        if eyeless {
            for &q in &region.points {
                safe[q as usize] = true;
            }
        }
    }
    Unconditional { alive, safe }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::pt;

    #[test]
    fn two_separate_eyes_live_one_eye_does_not() {
        let b = Board::from_diagram(&[
            ". X . X O . .", //
            "X X X X O . .",
            "O O O O O . .",
            ". . . . . . .",
            ". . . O O O O",
            "O O O O X X X",
            ". . . O X . X",
        ])
        .unwrap();
        let black = unconditional_life(&b, Color::Black);
        // Upper-left black group: eyes at A7 and C7.
        assert!(black.is_alive(pt(&b, "B6")));
        // Lower-right black group: one eye of one point (F1) only.
        assert!(!black.is_alive(pt(&b, "E2")));
        let white = unconditional_life(&b, Color::White);
        assert!(!white.is_alive(pt(&b, "E7")));
    }

    #[test]
    fn a_big_region_is_not_vital_but_small_ones_are() {
        // Black wall with two eyes of three points (all adjacent to the wall) is alive.
        let b = Board::from_diagram(&[
            ". . . X . . .", //
            "X X X X X X X",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ])
        .unwrap();
        assert!(unconditional_life(&b, Color::Black).is_alive(pt(&b, "A6")));
        // One eye on top and the open board below (not vital: inner points are no
        // liberties): not unconditionally alive.
        let b = Board::from_diagram(&[
            ". . . . . . .", //
            "X X X X X X X",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ])
        .unwrap();
        assert!(!unconditional_life(&b, Color::Black).is_alive(pt(&b, "A6")));
    }

    #[test]
    fn chains_sharing_two_eyes_are_alive_together() {
        // Two black chains, each touching both eyes (A1 and C1).
        let b = Board::from_diagram(&[
            ". . . . .", //
            ". . . . .",
            "X X X X .",
            "X . X . X",
            ". X . X X",
        ])
        .unwrap();
        let black = unconditional_life(&b, Color::Black);
        // Eyes at A1, C1 and D2: B1 and D1 chains... every chain touches two of them.
        assert!(black.is_alive(pt(&b, "B1")), "{b:?}");
        assert!(black.is_alive(pt(&b, "A3")));
        assert!(black.is_alive(pt(&b, "E2")));
    }

    #[test]
    fn seki_is_not_unconditional_life() {
        // Corner seki: black and the white stones A1, B2 share the liberties A2 and B1.
        let b = Board::from_diagram(&[
            ". . . . .", //
            "O O O O .",
            "X X X O .",
            ". O X O .",
            "O . X O .",
        ])
        .unwrap();
        assert!(!unconditional_life(&b, Color::Black).is_alive(pt(&b, "C2")));
        assert!(!unconditional_life(&b, Color::White).is_alive(pt(&b, "B2")));
        assert!(!unconditional_life(&b, Color::White).is_alive(pt(&b, "D2")));
    }

    #[test]
    fn opponent_stones_in_a_small_enclosed_region_are_dead() {
        let b = Board::from_diagram(&[
            ". X O . X . X", //
            "X X X X X X X",
            ". . . . . . .",
            ". . . O . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ])
        .unwrap();
        let black = unconditional_life(&b, Color::Black);
        assert!(black.is_alive(pt(&b, "B7")));
        assert!(black.is_safe_territory(pt(&b, "C7")));
        assert!(black.is_safe_territory(pt(&b, "D7")));
        assert!(black.is_safe_territory(pt(&b, "A7")));
        // The open area below could still hold a living white group.
        assert!(!black.is_safe_territory(pt(&b, "D4")));
        assert!(!black.is_safe_territory(pt(&b, "A5")));
    }

    /// Benson's promise, checked by brute force: whatever the opponent plays while the owner
    /// passes, an unconditionally alive stone is never captured.
    #[test]
    fn unconditionally_alive_stones_survive_any_opponent_moves() {
        use crate::rng::Rng;
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for size in [5, 6, 7] {
            for game_no in 0..60 {
                // A random game that never fills its own eyes, stopped at a random length.
                let mut board = Board::new(size);
                let moves = rng.below(3 * size * size);
                let mut color = if game_no % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                for _ in 0..moves {
                    let candidates: Vec<Point> = board
                        .empty_points()
                        .iter()
                        .copied()
                        .filter(|&p| board.is_legal(p, color) && !board.is_playout_eye(p, color))
                        .collect();
                    if candidates.is_empty() {
                        board.pass(color);
                    } else {
                        board.play(candidates[rng.below(candidates.len())], color);
                    }
                    color = color.opponent();
                }
                let po_board = board;
                for owner in Color::BOTH {
                    let life = unconditional_life(&po_board, owner);
                    let alive: Vec<Point> =
                        po_board.points().filter(|&p| life.is_alive(p)).collect();
                    if alive.is_empty() {
                        continue;
                    }
                    checked += 1;
                    for _ in 0..20 {
                        let mut b = po_board.clone();
                        for _ in 0..3 * size * size {
                            let empties = b.empty_points().to_vec();
                            let legal: Vec<Point> = empties
                                .into_iter()
                                .filter(|&p| b.is_legal(p, owner.opponent()))
                                .collect();
                            if legal.is_empty() {
                                break;
                            }
                            let p = legal[rng.below(legal.len())];
                            b.play(p, owner.opponent());
                            b.pass(owner);
                        }
                        for &p in &alive {
                            assert_eq!(b.cell(p), Cell::stone(owner), "{po_board:?}");
                        }
                    }
                }
            }
        }
        assert!(
            checked > 20,
            "only {checked} positions had unconditional life"
        );
    }
}
