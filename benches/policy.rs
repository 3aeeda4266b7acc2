//! Criterion benchmark of the move-prediction model: scoring every legal move of a
//! middle-game position (the cost of expanding a search node), 19x19 and 9x9, one thread.
//!
//! The positions come from a seeded heavy playout stopped in the middle of the game, so
//! they have fights, chains short of liberties and a last move to answer.

use criterion::{Criterion, criterion_group, criterion_main};

use shoutan::board::{Board, Color, Move};
use shoutan::game::Game;
use shoutan::playout::{Playout, Policy as PlayoutPolicy};
use shoutan::policy::{Candidate, Policy, Scratch};
use shoutan::rules::Rules;

/// The position after `moves` moves of a seeded heavy playout on an empty `size` board.
fn middle_game(size: usize, moves: usize, seed: u64) -> (Board, Color) {
    let game = Game::new(size, Rules::chinese()).expect("valid size");
    let mut po = Playout::new(seed);
    po.start(game.board());
    po.run(
        Color::Black,
        game.positions(),
        game.ko_rule(),
        7.5,
        PlayoutPolicy::Heavy,
    );
    let mut board = Board::new(size);
    let mut next = Color::Black;
    for &(p, c) in po.moves.iter().take(moves) {
        if board.is_legal(p, c) {
            board.play(p, c);
        }
        next = c.opponent();
    }
    (board, next)
}

fn bench_policy(c: &mut Criterion) {
    let policy = Policy::builtin();
    for (size, moves) in [(19, 150), (9, 40)] {
        let (board, mover) = middle_game(size, moves, 3);
        let mut scratch = Scratch::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut out: Vec<(Move, f32)> = Vec::new();
        c.bench_function(&format!("policy_{size}x{size}_midgame"), |b| {
            b.iter(|| {
                policy.evaluate(
                    &board,
                    mover,
                    &mut scratch,
                    |_| true,
                    &mut candidates,
                    &mut out,
                );
                out.len()
            })
        });
    }
}

criterion_group!(benches, bench_policy);
criterion_main!(benches);
