//! Move generation: Monte-Carlo tree search.
//!
//! UCT with RAVE (all-moves-as-first) over a tree shared by all threads without locks
//! ([`tree`]), new nodes seeded with cheap Go knowledge ([`priors`]), virtual loss to spread the
//! threads, Monte-Carlo playouts at the leaves ([`crate::playout`]). The tree is kept between
//! moves: the moves played since the last search select the subtree to go on with. Lines that
//! end with two passes are counted with dead stones removed ([`crate::score::settle`]).
//!
//! A [`Searcher`] owns the tree and the threads' workspaces. [`Searcher::search`] runs until a
//! playout or time limit, an external stop, or until the best move cannot change any more, and
//! reports progress through an [`Observer`] (log lines for people, `info` lines for analysis
//! GUIs). [`decide`] turns a finished search into a move, a pass or a resignation, with the
//! game sense that needs: never pass into a loss, pass when the game is settled, resign only
//! when hopeless for a while.

pub mod priors;
pub mod tree;
mod worker;

use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicUsize, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::time::{Duration, Instant};

use crate::board::{Board, Cell, Color, MAX_POINTS, Move, Point};
use crate::game::Game;
use crate::playout::Policy;
use crate::rules::{KoRule, Scoring};
use crate::tactics;

pub use crate::score::effective_komi;
use crate::score::ownership::OwnershipTally;
use crate::score::settle::{dead_stones, has_dead, pessimistic_dead_stones};
use crate::score::{DeadStones, Ownership, settled_score};
use priors::{PriorWeights, move_prior};
use tree::{NodeId, Tree};
use worker::{OwnershipCounts, Shared, Worker};

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
    /// Weigh AMAF updates by how soon the move came after the node (2 at once, 0 at the end).
    pub rave_weighting: bool,
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
    /// 2 also to the last two moves (see [`crate::playout::replies`]).
    pub lgrf: u8,
    /// Where heavy playouts try the stored reply: 0 before the atari tactics, 1 between the
    /// tactics and the 3x3 shapes.
    pub lgrf_order: u8,
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
            expand_threshold: 0,
            score_weight: 0.0,
            prime_playouts: 128,
            early_stop: true,
            resign_streak: 3,
            virtual_loss: 1,
            lgrf: 0,
            lgrf_order: 0,
            prior_overrides: Vec::new(),
        }
    }
}

impl Params {
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
            "expand_threshold" => self.expand_threshold = number as u32,
            "score_weight" => self.score_weight = (number as f32).min(1.0),
            "prime_playouts" => self.prime_playouts = number as u32,
            "early_stop" => self.early_stop = number != 0.0,
            "resign_streak" => self.resign_streak = number as u32,
            "virtual_loss" => self.virtual_loss = (number as u32).clamp(1, 100),
            "lgrf" => self.lgrf = (number as u8).min(2),
            "lgrf_order" => self.lgrf_order = (number as u8).min(1),
            _ => match name.strip_prefix("prior.") {
                Some(rule) if PriorWeights::for_size(9).set(rule, 0).is_ok() => {
                    self.prior_overrides.push((rule.to_string(), number as u32));
                }
                _ => return Err(format!("unknown search parameter '{name}'")),
            },
        }
        Ok(())
    }

    fn priors_for(&self, size: usize) -> PriorWeights {
        let mut w = PriorWeights::for_size(size);
        for (name, value) in &self.prior_overrides {
            let _ = w.set(name, *value);
        }
        w
    }

    fn expand_threshold_for(&self, size: usize) -> u32 {
        if self.expand_threshold > 0 {
            self.expand_threshold
        } else if size <= 9 {
            2
        } else if size <= 13 {
            4
        } else {
            8
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

/// Default tree memory: 4 GiB, a sixth of a 24 GiB machine, room for about 70 million nodes.
/// Only the memory the tree touches is actually used.
pub const DEFAULT_MAX_MEMORY: usize = 4 << 30;

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: None,
            resign_threshold: 0.1,
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
    /// carries over to later moves (a game clock), not with a fixed budget per move, where
    /// the extra visits go to the subtree kept for the next move.
    pub early_stop: bool,
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

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Simulations through it.
    pub visits: u32,
    /// Its mean result for the player to move (0..1).
    pub winrate: f64,
    /// A lower confidence bound on `winrate`.
    pub lcb: f64,
    /// Its prior value (0..1), as the priors judged it before any search.
    pub prior: f64,
    /// Mean final score from the mover's point of view.
    pub score_lead: f64,
    /// The principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// A view of a search in progress or finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Who moves at the root.
    pub color: Color,
    /// Playouts finished in this search.
    pub playouts: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Root candidates with at least one visit, most visited first.
    pub candidates: Vec<Candidate>,
    /// Visits of the root (this search's and those kept from earlier ones).
    pub root_visits: u32,
    /// Nodes in use and the capacity of the tree.
    pub nodes: (usize, usize),
    /// Ownership so far (Black +1 .. White -1 per point index), when the observer asked.
    pub ownership: Option<Vec<f32>>,
}

impl Summary {
    /// The most visited candidate.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }

    /// Playouts per second so far.
    pub fn rate(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }
}

/// What a finished search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The final summary.
    pub summary: Summary,
    /// Who owned each point at the end of this search's playouts.
    pub ownership: Ownership,
    /// Mean final score (Black's view) of the simulations through the root.
    pub score: f64,
}

