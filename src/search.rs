//! Move generation: flat Monte-Carlo with UCB1 at the root.
//!
//! Every legal move that does not fill one's own eye, and pass, is a candidate; playouts are
//! spent on candidates by UCB1 and the most visited one is played. All threads share the
//! candidate statistics. This is the first honest player; the tree search replaces it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::board::{Color, Move};
use crate::game::Game;
use crate::playout::{Playout, Policy};

/// When to stop thinking.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Stop after this many playouts in all.
    pub playouts: Option<u64>,
    /// Stop after this much wall-clock time.
    pub time: Option<Duration>,
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Worker threads.
    pub threads: usize,
    /// Seed for reproducible runs; `None` seeds from the operating system.
    pub seed: Option<u64>,
    /// Resign when the best move wins less often than this.
    pub resign_threshold: f32,
    /// Playout policy.
    pub policy: Policy,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            threads: 1,
            seed: None,
            resign_threshold: 0.1,
            policy: Policy::Light,
        }
    }
}

/// What a search decided.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play (ignore when `resign` is set).
    pub best: Move,
    /// Estimated probability that the mover wins after `best`.
    pub winrate: f32,
    /// Playouts spent.
    pub playouts: u64,
    /// Whether the position is hopeless.
    pub resign: bool,
}

struct Candidate {
    mv: Move,
    visits: AtomicU64,
    /// Wins counted in halves, so that draws count ½.
    half_wins: AtomicU64,
}

/// The total komi White receives, handicap compensation included.
pub fn effective_komi(game: &Game) -> f32 {
    use crate::rules::HandicapCompensation;
    let comp = match game.rules().handicap_compensation {
        HandicapCompensation::None => 0.0,
        HandicapCompensation::PointPerStone => game.handicap() as f32,
    };
    game.komi() + comp
}

/// Chooses a move for `color` by flat Monte-Carlo.
pub fn genmove(
    game: &Game,
    color: Color,
    limits: Limits,
    config: &SearchConfig,
    stop: &AtomicBool,
) -> SearchResult {
    let board = game.board();
    let mut candidates: Vec<Candidate> = board
        .empty_points()
        .iter()
        .copied()
        .filter(|&p| !board.is_playout_eye(p, color) && game.is_legal(Move::Play(p), color))
        .map(|p| Candidate {
            mv: Move::Play(p),
            visits: AtomicU64::new(0),
            half_wins: AtomicU64::new(0),
        })
        .collect();
    candidates.sort_by_key(|c| match c.mv {
        Move::Play(p) => p,
        Move::Pass => 0,
    });
    candidates.push(Candidate {
        mv: Move::Pass,
        visits: AtomicU64::new(0),
        half_wins: AtomicU64::new(0),
    });
    if candidates.len() == 1 {
        return SearchResult {
            best: Move::Pass,
            winrate: 0.5,
            playouts: 0,
            resign: false,
        };
    }
    let komi = effective_komi(game);
    let deadline = limits.time.map(|t| Instant::now() + t);
    let budget = match (limits.playouts, limits.time) {
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
        (None, None) => 1000,
    };
    let total = AtomicU64::new(0);
    let candidates = Arc::new(candidates);
    let base_seed = config.seed.unwrap_or_else(rand::random);
    std::thread::scope(|scope| {
        for t in 0..config.threads.max(1) {
            let candidates = &candidates;
            let total = &total;
            scope.spawn(move || {
                let mut po = Playout::new(base_seed.wrapping_add(t as u64 * 0x9E37_79B9));
                loop {
                    let done = total.fetch_add(1, Ordering::Relaxed);
                    if done >= budget || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if done.is_multiple_of(64) && deadline.is_some_and(|d| Instant::now() >= d) {
                        break;
                    }
                    let i = select_ucb1(candidates, done + 1);
                    let cand = &candidates[i];
                    cand.visits.fetch_add(1, Ordering::Relaxed);
                    po.start(game.board());
                    po.play_prefix(cand.mv, color);
                    let out = po.run(
                        color.opponent(),
                        game.positions(),
                        game.ko_rule(),
                        komi,
                        config.policy,
                    );
                    let half = (out.value_for(color) * 2.0) as u64;
                    cand.half_wins.fetch_add(half, Ordering::Relaxed);
                }
            });
        }
    });
    let playouts = candidates
        .iter()
        .map(|c| c.visits.load(Ordering::Relaxed))
        .sum();
    let best = candidates
        .iter()
        .max_by_key(|c| c.visits.load(Ordering::Relaxed))
        .expect("pass is always a candidate");
    let winrate = mean(best);
    let resign = winrate < config.resign_threshold && playouts >= 100;
    SearchResult {
        best: best.mv,
        winrate,
        playouts,
        resign,
    }
}

fn mean(c: &Candidate) -> f32 {
    let v = c.visits.load(Ordering::Relaxed);
    if v == 0 {
        0.5
    } else {
        c.half_wins.load(Ordering::Relaxed) as f32 / (2.0 * v as f32)
    }
}

/// UCB1 over the candidates; unvisited candidates first.
fn select_ucb1(candidates: &[Candidate], total: u64) -> usize {
    let log_total = (total.max(1) as f32).ln();
    let mut best = 0;
    let mut best_value = f32::NEG_INFINITY;
    for (i, c) in candidates.iter().enumerate() {
        let v = c.visits.load(Ordering::Relaxed);
        if v == 0 {
            return i;
        }
        let value = mean(c) + (0.5 * log_total / v as f32).sqrt();
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn play(g: &mut Game, v: &str, c: Color) {
        let m = g.board().parse_move(v).unwrap();
        g.play(m, c).unwrap();
    }

    #[test]
    fn captures_to_save_a_group() {
        // 5x5: the black stone at A1 is in atari from B1... White B2 group in atari: capture.
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        for (v, c) in [
            ("B3", Color::Black),
            ("C2", Color::Black),
            ("A2", Color::Black),
            ("B2", Color::White),
            ("B1", Color::White),
            ("D1", Color::Black),
        ] {
            play(&mut g, v, c);
        }
        // White B2-B1 has liberties A1 and C1; Black to play C1 puts it in atari, A1 too.
        let config = SearchConfig {
            threads: 1,
            seed: Some(1),
            ..SearchConfig::default()
        };
        let r = genmove(
            &g,
            Color::Black,
            Limits {
                playouts: Some(4000),
                time: None,
            },
            &config,
            &AtomicBool::new(false),
        );
        assert!(g.is_legal(r.best, Color::Black));
        assert!(r.winrate > 0.5, "{r:?}");
    }
}
