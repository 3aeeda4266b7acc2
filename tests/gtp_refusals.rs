//! Every GTP command's refusals: unknown commands, wrong argument counts, bad colours,
//! vertices, sizes and numbers, boards that are not empty, illegal moves, bad files. Each
//! refusal must be a `?` answer (echoing the id) with a message saying what was wrong, and
//! must leave the engine exactly as it was: board and hash, prisoners, ko, move number,
//! player to move, komi, handicap, size, rules, ko rule and clock.

use shoutan::board::Color;
use shoutan::gtp::{Engine, EngineOptions};

/// The commands every client relies on; each must be listed and must have refusal cases below.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "showboard",
    "is_legal",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "cputime",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "loadsgf",
    "printsgf",
];

fn engine() -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        playouts: Some(50),
        seed: Some(5),
        ..EngineOptions::default()
    })
    .expect("engine")
}

/// A game in progress on 9x9 with a capture and a live ko ban (White may not retake at C2
/// in the 5x5-style shape), komi 6.5 and a clock.
fn game_in_progress() -> Engine {
    let mut e = engine();
    for c in [
        "boardsize 9",
        "komi 6.5",
        "time_settings 300 30 5",
        "time_left b 200 0",
        "play b B1",
        "play b A2",
        "play b B3",
        "play w C1",
        "play w D2",
        "play w C3",
        "play w B2",
        "play b C2",
    ] {
        assert_eq!(e.execute(c), "= \n\n", "{c}");
    }
    assert_eq!(e.execute("is_legal w B2"), "= 0\n\n", "the ko ban is live");
    e
}

/// An empty 19x19 board with komi 0.5.
fn empty_board() -> Engine {
    let mut e = engine();
    assert_eq!(e.execute("komi 0.5"), "= \n\n");
    e
}

/// Everything a refusal must not change.
#[derive(Debug, PartialEq)]
struct State {
    board: String,
    hash: u64,
    prisoners: [u32; 2],
    ko: Option<(u16, Color)>,
    move_number: usize,
    to_move: Color,
    komi: f32,
    handicap: usize,
    size: usize,
    rules: &'static str,
    ko_rule: &'static str,
    positions: usize,
    clock: String,
    quit: bool,
}

fn state(e: &Engine) -> State {
    let g = &e.game;
    let b = g.board();
    State {
        board: b.ascii(),
        hash: b.hash(),
        prisoners: [b.prisoners(Color::Black), b.prisoners(Color::White)],
        ko: b.ko(),
        move_number: g.move_number(),
        to_move: g.to_move(),
        komi: g.komi(),
        handicap: g.handicap(),
        size: g.size(),
        rules: g.rules().name,
        ko_rule: g.ko_rule().name(),
        positions: g.positions().len(),
        clock: format!("{:?}", e.clock),
        quit: e.quit_requested(),
    }
}

/// Sends `command` with an id and checks: refused, id echoed, message contains `expected`
/// (or one of its `|`-separated parts), state unchanged. Returns the message.
fn refused(e: &mut Engine, command: &str, expected: &str) -> String {
    let before = state(e);
    let answer = e.execute(&format!("77 {command}"));
    assert!(
        answer.starts_with("?77 ") && answer.ends_with("\n\n"),
        "`{command}` should be refused, got {answer:?}"
    );
    let message = answer["?77 ".len()..].trim_end().to_string();
    assert!(
        expected.split('|').any(|part| message.contains(part)),
        "`{command}`: message {message:?} should contain {expected:?}"
    );
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "`{command}`: {message:?}"
    );
    assert_eq!(state(e), before, "`{command}` changed the state");
    message
}

