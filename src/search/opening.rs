//! The opening on big boards: empty corners first.
//!
//! A Go player takes the corners before the sides: a corner needs the fewest stones to make
//! territory and life. The search does not find this alone on 19x19: early in the game its
//! AMAF values, which weigh more than a move's own value for its first thousands of visits,
//! are noise and drown the learned policy, so a first move may land on a side's third line.
//! So while a corner is empty the search chooses among its 3-3, 3-4 and 4-4 points (which
//! of them, and which corner, stays the search's choice), unless a fight has begun.

use crate::board::{Cell, Color, Move, Point};
use crate::game::Game;

/// Smallest board the rule applies to: on smaller ones the corners are the whole board.
const MIN_SIZE: usize = 13;

/// Stones on the board beyond which the opening is over and the rule no longer applies.
const MAX_STONES: usize = 20;

/// A chain with fewer liberties than this means a fight is on: the rule steps aside.
const FIGHT_LIBERTIES: usize = 3;

/// Lines from the edges, each way, that make up a corner: a corner is empty when no stone
/// stands on them (6 on 19x19, where the 4-4 point's neighbourhood reaches the sixth line).
fn corner_lines(size: usize) -> usize {
    if size >= 17 { 6 } else { 5 }
}

/// The moves `color` may choose from at this point of the game: the 3-3, 3-4, 4-3 and 4-4
/// points of every empty corner, early in the game on a board of 13x13 or more while no
/// chain has fewer than three liberties. `None` when the rule does not apply (every move is
/// open then).
pub fn empty_corner_moves(game: &Game, color: Color) -> Option<Vec<Move>> {
    let board = game.board();
    let size = board.size();
    if size < MIN_SIZE {
        return None;
    }
    if board.stone_count() > MAX_STONES {
        return None;
    }
    let fight = board
        .points()
        .any(|p| board.cell(p) != Cell::Empty && board.liberties(p) < FIGHT_LIBERTIES);
    if fight {
        return None;
    }
    let lines = corner_lines(size);
    let mut moves = Vec::new();
    for (right, top) in [(false, false), (true, false), (false, true), (true, true)] {
        // Column and row as lines from this corner's edges (0 = first line).
        let at = |line_x: usize, line_y: usize| -> Point {
            let col = if right { size - 1 - line_x } else { line_x };
            let row = if top { size - 1 - line_y } else { line_y };
            board.point(col, row)
        };
        let empty = (0..lines).all(|x| (0..lines).all(|y| board.cell(at(x, y)) == Cell::Empty));
        if !empty {
            continue;
        }
        for (x, y) in [(2, 2), (2, 3), (3, 2), (3, 3)] {
            let mv = Move::Play(at(x, y));
            if game.is_legal(mv, color) {
                moves.push(mv);
            }
        }
    }
    (!moves.is_empty()).then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Rules;

    /// Whether `p` lies on the 3-3, 3-4 or 4-4 point of some corner of `board`.
    fn is_corner_point(board: &Board, p: Point) -> bool {
        let (col, row) = board.col_row(p);
        let line = |v: usize| v.min(board.size() - 1 - v);
        let (x, y) = (line(col), line(row));
        (2..=3).contains(&x) && (2..=3).contains(&y)
    }

    fn game_with(size: usize, moves: &[&str]) -> Game {
        let mut g = Game::new(size, Rules::chinese()).unwrap();
        let mut c = Color::Black;
        for m in moves {
            let mv = crate::gtp::parse_vertex(g.board(), m).unwrap();
            g.play(mv, c).unwrap();
            c = c.opponent();
        }
        g
    }

    fn points(g: &Game, moves: &[Move]) -> Vec<String> {
        let mut v: Vec<String> = moves
            .iter()
            .map(|m| match m {
                Move::Play(p) => g.board().vertex_name(*p),
                Move::Pass => "pass".into(),
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn an_empty_board_offers_the_four_points_of_each_corner() {
        let g = game_with(19, &[]);
        let moves = empty_corner_moves(&g, g.to_move()).unwrap();
        assert_eq!(moves.len(), 16);
        for m in &moves {
            let Move::Play(p) = *m else { panic!("a pass") };
            assert!(
                is_corner_point(g.board(), p),
                "{}",
                g.board().vertex_name(p)
            );
        }
        let names = points(&g, &moves);
        for v in [
            "C3", "C4", "D3", "D4", "Q16", "Q17", "R16", "R17", "C16", "D17", "Q3", "R4",
        ] {
            assert!(names.contains(&v.to_string()), "{v} missing from {names:?}");
        }
    }

    #[test]
    fn an_occupied_or_approached_corner_is_no_longer_offered() {
        // Black takes the top right, White the bottom left; Black's stone on the sixth line
        // (F14) spoils the top left, a stone on the seventh (G7) spoils nothing.
        let g = game_with(19, &["Q16", "D4", "F14", "G7"]);
        let names = points(&g, &empty_corner_moves(&g, g.to_move()).unwrap());
        assert_eq!(names, ["Q3", "Q4", "R3", "R4"]);
    }

    #[test]
    fn the_rule_steps_aside_in_a_fight_late_in_the_opening_and_on_small_boards() {
        // No corner empty.
        let g = game_with(19, &["Q16", "D4", "Q4", "D16"]);
        assert_eq!(empty_corner_moves(&g, g.to_move()), None);
        // A white stone with two liberties (K10 between black K11 and J10) is a fight.
        let g = game_with(19, &["K11", "K10", "J10"]);
        assert_eq!(empty_corner_moves(&g, g.to_move()), None);
        // The same stones without the fight leave the corners to take.
        let g = game_with(19, &["K11", "K9", "J10"]);
        assert!(empty_corner_moves(&g, g.to_move()).is_some());
        // 20 stones apart from each other in the middle leave the corners to take; 21 end
        // the opening.
        let middle: Vec<String> = [7, 9, 11]
            .iter()
            .flat_map(|row| ["C", "E", "G", "J", "L", "N", "Q"].map(|col| format!("{col}{row}")))
            .collect();
        let refs: Vec<&str> = middle.iter().map(String::as_str).collect();
        assert!(empty_corner_moves(&game_with(19, &refs[..20]), Color::Black).is_some());
        assert_eq!(
            empty_corner_moves(&game_with(19, &refs), Color::White),
            None
        );
        // 9x9: never.
        assert_eq!(empty_corner_moves(&game_with(9, &[]), Color::Black), None);
        // 13x13: the same points, five lines make a corner.
        let g = game_with(13, &["K10"]);
        let names = points(&g, &empty_corner_moves(&g, g.to_move()).unwrap());
        assert_eq!(names.len(), 12);
        assert!(names.contains(&"C3".to_string()) && !names.contains(&"K10".to_string()));
    }
}
