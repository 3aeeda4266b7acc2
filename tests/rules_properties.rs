//! Randomized property test of the rules core against a slow reference implementation.
//!
//! Thousands of random games on every size from 2x2 to 25x25, under each repetition rule.
//! After every move:
//! - the incremental board (chains, liberties, neighbour counts, empty list, hash) equals a
//!   from-scratch recomputation (`Board::check_invariants`);
//! - the position and prisoners equal those of a reference board written here from the rules
//!   alone (flood fills, no incremental state);
//! - legality per `Game::is_legal` equals the reference's for both colours: on boards up to
//!   7x7 at every point, on larger boards around the last move, at random points, and at every
//!   point every few moves;
//! - moves the reference calls illegal are refused by `Game::play`, changing nothing.
//!
//! At the end every game is undone move by move back to the start, and each step must restore
//! the exact earlier state: board (stones, hash, prisoners, ko), side to move, the recorded
//! positions and therefore the superko legality.
//!
//! Set `SHOUTAN_TEST_SEED` to explore other games; a failure prints its seed.

use std::collections::HashSet;

use shoutan::board::{Board, Color, EMPTY_BOARD_HASH, Move, Point, zobrist};
use shoutan::game::Game;
use shoutan::rng::Rng;
use shoutan::rules::{KoRule, Rules};

/// Cell values of the reference board.
const EMPTY: u8 = 0;

fn stone(c: Color) -> u8 {
    match c {
        Color::Black => 1,
        Color::White => 2,
    }
}

/// A board as a plain vector of cells, row-major from the lower-left corner, with every rule
/// evaluated from scratch.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct RefBoard {
    n: usize,
    cells: Vec<u8>,
}

/// What a legal move does on the reference board.
struct RefResult {
    cells: Vec<u8>,
    captured: Vec<usize>,
}

impl RefBoard {
    fn new(n: usize) -> RefBoard {
        RefBoard {
            n,
            cells: vec![EMPTY; n * n],
        }
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let n = self.n;
        let (x, y) = (i % n, i / n);
        let mut out = [usize::MAX; 4];
        if x > 0 {
            out[0] = i - 1;
        }
        if x + 1 < n {
            out[1] = i + 1;
        }
        if y > 0 {
            out[2] = i - n;
        }
        if y + 1 < n {
            out[3] = i + n;
        }
        out.into_iter().filter(|&j| j != usize::MAX)
    }

    /// The chain through `i` in `cells` and whether it has a liberty.
    fn chain(&self, cells: &[u8], i: usize) -> (Vec<usize>, bool) {
        let color = cells[i];
        let mut member = vec![false; cells.len()];
        let mut members = vec![i];
        member[i] = true;
        let mut free = false;
        let mut next = 0;
        while next < members.len() {
            let s = members[next];
            next += 1;
            for t in self.neighbours(s) {
                if cells[t] == EMPTY {
                    free = true;
                } else if cells[t] == color && !member[t] {
                    member[t] = true;
                    members.push(t);
                }
            }
        }
        (members, free)
    }

    /// Plays `c` at `i` by the book: place, remove opponent chains without liberties, then
    /// refuse if the mover's chain has none. `None` for occupied points and suicide.
    fn play(&self, i: usize, c: Color) -> Option<RefResult> {
        if self.cells[i] != EMPTY {
            return None;
        }
        let mut cells = self.cells.clone();
        cells[i] = stone(c);
        let opp = stone(c.opponent());
        let mut captured = Vec::new();
        for j in self.neighbours(i) {
            if cells[j] == opp {
                let (members, free) = self.chain(&cells, j);
                if !free {
                    for m in members {
                        cells[m] = EMPTY;
                        captured.push(m);
                    }
                }
            }
        }
        if !self.chain(&cells, i).1 {
            return None;
        }
        Some(RefResult { cells, captured })
    }
}

/// The reference game: positions seen (with and without the side to move) and the last move
/// for simple ko.
struct RefGame {
    board: RefBoard,
    rule: KoRule,
    to_move: Color,
    positions: HashSet<Vec<u8>>,
    situations: HashSet<(Vec<u8>, Color)>,
    /// The previous action: who, where (None for a pass), and what it captured.
    last: Option<(Color, Option<usize>, Vec<usize>)>,
    prisoners: [u32; 2],
}

