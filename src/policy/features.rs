//! The non-shape features of a move: captures, atari escapes and extensions, self-atari,
//! ataris (with the ladder read), distances to the last two moves and to the edge, pass.
//!
//! Features come in groups; a move has at most one value in each group (0: none), so the
//! model gives each (group, value) one weight and a move's score is the sum of its weights
//! (Coulom's generalized Bradley-Terry model, in log space). The values of all groups are
//! packed into one [`Code`].
//!
//! Most points of a position touch no chain short of liberties; for them only the
//! distances and the line are computed, a handful of array reads. The tactical groups
//! reuse [`crate::tactics`]; only ataris and two-liberty escapes read a ladder, on a
//! scratch board.

use crate::board::{Board, Cell, Color, Move, NO_POINT, Point};
use crate::patterns::line_of;
use crate::tactics;

/// A group of mutually exclusive feature values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Short name, as in the model file's documentation and the trainer's report.
    pub name: &'static str,
    /// Number of values, 0 (absent) included.
    pub values: usize,
    /// Lowest bit of the group's value in a [`Code`].
    shift: u32,
    /// Bits of the group's value in a [`Code`].
    bits: u32,
}

const fn group(name: &'static str, values: usize, shift: u32, bits: u32) -> Group {
    assert!(values <= 1 << bits);
    Group {
        name,
        values,
        shift,
        bits,
    }
}

/// Capture: `1 + rescue + 2 * last + 4 * size` where `rescue` says a captured chain touches
/// an own chain in atari, `last` that it holds the last move, and `size` is 0 for one stone
/// (no ko), 1 for a ko capture, 2 for 2 to 5 stones, 3 for 6 or more.
pub const CAPTURE: usize = 0;
/// Atari escape by extension (captures are [`CAPTURE`]): `1 + kind + 3 * big`, kind 0 for
/// three liberties or more after the move, 1 for two with the ladder failing (safe), 2 for
/// two with the ladder working (caught anyway); `big` for a saved chain of 3 stones or more.
pub const ESCAPE: usize = 1;
/// Extension of an own two-liberty chain: 1 to three liberties, 2 to four or more.
pub const EXTENSION: usize = 2;
/// Self-atari: 1 a possible nakade (see [`tactics::is_nakade_self_atari`]), 2 another of
/// one or two stones, 3 of three stones or more.
pub const SELF_ATARI: usize = 3;
/// Atari (no self-atari): `kind + 4 * big`, kind 1 when the chain is caught (it cannot run
/// or the ladder works), 2 when it escapes but a ko is on the board, 3 when it escapes,
/// 4 for a double atari; `big` for a chain of 3 stones or more (not with kind 4).
pub const ATARI: usize = 4;
/// Distance to the last move (see [`crate::patterns::move_distance`]): `d - 1` for d from 2
/// to 16, 16 beyond, 0 when the last move was a pass or there is none (1 on the point of a captured stone).
pub const LAST_DISTANCE: usize = 5;
/// The same for the move before the last.
pub const SECOND_DISTANCE: usize = 6;
/// Line from the edge: 1 to 4, 5 for the fifth line and beyond.
pub const LINE: usize = 7;
/// Pass: 1 after an opponent pass, 2 otherwise.
pub const PASS: usize = 8;

/// Every group, indexed by the constants above.
pub const GROUPS: [Group; 9] = [
    group("capture", 17, 0, 5),
    group("escape", 7, 5, 3),
    group("extension", 3, 8, 2),
    group("self-atari", 4, 10, 2),
    group("atari", 8, 12, 3),
    group("last-distance", 17, 15, 5),
    group("second-distance", 17, 20, 5),
    group("line", 6, 25, 3),
    group("pass", 3, 28, 2),
];

const fn group_offsets() -> [usize; GROUPS.len()] {
    let mut out = [0; GROUPS.len()];
    let mut g = 1;
    while g < GROUPS.len() {
        out[g] = out[g - 1] + GROUPS[g - 1].values;
        g += 1;
    }
    out
}

/// Where each group's values start in a flat list of all groups' values.
pub const GROUP_OFFSETS: [usize; GROUPS.len()] = group_offsets();

