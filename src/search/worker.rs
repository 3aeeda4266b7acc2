//! One search thread: descends the tree by UCT with RAVE, expands a leaf, plays it out, and
//! backs the result up (with all-moves-as-first statistics) along the path.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::board::{Board, Cell, Color, MAX_POINTS, Move, NO_POINT, Point};
use crate::game::{Game, PositionHistory};
use crate::playout::replies::ReplyOrder;
use crate::playout::{Playout, Policy};
use crate::rules::KoRule;
use crate::score::ownership::OwnershipTally;
use crate::score::{DeadStones, Owners, Ownership, settled_score, taxed_area_score};

use super::Params;
use super::criticality::{RootCriticality, with_criticality};
use super::priors::{PriorWeights, move_prior, with_policy};
use super::tree::{NodeId, Tree};

/// Everything the search threads share: the tree and the read-only description of the root.
pub struct Shared<'a> {
    /// The tree.
    pub tree: &'a Tree,
    /// The position searched.
    pub root_board: &'a Board,
    /// Who moves at the root.
    pub root_color: Color,
    /// Positions of the game so far (superko).
    pub history: &'a PositionHistory,
    /// Repetition rule.
    pub ko: KoRule,
    /// Komi for the evaluation (handicap compensation included).
    pub komi: f32,
    /// Whether every living group costs its owner two points (ancient rules, 還棋頭).
    pub group_tax: bool,
    /// Playout policy.
    pub policy: Policy,
    /// Tuning.
    pub params: &'a Params,
    /// Prior weights for this board size.
    pub priors: PriorWeights,
    /// The learned move prediction the priors use (`None` when `priors.policy` is 0).
    pub prediction: Option<&'static crate::policy::Policy>,
    /// Visits a leaf needs before it is expanded.
    pub expand_threshold: u32,
    /// Stones taken off when a tree line ends with two passes.
    pub dead: &'a DeadStones,
    /// Passes that ended the game record (0 or 1): a pass at the root after one ends the game.
    pub initial_passes: u32,
    /// Whether one thread searches: it is then the tree's only writer and may update
    /// counters without atomic read-modify-writes.
    pub sole_writer: bool,
    /// Owners and winners by root move, for criticality (counted when `crit_rave` > 0).
    pub criticality: &'a RootCriticality,
}

/// Per-thread ownership counts at the end of playouts, readable by the controlling thread.
pub struct OwnershipCounts {
    /// Per point: playouts that ended with Black owning it.
    black: Box<[AtomicU32]>,
    /// Per point: playouts that ended with White owning it.
    white: Box<[AtomicU32]>,
    /// Playouts counted.
    total: AtomicU32,
}

impl Default for OwnershipCounts {
    fn default() -> OwnershipCounts {
        OwnershipCounts::new()
    }
}

impl OwnershipCounts {
    /// Zero counts.
    pub fn new() -> OwnershipCounts {
        OwnershipCounts {
            black: (0..MAX_POINTS).map(|_| AtomicU32::new(0)).collect(),
            white: (0..MAX_POINTS).map(|_| AtomicU32::new(0)).collect(),
            total: AtomicU32::new(0),
        }
    }

    /// Forgets all counts.
    pub fn clear(&self) {
        for a in self.black.iter().chain(self.white.iter()) {
            a.store(0, Relaxed);
        }
        self.total.store(0, Relaxed);
    }

    /// Adds the counts to `tally`.
    pub fn add_to(&self, tally: &mut OwnershipTally) {
        for i in 0..MAX_POINTS {
            tally.add_point(i, self.black[i].load(Relaxed), self.white[i].load(Relaxed));
        }
        tally.add_playouts(self.total.load(Relaxed));
    }

    /// Counts the owners of the points of `board` found in `owners`. Only the owning thread
    /// writes, so a load and a store suffice.
    fn record(&self, board: &Board, owners: &[Cell; MAX_POINTS]) {
        for p in board.points() {
            let slot = match owners[p as usize] {
                Cell::Black => &self.black[p as usize],
                Cell::White => &self.white[p as usize],
                _ => continue,
            };
            slot.store(slot.load(Relaxed) + 1, Relaxed);
        }
        self.total.store(self.total.load(Relaxed) + 1, Relaxed);
    }
}

