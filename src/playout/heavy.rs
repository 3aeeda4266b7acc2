//! The heavy playout policy, in the spirit of MoGo and Pachi's moggy.
//!
//! Each move tries, in order:
//! 0. when last-good-reply is on ([`super::replies`]), the stored winning reply to the last
//!    two moves, then to the last move, if it is legal, fills no own eye and is no bad
//!    self-atari (here or, by [`ReplyOrder::AfterTactics`], between steps 2 and 3);
//! 1. (most of the time) answers to the last move: capture the chain it just played if that
//!    is in atari, capture an opponent chain next to it left in atari, and save our chains
//!    next to it that it put in atari — by capturing one of their attackers, or by
//!    extending when that gives three liberties, or two that do not lose a ladder; also
//!    capture an opponent chain next to our own previous move that is still in atari;
//! 2. when configured (`fight_refused_attack`), right after the opponent's random move was
//!    refused as a bad self-atari (step 5), an atari that captures one of its chains of two
//!    liberties at or next to that point, as Pachi's playouts do; then (most of the time)
//!    two-liberty fights around the last move: an atari that captures an
//!    opponent chain of two liberties (it cannot run, or runs into a ladder), and an
//!    extension to three liberties for our own chain of two that such an atari would take;
//!    then, when configured (`nlib_defense`), an atari on an opponent chain of two
//!    liberties that touches an own chain of three or four liberties next to the last move;
//! 3. when configured (`capture_anywhere`), a capture of any opponent chain in atari on the
//!    board, from a list of chains in atari kept up to date move by move ([`AtariList`]);
//! 4. (most of the time) 3x3 shapes ([`crate::patterns`]) on the empty points around the
//!    last move and the move before; or, when learned gammas are on
//!    ([`Playout::configure_gammas`], [`super::gammas`]), one of those empty points drawn
//!    with probability proportional to its learned gamma, beside a "rest" mass that goes
//!    on to step 5;
//! 5. a random move that is legal, fills no own eye and is no self-atari, except a capture
//!    or a nakade ([`tactics::is_nakade_self_atari`]); now and then a plain light move
//!    instead, for diversity.
//!
//! Candidates of one step are drawn uniformly among those that pass the checks.

use super::Playout;
use super::fights;
use super::gammas::{self, GammaTable};
use super::replies::ReplyOrder;
use crate::board::{Board, Cell, Color, NO_POINT, Point};
use crate::game::PositionHistory;
use crate::patterns;
use crate::rules::KoRule;
use crate::tactics::{self, PLAYOUT_LADDER_PLIES};

/// Chance (out of 1024) to look for captures and atari escapes around the last move.
const TACTICS_RATE: u32 = 950;
/// Chance (out of 1024) to look at two-liberty chains around the last move.
const TWO_LIB_RATE: u32 = 900;
/// Chance (out of 1024) to look for 3x3 shapes around the last two moves.
const SHAPE_RATE: u32 = 950;
/// Chance (out of 1024) of a plain light move instead of the self-atari-checked one.
const LIGHT_RATE: u32 = 20;
/// Moves after a ko's ban ends during which the ko step may play its point.
const KO_FIGHT_MOVES: usize = 2;
/// Capacity of a candidate list (more candidates than this are dropped).
const MAX_CANDIDATES: usize = 32;

/// A small set of candidate points.
pub(super) struct Candidates {
    /// The moves found so far; only the first `len` are set.
    pub(super) points: [Point; MAX_CANDIDATES],
    /// How many of `points` are set.
    pub(super) len: usize,
}

impl Candidates {
    /// An empty set.
    pub(super) fn new() -> Candidates {
        Candidates {
            points: [NO_POINT; MAX_CANDIDATES],
            len: 0,
        }
    }

    /// Adds `p` unless it is `NO_POINT`, already there, or the set is full.
    #[inline]
    pub(super) fn push(&mut self, p: Point) {
        if p != NO_POINT && self.len < MAX_CANDIDATES && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }
}

/// Capacity of the list of chains seen in atari during a playout.
const ATARI_LIST_LEN: usize = 32;

/// Stones of the chains in atari during a playout, for the capture-anywhere step. A chain
/// comes into atari only by a move on one of its liberties, so looking at the last moves
/// finds every new one; entries are checked again when read and dropped once their chain
/// is captured or has more liberties.
pub(crate) struct AtariList {
    stones: [Point; ATARI_LIST_LEN],
    len: usize,
    /// Whether the list must first be filled from the whole board (a new playout).
    scan: bool,
}

