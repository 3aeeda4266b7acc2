//! When a search stops: its limits, an outside stop, and the two rules that end it early
//! (`cannot_change`: the best move is decided whatever the rest of the budget does;
//! `best_is_clear`: at the target time, stop only if the most visited move is also the
//! best valued). The lock that lets a thread reclaim the tree's memory while the others
//! wait ([`reclaim_if_needed`]) lives here too, with the other things the threads share.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{PoisonError, RwLock, RwLockReadGuard};
use std::time::Instant;

use super::tree::Tree;

/// How often (in playouts) the first thread checks whether the best move can still
/// change: often enough to stop within a few milliseconds, rarely enough to cost nothing.
pub(super) const EARLY_STOP_CHECK_EVERY: u64 = 64;

/// Seconds of searching before the playout rate is trusted to project how many playouts
/// the time left allows (the first ones include warming caches and the first expansions).
const RATE_WARMUP_SECONDS: f64 = 0.05;

/// Simulations a timed search runs even past its deadline: on a starved machine (or with a
/// tiny budget) the set-up can eat the whole move time, and a search without a single
/// simulation could only answer a pass. A few dozen simulations cost milliseconds.
pub(super) const MIN_SIMULATIONS: u64 = 64;

/// Visits a root move needs before its value may count as the best: fewer is noise.
const BEST_VALUE_MIN_VISITS: u32 = 10;

/// Seconds a reclaim is taken to need per node in use: the slowest measured (3.4 s for 15.7
/// million nodes on a loaded machine, docs/performance.md), rounded up.
const RECLAIM_SECONDS_PER_NODE: f64 = 2.5e-7;

/// Stop conditions shared by the search threads and the controlling thread.
pub(super) struct Control {
    /// Raised to stop every thread.
    pub(super) stop: AtomicBool,
    /// Simulations claimed by the threads.
    pub(super) started: AtomicU64,
    /// Simulations finished.
    pub(super) done: AtomicU64,
    /// Threads still searching.
    pub(super) running: AtomicUsize,
    /// Simulations allowed in all.
    pub(super) playout_limit: u64,
    /// When the simulations started (after the set-up), for the playout rate.
    pub(super) start: Instant,
    /// The hard time limit.
    pub(super) deadline: Option<Instant>,
    /// Whether the first thread may stop once the best move cannot change.
    pub(super) early_stop: bool,
    /// The most visited root move is clear only with this many times the visits of the
    /// second ([`super::Params::best2_ratio`]; 0: any lead).
    pub(super) best2_ratio: f32,
    /// The best move is not clear while its win rate is below this
    /// ([`super::Params::behind_time`]; 0: off).
    pub(super) behind_time: f32,
    /// Held shared by each thread for each simulation (and by the controlling thread while
    /// it reads the tree), exclusively by a reclaim ([`Tree::reclaim`]), which moves nodes
    /// under everyone's feet.
    pub(super) tree_lock: RwLock<()>,
    /// Reclaims in this search.
    pub(super) reclaims: AtomicU32,
}

