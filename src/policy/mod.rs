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
    /// The candidates' points and their shapes, looked up together.
    points: Vec<Point>,
    shapes: Vec<Option<u32>>,
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
            points: Vec::with_capacity(crate::board::MAX_POINTS),
            shapes: Vec::with_capacity(crate::board::MAX_POINTS),
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
    scratch.points.clear();
    scratch.points.extend(
        board
            .empty_points()
            .iter()
            .copied()
            .filter(|&p| board.is_legal(p, mover) && allowed(p)),
    );
    scratch
        .shape
        .deepest_each(&scratch.points, dictionary, &mut scratch.shapes);
    for (&p, &shape) in scratch.points.iter().zip(&scratch.shapes) {
        out.push(Candidate {
            mv: Move::Play(p),
            shape: shape.unwrap_or(UNKNOWN_SHAPE),
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
            dictionary.insert(h, i as u32 + 1)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn probabilities(game: &Game, color: Color) -> Vec<(String, f32)> {
        game_probabilities(Policy::builtin(), game, color)
            .into_iter()
            .map(|(m, p)| (game.board().move_name(m), p))
            .collect()
    }

    #[test]
    fn the_built_in_model_loads_and_is_a_trained_one() {
        let p = model_file::from_bytes(BUILTIN_BYTES).expect("the built-in model reads");
        assert!(
            p.pattern_count() > 100_000,
            "{} patterns",
            p.pattern_count()
        );
        assert_eq!(model_file::to_bytes(&p), BUILTIN_BYTES);
    }

    #[test]
    fn opening_moves_go_to_the_corners() {
        let game = Game::new(19, Rules::chinese()).unwrap();
        let moves = probabilities(&game, Color::Black);
        let sum: f32 = moves.iter().map(|m| m.1).sum();
        assert!((sum - 1.0).abs() < 1e-4);
        assert_eq!(moves.len(), 362);
        // The first choices are the corner points of the third and fourth lines.
        let corner = [
            "D4", "D16", "Q4", "Q16", "C4", "D3", "C16", "D17", "Q3", "R4", "Q17", "R16",
        ];
        for (name, _) in &moves[..4] {
            assert!(corner.contains(&name.as_str()), "{:?}", &moves[..8]);
        }
        let prob = |v: &str| moves.iter().find(|m| m.0 == v).unwrap().1;
        assert!(prob("D4") > 20.0 * prob("K10"));
        assert!(prob("D4") > 20.0 * prob("A1"));
        assert!(prob("PASS") < 0.001);
    }

    #[test]
    fn a_big_chain_in_atari_is_saved_or_taken() {
        // White's chain B3-F3 between black walls on rows 2 and 4.
        let mut game = Game::new(9, Rules::chinese()).unwrap();
        let point = |game: &Game, v: &str| match game.board().parse_move(v) {
            Ok(Move::Play(p)) => p,
            _ => panic!("{v}"),
        };
        let mut setup = vec![(point(&game, "A3"), Color::Black)];
        for col in ["B", "C", "D", "E", "F", "G"] {
            setup.push((point(&game, &format!("{col}2")), Color::Black));
        }
        for col in ["B", "C", "D", "E", "F"] {
            setup.push((point(&game, &format!("{col}4")), Color::Black));
            setup.push((point(&game, &format!("{col}3")), Color::White));
        }
        for v in ["E7", "C6", "G6"] {
            setup.push((point(&game, v), Color::White));
        }
        game.set_setup_position(&setup).unwrap();
        let play = |game: &mut Game, v: &str, c: Color| {
            let p = point(game, v);
            game.play(Move::Play(p), c).unwrap();
        };
        // White extends to G3, two liberties; black G4 ataris: White runs out at H3.
        let mut atari = game.clone();
        play(&mut atari, "G3", Color::White);
        play(&mut atari, "G4", Color::Black);
        let moves = probabilities(&atari, Color::White);
        assert_eq!(moves[0].0, "H3", "{:?}", &moves[..5]);
        // After black G4 first, white G3 extends into atari: Black takes six stones at H3.
        play(&mut game, "G4", Color::Black);
        play(&mut game, "G3", Color::White);
        let moves = probabilities(&game, Color::Black);
        assert_eq!(moves[0].0, "H3", "{:?}", &moves[..5]);
        assert!(moves[0].1 > 0.5, "{:?}", &moves[..5]);
    }
}