impl AtariList {
    /// An empty list that reads the whole board at its first update.
    pub(crate) fn new() -> AtariList {
        AtariList {
            stones: [NO_POINT; ATARI_LIST_LEN],
            len: 0,
            scan: true,
        }
    }

    /// Forgets the list: the next update reads the whole board.
    pub(crate) fn reset(&mut self) {
        self.len = 0;
        self.scan = true;
    }

    /// Adds the chain through `p` if it is a chain in atari not listed yet.
    #[inline]
    fn note(&mut self, board: &Board, p: Point) {
        if board.cell(p).color().is_none() || board.liberties(p) != 1 {
            return;
        }
        let head = board.chain_id(p);
        let listed = self.stones[..self.len]
            .iter()
            .any(|&s| board.cell(s).color().is_some() && board.chain_id(s) == head);
        if !listed && self.len < ATARI_LIST_LEN {
            self.stones[self.len] = p;
            self.len += 1;
        }
    }

    /// Brings the list up to date with `board`, on which at most the last two moves are
    /// new since the previous update.
    fn update(&mut self, board: &Board) {
        if self.scan {
            self.scan = false;
            self.len = 0;
            let size = board.size();
            for row in 0..size {
                for col in 0..size {
                    self.note(board, board.point(col, row));
                }
            }
        } else {
            for centre in [board.last_move(), board.last_move2()] {
                if centre == NO_POINT {
                    continue;
                }
                self.note(board, centre);
                for n in board.neighbors(centre) {
                    self.note(board, n);
                }
            }
        }
        let mut i = 0;
        while i < self.len {
            let s = self.stones[i];
            if board.cell(s).color().is_none() || board.liberties(s) != 1 {
                self.len -= 1;
                self.stones[i] = self.stones[self.len];
            } else {
                i += 1;
            }
        }
    }

    /// The capturing moves of `c` against the listed chains that touch an own chain of
    /// at most three liberties: captures that win or decide a race. (Capturing every
    /// chain in atari wastes moves on stones that are dead anyway: 0 of 5 games.)
    fn captures(&self, board: &Board, c: Color, out: &mut Candidates) {
        let opp = Cell::stone(c.opponent());
        let own = Cell::stone(c);
        for &s in &self.stones[..self.len] {
            if board.cell(s) == opp && tactics::touches_chain_with(board, s, own, |l| l <= 3) {
                out.push(tactics::last_liberty(board, s));
            }
        }
    }
}

/// Whether `c` playing `p` is a self-atari worth refusing: it leaves the chain with one
/// liberty, captures nothing, and is no nakade.
#[inline]
pub(crate) fn is_bad_self_atari(board: &Board, p: Point, c: Color) -> bool {
    tactics::is_self_atari(board, p, c)
        && tactics::capture_count(board, p, c) == 0
        && !tactics::is_nakade_self_atari(board, p, c)
}

/// How the heavy playouts read ladders, with the board they read on: the one-sided reader
/// ([`tactics::read_ladder`]), or, with the search parameter `ladder_both`, the one that
/// also tries the atari from the other side ([`tactics::read_ladder_both`]), so that a
/// playout does not run a chain the priors know to be lost (a runner into its own weak
/// stones needs it).
pub(super) struct LadderReading {
    scratch: Box<Board>,
    /// Whether the attacker tries the ataris from both sides.
    pub both: bool,
}

impl LadderReading {
    /// A one-sided reader with its scratch board.
    pub fn new() -> LadderReading {
        LadderReading {
            scratch: Box::new(Board::new(9)),
            both: false,
        }
    }

    /// Whether `c`, extending its chain in atari to `run` for two liberties, is captured in
    /// a ladder.
    fn run_captured(&mut self, board: &Board, run: Point, c: Color) -> bool {
        let scratch = &mut self.scratch;
        if self.both {
            return tactics::read_ladder_both(
                scratch,
                board,
                &[(run, c)],
                run,
                c,
                PLAYOUT_LADDER_PLIES,
            );
        }
        scratch.copy_from(board);
        scratch.play(run, c);
        tactics::read_ladder(scratch, run, c, PLAYOUT_LADDER_PLIES)
    }