/// Refusal cases: (command, expected part of the message), run on a game in progress and
/// on an empty board.
const CASES: &[(&str, &str)] = &[
    ("frobnicate", "unknown command: frobnicate"),
    ("PLAY b D4", "unknown command: PLAY"),
    ("protocol_version 2", "syntax error"),
    ("name x", "syntax error"),
    ("version x", "syntax error"),
    ("known_command", "syntax error"),
    ("known_command a b", "syntax error"),
    ("list_commands x", "syntax error"),
    ("quit now", "syntax error"),
    ("boardsize", "syntax error"),
    ("boardsize 9 9", "syntax error"),
    ("boardsize 0", "unacceptable size"),
    ("boardsize 1", "unacceptable size"),
    ("boardsize 26", "unacceptable size"),
    ("boardsize -5", "unacceptable size"),
    ("boardsize 9.5", "unacceptable size"),
    ("boardsize nine", "unacceptable size"),
    ("boardsize 184467440737095516160", "unacceptable size"),
    ("clear_board 9", "syntax error"),
    ("komi", "syntax error"),
    ("komi 1 2", "syntax error"),
    ("komi six", "komi must be a number"),
    ("komi nan", "komi must be a number"),
    ("komi -inf", "komi must be a number"),
    ("komi 1e400", "komi must be a number"),
    ("komi 1001", "out of range"),
    ("komi -5000", "out of range"),
    ("play", "syntax error"),
    ("play b", "syntax error"),
    ("play b D4 E4", "syntax error"),
    ("play red D4", "invalid color 'red'"),
    ("play bw D4", "invalid color 'bw'"),
    ("play b I4", "invalid vertex 'I4'"),
    ("play b 44", "invalid vertex '44'"),
    ("play b D", "invalid vertex 'D'"),
    ("play b D4x", "invalid vertex 'D4x'"),
    ("play b D+4", "invalid vertex 'D+4'"),
    ("play b Ω4", "invalid vertex 'Ω4'"),
    ("play b Z1", "off the"),
    ("play b A0", "off the"),
    ("play b A26", "off the"),
    ("genmove", "syntax error"),
    ("genmove b w", "syntax error"),
    ("genmove purple", "invalid color"),
    ("reg_genmove", "syntax error"),
    ("reg_genmove x", "invalid color"),
    ("kgs-genmove_cleanup", "syntax error"),
    ("kgs-genmove_cleanup x", "invalid color"),
    ("undo 2", "syntax error"),
    ("showboard big", "syntax error"),
    ("is_legal", "syntax error"),
    ("is_legal b", "syntax error"),
    ("is_legal b D4 D5", "syntax error"),
    ("is_legal x D4", "invalid color"),
    ("is_legal b J0", "off the"),
    ("is_legal b I9", "invalid vertex"),
    ("fixed_handicap", "syntax error"),
    ("fixed_handicap 2 3", "syntax error"),
    ("fixed_handicap x", "non-negative integer"),
    ("fixed_handicap -2", "non-negative integer"),
    ("place_free_handicap", "syntax error"),
    ("place_free_handicap two", "non-negative integer"),
    ("set_free_handicap", "board not empty|bad vertex list"),
    (
        "set_free_handicap D4 D4",
        "board not empty|bad vertex list: D4 repeated",
    ),
    ("set_free_handicap D4 Z9", "board not empty|bad vertex list"),
    ("cputime now", "syntax error"),
    ("time_settings", "syntax error"),
    ("time_settings 1 2", "syntax error"),
    ("time_settings 1 2 3 4", "syntax error"),
    ("time_settings x 0 0", "main time must be a number"),
    ("time_settings -1 0 0", "must not be negative"),
    ("time_settings 10 x 0", "byo-yomi time must be a number"),
    ("time_settings 10 10 x", "byo-yomi stones"),
    ("time_settings 10 10 -1", "byo-yomi stones"),
    ("kgs-time_settings", "syntax error"),
    ("kgs-time_settings sudden 10", "unknown time system"),
    ("kgs-time_settings none 1", "syntax error"),
    ("kgs-time_settings absolute", "syntax error"),
    ("kgs-time_settings absolute -1", "must not be negative"),
    ("kgs-time_settings byoyomi 1 2", "syntax error"),
    (
        "kgs-time_settings byoyomi 10 x 3",
        "period time must be a number",
    ),
    ("kgs-time_settings canadian 10 10", "syntax error"),
    ("kgs-time_settings canadian 10 10 x", "stones"),
    ("time_left", "syntax error"),
    ("time_left b 10", "syntax error"),
    ("time_left x 10 0", "invalid color"),
    ("time_left b x 0", "time must be a number"),
    ("time_left b -3 0", "must not be negative"),
    ("time_left b 10 -1", "stones"),
    ("loadsgf", "syntax error"),
    ("loadsgf a b c", "syntax error"),
    (
        "loadsgf /no/such/file.sgf",
        "cannot load '/no/such/file.sgf': cannot open the file",
    ),
    ("loadsgf /", "cannot load '/': cannot read the file"),
    ("loadsgf game.sgf 0", "move number must be at least 1"),
    ("loadsgf game.sgf -1", "invalid move number"),
    ("printsgf a b", "syntax error"),
    (
        "printsgf /no/such/dir/game.sgf",
        "cannot write '/no/such/dir/game.sgf'",
    ),
];