/// The first time each point was played in the current simulation, for AMAF: valid when
/// `stamp` matches the simulation number.
struct FirstPlay {
    stamp: Box<[u32]>,
    /// Colour index and move index, packed: `index << 1 | color`.
    first: Box<[u32]>,
    current: u32,
}

impl FirstPlay {
    fn new() -> FirstPlay {
        FirstPlay {
            stamp: vec![0; MAX_POINTS].into_boxed_slice(),
            first: vec![0; MAX_POINTS].into_boxed_slice(),
            current: 0,
        }
    }

    fn next_simulation(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
    }

    #[inline]
    fn set(&mut self, p: Point, c: Color, index: usize) {
        self.stamp[p as usize] = self.current;
        self.first[p as usize] = (index as u32) << 1 | c.index() as u32;
    }

    /// Who played `p` first from the current index on, and at which index, if anyone.
    #[inline]
    fn get(&self, p: Point) -> Option<(u32, usize)> {
        let packed = self.first[p as usize];
        (self.stamp[p as usize] == self.current).then_some((packed & 1, (packed >> 1) as usize))
    }
}

/// A search thread's workspace, kept between searches so searching allocates nothing.
pub struct Worker {
    /// Playout board and random generator.
    pub playout: Playout,
    path: Vec<NodeId>,
    tree_moves: Vec<Move>,
    first: FirstPlay,
    expand_moves: Vec<(Move, u32, f32, f32)>,
    /// Scratch ownership for taxed counting.
    tax_owners: Box<Owners>,
    /// Scratch board for the priors' ladder reading.
    scratch: Box<Board>,
    /// Working memory of the learned move prediction.
    policy_scratch: Box<crate::policy::Scratch>,
    policy_candidates: Vec<crate::policy::Candidate>,
    /// The prediction's probability of each move of the node being expanded.
    policy_out: Vec<(Move, f32)>,
}

