//! Monte-Carlo ownership: who owns each point at the end of many random playouts from a
//! position.
//!
//! This is the evidence behind dead-stone decisions at the end of a game: a chain whose
//! points end up owned by the opponent in most playouts is dead. Playouts alternate who
//! moves first, so neither side gets the tempo for free.
//!
//! Uniformly random playouts judge final positions badly: inside a surrounded area the
//! random defender lets random invaders live, and random fills of shared liberties kill
//! both sides of every seki. So these playouts use a slightly heavier policy (the
//! [`Playout`] workspace with its own move choice):
//! 1. answer the opponent's last move: capture a chain it left in atari, or save an own
//!    chain it put in atari by extending on the last liberty when that gains liberties;
//! 2. otherwise a uniformly random legal move that fills no own eye
//!    ([`Board::is_playout_eye`]) and puts no chain of two or more stones into atari
//!    without capturing (single-stone throw-ins stay allowed, so nakade still kills);
//! 3. pass when no such move is left.

use crate::board::{Board, Cell, Color, MAX_POINTS, Move, NO_POINT, Point};
use crate::game::PositionHistory;
use crate::playout::{Playout, max_playout_moves};
use crate::rules::KoRule;
use crate::tactics;

use super::area::{Owners, area_owners};

/// Who owned each point at the end of a number of playouts: the evidence behind dead
/// stones and seki, the search's judgement before passing, and the analysis ownership maps.
#[derive(Clone, Debug)]
pub struct Ownership {
    /// Per point: (playouts owned by Black − playouts owned by White) / playouts, in -1..=1.
    black: Box<[f32; MAX_POINTS]>,
    /// Per point: fraction of playouts where it ended empty and owned by nobody (touching
    /// both colours: dame, or the shared liberties of a seki that no one could fill).
    neutral: Box<[f32; MAX_POINTS]>,
    /// Number of playouts behind the figures.
    playouts: usize,
}

impl Ownership {
    /// No evidence at all: every point is nobody's for sure (no playouts).
    pub fn none() -> Ownership {
        Ownership {
            black: Box::new([0.0; MAX_POINTS]),
            neutral: Box::new([0.0; MAX_POINTS]),
            playouts: 0,
        }
    }

    /// Mean ownership of `p` from Black's side: +1 always Black's, -1 always White's.
    pub fn black(&self, p: Point) -> f32 {
        self.black[p as usize]
    }

    /// Fraction of playouts where `p` ended as nobody's point.
    pub fn neutral(&self, p: Point) -> f32 {
        self.neutral[p as usize]
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

    /// [`Ownership::black`] of every point index (0 off the board), for ownership maps.
    pub fn black_shares(&self) -> &[f32] {
        &self.black[..]
    }

    /// Number of playouts behind the estimate.
    pub fn playouts(&self) -> usize {
        self.playouts
    }
}

/// Counts of who owned each point at the end of playouts, turned into an [`Ownership`].
#[derive(Clone, Debug)]
pub struct OwnershipTally {
    black: Box<[u32; MAX_POINTS]>,
    white: Box<[u32; MAX_POINTS]>,
    playouts: u32,
}

impl Default for OwnershipTally {
    fn default() -> OwnershipTally {
        OwnershipTally::new()
    }
}

impl OwnershipTally {
    /// No playouts counted yet.
    pub fn new() -> OwnershipTally {
        OwnershipTally {
            black: Box::new([0; MAX_POINTS]),
            white: Box::new([0; MAX_POINTS]),
            playouts: 0,
        }
    }

    /// Counts one playout whose final owners of the points of `board` are `owners`.
    pub fn record(&mut self, board: &Board, owners: &Owners) {
        for p in board.points() {
            match owners[p as usize] {
                Cell::Black => self.black[p as usize] += 1,
                Cell::White => self.white[p as usize] += 1,
                _ => {}
            }
        }
        self.playouts += 1;
    }

    /// Adds counts kept elsewhere: `black` and `white` playouts owning point index `i`.
    pub fn add_point(&mut self, i: usize, black: u32, white: u32) {
        self.black[i] += black;
        self.white[i] += white;
    }

