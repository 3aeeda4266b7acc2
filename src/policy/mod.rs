//! Learned move prediction: how likely a strong player is to choose each legal move.
//!
//! The model is Coulom's generalized Bradley-Terry model ("Computing Elo Ratings of Move
//! Patterns in the Game of Go", 2007) in log space: every legal move (pass included) gets
//! a score, the sum of the weights of its features, and the probabilities are the softmax
//! of the scores. The features are the move's shape (the largest known of nested diamonds
//! around the point, [`shape`], looked up in a [`dictionary`]) and one value per
//! tactical group ([`features`]). Weights are fitted on strong players' games ([`train`],
//! games from [`records`]); [`model_file`] stores them, and the engine carries one model
//! built in ([`Policy::builtin`]).
//!
//! Scoring a position fills a caller-owned [`Scratch`] and output vector: no allocation per
//! position once they have grown.

pub mod accuracy;
pub mod dictionary;
pub mod features;
pub mod model_file;
pub mod records;
pub mod shape;
pub mod train;

use crate::board::{Board, Color, Move, Point};
use crate::game::Game;
use dictionary::Dictionary;
use features::{Code, GROUP_FEATURES, Placement};
use shape::ShapeScratch;

/// The pattern index of a move whose shape is in no level of the dictionary.
pub const UNKNOWN_SHAPE: u32 = 0;
/// The pattern index of a pass, which has no shape.
pub const NO_SHAPE: u32 = u32::MAX;

/// A legal move with its features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Index of its largest known shape ([`UNKNOWN_SHAPE`], [`NO_SHAPE`] for a pass).
    pub shape: u32,
    /// Its tactical and distance features.
    pub code: Code,
}

/// Working memory for feature extraction, reused from position to position.
pub struct Scratch {
    shape: ShapeScratch,
    placement: Placement,
    ladder: Board,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
}

impl Scratch {
    /// Fresh working memory.
    pub fn new() -> Scratch {
        Scratch {
            shape: ShapeScratch::new(),
            placement: Placement::new(19),
            ladder: Board::new(19),
        }
    }
}

/// The candidates of `mover` on `board`: every empty point that is legal on the board
/// (suicide, simple ko) and that `allowed` accepts (e.g. a superko test), then the pass,
/// with their features. Shapes are looked up in `dictionary`.
pub fn extract(
    board: &Board,
    mover: Color,
    dictionary: &Dictionary,
    scratch: &mut Scratch,
    mut allowed: impl FnMut(Point) -> bool,
    out: &mut Vec<Candidate>,
) {
    out.clear();
    scratch.shape.load(board, mover);
    if scratch.placement.size() != board.size() {
        scratch.placement = Placement::new(board.size());
    }
    for &p in board.empty_points() {
        if !board.is_legal(p, mover) || !allowed(p) {
            continue;
        }
        let hashes = scratch.shape.hashes(p);
        out.push(Candidate {
            mv: Move::Play(p),
            shape: dictionary.deepest(&hashes).unwrap_or(UNKNOWN_SHAPE),
            code: features::code(
                board,
                mover,
                Move::Play(p),
                &scratch.placement,
                &mut scratch.ladder,
            ),
        });
    }
    out.push(Candidate {
        mv: Move::Pass,
        shape: NO_SHAPE,
        code: features::code(
            board,
            mover,
            Move::Pass,
            &scratch.placement,
            &mut scratch.ladder,
        ),
    });
}

/// A trained model: shape weights and tactical weights.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Canonical shape hash to pattern index (from 1).
    dictionary: Dictionary,
    /// The hash of each pattern index from 1 (index 0 is unused), for writing the model.
    hashes: Vec<u64>,
    /// Weight per pattern index; index 0 ([`UNKNOWN_SHAPE`]) for shapes not in the
    /// dictionary.
    shape_weights: Vec<f32>,
    /// Weight per group value (see [`features::GROUP_OFFSETS`]); value 0 weighs 0.
    group_weights: [f32; GROUP_FEATURES],
}

/// The model file built into the binary (see `docs/policy.md` for how it was trained).
static BUILTIN_BYTES: &[u8] = include_bytes!("../../models/kgs.patterns");

