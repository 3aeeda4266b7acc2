//! The playout benchmark behind `shoutan bench`: playouts per second on empty boards, light
//! and heavy policies, one thread and all threads, median of several runs. The heavy
//! playouts take the local fight steps at the search's default rates, as in a game.

use std::time::{Duration, Instant};

use crate::board::Color;
use crate::game::Game;
use crate::playout::{Playout, Policy};
use crate::rules::Rules;
use crate::search::params::Params;

/// One measured configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchFigure {
    /// Board size.
    pub size: usize,
    /// Threads used.
    pub threads: usize,
    /// Playout policy.
    pub policy: Policy,
    /// Median playouts per second over the runs.
    pub playouts_per_second: f64,
    /// Average playout length in moves (passes included).
    pub average_length: f64,
}

/// Runs playouts from the empty `size` board on `threads` threads for `duration`; returns
/// playouts per second and average length.
pub fn measure(
    size: usize,
    threads: usize,
    policy: Policy,
    duration: Duration,
    seed: u64,
) -> (f64, f64) {
    let game = match Game::new(size, Rules::chinese()) {
        Ok(g) => g,
        Err(_) => return (0.0, 0.0),
    };
    let start = Instant::now();
    let results: Vec<(u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let game = &game;
                scope.spawn(move || {
                    let mut po =
                        Playout::new(seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    po.configure_fights(Params::default().fights);
                    let (mut count, mut moves) = (0u64, 0u64);
                    while start.elapsed() < duration {
                        for _ in 0..16 {
                            po.start(game.board());
                            let out =
                                po.run(Color::Black, game.positions(), game.ko_rule(), 7.5, policy);
                            count += 1;
                            moves += out.length as u64;
                        }
                    }
                    (count, moves)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0)))
            .collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let count: u64 = results.iter().map(|r| r.0).sum();
    let moves: u64 = results.iter().map(|r| r.1).sum();
    (count as f64 / elapsed, moves as f64 / count.max(1) as f64)
}

/// Measures every configuration: sizes 9 and 19, one thread and `threads`, median of `runs`.
pub fn run(policies: &[Policy], threads: usize, runs: usize, seconds: f64) -> Vec<BenchFigure> {
    let mut figures = Vec::new();
    let mut thread_counts = vec![1];
    if threads > 1 {
        thread_counts.push(threads);
    }
    for &policy in policies {
        for size in [9, 19] {
            for &t in &thread_counts {
                let mut rates = Vec::new();
                let mut lengths = Vec::new();
                for r in 0..runs.max(1) {
                    let (rate, len) = measure(
                        size,
                        t,
                        policy,
                        Duration::from_secs_f64(seconds),
                        r as u64 + 1,
                    );
                    rates.push(rate);
                    lengths.push(len);
                }
                rates.sort_by(f64::total_cmp);
                figures.push(BenchFigure {
                    size,
                    threads: t,
                    policy,
                    playouts_per_second: rates[rates.len() / 2],
                    average_length: lengths.iter().sum::<f64>() / lengths.len() as f64,
                });
            }
        }
    }
    figures
}

/// The figures as a table for people.
pub fn to_text(figures: &[BenchFigure]) -> String {
    let mut s = String::from("policy  board  threads  playouts/s  avg length\n");
    for f in figures {
        s.push_str(&format!(
            "{:<7} {:>2}x{:<2}  {:>7}  {:>10.0}  {:>10.1}\n",
            f.policy.name(),
            f.size,
            f.size,
            f.threads,
            f.playouts_per_second,
            f.average_length
        ));
    }
    s
}

/// The figures as one JSON object for scripts.
pub fn to_json(figures: &[BenchFigure]) -> String {
    let items: Vec<String> = figures
        .iter()
        .map(|f| {
            format!(
                "{{\"policy\":\"{}\",\"size\":{},\"threads\":{},\"playouts_per_second\":{:.1},\"average_length\":{:.2}}}",
                f.policy.name(),
                f.size,
                f.threads,
                f.playouts_per_second,
                f.average_length
            )
        })
        .collect();
    format!(
        "{{\"benchmark\":\"playouts\",\"results\":[{}]}}",
        items.join(",")
    )
}