impl Worker {
    /// A workspace whose random sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Worker {
        Worker {
            playout: Playout::new(seed),
            path: Vec::with_capacity(512),
            tree_moves: Vec::with_capacity(512),
            first: FirstPlay::new(),
            expand_moves: Vec::with_capacity(MAX_POINTS + 1),
            tax_owners: Box::new([Cell::Empty; MAX_POINTS]),
            scratch: Box::new(Board::new(9)),
            policy_scratch: Box::new(crate::policy::Scratch::new()),
            policy_candidates: Vec::with_capacity(MAX_POINTS + 1),
            policy_out: Vec::with_capacity(MAX_POINTS + 1),
        }
    }

    /// Reseeds the random generator (each search gets its own sequence).
    pub fn reseed(&mut self, seed: u64) {
        self.playout.rng = crate::rng::Rng::new(seed);
    }

    /// Runs one simulation from the root, counting the final owners in `ownership`; returns
    /// its result for Black (0, ½ or 1).
    pub fn simulate(&mut self, s: &Shared<'_>, ownership: &OwnershipCounts) -> f64 {
        let tree = s.tree;
        self.configure_replies(s);
        self.playout.start(s.root_board);
        self.path.clear();
        self.tree_moves.clear();
        let root = tree.root_id();
        let mut id = root;
        tree.get(id).add_visit();
        self.path.push(id);
        let mut color = s.root_color;
        let mut passes = s.initial_passes;
        let mut terminal = false;
        loop {
            let node = tree.get(id);
            let children = match node.children() {
                Some(c) => c,
                None => {
                    let ready = id == root || node.visits() >= s.expand_threshold;
                    if ready && node.is_leaf() && node.try_begin_expand() {
                        self.expand(s, id, color);
                    }
                    match node.children() {
                        Some(c) => c,
                        None => break,
                    }
                }
            };
            if children.is_empty() {
                break;
            }
            let (explore, bias) = if id == root {
                (s.params.root_explore, s.params.root_policy_bias)
            } else {
                (s.params.explore, s.params.policy_bias)
            };
            let children = if id == root || s.prediction.is_none() {
                children
            } else {
                let width = s.params.widening(node.visits()).min(children.len());
                children.start..children.start + width as NodeId
            };
            let crit = (id == root && s.params.crit_rave > 0.0).then_some(s.criticality);
            let child = select(s, explore, bias, node.visits(), children, crit);
            let cnode = tree.get(child);
            cnode.add_virtual_loss(s.params.virtual_loss);
            let mv = cnode.mv();
            self.playout.play_prefix(mv, color);
            self.path.push(child);
            self.tree_moves.push(mv);
            id = child;
            color = color.opponent();
            if mv == Move::Pass {
                passes += 1;
                if passes >= 2 {
                    terminal = true;
                    break;
                }
            } else {
                passes = 0;
            }
        }
        let score = if terminal {
            self.playout.moves.clear();
            settled_score(&self.playout.board, s.dead, s.komi, s.group_tax) as f64
        } else {
            let out = self.playout.run(color, s.history, s.ko, s.komi, s.policy);
            ownership.record(&self.playout.board, &self.playout.owners);
            let score = if s.group_tax {
                taxed_area_score(&self.playout.board, &mut self.tax_owners, s.komi) as f64
            } else {
                out.score as f64
            };
            if s.params.crit_rave > 0.0
                && let Some(&Move::Play(p)) = self.tree_moves.first()
            {
                s.criticality
                    .record(p, self.playout.owners[p as usize], score);
            }
            score
        };
        let black_value = value_of_score(score, s.params.score_weight as f64);
        self.back_up(s, black_value, score);
        if s.policy == Policy::Heavy && score != 0.0 {
            let winner = if score > 0.0 {
                Color::Black
            } else {
                Color::White
            };
            let root = s.root_board;
            self.playout.learn_replies(
                [root.last_move2(), root.last_move()],
                s.root_color,
                self.tree_moves.iter().map(|&mv| match mv {
                    Move::Play(p) => p,
                    Move::Pass => NO_POINT,
                }),
                winner,
            );
        }
        black_value
    }

    /// Switches the playouts' last-good-reply tables to the search's parameters.
    fn configure_replies(&mut self, s: &Shared<'_>) {
        self.configure_replies_for(s.policy, s.params, s.root_board.size());
    }

    /// Switches the playouts' last-good-reply tables and pattern gammas to `params` under
    /// `policy` on a board of `size`.
    fn configure_replies_for(&mut self, policy: Policy, params: &Params, size: usize) {
        self.playout
            .configure_gammas(params.gammas_for(size), params.gamma_rest);
        self.playout.configure_heavy(
            params.ko_fight,
            params.self_atari_check,
            params.capture_anywhere,
        );
        self.playout.configure_nlib(params.nlib_defense);
        self.playout.configure_fights(params.fights);
        self.playout.configure_ladders(params.ladder_both_for(size));
        let level = if policy == Policy::Heavy {
            params.lgrf_for(size)
        } else {
            0
        };
        let order = if params.lgrf_order == 0 {
            ReplyOrder::BeforeTactics
        } else {
            ReplyOrder::AfterTactics
        };
        self.playout.replies.configure(level, order);
    }

    /// Creates the children of leaf `id` (where `color` moves) with their priors.
    fn expand(&mut self, s: &Shared<'_>, id: NodeId, color: Color) {
        let board = &self.playout.board;
        self.expand_moves.clear();
        if let Some(model) = s.prediction {
            let playout = &self.playout;
            model.evaluate(
                board,
                color,
                &mut self.policy_scratch,
                |p| !board.is_playout_eye(p, color) && playout.is_legal(p, color, s.history, s.ko),
                &mut self.policy_candidates,
                &mut self.policy_out,
            );
            if s.params.widen_visits > 0.0 {
                // Progressive widening selects among the likeliest children first (an
                // unstable sort: it allocates nothing, and all probabilities differ or
                // tie on moves of equal worth).
                self.policy_out.sort_unstable_by(|a, b| b.1.total_cmp(&a.1));
            }
            for &(mv, probability) in &self.policy_out {
                let rules = move_prior(board, mv, color, &s.priors, &mut self.scratch);
                let (n, v) = with_policy(mv, rules, s.priors.policy, probability);
                self.expand_moves.push((mv, n, v, probability));
            }
        } else {
            for &p in board.empty_points() {
                if board.is_playout_eye(p, color)
                    || !self.playout.is_legal(p, color, s.history, s.ko)
                {
                    continue;
                }
                let (n, v) = move_prior(board, Move::Play(p), color, &s.priors, &mut self.scratch);
                self.expand_moves.push((Move::Play(p), n, v, 0.0));
            }
            let (n, v) = move_prior(board, Move::Pass, color, &s.priors, &mut self.scratch);
            self.expand_moves.push((Move::Pass, n, v, 0.0));
        }
        let node = s.tree.get(id);
        let Some(first) = s.tree.arena.alloc(self.expand_moves.len()) else {
            node.abandon_expand();
            return;
        };
        for (k, &(mv, n, v, p)) in self.expand_moves.iter().enumerate() {
            s.tree
                .get(first + k as NodeId)
                .init_with_policy(mv, n, v, p);
        }
        node.finish_expand(first, self.expand_moves.len());
    }

    /// Adds the result to every node of the path and the AMAF statistics to their children.
    fn back_up(&mut self, s: &Shared<'_>, black_value: f64, score: f64) {
        let tree = s.tree;
        let value_for = |c: Color| match c {
            Color::Black => black_value,
            Color::White => 1.0 - black_value,
        };
        // The node at depth d was reached by a move of the player to move at depth d - 1.
        let color_at = |d: usize| {
            if d.is_multiple_of(2) {
                s.root_color
            } else {
                s.root_color.opponent()
            }
        };
        for (d, &id) in self.path.iter().enumerate() {
            let mover = color_at(d + 1); // == colour to move at depth d - 1
            let node = tree.get(id);
            node.add_result(value_for(mover), score);
            if d > 0 {
                node.release_virtual_loss(s.params.virtual_loss);
            }
        }
        if s.params.rave_equiv <= 0.0 {
            return;
        }
        // AMAF: walk the whole move sequence backwards so that `first` tells, for each depth
        // d, who played each point first from move d on, and when. Moves played soon after
        // d weigh more than late ones (linearly from 2 down to 0 over the rest of the
        // simulation): a move that only works when played at once is not buried under the
        // results of playouts where it came too late.
        self.first.next_simulation();
        let tree_len = self.tree_moves.len();
        let total = tree_len + self.playout.moves.len();
        for (i, &(p, c)) in self.playout.moves.iter().enumerate().rev() {
            self.first.set(p, c, tree_len + i);
        }
        let weighted = s.params.rave_weighting;
        let floor = s.params.rave_floor as f64;
        for d in (0..self.path.len()).rev() {
            if d < tree_len
                && let Move::Play(p) = self.tree_moves[d]
            {
                self.first.set(p, color_at(d), d);
            }
            let node = tree.get(self.path[d]);
            let Some(children) = node.children() else {
                continue;
            };
            let to_move = color_at(d);
            let value = value_for(to_move);
            let c = to_move.index() as u32;
            let span = (total - d).max(1) as f64;
            for child in children {
                let cn = tree.get(child);
                if let Move::Play(p) = cn.mv()
                    && let Some((color, at)) = self.first.get(p)
                    && color == c
                {
                    let weight = if weighted {
                        amaf_weight((at - d) as f64 / span, floor)
                    } else {
                        1.0
                    };
                    cn.add_rave(value, weight, s.sole_writer);
                }
            }
        }
    }

    /// Plays `n` playouts from the root of `game` (`color` to move, `komi` in force) without
    /// the tree and returns the ownership they found: the estimate that judges dead stones
    /// before the search starts.
    pub fn prime_ownership(
        &mut self,
        game: &Game,
        color: Color,
        komi: f32,
        policy: Policy,
        params: &Params,
        n: u32,
    ) -> Ownership {
        self.configure_replies_for(policy, params, game.board().size());
        self.playout_ownership(
            game.board(),
            color,
            game.positions(),
            game.ko_rule(),
            komi,
            policy,
            n,
        )
        .0
    }

    /// Plays `n` playouts from `board` with `to_move` to play, without the tree; returns the
    /// ownership at their ends and Black's share of wins.
    #[allow(clippy::too_many_arguments)]
    pub fn playout_ownership(
        &mut self,
        board: &Board,
        to_move: Color,
        history: &PositionHistory,
        ko: KoRule,
        komi: f32,
        policy: Policy,
        n: u32,
    ) -> (Ownership, f64) {
        let mut tally = OwnershipTally::new();
        let mut black_wins = 0.0;
        for _ in 0..n {
            self.playout.start(board);
            let out = self.playout.run(to_move, history, ko, komi, policy);
            black_wins += out.value_for(Color::Black) as f64;
            tally.record(board, &self.playout.owners);
        }
        (tally.ownership(board), black_wins / n.max(1) as f64)
    }
}