impl Policy {
    /// The built-in model, parsed on first use (a few tens of milliseconds), so that an
    /// engine that never asks for it does not pay for it.
    pub fn builtin() -> &'static Policy {
        static BUILTIN: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();
        BUILTIN.get_or_init(|| {
            model_file::from_bytes(BUILTIN_BYTES).unwrap_or_else(|e| {
                // Cannot happen with a consistent build (a test loads it); stay usable.
                log::error!("the built-in pattern model is unusable ({e}); using none");
                Policy::new(&[], 0.0, [0.0; GROUP_FEATURES]).unwrap_or_else(|_| unreachable!())
            })
        })
    }

    /// A model from its parts: `patterns` as (hash, weight) sorted by hash, the weight of
    /// unknown shapes, and the group weights. Errors on unsorted or repeated hashes or a
    /// zero hash.
    pub fn new(
        patterns: &[(u64, f32)],
        unknown_shape: f32,
        group_weights: [f32; GROUP_FEATURES],
    ) -> Result<Policy, String> {
        let mut dictionary = Dictionary::with_capacity(patterns.len());
        let mut hashes = vec![0];
        let mut shape_weights = vec![unknown_shape];
        for (i, &(h, w)) in patterns.iter().enumerate() {
            if h & 1 == 0 {
                return Err(format!("pattern {i}: not a canonical shape hash"));
            }
            if i > 0 && patterns[i - 1].0 >= h {
                return Err(format!("pattern {i}: hashes not in increasing order"));
            }
            dictionary.insert(h, i as u32 + 1);
            hashes.push(h);
            shape_weights.push(w);
        }
        let mut group_weights = group_weights;
        for g in 0..features::GROUPS.len() {
            group_weights[features::GROUP_OFFSETS[g]] = 0.0;
        }
        Ok(Policy {
            dictionary,
            hashes,
            shape_weights,
            group_weights,
        })
    }

    /// The shape dictionary.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }

    /// The patterns as (hash, weight), sorted by hash.
    pub fn patterns(&self) -> impl Iterator<Item = (u64, f32)> + '_ {
        self.hashes[1..]
            .iter()
            .copied()
            .zip(self.shape_weights[1..].iter().copied())
    }

    /// Number of shape patterns.
    pub fn pattern_count(&self) -> usize {
        self.hashes.len() - 1
    }

    /// The weight of shapes not in the dictionary.
    pub fn unknown_shape_weight(&self) -> f32 {
        self.shape_weights[0]
    }

    /// The weights of all group values (see [`features::GROUP_OFFSETS`]).
    pub fn group_weights(&self) -> &[f32; GROUP_FEATURES] {
        &self.group_weights
    }

    /// The score (log of the strength) of a candidate.
    #[inline]
    pub fn score(&self, c: &Candidate) -> f32 {
        let shape = if c.shape == NO_SHAPE {
            0.0
        } else {
            self.shape_weights[c.shape as usize]
        };
        shape + c.code.weight(&self.group_weights)
    }

    /// The probability of each legal move of `mover` (as [`extract`] lists them, pass last)
    /// into `out`, in no particular order; they sum to 1. `candidates` is working space.
    pub fn evaluate(
        &self,
        board: &Board,
        mover: Color,
        scratch: &mut Scratch,
        allowed: impl FnMut(Point) -> bool,
        candidates: &mut Vec<Candidate>,
        out: &mut Vec<(Move, f32)>,
    ) {
        extract(board, mover, &self.dictionary, scratch, allowed, candidates);
        out.clear();
        out.extend(candidates.iter().map(|c| (c.mv, self.score(c))));
        softmax(out);
    }
}

/// The model in use: the one given to [`install`] (`--patterns FILE`), else the built-in one.
pub fn active() -> &'static Policy {
    INSTALLED.get().unwrap_or_else(|| Policy::builtin())
}

static INSTALLED: std::sync::OnceLock<Policy> = std::sync::OnceLock::new();

/// Makes `policy` the model in use for the rest of the process ([`active`]); fails if one
/// was installed already.
pub fn install(policy: Policy) -> Result<(), String> {
    INSTALLED
        .set(policy)
        .map_err(|_| "a pattern model is installed already".to_string())
}

/// The probability of each legal move of `color` in `game` (superko included, pass too),
/// highest first; equal ones in board order, pass last.
pub fn game_probabilities(policy: &Policy, game: &Game, color: Color) -> Vec<(Move, f32)> {
    let mut scratch = Scratch::new();
    let mut candidates = Vec::new();
    let mut out = Vec::new();
    policy.evaluate(
        game.board(),
        color,
        &mut scratch,
        |p| game.is_legal(Move::Play(p), color),
        &mut candidates,
        &mut out,
    );
    let key = |m: &Move| match m {
        Move::Play(p) => *p as u32,
        Move::Pass => u32::MAX,
    };
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(key(&a.0).cmp(&key(&b.0))));
    out
}

/// Turns scores into probabilities in place.
pub fn softmax(moves: &mut [(Move, f32)]) {
    let max = moves.iter().map(|m| m.1).fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for m in moves.iter_mut() {
        m.1 = (m.1 - max).exp();
        total += m.1;
    }
    for m in moves.iter_mut() {
        m.1 /= total;
    }
}
