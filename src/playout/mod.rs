//! Monte-Carlo playouts: play a position out to the end with a fast random policy and count it.
//!
//! A [`Playout`] is a reusable per-thread workspace (board, random generator, positions seen,
//! move list, ownership), so running one allocates nothing. Playouts follow the full rules:
//! no suicide, simple ko, and superko against both the game's history and the positions the
//! playout itself created.
//!
//! The light policy plays uniformly at random among legal moves that do not fill the mover's
//! own eye, where "eye" is [`Board::is_playout_eye`]: every orthogonal neighbour is an own
//! stone or the edge, and the opponent holds at most one diagonal (none on the edge).
//! The heavy policy ([`heavy`]) answers the last move first (captures, atari escapes, 3x3
//! shapes) and avoids self-atari; see there. It can also replay replies that won earlier
//! simulations ([`replies`], last-good-reply with forgetting).
//!
//! Superko costs almost nothing: a move can only recreate an earlier position on a point
//! where a stone of the mover's colour was once captured ([`Board::may_repeat_position`]),
//! so only those moves are looked up in the position tables.

pub mod fights;
pub mod gammas;
pub mod heavy;
pub mod replies;

use crate::board::{Board, Cell, Color, MAX_POINTS, Move, NO_POINT, Point};
use crate::game::PositionHistory;
use crate::patterns;
use crate::rng::Rng;
use crate::rules::KoRule;
use crate::score::{Owners, area_owners};
use replies::Replies;

/// Capacity of the per-playout position list: more than the tree prefix plus the longest
/// playout (`max_playout_moves(MAX_SIZE)` = 1875) ever need.
const LOCAL_POSITIONS: usize = 4096;

/// Which move-selection policy a playout uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Policy {
    /// Uniformly random legal moves that do not fill one's own eye.
    Light,
    /// Answers to the last move (captures, atari escapes, 3x3 shapes) first, then random
    /// moves that avoid self-atari; see [`heavy`].
    Heavy,
}

impl Policy {
    /// Parses `light` or `heavy`.
    pub fn parse(name: &str) -> Result<Policy, String> {
        match name.to_ascii_lowercase().as_str() {
            "light" => Ok(Policy::Light),
            "heavy" => Ok(Policy::Heavy),
            _ => Err(format!(
                "unknown playout policy '{name}' (use light or heavy)"
            )),
        }
    }

    /// The lower-case name `parse` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
        }
    }
}

/// The longest playout on a board of `size`, in moves (passes included).
pub fn max_playout_moves(size: usize) -> usize {
    3 * size * size
}

/// Bits of the filter in front of [`LocalPositions`]'s list (a power of two).
const FILTER_BITS: usize = 4096;

/// Positions created since the playout's start position: a plain list of hashes behind a
/// one-probe Bloom filter.
///
/// Recording a position is one store and one bit set; looking one up tests the bit and only
/// then scans the list. Lookups are rare (only moves that pass
/// [`Board::may_repeat_position`]), so this beats a hash table, whose random probes into a
/// large table miss the cache on every move.
struct LocalPositions {
    keys: Box<[u64]>,
    len: usize,
    filter: [u64; FILTER_BITS / 64],
}

impl LocalPositions {
    fn new() -> LocalPositions {
        LocalPositions {
            keys: vec![0; LOCAL_POSITIONS].into_boxed_slice(),
            len: 0,
            filter: [0; FILTER_BITS / 64],
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.filter = [0; FILTER_BITS / 64];
    }

    /// The filter word and bit of `key` (from its top bits; the low bits index tables).
    #[inline]
    fn filter_slot(key: u64) -> (usize, u64) {
        let bit = (key >> (64 - FILTER_BITS.trailing_zeros())) as usize;
        (bit / 64, 1 << (bit % 64))
    }

    #[inline]
    fn contains(&self, key: u64) -> bool {
        let (word, mask) = Self::filter_slot(key);
        if self.filter[word] & mask == 0 {
            return false;
        }
        let keys = &self.keys[..self.len];
        // Whole chunks without early exit, so that the compiler can vectorise the compares.
        keys.chunks(8)
            .any(|chunk| chunk.iter().fold(false, |found, &k| found | (k == key)))
    }

    /// Adds a key; returns false when the list is full.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        match self.keys.get_mut(self.len) {
            Some(slot) => {
                *slot = key;
                self.len += 1;
                let (word, mask) = Self::filter_slot(key);
                self.filter[word] |= mask;
                true
            }
            None => false,
        }
    }
}