/// The weight of an AMAF update for a move played `late` (0..1) of the way from the node
/// to the end of the simulation: 2 at once, falling linearly to `2·floor` at the end, so
/// that a move which only works when played at once is not buried under playouts where it
/// came too late, while late moves still say something about a point.
#[inline]
fn amaf_weight(late: f64, floor: f64) -> f64 {
    2.0 * (floor + (1.0 - floor) * (1.0 - late))
}

/// A simulation's value for Black: 1 for a win, 0 for a loss, ½ for a draw, shifted slightly
/// towards bigger margins when `score_weight` > 0.
#[inline]
pub fn value_of_score(score: f64, score_weight: f64) -> f64 {
    let win = if score > 0.0 {
        1.0
    } else if score < 0.0 {
        0.0
    } else {
        0.5
    };
    if score_weight <= 0.0 {
        return win;
    }
    let margin = (score / 20.0).tanh() * 0.5 + 0.5;
    (1.0 - score_weight) * win + score_weight * margin
}

/// UCT with RAVE: the child with the best blend of its mean value, its AMAF value and an
/// exploration bonus. Prior knowledge counts as earlier visits.
#[inline]
fn select(
    s: &Shared<'_>,
    explore: f32,
    policy_bias: f32,
    parent_visits: u32,
    children: std::ops::Range<NodeId>,
    criticality: Option<&RootCriticality>,
) -> NodeId {
    let equiv = s.params.rave_equiv;
    let log_n = ((parent_visits + 1) as f32).ln();
    let bias = if policy_bias > 0.0 {
        policy_bias * (parent_visits as f32).powf(s.params.policy_bias_power)
    } else {
        0.0
    };
    let mut best = children.start;
    let mut best_score = f32::NEG_INFINITY;
    for id in children {
        let st = s.tree.get(id).stats();
        let n = st.visits + st.prior_visits;
        let mean = if n > 0.0 {
            (st.wins + st.prior_wins) / n
        } else {
            0.5
        };
        let value = if st.rave_visits > 0.0 && equiv > 0.0 {
            let beta = st.rave_visits / (st.rave_visits + n + st.rave_visits * n / equiv);
            let mut rave = st.rave_wins / st.rave_visits;
            if let Some(table) = criticality
                && let Move::Play(p) = s.tree.get(id).mv()
                && let Some(c) = table.criticality(p, s.params.crit_min_visits)
            {
                rave = with_criticality(rave, c, s.params.crit_rave);
            }
            (1.0 - beta) * mean + beta * rave
        } else {
            mean
        };
        let mut score = if explore > 0.0 {
            value + explore * (log_n / (n + 1.0)).sqrt()
        } else {
            value
        };
        if bias > 0.0 {
            score += bias * s.tree.get(id).policy() / (st.visits + 1.0);
        }
        if score > best_score {
            best_score = score;
            best = id;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amaf_weights_fall_from_two_to_twice_the_floor() {
        for floor in [0.0, 0.25, 1.0] {
            assert!((amaf_weight(0.0, floor) - 2.0).abs() < 1e-12);
            assert!((amaf_weight(1.0, floor) - 2.0 * floor).abs() < 1e-12);
            let mut previous = f64::INFINITY;
            for k in 0..=10 {
                let w = amaf_weight(k as f64 / 10.0, floor);
                assert!(w <= previous && w >= 2.0 * floor - 1e-12);
                previous = w;
            }
        }
    }
}