    /// Whether `c`'s atari at `atari` captures the two-liberty chain through `stone`,
    /// which would run to `escape` ([`tactics::atari_captures`]).
    fn atari_captures(
        &mut self,
        board: &Board,
        stone: Point,
        atari: Point,
        escape: Point,
        c: Color,
    ) -> bool {
        let read = if self.both {
            tactics::atari_captures_both
        } else {
            tactics::atari_captures
        };
        read(
            board,
            &mut self.scratch,
            stone,
            atari,
            escape,
            c,
            PLAYOUT_LADDER_PLIES,
        )
    }
}

/// Moves answering the last move `last` for `c`: captures and atari escapes (see the module
/// documentation). `ladders` reads the ladders.
fn atari_responses(
    board: &Board,
    ladders: &mut LadderReading,
    last: Point,
    c: Color,
    out: &mut Candidates,
) {
    let own = Cell::stone(c);
    let opp = Cell::stone(c.opponent());
    let last_chain = if board.cell(last) == opp {
        if board.liberties(last) == 1 {
            out.push(tactics::last_liberty(board, last));
        }
        board.chain_id(last)
    } else {
        NO_POINT
    };
    let mut seen = [NO_POINT; 4];
    let mut n_seen = 0;
    for q in board.neighbors(last) {
        let cell = board.cell(q);
        if cell != own && cell != opp {
            continue;
        }
        let h = board.chain_id(q);
        if h == last_chain || seen[..n_seen].contains(&h) || board.liberties(h) != 1 {
            continue;
        }
        seen[n_seen] = h;
        n_seen += 1;
        if cell == opp {
            // An opponent chain next to the last move left in atari.
            out.push(tactics::last_liberty(board, h));
            continue;
        }
        // Our chain in atari: capture an attacker in atari ...
        for s in board.chain_stones(h) {
            for r in board.neighbors(s) {
                if board.cell(r) == opp && board.liberties(r) == 1 {
                    out.push(tactics::last_liberty(board, r));
                }
            }
        }
        // ... or run, if running gains enough and does not end in a ladder.
        let l = tactics::last_liberty(board, h);
        if !board.is_legal(l, c) {
            continue;
        }
        match tactics::liberties_after(board, l, c, 3) {
            0 | 1 => {}
            2 => {
                if !ladders.run_captured(board, l, c) {
                    out.push(l);
                }
            }
            _ => out.push(l),
        }
    }
}

/// A chain of exactly two liberties at or next to the last move.
#[derive(Clone, Copy)]
pub(super) struct TwoLibertyChain {
    /// The chain's id ([`Board::chain_id`]).
    pub id: Point,
    /// Its colour.
    pub cell: Cell,
    /// Its two liberties.
    pub libs: [Point; 2],
}

/// The distinct chains of two liberties that the last move `last` belongs to or touches (at
/// most five, the first `n` of the array): where the playouts' two-liberty steps start. A
/// playout move lists them once for both steps.
pub(super) fn two_liberty_chains_around(
    board: &Board,
    last: Point,
) -> ([TwoLibertyChain; 5], usize) {
    let none = TwoLibertyChain {
        id: NO_POINT,
        cell: Cell::Empty,
        libs: [NO_POINT; 2],
    };
    let mut chains = [none; 5];
    let mut n = 0;
    let [n0, n1, n2, n3] = board.neighbors(last);
    for q in [last, n0, n1, n2, n3] {
        let cell = board.cell(q);
        if cell != Cell::Black && cell != Cell::White {
            continue;
        }
        let id = board.chain_id(q);
        if chains[..n].iter().any(|ch| ch.id == id) || board.liberties(id) != 2 {
            continue;
        }
        let mut libs = [NO_POINT; 2];
        tactics::chain_liberties(board, id, &mut libs);
        chains[n] = TwoLibertyChain { id, cell, libs };
        n += 1;
    }
    (chains, n)
}

/// Moves the chains of colour `cell` to the front of `chains` and returns how many there
/// are.
fn keep_colour(chains: &mut [TwoLibertyChain], cell: Cell) -> usize {
    let mut n = 0;
    for i in 0..chains.len() {
        if chains[i].cell == cell {
            chains.swap(n, i);
            n += 1;
        }
    }
    n
}

