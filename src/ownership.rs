//! Monte-Carlo ownership: who owns each point at the end of many random playouts from a
//! position.
//!
//! This is the evidence behind dead-stone decisions at the end of a game: a chain whose
//! points end up owned by the opponent in most playouts is dead. Playouts use the light
//! policy ([`crate::playout`]) and alternate who moves first, so neither side gets the
//! tempo for free.

use crate::board::{Board, Cell, Color, Move, Point};
use crate::game::PositionHistory;
use crate::playout::{Playout, Policy};
use crate::rules::KoRule;

/// Average final ownership of every point over a number of playouts.
#[derive(Clone, Debug)]
pub struct Ownership {
    /// Per point: (playouts owned by Black − playouts owned by White) / playouts, in -1..=1.
    black: Vec<f32>,
    /// Number of playouts behind the figures.
    playouts: usize,
}

impl Ownership {
    /// Mean ownership of `p` from Black's side: +1 always Black's, -1 always White's.
    pub fn black(&self, p: Point) -> f32 {
        self.black[p as usize]
    }

    /// Mean ownership of `p` from `c`'s side.
    pub fn for_color(&self, p: Point, c: Color) -> f32 {
        match c {
            Color::Black => self.black(p),
            Color::White => -self.black(p),
        }
    }

    /// Mean ownership of the chain through the stone at `p` (on `board`) from its owner's
    /// side: +1 means it always survives, -1 that it is always captured.
    pub fn chain_survival(&self, board: &Board, p: Point) -> f32 {
        let Some(c) = board.cell(p).color() else {
            return 0.0;
        };
        let mut sum = 0.0;
        let mut n = 0.0;
        for s in board.chain_stones(p) {
            sum += self.for_color(s, c);
            n += 1.0;
        }
        sum / n
    }

    /// Number of playouts behind the estimate.
    pub fn playouts(&self) -> usize {
        self.playouts
    }
}

/// Where the playouts start: a board, the moves to play on it first, and the rules of
/// repetition.
pub struct Start<'a> {
    /// The position.
    pub board: &'a Board,
    /// Positions seen in the game, for superko.
    pub history: &'a PositionHistory,
    /// Repetition rule.
    pub ko: KoRule,
    /// A move to play before every playout (e.g. filling a liberty to test a seki), with
    /// its colour; the opponent then moves first in every playout.
    pub first: Option<(Point, Color)>,
}

/// Runs `playouts` light playouts from `start` with a fixed `seed` (deterministic) and
/// averages the final ownership.
pub fn estimate(start: &Start<'_>, playouts: usize, seed: u64) -> Ownership {
    let n = start.board.array_len();
    let mut sum = vec![0i32; n];
    let mut po = Playout::new(seed);
    let playouts = playouts.max(1);
    for i in 0..playouts {
        po.start(start.board);
        let to_move = match start.first {
            Some((p, c)) => {
                po.play_prefix(Move::Play(p), c);
                c.opponent()
            }
            None if i % 2 == 0 => Color::Black,
            None => Color::White,
        };
        po.run(to_move, start.history, start.ko, 0.0, Policy::Light);
        for p in start.board.points() {
            match po.owners[p as usize] {
                Cell::Black => sum[p as usize] += 1,
                Cell::White => sum[p as usize] -= 1,
                _ => {}
            }
        }
    }
    let black = sum.iter().map(|&s| s as f32 / playouts as f32).collect();
    Ownership { black, playouts }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::board_from_diagram;

    #[test]
    fn a_lone_stone_in_enemy_territory_dies_and_the_wall_lives() {
        let b = board_from_diagram(&[
            ". . X O . . . . .", //
            ". . X O . . . . .",
            ". . X O O O O O O",
            ". . X O . . . . .",
            ". . X O . X . . .",
            ". . X O . . . . .",
            ". . X O O O O O O",
            ". . X O . . . . .",
            ". . X O . . . . .",
        ])
        .unwrap();
        let history = PositionHistory::default();
        let own = estimate(
            &Start {
                board: &b,
                history: &history,
                ko: KoRule::Positional,
                first: None,
            },
            400,
            1,
        );
        let p = |v: &str| match b.parse_move(v) {
            Ok(Move::Play(p)) => p,
            _ => panic!(),
        };
        // Both walls are open to invasion of their small areas, but mostly survive.
        assert!(own.chain_survival(&b, p("C1")) > 0.5);
        assert!(own.chain_survival(&b, p("D1")) > 0.5);
        assert!(own.black(p("A4")) > 0.5);
        assert!(own.black(p("G4")) < -0.5);
        // The black stone F5 inside White's area is captured nearly always.
        assert!(own.chain_survival(&b, p("F5")) < -0.8);
        assert_eq!(own.playouts(), 400);
    }
}
