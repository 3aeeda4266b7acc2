//! Local fight steps of the heavy playouts, after the ideas of Pachi's moggy playouts: how a
//! playout handles two-liberty chains near the last move, eyes the last move threatens, and
//! random moves that would be a bad self-atari or fill a false eye. Each has its rate in
//! [`super::Playout::configure_fights`]; the search's default is Pachi's rates
//! ([`super::FightRates::PACHI`], nakade off; measured effects in `docs/strength.md`).
//!
//! - **Two-liberty fights** ([`two_liberty_fight_moves`]): for every chain of two liberties
//!   that the last move belongs to or touches and that an atari cannot harm (one liberty
//!   connects it to a healthy own chain, the other does too or runs out), both liberties are
//!   candidates: the attacker's atari, the owner's extension (unless it is hopeless: the
//!   extension gains nothing). The owner may also capture a neighbour in atari or atari a
//!   two-liberty neighbour instead. The engine's own two-liberty step
//!   (`heavy::two_liberty_moves`) only plays ataris that capture and extensions that save;
//!   this one fights every race that the last move started.
//! - **Eye fixing** ([`eye_fix_moves`]): after an opponent move that makes a point next to
//!   one of its stones threaten to turn an eye false, fill that point first.
//! - **Self-atari redirection** ([`self_atari_alternative`]): when the random move is a bad
//!   self-atari, play the move it was probably meant to be: the other liberty of the
//!   opponent chain it attacks, or of the own chain it extends, or a counter-capture.
//! - **Eye-fill redirection** ([`eye_fill_alternative`]): when the random move fills a
//!   (false) eye, capture or atari the opponent stone on its diagonal instead.
//! - **Nakade** ([`nakade_vital_point`]): when the last move borders a small enclosed eye
//!   space (three to six empty points that one colour alone surrounds, the last move's stone
//!   aside), play its vital point, the one point with the most neighbours inside the space:
//!   the defender makes two eyes there, the attacker kills. Shapes with no single such point
//!   (a straight or bent four, a square four, a two-by-three six) live or die whoever
//!   plays first, and are left alone.
//!
//! Nothing here allocates.

use super::heavy::{Candidates, TwoLibertyChain, is_bad_self_atari};
use crate::board::{Board, Cell, Color, NO_POINT, Point};
use crate::tactics;

/// Number of stones of `c` next to `p`.
#[inline]
fn stone_neighbors(board: &Board, p: Point, c: Color) -> usize {
    let own = Cell::stone(c);
    board
        .neighbors(p)
        .into_iter()
        .filter(|&q| board.cell(q) == own)
        .count()
}

/// Whether an atari cannot harm the two-liberty chain through `stone` (liberties `libs`):
/// one liberty joins it to another own chain of two liberties or more, and the other one
/// does too or has a free point of its own to run to.
pub(super) fn atari_is_harmless(board: &Board, stone: Point, libs: [Point; 2]) -> bool {
    let own = board.cell(stone);
    let head = board.chain_id(stone);
    let connects = |lib: Point| {
        board
            .neighbors(lib)
            .into_iter()
            .any(|q| board.cell(q) == own && board.chain_id(q) != head && board.liberties(q) > 1)
    };
    let runs = |lib: Point, other: Point| {
        board
            .neighbors(lib)
            .into_iter()
            .any(|q| q != other && board.cell(q) == Cell::Empty)
    };
    let (a, b) = (libs[0], libs[1]);
    (connects(a) && (connects(b) || runs(b, a))) || (connects(b) && runs(a, b))
}

/// Whether the owner of a two-liberty chain extending at its liberty `lib` (the other is
/// `other`) gains nothing: the chain touches `lib` with one stone and the point has only
/// one free neighbour, or two of which one is the other liberty.
#[inline]
fn extension_is_hopeless(board: &Board, lib: Point, other: Point, owner: Color) -> bool {
    if stone_neighbors(board, lib, owner) != 1 {
        return false;
    }
    match board.empty_neighbors(lib) {
        0 | 1 => true,
        2 => board.neighbors(lib).contains(&other),
        _ => false,
    }
}

