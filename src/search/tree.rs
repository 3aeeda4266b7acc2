//! The search tree: nodes in one preallocated arena, shared by all search threads without locks.
//!
//! Every statistic of a [`Node`] is an atomic integer, so threads update the tree with plain
//! atomic adds. A node's children are one contiguous block of the [`Arena`]; a thread expands a
//! leaf by winning a compare-and-swap on its state, writing the children, and publishing them
//! with a release store. Other threads that reach the leaf meanwhile simply run a playout from
//! it. Between searches the subtree that stays useful is slid to the front of the arena
//! ([`Tree::compact`]) and the rest is forgotten. When a search fills the arena up to
//! [`RECLAIM_AT_SIXTEENTHS`]/16, the least visited subtrees are dropped ([`Tree::reclaim`], as
//! Pachi prunes its tree): the search threads hold a read lock per simulation, the reclaim
//! holds it exclusively, so the tree keeps deepening within its memory cap.
//!
//! Values are stored from the point of view of the player who made the move leading to the
//! node, as sums in units of [`VALUE_UNIT`] per win.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU16, AtomicU32, AtomicU64};
use std::sync::atomic::{AtomicUsize, Ordering::*};

use crate::board::{Move, NO_POINT};

/// Index of a node in the arena.
pub type NodeId = u32;

/// The largest subtree [`Tree::compact`] slides to the front of the arena: about 0.15 s of
/// copying here (`cargo bench --bench tree`).
pub const MAX_SLIDE_NODES: usize = 8_000_000;

/// A search reclaims memory ([`Tree::reclaim`]) once this many sixteenths of the arena are
/// in use: the last sixteenth leaves the threads room to go on expanding while one of them
/// waits for the others to finish their simulation.
pub const RECLAIM_AT_SIXTEENTHS: usize = 15;

/// The most prior visits a node holds ([`Node::init`] caps them): they are stored in 16 bits.
pub const MAX_PRIOR_VISITS: u32 = u16::MAX as u32;

/// One win in the fixed-point value sums.
pub const VALUE_UNIT: f64 = 65536.0;

/// One AMAF visit in the AMAF visit counter (weighted updates count fractions of a visit;
/// a u32 counter holds 67 million updates of the largest weight).
pub const RAVE_UNIT: f64 = 32.0;

/// Score sums are kept in units of 1/`SCORE_UNIT` point.
pub const SCORE_UNIT: f64 = 16.0;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// A node: the position after its move, with the statistics of the simulations through it.
/// 48 bytes (a test checks it): the arena's size is what a player's memory pays for.
#[derive(Debug, Default)]
pub struct Node {
    /// First child in the arena (valid once expanded).
    first_child: AtomicU32,
    /// Simulations through this node, in flight ones included (they count as losses until
    /// their result arrives: the virtual loss that spreads threads over the tree).
    visits: AtomicU32,
    /// Sum of results for the player who moved into this node, in `VALUE_UNIT`s.
    wins: AtomicU64,
    /// All-moves-as-first: simulations from the parent in which this move was played later
    /// by the same player, and their results.
    rave_visits: AtomicU32,
    rave_wins: AtomicU64,
    /// Sum of final scores (Black minus White, komi included), in 1/`SCORE_UNIT` points.
    score_sum: AtomicI64,
    /// Prior knowledge as equivalent experience: this many visits (at most
    /// [`MAX_PRIOR_VISITS`])...
    prior_visits: AtomicU16,
    /// ...worth this many wins, in `VALUE_UNIT`s (fits: at most 65535 visits of 65536 units).
    prior_wins: AtomicU32,
    /// The move into this node: a point, or `NO_POINT` for a pass.
    mv: AtomicU16,
    /// Number of children (valid once expanded).
    child_count: AtomicU16,
    /// `LEAF`, `EXPANDING` or `EXPANDED`.
    state: AtomicU8,
    /// The learned policy's probability of the move, on a log scale ([`encode_policy`]);
    /// 0 when the move had none.
    policy: AtomicU8,
}

/// A plain copy of a node's fields, for moving subtrees around between searches.
#[derive(Clone, Copy, Debug, Default)]
struct NodeData {
    first_child: u32,
    visits: u32,
    wins: u64,
    rave_visits: u32,
    rave_wins: u64,
    score_sum: i64,
    prior_visits: u16,
    prior_wins: u32,
    mv: u16,
    child_count: u16,
    state: u8,
    policy: u8,
}

/// Steps of the policy code per halving of the probability: probabilities from 1 down to
/// 2^-15 fit in a byte with 4% steps.
const POLICY_STEPS_PER_HALVING: f32 = 16.0;

/// Encodes a probability for [`Node::policy`]: 1 for certainty, one more per 1/16 halving,
/// 0 for none (below 2^-15 or not given).
fn encode_policy(p: f32) -> u8 {
    if p.is_nan() || p <= 0.0 {
        return 0;
    }
    let steps = (-p.min(1.0).log2() * POLICY_STEPS_PER_HALVING).round();
    if steps >= 254.0 { 0 } else { 1 + steps as u8 }
}

/// Encodes a move for [`Node::mv`].
fn move_code(mv: Move) -> u16 {
    match mv {
        Move::Pass => NO_POINT,
        Move::Play(p) => p,
    }
}

