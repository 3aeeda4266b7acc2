//! The tree search as a player: reproducible, legal, ends games, resigns only when it should,
//! cleans up dead stones, reuses its tree, respects its memory cap and stop requests. (The
//! tactical positions of `gtp-scripts/search_*.gtp` run in `tests/gtp_scripts.rs`.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use shoutan::board::{Color, Move};
use shoutan::game::Game;
use shoutan::gtp::{Engine, EngineOptions};
use shoutan::rules::Rules;
use shoutan::score::Ownership;
use shoutan::search::dynkomi::DynamicKomiScheme;
use shoutan::search::{
    Candidate, Limits, LogObserver, Mode, SearchConfig, SearchResult, Searcher, Summary,
    effective_komi, root_moves,
};

fn engine(size: usize, playouts: u64, seed: u64) -> Engine {
    Engine::new(EngineOptions {
        size: Some(size),
        threads: 1,
        seed: Some(seed),
        playouts: Some(playouts),
        max_memory: 64 << 20,
        ..EngineOptions::default()
    })
    .unwrap()
}

/// The text of a GTP answer (`= text`), or a panic with the error.
fn ok(answer: String) -> String {
    assert!(answer.starts_with('='), "GTP error: {answer}");
    answer
        .trim_start_matches('=')
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim()
        .to_string()
}

#[test]
fn same_seed_same_game() {
    let game = |seed| {
        let mut e = engine(7, 400, seed);
        (0..12)
            .map(|i| ok(e.execute(if i % 2 == 0 { "genmove b" } else { "genmove w" })))
            .collect::<Vec<_>>()
    };
    let a = game(5);
    assert_eq!(
        a,
        game(5),
        "threads 1 + seed + playouts must be reproducible"
    );
    // Different seeds explore differently (checked over a whole game prefix, not one move).
    assert_ne!(a, game(6));
}

#[test]
fn self_play_is_legal_and_games_end() {
    for (size, seed) in [(2, 1), (3, 1), (5, 1), (7, 2), (7, 3), (9, 4)] {
        let mut e = engine(size, 300, seed);
        let mut color = Color::Black;
        let mut passes = 0;
        let mut ended = false;
        for _ in 0..(3 * size * size + 20) {
            // Every generated move is played through Game::play, which refuses anything
            // illegal (superko included): an error answer fails the test.
            let mv = ok(e.execute(&format!("genmove {}", color.letter())));
            if mv == "resign" {
                ended = true;
                break;
            }
            passes = if mv == "PASS" { passes + 1 } else { 0 };
            if passes == 2 {
                ended = true;
                break;
            }
            color = color.opponent();
        }
        assert!(
            ended,
            "{size}x{size} self-play did not end:\n{}",
            e.game.board().ascii()
        );
    }
}

#[test]
fn white_plays_handicap_games_with_compensation() {
    let mut e = engine(9, 300, 1);
    ok(e.execute("fixed_handicap 4"));
    assert_eq!(effective_komi(&e.game), 7.5 + 4.0);
    let mv = ok(e.execute("genmove w"));
    assert_ne!(
        mv, "resign",
        "never resigns at the start of a handicap game"
    );
    assert_ne!(mv, "PASS");
}

/// A 9x9 engine whose game is hopeless for Black (komi 200) and thirty moves old, with
/// Black to move.
fn hopeless_for_black() -> Engine {
    let mut e = engine(9, 1500, 1);
    ok(e.execute("komi 200"));
    for i in 0..30 {
        let c = if i % 2 == 0 { "b" } else { "w" };
        let col = ["A", "B", "C", "D", "E", "F", "G", "H", "J"][i % 9];
        ok(e.execute(&format!("play {c} {col}{}", 1 + 2 * (i / 9) + (i % 2))));
    }
    e
}

#[test]
fn resigns_after_a_few_hopeless_moves_but_never_at_the_start() {
    // Hopeless from the first move (komi 200), but the game has just begun.
    let mut e = engine(9, 1500, 1);
    ok(e.execute("komi 200"));
    for _ in 0..4 {
        assert_ne!(ok(e.execute("genmove b")), "resign");
        ok(e.execute("play w pass"));
    }
    // Thirty moves later it is still hopeless: resign at the third hopeless move.
    let mut e = hopeless_for_black();
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(ok(e.execute("genmove b")));
        ok(e.execute("play w pass"));
    }
    assert!(answers[..2].iter().all(|a| a != "resign"), "{answers:?}");
    assert_eq!(answers[2], "resign", "{answers:?}");
}

