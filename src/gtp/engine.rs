//! The state a GTP session works on: the game, the clock, the search settings.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Color, Move};
use crate::game::Game;
use crate::playout::Policy;
use crate::rules::{KoRule, Rules};
use crate::search::{self, Limits, SearchConfig, SearchResult};
use crate::time::Clock;

use super::Signals;

/// Settings fixed at start-up (from the command line).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Initial board size.
    pub size: usize,
    /// Ruleset.
    pub rules: Rules,
    /// Komi override (else the ruleset's).
    pub komi: Option<f32>,
    /// Ko rule override (else the ruleset's).
    pub ko: Option<KoRule>,
    /// Playouts per move, if limited.
    pub playouts: Option<u64>,
    /// Seconds per move, if limited.
    pub time_per_move: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Random seed for reproducible play.
    pub seed: Option<u64>,
    /// Playout policy.
    pub policy: Policy,
    /// Resign below this win rate.
    pub resign_threshold: f32,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            size: 19,
            rules: Rules::chinese(),
            komi: None,
            ko: None,
            playouts: None,
            time_per_move: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: None,
            policy: Policy::Heavy,
            resign_threshold: 0.1,
        }
    }
}

/// A GTP session's engine state.
pub struct Engine {
    /// The game being played.
    pub game: Game,
    /// Start-up options.
    pub options: EngineOptions,
    /// Time settings and clocks.
    pub clock: Clock,
    /// Flags from the input thread.
    pub signals: Arc<Signals>,
    started: Instant,
    quit: bool,
}

impl Engine {
    /// A fresh engine with an empty board as `options` say.
    pub fn new(options: EngineOptions) -> Result<Engine, String> {
        let mut game = Game::new(options.size, options.rules.clone())?;
        if let Some(k) = options.komi {
            game.set_komi(k);
        }
        if let Some(ko) = options.ko {
            game.set_ko_rule(ko);
        }
        Ok(Engine {
            game,
            options,
            clock: Clock::default(),
            signals: Arc::new(Signals::default()),
            started: Instant::now(),
            quit: false,
        })
    }

    /// Whether `quit` was received.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Asks the server loop to stop after this answer.
    pub fn request_quit(&mut self) {
        self.quit = true;
    }

    /// A new game of `size` keeping rules, komi and ko rule.
    pub fn new_game(&mut self, size: usize) -> Result<(), String> {
        let komi = self.game.komi();
        let ko = self.game.ko_rule();
        let mut game = Game::new(size, self.game.rules().clone())?;
        game.set_komi(komi);
        game.set_ko_rule(ko);
        self.game = game;
        Ok(())
    }

    /// Search limits for the next move: the fixed budget from the options, or a default.
    pub fn move_limits(&self) -> Limits {
        let time = self.options.time_per_move.map(Duration::from_secs_f64);
        let playouts = self.options.playouts;
        if time.is_none() && playouts.is_none() {
            Limits {
                playouts: Some(10_000),
                time: None,
            }
        } else {
            Limits { playouts, time }
        }
    }

    /// Searches for `color`'s move without playing it.
    pub fn think(&mut self, color: Color) -> SearchResult {
        let config = SearchConfig {
            threads: self.options.threads,
            seed: self.options.seed,
            resign_threshold: self.options.resign_threshold,
            policy: self.options.policy,
        };
        let limits = self.move_limits();
        let result = search::genmove(&self.game, color, limits, &config, &self.signals.interrupt);
        log::info!(
            "{} {}: {} playouts, win rate {:.1}%",
            color,
            self.game.board().move_name(result.best),
            result.playouts,
            100.0 * result.winrate
        );
        result
    }

    /// Seconds of CPU time this process has used (wall-clock time where the system does not
    /// tell).
    pub fn cpu_seconds(&self) -> f64 {
        process_cpu_seconds().unwrap_or_else(|| self.started.elapsed().as_secs_f64())
    }

    /// Plays a generated move, which the search only picks among legal ones.
    pub fn play_generated(&mut self, color: Color, mv: Move) -> Result<(), String> {
        self.game
            .play(mv, color)
            .map_err(|e| format!("internal error: generated an illegal move: {e}"))
    }
}

/// Process CPU time (user + system) from /proc on Linux.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    // Linux reports these in clock ticks of 1/100 s (USER_HZ) on every common platform.
    Some((utime + stime) / 100.0)
}