    /// Adds `n` playouts counted elsewhere (see [`OwnershipTally::add_point`]).
    pub fn add_playouts(&mut self, n: u32) {
        self.playouts += n;
    }

    /// Playouts counted.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The shares of the playouts counted, for the points of `board`.
    pub fn ownership(&self, board: &Board) -> Ownership {
        let mut own = Ownership::none();
        let n = self.playouts.max(1) as f32;
        for p in board.points() {
            let (b, w) = (self.black[p as usize], self.white[p as usize]);
            own.black[p as usize] = (b as f32 - w as f32) / n;
            own.neutral[p as usize] = (self.playouts - b - w) as f32 / n;
        }
        own.playouts = self.playouts as usize;
        own
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
    let mut tally = OwnershipTally::new();
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
        run_heavy(&mut po, to_move, start.history, start.ko);
        area_owners(&po.board, &mut po.owners);
        tally.record(start.board, &po.owners);
    }
    tally.ownership(start.board)
}

/// Plays the position in `po` out with the policy described in the module documentation.
fn run_heavy(po: &mut Playout, to_move: Color, history: &PositionHistory, ko: KoRule) {
    let cap = max_playout_moves(po.board.size());
    let mut color = to_move;
    let mut passes = 0;
    for _ in 0..cap {
        match pick_move(po, color, history, ko) {
            Some(p) => {
                po.play_prefix(Move::Play(p), color);
                passes = 0;
            }
            None => {
                po.board.pass(color);
                passes += 1;
                if passes >= 2 {
                    break;
                }
            }
        }
        color = color.opponent();
    }
}

/// Whether `c` at `p` would put a chain of two or more stones into atari without
/// capturing anything (a single-stone throw-in stays allowed, so nakade still kills).
fn is_bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    !board.captures_any(p, c)
        && tactics::is_self_atari(board, p, c)
        && tactics::chain_size_after(board, p, c) >= 2
}

/// Whether `c` may and should consider `p`: legal (superko included), not an own eye, not
/// a bad self-atari.
fn acceptable(po: &Playout, p: Point, c: Color, history: &PositionHistory, ko: KoRule) -> bool {
    !po.board.is_playout_eye(p, c)
        && po.is_legal(p, c, history, ko)
        && !is_bad_self_atari(&po.board, p, c)
}

/// The next move for `c`, or `None` to pass.
fn pick_move(po: &mut Playout, c: Color, history: &PositionHistory, ko: KoRule) -> Option<Point> {
    let last = po.board.last_move();
    if last != NO_POINT {
        let mut urgent = [NO_POINT; 8];
        let mut n_urgent = 0;
        let board = &po.board;
        for n in board.neighbors(last).into_iter().chain([last]) {
            let Some(owner) = board.cell(n).color() else {
                continue;
            };
            if board.liberties(n) != 1 {
                continue;
            }
            let lib = tactics::last_liberty(board, n);
            if lib == NO_POINT || urgent[..n_urgent].contains(&lib) {
                continue;
            }
            // Capture the opponent's chain, or extend our own when that gains liberties.
            let useful = owner != c || tactics::liberties_after(board, lib, c, 2) >= 2;
            if useful && n_urgent < urgent.len() {
                urgent[n_urgent] = lib;
                n_urgent += 1;
            }
        }
        if n_urgent > 0 {
            let start = po.rng.below(n_urgent);
            for i in 0..n_urgent {
                let p = urgent[(start + i) % n_urgent];
                if acceptable(po, p, c, history, ko) {
                    return Some(p);
                }
            }
        }
    }
    let n = po.board.empty_points().len();
    if n == 0 {
        return None;
    }
    let start = po.rng.below(n);
    for i in 0..n {
        let p = po.board.empty_points()[(start + i) % n];
        if acceptable(po, p, c, history, ko) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_stone_in_enemy_territory_dies_and_the_wall_lives() {
        let b = Board::from_diagram(&[
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