#[test]
fn every_refusal_is_an_error_answer_that_changes_nothing() {
    for make in [game_in_progress, empty_board] {
        let mut e = make();
        for (command, expected) in CASES {
            refused(&mut e, command, expected);
        }
    }
}

#[test]
fn every_core_command_is_listed_and_has_refusal_cases() {
    let mut e = engine();
    let list = e.execute("list_commands");
    let listed: Vec<&str> = list[2..].split_whitespace().collect();
    for name in COMMANDS {
        assert!(listed.contains(name), "{name} is not in list_commands");
        assert!(
            CASES.iter().any(|(c, _)| c.split(' ').next() == Some(name)),
            "{name} has no refusal case"
        );
    }
}

#[test]
fn moves_the_rules_forbid_are_refused() {
    let mut e = game_in_progress();
    // Occupied, the ko retake, suicide.
    refused(&mut e, "play w B1", "illegal move: point is occupied");
    refused(&mut e, "play w B2", "illegal move: retakes a ko");
    assert_eq!(e.execute("play w J9"), "= \n\n");
    assert_eq!(e.execute("play b H9"), "= \n\n");
    assert_eq!(e.execute("play w J8"), "= \n\n");
    refused(&mut e, "play b J9", "illegal move");
    let mut s = engine();
    assert_eq!(s.execute("boardsize 5"), "= \n\n");
    for c in ["play w A2", "play w B1"] {
        assert_eq!(s.execute(c), "= \n\n");
    }
    refused(&mut s, "play b A1", "illegal move: suicide");
    // Superko: the cycle of gtp-scripts/superko_positional.gtp.
    let mut k = engine();
    for c in [
        "boardsize 5",
        "play b B2",
        "play w A2",
        "play b C2",
        "play w B1",
        "play b D1",
        "play w C1",
        "play b A1",
    ] {
        assert_eq!(k.execute(c), "= \n\n", "{c}");
    }
    refused(
        &mut k,
        "play w B1",
        "illegal move: repeats an earlier position",
    );
}

#[test]
fn commands_that_need_an_empty_board_refuse_otherwise() {
    let mut e = game_in_progress();
    refused(&mut e, "fixed_handicap 2", "board not empty");
    refused(&mut e, "place_free_handicap 2", "board not empty");
    refused(&mut e, "set_free_handicap A1 J9", "board not empty");
    // A board with only a pass played is not empty either: the game has begun.
    let mut p = empty_board();
    assert_eq!(p.execute("play b pass"), "= \n\n");
    refused(&mut p, "fixed_handicap 2", "board not empty");
    let mut h = empty_board();
    assert_eq!(h.execute("fixed_handicap 4"), "= D4 Q16 D16 Q4\n\n");
    refused(&mut h, "set_free_handicap A1 B2", "board not empty");
    refused(&mut h, "undo", "cannot undo");
}

#[test]
fn handicap_counts_and_vertex_lists_are_checked() {
    let mut e = empty_board();
    for (command, expected) in [
        ("fixed_handicap 0", "invalid number of stones"),
        ("fixed_handicap 1", "invalid number of stones"),
        ("fixed_handicap 10", "invalid number of stones"),
        (
            "fixed_handicap 18446744073709551615",
            "invalid number of stones",
        ),
        ("place_free_handicap 0", "invalid number of stones"),
        ("place_free_handicap 1", "invalid number of stones"),
        ("place_free_handicap 361", "invalid number of stones"),
        ("set_free_handicap", "bad vertex list"),
        ("set_free_handicap D4", "bad vertex list"),
        ("set_free_handicap D4 D4", "bad vertex list: D4 repeated"),
        ("set_free_handicap D4 d4", "bad vertex list: D4 repeated"),
        (
            "set_free_handicap D4 pass",
            "bad vertex list: pass is not a vertex",
        ),
        ("set_free_handicap D4 Z30", "bad vertex list"),
        ("set_free_handicap D4 I4", "bad vertex list"),
        ("set_free_handicap D4 x", "bad vertex list"),
    ] {
        refused(&mut e, command, expected);
    }
    assert_eq!(e.execute("boardsize 6"), "= \n\n");
    refused(&mut e, "fixed_handicap 2", "invalid number of stones");
    assert_eq!(e.execute("boardsize 2"), "= \n\n");
    refused(&mut e, "set_free_handicap A1 A2 B1 B2", "bad vertex list");
    refused(&mut e, "place_free_handicap 4", "invalid number of stones");
}

