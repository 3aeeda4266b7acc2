//! Thinking on the opponent's time (`--ponder`), through the built binary: the engine searches
//! between its move and the next command, answers that command at once, stops by itself when
//! the tree is full, and does nothing of the kind without the flag. What it pondered is read
//! from its log (stderr at info level).

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{GtpProcess, scratch_dir};

/// Far above any latency of stopping a search, far below "never".
const BOUND: Duration = Duration::from_secs(20);

/// Starts the engine with `args` plus `-v`, its log going to a file in `dir`.
fn spawn(dir: &Path, args: &[&str]) -> (GtpProcess, PathBuf) {
    let log = dir.join("stderr.log");
    let file = std::fs::File::create(&log).expect("create log");
    let mut all = vec!["--threads", "1", "--playouts", "30", "-v"];
    all.extend_from_slice(args);
    let e = GtpProcess::spawn_with_stderr(
        Path::new(env!("CARGO_BIN_EXE_shoutan")),
        &all,
        None,
        Stdio::from(file),
    )
    .expect("start shoutan");
    (e, log)
}

/// Playouts of each "pondered N playouts ..." log line, in order, with the line.
fn pondered(log: &Path) -> Vec<(u64, String)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let rest = &l[l.find("pondered ")? + "pondered ".len()..];
            let n = rest.split(' ').next()?.parse().ok()?;
            Some((n, l.to_string()))
        })
        .collect()
}

/// Ends the engine's input and checks that it exits (pondering included) within [`BOUND`].
fn finish(mut e: GtpProcess) {
    let status = e.wait_for_exit(BOUND);
    assert!(status.success(), "{status:?}");
}

#[test]
fn ponders_until_the_next_command() {
    let dir = scratch_dir("ponder");
    let (mut e, log) = spawn(&dir, &["--ponder"]);
    assert!(e.send("boardsize 9").expect("answer").ok);
    let first = e.send("genmove b").expect("answer");
    assert!(first.ok, "{first:?}");
    // The opponent thinks; the engine uses the time.
    std::thread::sleep(Duration::from_millis(1500));
    let start = Instant::now();
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    assert!(
        start.elapsed() < BOUND,
        "answered after {:?}",
        start.elapsed()
    );
    // A command that leaves the position alone lets pondering go on; a move ends it.
    std::thread::sleep(Duration::from_millis(300));
    let reply = if first.text == "E5" { "C3" } else { "E5" };
    assert!(e.send(&format!("play w {reply}")).expect("answer").ok);
    assert!(e.send("genmove b").expect("answer").ok);
    // After the last move the input ends, which must end pondering too (else no exit).
    finish(e);

    // Two pondering searches at least: before `name` and before `play` (the one after the
    // last genmove may find the input already closed and not start).
    let lines = pondered(&log);
    assert!(lines.len() >= 2, "{lines:?}");
    // Before `name`: the 30-playout limit of a move does not apply.
    assert!(lines[0].0 > 30, "{lines:?}");
    assert!(
        lines.iter().all(|(_, l)| l.contains("for W's move")),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pondering_stops_when_the_tree_is_full() {
    let dir = scratch_dir("ponder-full");
    // The smallest tree: pondering fills it long before any command comes.
    let (mut e, log) = spawn(&dir, &["--ponder", "--max-memory", "1M"]);
    assert!(e.send("boardsize 9").expect("answer").ok);
    assert!(e.send("genmove b").expect("answer").ok);
    let start = Instant::now();
    while !pondered(&log).iter().any(|(_, l)| l.contains("tree full")) {
        assert!(start.elapsed() < BOUND, "{:?}", pondered(&log));
        std::thread::sleep(Duration::from_millis(20));
    }
    // It does not start again while the position is the same (a pondering search logs
    // when it stops, here at the end of the input at the latest).
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    finish(e);
    assert_eq!(pondered(&log).len(), 1, "{:?}", pondered(&log));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_pondering_without_the_flag() {
    let dir = scratch_dir("no-ponder");
    let (mut e, log) = spawn(&dir, &[]);
    assert!(e.send("boardsize 9").expect("answer").ok);
    assert!(e.send("genmove b").expect("answer").ok);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    finish(e);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    // The log works (the move was logged), and says nothing of pondering.
    assert!(text.contains("move 1 B"), "{text}");
    assert!(pondered(&log).is_empty(), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