impl RefGame {
    fn new(n: usize, rule: KoRule) -> RefGame {
        let board = RefBoard::new(n);
        let mut g = RefGame {
            rule,
            to_move: Color::Black,
            positions: HashSet::new(),
            situations: HashSet::new(),
            last: None,
            prisoners: [0; 2],
            board,
        };
        g.positions.insert(g.board.cells.clone());
        g.situations.insert((g.board.cells.clone(), Color::Black));
        g
    }

    /// Retakes a single-stone ko at once: captures exactly the stone just played by the
    /// opponent, which itself captured exactly one stone, on this point.
    fn is_simple_ko_retake(&self, i: usize, c: Color, result: &RefResult) -> bool {
        match &self.last {
            Some((who, Some(q), caps)) => {
                *who == c.opponent() && result.captured == [*q] && caps.len() == 1 && caps[0] == i
            }
            _ => false,
        }
    }

    fn legal(&self, i: usize, c: Color) -> Option<RefResult> {
        let result = self.board.play(i, c)?;
        let repeats = match self.rule {
            KoRule::Simple => self.is_simple_ko_retake(i, c, &result),
            KoRule::Positional => self.positions.contains(&result.cells),
            KoRule::Situational => self
                .situations
                .contains(&(result.cells.clone(), c.opponent())),
        };
        (!repeats).then_some(result)
    }

    fn apply(&mut self, c: Color, mv: Option<(usize, RefResult)>) {
        match mv {
            None => self.last = Some((c, None, Vec::new())),
            Some((i, result)) => {
                self.prisoners[c.index()] += result.captured.len() as u32;
                self.board.cells = result.cells;
                self.last = Some((c, Some(i), result.captured));
            }
        }
        self.to_move = c.opponent();
        self.positions.insert(self.board.cells.clone());
        self.situations
            .insert((self.board.cells.clone(), self.to_move));
    }
}

/// Translation between reference indices and board points.
fn point_of(board: &Board, i: usize) -> Point {
    let n = board.size();
    board.point(i % n, i / n)
}

fn cells_of(board: &Board) -> Vec<u8> {
    let n = board.size();
    (0..n * n)
        .map(|i| match board.cell(point_of(board, i)).color() {
            None => EMPTY,
            Some(c) => stone(c),
        })
        .collect()
}

/// Recomputes from scratch, through the board's public queries only, everything the board
/// keeps incrementally: chain membership and heads, chain sizes, exact liberty counts, the
/// stone lists, neighbour counts, the empty-point list and the Zobrist hash. Linear in the
/// board size, so it can run after every move even on 25x25 (`Board::check_invariants` is
/// thorough but slow on large chains, so it runs on a schedule).
fn check_incremental(board: &Board, reference: &RefBoard) -> Result<(), String> {
    let n = reference.n;
    let cells = &reference.cells;
    let mut hash = EMPTY_BOARD_HASH;
    let mut chain_of = vec![usize::MAX; n * n];
    let mut heads = HashSet::new();
    for i in 0..n * n {
        let p = point_of(board, i);
        let color = |j: usize| match cells[j] {
            EMPTY => None,
            1 => Some(Color::Black),
            _ => Some(Color::White),
        };
        // Neighbour counts: off-board neighbours count as stones of both colours.
        let mut empty = 0;
        let mut own_or_border = [0; 2];
        let on_board: Vec<usize> = reference.neighbours(i).collect();
        for c in Color::BOTH {
            own_or_border[c.index()] = 4 - on_board.len();
        }
        for &j in &on_board {
            match color(j) {
                None => empty += 1,
                Some(c) => own_or_border[c.index()] += 1,
            }
        }
        if board.empty_neighbors(p) != empty {
            return Err(format!("{}: empty neighbour count", board.vertex_name(p)));
        }
        for c in Color::BOTH {
            if board.own_or_border_neighbors(p, c) != own_or_border[c.index()] {
                return Err(format!("{}: {c} neighbour count", board.vertex_name(p)));
            }
        }
        let Some(c) = color(i) else { continue };
        hash ^= zobrist(c, p);
        if chain_of[i] != usize::MAX {
            continue;
        }
        // A new chain: flood-fill it and its liberties.
        let (members, _) = reference.chain(cells, i);
        let mut liberties = HashSet::new();
        for &m in &members {
            chain_of[m] = i;
            liberties.extend(reference.neighbours(m).filter(|&j| cells[j] == EMPTY));
        }
        let head = board.chain_id(p);
        if !heads.insert(head) {
            return Err(format!(
                "{}: chain id shared by two chains",
                board.vertex_name(p)
            ));
        }
        let mut listed: Vec<Point> = board.chain_stones(p).collect();
        let mut expected: Vec<Point> = members.iter().map(|&m| point_of(board, m)).collect();
        listed.sort_unstable();
        expected.sort_unstable();
        if listed != expected {
            return Err(format!("{}: chain stone list", board.vertex_name(p)));
        }
        for &m in &members {
            let q = point_of(board, m);
            if board.chain_id(q) != head {
                return Err(format!("{}: chain id", board.vertex_name(q)));
            }
        }
        if board.chain_len(p) != members.len() {
            return Err(format!("{}: chain size", board.vertex_name(p)));
        }
        if board.liberties(p) != liberties.len() {
            return Err(format!(
                "{}: {} liberties, expected {}",
                board.vertex_name(p),
                board.liberties(p),
                liberties.len()
            ));
        }
    }
    if hash != board.hash() {
        return Err("hash differs from the stones' Zobrist keys".into());
    }
    let mut empties: Vec<Point> = board.empty_points().to_vec();
    let mut expected: Vec<Point> = (0..n * n)
        .filter(|&i| cells[i] == EMPTY)
        .map(|i| point_of(board, i))
        .collect();
    empties.sort_unstable();
    expected.sort_unstable();
    if empties != expected {
        return Err("empty point list".into());
    }
    if board.stone_count() != n * n - expected.len() {
        return Err("stone count".into());
    }
    Ok(())
}