#[test]
fn each_colour_keeps_its_own_resign_streak() {
    // One engine plays both sides (GoGui's "computer plays both", self-play): White's
    // winning moves in between do not reset Black's streak, so Black still resigns at its
    // third hopeless move.
    let mut e = hopeless_for_black();
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(ok(e.execute("genmove b")));
        if answers.last().is_some_and(|a| a == "resign") {
            break;
        }
        let white = ok(e.execute("genmove w"));
        assert_ne!(white, "resign", "White wins this game");
    }
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers[..2].iter().all(|a| a != "resign"), "{answers:?}");
    assert_eq!(answers[2], "resign", "{answers:?}");
}

#[test]
fn only_moves_played_count_towards_resigning() {
    // Analysis and reg_genmove search the hopeless position without feeding the streak:
    // after them, the first genmove still plays.
    let mut e = hopeless_for_black();
    for command in [
        "shoutan-winrates",
        "shoutan-variation",
        "shoutan-search_summary",
        "shoutan-ownership",
        "reg_genmove b",
    ] {
        ok(e.execute(command));
    }
    assert_ne!(ok(e.execute("genmove b")), "resign");
}

#[test]
fn reg_genmove_answers_a_move_never_resign() {
    // Where three genmoves resign, reg_genmove keeps naming the move it would play.
    let mut e = hopeless_for_black();
    for _ in 0..5 {
        let answer = ok(e.execute("reg_genmove b"));
        assert_ne!(answer, "resign");
        assert!(e.game.board().parse_move(&answer).is_ok(), "{answer}");
    }
    assert_eq!(e.game.move_number(), 30, "reg_genmove plays nothing");
}

/// 5x5, komi 0.5: Black lives with eyes at A2 and B1 and owns columns A-C; White owns D-E.
/// The white stone A4 is dead in a three-point space (A5 A4 B4) inside Black's side.
///
/// ```text
///  5  . X X O .
///  4  O . X O .
///  3  X X X O .
///  2  . X X O .
///  1  X . X O .
/// ```
fn dead_stone_position(e: &mut Engine) {
    ok(e.execute("boardsize 5"));
    ok(e.execute("komi 0.5"));
    for v in ["B5", "C5", "C4", "A3", "B3", "C3", "B2", "C2", "A1", "C1"] {
        ok(e.execute(&format!("play b {v}")));
    }
    for v in ["D5", "D4", "D3", "D2", "D1", "A4", "pass"] {
        ok(e.execute(&format!("play w {v}")));
    }
}

#[test]
fn a_pass_that_ends_the_game_wins_the_final_count() {
    // White passed; Black counts the dead white stone A4 as final_status_list does, passes,
    // and final_score (after the game ended) agrees that Black won.
    let mut e = engine(5, 3000, 1);
    dead_stone_position(&mut e);
    assert_eq!(ok(e.execute("final_status_list dead")), "A4");
    assert_eq!(ok(e.execute("genmove b")), "PASS");
    assert_eq!(e.game.trailing_passes(), 2);
    assert_eq!(ok(e.execute("final_status_list dead")), "A4");
    assert!(ok(e.execute("final_score")).starts_with("B+"));
}

/// Black passes at move 5 of a 9x9 game: White, ahead only by komi on a nearly empty board.
fn early_pass(e: &mut Engine) {
    ok(e.execute("boardsize 9"));
    ok(e.execute("clear_board"));
    ok(e.execute("komi 7.5"));
    for (c, v) in [
        ("b", "E5"),
        ("w", "C5"),
        ("b", "E3"),
        ("w", "G5"),
        ("b", "pass"),
    ] {
        ok(e.execute(&format!("play {c} {v}")));
    }
}

#[test]
fn an_early_pass_is_not_answered_with_a_pass() {
    // The count on the board wins for White (komi), but nothing is settled: a person expects
    // the game to go on, under area and territory rules alike.
    for rules in ["chinese", "japanese"] {
        let mut e = engine(9, 2000, 1);
        ok(e.execute(&format!("shoutan-rules {rules}")));
        early_pass(&mut e);
        let mv = ok(e.execute("genmove w"));
        assert_ne!(mv, "PASS", "under {rules} rules");
    }
}