impl Node {
    /// Makes this node a fresh leaf for `mv` with prior knowledge `prior_visits` visits (at
    /// most [`MAX_PRIOR_VISITS`]) worth `prior_value` (0..1) each.
    pub fn init(&self, mv: Move, prior_visits: u32, prior_value: f32) {
        self.init_with_policy(mv, prior_visits, prior_value, 0.0);
    }

    /// [`Node::init`] for a move the learned policy gives probability `policy`.
    pub fn init_with_policy(&self, mv: Move, prior_visits: u32, prior_value: f32, policy: f32) {
        let prior_visits = prior_visits.min(MAX_PRIOR_VISITS);
        self.store(&NodeData {
            mv: move_code(mv),
            prior_visits: prior_visits as u16,
            // At most 65535 · 65536 < 2³²: exact in 32 bits.
            prior_wins: (prior_visits as f64 * prior_value.clamp(0.0, 1.0) as f64 * VALUE_UNIT)
                as u32,
            policy: encode_policy(policy),
            ..NodeData::default()
        });
    }

    fn load(&self) -> NodeData {
        NodeData {
            first_child: self.first_child.load(Relaxed),
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed),
            rave_visits: self.rave_visits.load(Relaxed),
            rave_wins: self.rave_wins.load(Relaxed),
            score_sum: self.score_sum.load(Relaxed),
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed),
            mv: self.mv.load(Relaxed),
            child_count: self.child_count.load(Relaxed),
            policy: self.policy.load(Relaxed),
            state: match self.state.load(Acquire) {
                EXPANDED => EXPANDED,
                _ => LEAF,
            },
        }
    }

    fn store(&self, d: &NodeData) {
        self.first_child.store(d.first_child, Relaxed);
        self.visits.store(d.visits, Relaxed);
        self.wins.store(d.wins, Relaxed);
        self.rave_visits.store(d.rave_visits, Relaxed);
        self.rave_wins.store(d.rave_wins, Relaxed);
        self.score_sum.store(d.score_sum, Relaxed);
        self.prior_visits.store(d.prior_visits, Relaxed);
        self.prior_wins.store(d.prior_wins, Relaxed);
        self.mv.store(d.mv, Relaxed);
        self.child_count.store(d.child_count, Relaxed);
        self.policy.store(d.policy, Relaxed);
        self.state.store(d.state, Release);
    }

    /// The move leading to this node.
    #[inline]
    pub fn mv(&self) -> Move {
        match self.mv.load(Relaxed) {
            NO_POINT => Move::Pass,
            p => Move::Play(p),
        }
    }

    /// The children, once the node is expanded.
    #[inline]
    pub fn children(&self) -> Option<Range<NodeId>> {
        if self.state.load(Acquire) != EXPANDED {
            return None;
        }
        let first = self.first_child.load(Relaxed);
        Some(first..first + self.child_count.load(Relaxed) as u32)
    }

    /// Whether the node is still a leaf that no thread is expanding.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.state.load(Relaxed) == LEAF
    }

    /// Claims the right to expand this leaf; true for exactly one thread.
    #[inline]
    pub fn try_begin_expand(&self) -> bool {
        self.state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Publishes the children written at `first..first + count` (after `try_begin_expand`).
    pub fn finish_expand(&self, first: NodeId, count: usize) {
        self.first_child.store(first, Relaxed);
        self.child_count.store(count as u16, Relaxed);
        self.state.store(EXPANDED, Release);
    }

    /// Gives up an expansion (the arena is full): the node stays a leaf for good.
    pub fn abandon_expand(&self) {
        // EXPANDING forever: nobody tries again, and children() stays None.
    }

    /// Simulations through this node, in flight ones included.
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Counts a simulation entering the node (a virtual loss until its result arrives).
    #[inline]
    pub fn add_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }

    /// Counts a simulation entering the node with a virtual loss worth `loss` visits (at
    /// least 1); [`Node::release_virtual_loss`] takes back all but one when the result comes.
    #[inline]
    pub fn add_virtual_loss(&self, loss: u32) {
        self.visits.fetch_add(loss.max(1), Relaxed);
    }

    /// Ends the virtual loss of [`Node::add_virtual_loss`]: one real visit remains.
    #[inline]
    pub fn release_virtual_loss(&self, loss: u32) {
        if loss > 1 {
            self.visits.fetch_sub(loss - 1, Relaxed);
        }
    }

    /// Adds a simulation's result, `value` in 0..1 for the player who moved into this node,
    /// and its final `score` (Black's view).
    #[inline]
    pub fn add_result(&self, value: f64, score: f64) {
        self.wins.fetch_add((value * VALUE_UNIT) as u64, Relaxed);
        self.score_sum
            .fetch_add((score * SCORE_UNIT).round() as i64, Relaxed);
    }

    /// Adds an all-moves-as-first result for the player who moved into this node, counted
    /// `weight` times (0..=2). `sole_writer`: the caller is the only thread writing to the
    /// tree, so a plain load and store does (a search updates dozens of nodes' AMAF values
    /// per simulation, and an atomic add is a locked instruction).
    #[inline]
    pub fn add_rave(&self, value: f64, weight: f64, sole_writer: bool) {
        let visits = (weight * RAVE_UNIT) as u32;
        let wins = (weight * value * VALUE_UNIT) as u64;
        if sole_writer {
            let v = self.rave_visits.load(Relaxed);
            self.rave_visits.store(v.wrapping_add(visits), Relaxed);
            let w = self.rave_wins.load(Relaxed);
            self.rave_wins.store(w.wrapping_add(wins), Relaxed);
        } else {
            self.rave_visits.fetch_add(visits, Relaxed);
            self.rave_wins.fetch_add(wins, Relaxed);
        }
    }

    /// Mean result of the real simulations for the player who moved into this node, if any.
    pub fn mean(&self) -> Option<f64> {
        let v = self.visits();
        (v > 0).then(|| self.wins.load(Relaxed) as f64 / VALUE_UNIT / v as f64)
    }

    /// Mean final score (Black's view) of the simulations through this node, if any.
    pub fn mean_score(&self) -> Option<f64> {
        let v = self.visits();
        (v > 0).then(|| self.score_sum.load(Relaxed) as f64 / SCORE_UNIT / v as f64)
    }

    /// The statistics the selection rule needs, read once.
    #[inline]
    pub fn stats(&self) -> Stats {
        Stats {
            visits: self.visits.load(Relaxed) as f32,
            wins: (self.wins.load(Relaxed) as f64 / VALUE_UNIT) as f32,
            rave_visits: (self.rave_visits.load(Relaxed) as f64 / RAVE_UNIT) as f32,
            rave_wins: (self.rave_wins.load(Relaxed) as f64 / VALUE_UNIT) as f32,
            prior_visits: self.prior_visits.load(Relaxed) as f32,
            prior_wins: (self.prior_wins.load(Relaxed) as f64 / VALUE_UNIT) as f32,
        }
    }

    /// The prior's value (0..1) for the player who moved into this node.
    pub fn prior_value(&self) -> f64 {
        let n = self.prior_visits.load(Relaxed);
        if n == 0 {
            0.5
        } else {
            self.prior_wins.load(Relaxed) as f64 / VALUE_UNIT / n as f64
        }
    }

    /// The learned policy's probability of the move (0 when it had none).
    #[inline]
    pub fn policy(&self) -> f32 {
        match self.policy.load(Relaxed) {
            0 => 0.0,
            code => (-((code - 1) as f32) / POLICY_STEPS_PER_HALVING).exp2(),
        }
    }

    /// The prior's weight in equivalent visits.
    pub fn prior_visits(&self) -> u32 {
        self.prior_visits.load(Relaxed) as u32
    }
}

