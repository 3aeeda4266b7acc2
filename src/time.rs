//! Clocks: the time system of a game (GTP `time_settings`, `kgs-time_settings`), what is left
//! on each player's clock (`time_left`, or our own bookkeeping when the controller never sends
//! it), and how much of it one move may spend ([`Clock::budget`]).
//!
//! The budget keeps a safety margin for the time the controller counts but the search does not
//! see (process scheduling, pipes, the GUI): `lag` seconds on every move's deadline, 5% of what
//! is left, and in main time [`MOVE_RESERVE`] for each move still expected, so that a long game
//! can be finished. In main time a move gets its share of what is left over the moves the game
//! is still expected to last, plus part of the overtime a move can always use; in overtime it
//! gets its share of the period. "Now" comes from a [`TimeSource`], so tests can drive a simulated clock without
//! sleeping.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::Color;

/// A time system, as set by `time_settings` or `kgs-time_settings`. Times in seconds.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub enum TimeSystem {
    /// No time limit.
    #[default]
    None,
    /// Main time only: running out loses.
    Absolute {
        /// Main time.
        main: f64,
    },
    /// Canadian overtime: after main time, `stones` moves in every `period` seconds.
    Canadian {
        /// Main time.
        main: f64,
        /// Length of an overtime period.
        period: f64,
        /// Moves to play within each period.
        stones: u32,
    },
    /// Japanese byo-yomi: after main time, `periods` periods of `period` seconds; a move within
    /// a period costs nothing, using a period up loses it (the seeds' 讀秒 is 60 s x 5).
    Byoyomi {
        /// Main time.
        main: f64,
        /// Length of one period.
        period: f64,
        /// Number of periods.
        periods: u32,
    },
}

/// One player's clock as last reported or computed.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct ClockState {
    /// Seconds left in the current phase (main time, or the current overtime period).
    pub time_left: f64,
    /// In overtime: stones left to play in this period (Canadian) or periods left (byo-yomi);
    /// 0 while main time lasts.
    pub stones_or_periods: u32,
    /// Whether `time_left` was ever set (by settings or `time_left`).
    pub known: bool,
    /// Whether this player has run out of time (our bookkeeping says the game is lost).
    pub expired: bool,
}

/// How long one move may think.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MoveBudget {
    /// Aim to stop here.
    pub target: Duration,
    /// Never go beyond this.
    pub max: Duration,
}

/// The time system and both players' clocks.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// The time system in force.
    pub system: TimeSystem,
    /// Black's and White's clocks.
    pub players: [ClockState; 2],
}

/// Seconds per move the controller may count beyond what the engine measures (pipes,
/// scheduling, the GUI), reserved from every budget.
pub const DEFAULT_LAG: f64 = 0.3;

/// The shortest budget ever given: answering faster helps nobody.
const MIN_MOVE: f64 = 0.02;

/// Seconds kept in main time for each move the game is still expected to last: what a move
/// costs at the least (the shortest search plus the usual controller overhead), so a long game
/// can still be finished quickly.
pub const MOVE_RESERVE: f64 = 0.05;