#[test]
fn under_tromp_taylor_passing_back_wins_on_the_count() {
    // Tromp-Taylor counts the board as it stands: White wins by komi if the game ends now,
    // and passing back is how computer games are won.
    let mut e = engine(9, 2000, 1);
    ok(e.execute("shoutan-rules tromp-taylor"));
    early_pass(&mut e);
    assert_eq!(ok(e.execute("genmove w")), "PASS");
    assert_eq!(ok(e.execute("final_score")), "W+7.5");
}

#[test]
fn passing_back_ends_an_open_game_when_going_on_loses() {
    // After Black's early pass the count wins for White. The search looked at real moves
    // only (the game was open): if the best of them still loses, passing is the only way
    // not to lose and White passes; if it wins, White plays it.
    let mut e = engine(9, 100, 1);
    early_pass(&mut e);
    let game = e.game.clone();
    let mut searcher = Searcher::new(SearchConfig::default());
    let e7 = game.board().parse_move("E7").unwrap();
    let result = |winrate: f64| SearchResult {
        summary: Summary {
            color: Color::White,
            playouts: 5000,
            elapsed: std::time::Duration::from_secs(1),
            candidates: vec![Candidate {
                mv: e7,
                visits: 4000,
                winrate,
                lcb: winrate - 0.02,
                prior: 0.1,
                score_lead: 0.0,
                pv: vec![e7],
            }],
            root_visits: 5000,
            nodes: (1000, 100_000),
            reclaims: 0,
            ownership: None,
        },
        ownership: Ownership::none(),
        score: 0.0,
        pass_withheld: true,
    };
    let decide = |s: &mut Searcher, w| s.decide(&game, Color::White, Mode::Normal, &result(w));
    assert_eq!(decide(&mut searcher, 0.3), Move::Pass);
    assert_eq!(decide(&mut searcher, 0.7), e7);
}

#[test]
fn dynamic_komi_brings_handicap_games_closer_for_both_sides() {
    // 19x19 with four handicap stones: White, giving them, and Black, holding them, both
    // count with komi shifted towards White, so their win rates move towards the middle
    // (White's up, Black's down) where the search can tell moves apart.
    let winrate = |scheme: &str, color: Color| {
        let mut e = Engine::new(EngineOptions {
            size: Some(19),
            threads: 1,
            seed: Some(1),
            playouts: Some(600),
            max_memory: 64 << 20,
            dynamic_komi: DynamicKomiScheme::parse(scheme).unwrap(),
            ..EngineOptions::default()
        })
        .unwrap();
        ok(e.execute("fixed_handicap 4"));
        if color == Color::Black {
            ok(e.execute("play w Q10"));
        }
        let limits = e.move_limits(color);
        let stop = AtomicBool::new(false);
        let mut observer = LogObserver { stop: &stop };
        let (_, result) = e.think_for_game(color, Mode::Normal, limits, &mut observer, true);
        result.winrate()
    };
    let (white_off, white_linear) = (
        winrate("off", Color::White),
        winrate("linear", Color::White),
    );
    assert!(
        white_linear > white_off + 0.05,
        "{white_off} -> {white_linear}"
    );
    let (black_off, black_linear) = (
        winrate("off", Color::Black),
        winrate("linear", Color::Black),
    );
    assert!(
        black_linear < black_off - 0.05,
        "{black_off} -> {black_linear}"
    );
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    let mut e = engine(5, 3000, 1);
    dead_stone_position(&mut e);
    // Counting dead stones as dead, Black wins: after White's pass, pass.
    assert_eq!(ok(e.execute("reg_genmove b")), "PASS");
    // In cleanup mode the dead stone must be captured first: play on its liberties.
    let mv = ok(e.execute("kgs-genmove_cleanup b"));
    assert!(["A5", "B4"].contains(&mv.as_str()), "cleanup played {mv}");
}