/// The liberties of the two-liberty chain through `stone` (of `owner`) that `c` may play
/// as atari (the attacker) or extension (the owner): legal, no bad self-atari, and for the
/// owner not hopeless. When one of the two is "lumpy" (three sides own stones or edge:
/// slow and shapeless) and the other not, only the other.
fn liberty_moves(board: &Board, stone: Point, owner: Color, c: Color, out: &mut Candidates) {
    let mut libs = [NO_POINT; 2];
    if tactics::chain_liberties(board, stone, &mut libs) != 2 {
        return;
    }
    let mut chosen = [(NO_POINT, false); 2];
    for i in 0..2 {
        let (lib, other) = (libs[i], libs[1 - i]);
        if !board.is_legal(lib, c)
            || (c == owner && extension_is_hopeless(board, lib, other, owner))
            || is_bad_self_atari(board, lib, c)
        {
            continue;
        }
        let lumpy = board.own_or_border_neighbors(lib, c) >= 3;
        chosen[i] = (lib, !lumpy);
    }
    let [(a, pa), (b, pb)] = chosen;
    if a != NO_POINT && b != NO_POINT && pa != pb {
        out.push(if pa { a } else { b });
    } else {
        out.push(a);
        out.push(b);
    }
}

/// Moves for `c` in the two-liberty fights around the last move (`chains`,
/// [`super::heavy::two_liberty_chains_around`]; see the module documentation): ataris on the
/// opponent's chains of two liberties, extensions of its own, and the owner's
/// counter-captures and counter-ataris.
pub(super) fn two_liberty_fight_moves(
    board: &Board,
    chains: &[TwoLibertyChain],
    c: Color,
    out: &mut Candidates,
) {
    let own = Cell::stone(c);
    let opp = Cell::stone(c.opponent());
    for &TwoLibertyChain { id: h, cell, libs } in chains {
        if atari_is_harmless(board, h, libs) {
            continue;
        }
        let owner = if cell == own { c } else { c.opponent() };
        liberty_moves(board, h, owner, c, out);
        if cell != own {
            continue;
        }
        // The owner may instead capture or atari an attacker.
        let mut attackers = [NO_POINT; 8];
        let mut n_attackers = 0;
        for s in board.chain_stones(h) {
            for r in board.neighbors(s) {
                if board.cell(r) != opp {
                    continue;
                }
                let g = board.chain_id(r);
                if attackers[..n_attackers].contains(&g) || n_attackers == attackers.len() {
                    continue;
                }
                attackers[n_attackers] = g;
                n_attackers += 1;
                match board.liberties(g) {
                    1 => {
                        let l = tactics::last_liberty(board, g);
                        if board.is_legal(l, c) {
                            out.push(l);
                        }
                    }
                    2 => liberty_moves(board, g, c.opponent(), c, out),
                    _ => {}
                }
            }
        }
    }
}

/// Moves for `c` that keep an eye from turning false after the opponent's move `last`: the
/// last move stands diagonally between two of our stones (or the edge) next to an opponent
/// stone whose free neighbour could, once played, leave only one diagonal of an eye of ours
/// (or none, on the edge) in our hands. Fill that free point first, or capture an opponent
/// stone in atari on the eye's diagonal.
pub(super) fn eye_fix_moves(board: &Board, last: Point, c: Color, out: &mut Candidates) {
    let own = Cell::stone(c);
    let opp = Cell::stone(c.opponent());
    let s = board.stride() as Point;
    let (up, down) = (last.wrapping_sub(s), last.wrapping_add(s));
    let (left, right) = (last.wrapping_sub(1), last.wrapping_add(1));
    // Each side of the last move with the two diagonals beside it, clockwise.
    let sides = [
        (up.wrapping_sub(1), up, up.wrapping_add(1)),
        (up.wrapping_add(1), right, down.wrapping_add(1)),
        (down.wrapping_add(1), down, down.wrapping_sub(1)),
        (down.wrapping_sub(1), left, up.wrapping_sub(1)),
    ];
    let ours_or_edge = |p: Point| {
        let cell = board.cell(p);
        cell == own || cell == Cell::Border
    };
    for (d0, side, d1) in sides {
        if !ours_or_edge(d0) || board.cell(side) != opp || !ours_or_edge(d1) {
            continue;
        }
        for falsifying in board.neighbors(side) {
            if board.cell(falsifying) != Cell::Empty {
                continue;
            }
            for eye in board.diagonals(falsifying) {
                if board.cell(eye) != Cell::Empty || !board.is_eyelike(eye, c) {
                    continue;
                }
                let mut opp_diagonals = 0;
                let mut edge_diagonals = 0;
                for d in board.diagonals(eye) {
                    let cell = board.cell(d);
                    if cell == opp && board.liberties(d) == 1 {
                        out.push(tactics::last_liberty(board, d));
                    } else if cell == opp {
                        opp_diagonals += 1;
                    } else if cell == Cell::Border {
                        edge_diagonals += 1;
                    }
                }
                if opp_diagonals == 1 || (opp_diagonals == 0 && edge_diagonals == 2) {
                    out.push(falsifying);
                }
            }
        }
    }
}