/// A node's statistics as floats, from the point of view of the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Real visits (in flight ones included).
    pub visits: f32,
    /// Wins among them.
    pub wins: f32,
    /// AMAF visits.
    pub rave_visits: f32,
    /// AMAF wins.
    pub rave_wins: f32,
    /// Prior equivalent visits.
    pub prior_visits: f32,
    /// Prior equivalent wins.
    pub prior_wins: f32,
}

/// A fixed-capacity pool of nodes, allocated once, handed out in contiguous blocks.
pub struct Arena {
    nodes: Box<[Node]>,
    next: AtomicUsize,
    full: AtomicBool,
}

impl Arena {
    /// An arena for `capacity` nodes (at least 1). The memory is requested zeroed, so the
    /// operating system only commits the pages the search actually touches.
    pub fn new(capacity: usize) -> Arena {
        let capacity = capacity.max(1);
        let zeroed = Box::<[Node]>::new_zeroed_slice(capacity);
        // SAFETY: a Node consists only of atomic integers, for which all-zero bytes are a
        // valid value (0, a fresh leaf).
        let nodes = unsafe { zeroed.assume_init() };
        Arena {
            nodes,
            next: AtomicUsize::new(0),
            full: AtomicBool::new(false),
        }
    }

    /// How many nodes fit.
    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// How many nodes are in use.
    pub fn used(&self) -> usize {
        self.next.load(Relaxed).min(self.nodes.len())
    }

    /// Whether an allocation has failed since the last reset.
    pub fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Reserves `n` contiguous nodes, or `None` when the arena is full. The caller initialises
    /// them before publishing.
    #[inline]
    pub fn alloc(&self, n: usize) -> Option<NodeId> {
        if self.full.load(Relaxed) {
            return None;
        }
        let start = self.next.fetch_add(n, Relaxed);
        if start + n > self.nodes.len() || start + n > NodeId::MAX as usize {
            self.full.store(true, Relaxed);
            return None;
        }
        Some(start as NodeId)
    }

    /// The node `id`.
    #[inline]
    pub fn get(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Forgets every node.
    pub fn reset(&mut self) {
        *self.next.get_mut() = 0;
        *self.full.get_mut() = false;
    }

    /// Keeps the first `used` nodes and forgets the rest (after a reclaim, while no other
    /// thread allocates).
    fn restart(&self, used: usize) {
        self.next.store(used.min(self.nodes.len()), Relaxed);
        self.full.store(false, Relaxed);
    }
}

/// The tree: an arena and the root node.
pub struct Tree {
    /// Where the nodes live.
    pub arena: Arena,
    /// The root: the position searched, reached by the opponent's last move. Changed only
    /// between searches or by a reclaim, when no other thread looks at the tree.
    root: AtomicU32,
    /// Reclaims since the tree was made (for reports).
    reclaims: AtomicU64,
}

/// What one [`Tree::reclaim`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reclaim {
    /// Nodes in use before.
    pub before: usize,
    /// Nodes kept (now in use).
    pub kept: usize,
    /// Visits a node needed to keep its children (`u64::MAX`: only the root kept them).
    pub threshold: u64,
}