/// Legality of every point for both colours, as the game says: a fingerprint of the state
/// that superko depends on.
fn legal_map(game: &Game) -> Vec<bool> {
    let n = game.size();
    let b = game.board();
    let mut out = Vec::with_capacity(2 * n * n);
    for c in Color::BOTH {
        for i in 0..n * n {
            out.push(game.is_legal(Move::Play(point_of(b, i)), c));
        }
    }
    out
}

/// The state `undo` must restore, read through the board's public queries.
#[derive(Debug, PartialEq)]
struct Snapshot {
    cells: Vec<u8>,
    hash: u64,
    ko: Option<(Point, Color)>,
    prisoners: [u32; 2],
    last_moves: (Point, Point, Option<Color>),
    to_move: Color,
    positions: usize,
    legal: Vec<bool>,
}

fn snapshot(game: &Game) -> Snapshot {
    let b = game.board();
    Snapshot {
        cells: cells_of(b),
        hash: b.hash(),
        ko: b.ko(),
        prisoners: [b.prisoners(Color::Black), b.prisoners(Color::White)],
        last_moves: (b.last_move(), b.last_move2(), b.last_color()),
        to_move: game.to_move(),
        positions: game.positions().len(),
        legal: legal_map(game),
    }
}

fn compare_legality(
    game: &Game,
    reference: &RefGame,
    points: &[usize],
    context: impl Fn() -> String,
) {
    let b = game.board();
    for &i in points {
        for c in Color::BOTH {
            let ours = game.is_legal(Move::Play(point_of(b, i)), c);
            let theirs = reference.legal(i, c).is_some();
            assert_eq!(
                ours,
                theirs,
                "{}: {c} at {} legal per game {ours}, per reference {theirs}\n{b:?}",
                context(),
                b.vertex_name(point_of(b, i))
            );
        }
    }
}

