//! What a search is told: tuning constants ([`Params`]), the set-up of threads, seed,
//! policy and memory ([`SearchConfig`]), when to stop ([`Limits`]) and what kind of move it
//! serves ([`Mode`]).

use std::time::{Duration, Instant};

use crate::playout::{FightRates, Policy};

use super::priors::PriorWeights;

/// Visits a leaf needs before it gets children on boards up to 9x9. Expanding costs the
/// priors of every legal move: on small boards that is cheap and the tree pays off early;
/// on bigger ones a leaf must prove itself first (values from self-play on each size).
const EXPAND_THRESHOLD_SMALL: u32 = 2;
/// The same up to 13x13.
const EXPAND_THRESHOLD_MEDIUM: u32 = 4;
/// The same on bigger boards.
const EXPAND_THRESHOLD_LARGE: u32 = 8;

/// The default resign threshold: a win rate below 10% for a few searches in a row is a
/// game a program of this strength does not turn around.
pub const DEFAULT_RESIGN_THRESHOLD: f32 = 0.1;

/// Tuning constants of the search (defaults chosen by matches against GNU Go).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// UCT exploration constant (0: none, the priors and RAVE explore).
    pub explore: f32,
    /// UCT exploration constant at the root only: AMAF values can bury a move that only
    /// works when played first (a liberty race's outside liberty); the root is where such
    /// a blind spot costs a game.
    pub root_explore: f32,
    /// RAVE equivalence: the number of visits at which a move's own value and its AMAF value
    /// weigh the same (0 turns RAVE off).
    pub rave_equiv: f32,
    /// Weigh AMAF updates by how soon the move came after the node (2 at once, down to
    /// `2·rave_floor` at the end).
    pub rave_weighting: bool,
    /// The weight of an AMAF update at the end of a simulation, as a share of one at its
    /// start (0..1). A quarter, as in Pachi: late moves still say something about a point
    /// (9x9 self-play: 25 of 40 games against 0, docs/strength.md).
    pub rave_floor: f32,
    /// Visits a leaf needs before it gets children (0: by board size).
    pub expand_threshold: u32,
    /// Weight of the score margin in a simulation's value (0: win or loss only).
    pub score_weight: f32,
    /// Playouts run before the search to judge dead stones for two-pass endings.
    pub prime_playouts: u32,
    /// Allow stopping early once the best move cannot change within the budget (when the
    /// limits allow it, see [`Limits::early_stop`]).
    pub early_stop: bool,
    /// Consecutive hopeless moves before resigning.
    pub resign_streak: u32,
    /// Visits a simulation in flight counts as lost at each node of its path (spreads the
    /// threads; 1 is plain counting).
    pub virtual_loss: u32,
    /// Last-good-reply with forgetting in heavy playouts: 0 off, 1 replies to the last move,
    /// 2 also to the last two moves (see [`crate::playout::replies`]); `None`: by board
    /// size ([`Params::lgrf_for`]).
    pub lgrf: Option<u8>,
    /// Where heavy playouts try the stored reply: 0 before the atari tactics, 1 between the
    /// tactics and the 3x3 shapes.
    pub lgrf_order: u8,
    /// Learned 3x3 pattern gammas in the heavy playouts' shape step
    /// ([`crate::playout::gammas`]): 0 off (hand-written shapes), 1 on, 2 on boards up
    /// to 9x9 only, 3 on boards of 13x13 and up (the default: on 19x19 they judge finished
    /// games' positions better, docs/strength.md).
    pub gammas: u8,
    /// Drawing weight, in units of gamma, of "no shape move" beside the candidates' gammas
    /// when `gammas` is on (the rest goes on to the random move). Small: a shape is nearly
    /// always played when there is one, as in Pachi's playouts.
    pub gamma_rest: f32,
    /// Chance (0..1) that a heavy playout fights the last ko: connects or retakes it in
    /// the two moves after its ban ends ([`crate::playout::Playout::configure_heavy`]).
    pub ko_fight: f32,
    /// Chance (0..1) that a heavy playout's random move refuses bad self-ataris.
    pub self_atari_check: f32,
    /// Chance (0..1) that a heavy playout captures a chain in atari anywhere on the board
    /// when the local steps found nothing.
    pub capture_anywhere: f32,
    /// Chance (0..1) that a heavy playout, after a move next to an own chain of three or
    /// four liberties, ataris an opponent chain of two liberties touching it (Pachi's
    /// `nlibrate` is 25%).
    pub nlib_defense: f32,
    /// Chances (0..1) of the heavy playouts' local fight steps, after Pachi's playouts
    /// ([`crate::playout::fights`]): `fight_two_lib`, `fight_eye_fix`,
    /// `fight_self_atari`, `fight_eye_fill`, `fight_nakade`, `fight_refused_attack`.
    pub fights: FightRates,
    /// Ladders in the heavy playouts read with the atari from both sides
    /// ([`crate::tactics::read_ladder_both`]): 0 off, 1 on, 2 on boards of 13x13 and up
    /// only, as the priors' two-sided reader. Off by default: it costs 7 to 13% more
    /// instructions a 19x19 playout, and won 16 of 35 games of 19x19 self-play at equal time
    /// (docs/strength.md).
    pub ladder_both: u8,
    /// Progressive widening with the learned policy: below the root, a node's children
    /// are ordered by the policy's probability and only the first few take part in
    /// selection, one more each time the node's visits grow by `widen_rate` past
    /// `widen_visits` (0: every child from the start).
    pub widen_visits: f32,
    /// Growth factor of the visits between two unprunings (see `widen_visits`).
    pub widen_rate: f32,
    /// Progressive bias by the learned policy below the root: a child's selection score
    /// gains `policy_bias · p · N^policy_bias_power / (n + 1)`, with `p` its probability,
    /// `N` the parent's visits and `n` its own. Unlike the prior's equivalent visits, AMAF
    /// values cannot drown it (0: off).
    pub policy_bias: f32,
    /// The same at the root, where a move whose AMAF value misleads (it only works when
    /// played first) costs the game.
    pub root_policy_bias: f32,
    /// The power of the parent's visits in the policy bias (0: classic progressive bias,
    /// ½: PUCT).
    pub policy_bias_power: f32,
    /// With a fixed time per move (`--time`), the share of it after which the search stops
    /// if the best move is clear; until the full time it goes on while it is not, and it
    /// stops early once the best move cannot change (1: always the full time). Pachi spends
    /// its time per move the same way; against it on 9x9 this won more games in less time
    /// than thinking the full time on every move (docs/strength.md).
    pub move_time_target: f32,
    /// The best move is not clear while the most visited root move has fewer than this many
    /// times the visits of the second (0: off; 2.5 as in Pachi).
    pub best2_ratio: f32,
    /// The best move is not clear while its win rate is below this (0: off): a player who
    /// is behind has the most to gain from looking longer for the move that turns the game
    /// (Huang, Coulom and Lin's "behind" rule for time management).
    pub behind_time: f32,
    /// With a fixed time per move (`--time`), how far each move's time follows the game's
    /// phase ([`crate::time::fixed_time_factor`]): 0 the same time for every move, 1 more
    /// in the middle game and less in the opening and endgame, about the same on average;
    /// `None`: by board size ([`Params::phase_time_for`]).
    pub phase_time: Option<f32>,
    /// Criticality at the root ([`super::criticality`], Pachi's `crit_rave`): a root move
    /// with at least `crit_min_visits` simulations this search gets `crit_rave` times its
    /// criticality, in units of its AMAF visits, added to its AMAF value as wins (0: off).
    pub crit_rave: f32,
    /// Simulations through a root move before its criticality counts (2000, as Pachi).
    pub crit_min_visits: u32,
    /// Even games: the engine's own win rate above which its moves are searched with a point
    /// more komi against itself each move, to keep a won game won by a margin
    /// ([`super::dynkomi::DynamicKomi::with_margin`]; Pachi's green zone is 0.85; 0: off).
    pub margin_komi: f32,
    /// On boards of 13x13 and up, early in the game and with no fight on the board, the
    /// search's move goes to the 3-3, 3-4 or 4-4 point of an empty corner while there is one
    /// ([`super::opening::empty_corner_moves`]): the search alone wanders to the sides at
    /// first, its AMAF values drowning the learned policy there.
    pub opening_corners: bool,
    /// Before leaving one of its groups to a kill, the engine reads it out
    /// ([`crate::life`]): when the search's move lets the opponent kill a chain of at least
    /// five stones and a local move saves it, that move is played instead
    /// (`Searcher::decide`). 0 off, 1 on, 2 on boards of 13x13 and up only.
    pub group_defence: u8,
    /// Prior weights overriding the per-size defaults, by name.
    pub prior_overrides: Vec<(String, u32)>,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            explore: 0.0,
            root_explore: 0.0,
            rave_equiv: 3000.0,
            rave_weighting: true,
            rave_floor: 0.25,
            expand_threshold: 0,
            score_weight: 0.0,
            prime_playouts: 128,
            early_stop: true,
            resign_streak: 3,
            virtual_loss: 1,
            lgrf: None,
            lgrf_order: 0,
            gammas: 3,
            gamma_rest: 0.05,
            ko_fight: 0.0,
            self_atari_check: 1.0,
            capture_anywhere: 0.0,
            nlib_defense: 0.0,
            fights: FightRates::PACHI,
            ladder_both: 0,
            widen_visits: 0.0,
            widen_rate: 1.4,
            policy_bias: 0.0,
            root_policy_bias: 0.0,
            policy_bias_power: 0.0,
            move_time_target: 0.75,
            best2_ratio: 2.5,
            behind_time: 0.0,
            phase_time: None,
            crit_rave: 0.0,
            crit_min_visits: 2000,
            margin_komi: 0.85,
            opening_corners: true,
            group_defence: 2,
            prior_overrides: Vec::new(),
        }
    }
}

