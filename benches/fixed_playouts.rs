//! A fixed amount of playout work for instruction counting under callgrind (not criterion):
//! `cargo bench --no-run` builds it, then run the binary as
//! `valgrind --tool=callgrind target/release/deps/fixed_playouts-* SIZE COUNT POLICY`.
//! With a fixed seed the work is identical from run to run, so instruction counts compare
//! code versions independently of machine load.

use shoutan::board::Color;
use shoutan::game::Game;
use shoutan::playout::{Playout, Policy};
use shoutan::rules::Rules;

fn main() {
    // `cargo bench` passes `--bench`: ignore flags.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let size: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(9);
    let count: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let policy = args
        .get(2)
        .map(|s| Policy::parse(s))
        .unwrap_or(Ok(Policy::Light))
        .unwrap_or(Policy::Light);
    let game = match Game::new(size, Rules::chinese()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let mut po = Playout::new(1);
    let mut moves = 0u64;
    let mut black_wins = 0u64;
    for _ in 0..count {
        po.start(game.board());
        let out = po.run(Color::Black, game.positions(), game.ko_rule(), 7.5, policy);
        moves += out.length as u64;
        black_wins += u64::from(out.score > 0.0);
    }
    println!(
        "{count} playouts {size}x{size} {policy:?}: average length {:.1}, black wins {:.3}",
        moves as f64 / count as f64,
        black_wins as f64 / count as f64
    );
}
