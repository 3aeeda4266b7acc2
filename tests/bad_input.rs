//! Bad input never stops the engine:
//! - through the built binary: invalid UTF-8, NUL and other control bytes, a 1 MB line,
//!   missing and truncated SGF files each get a `?` answer and the next command is served;
//!   end of input exits with status 0; a closed stdout ends the engine without a panic;
//! - through `gtp::serve` in memory: random byte streams (random bytes mixed with pieces of
//!   valid commands) never panic, every non-empty command line gets exactly one well-formed
//!   answer, and the board's incremental state is intact afterwards.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use common::{GtpProcess, scratch_dir};
use shoutan::gtp::{self, Engine, EngineOptions, MAX_LINE_BYTES};
use shoutan::rng::Rng;

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_shoutan"))
}

fn spawn() -> GtpProcess {
    GtpProcess::spawn(binary(), &["--threads", "1", "--playouts", "50"], None)
        .expect("start shoutan")
}

#[test]
fn each_bad_line_gets_an_error_and_the_engine_keeps_serving() {
    let dir = scratch_dir("bad-input");
    let truncated = dir.join("truncated.sgf");
    std::fs::write(&truncated, "(;FF[4]SZ[9];B[ee];W[c").expect("write");
    let mut e = spawn();
    let mut exchange = |bytes: &[u8]| -> common::Answer {
        e.write_raw(bytes).expect("write");
        e.read_answer().expect("an answer")
    };

    let a = exchange(b"1 name\xff\xfe\n");
    assert!(!a.ok && a.id.as_deref() == Some("1"), "{a:?}");
    assert!(a.text.contains("invalid UTF-8"), "{a:?}");

    // Control bytes vanish (GTP preprocessing); NUL too.
    let a = exchange(b"2 na\x00m\x07e\n");
    assert_eq!((a.ok, a.text.as_str()), (true, "shoutan"));

    // A 1 MB line is refused as a whole, with its id, and costs nothing later.
    let mut long = b"3 play b ".to_vec();
    long.extend(std::iter::repeat_n(b'A', 1 << 20));
    long.push(b'\n');
    let a = exchange(&long);
    assert!(!a.ok && a.id.as_deref() == Some("3"), "{a:?}");
    assert!(a.text.contains("line too long"), "{a:?}");
    const { assert!(MAX_LINE_BYTES < 1 << 20) };

    let a = exchange(b"4 loadsgf /definitely/not/here.sgf\n");
    assert!(!a.ok && a.text.contains("cannot load"), "{a:?}");
    let a = exchange(format!("5 loadsgf {}\n", truncated.display()).as_bytes());
    assert!(!a.ok && a.text.contains("cannot parse SGF"), "{a:?}");
    let a = exchange(b"6 loadsgf\n");
    assert!(!a.ok, "{a:?}");

    // Odd but harmless lines.
    let a = exchange(b"\t7\tplay\tb\tD4\r\n");
    assert_eq!((a.ok, a.id.as_deref()), (true, Some("7")), "{a:?}");
    let a = exchange(b"8 play b D4\n");
    assert!(!a.ok && a.text.starts_with("illegal move"), "{a:?}");
    let a = exchange(b"   \n# comment\n\n9 is_legal w D4\n");
    assert_eq!(
        (a.ok, a.id.as_deref(), a.text.as_str()),
        (true, Some("9"), "0")
    );

    // After all that, the engine still answers, and quits cleanly.
    let a = exchange(b"10 protocol_version\n");
    assert_eq!(a.text, "2");
    let a = exchange(b"11 quit\n");
    assert!(a.ok);
    assert_eq!(e.wait().expect("exit").code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn end_of_input_exits_with_status_0() {
    let mut e = spawn();
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    e.close_stdin();
    assert_eq!(e.wait().expect("exit").code(), Some(0));
    // Even in the middle of a line, without its newline: the last line is still answered.
    let mut child = Command::new(binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"1 name").expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("exit");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "=1 shoutan\n\n");
}

#[test]
fn a_closed_stdout_ends_the_engine_without_a_panic() {
    let mut child = Command::new(binary())
        .args(["--threads", "1", "--playouts", "20"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    // Close the read end of the engine's stdout before it writes anything.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stderr = child.stderr.take().expect("stderr");
    // Keep writing commands (answers would fill any pipe buffer) until the engine is gone.
    let writer = std::thread::spawn(move || {
        let commands = b"name\nshowboard\nlist_commands\nboardsize 9\ngenmove b\nprintsgf\n";
        for _ in 0..2000 {
            if stdin.write_all(commands).is_err() {
                break;
            }
        }
    });
    let status = child.wait().expect("exit");
    let _ = writer.join();
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    assert_ne!(status.code(), Some(101), "panicked: {err}");
    assert!(status.code().is_some(), "killed by a signal: {status}");
    assert!(!err.contains("panicked"), "{err}");
}

/// What an input line should produce after GTP preprocessing: `None` for no answer,
/// `Some(true)` for an answer after which the engine quits, `Some(false)` for an answer.
fn expected_answer(line: &[u8]) -> Option<bool> {
    let mut text = Vec::new();
    for &b in line {
        match b {
            b'#' => break,
            b'\t' => text.push(b' '),
            0..=31 | 127 => {}
            _ => text.push(b),
        }
    }
    let words: Vec<&[u8]> = text
        .split(|&b| b == b' ')
        .filter(|w| !w.is_empty())
        .collect();
    let first = words.first()?;
    let rest = if first.iter().all(u8::is_ascii_digit) {
        &words[1..]
    } else {
        &words[..]
    };
    Some(rest == [b"quit".as_slice()] && line.len() <= MAX_LINE_BYTES)
}

/// Pieces of valid and nearly valid commands to mix with random bytes. No `printsgf FILE`
/// (it would write files) and short searches only.
fn fragments(sgf_dir: &Path) -> Vec<String> {
    let mut f: Vec<String> = [
        "play b D4",
        "play w E5",
        "play b pass",
        "play white q16",
        "play b A1",
        "play w T19",
        "genmove b",
        "genmove w",
        "reg_genmove b",
        "undo",
        "undo",
        "clear_board",
        "boardsize 9",
        "boardsize 5",
        "boardsize 2",
        "boardsize 25",
        "boardsize 19",
        "komi 6.5",
        "komi -3",
        "is_legal b C3",
        "is_legal w pass",
        "showboard",
        "fixed_handicap 4",
        "fixed_handicap 9",
        "place_free_handicap 5",
        "set_free_handicap A1 B2 C3",
        "time_settings 10 5 5",
        "time_left b 10 0",
        "kgs-time_settings byoyomi 10 5 3",
        "cputime",
        "list_commands",
        "known_command play",
        "protocol_version",
        "name",
        "version",
        "printsgf",
        "12",
        "#",
        "\t",
        "\r",
        "\x00",
        "\u{fffd}",
        "é",
        "I9",
        "Z99",
        "-1",
        "1e9",
        "nan",
        "quit",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for name in [
        "game9.sgf",
        "setup.sgf",
        "bad_truncated.sgf",
        "cycle.sgf",
        "size25.sgf",
    ] {
        f.push(format!("loadsgf {}", sgf_dir.join(name).display()));
        f.push(format!("loadsgf {} 3", sgf_dir.join(name).display()));
    }
    f
}

fn random_stream(rng: &mut Rng, fragments: &[String]) -> Vec<u8> {
    let mut out = Vec::new();
    let lines = 1 + rng.below(60);
    for _ in 0..lines {
        if rng.below(3) == 0 {
            out.extend(format!("{} ", rng.below(1000)).bytes());
        }
        for _ in 0..1 + rng.below(3) {
            match rng.below(4) {
                0 => {
                    for _ in 0..rng.below(12) {
                        out.push(rng.below(256) as u8);
                    }
                }
                1 => out.push(b' '),
                _ => out.extend(fragments[rng.below(fragments.len())].bytes()),
            }
        }
        if rng.below(40) == 0 {
            // Now and then a line longer than the limit.
            out.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + rng.below(100)));
        }
        out.push(b'\n');
    }
    if rng.below(2) == 0 {
        out.pop();
    }
    out
}

#[test]
fn random_byte_streams_never_break_the_server() {
    let sgf_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts/sgf");
    let fragments = fragments(&sgf_dir);
    let mut rng = Rng::new(0x05EE_DBAD);
    let mut answered = 0;
    for round in 0..300 {
        let input = random_stream(&mut rng, &fragments);
        let mut engine = Engine::new(EngineOptions {
            size: Some(9),
            threads: 1,
            playouts: Some(16),
            seed: Some(round),
            ..EngineOptions::default()
        })
        .expect("engine");
        let mut output = Vec::new();
        gtp::serve(
            std::io::Cursor::new(input.clone()),
            &mut output,
            &mut engine,
        )
        .expect("serving from memory cannot fail");

        // The answers we should see: one per non-empty line, up to and including `quit`.
        let mut expected = 0;
        for line in input.split(|&b| b == b'\n') {
            match expected_answer(line) {
                None => {}
                Some(quits) => {
                    expected += 1;
                    if quits {
                        break;
                    }
                }
            }
        }
        let text = String::from_utf8(output).expect("answers are UTF-8");
        let answers: Vec<&str> = text.split_terminator("\n\n").collect();
        assert!(
            text.is_empty() || text.ends_with("\n\n"),
            "round {round}: output not ended by an empty line"
        );
        for a in &answers {
            assert!(
                a.starts_with('=') || a.starts_with('?'),
                "round {round}: malformed answer {a:?}"
            );
        }
        if answers.len() != expected {
            let shown: String = String::from_utf8_lossy(&input).chars().take(3000).collect();
            let answers: String = text.chars().take(3000).collect();
            panic!(
                "round {round}: {} answers, expected {expected}\ninput (start): {shown:?}\noutput (start): {answers:?}",
                text.matches("\n\n").count()
            );
        }
        engine
            .game
            .board()
            .check_invariants()
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        answered += answers.len();
    }
    assert!(answered > 1000, "only {answered} answers");
}

#[test]
fn the_help_names_every_search_parameter_and_an_unknown_one_is_refused() {
    let out = Command::new(binary())
        .arg("--help")
        .output()
        .expect("run shoutan --help");
    let help = String::from_utf8_lossy(&out.stdout).replace(['\n', ' '], "");
    for name in shoutan::search::params::Params::NAMES {
        assert!(
            help.contains(&format!("{name},")),
            "--help does not name {name}"
        );
    }
    let out = Command::new(binary())
        .args(["--search-param", "no_such_knob=1"])
        .stdin(Stdio::null())
        .output()
        .expect("run shoutan");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_knob"));
}