impl Params {
    /// Every name [`Params::set`] accepts besides `prior.RULE`, for help texts and errors.
    pub const NAMES: &'static [&'static str] = &[
        "explore",
        "root_explore",
        "rave_equiv",
        "rave_weighting",
        "rave_floor",
        "expand_threshold",
        "score_weight",
        "prime_playouts",
        "early_stop",
        "resign_streak",
        "virtual_loss",
        "lgrf",
        "lgrf_order",
        "gammas",
        "gamma_rest",
        "ko_fight",
        "self_atari_check",
        "capture_anywhere",
        "nlib_defense",
        "fight_two_lib",
        "fight_eye_fix",
        "fight_self_atari",
        "fight_eye_fill",
        "fight_nakade",
        "fight_refused_attack",
        "ladder_both",
        "widen_visits",
        "policy_bias",
        "root_policy_bias",
        "policy_bias_power",
        "widen_rate",
        "move_time_target",
        "best2_ratio",
        "behind_time",
        "phase_time",
        "crit_rave",
        "crit_min_visits",
        "margin_komi",
        "opening_corners",
        "group_defence",
    ];

    /// Sets one parameter from `name=value` text (for tuning from the command line).
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("search parameter '{assignment}' is not NAME=VALUE"))?;
        let number: f64 = value
            .parse()
            .map_err(|_| format!("search parameter {name}: '{value}' is not a number"))?;
        if !number.is_finite() || number < 0.0 {
            return Err(format!(
                "search parameter {name} must be a non-negative number"
            ));
        }
        match name {
            "explore" => self.explore = number as f32,
            "root_explore" => self.root_explore = number as f32,
            "rave_equiv" => self.rave_equiv = number as f32,
            "rave_weighting" => self.rave_weighting = number != 0.0,
            "rave_floor" => self.rave_floor = (number as f32).min(1.0),
            "expand_threshold" => self.expand_threshold = number as u32,
            "score_weight" => self.score_weight = (number as f32).min(1.0),
            "prime_playouts" => self.prime_playouts = number as u32,
            "early_stop" => self.early_stop = number != 0.0,
            "resign_streak" => self.resign_streak = number as u32,
            "virtual_loss" => self.virtual_loss = (number as u32).clamp(1, 100),
            "lgrf" => self.lgrf = Some((number as u8).min(2)),
            "lgrf_order" => self.lgrf_order = (number as u8).min(1),
            "gammas" => self.gammas = (number as u8).min(3),
            "gamma_rest" => self.gamma_rest = (number as f32).min(64.0),
            "ko_fight" => self.ko_fight = (number as f32).min(1.0),
            "self_atari_check" => self.self_atari_check = (number as f32).min(1.0),
            "capture_anywhere" => self.capture_anywhere = (number as f32).min(1.0),
            "nlib_defense" => self.nlib_defense = (number as f32).min(1.0),
            "fight_two_lib" => self.fights.two_liberty = (number as f32).min(1.0),
            "fight_eye_fix" => self.fights.eye_fix = (number as f32).min(1.0),
            "fight_self_atari" => self.fights.self_atari_redirect = (number as f32).min(1.0),
            "fight_eye_fill" => self.fights.eye_fill_redirect = (number as f32).min(1.0),
            "fight_nakade" => self.fights.nakade = (number as f32).min(1.0),
            "fight_refused_attack" => self.fights.refused_attack = (number as f32).min(1.0),
            "ladder_both" => self.ladder_both = (number as u8).min(2),
            "widen_visits" => self.widen_visits = number as f32,
            "policy_bias" => self.policy_bias = number as f32,
            "root_policy_bias" => self.root_policy_bias = number as f32,
            "policy_bias_power" => self.policy_bias_power = (number as f32).min(1.0),
            "widen_rate" => self.widen_rate = (number as f32).max(1.01),
            "move_time_target" => self.move_time_target = (number as f32).clamp(0.1, 1.0),
            "best2_ratio" => self.best2_ratio = number as f32,
            "behind_time" => self.behind_time = (number as f32).min(1.0),
            "phase_time" => self.phase_time = Some((number as f32).min(1.0)),
            "crit_rave" => self.crit_rave = (number as f32).min(10.0),
            "crit_min_visits" => self.crit_min_visits = number as u32,
            "margin_komi" => self.margin_komi = (number as f32).min(1.0),
            "opening_corners" => self.opening_corners = number != 0.0,
            "group_defence" => self.group_defence = (number as u8).min(2),
            _ => match name.strip_prefix("prior.") {
                Some(rule) if PriorWeights::for_size(9).set(rule, 0).is_ok() => {
                    self.prior_overrides.push((rule.to_string(), number as u32));
                }
                _ => {
                    return Err(format!(
                        "unknown search parameter '{name}' (known: {}, prior.RULE)",
                        Self::NAMES.join(", ")
                    ));
                }
            },
        }
        Ok(())
    }

    /// The prior weights for a board of `size`, with the overrides applied.
    pub(super) fn priors_for(&self, size: usize) -> PriorWeights {
        let mut w = PriorWeights::for_size(size);
        for (name, value) in &self.prior_overrides {
            let _ = w.set(name, *value);
        }
        w
    }

    /// How many children, best by the policy first, a node of `visits` visits selects
    /// among under progressive widening ([`Params::widen_visits`]); `usize::MAX` when
    /// widening is off.
    pub(super) fn widening(&self, visits: u32) -> usize {
        if self.widen_visits <= 0.0 {
            return usize::MAX;
        }
        let grown = (1.0 + visits as f32 / self.widen_visits).ln() / self.widen_rate.ln();
        1 + grown as usize
    }

    /// Whether heavy playouts on a board of `size` read ladders from both sides.
    pub fn ladder_both_for(&self, size: usize) -> bool {
        match self.ladder_both {
            0 => false,
            1 => true,
            _ => size >= 13,
        }
    }

    /// Whether the engine reads its big groups out before leaving them, on a board of `size`.
    pub fn group_defence_for(&self, size: usize) -> bool {
        match self.group_defence {
            0 => false,
            1 => true,
            _ => size >= 13,
        }
    }

    /// Whether heavy playouts on a board of `size` use the learned pattern gammas.
    pub fn gammas_for(&self, size: usize) -> bool {
        match self.gammas {
            0 => false,
            1 => true,
            2 => size <= 9,
            _ => size >= 13,
        }
    }

    /// The last-good-reply level of heavy playouts on a board of `size`: unless set, 1 up to
    /// 9x9, where replies to the last move won against Pachi at equal time
    /// (docs/strength.md), and 0 on bigger boards (19x19 self-play: 1 of 8 games with it).
    pub fn lgrf_for(&self, size: usize) -> u8 {
        self.lgrf.unwrap_or(if size <= 9 { 1 } else { 0 })
    }

    /// How far a fixed time per move follows the game's phase on a board of `size`: unless
    /// set, not at all up to 9x9, where the flat time was measured against Pachi
    /// (docs/strength.md), and fully on bigger boards, whose openings and endgames are long
    /// and whose games are decided in the middle.
    pub fn phase_time_for(&self, size: usize) -> f32 {
        self.phase_time.unwrap_or(if size <= 9 { 0.0 } else { 1.0 })
    }

    /// Visits a leaf needs before it gets children on a board of `size`.
    pub(super) fn expand_threshold_for(&self, size: usize) -> u32 {
        if self.expand_threshold > 0 {
            self.expand_threshold
        } else if size <= 9 {
            EXPAND_THRESHOLD_SMALL
        } else if size <= 13 {
            EXPAND_THRESHOLD_MEDIUM
        } else {
            EXPAND_THRESHOLD_LARGE
        }
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Worker threads.
    pub threads: usize,
    /// Seed for reproducible runs; `None` seeds from the operating system.
    pub seed: Option<u64>,
    /// Resign when the best move wins less often than this (for a few moves in a row).
    pub resign_threshold: f32,
    /// Playout policy.
    pub policy: Policy,
    /// Memory for the tree, in bytes.
    pub max_memory: usize,
    /// Tuning constants.
    pub params: Params,
}