#[test]
fn undo_refuses_at_the_start_only() {
    let mut e = engine();
    refused(&mut e, "undo", "cannot undo");
    assert_eq!(e.execute("play b D4"), "= \n\n");
    assert_eq!(e.execute("undo"), "= \n\n");
    refused(&mut e, "undo", "cannot undo");
}

#[test]
fn bad_sgf_files_are_refused_without_touching_the_game() {
    let dir = std::env::temp_dir().join(format!("shoutan-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // (file, content, expected message, refused even when loading stops before move 1):
    // problems of the whole file always count; an illegal move only when it is reached.
    let cases: &[(&str, &str, &str, bool)] = &[
        ("empty.sgf", "", "cannot parse SGF", true),
        (
            "truncated.sgf",
            "(;SZ[9];B[ee];W[c",
            "cannot parse SGF",
            true,
        ),
        ("unclosed.sgf", "(;SZ[9];B[ee]", "cannot parse SGF", true),
        ("garbage.sgf", "hello ] world", "cannot parse SGF", true),
        ("binary.sgf", "\u{0}\u{1}\u{2}", "cannot parse SGF", true),
        ("othergame.sgf", "(;GM[3]SZ[8])", "not a game of Go", true),
        ("big.sgf", "(;SZ[26])", "unacceptable size", true),
        ("huge.sgf", "(;SZ[400])", "invalid SZ", true),
        ("tiny.sgf", "(;SZ[1])", "unacceptable size", true),
        ("rect.sgf", "(;SZ[19:13])", "rectangular", true),
        ("komi.sgf", "(;SZ[9]KM[x])", "invalid KM", true),
        ("komi-range.sgf", "(;SZ[9]KM[1e9])", "out of range", true),
        ("ha.sgf", "(;SZ[9]HA[x])", "invalid HA", true),
        ("ha-range.sgf", "(;SZ[3]HA[9])", "too large", true),
        ("badmove.sgf", "(;SZ[9];B[5])", "invalid B", true),
        (
            "badsetup.sgf",
            "(;SZ[9]AB[aa]AW[ab][ba])",
            "setup stone",
            true,
        ),
        ("badpl.sgf", "(;SZ[9]PL[X])", "invalid PL", true),
        (
            "occupied.sgf",
            "(;SZ[9];B[ee];W[ee])",
            "move 2 (white E5) is illegal: point is occupied",
            false,
        ),
        ("offboard.sgf", "(;SZ[9];B[zz])", "off the 9x9 board", false),
        ("suicide.sgf", "(;SZ[9]AW[ba][ab];B[aa])", "suicide", false),
    ];
    for make in [game_in_progress, empty_board] {
        let mut e = make();
        for (name, content, expected, always) in cases {
            let path = dir.join(name);
            std::fs::write(&path, content).expect("write");
            refused(&mut e, &format!("loadsgf {}", path.display()), expected);
            if *always {
                refused(&mut e, &format!("loadsgf {} 1", path.display()), expected);
            }
        }
        let good = dir.join("good.sgf");
        std::fs::write(&good, "(;SZ[9];B[ee])").expect("write");
        refused(
            &mut e,
            &format!("loadsgf {} K10", good.display()),
            "invalid move number",
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lines_that_are_not_commands() {
    let mut e = game_in_progress();
    let before = state(&e);
    // Empty and comment-only lines get no answer at all.
    for line in [
        "",
        "   ",
        "\t",
        "# a comment",
        "  # indented",
        "\r",
        "\u{1}\u{2}",
    ] {
        assert_eq!(e.execute(line), "", "{line:?}");
    }
    // An id without a command, invalid UTF-8: refused, the id echoed when it can be read.
    assert_eq!(e.execute("42"), "?42 missing command name\n\n");
    assert_eq!(e.execute("42 # comment"), "?42 missing command name\n\n");
    let mut out = Vec::new();
    e.execute_line(b"7 play b \xff\xfe", &mut out)
        .expect("in memory");
    assert_eq!(
        String::from_utf8_lossy(&out),
        "?7 invalid UTF-8 in command\n\n"
    );
    let mut out = Vec::new();
    e.execute_line(b"\xc3", &mut out).expect("in memory");
    assert_eq!(
        String::from_utf8_lossy(&out),
        "? invalid UTF-8 in command\n\n"
    );
    assert_eq!(state(&e), before);
}
