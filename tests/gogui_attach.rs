//! GoGui 1.6 attaching shoutan, replayed against the binary command for command, with what
//! GoGui does with each answer, so that the test sees what a GoGui user sees: whether the
//! board, game and komi they opened survive, and whether a referee refuses illegal moves and
//! ends games.
//!
//! What GoGui does, as far as these tests need it:
//! - Attaching a player, it asks `gogui-rules_board_size` before it sends `boardsize`. A
//!   number other than its board's size makes it throw the user's game away for a new empty
//!   board of that size, with the komi of its preferences (6.5 unless set). An error answer is
//!   ignored: the user's board stays. Then it sends `boardsize`, `clear_board`, `komi` and the
//!   moves of its game.
//! - A player whose `gogui-rules_game_id` is not "Go" (in any case), but which has the
//!   referee commands, is started a second time as a referee.
//! - Attaching a referee, it never sends `boardsize` or `komi`: the board size comes from the
//!   referee's `gogui-rules_board_size`, and an error there is shown in a dialog and nothing
//!   is attached. A first referee always starts a new, empty game of its size; opening a file
//!   afterwards replays it into the referee.
//! - With a referee, GoGui's board is what `gogui-rules_board` says, read with the size from
//!   `gogui-rules_board_size`: on every change of position GoGui sends `clear_board` and every
//!   move again, then reads the board back. After a move it sends that move once more and
//!   ignores the answer. A click is legal when `gogui-rules_legal_moves` lists the point
//!   (a case-sensitive whole-word match) or `pass`; an empty list means the game is over, and
//!   `gogui-rules_final_result` is what the "Game finished" dialog shows.
//! - Attaching a player while a referee is attached, GoGui checks that the player answers its
//!   board's size and the referee's game id; if not, it tries the player's command as a new
//!   referee (which must answer the same game id and size to replace the old one) and shows
//!   any error in a dialog.

mod common;

use std::collections::HashSet;
use std::path::Path;

use common::{Answer, GtpProcess};
use regex::Regex;

/// The komi of a new game in GoGui when its preferences say nothing else.
const GOGUI_NEW_GAME_KOMI: f64 = 6.5;

/// The game GoGui shows (and would save).
#[derive(Clone, Debug, PartialEq)]
struct GoGuiGame {
    size: usize,
    komi: f64,
    moves: Vec<(&'static str, &'static str)>,
}

impl GoGuiGame {
    /// What GoGui makes when it replaces the user's game.
    fn new_game(size: usize) -> GoGuiGame {
        GoGuiGame {
            size,
            komi: GOGUI_NEW_GAME_KOMI,
            moves: Vec::new(),
        }
    }

    /// The file the user opened: `(;SZ[9]KM[7.5];B[ee];W[cc];B[gc];W[eg])`.
    fn users_game() -> GoGuiGame {
        GoGuiGame {
            size: 9,
            komi: 7.5,
            moves: vec![("B", "E5"), ("W", "C7"), ("B", "G7"), ("W", "E3")],
        }
    }
}

/// The users_game position, top row first.
const USERS_BOARD: [&str; 9] = [
    ".........",
    ".........",
    "..O...X..",
    ".........",
    "....X....",
    ".........",
    "....O....",
    ".........",
    ".........",
];

fn shoutan(args: &[&str]) -> GtpProcess {
    GtpProcess::spawn(Path::new(env!("CARGO_BIN_EXE_shoutan")), args, None).expect("start shoutan")
}

fn ask(engine: &mut GtpProcess, command: &str) -> Answer {
    engine.send(command).expect("the engine answers")
}

fn ok(engine: &mut GtpProcess, command: &str) -> String {
    let a = ask(engine, command);
    assert!(a.ok, "{command}: {}", a.text);
    a.text
}

fn list_commands(engine: &mut GtpProcess) -> HashSet<String> {
    let commands: HashSet<String> = ok(engine, "list_commands")
        .lines()
        .map(str::to_string)
        .collect();
    if commands.contains("gogui-interrupt") {
        ok(engine, "gogui-interrupt");
    }
    commands
}

/// GoGui's size parsing: the first word must be a number (else the attach itself fails).
fn size_of(answer: &str) -> usize {
    let first = answer.split_whitespace().next().unwrap_or("");
    first
        .parse()
        .unwrap_or_else(|_| panic!("GoGui cannot read the size '{answer}'"))
}

/// Attaching a player (`-program` after the file is loaded, or Program → Attach) with no
/// referee attached: the game GoGui shows afterwards.
fn attach_player(player: &mut GtpProcess, game: &GoGuiGame) -> GoGuiGame {
    let mut game = game.clone();
    for command in ["name", "protocol_version", "version"] {
        ok(player, command);
    }
    let commands = list_commands(player);
    if commands.contains("gogui-rules_game_id") {
        let id = ask(player, "gogui-rules_game_id");
        assert!(
            id.ok && id.text.eq_ignore_ascii_case("go"),
            "GoGui would start the player as a referee: {id:?}"
        );
    }
    ok(player, "name");
    ok(player, "protocol_version");
    if commands.contains("gogui-rules_board_size") {
        let answer = ask(player, "gogui-rules_board_size");
        if answer.ok && size_of(&answer.text) != game.size {
            game = GoGuiGame::new_game(size_of(&answer.text));
        }
    }
    if commands.contains("gogui-analyze_commands") {
        for line in ok(player, "gogui-analyze_commands").lines() {
            let fields = line.split('/').count();
            assert!((3..=5).contains(&fields), "GoGui cannot read '{line}'");
        }
    }
    set_up_player(player, &game);
    game
}

