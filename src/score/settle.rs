//! The search's quick judgement of the end of the game, from the ownership of its own
//! playouts (thousands of times cheaper than the referee's decision in
//! [`super::status`], which the search uses only when a pass is in question).
//!
//! A tree line that ends with two passes is counted with the stones [`dead_stones`] takes
//! off ([`crate::score::settled_score`]); [`is_settled`] tells whether anything is left to
//! play; cleanup mode captures the stones [`pessimistic_dead_stones`] finds clearly dead,
//! and resigning counts as the opponent would ([`pessimistic_dead_stones`] from its side).

use crate::board::{Board, Cell, Color, MAX_POINTS, Move};
use crate::game::Game;

use super::area::DeadStones;
use super::ownership::Ownership;

/// The stones whose point the opponent owned in more than `threshold` (0.5..1) of the
/// playouts summarised by `ownership`.
pub fn dead_stones(board: &Board, ownership: &Ownership, threshold: f32) -> DeadStones {
    let mut dead = [false; MAX_POINTS];
    for p in board.points() {
        let o = ownership.black(p);
        dead[p as usize] = match board.cell(p) {
            Cell::Black => o < -(2.0 * threshold - 1.0),
            Cell::White => o > 2.0 * threshold - 1.0,
            _ => false,
        };
    }
    dead
}

/// Counting carefully, an own stone counts as dead as soon as the opponent owned its point
/// in more than 40% of the playouts: our share minus the opponent's below 0.2 (a stone's
/// point nearly always ends owned by someone). Counting on a doubtful group is how won
/// games are lost.
pub const OWN_STONE_DOUBTFUL_BELOW: f32 = 0.2;
/// Counting carefully, an opponent stone counts as dead only where we owned its point in at
/// least 75% of the playouts (a difference of 0.5): we must not count on a capture that may
/// not happen.
pub const OPPONENT_STONE_DEAD_FROM: f32 = 0.5;

/// The dead stones as `c` counts them carefully, erring against itself
/// (see [`OWN_STONE_DOUBTFUL_BELOW`] and [`OPPONENT_STONE_DEAD_FROM`]).
pub fn pessimistic_dead_stones(board: &Board, ownership: &Ownership, c: Color) -> DeadStones {
    let mut dead = [false; MAX_POINTS];
    for p in board.points() {
        // Share of the playouts in which `c` owned p minus the opponent's share.
        let ours = ownership.for_color(p, c);
        dead[p as usize] = match board.cell(p).color() {
            Some(s) if s == c => ours < OWN_STONE_DOUBTFUL_BELOW,
            Some(_) => ours >= OPPONENT_STONE_DEAD_FROM,
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

/// An empty point we could still play counts as settled when one side owned it in 90% of
/// the playouts (a difference of 0.8): a point less certain is still open to play.
pub const SETTLED_EMPTY_POINT: f32 = 0.8;
/// An empty point also counts as settled when it ended as nobody's in 90% of the playouts
/// (the same certainty): a shared liberty of a seki, which neither side can fill.
pub const SETTLED_NEUTRAL_POINT: f32 = 0.9;
/// A stone's fate counts as clear when one side owned its point in 80% of the playouts
/// (a difference of 0.6): stones live or die less certainly than empty points are taken.
pub const SETTLED_STONE: f32 = 0.6;
/// At the end of a tree line with two passes, a stone counts as dead when the opponent
/// owned its point in most of the priming playouts.
pub const TWO_PASS_DEAD_SHARE: f32 = 0.5;

/// Whether nothing is left to play for `color`: every point it could play is firmly owned by
/// one side or firmly nobody's (the shared liberties of a seki), with no open border, and
/// every stone's fate is clear.
pub fn is_settled(game: &Game, color: Color, ownership: &Ownership) -> bool {
    let board = game.board();
    for p in board.points() {
        let o = ownership.black(p).abs();
        match board.cell(p) {
            Cell::Empty => {
                if o < SETTLED_EMPTY_POINT
                    && ownership.neutral(p) < SETTLED_NEUTRAL_POINT
                    && !board.is_playout_eye(p, color)
                    && game.is_legal(Move::Play(p), color)
                {
                    return false;
                }
            }
            _ => {
                if o < SETTLED_STONE {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;
    use crate::score::area::{settled_area, settled_score};
    use crate::score::ownership::OwnershipTally;

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
        // Ten playouts: A3 Black's in nine, nobody's in one (0.9).
        let mut tally = OwnershipTally::new();
        tally.add_playouts(10);
        tally.add_point(a3 as usize, 9, 0);
        let own = tally.ownership(b);
        assert_eq!(own.black(a3), 0.9);
        assert_eq!(dead_stones(b, &own, 0.5), dead);
        assert!(has_dead(b, &dead, Color::White));
        // Counting before passing errs against the counter: White's A3 (90% Black's) is dead
        // for both; a White stone owned by Black in 60% of the playouts is dead for White but
        // not for Black.
        let Ok(crate::board::Move::Play(d3)) = b.parse_move("D3") else {
            panic!()
        };
        tally.add_point(d3 as usize, 6, 4);
        let own = tally.ownership(b);
        assert!(pessimistic_dead_stones(b, &own, Color::Black)[a3 as usize]);
        assert!(pessimistic_dead_stones(b, &own, Color::White)[a3 as usize]);
        assert!(!pessimistic_dead_stones(b, &own, Color::Black)[d3 as usize]);
        assert!(pessimistic_dead_stones(b, &own, Color::White)[d3 as usize]);
        assert!(!has_dead(b, &dead, Color::Black));
    }
}