/// Moves for `c` to play instead of the bad self-atari `p` (see the module documentation),
/// in order of preference: the other liberties of the two-liberty opponent chains next to
/// `p` (approaching from the other side), else the other liberties of the two-liberty own
/// chains next to it that are no eye of ours, and counter-captures of those own chains.
/// The caller checks the candidates' legality.
pub(super) fn self_atari_alternative(board: &Board, p: Point, c: Color, out: &mut Candidates) {
    let other_liberty = |h: Point| {
        let mut libs = [NO_POINT; 2];
        tactics::chain_liberties(board, h, &mut libs);
        if libs[0] == p { libs[1] } else { libs[0] }
    };
    let (opp_heads, n_opp) = tactics::adjacent_chains(board, p, c.opponent());
    for &h in &opp_heads[..n_opp] {
        if board.liberties(h) == 2 {
            out.push(other_liberty(h));
        }
    }
    if out.len > 0 {
        return;
    }
    let opp = Cell::stone(c.opponent());
    let (own_heads, n_own) = tactics::adjacent_chains(board, p, c);
    for &h in &own_heads[..n_own] {
        if board.liberties(h) == 2 {
            let l = other_liberty(h);
            if !board.is_eyelike(l, c) {
                out.push(l);
            }
        }
        for s in board.chain_stones(h) {
            for r in board.neighbors(s) {
                if board.cell(r) == opp && board.liberties(r) == 1 {
                    out.push(tactics::last_liberty(board, r));
                }
            }
        }
    }
}

/// Moves for `c` to play instead of filling its eye-like point `p` (a false eye: the
/// playouts never fill real ones) when no own chain next to it is in atari: the captures
/// of opponent chains in atari on a diagonal of `p`, or if there are none, ataris on the
/// two-liberty ones there. The caller checks the candidates' legality.
pub(super) fn eye_fill_alternative(board: &Board, p: Point, c: Color, out: &mut Candidates) {
    let own = Cell::stone(c);
    if board
        .neighbors(p)
        .into_iter()
        .any(|q| board.cell(q) == own && board.liberties(q) == 1)
    {
        return;
    }
    let opp = Cell::stone(c.opponent());
    let diagonal_chains = |libs: usize| {
        board
            .diagonals(p)
            .into_iter()
            .filter(move |&d| board.cell(d) == opp && board.liberties(d) == libs)
    };
    for d in diagonal_chains(1) {
        out.push(tactics::last_liberty(board, d));
    }
    if out.len > 0 {
        return;
    }
    for d in diagonal_chains(2) {
        let mut libs = [NO_POINT; 2];
        tactics::chain_liberties(board, d, &mut libs);
        out.push(libs[0]);
        out.push(libs[1]);
    }
}

/// The largest eye space [`nakade_vital_point`] looks at.
const NAKADE_MAX_SPACE: usize = 6;

/// The vital point of a small eye space that the last move `last` borders, if any (see the
/// module documentation). The caller checks legality and self-atari.
pub(super) fn nakade_vital_point(board: &Board, last: Point) -> Point {
    for start in board.neighbors(last) {
        if board.cell(start) != Cell::Empty {
            continue;
        }
        let mut space = [NO_POINT; NAKADE_MAX_SPACE];
        let Some(len @ 3..) = eye_space(board, start, last, &mut space) else {
            continue;
        };
        let space = &space[..len];
        let degree = |p: Point| {
            board
                .neighbors(p)
                .into_iter()
                .filter(|q| space.contains(q))
                .count()
        };
        let best = space.iter().map(|&p| degree(p)).max().unwrap_or(0);
        let mut vital = space.iter().filter(|&&p| degree(p) == best);
        if let (Some(&p), None) = (vital.next(), vital.next()) {
            return p;
        }
    }
    NO_POINT
}