/// GoGui bringing a player to its game.
fn set_up_player(player: &mut GtpProcess, game: &GoGuiGame) {
    ok(player, &format!("boardsize {}", game.size));
    ok(player, "clear_board");
    ok(player, &format!("komi {}", game.komi));
    for (color, point) in &game.moves {
        ok(player, &format!("play {color} {point}"));
    }
}

/// A board as GoGui reads `gogui-rules_board`: `X`, `O`, `.` and `?` in rows from the top,
/// every other character skipped.
fn read_board(answer: &str, size: usize) -> Vec<String> {
    let cells: Vec<char> = answer
        .chars()
        .filter(|c| matches!(c, 'X' | 'O' | '.' | '?'))
        .collect();
    assert_eq!(cells.len(), size * size, "{answer}");
    cells.chunks(size).map(|row| row.iter().collect()).collect()
}

/// What GoGui shows once it has read the referee: the board, the prisoners, who moves.
#[derive(Debug, PartialEq)]
struct Shown {
    board: Vec<String>,
    captured: String,
    black_to_move: bool,
}

/// What GoGui does on every change of position with a referee: the whole game again from an
/// empty board, then the board read back.
fn replay_into_referee(referee: &mut GtpProcess, game: &GoGuiGame) -> Shown {
    ok(referee, "clear_board");
    for (color, point) in &game.moves {
        ok(referee, &format!("play {color} {point}"));
    }
    read_referee(referee, game)
}

fn read_referee(referee: &mut GtpProcess, game: &GoGuiGame) -> Shown {
    let board = ok(referee, "gogui-rules_board");
    let size = size_of(&ok(referee, "gogui-rules_board_size"));
    assert_eq!(size, game.size, "GoGui could not read the referee's board");
    Shown {
        board: read_board(&board, size),
        captured: ok(referee, "gogui-rules_captured_count"),
        black_to_move: ok(referee, "gogui-rules_side_to_move").starts_with(['b', 'B']),
    }
}

/// Attaching a referee (Game → Rules → Attach) when none is attached: the new game GoGui
/// shows, or the message of the error dialog when it attaches nothing.
fn attach_referee(referee: &mut GtpProcess) -> Result<GoGuiGame, String> {
    list_commands(referee);
    ok(referee, "gogui-rules_game_id");
    let size = ask(referee, "gogui-rules_board_size");
    if !size.ok {
        return Err(size.text);
    }
    let game = GoGuiGame::new_game(size_of(&size.text));
    let shown = replay_into_referee(referee, &game);
    assert_eq!(shown.board, vec![".".repeat(game.size); game.size]);
    assert!(shown.black_to_move);
    assert!(!ok(referee, "gogui-rules_legal_moves").is_empty());
    Ok(game)
}

/// A click on `point` (or `pass`) by `color`: whether GoGui played it.
fn click(
    referee: &mut GtpProcess,
    game: &mut GoGuiGame,
    color: &'static str,
    point: &'static str,
) -> bool {
    let legal = ok(referee, "gogui-rules_legal_moves");
    let allowed = if point == "pass" {
        legal.contains("pass")
    } else {
        Regex::new(&format!(r"\b{point}\b"))
            .expect("a vertex")
            .is_match(&legal)
    };
    if legal.is_empty() || !allowed {
        return false;
    }
    game.moves.push((color, point));
    let shown = replay_into_referee(referee, game);
    // The same move once more, answer ignored: a stone must be refused without a trace.
    let again = ask(referee, &format!("play {color} {point}"));
    if point != "pass" {
        assert!(!again.ok, "play {color} {point} twice was accepted");
        assert_eq!(read_referee(referee, game), shown);
    }
    // GoGui replays the game before it asks for legal moves again.
    assert_eq!(replay_into_referee(referee, game), shown);
    true
}

/// What the "Game finished" dialog says, once the referee lists no legal move.
fn game_finished(referee: &mut GtpProcess) -> Option<String> {
    ok(referee, "gogui-rules_legal_moves")
        .is_empty()
        .then(|| ok(referee, "gogui-rules_final_result"))
}