impl Clock {
    /// Sets the time system and resets both clocks to its start.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        let state = |time_left: f64, stones_or_periods: u32| ClockState {
            time_left,
            stones_or_periods,
            known: true,
            expired: false,
        };
        let start = match system {
            TimeSystem::None => ClockState::default(),
            TimeSystem::Absolute { main } => state(main, 0),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => {
                if main > 0.0 {
                    state(main, 0)
                } else {
                    state(period, stones)
                }
            }
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => {
                if main > 0.0 {
                    state(main, 0)
                } else {
                    state(period, periods)
                }
            }
        };
        self.players = [start; 2];
    }

    /// Records a GTP `time_left` report for `c`.
    pub fn set_time_left(&mut self, c: Color, seconds: f64, stones_or_periods: u32) {
        self.players[c.index()] = ClockState {
            time_left: seconds,
            stones_or_periods,
            known: true,
            expired: false,
        };
    }

    /// Charges `used` seconds for one move of `c`, following the time system's rules (main
    /// time first, then overtime). Our own bookkeeping when the controller sends no
    /// `time_left`.
    pub fn charge(&mut self, c: Color, used: f64) {
        let system = self.system;
        let st = &mut self.players[c.index()];
        let mut used = used.max(0.0);
        match system {
            TimeSystem::None => {}
            TimeSystem::Absolute { .. } => {
                st.time_left -= used;
                if st.time_left < 0.0 {
                    st.time_left = 0.0;
                    st.expired = true;
                }
            }
            TimeSystem::Canadian { period, stones, .. } => {
                if st.stones_or_periods == 0 {
                    if used <= st.time_left {
                        st.time_left -= used;
                        return;
                    }
                    used -= st.time_left;
                    st.time_left = period;
                    st.stones_or_periods = stones.max(1);
                }
                st.time_left -= used;
                if st.time_left < 0.0 {
                    st.time_left = 0.0;
                    st.expired = true;
                    return;
                }
                st.stones_or_periods -= 1;
                if st.stones_or_periods == 0 {
                    st.time_left = period;
                    st.stones_or_periods = stones.max(1);
                }
            }
            TimeSystem::Byoyomi {
                period, periods, ..
            } => {
                if st.stones_or_periods == 0 {
                    if used <= st.time_left {
                        st.time_left -= used;
                        return;
                    }
                    used -= st.time_left;
                    st.stones_or_periods = periods.max(1);
                }
                // Every full period used up is lost; the move ends within the next one.
                let lost = if period > 0.0 {
                    (used / period).floor() as u32
                } else {
                    u32::MAX
                };
                if lost >= st.stones_or_periods {
                    st.stones_or_periods = 0;
                    st.time_left = 0.0;
                    st.expired = true;
                    return;
                }
                st.stones_or_periods -= lost;
                st.time_left = period;
            }
        }
    }

    /// How long `c`'s next move may think on a board of `size` after `move_number` moves,
    /// keeping `lag` seconds per move for what the controller counts beyond our measurement.
    /// `None` when there is no time limit.
    pub fn budget(
        &self,
        c: Color,
        size: usize,
        move_number: usize,
        lag: f64,
    ) -> Option<MoveBudget> {
        let st = self.players[c.index()];
        let moves_left = expected_moves_left(size, move_number);
        let secs = |target: f64, max: f64| {
            let max = max.max(MIN_MOVE);
            let target = target.clamp(MIN_MOVE, max);
            MoveBudget {
                target: Duration::from_secs_f64(target),
                max: Duration::from_secs_f64(max),
            }
        };
        // What main time can give this move, leaving a reserve for the moves to come, plus
        // `extra` seconds the move may take beyond main time without harm.
        let main_phase = |left: f64, extra: f64| {
            let usable = (left * 0.95 - lag - MOVE_RESERVE * moves_left).max(0.0);
            // The target follows the phase of the game; the hard limit stays three plain
            // shares, so that moves that all run to their limit still fit in the time left.
            let plain = usable / moves_left + 0.5 * extra;
            let target = usable * phase_share(size, move_number) + 0.5 * extra;
            secs(target, (3.0 * plain).max(target).min(usable * 0.25 + extra))
        };
        match self.system {
            TimeSystem::None => None,
            TimeSystem::Absolute { main } => {
                if main <= 0.0 && st.time_left <= 0.0 && !st.expired {
                    // "0 seconds absolute" cannot be meant literally: no limit.
                    return None;
                }
                Some(main_phase(st.time_left, 0.0))
            }
            TimeSystem::Canadian { period, stones, .. } => {
                let stones = stones.max(1) as f64;
                if st.stones_or_periods == 0 {
                    // Running out of main time starts the first period, and this move counts
                    // as its first stone: it may take part of one stone's share of it.
                    let stone_share = ((period * 0.95 - lag * stones) / stones).max(0.0);
                    Some(main_phase(st.time_left, 0.5 * stone_share))
                } else {
                    // Overtime: this period's time over the stones still to play in it.
                    let left = st.stones_or_periods as f64;
                    let per = ((st.time_left * 0.95 - lag * left) / left).max(0.0);
                    Some(secs(0.9 * per, per))
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                // A move that ends within a period costs no period.
                let free = (period * 0.95 - lag).max(0.0);
                if st.stones_or_periods == 0 {
                    Some(main_phase(st.time_left, free))
                } else {
                    Some(secs(0.8 * free, free))
                }
            }
        }
    }
}

/// How many more moves `c` can expect to play in a game on a board of `size` after
/// `move_number` moves of both players: games last about 0.75 x size² + 10 moves, and the
/// estimate never falls below a tenth of the board (games often go on longer than expected).
pub fn expected_moves_left(size: usize, move_number: usize) -> f64 {
    let area = (size * size) as f64;
    let total = 0.75 * area + 10.0;
    let left = (total - move_number as f64).max(0.2 * area + 10.0);
    left / 2.0
}