/// Fills `space` with the empty region through `start` and returns its size; `None` when
/// it has more than [`NAKADE_MAX_SPACE`] points or stones of both colours around it (the
/// stone at `last` aside), or no stone at all.
fn eye_space(
    board: &Board,
    start: Point,
    last: Point,
    space: &mut [Point; NAKADE_MAX_SPACE],
) -> Option<usize> {
    space[0] = start;
    let mut len = 1;
    let mut owner = Cell::Empty;
    let mut i = 0;
    while i < len {
        for q in board.neighbors(space[i]) {
            match board.cell(q) {
                Cell::Empty => {
                    if !space[..len].contains(&q) {
                        if len == NAKADE_MAX_SPACE {
                            return None;
                        }
                        space[len] = q;
                        len += 1;
                    }
                }
                Cell::Border => {}
                _ if q == last => {}
                stone => {
                    if owner == Cell::Empty {
                        owner = stone;
                    } else if owner != stone {
                        return None;
                    }
                }
            }
        }
        i += 1;
    }
    (owner != Cell::Empty).then_some(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};
    use crate::playout::heavy::two_liberty_chains_around;

    /// [`two_liberty_fight_moves`] for the chains around the last move `last`.
    fn fight_moves_after(b: &Board, last: Point, c: Color, out: &mut Candidates) {
        let (chains, n) = two_liberty_chains_around(b, last);
        two_liberty_fight_moves(b, &chains[..n], c, out);
    }

    fn sorted(b: &Board, cands: &Candidates) -> Vec<String> {
        let mut v: Vec<String> = cands.points[..cands.len]
            .iter()
            .map(|&p| b.vertex_name(p))
            .collect();
        v.sort();
        v
    }

    fn names(list: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    /// White has just played a lone stone with two liberties beside Black's stone B2.
    fn white_stone_on_the_edge(extra: &str) -> Board {
        let mut b = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". . . . .",
            ". X . . .",
            extra,
        ]);
        let b1 = pt(&b, "B1");
        b.play(b1, Color::White);
        b
    }

    #[test]
    fn both_sides_fight_a_two_liberty_chain_but_not_hopelessly() {
        let b = white_stone_on_the_edge(". . . . .");
        let b1 = pt(&b, "B1");
        // Black ataris from C1; A1 would be a self-atari (its only liberty A2).
        let mut cands = Candidates::new();
        fight_moves_after(&b, b1, Color::Black, &mut cands);
        assert_eq!(sorted(&b, &cands), names(&["C1"]));
        // White extends to C1; A1 gains nothing (its one free neighbour is A2).
        assert!(extension_is_hopeless(
            &b,
            pt(&b, "A1"),
            pt(&b, "C1"),
            Color::White
        ));
        assert!(!extension_is_hopeless(
            &b,
            pt(&b, "C1"),
            pt(&b, "A1"),
            Color::White
        ));
        let mut cands = Candidates::new();
        fight_moves_after(&b, b1, Color::White, &mut cands);
        assert_eq!(sorted(&b, &cands), names(&["C1"]));
    }

    #[test]
    fn a_chain_that_connects_out_is_left_alone() {
        // White D1 makes C1 a connection to a healthy chain and A1 still runs to A2.
        let b = white_stone_on_the_edge(". . . O .");
        let b1 = pt(&b, "B1");
        let mut libs = [NO_POINT; 2];
        tactics::chain_liberties(&b, b1, &mut libs);
        assert!(atari_is_harmless(&b, b1, libs));
        for c in Color::BOTH {
            let mut cands = Candidates::new();
            fight_moves_after(&b, b1, c, &mut cands);
            assert_eq!(cands.len, 0, "{c:?}");
        }
    }

    #[test]
    fn the_owner_of_a_short_chain_may_atari_its_attacker() {
        // After White's C2, Black A1 A2 B2 has two liberties (A3, B3) and so has White's
        // B1 C1 C2 beside it (C3, D2): Black extends to B3 (A3 gains nothing) or ataris
        // White.
        let mut b = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". . . . .",
            "X X . . .",
            "X O O X .",
        ]);
        let c2 = pt(&b, "C2");
        b.play(c2, Color::White);
        assert_eq!(b.liberties(pt(&b, "A2")), 2);
        assert_eq!(b.liberties(c2), 2);
        let mut cands = Candidates::new();
        fight_moves_after(&b, c2, Color::Black, &mut cands);
        assert_eq!(sorted(&b, &cands), names(&["B3", "C3", "D2"]));
    }

    #[test]
    fn an_approach_that_threatens_to_make_an_eye_false_is_answered() {
        // White's E7 next to D7 threatens C7, which would leave the eye B6 false (White
        // already holds its diagonal C5).
        let mut b = board_from(&[
            "X X . O . O .", //
            "X . X X O . .",
            "X X O O . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let e7 = pt(&b, "E7");
        b.play(e7, Color::White);
        let mut cands = Candidates::new();
        eye_fix_moves(&b, e7, Color::Black, &mut cands);
        assert_eq!(sorted(&b, &cands), names(&["C7"]));
        // A move far away threatens nothing.
        let g1 = pt(&b, "G1");
        b.play(g1, Color::White);
        let mut cands = Candidates::new();
        eye_fix_moves(&b, g1, Color::Black, &mut cands);
        assert_eq!(cands.len, 0);
    }

    #[test]
    fn a_self_atari_turns_into_the_approach_from_the_other_side() {
        // Black A1 would be in atari (only A2); the atari on White B1 is C1.
        let b = white_stone_on_the_edge(". . . . .");
        let a1 = pt(&b, "A1");
        assert!(is_bad_self_atari(&b, a1, Color::Black));
        let mut cands = Candidates::new();
        self_atari_alternative(&b, a1, Color::Black, &mut cands);
        assert_eq!(sorted(&b, &cands), names(&["C1"]));
    }

    #[test]
    fn a_false_eye_fill_turns_into_a_capture_else_an_atari() {
        // C3 is Black's false eye (White holds B4, B2, D2).
        let b = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". O X . . . .",
            ". X . X . . .",
            ". O X O . . .",
            ". . . . . . .",
        ]);
        let c3 = pt(&b, "C3");
        assert!(b.is_eyelike(c3, Color::Black) && !b.is_playout_eye(c3, Color::Black));
        let mut cands = Candidates::new();
        eye_fill_alternative(&b, c3, Color::Black, &mut cands);
        assert_eq!(
            sorted(&b, &cands),
            names(&["A4", "B5", "A2", "B1", "E2", "D1"])
        );
        // With B4 in atari, only its capture.
        let mut b2 = b.clone();
        let a4 = pt(&b2, "A4");
        b2.play(a4, Color::Black);
        let mut cands = Candidates::new();
        eye_fill_alternative(&b2, c3, Color::Black, &mut cands);
        assert_eq!(sorted(&b2, &cands), names(&["B5"]));
    }

    #[test]
    fn the_vital_point_of_a_small_eye_space_is_found_only_when_it_decides() {
        // Black spaces in the corner, each with the wall stone played last.
        let shapes: [(&[&str], &str, Option<&str>); 5] = [
            // Bulky five A1 B1 C1 A2 B2: B1 has three neighbours inside.
            (
                &[
                    ". . . . .",
                    ". . . . .",
                    "X X X . .",
                    ". . X . .",
                    ". . . X .",
                ],
                "C2",
                Some("B1"),
            ),
            // Pyramid four A1 B1 C1 B2: B1.
            (
                &[
                    ". . . . .",
                    ". . . . .",
                    ". X . . .",
                    "X . X . .",
                    ". . . X .",
                ],
                "C2",
                Some("B1"),
            ),
            // Straight three A1 B1 C1: B1.
            (
                &[
                    ". . . . .",
                    ". . . . .",
                    ". . . . .",
                    "X X X X .",
                    ". . . X .",
                ],
                "D1",
                Some("B1"),
            ),
            // Straight four A1 to D1 lives whoever plays: no vital point.
            (
                &[
                    ". . . . .",
                    ". . . . .",
                    ". . . . .",
                    "X X X X X",
                    ". . . . X",
                ],
                "B2",
                None,
            ),
            // Square four A1 B1 A2 B2 is dead already: no vital point.
            (
                &[
                    ". . . . .",
                    ". . . . .",
                    "X X . . .",
                    ". . X . .",
                    ". . X . .",
                ],
                "C2",
                None,
            ),
        ];
        for (rows, last, want) in shapes {
            let b = board_from(rows);
            let v = nakade_vital_point(&b, pt(&b, last));
            let got = (v != NO_POINT).then(|| b.vertex_name(v));
            assert_eq!(got.as_deref(), want, "{rows:?}");
        }
        // A space with stones of both colours around it is no eye space.
        let b = board_from(&[
            ". . . . .",
            ". . . . .",
            ". O . . .",
            "X . X . .",
            ". . . X .",
        ]);
        assert_eq!(nakade_vital_point(&b, pt(&b, "C2")), NO_POINT);
    }
}
