//! Move generation: Monte-Carlo tree search. This file is the driver: it prepares the tree
//! and the threads, runs the simulations, watches the limits and hands back the result.
//!
//! UCT with RAVE (all-moves-as-first) over a tree shared by all threads through atomic
//! counters ([`tree`]; a read lock per simulation only keeps them off the tree while one of
//! them reclaims its memory), new nodes seeded with cheap Go knowledge ([`priors`]), virtual
//! loss to spread the threads, Monte-Carlo playouts at the leaves ([`crate::playout`]), one
//! thread's work in `worker`. The tree is kept between moves: the moves played since the
//! last search select the subtree to go on with. Lines that end with two passes are counted with dead stones
//! removed ([`crate::score::settle`]).
//!
//! Around the driver, one file per concern: what a search is told ([`params`]), what it
//! reports ([`results`], [`report`]: an [`Observer`] gets log lines for people or `info`
//! lines for analysis GUIs), when it stops ([`stop`]), and the game sense that turns a
//! result into a move ([`decide`]: never pass into a loss, pass when the game is settled).
//! Resigning is the game's decision, not a search's: see [`Resignation`].

pub mod criticality;
pub mod decide;
pub mod dynkomi;
pub mod opening;
pub mod params;
pub mod priors;
pub mod report;
pub mod results;
pub mod stop;
pub mod tree;
mod worker;

use std::sync::RwLock;
use std::sync::atomic::{
    AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Acquire, Ordering::Relaxed,
    Ordering::Release,
};
use std::time::{Duration, Instant};

use crate::board::{Board, Cell, Color, MAX_POINTS, Move, Point};
use crate::game::Game;
use crate::playout::Policy;
use crate::rules::{KoRule, Scoring};
use crate::score::ownership::OwnershipTally;
use crate::score::settle::{TWO_PASS_DEAD_SHARE, dead_stones};
use crate::score::status::is_finished;
use crate::score::{DeadStones, Ownership, final_count};

pub use crate::score::effective_komi;
pub use decide::{Decision, Resignation};
pub use params::{
    DEFAULT_MAX_MEMORY, DEFAULT_RESIGN_THRESHOLD, Limits, Mode, Params, SearchConfig,
};
pub use report::{LogObserver, Observer};
pub use results::{Candidate, PV_MAX_MOVES, SearchResult, Summary, format_moves};

use criticality::RootCriticality;
use priors::{move_prior, with_policy};
use report::log_progress;
use results::summarize;
use stop::{
    Control, EARLY_STOP_CHECK_EVERY, MIN_SIMULATIONS, best_is_clear, cannot_change, reclaim_fits,
    reclaim_if_needed,
};
use tree::Tree;
use worker::{OwnershipCounts, Shared, Worker};

/// Fewest nodes a tree gets whatever the memory cap says: room for the root's children on
/// the biggest board and a little search below them.
const MIN_TREE_NODES: usize = 1024;

/// Two-pass endings matter late in the game: once at least half the board is filled (or
/// right after a pass), the search judges dead stones for them before it starts. This is
/// the share of empty points, at most, that counts as late.
const LATE_EMPTY_SHARE: f64 = 0.5;

/// How often the search logs its progress (at `info` level).
const LOG_INTERVAL: Duration = Duration::from_secs(1);

/// Longest nap of the controlling thread between looks at the limits and the observer: a
/// stop request is seen within this.
const CONTROL_NAP: Duration = Duration::from_millis(5);