/// Number of (group, value) pairs, absent values included.
pub const GROUP_FEATURES: usize = GROUP_OFFSETS[GROUPS.len() - 1] + GROUPS[GROUPS.len() - 1].values;

/// Longest ladder read, in ataris.
pub const LADDER_PLIES: usize = 40;

/// The packed group values of one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub u32);

impl Code {
    /// The value of group `g`.
    #[inline]
    pub fn get(self, g: usize) -> usize {
        let gr = &GROUPS[g];
        (self.0 >> gr.shift & ((1 << gr.bits) - 1)) as usize
    }

    /// Sets group `g` to `value` (below the group's count).
    #[inline]
    pub fn set(&mut self, g: usize, value: usize) {
        let gr = &GROUPS[g];
        debug_assert!(value < gr.values);
        self.0 = self.0 & !(((1 << gr.bits) - 1) << gr.shift) | (value as u32) << gr.shift;
    }

    /// The sum of the weights of this code's group values (`weights` indexed as
    /// [`GROUP_OFFSETS`] says).
    #[inline]
    pub fn weight(self, weights: &[f32; GROUP_FEATURES]) -> f32 {
        let mut s = 0.0;
        for (g, &offset) in GROUP_OFFSETS.iter().enumerate() {
            s += weights[offset + self.get(g)];
        }
        s
    }

    /// The flat indices (see [`GROUP_OFFSETS`]) of the groups present in this code.
    #[inline]
    pub fn features(self) -> impl Iterator<Item = usize> {
        (0..GROUPS.len()).filter_map(move |g| {
            let v = self.get(g);
            (v != 0).then(|| GROUP_OFFSETS[g] + v)
        })
    }

    /// Whether every group value is below its group's count (for codes read from outside).
    pub fn is_valid(self) -> bool {
        let used: u32 = GROUPS.iter().map(|g| g.bits).sum();
        self.0 >> used == 0 && (0..GROUPS.len()).all(|g| self.get(g) < GROUPS[g].values)
    }
}

/// Bits of a [`Code`] holding the tactical groups (capture to atari): the rest depends only
/// on where the move is and where the last two moves were ([`Placement`]).
pub const TACTICAL_BITS: u32 = 15;
const _: () = assert!(GROUPS[ATARI].shift + GROUPS[ATARI].bits == TACTICAL_BITS);
const _: () = assert!(GROUPS[LAST_DISTANCE].shift == TACTICAL_BITS);

/// Column, row and line of every point of one board size, for the placement groups
/// (distances and line) without divisions.
#[derive(Clone, Debug)]
pub struct Placement {
    size: usize,
    col: Vec<u8>,
    row: Vec<u8>,
    line: Vec<u8>,
}

impl Placement {
    /// The tables for boards of `size`.
    pub fn new(size: usize) -> Placement {
        let board = Board::new(size);
        let n = board.array_len();
        let mut p = Placement {
            size,
            col: vec![0; n],
            row: vec![0; n],
            line: vec![0; n],
        };
        for q in board.points() {
            let (c, r) = board.col_row(q);
            p.col[q as usize] = c as u8;
            p.row[q as usize] = r as u8;
            p.line[q as usize] = line_of(&board, q);
        }
        p
    }

    /// Board size of these tables.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The distance value of a move at `p` relative to an earlier move at `q` (`NO_POINT`:
    /// none), see [`LAST_DISTANCE`].
    #[inline]
    fn distance_value(&self, p: Point, q: Point) -> usize {
        if q == NO_POINT {
            return 0;
        }
        let dx = self.col[p as usize].abs_diff(self.col[q as usize]) as usize;
        let dy = self.row[p as usize].abs_diff(self.row[q as usize]) as usize;
        // d is 0 when the earlier move's stone was captured and p is its point: count it as
        // adjacent.
        (dx + dy + dx.max(dy)).clamp(2, 17) - 1
    }

    /// The placement groups (distances to `last` and `last2`, line) of a move at `p`.
    #[inline]
    pub fn code(&self, p: Point, last: Point, last2: Point) -> Code {
        let mut code = Code::default();
        code.set(LAST_DISTANCE, self.distance_value(p, last));
        code.set(SECOND_DISTANCE, self.distance_value(p, last2));
        code.set(LINE, (self.line[p as usize] as usize).min(5));
        code
    }
}