#[test]
fn the_tree_is_reused_after_the_moves_played() {
    let mut game = Game::new(9, Rules::chinese()).unwrap();
    let mut s = seeded_searcher(3, 64 << 20);
    let limits = Limits {
        playouts: Some(3000),
        ..Limits::default()
    };
    let first = search_black(&mut s, &game, limits);
    let best = first.summary.best().unwrap();
    assert!(best.pv.len() >= 2, "{:?}", best.pv);
    game.play(best.pv[0], Color::Black).unwrap();
    game.play(best.pv[1], Color::White).unwrap();
    let second = search_black(&mut s, &game, limits);
    assert!(
        second.summary.root_visits as u64 > second.summary.playouts,
        "visits kept from the first search: {} root visits, {} playouts",
        second.summary.root_visits,
        second.summary.playouts
    );
    // A move the tree never saw (two black moves in a row) starts afresh.
    game.play(Move::Pass, Color::Black).unwrap();
    let third = search_black(&mut s, &game, limits);
    assert!(third.summary.root_visits as u64 <= third.summary.playouts + 1);
}

/// A one-thread searcher with a fixed `seed` and a tree of at most `max_memory` bytes.
fn seeded_searcher(seed: u64, max_memory: usize) -> Searcher {
    Searcher::new(SearchConfig {
        seed: Some(seed),
        max_memory,
        ..SearchConfig::default()
    })
}

/// Searches Black's move in `game` within `limits`, with nothing asking it to stop early.
fn search_black(s: &mut Searcher, game: &Game, limits: Limits) -> SearchResult {
    let stop = AtomicBool::new(false);
    s.search(
        game,
        Color::Black,
        limits,
        Mode::Normal,
        &mut LogObserver { stop: &stop },
    )
}

/// Checks that the searcher's tree is whole: every node in use is reached exactly once from
/// the root, and every child range lies inside the part in use. (A child block may lie
/// before its parent: the root's children are made anew at each search, after the subtrees
/// they keep.)
fn assert_tree_whole(s: &Searcher) {
    let tree = s.tree().expect("a tree after a search");
    let used = tree.arena.used();
    assert!(used <= tree.arena.capacity());
    assert_eq!(
        tree.subtree_size(tree.root_id()),
        used - tree.root_id() as usize
    );
    for id in tree.root_id()..used as u32 {
        if let Some(c) = tree.get(id).children() {
            assert!(c.start != id && c.end as usize <= used, "{id}: {c:?}");
        }
    }
}

#[test]
fn a_full_tree_is_reclaimed_and_the_search_goes_on() {
    let game = Game::new(9, Rules::chinese()).unwrap();
    for threads in [1, 2] {
        let mut s = Searcher::new(SearchConfig {
            seed: Some(1),
            threads,
            // The smallest cap: a thousand nodes, far fewer than the search wants.
            max_memory: 1,
            ..SearchConfig::default()
        });
        let limits = Limits {
            playouts: Some(5000),
            ..Limits::default()
        };
        let r = search_black(&mut s, &game, limits);
        let (used, capacity) = r.summary.nodes;
        assert!(used <= capacity, "{used} > {capacity}");
        assert!(capacity < 5000 * 10, "the cap was not applied: {capacity}");
        assert!(r.summary.reclaims >= 10, "{} reclaims", r.summary.reclaims);
        assert_eq!(r.summary.playouts, 5000);
        // The visits of the root are all kept: the tree's statistics survive its pruning.
        assert!(r.summary.root_visits >= 5000, "{}", r.summary.root_visits);
        assert!(game.is_legal(r.best_move(), Color::Black));
        assert_tree_whole(&s);
        // Searching on from the reclaimed tree deepens the best line further.
        let best = r.summary.best().expect("a best move").visits;
        let again = search_black(&mut s, &game, limits);
        assert!(again.summary.reclaims >= 10);
        // The second search goes on from the first one's tree, however full it was.
        assert!(
            again.summary.root_visits >= 2 * 5000,
            "{threads} threads: the tree was not kept ({} root visits)",
            again.summary.root_visits
        );
        assert!(again.summary.best().expect("a best move").visits > best);
        assert_tree_whole(&s);
    }
}

#[test]
fn a_stop_request_ends_an_unlimited_search() {
    let game = Game::new(9, Rules::chinese()).unwrap();
    let mut s = seeded_searcher(1, 16 << 20);
    // Raised before the search starts: no limit is set, only the stop ends it.
    let stop = AtomicBool::new(true);
    let r = s.search(
        &game,
        Color::Black,
        Limits::default(),
        Mode::Normal,
        &mut LogObserver { stop: &stop },
    );
    assert!(stop.load(Ordering::Relaxed));
    assert!(r.summary.playouts < 1_000_000);
}