/// A search set-up (tree reuse, priming) slower than this is logged at `debug` level.
const SLOW_SETUP: Duration = Duration::from_millis(50);

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
    /// Who owned each root move's point and who won, over this search's simulations.
    criticality: RootCriticality,
    searches: u64,
    /// Extra komi for White the searches count with (dynamic komi, [`dynkomi`]).
    extra_komi: f32,
    /// Seconds the reading after a search took lately (a running mean): the search leaves
    /// them out of its time, so that the move as a whole keeps to the time it was given.
    read_reserve: f64,
    /// When the last search's move runs out of time: the reading after it stops there.
    move_deadline: Option<Instant>,
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
            criticality: RootCriticality::new(),
            searches: 0,
            extra_komi: 0.0,
            read_reserve: 0.0,
            move_deadline: None,
        }
    }

    /// The tree of the last search (`None` before the first): for tests and reports.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Makes the next searches count with `points` of extra komi for White (negative for
    /// Black) beyond the game's: dynamic komi in handicap games ([`dynkomi`]). The tree is
    /// kept across such changes; only the evaluation of new simulations moves.
    pub fn set_extra_komi(&mut self, points: f32) {
        self.extra_komi = points;
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
        self.move_deadline = limits.deadline(start);
        let limits = if self.config.params.group_defence_for(game.size()) {
            leave_time_for_reading(limits, Duration::from_secs_f64(self.read_reserve))
        } else {
            limits
        };
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
        if self.config.params.crit_rave > 0.0 {
            self.criticality.clear();
        }
        self.searches += 1;

        let game_komi = effective_komi(game);
        let komi = game_komi + self.extra_komi;
        let size = game.size();
        let capacity = (self.config.max_memory / NODE_BYTES).max(MIN_TREE_NODES);
        let key = RootKey::of(game, color, game_komi);
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

        // Judge dead stones for the lines that end with two passes; in cleanup mode every
        // stone counts as alive, so the search captures dead stones before passing; under
        // Tromp-Taylor rules every stone on the board counts as it stands. Two-pass endings
        // only matter late in the game (or right after a pass).
        let mut moves = root_moves(game, color);
        let late = root_board.empty_points().len() as f64
            <= LATE_EMPTY_SHARE * (size * size) as f64
            || initial_passes > 0;
        let primed = (params.prime_playouts > 0 && moves.len() > 1 && late).then(|| {
            self.workers[0].prime_ownership(
                game,
                color,
                komi,
                self.config.policy,
                &params,
                params.prime_playouts,
            )
        });
        let dead: DeadStones = match (&primed, mode) {
            (Some(own), Mode::Normal) if game.rules().remove_dead_stones => {
                dead_stones(root_board, own, TWO_PASS_DEAD_SHARE)
            }
            _ => no_dead,
        };
        // After the opponent's pass, passing back ends the game. A person expects play to go
        // on while the game is still open, so the search then looks only at real moves
        // (`decide` still passes when going on loses).
        let pass_withheld = initial_passes > 0
            && mode == Mode::Normal
            && game.rules().remove_dead_stones
            && moves.len() > 1
            && !is_finished(root_board, &final_count(game).0);
        if pass_withheld {
            moves.retain(|&mv| mv != Move::Pass);
        }
        if params.opening_corners
            && let Some(corners) = opening::empty_corner_moves(game, color)
            && moves.iter().any(|mv| corners.contains(mv))
        {
            moves.retain(|mv| corners.contains(mv));
        }

        // Root children: exactly the moves the game allows (superko included).
        let prediction = (priors.policy > 0).then(crate::policy::active);
        let root_policy = prediction.map_or_else(Vec::new, |model| {
            crate::policy::game_probabilities(model, game, color)
        });
        let mut scratch = Board::new(size);
        let mut root_prior = |mv: Move| {
            let rules = move_prior(root_board, mv, color, &priors, &mut scratch);
            match root_policy.iter().find(|&&(m, _)| m == mv) {
                Some(&(_, probability)) => {
                    let (n, v) = with_policy(mv, rules, priors.policy, probability);
                    (n, v, probability)
                }
                None => (rules.0, rules.1, 0.0),
            }
        };
        let deadline = limits.deadline(start);
        // Reclaim when the tree kept from the last search fills the arena, or leaves no room
        // for the root's new children (with a small cap this comes before the reclaim mark).
        let no_room = tree.arena.used() + moves.len() > tree.arena.capacity();
        if tree.needs_reclaim() || no_room {
            if reclaim_fits(&tree, deadline) {
                tree.reclaim(tree.arena.capacity() / 2);
            } else {
                // Reclaiming the tree kept from the last search (a long analysis) would
                // cost more than this move's time: start afresh instead.
                tree.clear();
            }
        }
        let root = tree.root_id();
        if !tree.set_children(root, &moves, &mut root_prior) {
            // The arena is full of the old tree: start afresh.
            tree.clear();
            let root = tree.root_id();
            tree.set_children(root, &moves, &mut root_prior);
        }

        let shared = Shared {
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
            prediction,
            expand_threshold,
            dead: &dead,
            initial_passes,
            sole_writer: threads == 1,
            criticality: &self.criticality,
        };

        let setup = start.elapsed();
        if setup > SLOW_SETUP {
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
            deadline,
            early_stop: params.early_stop
                && limits.early_stop
                && (limits.playouts.is_some() || limits.time.is_some()),
            best2_ratio: params.best2_ratio,
            behind_time: params.behind_time,
            tree_lock: RwLock::new(()),
            reclaims: AtomicU32::new(0),
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
            let mut next_log = start + LOG_INTERVAL;
            let interval = observer.interval();
            let mut next_report = interval.map(|i| start + i);
            while control.running.load(Acquire) > 0 {
                let now = Instant::now();
                if observer.should_stop() {
                    control.stop.store(true, Relaxed);
                }
                if let Some(t) = target
                    && now >= t
                    && control.done.load(Relaxed) >= MIN_SIMULATIONS
                    && best_is_clear(&tree, &control)
                {
                    control.stop.store(true, Relaxed);
                }
                if now >= next_log {
                    let s = summarize(&tree, &control, color, start);
                    log_progress(root_board, &s);
                    next_log = now + LOG_INTERVAL;
                }
                if let (Some(at), Some(i)) = (next_report, interval)
                    && now >= at
                {
                    let mut s = summarize(&tree, &control, color, start);
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
                    .min(CONTROL_NAP);
                std::thread::sleep(nap);
            }
        });
        let summary = summarize(&tree, &control, color, start);
        let ownership = merge_ownership(root_board, &self.ownership[..threads])
            .or(primed)
            .unwrap_or_else(Ownership::none);
        let score = tree.root().mean_score().unwrap_or(0.0);
        self.tree = Some(tree);
        SearchResult {
            summary,
            ownership,
            score,
            pass_withheld,
        }
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
        let mut id = tree.root_id();
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

/// The ownership `n` playouts from `game`'s position find without the tree, the playouts
/// configured as the search's with `params` (its steps and rates) and seeded by `seed`: the
/// playouts' own judgement of the position, as `shoutan bench-playouts` scores it.
pub fn playout_ownership(
    game: &Game,
    params: &Params,
    policy: Policy,
    n: u32,
    seed: u64,
) -> Ownership {
    let mut worker = Worker::new(seed);
    worker.prime_ownership(
        game,
        game.to_move(),
        effective_komi(game),
        policy,
        params,
        n,
    )
}

/// The moves searched at the root: every legal move (superko included) that does not fill
/// one of `color`'s own eyes, and pass.
pub fn root_moves(game: &Game, color: Color) -> Vec<Move> {
    let board = game.board();
    let mut moves: Vec<Move> = board
        .points()
        .filter(|&p| {
            board.cell(p) == Cell::Empty
                && !board.is_playout_eye(p, color)
                && game.is_legal(Move::Play(p), color)
        })
        .map(Move::Play)
        .collect();
    moves.push(Move::Pass);
    moves
}

/// `limits` with `reserve` taken off their times (never more than half of them), for the
/// reading [`Searcher::decide`] does after the search: the move as a whole, search and
/// reading, then takes about the time it was given.
fn leave_time_for_reading(limits: Limits, reserve: Duration) -> Limits {
    let cut = |t: Duration| t.saturating_sub(reserve).max(t / 2);
    Limits {
        time: limits.time.map(cut),
        max_time: limits.max_time.map(cut),
        ..limits
    }
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
        let tree_guard = control.read_tree();
        worker.simulate(shared, ownership);
        let done = control.done.fetch_add(1, Relaxed) + 1;
        if done >= MIN_SIMULATIONS && control.deadline.is_some_and(|d| Instant::now() >= d) {
            control.stop.store(true, Relaxed);
        }
        if first
            && control.early_stop
            && done.is_multiple_of(EARLY_STOP_CHECK_EVERY)
            && cannot_change(shared.tree, control, done)
        {
            control.stop.store(true, Relaxed);
        }
        drop(tree_guard);
        reclaim_if_needed(shared.tree, control);
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
