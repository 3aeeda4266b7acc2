//! Criterion benchmark of tree reuse: sliding a large kept subtree to the front of the arena
//! ([`Tree::compact`]), the pause a genmove pays after a long analysis or ponder.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

use shoutan::board::Move;
use shoutan::search::tree::{MAX_SLIDE_NODES, NodeId, Tree};

/// A tree whose root has two children, the first of which holds a breadth-first subtree of
/// `nodes` nodes (eight children per node); returns the tree and that child.
fn tree_with_subtree(nodes: usize) -> (Tree, NodeId) {
    let mut tree = Tree::new(nodes + 100);
    let root = tree.root_id();
    let kept = [Move::Play(10), Move::Play(11)];
    assert!(tree.set_children(root, &kept, |_| (1, 0.5, 0.0)));
    let first = tree.child_by_move(root, kept[0]).expect("just added");
    let moves: Vec<Move> = (20..28).map(Move::Play).collect();
    let mut queue = std::collections::VecDeque::from([first]);
    while let Some(id) = queue.pop_front() {
        if !tree.set_children(id, &moves, |_| (1, 0.5, 0.0)) {
            break;
        }
        queue.extend(tree.get(id).children().into_iter().flatten());
    }
    (tree, first)
}

fn bench_compact(c: &mut Criterion) {
    let mut group = c.benchmark_group("tree_compact");
    group.sample_size(10);
    // The largest subtree still slid is the longest pause tree reuse can cost.
    for nodes in [1_000_000, MAX_SLIDE_NODES - 1000] {
        group.bench_function(format!("{nodes}_nodes"), |b| {
            b.iter_batched(
                || tree_with_subtree(nodes),
                |(mut tree, kept)| {
                    tree.compact(kept);
                    tree
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_compact);
criterion_main!(benches);