/// Plays one random game and checks everything along the way; returns the number of moves.
fn random_game(n: usize, rule: KoRule, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(n, Rules::chinese()).expect("valid size");
    game.set_ko_rule(rule);
    let mut reference = RefGame::new(n, rule);
    let all: Vec<usize> = (0..n * n).collect();
    let full_every = match n {
        ..=5 => 1,
        6..=7 => 2,
        _ => 16,
    };
    let deep_every = match n {
        ..=4 => 1,
        5..=9 => 8,
        _ => 32,
    };
    let max_moves = 4 * n * n + 8;
    let mut snapshots = vec![snapshot(&game)];
    let mut passes = 0;
    let mut last_point: Option<usize> = None;
    let context = |ply: usize| format!("size {n}, rule {}, seed {seed}, ply {ply}", rule.name());

    for ply in 0..max_moves {
        let color = reference.to_move;
        assert_eq!(game.to_move(), color, "{}", context(ply));

        // Legality: everywhere on small boards, near the last move and at random elsewhere.
        if ply % full_every == 0 {
            compare_legality(&game, &reference, &all, || context(ply));
        } else {
            let mut sample: Vec<usize> = (0..6).map(|_| rng.below(n * n)).collect();
            if let Some(q) = last_point {
                let rb = &reference.board;
                for j in rb.neighbours(q) {
                    sample.push(j);
                    sample.extend(rb.neighbours(j));
                }
            }
            compare_legality(&game, &reference, &sample, || context(ply));
        }

        // An illegal move, when there is one nearby, must be refused without a trace.
        let probe = rng.below(n * n);
        if reference.legal(probe, color).is_none() {
            let before = game.board().clone();
            let p = point_of(game.board(), probe);
            assert!(game.play(Move::Play(p), color).is_err(), "{}", context(ply));
            assert_eq!(*game.board(), before, "{}", context(ply));
            assert_eq!(game.move_number(), ply, "{}", context(ply));
        }

        // Choose a move: often next to the last one (captures, ko), else anywhere.
        let mut choice = None;
        if rng.below(100) >= 3 {
            for attempt in 0..24 {
                let i = match last_point {
                    Some(q) if attempt < 8 && rng.below(2) == 0 => {
                        let near: Vec<usize> = reference.board.neighbours(q).collect();
                        near[rng.below(near.len())]
                    }
                    _ => rng.below(n * n),
                };
                if let Some(result) = reference.legal(i, color) {
                    choice = Some((i, result));
                    break;
                }
            }
        }
        match choice {
            None => {
                game.play(Move::Pass, color).expect("pass is always legal");
                reference.apply(color, None);
                passes += 1;
                last_point = None;
            }
            Some((i, result)) => {
                let p = point_of(game.board(), i);
                let predicted = game.board().hash_after(p, color);
                game.play(Move::Play(p), color).unwrap_or_else(|e| {
                    panic!("{}: reference-legal move refused: {e}", context(ply))
                });
                assert_eq!(game.board().hash(), predicted, "{}", context(ply));
                reference.apply(color, Some((i, result)));
                passes = 0;
                last_point = Some(i);
            }
        }
        assert_eq!(
            cells_of(game.board()),
            reference.board.cells,
            "{}",
            context(ply)
        );
        check_incremental(game.board(), &reference.board)
            .unwrap_or_else(|e| panic!("{}: {e}\n{:?}", context(ply), game.board()));
        if ply % deep_every == 0 {
            game.board()
                .check_invariants()
                .unwrap_or_else(|e| panic!("{}: {e}\n{:?}", context(ply), game.board()));
        }
        for c in Color::BOTH {
            assert_eq!(
                game.board().prisoners(c),
                reference.prisoners[c.index()],
                "{}",
                context(ply)
            );
        }
        snapshots.push(snapshot(&game));
        if passes >= 2 {
            break;
        }
    }

    // Undo everything, checking each earlier state exactly.
    let moves = game.move_number();
    snapshots.pop();
    while let Some(expected) = snapshots.pop() {
        assert!(game.undo(), "size {n} seed {seed}: undo refused");
        let ctx = format!("{} (undo)", context(snapshots.len()));
        if snapshots.len() % deep_every == 0 {
            game.board()
                .check_invariants()
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        }
        assert_eq!(snapshot(&game), expected, "{ctx}");
    }
    assert!(!game.undo(), "size {n} seed {seed}: undo past the start");
    assert_eq!(game.move_number(), 0);
    moves
}

/// Games per size: many on small boards, where captures, ko and suicide are frequent and
/// every point is checked; fewer on large boards, whose games are long.
fn games_for(n: usize) -> usize {
    match n {
        2..=3 => 600,
        4 => 300,
        5 => 200,
        6..=7 => 110,
        8..=9 => 45,
        10..=13 => 12,
        14..=19 => 5,
        _ => 3,
    }
}