impl Tree {
    /// An empty tree (a single fresh root) holding at most `capacity` nodes.
    pub fn new(capacity: usize) -> Tree {
        let mut tree = Tree {
            arena: Arena::new(capacity.max(2)),
            root: AtomicU32::new(0),
            reclaims: AtomicU64::new(0),
        };
        tree.clear();
        tree
    }

    /// Forgets everything but a fresh root.
    pub fn clear(&mut self) {
        self.arena.reset();
        // The arena holds at least two nodes, so this cannot fail.
        let root = self.arena.alloc(1).unwrap_or(0);
        *self.root.get_mut() = root;
        self.arena.get(root).init(Move::Pass, 0, 0.5);
    }

    /// The root's id.
    #[inline]
    pub fn root_id(&self) -> NodeId {
        self.root.load(Relaxed)
    }

    /// The root node.
    pub fn root(&self) -> &Node {
        self.arena.get(self.root_id())
    }

    /// The node `id`.
    #[inline]
    pub fn get(&self, id: NodeId) -> &Node {
        self.arena.get(id)
    }

    /// The child of `id` reached by `mv`, if `id` is expanded and has it.
    pub fn child_by_move(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.get(id).children()?.find(|&c| self.get(c).mv() == mv)
    }

    /// Reclaims done since the tree was made.
    pub fn reclaims(&self) -> u64 {
        self.reclaims.load(Relaxed)
    }

    /// Whether the arena is full enough for a [`Tree::reclaim`]: [`RECLAIM_AT_SIXTEENTHS`]
    /// sixteenths in use, or an allocation failed.
    #[inline]
    pub fn needs_reclaim(&self) -> bool {
        self.arena.is_full()
            || self.arena.used() >= self.arena.capacity() / 16 * RECLAIM_AT_SIXTEENTHS
    }

    /// Frees memory for the search to go on: keeps the root, its children and, below them,
    /// the most visited part of the tree, at most `keep` nodes in all (but never fewer than
    /// the root and its children), and slides them to the front of the arena. A node keeps
    /// its children when it and every node between it and the root have at least the
    /// threshold of visits; the lowest threshold that fits in `keep` is chosen. A node that
    /// loses its children keeps its own statistics and becomes a leaf again, so the search
    /// can grow its subtree anew where it matters. An expansion that failed for want of room
    /// is undone too (the node becomes a leaf again).
    ///
    /// Must run while no other thread uses the tree (the search's exclusive lock).
    pub fn reclaim(&self, keep: usize) -> Reclaim {
        let before = self.arena.used();
        let root = self.root_id();
        // Every expanded node below the root as (the fewest visits on its path from the
        // root's children down to it, its number of children).
        let mut blocks: Vec<(u32, u32)> = Vec::new();
        let mut stack: Vec<(NodeId, u32)> = Vec::new();
        let root_children = self.get(root).children().unwrap_or(0..0);
        stack.extend(root_children.clone().map(|c| (c, self.get(c).visits())));
        while let Some((id, path_min)) = stack.pop() {
            if let Some(children) = self.get(id).children() {
                blocks.push((path_min, children.len() as u32));
                stack.extend(children.map(|c| (c, path_min.min(self.get(c).visits()))));
            }
        }
        // The most visited blocks first, all blocks of one visit count together.
        blocks.sort_unstable_by_key(|b| std::cmp::Reverse(b.0));
        let mut kept = 1 + root_children.len();
        let mut threshold = u64::MAX;
        let mut i = 0;
        while i < blocks.len() {
            let visits = blocks[i].0;
            let mut j = i;
            let mut nodes = 0;
            while j < blocks.len() && blocks[j].0 == visits {
                nodes += blocks[j].1 as usize;
                j += 1;
            }
            if kept + nodes > keep {
                break;
            }
            kept += nodes;
            threshold = visits as u64;
            i = j;
        }
        let live =
            LiveSet::mark(self, root, usize::MAX, threshold).expect("no limit on the nodes marked");
        let kept = self.slide(&live, root);
        self.reclaims.fetch_add(1, Relaxed);
        Reclaim {
            before,
            kept,
            threshold,
        }
    }

    /// Makes `new_root` the root and slides its subtree to the front of the arena, forgetting
    /// everything else. Must not run during a search.
    ///
    /// The pause this costs comes out of the next move's time, so it is kept short: nothing
    /// moves when the root stays the same (a genmove in the position a GUI just had
    /// analysed), and a subtree of more than [`MAX_SLIDE_NODES`] stays where it is, the
    /// arena's free space (if any) left for the search to grow into.
    pub fn compact(&mut self, new_root: NodeId) {
        self.compact_within(new_root, MAX_SLIDE_NODES);
    }