/// Moves for `c` around the two-liberty chains that the last move belongs to or touches
/// (`chains`, [`two_liberty_chains_around`]): an atari on an opponent chain that cannot run
/// from it (read as a ladder), and, for our own chain that a ladder would capture, an
/// extension that saves it.
fn two_liberty_moves(
    board: &Board,
    ladders: &mut LadderReading,
    chains: &[TwoLibertyChain],
    c: Color,
    out: &mut Candidates,
) {
    let opp = Cell::stone(c.opponent());
    for &TwoLibertyChain { id: h, cell, libs } in chains {
        if cell == opp {
            for (atari, escape) in [(libs[0], libs[1]), (libs[1], libs[0])] {
                if ladders.atari_captures(board, h, atari, escape, c) {
                    out.push(atari);
                }
            }
            continue;
        }
        // Our chain: worth a move only if an atari from the opponent would capture it;
        // then extend where that gives three liberties.
        let opponent = c.opponent();
        let (a, b) = (libs[0], libs[1]);
        if !ladders.atari_captures(board, h, a, b, opponent)
            && !ladders.atari_captures(board, h, b, a, opponent)
        {
            continue;
        }
        for l in libs {
            if board.is_legal(l, c) && tactics::liberties_after(board, l, c, 3) >= 3 {
                out.push(l);
            }
        }
    }
}

/// Ataris for `c` on opponent chains of two liberties that touch an own chain of three or
/// four liberties next to the last move `last` (its eight neighbours): when the opponent
/// has just shortened such a chain, taking the liberties of a short neighbour is how a
/// capturing race is won (approach liberties can make it urgent before it looks so), as
/// Pachi's playouts do (`nlibrate`).
fn short_chain_counter_ataris(board: &Board, last: Point, c: Color, out: &mut Candidates) {
    let own = Cell::stone(c);
    let opp = Cell::stone(c.opponent());
    let mut own_seen = [NO_POINT; 8];
    let mut n_own = 0;
    let mut opp_seen = [NO_POINT; 8];
    let mut n_opp = 0;
    for q in board
        .neighbors(last)
        .into_iter()
        .chain(board.diagonals(last))
    {
        if board.cell(q) != own {
            continue;
        }
        let h = board.chain_id(q);
        let libs = board.liberties(h);
        if !(3..=4).contains(&libs) || own_seen[..n_own].contains(&h) {
            continue;
        }
        own_seen[n_own] = h;
        n_own += 1;
        for s in board.chain_stones(h) {
            for r in board.neighbors(s) {
                if board.cell(r) != opp || board.liberties(r) != 2 {
                    continue;
                }
                let g = board.chain_id(r);
                if opp_seen[..n_opp].contains(&g) || n_opp == opp_seen.len() {
                    continue;
                }
                opp_seen[n_opp] = g;
                n_opp += 1;
                let mut libs = [NO_POINT; 2];
                tactics::chain_liberties(board, g, &mut libs);
                out.push(libs[0]);
                out.push(libs[1]);
            }
        }
    }
}

/// Captures of opponent chains in atari next to `centre` (our own previous move: an atari
/// the opponent did not answer).
fn captures_near(board: &Board, centre: Point, c: Color, out: &mut Candidates) {
    let opp = Cell::stone(c.opponent());
    for q in board.neighbors(centre) {
        if board.cell(q) == opp && board.liberties(q) == 1 {
            out.push(tactics::last_liberty(board, q));
        }
    }
}

/// Empty points around `centre` whose 3x3 shape matches for `c`.
fn shape_moves(board: &Board, centre: Point, c: Color, out: &mut Candidates) {
    for q in board
        .neighbors(centre)
        .into_iter()
        .chain(board.diagonals(centre))
    {
        if board.cell(q) == Cell::Empty && patterns::matches_shape(board, q, c) {
            out.push(q);
        }
    }
}