#[test]
fn root_moves_are_the_legal_moves_without_own_eyes() {
    let mut game = Game::new(5, Rules::chinese()).unwrap();
    for v in ["A2", "B1"] {
        let m = game.board().parse_move(v).unwrap();
        game.play(m, Color::Black).unwrap();
    }
    let moves = root_moves(&game, Color::Black);
    let a1 = game.board().parse_move("A1").unwrap();
    assert!(!moves.contains(&a1), "A1 is Black's own eye");
    assert_eq!(moves.len(), 25 - 2 - 1 + 1, "22 points and pass");
    assert!(root_moves(&game, Color::White).contains(&a1) == game.is_legal(a1, Color::White));
}

#[test]
fn analysis_streams_info_lines_and_stops_on_the_next_command() {
    let mut e = engine(9, 1000, 1);
    ok(e.execute("play b E5"));
    // A command is already waiting: the analysis must stop at once and end its answer.
    e.signals.pending.store(1, Ordering::Relaxed);
    for (cmd, winrate_is_float) in [("lz-analyze w 10", false), ("kata-analyze w 10", true)] {
        let out = e.execute(&format!("12 {cmd}"));
        assert!(out.starts_with("=12\n"), "{out:?}");
        assert!(out.ends_with("\n\n"), "{out:?}");
        for line in out.lines().skip(1).filter(|l| !l.is_empty()) {
            assert!(line.starts_with("info move "), "{line}");
            let words: Vec<&str> = line.split(' ').collect();
            let winrate = words[words.iter().position(|w| *w == "winrate").unwrap() + 1];
            assert_eq!(winrate.contains('.'), winrate_is_float, "{line}");
        }
    }
    e.signals.pending.store(0, Ordering::Relaxed);
    let out = e.execute("kata-genmove_analyze b 10");
    assert!(out.starts_with("=\n"), "{out}");
    let play = out
        .lines()
        .find(|l| l.starts_with("play "))
        .expect("a play line");
    assert_eq!(e.game.move_number(), 2, "the move was played: {play}");
    assert!(out.ends_with("\n\n"));
    assert!(ok(e.execute("gogui-analyze_commands")).contains("/shoutan-ownership"));
    let own = ok(e.execute("shoutan-ownership"));
    let influence = own.lines().next().unwrap_or("");
    assert!(influence.starts_with("INFLUENCE "), "{own}");
    // A vertex and a value for each of the 81 points.
    assert_eq!(influence.split(' ').count(), 1 + 2 * 81, "{own}");
    assert!(e.execute("lz-analyze b nonsense").starts_with("? "));
}

#[test]
fn a_search_out_of_time_before_it_starts_still_finds_a_move() {
    // A starved machine can spend a whole move's time on the set-up: the search must still
    // run a few simulations and play a real move, not pass for lack of any.
    let mut game = Game::new(9, Rules::chinese()).unwrap();
    for v in ["E5", "C3"] {
        let m = game.board().parse_move(v).unwrap();
        let c = game.to_move();
        game.play(m, c).unwrap();
    }
    let mut s = seeded_searcher(5, 16 << 20);
    let limits = Limits {
        time: Some(Duration::ZERO),
        ..Limits::default()
    };
    let r = search_black(&mut s, &game, limits);
    assert!(r.summary.playouts >= 64, "{} playouts", r.summary.playouts);
    assert_ne!(r.best_move(), Move::Pass);
    assert_ne!(s.decide(&game, Color::Black, Mode::Normal, &r), Move::Pass);
}

#[test]
fn root_moves_carry_the_policy_probability_for_the_policy_bias() {
    let game = Game::new(9, Rules::chinese()).unwrap();
    let mut s = seeded_searcher(2, 16 << 20);
    let limits = Limits {
        playouts: Some(200),
        ..Limits::default()
    };
    search_black(&mut s, &game, limits);
    let tree = s.tree().expect("a tree after a search");
    let children = tree.root().children().expect("an expanded root");
    let probabilities: Vec<f32> = children.map(|c| tree.get(c).policy()).collect();
    let total: f32 = probabilities.iter().sum();
    assert!(
        probabilities.iter().filter(|&&p| p > 0.0).count() > 20,
        "{probabilities:?}"
    );
    assert!((0.8..1.1).contains(&total), "probabilities sum to {total}");
}