/// How much a move is worth thinking about at `move_number` on a board of `size`, relative to
/// the others: the opening follows known shapes and the endgame is small, while the middle
/// game decides most games. 0.6 at the first move, rising to 1.5 at a third of the expected
/// game, falling back to 0.5 at its end and after.
pub fn phase_weight(size: usize, move_number: usize) -> f64 {
    let total = 0.75 * (size * size) as f64 + 10.0;
    let x = move_number as f64 / total;
    const PEAK: f64 = 1.0 / 3.0;
    if x < PEAK {
        0.6 + 0.9 * x / PEAK
    } else {
        (1.5 - (x - PEAK) / (1.0 - PEAK)).max(0.5)
    }
}

/// The mean [`phase_weight`] of the moves of a game that ends, as most end by resignation
/// or agreement, at about four fifths of its expected length.
const MEAN_PHASE_WEIGHT: f64 = 1.1;

/// What a fixed time per move (`--time`) is multiplied by at `move_number` on a board of
/// `size`: [`phase_weight`] over its mean in a typical game, so the game as a whole takes
/// about the same time; `strength` (0..1) blends it with the flat 1.
pub fn fixed_time_factor(size: usize, move_number: usize, strength: f64) -> f64 {
    let phased = phase_weight(size, move_number) / MEAN_PHASE_WEIGHT;
    1.0 + strength.clamp(0.0, 1.0) * (phased - 1.0)
}

/// The share of the usable main time that the move at `move_number` gets: its
/// [`phase_weight`] over the weights of all of this player's moves still expected
/// ([`expected_moves_left`], every other move from this one), so that the shares of the
/// moves to come add up to the time left.
pub fn phase_share(size: usize, move_number: usize) -> f64 {
    let ours = expected_moves_left(size, move_number).ceil() as usize;
    let sum: f64 = (0..ours.max(1))
        .map(|k| phase_weight(size, move_number + 2 * k))
        .sum();
    phase_weight(size, move_number) / sum
}

/// A source of "now": the system clock, or a simulated one in tests.
pub trait TimeSource: Send + Sync + fmt::Debug {
    /// Seconds since a fixed but arbitrary start.
    fn now(&self) -> f64;
}

/// The real monotonic clock.
#[derive(Debug)]
pub struct SystemTime {
    start: Instant,
}

impl Default for SystemTime {
    fn default() -> SystemTime {
        SystemTime {
            start: Instant::now(),
        }
    }
}

impl TimeSource for SystemTime {
    fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// A simulated clock: time moves only when told to, optionally by a fixed step each time it
/// is read.
#[derive(Debug, Default)]
pub struct FakeTime {
    nanos: AtomicU64,
    step_nanos: AtomicU64,
}

impl FakeTime {
    /// A clock at 0 that advances `step` seconds every time it is read.
    pub fn with_step(step: f64) -> FakeTime {
        let t = FakeTime::default();
        t.step_nanos
            .store((step.max(0.0) * 1e9) as u64, Ordering::Relaxed);
        t
    }