impl SearchResult {
    /// The most visited move (pass when nothing was searched).
    pub fn best_move(&self) -> Move {
        self.summary.best().map_or(Move::Pass, |c| c.mv)
    }

    /// The win rate of the most visited move (½ when nothing was searched).
    pub fn winrate(&self) -> f64 {
        self.summary.best().map_or(0.5, |c| c.winrate)
    }
}

/// Watches a running search: receives summaries at its interval and may stop it.
pub trait Observer {
    /// How often [`Observer::report`] wants a summary (`None`: never).
    fn interval(&self) -> Option<Duration>;
    /// A summary of the search so far.
    fn report(&mut self, summary: &Summary);
    /// Whether the search should stop now (interrupt, or a new command for analysis).
    fn should_stop(&self) -> bool;
    /// Whether summaries should carry the ownership so far.
    fn wants_ownership(&self) -> bool {
        false
    }
}

/// An observer that only logs progress to stderr every second.
pub struct LogObserver<'a> {
    /// Stops the search when raised.
    pub stop: &'a AtomicBool,
}

impl Observer for LogObserver<'_> {
    fn interval(&self) -> Option<Duration> {
        None
    }

    fn report(&mut self, _: &Summary) {}

    fn should_stop(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

/// What the tree's root stands for, to decide whether the next search can reuse it.
#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    size: usize,
    komi_bits: u32,
    ko: KoRule,
    setup: Vec<(Point, Color)>,
    moves: Vec<(Color, Move)>,
    to_move: Color,
}

impl RootKey {
    fn of(game: &Game, color: Color, komi: f32) -> RootKey {
        RootKey {
            size: game.size(),
            komi_bits: komi.to_bits(),
            ko: game.ko_rule(),
            setup: game.setup_stones().to_vec(),
            moves: game.history().iter().map(|r| (r.color, r.mv)).collect(),
            to_move: color,
        }
    }
}

/// The search engine: tree, per-thread workspaces, and memory of earlier searches.
pub struct Searcher {
    config: SearchConfig,
    tree: Option<Tree>,
    key: Option<RootKey>,
    workers: Vec<Worker>,
    /// Per thread: who owned each point at the end of its playouts in this search.
    ownership: Vec<OwnershipCounts>,
    searches: u64,
    /// Consecutive searches whose best win rate was below the resign threshold.
    hopeless_streak: u32,
    /// Game length at the last decision (a shorter game means a new game).
    last_move_number: usize,
}

/// Nodes' size in bytes, for the memory cap.
pub const NODE_BYTES: usize = std::mem::size_of::<tree::Node>();

impl Searcher {
    /// A searcher with `config`; the tree is allocated at the first search.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            config,
            tree: None,
            key: None,
            workers: Vec::new(),
            ownership: Vec::new(),
            searches: 0,
            hopeless_streak: 0,
            last_move_number: 0,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Forgets the tree (the next search starts from scratch).
    pub fn clear_tree(&mut self) {
        self.key = None;
        if let Some(t) = self.tree.as_mut() {
            t.clear();
        }
    }