impl Playout {
    /// The heavy policy's move for `c`, or `NO_POINT` to pass.
    pub(super) fn pick_heavy(&mut self, c: Color, history: &PositionHistory, ko: KoRule) -> Point {
        if self.capture_rate > 0 {
            // Every move passes here right after it is played, whatever step answers it.
            self.ataris.update(&self.board);
        }
        if self.ko_rate > 0
            && let Some(p) = self.ko_fight(c, history, ko)
        {
            return p;
        }
        let last = self.board.last_move();
        if last != NO_POINT {
            let reply_order = (self.replies.level() > 0).then(|| self.replies.order());
            if reply_order == Some(ReplyOrder::BeforeTactics)
                && let Some(p) = self.stored_reply(last, c, history, ko)
            {
                return p;
            }
            if self.rng.chance(TACTICS_RATE) {
                let mut cands = Candidates::new();
                atari_responses(&self.board, &mut self.ladders, last, c, &mut cands);
                let last2 = self.board.last_move2();
                if last2 != NO_POINT {
                    captures_near(&self.board, last2, c, &mut cands);
                }
                if let Some(p) = self.choose(&mut cands, c, history, ko, true) {
                    return p;
                }
            }
            let refused = self.refused_self_atari[c.opponent().index()];
            if refused != NO_POINT {
                self.refused_self_atari[c.opponent().index()] = NO_POINT;
                if self.rng.chance(self.fights.refused_attack) {
                    let (mut chains, mut n) = two_liberty_chains_around(&self.board, refused);
                    n = keep_colour(&mut chains[..n], Cell::stone(c.opponent()));
                    let mut cands = Candidates::new();
                    two_liberty_moves(&self.board, &mut self.ladders, &chains[..n], c, &mut cands);
                    if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                        return p;
                    }
                }
            }
            let mut around = None;
            if self.rng.chance(TWO_LIB_RATE) {
                let (chains, n) =
                    *around.get_or_insert_with(|| two_liberty_chains_around(&self.board, last));
                let mut cands = Candidates::new();
                two_liberty_moves(&self.board, &mut self.ladders, &chains[..n], c, &mut cands);
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
            if self.fights.two_liberty > 0 && self.rng.chance(self.fights.two_liberty) {
                let (chains, n) =
                    *around.get_or_insert_with(|| two_liberty_chains_around(&self.board, last));
                let mut cands = Candidates::new();
                fights::two_liberty_fight_moves(&self.board, &chains[..n], c, &mut cands);
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
            if self.nlib_rate > 0 && self.rng.chance(self.nlib_rate) {
                let mut cands = Candidates::new();
                short_chain_counter_ataris(&self.board, last, c, &mut cands);
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
            if self.fights.eye_fix > 0 && self.rng.chance(self.fights.eye_fix) {
                let mut cands = Candidates::new();
                fights::eye_fix_moves(&self.board, last, c, &mut cands);
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
            if self.fights.nakade > 0 && self.rng.chance(self.fights.nakade) {
                let mut cands = Candidates::new();
                cands.push(fights::nakade_vital_point(&self.board, last));
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
            if reply_order == Some(ReplyOrder::AfterTactics)
                && let Some(p) = self.stored_reply(last, c, history, ko)
            {
                return p;
            }
            if self.capture_rate > 0 && self.rng.chance(self.capture_rate) {
                let mut cands = Candidates::new();
                self.ataris.captures(&self.board, c, &mut cands);
                if let Some(p) = self.choose(&mut cands, c, history, ko, true) {
                    return p;
                }
            }
            if let Some(table) = self.gammas {
                if self.rng.chance(SHAPE_RATE)
                    && let Some(p) = self.learned_shape_move(table, c, history, ko)
                {
                    return p;
                }
            } else if self.rng.chance(SHAPE_RATE) {
                let mut cands = Candidates::new();
                shape_moves(&self.board, last, c, &mut cands);
                let last2 = self.board.last_move2();
                if last2 != NO_POINT {
                    shape_moves(&self.board, last2, c, &mut cands);
                }
                if let Some(p) = self.choose(&mut cands, c, history, ko, false) {
                    return p;
                }
            }
        }
        if self.rng.chance(LIGHT_RATE) {
            return self.pick_light(c, history, ko);
        }
        self.pick_sane(c, history, ko)
    }

    /// A move of `c` among the empty points around the last two moves that are legal, fill
    /// no own eye and are no bad self-atari, drawn with probability proportional to its
    /// learned gamma; `None` when the draw lands on the rest mass or there is no candidate.
    /// One table lookup a candidate; allocates nothing.
    fn learned_shape_move(
        &mut self,
        table: &GammaTable,
        c: Color,
        history: &PositionHistory,
        ko: KoRule,
    ) -> Option<Point> {
        let mut seen = [NO_POINT; 16];
        let mut n_seen = 0;
        let mut points = [NO_POINT; 16];
        let mut weights = [0u32; 16];
        let mut n = 0;
        let mut total = 0u32;
        for centre in [self.board.last_move(), self.board.last_move2()] {
            if centre == NO_POINT {
                continue;
            }
            let b = &self.board;
            for q in b.neighbors(centre).into_iter().chain(b.diagonals(centre)) {
                if b.cell(q) != Cell::Empty || seen[..n_seen].contains(&q) {
                    continue;
                }
                seen[n_seen] = q;
                n_seen += 1;
                if !self.light_candidate(q, c) {
                    continue;
                }
                let key = gammas::pattern_key(b, q, c);
                if key & gammas::SELF_ATARI_BIT != 0 && is_bad_self_atari(b, q, c) {
                    continue;
                }
                if self.repeats(q, c, history, ko) {
                    continue;
                }
                let w = table.weight(key);
                points[n] = q;
                weights[n] = w;
                total += w;
                n += 1;
            }
        }
        if n == 0 {
            return None;
        }
        let mut r = self.rng.below((total + self.gamma_rest) as usize) as u32;
        for (&p, &w) in points[..n].iter().zip(&weights[..n]) {
            if r < w {
                return Some(p);
            }
            r -= w;
        }
        None
    }

    /// The stored reply of `c` to the last two moves, else to the last move `last`, if it
    /// is legal (superko included), fills no own eye and is no bad self-atari.
    #[inline]
    fn stored_reply(
        &self,
        last: Point,
        c: Color,
        history: &PositionHistory,
        ko: KoRule,
    ) -> Option<Point> {
        let acceptable = |p: Point| {
            let b = &self.board;
            p != NO_POINT
                && b.is_legal(p, c)
                && !b.is_playout_eye(p, c)
                && !is_bad_self_atari(b, p, c)
                && !self.repeats(p, c, history, ko)
        };
        if self.replies.level() >= 2 {
            let p = self.replies.reply2(c, self.board.last_move2(), last);
            if acceptable(p) {
                return Some(p);
            }
        }
        let p = self.replies.reply1(c, last);
        acceptable(p).then_some(p)
    }

    /// A uniformly random candidate that is legal (superko included), fills no own eye and,
    /// unless `allow_self_atari`, is no bad self-atari.
    fn choose(
        &mut self,
        cands: &mut Candidates,
        c: Color,
        history: &PositionHistory,
        ko: KoRule,
        allow_self_atari: bool,
    ) -> Option<Point> {
        let mut k = cands.len;
        while k > 0 {
            let i = self.rng.below(k);
            let p = cands.points[i];
            let b = &self.board;
            if b.is_legal(p, c)
                && !b.is_playout_eye(p, c)
                && (allow_self_atari || !is_bad_self_atari(b, p, c))
                && !self.repeats(p, c, history, ko)
            {
                return Some(p);
            }
            k -= 1;
            cands.points.swap(i, k);
        }
        None
    }

    /// The ko step: remembers a ko while its ban lasts; in the two moves after it ends,
    /// now and then (`ko_rate`) plays its point: the capturer connects, the other side
    /// retakes. `None` when there is no such move.
    fn ko_fight(&mut self, c: Color, history: &PositionHistory, ko: KoRule) -> Option<Point> {
        let played = self.moves.len();
        if let Some((p, _)) = self.board.ko() {
            self.last_ko = p;
            self.last_ko_at = played;
            return None;
        }
        let p = self.last_ko;
        if p == NO_POINT || played - self.last_ko_at > KO_FIGHT_MOVES {
            return None;
        }
        if self.board.cell(p) != Cell::Empty
            || !self.board.is_legal(p, c)
            || !self.rng.chance(self.ko_rate)
            || is_bad_self_atari(&self.board, p, c)
            || self.repeats(p, c, history, ko)
        {
            return None;
        }
        Some(p)
    }

    /// Like the light policy's move, but refusing bad self-ataris (with chance
    /// `self_atari_rate`); when configured ([`Playout::configure_fights`]), a refused
    /// self-atari may turn into the move it was probably meant to be, and a false-eye fill
    /// into a capture or atari of the stone that makes the eye false.
    fn pick_sane(&mut self, c: Color, history: &PositionHistory, ko: KoRule) -> Point {
        let check = self.self_atari_rate >= 1024 || self.rng.chance(self.self_atari_rate);
        let mut k = self.board.empty_points().len();
        while k > 0 {
            let i = self.rng.below(k);
            let p = self.board.empty_points()[i];
            if self.light_candidate(p, c) && !self.repeats(p, c, history, ko) {
                if !(check && is_bad_self_atari(&self.board, p, c)) {
                    if self.fights.eye_fill_redirect > 0
                        && self.board.is_eyelike(p, c)
                        && self.rng.chance(self.fights.eye_fill_redirect)
                    {
                        let mut cands = Candidates::new();
                        fights::eye_fill_alternative(&self.board, p, c, &mut cands);
                        if let Some(q) = self.choose(&mut cands, c, history, ko, false) {
                            return q;
                        }
                    }
                    return p;
                }
                if self.fights.refused_attack > 0 {
                    self.refused_self_atari[c.index()] = p;
                }
                if self.fights.self_atari_redirect > 0
                    && self.rng.chance(self.fights.self_atari_redirect)
                {
                    let mut cands = Candidates::new();
                    fights::self_atari_alternative(&self.board, p, c, &mut cands);
                    if let Some(q) = self.choose(&mut cands, c, history, ko, false) {
                        return q;
                    }
                }
            }
            k -= 1;
            self.board.swap_empty_points(i, k);
        }
        NO_POINT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};
    use crate::playout::FightRates;

    /// A playout on a board where Black has just taken a ko at C2 (White may not retake at
    /// B2 at once), fighting kos always.
    fn after_ko_capture() -> (Playout, PositionHistory) {
        let board = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". X O . .",
            "X O . O .",
            ". X O . .",
        ]);
        let mut po = Playout::new(1);
        po.configure_heavy(1.0, 1.0, 0.0);
        po.start(&board);
        let history = PositionHistory::default();
        play(&mut po, "C2", Color::Black);
        assert_eq!(po.board.ko().map(|k| k.0), Some(pt(&po.board, "B2")));
        (po, history)
    }

    fn play(po: &mut Playout, name: &str, c: Color) {
        let p = pt(&po.board, name);
        po.board.play(p, c);
        po.moves.push((p, c));
    }

    #[test]
    fn the_capturer_connects_a_ko_once_the_ban_is_over() {
        let (mut po, history) = after_ko_capture();
        let ko = KoRule::Positional;
        // White may not retake yet: no ko move, but the ko is remembered.
        assert_eq!(po.ko_fight(Color::White, &history, ko), None);
        play(&mut po, "E5", Color::White);
        assert_eq!(
            po.ko_fight(Color::Black, &history, ko),
            Some(pt(&po.board, "B2"))
        );
    }

    #[test]
    fn the_other_side_retakes_a_ko_after_a_threat_and_an_answer() {
        let (mut po, history) = after_ko_capture();
        let ko = KoRule::Positional;
        assert_eq!(po.ko_fight(Color::White, &history, ko), None);
        play(&mut po, "E5", Color::White);
        play(&mut po, "E4", Color::Black);
        assert_eq!(
            po.ko_fight(Color::White, &history, ko),
            Some(pt(&po.board, "B2"))
        );
        // Two moves later the ko is old news.
        play(&mut po, "A5", Color::White);
        play(&mut po, "B5", Color::Black);
        assert_eq!(po.ko_fight(Color::White, &history, ko), None);
    }

    #[test]
    fn reading_both_sides_the_playouts_do_not_run_a_ladder_into_the_runners_weak_group() {
        // From a game lost to Pachi (gtp-scripts/sgf/ladder19b.sgf): Black's move 47 puts
        // White M4 in atari; running to M5 leads up and to the left into White's own weak
        // group, where Black's atari from the other side captures it (GNU Go 3.8: `defend
        // M4` gives 0). Reading the attacker's ataris from both sides, the playouts' answer
        // to the atari leaves the run out; the one-sided reader takes it for an escape.
        let text = include_str!("../../gtp-scripts/sgf/ladder19b.sgf");
        let game = crate::sgf::test_support::game_before(text, 48);
        let board = game.board();
        let run = pt(board, "M5");
        let answers = |both: bool| {
            let mut ladders = LadderReading::new();
            ladders.both = both;
            let mut cands = Candidates::new();
            atari_responses(
                board,
                &mut ladders,
                board.last_move(),
                Color::White,
                &mut cands,
            );
            cands.points[..cands.len].contains(&run)
        };
        assert!(!answers(true));
        assert!(answers(false));
    }

    #[test]
    fn the_opponents_refused_self_atari_points_at_a_chain_to_capture() {
        // White C1-D1 has two liberties, B1 and D2; White's B1 would be a self-atari (its
        // other neighbours are Black's), Black's atari on either liberty captures.
        let board = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". X X . . . .",
            "X . O O X . .",
        ]);
        let history = PositionHistory::default();
        let attacks = |rate: f32, seed: u64| {
            let mut po = Playout::new(seed);
            po.configure_fights(FightRates {
                refused_attack: rate,
                ..FightRates::default()
            });
            po.start(&board);
            // White's last move is far away; its random B1 was refused before it.
            play(&mut po, "G7", Color::White);
            po.refused_self_atari[Color::White.index()] = pt(&po.board, "B1");
            let p = po.pick_heavy(Color::Black, &history, KoRule::Simple);
            // The point is looked at once.
            assert_eq!(po.refused_self_atari[Color::White.index()], NO_POINT);
            p == pt(&po.board, "B1") || p == pt(&po.board, "D2")
        };
        assert!((1..=20).all(|seed| attacks(1.0, seed)));
        // Without the step the capture is only one random move among many.
        assert!(!(1..=20).all(|seed| attacks(0.0, seed)));
    }

