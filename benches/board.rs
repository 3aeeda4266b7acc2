//! Criterion micro-benchmarks: playing moves on the board, and one whole playout (light and
//! heavy) from the empty 9x9 and 19x19 boards.

use criterion::{Criterion, criterion_group, criterion_main};

use shoutan::board::{Board, Color};
use shoutan::game::Game;
use shoutan::playout::{Playout, Policy};
use shoutan::rules::Rules;

fn bench_play(c: &mut Criterion) {
    // A fixed pseudo-random legal game prefix on 19x19, replayed from the empty board.
    let mut po = Playout::new(11);
    let game = Game::new(19, Rules::chinese()).expect("19 is a valid size");
    po.start(game.board());
    po.run(
        Color::Black,
        game.positions(),
        game.ko_rule(),
        7.5,
        Policy::Light,
    );
    let moves = po.moves.clone();
    let empty = Board::new(19);
    let mut board = Board::new(19);
    c.bench_function("board_play_19x19_game", |b| {
        b.iter(|| {
            board.copy_from(&empty);
            for &(p, color) in &moves {
                if board.is_legal(p, color) {
                    board.play(p, color);
                }
            }
            board.hash()
        })
    });
}

fn bench_playout(c: &mut Criterion) {
    for policy in [Policy::Light, Policy::Heavy] {
        for size in [9, 19] {
            let game = Game::new(size, Rules::chinese()).expect("valid size");
            let mut po = Playout::new(7);
            c.bench_function(&format!("{}_playout_{size}x{size}", policy.name()), |b| {
                b.iter(|| {
                    po.start(game.board());
                    po.run(Color::Black, game.positions(), game.ko_rule(), 7.5, policy)
                })
            });
        }
    }
}

criterion_group!(benches, bench_play, bench_playout);
criterion_main!(benches);