    /// [`Tree::compact`] with at most `limit` nodes slid.
    fn compact_within(&mut self, new_root: NodeId, limit: usize) {
        if new_root == self.root_id() {
            return;
        }
        let Some(live) = LiveSet::mark(self, new_root, limit, 0) else {
            *self.root.get_mut() = new_root;
            return;
        };
        self.slide(&live, new_root);
    }

    /// Slides the nodes of `live` to the front of the arena in their order, makes `root`
    /// (one of them) the root, and returns their number. A node whose children are not in
    /// `live` becomes a leaf. The caller makes sure no other thread uses the tree.
    fn slide(&self, live: &LiveSet, root: NodeId) -> usize {
        // Sliding keeps the order of the kept nodes, so every node moves to a lower (or the
        // same) index and visiting them in increasing order never overwrites one still to move.
        let mut kept: NodeId = 0;
        for src in live.iter() {
            let mut d = self.get(src).load();
            if d.state == EXPANDED && d.child_count == 0 {
                d.first_child = 0;
            } else if d.state == EXPANDED && live.contains(d.first_child) {
                d.first_child = live.rank(d.first_child);
            } else {
                d.state = LEAF;
                d.first_child = 0;
                d.child_count = 0;
            }
            self.get(kept).store(&d);
            kept += 1;
        }
        self.root.store(live.rank(root), Relaxed);
        // The kept nodes fitted before, so they fit at the front.
        self.arena.restart(kept as usize);
        kept as usize
    }

    /// Replaces the children of `id` by nodes for `moves`: a child already there keeps its
    /// statistics and subtree, a new one gets its prior from `prior` (equivalent visits,
    /// their value, and the learned policy's probability, 0 for none). Must not run during
    /// a search. Returns false (changing nothing) when the arena is full.
    pub fn set_children(
        &mut self,
        id: NodeId,
        moves: &[Move],
        mut prior: impl FnMut(Move) -> (u32, f32, f32),
    ) -> bool {
        let old: Vec<(Move, NodeData)> = match self.get(id).children() {
            Some(range) => range
                .map(|c| (self.get(c).mv(), self.get(c).load()))
                .collect(),
            None => Vec::new(),
        };
        let Some(first) = self.arena.alloc(moves.len()) else {
            return false;
        };
        for (k, &mv) in moves.iter().enumerate() {
            let node = self.get(first + k as NodeId);
            match old.iter().find(|(m, _)| *m == mv) {
                Some((_, d)) => node.store(d),
                None => {
                    let (n, v, p) = prior(mv);
                    node.init_with_policy(mv, n, v, p);
                }
            }
        }
        let node = self.get(id);
        node.finish_expand(first, moves.len());
        true
    }

    /// Number of nodes in the subtree of `id` (for tests and reports).
    pub fn subtree_size(&self, id: NodeId) -> usize {
        let mut count = 0;
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            count += 1;
            if let Some(children) = self.get(n).children() {
                stack.extend(children);
            }
        }
        count
    }
}

/// The nodes of one subtree as a bit per arena index, with the rank (number of kept nodes
/// before an index) that gives each kept node its index after compaction.
struct LiveSet {
    bits: Vec<u64>,
    /// Kept nodes in the words before each word.
    before: Vec<u32>,
}

impl LiveSet {
    /// The subtree of `root`, or `None` if it has more than `limit` nodes. The root's
    /// children are always in; below them a node's children are in when it and every node
    /// on its path up to the root's children have at least `threshold` visits.
    fn mark(tree: &Tree, root: NodeId, limit: usize, threshold: u64) -> Option<LiveSet> {
        let words = tree.arena.used().div_ceil(64).max(1);
        let mut bits = vec![0u64; words];
        bits[root as usize / 64] |= 1 << (root % 64);
        let mut marked = 1;
        // Whole blocks of siblings at a time: each is contiguous in the arena.
        let mut blocks: Vec<Range<NodeId>> = tree.get(root).children().into_iter().collect();
        while let Some(block) = blocks.pop() {
            marked += block.len();
            if marked > limit {
                return None;
            }
            for id in block {
                bits[id as usize / 64] |= 1 << (id % 64);
                let node = tree.get(id);
                if let Some(children) = node.children()
                    && node.visits() as u64 >= threshold
                {
                    blocks.push(children);
                }
            }
        }
        let mut before = Vec::with_capacity(words);
        let mut count = 0;
        for word in &bits {
            before.push(count);
            count += word.count_ones();
        }
        Some(LiveSet { bits, before })
    }

