//! What a search reports: the root's candidates ([`Candidate`]), a view of the search
//! ([`Summary`]) and its final result ([`SearchResult`]), read off the tree.

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use crate::board::{Board, Color, Move};
use crate::score::Ownership;

use super::stop::Control;
use super::tree::{NodeId, Tree};

/// Longest principal variation reported: enough to show a fight's sequence to analysis
/// GUIs, short enough that deep, rarely visited tails (mostly noise) are left out.
pub const PV_MAX_MOVES: usize = 30;

/// The normal quantile of the lower confidence bound reported as `lcb` (95%, two-sided), as
/// Leela Zero and KataGo report it.
const LCB_Z: f64 = 1.96;

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
    /// Times this search dropped the least visited subtrees to stay within the tree's
    /// capacity ([`super::tree::Tree::reclaim`]).
    pub reclaims: u32,
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
    /// Whether the root left passing out: the opponent had passed while the game was still
    /// open, so a pass would have ended it early (see [`super::Searcher::decide`]).
    pub pass_withheld: bool,
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

/// A summary of the tree below the root for `color`, with the playouts and reclaims counted
/// in `control` (whose tree lock this takes shared).
pub(super) fn summarize(tree: &Tree, control: &Control, color: Color, start: Instant) -> Summary {
    let _shared = control.read_tree();
    let playouts = control.done.load(Relaxed);
    let reclaims = control.reclaims.load(Relaxed);
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
                LCB_Z * (winrate * (1.0 - winrate) / visits as f64).sqrt() + 1.0 / visits as f64;
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
        reclaims,
        ownership: None,
    }
}

/// The line starting at `id`: its move, then the most visited reply, and so on.
fn principal_variation(tree: &Tree, id: NodeId) -> Vec<Move> {
    let mut pv = vec![tree.get(id).mv()];
    let mut id = id;
    while pv.len() < PV_MAX_MOVES {
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

/// Moves as GTP vertices separated by spaces.
pub fn format_moves(board: &Board, moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| board.move_name(m))
        .collect::<Vec<_>>()
        .join(" ")
}
