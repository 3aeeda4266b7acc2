//! Counting a position as if the game ended now: stones judged dead are taken off, then area is
//! counted (stones plus empty regions bordered by one colour only).
//!
//! The search uses this for the end of the game: a tree line ending in two passes is scored
//! this way, and before passing the engine checks that the count wins. Dead stones come from
//! playout ownership: a stone is dead when the opponent owned its point at the end of most
//! playouts.

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};

/// Per point: the share of playouts Black owned it minus the share White did (-1..1).
pub type Ownership = [f32; MAX_POINTS];

/// Stones judged dead: true on points holding a dead stone.
pub type DeadStones = [bool; MAX_POINTS];

/// The stones whose point the opponent owned in more than `threshold` (0.5..1) of the
/// playouts summarised by `ownership`.
pub fn dead_stones(board: &Board, ownership: &Ownership, threshold: f32) -> DeadStones {
    let mut dead = [false; MAX_POINTS];
    for p in board.points() {
        let o = ownership[p as usize];
        dead[p as usize] = match board.cell(p) {
            Cell::Black => o < -(2.0 * threshold - 1.0),
            Cell::White => o > 2.0 * threshold - 1.0,
            _ => false,
        };
    }
    dead
}

/// The dead stones as `c` should count them before ending the game, erring against itself:
/// an opponent stone is dead only where `c` owned its point in at least 75% of the playouts,
/// an own stone as soon as the opponent owned it in more than 40%.
pub fn pessimistic_dead_stones(board: &Board, ownership: &Ownership, c: Color) -> DeadStones {
    let mut dead = [false; MAX_POINTS];
    let sign = if c == Color::Black { 1.0 } else { -1.0 };
    for p in board.points() {
        // Share of the playouts in which `c` owned p minus the opponent's share; a stone's
        // point nearly always ends owned by someone, so a share of 40% is a difference of
        // 0.2 and a share of 75% a difference of 0.5.
        let ours = sign * ownership[p as usize];
        dead[p as usize] = match board.cell(p).color() {
            Some(s) if s == c => ours < 0.2,
            Some(_) => ours >= 0.5,
            None => false,
        };
    }
    dead
}

/// Whether some stone of `c` is marked dead.
pub fn has_dead(board: &Board, dead: &DeadStones, c: Color) -> bool {
    board
        .points()
        .any(|p| dead[p as usize] && board.cell(p) == Cell::stone(c))
}

/// Black's area minus White's area minus `komi`, with the `dead` stones taken off first;
/// with `tax`, every living group also costs its owner two points (ancient rules, 還棋頭).
/// Allocates nothing.
pub fn settled_score(board: &Board, dead: &DeadStones, komi: f32, tax: bool) -> f32 {
    let mut owners = [Cell::Empty; MAX_POINTS];
    let area = settled_area(board, dead, &mut owners);
    let mut score = area[0] as f32 - area[1] as f32 - komi;
    if tax {
        let groups = count_groups(board, &owners);
        score -= 2.0 * (groups[0] as f32 - groups[1] as f32);
    }
    score
}

/// The area of Black and White with the `dead` stones taken off; `owners` gets each point's
/// owner ([`Cell::Empty`] for nobody's).
pub fn settled_area(board: &Board, dead: &DeadStones, owners: &mut [Cell; MAX_POINTS]) -> [u32; 2] {
    let mut seen = [false; MAX_POINTS];
    let mut stack = [0 as Point; MAX_POINTS];
    let mut region = [0 as Point; MAX_POINTS];
    let mut area = [0u32; 2];
    let live = |p: Point| -> Option<Color> {
        let c = board.cell(p).color()?;
        (!dead[p as usize]).then_some(c)
    };
    for p in board.points() {
        if let Some(c) = live(p) {
            area[c.index()] += 1;
            owners[p as usize] = Cell::stone(c);
            continue;
        }
        if seen[p as usize] {
            continue;
        }
        // Flood the region of empty points and dead stones through p.
        let mut touches = [false; 2];
        let mut size = 0;
        let mut top = 1;
        stack[0] = p;
        seen[p as usize] = true;
        while top > 0 {
            top -= 1;
            let q = stack[top];
            region[size] = q;
            size += 1;
            for n in board.neighbors(q) {
                if board.cell(n) == Cell::Border {
                    continue;
                }
                if let Some(c) = live(n) {
                    touches[c.index()] = true;
                } else if !seen[n as usize] {
                    seen[n as usize] = true;
                    stack[top] = n;
                    top += 1;
                }
            }
        }
        let owner = match touches {
            [true, false] => Cell::Black,
            [false, true] => Cell::White,
            _ => Cell::Empty,
        };
        if let Some(c) = owner.color() {
            area[c.index()] += size as u32;
        }
        for &q in &region[..size] {
            owners[q as usize] = owner;
        }
    }
    area
}