fn base_seed() -> u64 {
    std::env::var("SHOUTAN_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_240_611)
}

/// Plays the games of `sizes`; returns (games, moves).
fn play_sizes(sizes: std::ops::RangeInclusive<usize>) -> (usize, usize) {
    let rules = [KoRule::Positional, KoRule::Situational, KoRule::Simple];
    let base = base_seed();
    let mut games = 0;
    let mut moves = 0;
    for n in sizes {
        for k in 0..games_for(n) {
            let seed = base
                .wrapping_mul(1_000_003)
                .wrapping_add((n * 10_000 + k) as u64);
            moves += random_game(n, rules[k % 3], seed);
            games += 1;
        }
    }
    eprintln!("{games} random games, {moves} moves checked (base seed {base})");
    (games, moves)
}

// Three tests so that the test harness can run them in parallel.

#[test]
fn random_games_on_small_boards_match_the_reference_and_undo_exactly() {
    let (games, moves) = play_sizes(2..=5);
    assert!(games >= 1500 && moves > 10_000);
}

#[test]
fn random_games_on_medium_boards_match_the_reference_and_undo_exactly() {
    let (games, moves) = play_sizes(6..=12);
    assert!(games >= 250 && moves > 10_000);
}

#[test]
fn random_games_on_large_boards_match_the_reference_and_undo_exactly() {
    let (games, moves) = play_sizes(13..=25);
    assert!(games >= 50 && moves > 10_000);
}

#[test]
fn the_reference_itself_knows_the_basic_rules() {
    // A test of the test, on hand-checked positions. Indices run row-major from the
    // lower-left: on 3x3, 0 = A1, 1 = B1, 2 = C1, 3 = A2, 4 = B2, 6 = A3.
    fn play(g: &mut RefGame, i: usize, c: Color) -> usize {
        let r = g.legal(i, c).expect("legal");
        let captured = r.captured.len();
        g.apply(c, Some((i, r)));
        captured
    }
    let mut g = RefGame::new(3, KoRule::Simple);
    play(&mut g, 1, Color::Black); // B1
    play(&mut g, 3, Color::Black); // A2
    assert!(
        g.legal(0, Color::White).is_none(),
        "A1 is suicide for White"
    );
    assert!(g.legal(0, Color::Black).is_some(), "A1 is fine for Black");
    play(&mut g, 2, Color::White); // C1
    play(&mut g, 4, Color::White); // B2
    play(&mut g, 6, Color::White); // A3
    // Black's B1 and A2 now share their last liberty A1: White fills it and captures both.
    assert!(
        g.legal(0, Color::Black).is_none(),
        "A1 is now suicide for Black"
    );
    assert_eq!(play(&mut g, 0, Color::White), 2);
    assert_eq!(g.board.cells[1], EMPTY);
    assert_eq!(g.prisoners[Color::White.index()], 2);

    // A ko on 5x5 (B1=1, C1=2, A2=5, B2=6, C2=7, D2=8, B3=11, C3=12, A5=20, E5=24).
    let ko_position = |rule: KoRule| {
        let mut k = RefGame::new(5, rule);
        for (i, c) in [
            (1, Color::Black),
            (5, Color::Black),
            (11, Color::Black),
            (2, Color::White),
            (8, Color::White),
            (12, Color::White),
            (6, Color::White),
        ] {
            play(&mut k, i, c);
        }
        assert_eq!(play(&mut k, 7, Color::Black), 1, "C2 takes B2");
        k
    };
    for rule in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
        let mut k = ko_position(rule);
        assert!(
            k.legal(6, Color::White).is_none(),
            "{rule:?}: immediate retake"
        );
        play(&mut k, 24, Color::White);
        play(&mut k, 20, Color::Black);
        // After an exchange elsewhere the retake repeats nothing.
        assert!(k.legal(6, Color::White).is_some(), "{rule:?}: later retake");
    }
    // After two passes the retake recreates the position before C2, and with the same
    // player (Black) to move as then: both superko rules forbid it, simple ko does not.
    for (rule, legal) in [
        (KoRule::Simple, true),
        (KoRule::Positional, false),
        (KoRule::Situational, false),
    ] {
        let mut k = ko_position(rule);
        k.apply(Color::White, None);
        k.apply(Color::Black, None);
        assert_eq!(k.legal(6, Color::White).is_some(), legal, "{rule:?}");
    }
}