/// Default tree memory: 768 MiB, room for 16 million nodes of 48 bytes, what a player's
/// machine can spare beside a GUI. A search that fills it drops its least visited subtrees
/// and goes on deepening ([`super::tree::Tree::reclaim`]), so long analyses stay within it;
/// only the memory the tree touches is actually used.
pub const DEFAULT_MAX_MEMORY: usize = 768 << 20;

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: None,
            resign_threshold: DEFAULT_RESIGN_THRESHOLD,
            policy: Policy::Light,
            max_memory: DEFAULT_MAX_MEMORY,
            params: Params::default(),
        }
    }
}

/// When to stop thinking.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after this many playouts in all.
    pub playouts: Option<u64>,
    /// Aim to stop after this much wall-clock time.
    pub time: Option<Duration>,
    /// Never think longer than this (when the best move is still unclear at `time`, the
    /// search may go on up to here). Defaults to `time`.
    pub max_time: Option<Duration>,
    /// Stop as soon as the best move cannot change any more: worth it when the time saved
    /// carries over to later moves (a game clock) or a move's time is a limit rather than a
    /// budget (`--time` with a target share), not with a fixed number of playouts, where the
    /// extra visits go to the subtree kept for the next move.
    pub early_stop: bool,
}

impl Limits {
    /// The moment a search started at `start` must stop by (`max_time`, or `time` without
    /// one); `None` without a time limit.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.max_time.or(self.time).map(|t| start + t)
    }
}