    /// The kept nodes in increasing order.
    fn iter(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                Some((w * 64) as NodeId + bit)
            })
        })
    }

    /// Whether `id` is kept.
    fn contains(&self, id: NodeId) -> bool {
        self.bits
            .get(id as usize / 64)
            .is_some_and(|word| word & (1 << (id % 64)) != 0)
    }

    /// The number of kept nodes before the kept node `id`.
    fn rank(&self, id: NodeId) -> NodeId {
        let (w, bit) = (id as usize / 64, id % 64);
        self.before[w] + (self.bits[w] & ((1u64 << bit) - 1)).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_hands_out_blocks_until_full() {
        let arena = Arena::new(10);
        assert_eq!(arena.alloc(4), Some(0));
        assert_eq!(arena.alloc(4), Some(4));
        assert_eq!(arena.alloc(4), None);
        assert!(arena.is_full());
        assert_eq!(arena.alloc(1), None, "a full arena stays full until reset");
    }

    #[test]
    fn compaction_keeps_the_subtree_and_its_statistics() {
        let mut tree = Tree::new(100);
        let root = tree.root_id();
        assert!(
            tree.set_children(root, &[Move::Play(10), Move::Play(11), Move::Pass], |_| {
                (5, 0.5, 0.0)
            })
        );
        let a = tree.child_by_move(root, Move::Play(11)).unwrap();
        tree.get(a).add_visit();
        tree.get(a).add_result(1.0, 3.0);
        assert!(tree.set_children(a, &[Move::Play(12), Move::Play(13)], |_| (2, 1.0, 0.0)));
        let b = tree.child_by_move(a, Move::Play(13)).unwrap();
        tree.get(b).add_visit();
        tree.get(b).add_visit();
        tree.get(b).add_result(0.5, -1.0);
        tree.compact(a);
        assert_eq!(tree.root_id(), 0);
        assert_eq!(tree.subtree_size(0), 3);
        assert_eq!(tree.arena.used(), 3);
        assert_eq!(tree.root().visits(), 1);
        assert_eq!(tree.root().mean(), Some(1.0));
        assert_eq!(tree.root().mean_score(), Some(3.0));
        let b2 = tree.child_by_move(0, Move::Play(13)).unwrap();
        assert_eq!(tree.get(b2).visits(), 2);
        assert_eq!(tree.get(b2).mean(), Some(0.25));
        assert_eq!(tree.get(b2).prior_visits(), 2);
        assert!((tree.get(b2).prior_value() - 1.0).abs() < 1e-9);
        assert!(tree.get(b2).children().is_none());
    }

    /// The subtree of `id` depth first: each node's move, statistics and child count.
    fn snapshot(tree: &Tree, id: NodeId) -> Vec<(Move, u32, Option<f64>, u32, u16)> {
        let node = tree.get(id);
        let children = node.children();
        let count = children.as_ref().map_or(0, |r| r.len() as u16);
        let mut out = vec![(
            node.mv(),
            node.visits(),
            node.mean(),
            node.prior_visits(),
            count,
        )];
        for c in children.into_iter().flatten() {
            out.extend(snapshot(tree, c));
        }
        out
    }

    #[test]
    fn compaction_matches_the_subtree_of_random_trees() {
        let mut rng = crate::rng::Rng::new(7);
        let (mut slid, mut stayed) = (0, 0);
        for round in 0..400 {
            let mut tree = Tree::new(5000);
            for _ in 0..(1 + round % 60) {
                // Walk down to a random node and (re-)expand it: re-expanding an expanded node
                // puts its new children block after the grandchildren it keeps.
                let mut id = tree.root_id();
                while let Some(children) = tree.get(id).children() {
                    if rng.below(4) == 0 {
                        break;
                    }
                    id = children.start + rng.below(children.len()) as NodeId;
                }
                let moves: Vec<Move> = (0..1 + rng.below(5))
                    .map(|_| Move::Play(rng.below(8) as u16))
                    .fold(Vec::new(), |mut v, m| {
                        if !v.contains(&m) {
                            v.push(m);
                        }
                        v
                    });
                let visits = rng.below(50) as u32;
                assert!(tree.set_children(id, &moves, |_| (visits, 0.25, 0.0)));
                for _ in 0..visits {
                    tree.get(id).add_visit();
                    tree.get(id).add_result(rng.unit(), 1.0);
                }
            }
            // A random node two levels down (or the root itself) becomes the root.
            let mut new_root = tree.root_id();
            for _ in 0..rng.below(3) {
                if let Some(children) = tree.get(new_root).children() {
                    new_root = children.start + rng.below(children.len()) as NodeId;
                }
            }
            let before = snapshot(&tree, new_root);
            let used = tree.arena.used();
            // Half the rounds with a limit that larger subtrees exceed.
            let limit = if round % 2 == 0 { usize::MAX } else { 4 };
            tree.compact_within(new_root, limit);
            assert_eq!(snapshot(&tree, tree.root_id()), before);
            if new_root != 0 && before.len() <= limit {
                assert_eq!(tree.arena.used(), before.len());
                slid += 1;
            } else {
                assert_eq!(tree.root_id(), new_root);
                assert_eq!(tree.arena.used(), used);
                stayed += usize::from(new_root != 0);
            }
        }
        // Both ways were taken.
        assert!(slid > 20 && stayed > 10, "{slid} slid, {stayed} stayed");
    }

    #[test]
    fn compaction_to_the_same_root_moves_nothing() {
        let mut tree = Tree::new(100);
        let root = tree.root_id();
        tree.set_children(root, &[Move::Play(10), Move::Play(11)], |_| (1, 0.0, 0.0));
        let used = tree.arena.used();
        tree.compact(root);
        assert_eq!(tree.root_id(), root);
        assert_eq!(tree.arena.used(), used);
        assert_eq!(tree.subtree_size(root), 3);
    }

    #[test]
    fn set_children_keeps_old_children() {
        let mut tree = Tree::new(100);
        let root = tree.root_id();
        tree.set_children(root, &[Move::Play(10), Move::Play(11)], |_| (1, 0.0, 0.0));
        let c = tree.child_by_move(root, Move::Play(11)).unwrap();
        tree.get(c).add_visit();
        tree.set_children(root, &[Move::Play(11), Move::Play(12)], |_| (3, 1.0, 0.0));
        let c = tree.child_by_move(root, Move::Play(11)).unwrap();
        assert_eq!(tree.get(c).visits(), 1);
        assert_eq!(tree.get(c).prior_visits(), 1);
        assert!(tree.child_by_move(root, Move::Play(10)).is_none());
        let d = tree.child_by_move(root, Move::Play(12)).unwrap();
        assert_eq!(tree.get(d).prior_visits(), 3);
    }

    #[test]
    fn only_one_thread_expands_a_leaf() {
        let tree = Tree::new(10);
        let root = tree.root();
        assert!(root.try_begin_expand());
        assert!(!root.try_begin_expand());
        assert!(root.children().is_none());
        root.finish_expand(1, 0);
        assert_eq!(root.children(), Some(1..1));
    }

    #[test]
    fn a_node_takes_48_bytes() {
        // The arena's size is what memory caps pay for: a bigger node is a smaller tree.
        assert_eq!(std::mem::size_of::<Node>(), 48);
    }

    #[test]
    fn a_policy_probability_is_kept_within_its_step() {
        let tree = Tree::new(4);
        let node = tree.get(1);
        for p in [1.0f32, 0.5, 0.3, 0.01, 1e-4] {
            node.init_with_policy(Move::Play(3), 10, 0.5, p);
            let back = node.policy();
            assert!((back / p - 1.0).abs() < 0.025, "{p} came back as {back}");
        }
        for none in [0.0f32, -1.0, f32::NAN, 1e-6] {
            node.init_with_policy(Move::Play(3), 10, 0.5, none);
            assert_eq!(node.policy(), 0.0, "{none}");
        }
        node.init(Move::Play(3), 10, 0.5);
        assert_eq!(node.policy(), 0.0);
    }

    #[test]
    fn priors_are_capped_to_their_16_bits() {
        let tree = Tree::new(4);
        let node = tree.get(1);
        node.init(Move::Play(3), 70_000, 0.75);
        assert_eq!(node.prior_visits(), MAX_PRIOR_VISITS);
        assert!((node.prior_value() - 0.75).abs() < 1e-6);
        node.init(Move::Play(3), MAX_PRIOR_VISITS, 1.0);
        assert_eq!(node.prior_value(), 1.0);
        assert_eq!(node.stats().prior_wins, MAX_PRIOR_VISITS as f32);
    }

    /// A tree grown as a search grows it: simulations walk down at random (the first
    /// children more often), count a visit on every node of their path, and expand the leaf
    /// they end on once it has `expand_at` visits.
    fn grown_tree(rng: &mut crate::rng::Rng, capacity: usize, simulations: usize) -> Tree {
        let mut tree = Tree::new(capacity);
        let expand_at = 1 + rng.below(3) as u32;
        for _ in 0..simulations {
            let mut id = tree.root_id();
            tree.get(id).add_visit();
            while let Some(children) = tree.get(id).children() {
                let span = children.len();
                let pick = rng.below(span).min(rng.below(span));
                id = children.start + pick as NodeId;
                tree.get(id).add_visit();
            }
            tree.get(id).add_result(rng.unit(), 2.0);
            if id == tree.root_id() || tree.get(id).visits() >= expand_at {
                let moves: Vec<Move> = (0..2 + rng.below(6) as u16).map(Move::Play).collect();
                if !tree.set_children(id, &moves, |m| (rng_free_prior(m), 0.5, 0.0)) {
                    break;
                }
            }
        }
        tree
    }

    fn rng_free_prior(mv: Move) -> u32 {
        match mv {
            Move::Play(p) => p as u32 % 5,
            Move::Pass => 0,
        }
    }

    /// The nodes the reclaim rule keeps with `threshold`: the root, its children, and the
    /// children of every node whose path from the root's children has `threshold` visits.
    fn kept_by_rule(tree: &Tree, threshold: u64) -> usize {
        fn below(tree: &Tree, id: NodeId, threshold: u64) -> usize {
            let node = tree.get(id);
            match node.children() {
                Some(children) if node.visits() as u64 >= threshold => {
                    children.len() + children.map(|c| below(tree, c, threshold)).sum::<usize>()
                }
                _ => 0,
            }
        }
        let children = tree.root().children().unwrap_or(0..0);
        1 + children.len() + children.map(|c| below(tree, c, threshold)).sum::<usize>()
    }

    /// A node as (its line of moves from a subtree's root, visits, mean, prior visits,
    /// whether it has children).
    type Line = (Vec<Move>, u32, Option<f64>, u32, bool);

    /// Every node of the subtree of `id`, ordered by line.
    fn by_line(tree: &Tree, id: NodeId) -> Vec<Line> {
        let mut out = Vec::new();
        let mut stack = vec![(id, Vec::new())];
        while let Some((n, line)) = stack.pop() {
            let node = tree.get(n);
            out.push((
                line.clone(),
                node.visits(),
                node.mean(),
                node.prior_visits(),
                node.children().is_some_and(|c| !c.is_empty()),
            ));
            for c in node.children().into_iter().flatten() {
                let mut l = line.clone();
                l.push(tree.get(c).mv());
                stack.push((c, l));
            }
        }
        out.sort_by(|a, b| format!("{:?}", a.0).cmp(&format!("{:?}", b.0)));
        out
    }

    #[test]
    fn reclaim_keeps_the_most_visited_part_of_random_trees() {
        let mut rng = crate::rng::Rng::new(11);
        let mut dropped_some = 0;
        for round in 0..60 {
            let mut tree = grown_tree(&mut rng, 20_000, 200 + round * 40);
            // Some rounds start from a root that is not the arena's first node.
            if round % 3 == 1
                && let Some(children) = tree.root().children()
            {
                tree.compact_within(children.start, 0);
            }
            let root = tree.root_id();
            let before = by_line(&tree, root);
            let used = tree.arena.used();
            // The lowest threshold (a visit count, or none) that keeps no more than `keep`.
            let mut thresholds: Vec<u64> = before.iter().map(|b| b.1 as u64).collect();
            thresholds.push(u64::MAX);
            thresholds.sort_unstable();
            // Half the rounds with a budget that some threshold fits exactly.
            let keep = if round % 2 == 0 {
                kept_by_rule(&tree, thresholds[rng.below(thresholds.len())])
            } else {
                1 + rng.below(tree.subtree_size(root))
            };
            thresholds.dedup();
            let kept_at: Vec<(u64, usize)> = thresholds
                .iter()
                .map(|&t| (t, kept_by_rule(&tree, t)))
                .collect();
            let expected_kept = kept_at
                .iter()
                .find(|&&(_, kept)| kept <= keep)
                .map_or(0, |&(_, kept)| kept);

            let r = tree.reclaim(keep);
            // The most the budget allows (by the lowest fitting threshold), and the rule of
            // the threshold reported keeps just that.
            assert_eq!((r.before, r.kept), (used, expected_kept));
            let at_reported = kept_at.iter().find(|&&(t, _)| t == r.threshold);
            assert_eq!(at_reported.map(|&(_, k)| k), Some(expected_kept));
            // The tree is whole: the root first, every child range inside the used part, and
            // every used node reachable exactly once.
            assert_eq!(tree.root_id(), 0);
            assert_eq!(tree.arena.used(), r.kept);
            assert!(!tree.arena.is_full());
            assert_eq!(tree.subtree_size(0), r.kept);
            for id in 0..r.kept as NodeId {
                if let Some(c) = tree.get(id).children() {
                    assert!(c.start > id && c.end as usize <= r.kept, "{id}: {c:?}");
                }
            }
            // Within the budget unless the root's children alone exceed it.
            let minimum = 1 + tree.root().children().map_or(0, |c| c.len());
            assert!(r.kept <= keep.max(minimum), "{} > {keep}", r.kept);
            // Kept: exactly the nodes whose ancestors below the root all have the threshold
            // of visits, with their statistics unchanged; a kept node has its children
            // unless it is below the threshold itself.
            let visits_of = |line: &[Move]| before.iter().find(|b| b.0 == line).map(|b| b.1);
            let should_keep: Vec<_> = before
                .iter()
                .filter(|b| {
                    (1..b.0.len())
                        .all(|k| visits_of(&b.0[..k]).is_some_and(|v| v as u64 >= r.threshold))
                })
                .map(|b| {
                    let keeps_children = b.0.is_empty() || b.1 as u64 >= r.threshold;
                    (b.0.clone(), b.1, b.2, b.3, b.4 && keeps_children)
                })
                .collect();
            let after = by_line(&tree, 0);
            assert_eq!(after, should_keep);
            dropped_some += usize::from(after.len() < before.len());
        }
        assert!(dropped_some > 30, "{dropped_some}");
    }

    #[test]
    fn a_reclaimed_tree_grows_again() {
        let mut rng = crate::rng::Rng::new(5);
        let mut tree = grown_tree(&mut rng, 3000, 100_000);
        assert!(tree.arena.is_full());
        assert!(tree.needs_reclaim());
        // A leaf whose expansion failed for want of room is a leaf again after the reclaim.
        let mut stuck = tree.root_id();
        while let Some(c) = tree.get(stuck).children() {
            stuck = c.start;
        }
        assert!(tree.get(stuck).try_begin_expand());
        tree.get(stuck).abandon_expand();
        let root_visits = tree.root().visits();
        let r = tree.reclaim(1500);
        assert!(r.kept <= 1500 && r.kept > 750, "{r:?}");
        assert!(!tree.needs_reclaim());
        assert_eq!(tree.root().visits(), root_visits);
        assert!((0..r.kept as NodeId).all(|id| {
            let n = tree.get(id);
            n.children().is_some() || n.is_leaf()
        }));
        assert_eq!(tree.reclaims(), 1);
        // The search goes on: the tree fills up again from where it was cut.
        let mut id = tree.root_id();
        while let Some(c) = tree.get(id).children() {
            id = c.start;
        }
        assert!(tree.set_children(id, &[Move::Play(1), Move::Play(2)], |_| (1, 0.5, 0.0)));
        assert_eq!(tree.arena.used(), r.kept + 2);
        assert_eq!(tree.subtree_size(0), r.kept + 2);
    }
}