    #[test]
    fn a_chain_put_in_atari_moves_ago_is_captured_anywhere() {
        // White A1 has two liberties (A2, B1). Black A2 puts it in atari; then three moves
        // far away follow, so neither of the last two moves is near it.
        let board = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            "O . X . . . .",
        ]);
        let history = PositionHistory::default();
        let ko = KoRule::Simple;
        let captured = |rate: f32, seed: u64| {
            let mut po = Playout::new(seed);
            po.configure_heavy(0.0, 1.0, rate);
            po.start(&board);
            let mut to_move = Color::Black;
            for mv in ["A2", "G7", "G1", "D7"] {
                // As in a playout, the policy is asked after every move.
                po.pick_heavy(to_move, &history, ko);
                play(&mut po, mv, to_move);
                to_move = to_move.opponent();
            }
            po.pick_heavy(to_move, &history, ko) == pt(&po.board, "B1")
        };
        assert!((1..=20).all(|seed| captured(1.0, seed)));
        // Without the step the capture is only one random move among many.
        assert!(!(1..=20).all(|seed| captured(0.0, seed)));
    }

    #[test]
    fn a_short_chain_ataris_its_two_liberty_neighbour_in_a_race() {
        // White's D3 takes Black B1-B3 C3 down to three liberties (A1 A2 A3); the White
        // chain C1-C2 beside it has two (D1 D2): Black's race move is an atari there.
        let board = board_from(&[
            ". . . . . . .", //
            ". . . . . . .",
            ". . . . . . .",
            ". O O O . . .",
            ". X X . . . .",
            ". X O . . . .",
            ". X O . . . .",
        ]);
        let mut po = Playout::new(1);
        po.start(&board);
        play(&mut po, "D3", Color::White);
        let mut cands = Candidates::new();
        short_chain_counter_ataris(&po.board, pt(&po.board, "D3"), Color::Black, &mut cands);
        let mut found: Vec<Point> = cands.points[..cands.len].to_vec();
        found.sort_unstable();
        let mut expected = vec![pt(&po.board, "D1"), pt(&po.board, "D2")];
        expected.sort_unstable();
        assert_eq!(found, expected);
        // White has no such move: its chains next to D3 have two or many liberties.
        let mut cands = Candidates::new();
        short_chain_counter_ataris(&po.board, pt(&po.board, "D3"), Color::White, &mut cands);
        assert_eq!(cands.len, 0);

        let history = PositionHistory::default();
        let races = |rate: f32, seed: u64| {
            let mut po = Playout::new(seed);
            po.configure_nlib(rate);
            po.start(&board);
            play(&mut po, "D3", Color::White);
            let p = po.pick_heavy(Color::Black, &history, KoRule::Simple);
            p == pt(&po.board, "D1") || p == pt(&po.board, "D2")
        };
        // The step is skipped only when an earlier step (ataris, shapes) answers first,
        // and those find nothing here.
        assert!((1..=20).all(|seed| races(1.0, seed)));
        assert!(!(1..=20).all(|seed| races(0.0, seed)));
    }
}