    /// Searches `game` for `color`'s move within `limits`, reporting to `observer`.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        limits: Limits,
        mode: Mode,
        observer: &mut dyn Observer,
    ) -> SearchResult {
        let start = Instant::now();
        let threads = self.config.threads.max(1);
        let base_seed = self.config.seed.unwrap_or_else(rand::random);
        while self.workers.len() < threads {
            self.workers.push(Worker::new(base_seed));
            self.ownership.push(OwnershipCounts::new());
        }
        for (t, w) in self.workers.iter_mut().enumerate() {
            let seed = base_seed
                ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ self.searches.wrapping_mul(0xD1B5_4A32_D192_ED03);
            w.reseed(seed);
        }
        for o in &self.ownership {
            o.clear();
        }
        self.searches += 1;

        let komi = effective_komi(game);
        let size = game.size();
        let capacity = (self.config.max_memory / NODE_BYTES).max(1024);
        let key = RootKey::of(game, color, komi);
        let mut tree = match self.tree.take() {
            Some(t) if t.arena.capacity() == capacity => t,
            _ => {
                self.key = None;
                Tree::new(capacity)
            }
        };
        self.reuse_or_clear(&mut tree, &key);
        self.key = Some(key);

        let params = self.config.params.clone();
        let root_board = game.board();
        let no_dead: DeadStones = [false; MAX_POINTS];
        let initial_passes = u32::from(game.history().last().is_some_and(|r| r.mv == Move::Pass));
        let priors = params.priors_for(size);
        let expand_threshold = params.expand_threshold_for(size);

        // Root children: exactly the moves the game allows (superko included).
        let moves = root_moves(game, color);
        let root = tree.root;
        let mut scratch = Board::new(size);
        if !tree.set_children(root, &moves, |mv| {
            move_prior(root_board, mv, color, &priors, &mut scratch)
        }) {
            // The arena is full of the old tree: start afresh.
            tree.clear();
            let root = tree.root;
            tree.set_children(root, &moves, |mv| {
                move_prior(root_board, mv, color, &priors, &mut scratch)
            });
        }

        let mut shared = Shared {
            tree: &tree,
            root_board,
            root_color: color,
            history: game.positions(),
            ko: game.ko_rule(),
            komi,
            group_tax: game.rules().scoring == Scoring::TaxedArea,
            policy: self.config.policy,
            params: &params,
            priors,
            expand_threshold,
            dead: &no_dead,
            initial_passes,
        };
        // Judge dead stones for the lines that end with two passes; in cleanup mode every
        // stone counts as alive, so the search captures dead stones before passing.
        // Two-pass endings only matter late in the game (or right after a pass).
        let late = 2 * root_board.empty_points().len() <= size * size || initial_passes > 0;
        let primed = if params.prime_playouts > 0 && moves.len() > 1 && late {
            Some(self.workers[0].prime_ownership(&shared, params.prime_playouts))
        } else {
            None
        };
        let dead: DeadStones = match (&primed, mode) {
            (Some(own), Mode::Normal) => dead_stones(root_board, own, 0.5),
            _ => no_dead,
        };
        shared.dead = &dead;

        let setup = start.elapsed();
        if setup > Duration::from_millis(50) {
            log::debug!("search setup took {:.3} s", setup.as_secs_f64());
        }
        let control = Control {
            stop: AtomicBool::new(false),
            started: AtomicU64::new(0),
            done: AtomicU64::new(0),
            running: AtomicUsize::new(threads),
            playout_limit: limits.playouts.unwrap_or(u64::MAX),
            // Playout rates are measured from here, after the set-up (tree reuse, priming).
            start: Instant::now(),
            deadline: limits.max_time.or(limits.time).map(|t| start + t),
            early_stop: params.early_stop
                && limits.early_stop
                && (limits.playouts.is_some() || limits.time.is_some()),
        };
        // A forced move (pass only) needs no thought.
        if moves.len() <= 1 {
            control.stop.store(true, Relaxed);
        }
        let target = limits.time.map(|t| start + t);
        let shared = &shared;
        let control_ref = &control;
        let counts = &self.ownership[..threads];
        std::thread::scope(|scope| {
            for (t, worker) in self.workers[..threads].iter_mut().enumerate() {
                let own = &counts[t];
                scope.spawn(move || run_worker(worker, shared, own, control_ref, t == 0));
            }
            let mut next_log = start + Duration::from_secs(1);
            let interval = observer.interval();
            let mut next_report = interval.map(|i| start + i);
            while control.running.load(Acquire) > 0 {
                let now = Instant::now();
                if observer.should_stop() {
                    control.stop.store(true, Relaxed);
                }
                if let Some(t) = target
                    && now >= t
                    && best_is_clear(&tree)
                {
                    control.stop.store(true, Relaxed);
                }
                if now >= next_log {
                    let s = summarize(&tree, color, control.done.load(Relaxed), start);
                    log_progress(root_board, &s);
                    next_log = now + Duration::from_secs(1);
                }
                if let (Some(at), Some(i)) = (next_report, interval)
                    && now >= at
                {
                    let mut s = summarize(&tree, color, control.done.load(Relaxed), start);
                    if observer.wants_ownership() {
                        s.ownership =
                            merge_ownership(root_board, counts).map(|o| o.black_shares().to_vec());
                    }
                    observer.report(&s);
                    next_report = Some(Instant::now().max(at + i));
                }
                let mut wake = next_log;
                if let Some(at) = next_report {
                    wake = wake.min(at);
                }
                let nap = wake
                    .saturating_duration_since(Instant::now())
                    .min(Duration::from_millis(5));
                std::thread::sleep(nap);
            }
        });
        let playouts = control.done.load(Relaxed);
        let summary = summarize(&tree, color, playouts, start);
        let ownership = merge_ownership(root_board, &self.ownership[..threads])
            .or(primed)
            .unwrap_or_else(Ownership::none);
        let score = tree.root().mean_score().unwrap_or(0.0);
        self.tree = Some(tree);
        SearchResult {
            summary,
            ownership,
            score,
        }
    }

    /// Turns a finished search into the move to play, with the game sense around passing
    /// and resigning. Call once per generated move: it remembers how long the game has
    /// looked hopeless.
    pub fn decide(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        result: &SearchResult,
    ) -> Decision {
        let board = game.board();
        let size = game.size();
        if game.move_number() < self.last_move_number {
            self.hopeless_streak = 0;
        }
        self.last_move_number = game.move_number();
        let komi = effective_komi(game);
        // Before passing (which may end the game), count erring against ourselves.
        let careful = pessimistic_dead_stones(board, &result.ownership, color);
        let tax = game.rules().scoring == Scoring::TaxedArea;
        let settled = settled_score(board, &careful, komi, tax);
        let settled_for_us = if color == Color::Black {
            settled
        } else {
            -settled
        };
        let summary = &result.summary;
        let best = result.best_move();
        let best_non_pass = summary
            .candidates
            .iter()
            .find(|c| c.mv != Move::Pass)
            .map(|c| c.mv);

        if mode == Mode::Normal {
            let searched = summary.root_visits >= 1000;
            if searched && result.winrate() < self.config.resign_threshold as f64 {
                self.hopeless_streak += 1;
            } else {
                self.hopeless_streak = 0;
            }
            let handicap_white = game.handicap() > 0 && color == Color::White;
            let min_moves = size * size / if handicap_white { 2 } else { 4 };
            // Resigning errs the other way: count as the opponent would before passing.
            let hopeful = pessimistic_dead_stones(board, &result.ownership, color.opponent());
            let hopeful_score = settled_score(board, &hopeful, komi, tax);
            let lost_even_hopefully = if color == Color::Black {
                hopeful_score < 0.0
            } else {
                hopeful_score > 0.0
            };
            if self.hopeless_streak >= self.config.params.resign_streak.max(1)
                && game.move_number() >= min_moves
                && lost_even_hopefully
            {
                return Decision::Resign;
            }
        }

        // Clean up only stones that are clearly dead: in a lost position the opponent's
        // replies in the tree are arbitrary, and its live groups can look half dead.
        if mode == Mode::Cleanup
            && has_dead(board, &careful, color.opponent())
            && let Some(mv) = cleanup_move(game, color, &careful, summary)
        {
            return Decision::Play(mv);
        }
        let opponent_passed = game
            .history()
            .last()
            .is_some_and(|r| r.mv == Move::Pass && r.color != color);
        if opponent_passed && settled_for_us > 0.0 && mode == Mode::Normal {
            // Passing ends the game: the count must win with dead stones judged from both
            // sides (the search's playouts all started with our move).
            let after = self.after_pass(game, color, self.config.policy);
            if after.as_ref().is_none_or(|a| a.count_for_us > 0.0) || best_non_pass.is_none() {
                return Decision::Play(Move::Pass);
            }
            if let Some(mv) = best_non_pass {
                return Decision::Play(mv);
            }
        }
        if best == Move::Pass {
            return match best_non_pass {
                Some(mv) if settled_for_us <= 0.0 => Decision::Play(mv),
                _ => Decision::Play(Move::Pass),
            };
        }
        if mode == Mode::Normal
            && settled_for_us > 0.0
            && is_settled(game, color, &result.ownership)
            && self.passing_is_safe(game, color, result.winrate())
        {
            return Decision::Play(Move::Pass);
        }
        Decision::Play(best)
    }

    /// Whether passing now keeps the game won: playouts as if we had passed (the opponent
    /// to move, who in the search's own playouts always moved second) must still find the
    /// board settled, the careful count winning, and our win rate close to `best_winrate`.
    ///
    /// Under heavy playouts the check is repeated with light ones: the heavy policy's shape
    /// knowledge can blind it to an eye-making point the opponent would find after our pass
    /// (the light policy tries every point), and passing early only saves time.
    fn passing_is_safe(&mut self, game: &Game, color: Color, best_winrate: f64) -> bool {
        let policies: &[Policy] = match self.config.policy {
            Policy::Light => &[Policy::Light],
            Policy::Heavy => &[Policy::Heavy, Policy::Light],
        };
        policies.iter().all(|&policy| {
            let Some(after) = self.after_pass(game, color, policy) else {
                return false;
            };
            log::debug!(
                "pass check ({}): {:.3} after a pass vs {best_winrate:.3}, careful count {}",
                policy.name(),
                after.winrate,
                after.count_for_us
            );
            after.winrate >= best_winrate - 0.05
                && after.count_for_us > 0.0
                && is_settled(game, color, &after.ownership)
        })
    }

    /// Playouts under `policy` from the position as if `color` had passed; `None` before any
    /// search.
    fn after_pass(&mut self, game: &Game, color: Color, policy: Policy) -> Option<AfterPass> {
        let worker = self.workers.first_mut()?;
        let board = game.board();
        let komi = effective_komi(game);
        let n = self.config.params.prime_playouts.max(64) * 4;
        let (ownership, black_wins) = worker.playout_ownership(
            board,
            color.opponent(),
            game.positions(),
            game.ko_rule(),
            komi,
            policy,
            n,
        );
        let careful = pessimistic_dead_stones(board, &ownership, color);
        let tax = game.rules().scoring == Scoring::TaxedArea;
        let count = settled_score(board, &careful, komi, tax);
        Some(if color == Color::Black {
            AfterPass {
                ownership,
                winrate: black_wins,
                count_for_us: count,
            }
        } else {
            AfterPass {
                ownership,
                winrate: 1.0 - black_wins,
                count_for_us: -count,
            }
        })
    }

    fn reuse_or_clear(&mut self, tree: &mut Tree, key: &RootKey) {
        let Some(old) = self.key.as_ref() else {
            tree.clear();
            return;
        };
        let compatible = old.size == key.size
            && old.komi_bits == key.komi_bits
            && old.ko == key.ko
            && old.setup == key.setup
            && key.moves.len() >= old.moves.len()
            && key.moves[..old.moves.len()] == old.moves[..];
        if !compatible {
            tree.clear();
            return;
        }
        // Follow the moves played since: each must be made by the player to move.
        let mut id = tree.root;
        let mut to_move = old.to_move;
        for &(c, mv) in &key.moves[old.moves.len()..] {
            if c != to_move {
                tree.clear();
                return;
            }
            match tree.child_by_move(id, mv) {
                Some(child) => id = child,
                None => {
                    tree.clear();
                    return;
                }
            }
            to_move = to_move.opponent();
        }
        if to_move != key.to_move {
            tree.clear();
            return;
        }
        tree.compact(id);
    }
}

