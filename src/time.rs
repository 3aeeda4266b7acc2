//! Clocks: the time system of a game (GTP `time_settings`, `kgs-time_settings`), what is left
//! on each player's clock (`time_left`), and how much of it one move may spend.

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
}

/// The time system and both players' clocks.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// The time system in force.
    pub system: TimeSystem,
    /// Black's and White's clocks.
    pub players: [ClockState; 2],
}

impl Clock {
    /// Sets the time system and resets both clocks to its start.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        let start = match system {
            TimeSystem::None => ClockState::default(),
            TimeSystem::Absolute { main } => ClockState {
                time_left: main,
                stones_or_periods: 0,
                known: true,
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => {
                if main > 0.0 {
                    ClockState {
                        time_left: main,
                        stones_or_periods: 0,
                        known: true,
                    }
                } else {
                    ClockState {
                        time_left: period,
                        stones_or_periods: stones,
                        known: true,
                    }
                }
            }
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => {
                if main > 0.0 {
                    ClockState {
                        time_left: main,
                        stones_or_periods: 0,
                        known: true,
                    }
                } else {
                    ClockState {
                        time_left: period,
                        stones_or_periods: periods,
                        known: true,
                    }
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
        };
    }
}