/// Living groups of each colour: maximal sets of points owned by one colour (its stones and
/// its territory) connected orthogonally.
fn count_groups(board: &Board, owners: &[Cell; MAX_POINTS]) -> [u32; 2] {
    let mut seen = [false; MAX_POINTS];
    let mut stack = [0 as Point; MAX_POINTS];
    let mut groups = [0u32; 2];
    for p in board.points() {
        let owner = owners[p as usize];
        let Some(c) = owner.color() else { continue };
        if seen[p as usize] {
            continue;
        }
        groups[c.index()] += 1;
        seen[p as usize] = true;
        stack[0] = p;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            for n in board.neighbors(stack[top]) {
                if board.on_board(n) && owners[n as usize] == owner && !seen[n as usize] {
                    seen[n as usize] = true;
                    stack[top] = n;
                    top += 1;
                }
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;

    #[test]
    fn dead_stones_count_for_the_surrounding_side() {
        // 5x5: Black wall on column B, White wall on column D, a white stone at A3 inside
        // Black's side.
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        let moves = [
            ("B1", Color::Black),
            ("D1", Color::White),
            ("B2", Color::Black),
            ("D2", Color::White),
            ("B3", Color::Black),
            ("D3", Color::White),
            ("B4", Color::Black),
            ("D4", Color::White),
            ("B5", Color::Black),
            ("D5", Color::White),
            ("C3", Color::Black),
            ("A3", Color::White),
        ];
        for (v, c) in moves {
            let m = g.board().parse_move(v).unwrap();
            g.play(m, c).unwrap();
        }
        let b = g.board();
        let none = [false; MAX_POINTS];
        // All alive: Black B column 5 + C3 = 6, A column touches White A3: neutral, so
        // Black 6; White D column 5 + E column 5 = 10, A3 = 1: 11. C column: C1,C2,C4,C5
        // touch both: neutral.
        let mut owners = [Cell::Empty; MAX_POINTS];
        assert_eq!(settled_area(b, &none, &mut owners), [6, 11]);
        let mut dead = [false; MAX_POINTS];
        let Ok(crate::board::Move::Play(a3)) = b.parse_move("A3") else {
            panic!()
        };
        dead[a3 as usize] = true;
        // A3 dead: the whole A column (5) is Black's.
        assert_eq!(settled_area(b, &dead, &mut owners), [11, 10]);
        assert_eq!(settled_score(b, &dead, 0.5, false), 0.5);
        // One black group (B column, C3 and the A column), one white group (D-E columns):
        // the taxes cancel.
        assert_eq!(settled_score(b, &dead, 0.5, true), 0.5);
        // All alive: White's A3 is a second white group, taxed 2 more.
        assert_eq!(settled_score(b, &none, 0.5, false), -5.5);
        assert_eq!(settled_score(b, &none, 0.5, true), -3.5);
        let mut own = [0.0f32; MAX_POINTS];
        own[a3 as usize] = 0.9;
        assert_eq!(dead_stones(b, &own, 0.5), dead);
        assert!(has_dead(b, &dead, Color::White));
        // Counting before passing errs against the counter: White's A3 (90% Black's) is dead
        // for both; a White stone owned by Black in 60% of the playouts is dead for White but
        // not for Black.
        let Ok(crate::board::Move::Play(d3)) = b.parse_move("D3") else {
            panic!()
        };
        own[d3 as usize] = 0.2;
        assert!(pessimistic_dead_stones(b, &own, Color::Black)[a3 as usize]);
        assert!(pessimistic_dead_stones(b, &own, Color::White)[a3 as usize]);
        assert!(!pessimistic_dead_stones(b, &own, Color::Black)[d3 as usize]);
        assert!(pessimistic_dead_stones(b, &own, Color::White)[d3 as usize]);
        assert!(!has_dead(b, &dead, Color::Black));
    }
}