/// What kind of move generation a search serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// An ordinary move.
    #[default]
    Normal,
    /// `kgs-genmove_cleanup`: dead stones count as alive, so they get captured before passing.
    Cleanup,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_from_text() {
        let mut p = Params::default();
        p.set("explore=0.3").unwrap();
        assert_eq!(p.explore, 0.3);
        p.set("prior.capture=50").unwrap();
        assert_eq!(p.priors_for(9).capture, 50);
        assert_eq!(p.priors_for(19).capture, 50);
        assert!(p.set("explore").is_err());
        assert!(p.set("explore=-1").is_err());
        assert!(p.set("explore=x").is_err());
        assert!(p.set("frobnicate=1").is_err());
        assert!(p.set("prior.frobnicate=1").is_err());
        assert_eq!(p.expand_threshold_for(9), 2);
        p.set("expand_threshold=5").unwrap();
        assert_eq!(p.expand_threshold_for(19), 5);
        assert_eq!(p.widening(1_000_000), usize::MAX);
    }

    #[test]
    fn two_sided_ladders_in_the_playouts_are_off_unless_set() {
        let mut p = Params::default();
        assert!(!p.ladder_both_for(9) && !p.ladder_both_for(19));
        p.set("ladder_both=2").unwrap();
        assert!(!p.ladder_both_for(9) && p.ladder_both_for(13) && p.ladder_both_for(19));
        p.set("ladder_both=1").unwrap();
        assert!(p.ladder_both_for(9));
    }

    #[test]
    fn learned_playout_gammas_are_on_from_13x13_unless_set() {
        let mut p = Params::default();
        assert!(!p.gammas_for(9) && p.gammas_for(13) && p.gammas_for(19));
        p.set("gammas=2").unwrap();
        assert!(p.gammas_for(9) && !p.gammas_for(19));
        p.set("gammas=0").unwrap();
        assert!(!p.gammas_for(9) && !p.gammas_for(19));
        p.set("gammas=7").unwrap();
        assert_eq!(p.gammas, 3);
    }

    #[test]
    fn last_good_reply_is_on_up_to_9x9_unless_set() {
        let mut p = Params::default();
        assert_eq!((p.lgrf_for(7), p.lgrf_for(9), p.lgrf_for(13)), (1, 1, 0));
        assert_eq!(p.lgrf_for(19), 0);
        p.set("lgrf=0").unwrap();
        assert_eq!(p.lgrf_for(9), 0);
        p.set("lgrf=2").unwrap();
        assert_eq!(p.lgrf_for(19), 2);
        p.set("lgrf=7").unwrap();
        assert_eq!(p.lgrf_for(9), 2);
    }

    #[test]
    fn widening_unprunes_a_child_each_time_the_visits_grow_by_the_rate() {
        let mut p = Params::default();
        p.set("widen_visits=40").unwrap();
        p.set("widen_rate=2").unwrap();
        // 1 + log2(1 + n/40) children: one at first, two from 40 visits, three from 120.
        assert_eq!(p.widening(0), 1);
        assert_eq!(p.widening(39), 1);
        assert_eq!(p.widening(40), 2);
        assert_eq!(p.widening(119), 2);
        assert_eq!(p.widening(120), 3);
        assert_eq!(p.widening(40 * 1023), 11);
    }

    #[test]
    fn every_listed_name_is_accepted_and_documented() {
        let docs = include_str!("../../docs/search.md");
        for name in Params::NAMES {
            let mut p = Params::default();
            assert!(p.set(&format!("{name}=1")).is_ok(), "{name} refused");
            assert!(
                docs.contains(&format!("| `{name}` |")),
                "{name} not in docs/search.md"
            );
        }
        // An unknown name is refused with the list, and the list is exactly what set accepts.
        let err = Params::default().set("no_such_knob=1").unwrap_err();
        assert!(
            err.contains("fight_eye_fill") && err.contains("prior.RULE"),
            "{err}"
        );
        let source = include_str!("params.rs");
        let arms = source
            .lines()
            .filter(|l| l.trim_start().starts_with('"') && l.contains("\" => self."))
            .count();
        assert_eq!(arms, Params::NAMES.len());
    }
}