impl Control {
    /// Shared access to the tree: no reclaim runs while the guard lives.
    pub(super) fn read_tree(&self) -> RwLockReadGuard<'_, ()> {
        // The lock guards no data: a thread that panicked holding it left nothing broken.
        self.tree_lock
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reclaims the tree's memory once it is nearly full ([`Tree::needs_reclaim`]): keeps half
/// the arena, the most visited part, so the search goes on deepening within its memory cap.
/// The caller must not hold the tree lock; this takes it exclusively, waiting for the other
/// threads to finish their simulation. Returns whether this call reclaimed.
pub(super) fn reclaim_if_needed(tree: &Tree, control: &Control) -> bool {
    if !tree.needs_reclaim() || !reclaim_fits(tree, control.deadline) {
        return false;
    }
    let _exclusive = control
        .tree_lock
        .write()
        .unwrap_or_else(PoisonError::into_inner);
    // Another thread may have reclaimed while this one waited.
    if !tree.needs_reclaim() {
        return false;
    }
    let started = Instant::now();
    let r = tree.reclaim(tree.arena.capacity() / 2);
    control.reclaims.fetch_add(1, Relaxed);
    log::debug!(
        "tree reclaimed: {} of {} nodes kept (children kept from {} visits) in {:.3} s",
        r.kept,
        r.before,
        r.threshold,
        started.elapsed().as_secs_f64()
    );
    true
}

/// Whether a reclaim of `tree` would be over before `deadline` (without one: always). A
/// reclaim stops every thread for a time that grows with the nodes in use (seconds for a
/// full default arena); when it would overrun a timed move, the search goes on without it
/// and the tree stops growing until the move is played (the next search starts from the
/// chosen move's subtree, a fraction of the whole).
pub(super) fn reclaim_fits(tree: &Tree, deadline: Option<Instant>) -> bool {
    deadline.is_none_or(|d| {
        let left = d.saturating_duration_since(Instant::now()).as_secs_f64();
        tree.arena.used() as f64 * RECLAIM_SECONDS_PER_NODE < left
    })
}

/// Whether the most visited root move stays ahead whatever the rest of the budget does.
pub(super) fn cannot_change(tree: &Tree, control: &Control, done: u64) -> bool {
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
        if elapsed < RATE_WARMUP_SECONDS {
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
/// the target time is safe (otherwise the search goes on towards its hard limit). Takes the
/// tree lock shared (it runs on the controlling thread).
pub(super) fn best_is_clear(tree: &Tree, control: &Control) -> bool {
    let _shared = control.read_tree();
    let Some(children) = tree.root().children() else {
        return true;
    };
    let mut most = None;
    let mut second = 0;
    let mut best_value = None;
    for c in children {
        let n = tree.get(c);
        let v = n.visits();
        if most.is_none_or(|(_, mv)| v > mv) {
            second = most.map_or(0, |(_, mv)| mv);
            most = Some((c, v));
        } else if v > second {
            second = v;
        }
        if v >= BEST_VALUE_MIN_VISITS {
            let m = n.mean().unwrap_or(0.0);
            if best_value.is_none_or(|(_, bm)| m > bm) {
                best_value = Some((c, m));
            }
        }
    }
    if let Some((_, v)) = most
        && control.best2_ratio > 0.0
        && (v as f32) < control.best2_ratio * second as f32
    {
        return false;
    }
    if let Some((_, m)) = best_value
        && m < f64::from(control.behind_time)
    {
        return false;
    }
    match (most, best_value) {
        (Some((a, _)), Some((b, _))) => a == b,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A tree of `capacity` nodes with `used` of them handed out.
    fn tree_using(capacity: usize, used: usize) -> Tree {
        let tree = Tree::new(capacity);
        let already = tree.arena.used();
        assert!(tree.arena.alloc(used - already).is_some());
        assert_eq!(tree.arena.used(), used);
        tree
    }

    /// A control block for a search that started now, with `best2_ratio`.
    fn control_with(best2_ratio: f32) -> Control {
        Control {
            stop: AtomicBool::new(false),
            started: AtomicU64::new(0),
            done: AtomicU64::new(0),
            running: AtomicUsize::new(1),
            playout_limit: u64::MAX,
            start: Instant::now(),
            deadline: None,
            early_stop: false,
            best2_ratio,
            behind_time: 0.0,
            tree_lock: RwLock::new(()),
            reclaims: AtomicU32::new(0),
        }
    }

    /// A root with two children: `visits` simulations each, the first child winning them all
    /// and the second none.
    fn two_moves(visits: [u32; 2]) -> Tree {
        two_moves_winning(visits, visits[0])
    }

    /// A root with two children: `visits` simulations each, the first child winning
    /// `first_wins` of its own and the second none.
    fn two_moves_winning(visits: [u32; 2], first_wins: u32) -> Tree {
        let mut tree = Tree::new(100);
        let root = tree.root_id();
        let moves = [crate::board::Move::Play(10), crate::board::Move::Play(11)];
        assert!(tree.set_children(root, &moves, |_| (0, 0.5, 0.0)));
        for (i, mv) in moves.iter().enumerate() {
            let child = tree.get(tree.child_by_move(root, *mv).unwrap());
            for k in 0..visits[i] {
                child.add_visit();
                child.add_result(if i == 0 && k < first_wins { 1.0 } else { 0.0 }, 0.0);
            }
        }
        tree
    }

    #[test]
    fn a_close_second_keeps_the_best_move_unclear_only_with_a_ratio() {
        // The first move leads in visits and in value: clear without a ratio.
        let close = two_moves([20, 10]);
        assert!(best_is_clear(&close, &control_with(0.0)));
        // 20 visits are fewer than 2.5 times 10.
        assert!(!best_is_clear(&close, &control_with(2.5)));
        // 20 visits are more than 2.5 times 5.
        assert!(best_is_clear(&two_moves([20, 5]), &control_with(2.5)));
        // The most visited move without the best value is never clear.
        let reversed = two_moves([10, 40]);
        assert!(!best_is_clear(&reversed, &control_with(0.0)));
    }

    #[test]
    fn a_player_behind_keeps_looking() {
        // The best move wins 30 of its 40 simulations: 75%.
        let tree = two_moves_winning([40, 10], 30);
        let mut control = control_with(2.5);
        assert!(best_is_clear(&tree, &control), "off by default");
        control.behind_time = 0.7;
        assert!(best_is_clear(&tree, &control), "75% is not behind 70%");
        control.behind_time = 0.8;
        assert!(!best_is_clear(&tree, &control), "75% is behind 80%");
    }

    #[test]
    fn a_reclaim_waits_for_a_deadline_it_would_miss() {
        // 4 million nodes take about a second to reclaim at the assumed rate.
        let tree = tree_using(4_200_000, 4_000_000);
        let now = Instant::now();
        assert!(reclaim_fits(&tree, None), "analysis has no deadline");
        assert!(reclaim_fits(&tree, Some(now + Duration::from_secs(30))));
        assert!(!reclaim_fits(&tree, Some(now + Duration::from_millis(200))));
        assert!(
            !reclaim_fits(&tree, Some(now)),
            "a passed deadline leaves no time"
        );
        // A small tree reclaims in well under the 200 ms left.
        let small = tree_using(200_000, 100_000);
        assert!(reclaim_fits(&small, Some(now + Duration::from_millis(200))));
    }
}