/// The moves searched at the root: every legal move (superko included) that does not fill
/// one of `color`'s own eyes, and pass.
pub fn root_moves(game: &Game, color: Color) -> Vec<Move> {
    let board = game.board();
    let mut moves: Vec<Move> = board
        .points()
        .filter(|&p| {
            board.cell(p) == crate::board::Cell::Empty
                && !board.is_playout_eye(p, color)
                && game.is_legal(Move::Play(p), color)
        })
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    moves
}

/// What playouts say of the position after a pass of ours.
struct AfterPass {
    ownership: Ownership,
    /// Our share of wins.
    winrate: f64,
    /// The careful count (see [`pessimistic_dead_stones`]) from our side.
    count_for_us: f32,
}

/// What [`Searcher::decide`] chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (or pass).
    Play(Move),
    /// Give up.
    Resign,
}

/// Stop conditions shared by the search threads and the controlling thread.
struct Control {
    stop: AtomicBool,
    /// Simulations claimed by the threads.
    started: AtomicU64,
    /// Simulations finished.
    done: AtomicU64,
    /// Threads still searching.
    running: AtomicUsize,
    playout_limit: u64,
    start: Instant,
    /// The hard time limit.
    deadline: Option<Instant>,
    early_stop: bool,
}

/// A search thread's loop: simulations until a limit or a stop.
fn run_worker(
    worker: &mut Worker,
    shared: &Shared<'_>,
    ownership: &OwnershipCounts,
    control: &Control,
    first: bool,
) {
    loop {
        if control.stop.load(Relaxed) {
            break;
        }
        let k = control.started.fetch_add(1, Relaxed);
        if k >= control.playout_limit {
            break;
        }
        worker.simulate(shared, ownership);
        let done = control.done.fetch_add(1, Relaxed) + 1;
        if control.deadline.is_some_and(|d| Instant::now() >= d) {
            control.stop.store(true, Relaxed);
        }
        if first
            && control.early_stop
            && done.is_multiple_of(64)
            && cannot_change(shared.tree, control, done)
        {
            control.stop.store(true, Relaxed);
        }
    }
    control.running.fetch_sub(1, Release);
}