    /// Moves the clock forward.
    pub fn advance(&self, seconds: f64) {
        self.nanos
            .fetch_add((seconds.max(0.0) * 1e9) as u64, Ordering::Relaxed);
    }
}

impl TimeSource for FakeTime {
    fn now(&self) -> f64 {
        let step = self.step_nanos.load(Ordering::Relaxed);
        self.nanos.fetch_add(step, Ordering::Relaxed) as f64 / 1e9
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canadian_bookkeeping_follows_the_rules() {
        let mut clock = Clock::default();
        clock.set_system(TimeSystem::Canadian {
            main: 10.0,
            period: 30.0,
            stones: 3,
        });
        let b = Color::Black;
        clock.charge(b, 4.0);
        assert_eq!(clock.players[0].time_left, 6.0);
        // 8 s: 6 from main time, 2 from the first period (3 stones in 30 s).
        clock.charge(b, 8.0);
        assert_eq!(clock.players[0].stones_or_periods, 2);
        assert_eq!(clock.players[0].time_left, 28.0);
        clock.charge(b, 10.0);
        clock.charge(b, 10.0);
        // Three stones played in the period: a fresh one.
        assert_eq!(clock.players[0].stones_or_periods, 3);
        assert_eq!(clock.players[0].time_left, 30.0);
        assert!(!clock.players[0].expired);
        clock.charge(b, 31.0);
        assert!(clock.players[0].expired);
    }

    #[test]
    fn byoyomi_bookkeeping_follows_the_rules() {
        let mut clock = Clock::default();
        clock.set_system(TimeSystem::Byoyomi {
            main: 5.0,
            period: 60.0,
            periods: 5,
        });
        let w = Color::White;
        // 5 s of main time, then 59 s inside the first period: no period lost.
        clock.charge(w, 64.0);
        assert_eq!(clock.players[1].stones_or_periods, 5);
        assert_eq!(clock.players[1].time_left, 60.0);
        // 61 s: one full period used up.
        clock.charge(w, 61.0);
        assert_eq!(clock.players[1].stones_or_periods, 4);
        // 3 full periods more.
        clock.charge(w, 200.0);
        assert_eq!(clock.players[1].stones_or_periods, 1);
        assert!(!clock.players[1].expired);
        clock.charge(w, 60.0);
        assert!(clock.players[1].expired);
    }

    #[test]
    fn no_budget_without_a_time_limit() {
        let clock = Clock::default();
        assert_eq!(clock.budget(Color::Black, 19, 0, DEFAULT_LAG), None);
    }

    #[test]
    fn budgets_fit_what_is_left() {
        let mut clock = Clock::default();
        clock.set_system(TimeSystem::Absolute { main: 300.0 });
        let b = clock.budget(Color::Black, 9, 0, 0.3).unwrap();
        assert!(b.target <= b.max);
        assert!(b.max.as_secs_f64() < 300.0 / 4.0);
        assert!(b.target.as_secs_f64() > 1.0, "{b:?}");
        clock.set_system(TimeSystem::Byoyomi {
            main: 0.0,
            period: 60.0,
            periods: 5,
        });
        let b = clock.budget(Color::Black, 19, 100, 0.3).unwrap();
        assert!(b.max.as_secs_f64() < 60.0 - 0.3);
        assert!(b.max.as_secs_f64() > 50.0);
    }

    #[test]
    fn the_middle_game_gets_more_time_than_the_opening_and_the_endgame() {
        // 19x19, 30 minutes absolute, both clocks charged as if every move took its
        // target: budgets by move number.
        let mut clock = Clock::default();
        clock.set_system(TimeSystem::Absolute { main: 1800.0 });
        let mut target_at = Vec::new();
        for m in 0..=300 {
            let c = if m % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let target = clock.budget(c, 19, m, DEFAULT_LAG).unwrap().target;
            target_at.push(target.as_secs_f64());
            clock.charge(c, target.as_secs_f64());
        }
        let mean = |r: std::ops::Range<usize>| {
            let n = r.len() as f64;
            r.map(|m| target_at[m]).sum::<f64>() / n
        };
        let (opening, middle, endgame) = (mean(0..20), mean(80..120), mean(240..280));
        assert!(middle > 1.3 * opening, "{opening} {middle}");
        assert!(middle > 1.3 * endgame, "{middle} {endgame}");
        // And the clock lasts: at move 300 there is still time left for both.
        assert!(
            clock
                .players
                .iter()
                .all(|p| p.time_left > 10.0 && !p.expired)
        );
        // The weights of a whole expected game share the usable time out exactly.
        let total: f64 = (0..expected_moves_left(19, 0).ceil() as usize)
            .map(|k| phase_share(19, 0) * phase_weight(19, 2 * k) / phase_weight(19, 0))
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn a_fixed_time_per_move_follows_the_phase_and_keeps_its_mean() {
        // Flat when told so, on any board and at any move.
        for m in [0, 40, 200] {
            assert_eq!(fixed_time_factor(19, m, 0.0), 1.0);
        }
        let f = |m| fixed_time_factor(19, m, 1.0);
        let mean = |r: std::ops::Range<usize>| {
            let n = r.len() as f64;
            r.map(f).sum::<f64>() / n
        };
        // The middle game gets more than the opening and the endgame.
        assert!(mean(80..120) > 1.3 * mean(0..20));
        assert!(mean(80..120) > 1.3 * mean(240..280));
        // A game of 200 to 260 moves takes, all in all, within a tenth of the flat time.
        for end in [200, 230, 260] {
            assert!((mean(0..end) - 1.0).abs() < 0.1, "{end}: {}", mean(0..end));
        }
        // Half the strength is halfway to the flat time.
        let half = fixed_time_factor(19, 0, 0.5);
        assert!((half - (1.0 + f(0)) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn fake_time_moves_only_when_told() {
        let t = FakeTime::with_step(0.5);
        assert_eq!(t.now(), 0.0);
        assert_eq!(t.now(), 0.5);
        t.advance(2.0);
        assert_eq!(t.now(), 3.0);
    }
}