/// The pass group's value for `mover` on `board`.
pub fn pass_value(board: &Board, mover: Color) -> usize {
    let opponent_passed =
        board.last_color() == Some(mover.opponent()) && board.last_move() == NO_POINT;
    if opponent_passed { 1 } else { 2 }
}

/// The feature code of `mover` playing `mv` on `board` (a legal move). `placement` must be
/// for the board's size; `scratch` is a board to read ladders on.
pub fn code(
    board: &Board,
    mover: Color,
    mv: Move,
    placement: &Placement,
    scratch: &mut Board,
) -> Code {
    let p = match mv {
        Move::Pass => {
            let mut code = Code::default();
            code.set(PASS, pass_value(board, mover));
            return code;
        }
        Move::Play(p) => p,
    };
    let mut code = placement.code(p, board.last_move(), board.last_move2());
    // Only chains short of liberties next to the point, or a point short of liberties
    // itself, make tactical features.
    let short = board
        .neighbors(p)
        .iter()
        .any(|&n| board.cell(n).color().is_some() && board.liberties(n) <= 2);
    if !short && board.empty_neighbors(p) >= 2 {
        return code;
    }
    tactical(board, mover, p, scratch, &mut code);
    code
}

/// Fills the tactical groups of `mover` playing the empty point `p`.
fn tactical(board: &Board, mover: Color, p: Point, scratch: &mut Board, code: &mut Code) {
    let opp = mover.opponent();
    let (own_chains, own_n) = tactics::adjacent_chains(board, p, mover);
    let (opp_chains, opp_n) = tactics::adjacent_chains(board, p, opp);
    let own_chains = &own_chains[..own_n];
    let opp_chains = &opp_chains[..opp_n];

    // Captures.
    let mut captured = 0;
    let mut rescue = false;
    let mut last = false;
    let last_chain = match board.last_move() {
        NO_POINT => NO_POINT,
        q if board.cell(q) == Cell::stone(opp) => board.chain_id(q),
        _ => NO_POINT,
    };
    for &h in opp_chains.iter().filter(|&&h| board.liberties(h) == 1) {
        captured += board.chain_len(h);
        last |= h == last_chain;
        rescue |= board.chain_stones(h).any(|s| {
            board
                .neighbors(s)
                .iter()
                .any(|&q| board.cell(q) == Cell::stone(mover) && board.liberties(q) == 1)
        });
    }
    let own_stones: usize = 1 + own_chains
        .iter()
        .map(|&h| board.chain_len(h))
        .sum::<usize>();
    if captured > 0 {
        let ko = captured == 1 && own_n == 0 && board.empty_neighbors(p) == 0;
        let size = match captured {
            _ if ko => 1,
            1 => 0,
            2..=5 => 2,
            _ => 3,
        };
        code.set(
            CAPTURE,
            1 + usize::from(rescue) + 2 * usize::from(last) + 4 * size,
        );
    }

    // Liberties of the own chain after the move (freed points next to p included).
    let libs_after = tactics::liberties_after(board, p, mover, 4);

    // Escapes and extensions of own chains.
    let in_atari: usize = own_chains
        .iter()
        .filter(|&&h| board.liberties(h) == 1)
        .map(|&h| board.chain_len(h))
        .sum();
    if in_atari > 0 && captured == 0 && libs_after >= 2 {
        let kind = if libs_after >= 3 {
            0
        } else {
            scratch.copy_from(board);
            scratch.play(p, mover);
            if tactics::read_ladder(scratch, p, mover, LADDER_PLIES) {
                2
            } else {
                1
            }
        };
        code.set(ESCAPE, 1 + kind + 3 * usize::from(in_atari >= 3));
    } else if in_atari == 0
        && own_chains.iter().any(|&h| board.liberties(h) == 2)
        && libs_after >= 3
    {
        code.set(EXTENSION, if libs_after >= 4 { 2 } else { 1 });
    }

    // Self-atari: a capturing move is none (a ko capture is one stone on one liberty).
    if captured == 0 && libs_after < 2 {
        let value = if tactics::is_nakade_self_atari(board, p, mover) {
            1
        } else if own_stones <= 2 {
            2
        } else {
            3
        };
        code.set(SELF_ATARI, value);
        return;
    }

    // Ataris.
    let mut targets = opp_chains.iter().filter(|&&h| board.liberties(h) == 2);
    if let Some(&target) = targets.next() {
        let kind = if targets.next().is_some() {
            4
        } else {
            let mut libs = [NO_POINT; 2];
            tactics::chain_liberties(board, target, &mut libs);
            let escape = if libs[0] == p { libs[1] } else { libs[0] };
            if tactics::atari_captures(board, scratch, target, p, escape, mover, LADDER_PLIES) {
                1
            } else if board.ko().is_some() {
                2
            } else {
                3
            }
        };
        let big = kind != 4 && board.chain_len(target) >= 3;
        code.set(ATARI, kind + 4 * usize::from(big));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};

    fn code_at(b: &Board, c: Color, name: &str) -> Code {
        let mut scratch = Board::new(b.size());
        code(
            b,
            c,
            Move::Play(pt(b, name)),
            &Placement::new(b.size()),
            &mut scratch,
        )
    }

    #[test]
    fn groups_pack_without_overlap() {
        let mut used = 0u32;
        for g in &GROUPS {
            let mask = ((1u32 << g.bits) - 1) << g.shift;
            assert_eq!(used & mask, 0, "{}", g.name);
            used |= mask;
        }
        let mut c = Code::default();
        for (g, gr) in GROUPS.iter().enumerate() {
            c.set(g, gr.values - 1);
        }
        for (g, gr) in GROUPS.iter().enumerate() {
            assert_eq!(c.get(g), gr.values - 1);
        }
        assert!(c.is_valid());
        assert!(!Code(u32::MAX).is_valid());
    }

    #[test]
    fn quiet_point_has_only_distances_and_line() {
        let mut b = Board::new(19);
        b.play(pt(&b, "D4"), Color::Black);
        b.play(pt(&b, "Q16"), Color::White);
        let c = code_at(&b, Color::Black, "R16");
        // Q16 is orthogonally adjacent (d = 2 -> value 1); D4 far away (value 16).
        assert_eq!(c.get(LAST_DISTANCE), 1);
        assert_eq!(c.get(SECOND_DISTANCE), 16);
        assert_eq!(c.get(LINE), 3);
        for g in [CAPTURE, ESCAPE, EXTENSION, SELF_ATARI, ATARI, PASS] {
            assert_eq!(c.get(g), 0, "{}", GROUPS[g].name);
        }
        // A knight's move from D4 (d = 5), on the fifth line.
        let c = code_at(&b, Color::White, "F5");
        assert_eq!(c.get(SECOND_DISTANCE), 4);
        assert_eq!(c.get(LINE), 5);
    }

    #[test]
    fn captures_of_the_last_move_that_rescue_and_ko() {
        // White's last move C3 ataris black B3 and stands in atari itself (only C2).
        let mut b = board_from(&[
            ". . . . .", //
            ". O X . .",
            "O X . X .",
            ". . . . .",
            ". . . . .",
        ]);
        b.play(pt(&b, "C3"), Color::White);
        // C2 takes it: the last move's stone, saving B3: 1 + rescue + 2 * last.
        assert_eq!(code_at(&b, Color::Black, "C2").get(CAPTURE), 4);
        // B2 saves B3 by extending to three liberties (A2, B1, C2): a small chain.
        let c = code_at(&b, Color::Black, "B2");
        assert_eq!((c.get(ESCAPE), c.get(CAPTURE)), (1, 0));
        // A ko: black C3 takes white B3 and stands alone with one liberty.
        let b = board_from(&[
            ". . . . .", //
            ". X O . .",
            "X O . O .",
            ". X O . .",
            ". . . . .",
        ]);
        let c = code_at(&b, Color::Black, "C3");
        assert_eq!(c.get(CAPTURE), 1 + 4);
        assert_eq!(c.get(SELF_ATARI), 0, "a capture is no self-atari");
        // Three stones captured at once, nothing else special.
        let b = board_from(&[
            ". X X X .", //
            ". O O O X",
            ". X X X .",
            ". . . . .",
            ". . . . .",
        ]);
        assert_eq!(code_at(&b, Color::Black, "A4").get(CAPTURE), 1 + 4 * 2);
    }

    #[test]
    fn ataris_read_the_ladder() {
        // White C4 on two liberties, C5 and D4; black B4, C3, D3.
        let rows = [
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". X O . . . .",
            ". . X X . . .",
            ". . . . . . .",
            ". . . . . . .",
        ];
        let b = board_from(&rows);
        // C5 starts a ladder that works; D4 lets it run to C5.
        assert_eq!(code_at(&b, Color::Black, "C5").get(ATARI), 1);
        assert_eq!(code_at(&b, Color::Black, "D4").get(ATARI), 3);
        // A white ladder breaker at F6.
        let mut broken = rows;
        broken[1] = ". . . . . O .";
        let b = board_from(&broken);
        assert_eq!(code_at(&b, Color::Black, "C5").get(ATARI), 3);
        // Not an atari for White: it is the other side's stone.
        assert_eq!(code_at(&b, Color::White, "C5").get(ATARI), 0);
    }

    #[test]
    fn escapes_read_the_ladder() {
        // Black C3-D3 in atari at D4: extending leaves two liberties, and white's ladder
        // up the diagonal works, unless black G7 breaks it.
        let mut rows = [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . O . . . . . .",
            ". O X X O . . . .",
            ". . O O . . . . .",
            ". . . . . . . . .",
        ];
        let b = board_from(&rows);
        assert_eq!(code_at(&b, Color::Black, "D4").get(ESCAPE), 1 + 2);
        rows[2] = ". . . . . . X . .";
        let b = board_from(&rows);
        assert_eq!(code_at(&b, Color::Black, "D4").get(ESCAPE), 1 + 1);
    }

    #[test]
    fn self_ataris_and_extensions() {
        let b = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". O . . .",
            "O . O . .",
            ". . . . .",
        ]);
        // B2: one liberty left (B1), and A1/C1 are open: no nakade.
        assert_eq!(code_at(&b, Color::Black, "B2").get(SELF_ATARI), 2);
        let b = board_from(&[
            ". . . . .", //
            ". . . . .",
            "O O O . .",
            "X X O . .",
            ". . O . .",
        ]);
        // A1 fills the corner eye space: a three-stone nakade.
        assert_eq!(code_at(&b, Color::Black, "A1").get(SELF_ATARI), 1);
        let b = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". O . . .",
            "O X . . .",
            ". . . . .",
        ]);
        // Black B2 has two liberties (C2, B1): C2 extends to four, B1 to three.
        assert_eq!(code_at(&b, Color::Black, "C2").get(EXTENSION), 2);
        assert_eq!(code_at(&b, Color::Black, "B1").get(EXTENSION), 1);
        assert_eq!(code_at(&b, Color::Black, "D4").get(EXTENSION), 0);
    }

    #[test]
    fn placement_matches_the_board_s_distances_and_lines() {
        let b = Board::new(9);
        let placement = Placement::new(9);
        for p in b.points() {
            for q in b.points() {
                let c = placement.code(p, q, NO_POINT);
                let d = crate::patterns::move_distance(&b, p, q) as usize;
                assert_eq!(c.get(LAST_DISTANCE), d.clamp(2, 17) - 1);
                assert_eq!(c.get(SECOND_DISTANCE), 0);
                assert_eq!(c.get(LINE), (line_of(&b, p) as usize).min(5));
            }
        }
    }

    #[test]
    fn pass_after_a_pass() {
        let mut b = Board::new(9);
        let mut scratch = Board::new(9);
        let placement = Placement::new(9);
        let pass = |b: &Board, c, s: &mut Board| code(b, c, Move::Pass, &placement, s);
        assert_eq!(pass(&b, Color::Black, &mut scratch).get(PASS), 2);
        b.pass(Color::Black);
        assert_eq!(pass(&b, Color::White, &mut scratch).get(PASS), 1);
        // A pass has no other feature.
        let c = pass(&b, Color::White, &mut scratch);
        assert_eq!(c.0 & !(3 << GROUPS[PASS].shift), 0);
    }
}