/// The result of one playout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Black's area minus White's area minus komi, Tromp-Taylor on the final board.
    pub score: f32,
    /// Moves played in the playout itself (passes included).
    pub length: usize,
}

impl Outcome {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        if self.score > 0.0 {
            Some(Color::Black)
        } else if self.score < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// 1 if `c` won, 0 if it lost, ½ for a draw.
    pub fn value_for(&self, c: Color) -> f32 {
        match self.winner() {
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// How often the heavy policy takes each of its local fight steps ([`fights`]), as chances
/// from 0 to 1 (`Default`: all off; [`FightRates::PACHI`]: the search's default).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FightRates {
    /// Fight the two-liberty chains around the last move: ataris, extensions, counter-ataris.
    pub two_liberty: f32,
    /// Fill the point that the last move made a threat to turn an own eye false.
    pub eye_fix: f32,
    /// Turn a refused random self-atari into the approach or extension it was meant to be.
    pub self_atari_redirect: f32,
    /// Turn a random false-eye fill into a capture or atari of the stone that spoils it.
    pub eye_fill_redirect: f32,
    /// Play the vital point of a small eye space the last move borders.
    pub nakade: f32,
    /// After the opponent's random self-atari was refused, atari its two-liberty chains
    /// next to that point where the atari captures: a chain the opponent was about to
    /// self-atari is short of liberties (Pachi's `last_selfatari` check).
    pub refused_attack: f32,
}

impl FightRates {
    /// Pachi's rates for its matching steps (moggy's `atarirate` 90 on small boards,
    /// `eyefixrate` 100, `selfatarirate` 60, `eyefillrate` 60), nakade off: against Pachi at
    /// 10,000 playouts a move these won 55 of 100 games on 9x9 where the playouts without
    /// them had won 49 of 101 (`docs/strength.md`).
    pub const PACHI: FightRates = FightRates {
        two_liberty: 0.9,
        eye_fix: 1.0,
        self_atari_redirect: 0.6,
        eye_fill_redirect: 0.6,
        nakade: 0.0,
        refused_attack: 0.0,
    };
}

/// [`FightRates`] as chances out of 1024.
#[derive(Clone, Copy, Debug, Default)]
struct FightChances {
    two_liberty: u32,
    eye_fix: u32,
    self_atari_redirect: u32,
    eye_fill_redirect: u32,
    nakade: u32,
    refused_attack: u32,
}

/// A reusable playout workspace; one per search thread.
pub struct Playout {
    /// The board being played on; set it up with [`Playout::start`] and
    /// [`Playout::play_prefix`].
    pub board: Board,
    /// The random generator.
    pub rng: Rng,
    local: LocalPositions,
    /// Moves played by the last playout (not the prefix), for AMAF statistics.
    pub moves: Vec<(Point, Color)>,
    /// Owner of each point at the end of the last playout.
    pub owners: Owners,
    /// The heavy policy's ladder reader.
    ladders: heavy::LadderReading,
    /// Last good replies for the heavy policy (off until configured).
    pub replies: Replies,
    /// Learned pattern gammas for the heavy policy's shape step (`None`: the hand-written
    /// shapes), see [`Playout::configure_gammas`].
    gammas: Option<&'static gammas::GammaTable>,
    /// The drawing weight of "no shape move" beside the gammas of the candidates.
    gamma_rest: u32,
    /// Chance (out of 1024) that the heavy policy fights the last ko: connects it or
    /// retakes it once the ban is over ([`Playout::configure_heavy`]).
    ko_rate: u32,
    /// Chance (out of 1024) that the heavy policy's random move refuses bad self-ataris.
    self_atari_rate: u32,
    /// Chance (out of 1024) that the heavy policy captures a chain in atari anywhere on the
    /// board, not only near the last moves ([`Playout::configure_heavy`]).
    capture_rate: u32,
    /// Chance (out of 1024) of the short-chain counter-atari step.
    nlib_rate: u32,
    /// Chances (out of 1024) of the local fight steps ([`fights`]).
    fights: FightChances,
    /// Stones of chains that were in atari after some move of this playout (checked again
    /// when read), for the capture-anywhere step.
    ataris: heavy::AtariList,
    /// The point of the last ko seen in this playout (`NO_POINT`: none)...
    last_ko: Point,
    /// ...and the number of playout moves played when it was seen.
    last_ko_at: usize,
    /// Per colour ([`Color::index`]), the point of its last random move that the heavy
    /// policy refused as a bad self-atari and the opponent has not looked at yet
    /// (`NO_POINT`: none).
    refused_self_atari: [Point; 2],
}

impl Playout {
    /// A workspace whose random sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Playout {
        patterns::init();
        Playout {
            board: Board::new(9),
            rng: Rng::new(seed),
            local: LocalPositions::new(),
            moves: Vec::with_capacity(max_playout_moves(crate::board::MAX_SIZE) + 8),
            owners: [Cell::Empty; MAX_POINTS],
            ladders: heavy::LadderReading::new(),
            replies: Replies::new(),
            gammas: None,
            gamma_rest: 0,
            ko_rate: 0,
            self_atari_rate: 1024,
            capture_rate: 0,
            nlib_rate: 0,
            fights: FightChances::default(),
            ataris: heavy::AtariList::new(),
            last_ko: NO_POINT,
            last_ko_at: 0,
            refused_self_atari: [NO_POINT; 2],
        }
    }

    /// Sets three habits of the heavy policy, as chances from 0 to 1: fighting the last ko
    /// (connect or retake it in the two moves after its ban ends, as Pachi's playouts do;
    /// without it a ko in a playout is settled by whoever happens to play there), refusing
    /// bad self-ataris in the random step (1: always), and capturing a chain in atari
    /// anywhere on the board (a race far from the last move is otherwise settled by
    /// whoever happens to play there first).
    pub fn configure_heavy(&mut self, ko_fight: f32, self_atari_check: f32, capture_anywhere: f32) {
        let rate = |x: f32| (x.clamp(0.0, 1.0) * 1024.0).round() as u32;
        self.ko_rate = rate(ko_fight);
        self.self_atari_rate = rate(self_atari_check);
        self.capture_rate = rate(capture_anywhere);
    }

    /// Sets the chance (0 to 1) of the heavy policy's short-chain counter-atari step: after
    /// a move next to an own chain of three or four liberties, an atari on an opponent
    /// chain of two liberties touching it (a capturing race's liberty taking, as Pachi's
    /// playouts do).
    pub fn configure_nlib(&mut self, nlib_defense: f32) {
        self.nlib_rate = (nlib_defense.clamp(0.0, 1.0) * 1024.0).round() as u32;
    }

    /// Sets the chances (0 to 1) of the heavy policy's local fight steps ([`fights`]).
    pub fn configure_fights(&mut self, rates: FightRates) {
        let rate = |x: f32| (x.clamp(0.0, 1.0) * 1024.0).round() as u32;
        self.fights = FightChances {
            two_liberty: rate(rates.two_liberty),
            eye_fix: rate(rates.eye_fix),
            self_atari_redirect: rate(rates.self_atari_redirect),
            eye_fill_redirect: rate(rates.eye_fill_redirect),
            nakade: rate(rates.nakade),
            refused_attack: rate(rates.refused_attack),
        };
    }

    /// Sets whether the heavy policy's ladder reading tries the attacker's atari from both
    /// sides ([`crate::tactics::read_ladder_both`]) instead of only the one that leaves the
    /// runner fewest liberties.
    pub fn configure_ladders(&mut self, both_sides: bool) {
        self.ladders.both = both_sides;
    }

    /// Switches the heavy policy's shape step to learned 3x3 pattern gammas ([`gammas`])
    /// when `on`, drawing among the candidates around the last two moves with probability
    /// proportional to their gammas, beside a mass `rest` (in units of gamma) that falls
    /// through to the random move; off, the hand-written shapes are drawn uniformly.
    pub fn configure_gammas(&mut self, on: bool, rest: f32) {
        self.gammas = on.then(gammas::builtin);
        self.gamma_rest = (f64::from(rest.clamp(0.0, 64.0)) * f64::from(gammas::WEIGHT_ONE)) as u32;
    }

    /// Starts from `root`, forgetting every position of the previous playout.
    pub fn start(&mut self, root: &Board) {
        self.board.copy_from(root);
        self.replies.use_size(root.size());
        self.local.clear();
        self.moves.clear();
        self.last_ko = NO_POINT;
        self.ataris.reset();
        self.refused_self_atari = [NO_POINT; 2];
    }

    /// Whether `c` may play `p` here, superko included (against the game `history` and the
    /// positions since [`Playout::start`]).
    #[inline]
    pub fn is_legal(&self, p: Point, c: Color, history: &PositionHistory, ko: KoRule) -> bool {
        self.board.is_legal(p, c) && !self.repeats(p, c, history, ko)
    }

    /// Whether the legal-on-board move `p` recreates an earlier position. In playouts the
    /// situational rule is checked positionally: stricter, so a playout never plays a move
    /// the game would refuse.
    #[inline]
    fn repeats(&self, p: Point, c: Color, history: &PositionHistory, ko: KoRule) -> bool {
        if ko == KoRule::Simple || !self.board.may_repeat_position(p, c) {
            return false;
        }
        let h = self.board.hash_after(p, c);
        self.local.contains(h) || history.seen_position(h)
    }

    /// Plays a move of the tree part of a simulation (already known to be legal) and records
    /// the new position for superko.
    #[inline]
    pub fn play_prefix(&mut self, mv: Move, c: Color) {
        match mv {
            Move::Pass => self.board.pass(c),
            Move::Play(p) => {
                self.board.play(p, c);
                self.local.insert(self.board.hash());
            }
        }
    }

    /// Updates the reply tables (see [`replies`]) from the simulation just finished: the
    /// game's last two moves before the simulation (`context`, `NO_POINT` for passes), the
    /// tree moves (`NO_POINT` for passes) played alternately from `first`, then this
    /// playout's [`Playout::moves`]; `winner` won it. Does nothing when the tables are off.
    pub fn learn_replies(
        &mut self,
        context: [Point; 2],
        first: Color,
        tree: impl IntoIterator<Item = Point>,
        winner: Color,
    ) {
        if self.replies.level() == 0 {
            return;
        }
        let mut recent = context;
        let mut color = first;
        for p in tree {
            self.replies.learn(recent, p, color, color == winner);
            recent = [recent[1], p];
            color = color.opponent();
        }
        for &(p, c) in &self.moves {
            // `moves` lists no passes: a move out of turn follows one.
            if c != color {
                recent = [recent[1], NO_POINT];
            }
            self.replies.learn(recent, p, c, c == winner);
            recent = [recent[1], p];
            color = c.opponent();
        }
    }

    /// Plays the position out from the current board with `to_move` to play and counts it.
    pub fn run(
        &mut self,
        to_move: Color,
        history: &PositionHistory,
        ko: KoRule,
        komi: f32,
        policy: Policy,
    ) -> Outcome {
        let length = match policy {
            Policy::Light => self.play_out(to_move, ko, |po, c| po.pick_light(c, history, ko)),
            Policy::Heavy => self.play_out(to_move, ko, |po, c| po.pick_heavy(c, history, ko)),
        };
        let area = area_owners(&self.board, &mut self.owners);
        Outcome {
            score: area[0] as f32 - area[1] as f32 - komi,
            length,
        }
    }

    /// The move loop of [`Playout::run`] with the policy's choice `pick` (`NO_POINT` = pass)
    /// compiled in; returns the number of moves played.
    #[inline(always)]
    fn play_out(
        &mut self,
        to_move: Color,
        ko: KoRule,
        mut pick: impl FnMut(&mut Playout, Color) -> Point,
    ) -> usize {
        let cap = max_playout_moves(self.board.size());
        let mut color = to_move;
        let mut passes = 0;
        let mut length = 0;
        while length < cap {
            let choice = pick(self, color);
            length += 1;
            if choice == NO_POINT {
                self.board.pass(color);
                passes += 1;
                if passes >= 2 {
                    break;
                }
            } else {
                passes = 0;
                self.board.play(choice, color);
                self.moves.push((choice, color));
                if ko != KoRule::Simple && !self.local.insert(self.board.hash()) {
                    break;
                }
            }
            color = color.opponent();
        }
        length
    }

    /// A uniformly random legal move for `c` that does not fill its own eye, or `NO_POINT`.
    ///
    /// Draws a random empty point; a rejected one is swapped behind the part of the empty list
    /// still drawn from, so every acceptable point is equally likely and each point is tested
    /// at most once per move.
    #[inline(always)]
    fn pick_light(&mut self, c: Color, history: &PositionHistory, ko: KoRule) -> Point {
        let mut k = self.board.empty_points().len();
        while k > 0 {
            let i = self.rng.below(k);
            let p = self.board.empty_points()[i];
            if self.light_candidate(p, c) && !self.repeats(p, c, history, ko) {
                return p;
            }
            k -= 1;
            self.board.swap_empty_points(i, k);
        }
        NO_POINT
    }

    /// Whether the empty point `p` is legal for `c` on the board (superko aside) and not
    /// its playout eye.
    #[inline(always)]
    fn light_candidate(&self, p: Point, c: Color) -> bool {
        let b = &self.board;
        // With an empty neighbour a move is neither suicide nor an eye fill, and the ko
        // point never has one (it is surrounded by the capturing side).
        if b.empty_neighbors(p) > 0 {
            return true;
        }
        !b.is_playout_eye(p, c) && !b.is_ko_retake(p, c) && !b.is_suicide(p, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::Rules;

    /// Runs one playout for Black from `game`'s position (positional superko) and checks
    /// what every playout must end with: a consistent board, a length within the cap and
    /// the Tromp-Taylor score of the final board.
    fn run_checked(po: &mut Playout, game: &Game, komi: f32, policy: Policy) -> Outcome {
        po.start(game.board());
        let out = po.run(
            Color::Black,
            game.positions(),
            KoRule::Positional,
            komi,
            policy,
        );
        po.board.check_invariants().unwrap();
        assert!(out.length <= max_playout_moves(game.board().size()));
        assert_eq!(out.score, crate::score::tromp_taylor_score(&po.board, komi));
        out
    }

    #[test]
    fn playouts_end_with_only_eyes_left_and_score_consistently() {
        let game = Game::new(9, Rules::chinese()).unwrap();
        let mut po = Playout::new(42);
        for i in 0..300 {
            let policy = if i % 2 == 0 {
                Policy::Light
            } else {
                Policy::Heavy
            };
            let out = run_checked(&mut po, &game, 7.5, policy);
            // A playout that ended on two passes left only eyes and unplayable points.
            let ended_by_passes = out.length < max_playout_moves(9);
            // (Heavy playouts also pass rather than play a bad self-atari.)
            for &p in po.board.empty_points().iter().filter(|_| ended_by_passes) {
                for c in Color::BOTH {
                    assert!(
                        po.board.is_playout_eye(p, c)
                            || !po.is_legal(p, c, game.positions(), KoRule::Positional)
                            || (policy == Policy::Heavy
                                && heavy::is_bad_self_atari(&po.board, p, c))
                    );
                }
            }
        }
    }

    #[test]
    fn same_seed_same_playout() {
        let game = Game::new(9, Rules::chinese()).unwrap();
        let mut a = Playout::new(5);
        let mut b = Playout::new(5);
        for _ in 0..20 {
            a.start(game.board());
            b.start(game.board());
            let oa = a.run(
                Color::Black,
                game.positions(),
                KoRule::Positional,
                7.5,
                Policy::Light,
            );
            let ob = b.run(
                Color::Black,
                game.positions(),
                KoRule::Positional,
                7.5,
                Policy::Light,
            );
            assert_eq!(oa, ob);
            assert_eq!(a.moves, b.moves);
        }
    }

    /// Random games under positional superko on small boards: at every ply the playout's
    /// legality test (board rules plus the filtered superko lookup) agrees with the game's
    /// (which looks every move up), and superko refusals do occur.
    #[test]
    fn playout_legality_agrees_with_the_game() {
        let mut rng = Rng::new(99);
        let mut po = Playout::new(1);
        let mut superko_refusals = 0;
        for &(size, games) in &[(2, 40), (3, 40), (4, 30), (5, 20), (7, 5)] {
            for _ in 0..games {
                let mut game = Game::new(size, Rules::chinese()).unwrap();
                game.set_ko_rule(KoRule::Positional);
                for _ in 0..(4 * size * size) {
                    let color = game.to_move();
                    po.start(game.board());
                    let mut legal = Vec::new();
                    for p in game.board().points() {
                        let by_game = game.is_legal(Move::Play(p), color);
                        let by_playout =
                            po.is_legal(p, color, game.positions(), KoRule::Positional);
                        assert_eq!(
                            by_game,
                            by_playout,
                            "{}\n{:?}",
                            game.board().vertex_name(p),
                            game.board()
                        );
                        if by_game {
                            legal.push(p);
                        } else if game.board().is_legal(p, color) {
                            superko_refusals += 1;
                        }
                    }
                    let mv = if legal.is_empty() || rng.below(12) == 0 {
                        Move::Pass
                    } else {
                        Move::Play(legal[rng.below(legal.len())])
                    };
                    game.play(mv, color).unwrap();
                    if game.is_over() {
                        break;
                    }
                }
            }
        }
        assert!(
            superko_refusals > 20,
            "only {superko_refusals} superko refusals"
        );
    }

    /// A playout never recreates a position of the game or of itself: replaying its moves
    /// on a game (which checks superko on every move) succeeds.
    #[test]
    fn playouts_obey_positional_superko() {
        let mut po = Playout::new(3);
        for &size in &[3, 4, 5] {
            let game = Game::new(size, Rules::chinese()).unwrap();
            for i in 0..60 {
                let policy = if i % 2 == 0 {
                    Policy::Light
                } else {
                    Policy::Heavy
                };
                po.start(game.board());
                po.run(
                    Color::Black,
                    game.positions(),
                    KoRule::Positional,
                    0.5,
                    policy,
                );
                let mut replay = game.clone();
                replay.set_ko_rule(KoRule::Positional);
                let mut expected = Color::Black;
                for &(p, c) in &po.moves {
                    // Passes are not listed: give the turn back with one.
                    if c != expected {
                        replay.play(Move::Pass, expected).unwrap();
                    }
                    replay.play(Move::Play(p), c).unwrap_or_else(|e| {
                        panic!(
                            "{} by {c}: {e}\n{:?}",
                            replay.board().vertex_name(p),
                            replay.board()
                        )
                    });
                    expected = c.opponent();
                }
            }
        }
    }

    /// Playing into the position after white's atari on black C3, the heavy policy saves the
    /// stone (D3 gives three liberties) far more often than chance.
    #[test]
    fn heavy_policy_escapes_the_atari_of_the_last_move() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        for (v, c) in [
            ("C3", Color::Black),
            ("C4", Color::White),
            ("G7", Color::Black),
            ("B3", Color::White),
            ("G3", Color::Black),
            ("C2", Color::White),
        ] {
            let mv = game.board().parse_move(v).unwrap();
            game.play(mv, c).unwrap();
        }
        let d3 = game.board().parse_move("D3").unwrap();
        let mut hits = [0; 2];
        let mut po = Playout::new(8);
        for (k, policy) in [Policy::Light, Policy::Heavy].into_iter().enumerate() {
            for _ in 0..200 {
                po.start(game.board());
                po.run(
                    Color::Black,
                    game.positions(),
                    KoRule::Positional,
                    7.5,
                    policy,
                );
                if po.moves.first().map(|&(p, _)| Move::Play(p)) == Some(d3) {
                    hits[k] += 1;
                }
            }
        }
        // Light: about 200 / 73 (uniform); heavy: about 95 % (the escape rate).
        assert!(hits[0] < 20, "{hits:?}");
        assert!(hits[1] > 160, "{hits:?}");
    }

    /// Last-good-reply: after a simulation that White won by answering Black's E5 with C3,
    /// a heavy playout from the position after E5 answers with C3 every time (nothing else
    /// on the board calls for a move); after a simulation that White lost with that reply it
    /// is forgotten and C3 is as rare as any other point. A pass between E5 and C3 teaches
    /// nothing.
    #[test]
    fn heavy_policy_replays_the_last_good_reply_and_forgets_a_losing_one() {
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        let point = |g: &Game, v: &str| match g.board().parse_move(v).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        };
        let e5 = point(&game, "E5");
        let c3 = point(&game, "C3");
        game.play(Move::Play(e5), Color::Black).unwrap();
        let mut po = Playout::new(17);
        let first_moves_at_c3 = |po: &mut Playout| {
            let mut hits = 0;
            for _ in 0..100 {
                po.start(game.board());
                po.run(
                    Color::White,
                    game.positions(),
                    KoRule::Positional,
                    7.5,
                    Policy::Heavy,
                );
                if po.moves.first() == Some(&(c3, Color::White)) {
                    hits += 1;
                }
            }
            hits
        };
        for order in [
            replies::ReplyOrder::BeforeTactics,
            replies::ReplyOrder::AfterTactics,
        ] {
            po.replies.configure(1, order);
            po.replies.clear();
            po.start(&Board::new(9));
            // Black E5, White C3 in the tree; White won.
            po.learn_replies([NO_POINT, NO_POINT], Color::Black, [e5, c3], Color::White);
            assert_eq!(first_moves_at_c3(&mut po), 100);
            // Switched off, the table is not used.
            po.replies.configure(0, order);
            assert!(first_moves_at_c3(&mut po) < 10);
            po.replies.configure(1, order);
            // The same moves in the playout part, and White lost: forgotten.
            po.start(&Board::new(9));
            po.moves.extend([(e5, Color::Black), (c3, Color::White)]);
            po.learn_replies([NO_POINT, NO_POINT], Color::Black, [], Color::Black);
            assert!(first_moves_at_c3(&mut po) < 10);
            // Passes are not listed in `moves`; a move out of turn follows one. Black E5,
            // White passes, Black C3, and Black won: C3 answered the pass, not E5.
            po.start(&Board::new(9));
            po.moves.extend([(e5, Color::Black), (c3, Color::Black)]);
            po.learn_replies([NO_POINT, NO_POINT], Color::Black, [], Color::Black);
            assert_eq!(po.replies.reply1(Color::Black, e5), NO_POINT);
            // Black passes, White E5, Black C3, and Black won: C3 answered E5.
            po.moves.clear();
            po.moves.extend([(e5, Color::White), (c3, Color::Black)]);
            po.learn_replies([NO_POINT, NO_POINT], Color::Black, [], Color::Black);
            assert_eq!(po.replies.reply1(Color::Black, e5), c3);
        }
    }

    /// Both policies run on every board size (the heavy policy's 3x3 and ladder code reads
    /// around points next to the padding), end with a consistent board and score it right.
    #[test]
    fn playouts_on_every_board_size() {
        let mut po = Playout::new(21);
        for size in crate::board::MIN_SIZE..=crate::board::MAX_SIZE {
            let game = Game::new(size, Rules::chinese()).unwrap();
            for policy in [Policy::Light, Policy::Heavy] {
                for _ in 0..3 {
                    run_checked(&mut po, &game, 0.5, policy);
                }
            }
        }
    }

    /// Heavy playouts with learned gammas play only moves the game accepts (positional
    /// superko included; passes are implied by a repeated colour), on 9x9 and on every
    /// board size, and end with a consistent board and score; their shape step is used.
    #[test]
    fn gamma_playouts_finish_games_legally() {
        let mut po = Playout::new(33);
        let mut local = 0;
        let mut total = 0;
        for size in [9, 2, 3, 5, 13, 19, 25] {
            for rest in [0.0, 0.5] {
                po.configure_gammas(true, rest);
                for _ in 0..(if size == 9 { 20 } else { 2 }) {
                    let mut game = Game::new(size, Rules::chinese()).unwrap();
                    game.set_ko_rule(KoRule::Positional);
                    run_checked(&mut po, &game, 7.5, Policy::Heavy);
                    let mut color = Color::Black;
                    for &(p, c) in &po.moves {
                        if c != color {
                            game.play(Move::Pass, color).unwrap();
                        }
                        let b = game.board();
                        let near = [b.last_move(), b.last_move2()].iter().any(|&m| {
                            m != NO_POINT
                                && (b.neighbors(m).contains(&p) || b.diagonals(m).contains(&p))
                        });
                        local += usize::from(near);
                        total += 1;
                        game.play(Move::Play(p), c).unwrap();
                        color = c.opponent();
                    }
                    for p in po.board.points() {
                        assert_eq!(game.board().cell(p), po.board.cell(p));
                    }
                }
            }
        }
        // Most moves answer the last two moves once the gammas draw among those points.
        assert!(local * 2 > total, "{local} local moves of {total}");
    }
}