/// The ownership of the points of `board` over the playouts counted in `counts`, or `None`
/// before the first playout.
fn merge_ownership(board: &Board, counts: &[OwnershipCounts]) -> Option<Ownership> {
    let mut tally = OwnershipTally::new();
    for c in counts {
        c.add_to(&mut tally);
    }
    (tally.playouts() > 0).then(|| tally.ownership(board))
}

/// Whether the most visited root move stays ahead whatever the rest of the budget does.
fn cannot_change(tree: &Tree, control: &Control, done: u64) -> bool {
    let Some(children) = tree.root().children() else {
        return false;
    };
    let (mut first, mut second) = (0u64, 0u64);
    for c in children {
        let v = tree.get(c).visits() as u64;
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    let mut remaining = control.playout_limit.saturating_sub(done);
    if let Some(deadline) = control.deadline {
        let elapsed = control.start.elapsed().as_secs_f64();
        if elapsed < 0.05 {
            // Too early to know the rate.
            return false;
        }
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        remaining = remaining.min((done as f64 / elapsed * left) as u64);
    }
    first > second + remaining
}

/// Whether the most visited root move is also the one with the best value, so stopping at
/// the target time is safe (otherwise the search goes on towards its hard limit).
fn best_is_clear(tree: &Tree) -> bool {
    let Some(children) = tree.root().children() else {
        return true;
    };
    let mut most = None;
    let mut best_value = None;
    for c in children {
        let n = tree.get(c);
        let v = n.visits();
        if most.is_none_or(|(_, mv)| v > mv) {
            most = Some((c, v));
        }
        if v >= 10 {
            let m = n.mean().unwrap_or(0.0);
            if best_value.is_none_or(|(_, bm)| m > bm) {
                best_value = Some((c, m));
            }
        }
    }
    match (most, best_value) {
        (Some((a, _)), Some((b, _))) => a == b,
        _ => true,
    }
}

/// A summary of the tree below the root for `color`.
fn summarize(tree: &Tree, color: Color, playouts: u64, start: Instant) -> Summary {
    let root = tree.root();
    let mut candidates = Vec::new();
    if let Some(children) = root.children() {
        let total_prior: f64 = children
            .clone()
            .map(|c| {
                let n = tree.get(c);
                n.prior_value() * n.prior_visits() as f64
            })
            .sum();
        for c in children {
            let node = tree.get(c);
            let visits = node.visits();
            if visits == 0 {
                continue;
            }
            let winrate = node.mean().unwrap_or(0.5);
            let spread =
                1.96 * (winrate * (1.0 - winrate) / visits as f64).sqrt() + 1.0 / visits as f64;
            let score = node.mean_score().unwrap_or(0.0);
            candidates.push(Candidate {
                mv: node.mv(),
                visits,
                winrate,
                lcb: (winrate - spread).max(0.0),
                prior: if total_prior > 0.0 {
                    node.prior_value() * node.prior_visits() as f64 / total_prior
                } else {
                    0.0
                },
                score_lead: if color == Color::Black { score } else { -score },
                pv: principal_variation(tree, c),
            });
        }
    }
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    Summary {
        color,
        playouts,
        elapsed: start.elapsed(),
        candidates,
        root_visits: root.visits(),
        nodes: (tree.arena.used(), tree.arena.capacity()),
        ownership: None,
    }
}

/// The line starting at `id`: its move, then the most visited reply, and so on.
fn principal_variation(tree: &Tree, id: NodeId) -> Vec<Move> {
    let mut pv = vec![tree.get(id).mv()];
    let mut id = id;
    while pv.len() < 30 {
        let Some(children) = tree.get(id).children() else {
            break;
        };
        let Some(next) = children
            .filter(|&c| tree.get(c).visits() > 0)
            .max_by_key(|&c| tree.get(c).visits())
        else {
            break;
        };
        pv.push(tree.get(next).mv());
        id = next;
    }
    pv
}

/// Writes a one-line progress report to the log.
fn log_progress(board: &Board, s: &Summary) {
    let Some(best) = s.best() else {
        return;
    };
    log::info!(
        "{} playouts ({:.0}/s), best {} win {:.1}% visits {}, pv {}",
        s.playouts,
        s.rate(),
        board.move_name(best.mv),
        100.0 * best.winrate,
        best.visits,
        format_moves(board, &best.pv)
    );
}

/// Moves as GTP vertices separated by spaces.
pub fn format_moves(board: &Board, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| board.move_name(m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// In cleanup mode, a move that helps capture a dead opponent chain: among the candidates
/// nearly as good as the best, one on a liberty of a dead chain; else any safe such liberty.
fn cleanup_move(game: &Game, color: Color, dead: &DeadStones, summary: &Summary) -> Option<Move> {
    let board = game.board();
    let opp = Cell::stone(color.opponent());
    let on_dead_liberty = |p: Point| {
        board
            .neighbors(p)
            .iter()
            .any(|&n| board.cell(n) == opp && dead[n as usize])
    };
    let best_wr = summary
        .candidates
        .iter()
        .find(|c| c.mv != Move::Pass)
        .map_or(0.0, |c| c.winrate);
    for c in &summary.candidates {
        if let Move::Play(p) = c.mv
            && c.winrate >= best_wr - 0.05
            && on_dead_liberty(p)
        {
            return Some(c.mv);
        }
    }
    let mut best: Option<(Point, usize)> = None;
    for &p in board.empty_points() {
        if !on_dead_liberty(p) || !game.is_legal(Move::Play(p), color) {
            continue;
        }
        if tactics::liberties_after(board, p, color, 2) < 2 && !board.captures_any(p, color) {
            continue;
        }
        // Fewest liberties of the dead chain first: that finishes the capture soonest.
        let libs = board
            .neighbors(p)
            .iter()
            .filter(|&&n| board.cell(n) == opp && dead[n as usize])
            .map(|&n| board.liberties(n))
            .min()
            .unwrap_or(usize::MAX);
        if best.is_none_or(|(_, l)| libs < l) {
            best = Some((p, libs));
        }
    }
    best.map(|(p, _)| Move::Play(p)).or_else(|| {
        summary
            .candidates
            .iter()
            .find(|c| c.mv != Move::Pass)
            .map(|c| c.mv)
    })
}

/// Whether nothing is left to play for `color`: every point it could play is firmly owned by
/// one side (no dame, no open border) and every stone's fate is clear.
fn is_settled(game: &Game, color: Color, ownership: &Ownership) -> bool {
    let board = game.board();
    for p in board.points() {
        let o = ownership.black(p).abs();
        match board.cell(p) {
            Cell::Empty => {
                if o < 0.8 && !board.is_playout_eye(p, color) && game.is_legal(Move::Play(p), color)
                {
                    return false;
                }
            }
            _ => {
                if o < 0.6 {
                    return false;
                }
            }
        }
    }
    true
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
    }
}