#[test]
fn a_player_keeps_the_users_board_game_and_komi() {
    for args in [&[][..], &["--size", "9"]] {
        let mut player = shoutan(args);
        let shown = attach_player(&mut player, &GoGuiGame::users_game());
        assert_eq!(shown, GoGuiGame::users_game(), "shoutan {args:?}");
        // And the player plays that game.
        assert_eq!(ok(&mut player, "gogui-rules_board_size"), "9");
        let board = ok(&mut player, "gogui-rules_board");
        assert_eq!(read_board(&board, 9), USERS_BOARD);
        let sgf = ok(&mut player, "printsgf");
        assert!(sgf.contains("KM[7.5]"), "{sgf}");
    }
    // Only a size the user gave shoutan on its command line is another board.
    let mut player = shoutan(&["--size", "19"]);
    let shown = attach_player(&mut player, &GoGuiGame::users_game());
    assert_eq!(shown, GoGuiGame::new_game(19));
}

#[test]
fn a_referee_without_its_size_says_so_and_changes_nothing() {
    let mut referee = shoutan(&[]);
    let message = attach_referee(&mut referee).expect_err("GoGui shows an error");
    assert!(message.contains("--size N"), "{message}");
    // A loaded game tells the engine its size.
    let file = std::env::temp_dir().join(format!("shoutan-gogui-{}.sgf", std::process::id()));
    std::fs::write(&file, "(;FF[4]GM[1]SZ[13];B[dd])").expect("write the game");
    ok(&mut referee, &format!("loadsgf {}", file.display()));
    let _ = std::fs::remove_file(&file);
    assert_eq!(ok(&mut referee, "gogui-rules_board_size"), "13");
}

#[test]
fn a_referee_with_its_size_refuses_illegal_moves_and_ends_games() {
    let mut referee = shoutan(&["--size", "9"]);
    let game = attach_referee(&mut referee).expect("attached");
    assert_eq!(game, GoGuiGame::new_game(9));
    // Opening the user's file again replays it into the referee.
    let mut game = GoGuiGame::users_game();
    let shown = replay_into_referee(&mut referee, &game);
    assert_eq!(shown.board, USERS_BOARD);
    assert!(shown.black_to_move);
    assert!(!click(&mut referee, &mut game, "B", "E5"), "E5 is occupied");
    assert!(click(&mut referee, &mut game, "B", "F4"));
    let shown = replay_into_referee(&mut referee, &game);
    assert_eq!(&shown.board[5], ".....X...", "F4 (row 4) is Black's");
    assert!(!shown.black_to_move);
    assert_eq!(game_finished(&mut referee), None);

    // A finished game: Black walls off columns A-E, White F-J; both pass.
    let mut game = GoGuiGame::new_game(9);
    const BLACK: [&str; 9] = ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9"];
    const WHITE: [&str; 9] = ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9"];
    replay_into_referee(&mut referee, &game);
    for (b, w) in BLACK.into_iter().zip(WHITE) {
        assert!(click(&mut referee, &mut game, "B", b));
        assert!(click(&mut referee, &mut game, "W", w));
    }
    assert!(click(&mut referee, &mut game, "B", "pass"));
    assert_eq!(game_finished(&mut referee), None, "one pass ends nothing");
    assert!(click(&mut referee, &mut game, "W", "pass"));
    // Black 45 points, White 36 and the referee's komi 7.5: B+1.5.
    assert_eq!(game_finished(&mut referee).as_deref(), Some("B+1.5"));
    assert!(
        !click(&mut referee, &mut game, "B", "A1"),
        "the game is over"
    );
}

#[test]
fn a_player_beside_a_referee_keeps_the_game() {
    let mut referee = shoutan(&["--size", "9"]);
    attach_referee(&mut referee).expect("attached");
    let game = GoGuiGame::users_game();
    replay_into_referee(&mut referee, &game);
    let referee_id = ok(&mut referee, "gogui-rules_game_id");

    // Without --size the player cannot confirm the board's size, so GoGui tries its command
    // as a new referee: that copy cannot either, GoGui shows why and keeps the old referee.
    let mut player = shoutan(&[]);
    for command in ["name", "protocol_version", "version"] {
        ok(&mut player, command);
    }
    list_commands(&mut player);
    assert!(!ask(&mut player, "gogui-rules_board_size").ok);
    let mut copy = shoutan(&[]);
    let message = attach_referee(&mut copy).expect_err("GoGui shows an error");
    assert!(message.contains("as a player beside one"), "{message}");
    // The player's own attach goes on: the size error is ignored, the game is set up.
    ok(&mut player, "name");
    ok(&mut player, "protocol_version");
    assert!(!ask(&mut player, "gogui-rules_board_size").ok);
    set_up_player(&mut player, &game);
    // Now it answers what GoGui checks, and plays the user's game.
    assert_eq!(ok(&mut player, "gogui-rules_board_size"), "9");
    assert_eq!(ok(&mut player, "gogui-rules_game_id"), referee_id);
    assert_eq!(replay_into_referee(&mut referee, &game).board, USERS_BOARD);

    // With --size the player is accepted at once.
    let mut player = shoutan(&["--size", "9"]);
    assert_eq!(ok(&mut player, "gogui-rules_board_size"), "9");
    assert_eq!(ok(&mut player, "gogui-rules_game_id"), referee_id);
}
