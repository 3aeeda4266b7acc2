//! The state a GTP session works on: the game, the clock, the search settings, and move
//! generation (search within the clock's budget, the move to play or pass, and, for moves
//! played in the game, whether to resign instead).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{Color, Move, Point};
use crate::book::Book;
use crate::game::Game;
use crate::playout::Policy;
use crate::rules::{KoRule, Rules};
use crate::search::dynkomi::{DynamicKomi, DynamicKomiScheme};
use crate::search::{
    self, Decision, Limits, LogObserver, Mode, Observer, Params, Resignation, SearchConfig,
    SearchResult, Searcher, Summary,
};
use crate::time::{self, Clock, DEFAULT_LAG, SystemTime, TimeSource, TimeSystem};

use super::Signals;

/// The board an engine starts on when nobody chose a size.
pub const DEFAULT_SIZE: usize = 19;

/// Settings fixed at start-up (from the command line).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The board size the command line chose (`--size`); `None` leaves the choice to the
    /// controller (`boardsize`, `loadsgf`) and starts on [`DEFAULT_SIZE`] meanwhile.
    pub size: Option<usize>,
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
    /// Memory for the search tree, in bytes.
    pub max_memory: usize,
    /// Search tuning constants.
    pub params: Params,
    /// Seconds per move kept in reserve for what the controller's clock counts beyond ours.
    pub lag: f64,
    /// Think on the opponent's time: after playing a move, search on until the next command.
    pub ponder: bool,
    /// How the search shifts komi in handicap games ([`search::dynkomi`]).
    pub dynamic_komi: DynamicKomiScheme,
    /// The opening book whose moves `genmove` plays without searching (`None`: no book).
    pub book: Option<Arc<Book>>,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            size: None,
            rules: Rules::chinese(),
            komi: None,
            ko: None,
            playouts: None,
            time_per_move: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: None,
            policy: Policy::Heavy,
            resign_threshold: 0.1,
            max_memory: search::DEFAULT_MAX_MEMORY,
            params: Params::default(),
            lag: DEFAULT_LAG,
            ponder: false,
            dynamic_komi: DynamicKomiScheme::default(),
            book: Some(Book::builtin()),
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
    /// The search, with the tree it keeps between moves.
    pub searcher: Searcher,
    /// Where "now" comes from for the clock bookkeeping (simulated in tests).
    pub time: Arc<dyn TimeSource>,
    /// How long the game has looked hopeless, over the moves generated for it.
    resignation: Resignation,
    /// The dynamic komi of the game's moves in handicap games.
    dynamic_komi: DynamicKomi,
    /// The last search a GoGui display asked for, and the position it was about.
    display: Option<(PositionKey, SearchResult)>,
    /// Whether the board size was chosen (by `--size`, `boardsize` or `loadsgf`) rather
    /// than left at [`DEFAULT_SIZE`]: only then can shoutan tell GoGui the board's size.
    size_chosen: bool,
    /// Game length when the clock was last charged (a shorter game is a new game).
    clock_move_number: usize,
    /// The position our last generated move left (game length and board hash): pondering
    /// goes on only while the game still stands there.
    ponder_position: Option<(usize, u64)>,
    started: Instant,
    quit: bool,
}

impl Engine {
    /// A fresh engine with an empty board as `options` say.
    pub fn new(options: EngineOptions) -> Result<Engine, String> {
        let mut game = Game::new(options.size.unwrap_or(DEFAULT_SIZE), options.rules.clone())?;
        if let Some(k) = options.komi {
            game.set_komi(k);
        }
        if let Some(ko) = options.ko {
            game.set_ko_rule(ko);
        }
        let searcher = Searcher::new(search_config(&options));
        let size_chosen = options.size.is_some();
        let dynamic_komi =
            DynamicKomi::with_margin(options.dynamic_komi, f64::from(options.params.margin_komi));
        Ok(Engine {
            game,
            options,
            clock: Clock::default(),
            signals: Arc::new(Signals::default()),
            searcher,
            time: Arc::new(SystemTime::default()),
            resignation: Resignation::default(),
            dynamic_komi,
            display: None,
            size_chosen,
            clock_move_number: 0,
            ponder_position: None,
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

    /// A new game of `size`, the size the controller chose, keeping rules, komi and ko rule.
    pub fn new_game(&mut self, size: usize) -> Result<(), String> {
        let komi = self.game.komi();
        let ko = self.game.ko_rule();
        let mut game = Game::new(size, self.game.rules().clone())?;
        game.set_komi(komi);
        game.set_ko_rule(ko);
        self.load_game(game);
        Ok(())
    }

    /// Replaces the game by one the controller chose (a new board, a loaded record): its
    /// size is the board's size from now on.
    pub fn load_game(&mut self, game: Game) {
        self.game = game;
        self.size_chosen = true;
    }

    /// The board's size once it has been chosen (by `--size`, `boardsize` or `loadsgf`);
    /// `None` while the engine only sits on its default board, whose size it cannot vouch
    /// for.
    pub fn chosen_size(&self) -> Option<usize> {
        self.size_chosen.then(|| self.game.size())
    }

    /// Search limits for `color`'s next move: the fixed budgets from the options (playouts,
    /// seconds per move) and the clock's budget, whichever is tighter; 10,000 playouts when
    /// nothing limits the search.
    pub fn move_limits(&self, color: Color) -> Limits {
        let mut limits = Limits {
            playouts: self.options.playouts,
            ..Limits::default()
        };
        let board_size = self.game.size();
        if let Some(t) = self.options.time_per_move {
            let phase = f64::from(self.options.params.phase_time_for(board_size));
            let t = t * time::fixed_time_factor(board_size, self.game.move_number(), phase);
            // Keep a little for answering: the controller counts that too.
            let t = (t * 0.97 - 0.02).max(0.01);
            let share = f64::from(self.options.params.move_time_target);
            limits.time = Some(Duration::from_secs_f64(t * share));
            limits.max_time = Some(Duration::from_secs_f64(t));
            limits.early_stop = share < 1.0;
        }
        if let Some(b) =
            self.clock
                .budget(color, board_size, self.game.move_number(), self.options.lag)
        {
            limits.time = Some(limits.time.map_or(b.target, |t| t.min(b.target)));
            limits.max_time = Some(limits.max_time.map_or(b.max, |t| t.min(b.max)));
            // Time saved now is time for later moves.
            limits.early_stop = true;
        }
        if limits.playouts.is_none() && limits.time.is_none() {
            limits.playouts = Some(10_000);
        }
        limits
    }

    /// Searches for `color`'s move without playing it, logging progress, and decides the
    /// move (never a resignation: see [`Engine::decide_for_game`]). Stops early on GoGui's
    /// interrupt.
    pub fn think(&mut self, color: Color, mode: Mode) -> (Move, SearchResult) {
        let limits = self.move_limits(color);
        let signals = Arc::clone(&self.signals);
        let mut observer = LogObserver {
            stop: &signals.interrupt,
        };
        self.think_with(color, mode, limits, &mut observer)
    }

    /// Like [`Engine::think`] with explicit limits and observer.
    pub fn think_with(
        &mut self,
        color: Color,
        mode: Mode,
        limits: Limits,
        observer: &mut dyn Observer,
    ) -> (Move, SearchResult) {
        let result = self
            .searcher
            .search(&self.game, color, limits, mode, observer);
        let mv = self.searcher.decide(&self.game, color, mode, &result);
        let board = self.game.board();
        let s = &result.summary;
        let answer = board.move_name(mv);
        let (visits, winrate, pv) = s.best().map_or((0, 0.5, String::new()), |b| {
            (b.visits, b.winrate, search::format_moves(board, &b.pv))
        });
        log::info!(
            "search for {} at move {}: {}; {} playouts in {:.2} s ({:.0}/s), win {:.1}% visits {}, mean score over the playouts {}{:.1}, tree {}/{} nodes, {} reclaims, pv {}",
            color.letter(),
            self.game.move_number() + 1,
            answer,
            s.playouts,
            s.elapsed.as_secs_f64(),
            s.rate(),
            100.0 * winrate,
            visits,
            if result.score >= 0.0 { "B+" } else { "W+" },
            result.score.abs(),
            s.nodes.0,
            s.nodes.1,
            s.reclaims,
            pv
        );
        (mv, result)
    }

    /// The search behind GoGui's analyze displays. Each display is a command of its own, and
    /// all of them should tell one story about a position: so the last display search is
    /// reported again while the position is the same one (moves, setup stones, size, komi,
    /// rules, side to move), and a new search for the side to move, within the move limits,
    /// runs only for another position or when `again` asks for more thinking (it goes on
    /// from the tree, adding to the visits kept from before).
    pub fn display_search(&mut self, again: bool) -> SearchResult {
        let key = PositionKey::of(&self.game);
        if !again
            && let Some((k, result)) = &self.display
            && *k == key
        {
            return result.clone();
        }
        let (_, result) = self.think(self.game.to_move(), Mode::Normal);
        self.display = Some((key, result.clone()));
        result
    }

    /// The answer to a move request for the game itself (`genmove` and its variants): the
    /// searched move `mv`, unless the game has looked hopeless for `color` for a few
    /// generated moves in a row, which makes it a resignation. Call once per such move.
    pub fn decide_for_game(
        &mut self,
        color: Color,
        mode: Mode,
        mv: Move,
        result: &SearchResult,
    ) -> Decision {
        let config = self.searcher.config();
        if self
            .resignation
            .should_resign(&self.game, color, mode, result, config)
        {
            log::info!(
                "resigning: {} has looked hopeless for {} moves in a row",
                color,
                config.params.resign_streak.max(1)
            );
            Decision::Resign
        } else {
            Decision::Play(mv)
        }
    }

    /// The search behind a move for the game (`genmove` and its variants, and `reg_genmove`,
    /// which asks what genmove would play): [`Engine::think_with`] counting with the dynamic
    /// komi of handicap games. `learn` lets the adaptive scheme learn from it (a move that is
    /// played).
    pub fn think_for_game(
        &mut self,
        color: Color,
        mode: Mode,
        limits: Limits,
        observer: &mut dyn Observer,
        learn: bool,
    ) -> (Move, SearchResult) {
        let extra = self.dynamic_komi.extra_komi(&self.game, color);
        if extra != 0.0 {
            log::info!("dynamic komi: counting with {extra:+.1} points for White");
        }
        self.searcher.set_extra_komi(extra);
        let (mv, result) = self.think_with(color, mode, limits, observer);
        self.searcher.set_extra_komi(0.0);
        if learn {
            self.dynamic_komi.observe(&self.game, color, &result);
        }
        (mv, result)
    }

    /// Generates and plays `color`'s move: search, decide, play, and charge the time used to
    /// our clock. Returns the answer text (a vertex, `pass` or `resign`).
    pub fn generate(&mut self, color: Color, mode: Mode) -> Result<String, String> {
        let t0 = self.begin_clock();
        let limits = self.move_limits(color);
        let signals = Arc::clone(&self.signals);
        let mut observer = LogObserver {
            stop: &signals.interrupt,
        };
        if let Some(mv) = self.book_move(color, mode) {
            return self.finish_move(color, Decision::Play(mv), t0);
        }
        let (mv, result) = self.think_for_game(color, mode, limits, &mut observer, true);
        let decision = self.decide_for_game(color, mode, mv, &result);
        self.finish_move(color, decision, t0)
    }

    /// The opening book's move for `color` here, if the book holds this position (normal
    /// moves only: a clean-up is never in the opening).
    pub fn book_move(&self, color: Color, mode: Mode) -> Option<Move> {
        if mode != Mode::Normal {
            return None;
        }
        let mv = self.options.book.as_ref()?.lookup(&self.game, color)?;
        log::info!(
            "book move for {} at move {}: {}",
            color.letter(),
            self.game.move_number() + 1,
            self.game.board().move_name(mv)
        );
        Some(mv)
    }

    /// Notes when a move's thinking starts (and resets the clocks for a new game).
    pub fn begin_clock(&mut self) -> f64 {
        if self.game.move_number() < self.clock_move_number {
            // A new game without new time settings: the clocks start again.
            let system = self.clock.system;
            if system != TimeSystem::None {
                self.clock.set_system(system);
            }
        }
        self.time.now()
    }

    /// Plays a decided move, charges the clock from `t0`, and returns the answer text.
    pub fn finish_move(
        &mut self,
        color: Color,
        decision: Decision,
        t0: f64,
    ) -> Result<String, String> {
        let answer = match decision {
            Decision::Play(mv) => {
                self.play_generated(color, mv)?;
                self.ponder_position = Some(self.position_id());
                self.game.board().move_name(mv)
            }
            Decision::Resign => "resign".to_string(),
        };
        let used = self.time.now() - t0;
        self.clock.charge(color, used);
        self.clock_move_number = self.game.move_number();
        Ok(answer)
    }

    /// What identifies the position for pondering: game length and board hash.
    fn position_id(&self) -> (usize, u64) {
        (self.game.move_number(), self.game.board().hash())
    }

    /// Thinks on the opponent's time (`--ponder`): while the game stands where our last
    /// generated move left it and is not over, searches the opponent's move until a command
    /// arrives (or the input ends, or the root's counters near their limit). A full tree
    /// does not stop it: the search reclaims its least visited subtrees and goes on. The
    /// next genmove reuses that tree, so the time the opponent spends is not lost. Nothing
    /// is charged to any clock.
    pub fn ponder(&mut self) {
        if !self.options.ponder
            || self.ponder_position != Some(self.position_id())
            || self.game.trailing_passes() >= 2
            || self.signals.analysis_should_stop()
        {
            return;
        }
        let color = self.game.to_move();
        let mut observer = PonderObserver {
            signals: Arc::clone(&self.signals),
            exhausted: false,
        };
        let result = self.searcher.search(
            &self.game,
            color,
            Limits::default(),
            Mode::Normal,
            &mut observer,
        );
        let s = &result.summary;
        log::info!(
            "pondered {} playouts in {:.2} s for {}'s move, tree {}/{} nodes, {} reclaims{}",
            s.playouts,
            s.elapsed.as_secs_f64(),
            color.letter(),
            s.nodes.0,
            s.nodes.1,
            s.reclaims,
            if observer.exhausted {
                " (stopped: root visits at their limit)"
            } else {
                ""
            }
        );
        if observer.exhausted {
            // Nothing more to gain here until the position changes.
            self.ponder_position = None;
        }
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

/// What a search was about, for reporting it again: everything that makes two positions
/// the same game to analyse.
#[derive(Clone, Debug, PartialEq)]
struct PositionKey {
    size: usize,
    rules: Rules,
    komi_bits: u32,
    ko: KoRule,
    handicap: usize,
    setup: Vec<(Point, Color)>,
    moves: Vec<(Color, Move)>,
    to_move: Color,
}

impl PositionKey {
    fn of(game: &Game) -> PositionKey {
        PositionKey {
            size: game.size(),
            rules: game.rules().clone(),
            komi_bits: game.komi().to_bits(),
            ko: game.ko_rule(),
            handicap: game.handicap(),
            setup: game.setup_stones().to_vec(),
            moves: game.history().iter().map(|r| (r.color, r.mv)).collect(),
            to_move: game.to_move(),
        }
    }
}

/// Stops pondering when a command arrives, the input ends, or the root's counters near
/// their limit (a full tree reclaims memory and goes on, as KataGo ponders forever).
struct PonderObserver {
    signals: Arc<Signals>,
    /// The root's counters are near their limit.
    exhausted: bool,
}

impl Observer for PonderObserver {
    fn interval(&self) -> Option<Duration> {
        Some(Duration::from_millis(250))
    }

    fn report(&mut self, summary: &Summary) {
        if summary.root_visits >= PONDER_MAX_VISITS {
            self.exhausted = true;
        }
    }

    fn should_stop(&self) -> bool {
        self.exhausted || self.signals.analysis_should_stop()
    }
}

/// Root visits beyond which pondering stops (the counters are 32-bit).
const PONDER_MAX_VISITS: u32 = 1 << 30;

/// The search configuration the options ask for.
pub fn search_config(options: &EngineOptions) -> SearchConfig {
    SearchConfig {
        threads: options.threads,
        seed: options.seed,
        resign_threshold: options.resign_threshold,
        policy: options.policy,
        max_memory: options.max_memory,
        params: options.params.clone(),
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
