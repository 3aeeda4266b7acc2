//! Thinking on the opponent's time (`--ponder`), through the built binary: the engine searches
//! between its move (searched or from the opening book) and the next command, answers that
//! command at once, goes on within its memory cap however long the opponent thinks (a full
//! tree drops its least visited subtrees), and does nothing of the kind without the flag.
//! What it pondered is read from its log (stderr at info level).

mod common;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{GtpProcess, scratch_dir};

/// Far above any latency of stopping a search, far below "never".
const BOUND: Duration = Duration::from_secs(20);

/// Starts the engine with `args` plus `-v`, its log going to a file in `dir`. Without a
/// `--book` in `args` there is no opening book: the first move on the empty 9x9 board is
/// searched and logged as such.
fn spawn(dir: &Path, args: &[&str]) -> (GtpProcess, PathBuf) {
    let log = dir.join("stderr.log");
    let file = std::fs::File::create(&log).expect("create log");
    let mut all = vec!["--threads", "1", "--playouts", "30", "-v"];
    if !args.contains(&"--book") {
        all.extend_from_slice(&["--book", "none"]);
    }
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

/// Playouts, nodes in use, node capacity and reclaims of each progress line of a search
/// ("N playouts (R/s), tree U/C nodes, K reclaims, ..."), in order.
fn progress(log: &Path) -> Vec<(u64, usize, usize, u32)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let words: Vec<&str> = l[l.find("] ")? + 2..].split(' ').collect();
            if words.get(1) != Some(&"playouts") || words.get(3) != Some(&"tree") {
                return None;
            }
            let (used, capacity) = words.get(4)?.split_once('/')?;
            Some((
                words[0].parse().ok()?,
                used.parse().ok()?,
                capacity.parse().ok()?,
                words.get(6)?.parse().ok()?,
            ))
        })
        .collect()
}

/// The resident memory of process `pid` in KiB (Linux).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Waits (at most [`BOUND`]) for a progress line of `log` that `ok` accepts, and returns it.
fn wait_for_progress(
    log: &Path,
    ok: impl Fn(&(u64, usize, usize, u32)) -> bool,
) -> (u64, usize, usize, u32) {
    let start = Instant::now();
    loop {
        if let Some(&line) = progress(log).iter().rev().find(|l| ok(l)) {
            return line;
        }
        assert!(start.elapsed() < BOUND, "{:?}", progress(log));
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn pondering_goes_on_within_a_full_tree() {
    let dir = scratch_dir("ponder-full");
    // The smallest tree, about 20 000 nodes: pondering fills it many times over.
    let (mut e, log) = spawn(&dir, &["--ponder", "--max-memory", "1M"]);
    assert!(e.send("boardsize 9").expect("answer").ok);
    let first = e.send("genmove b").expect("answer");
    assert!(first.ok, "{first:?}");
    // The tree has been reclaimed twice, so its memory is all touched.
    let (playouts, _, capacity, _) = wait_for_progress(&log, |l| l.3 >= 2);
    let resident = resident_kib(e.id());
    // Searching on for as many more playouts as nodes fit in the tree: uncapped, the tree
    // alone would grow by several times its cap (each playout adds about 36 nodes here).
    let target = playouts + capacity as u64;
    let (_, _, _, reclaims) = wait_for_progress(&log, |l| l.0 >= target);
    // Still one pondering search: it never stopped by itself.
    assert!(pondered(&log).is_empty(), "{:?}", pondered(&log));
    assert!(reclaims >= 4, "{:?}", progress(&log));
    for &(_, used, cap, _) in &progress(&log) {
        assert!(used <= cap, "{used}/{cap}");
    }
    if let (Some(before), Some(after)) = (resident, resident_kib(e.id())) {
        // The tree is 1 MiB; what it would have grown by uncapped is over 30 MiB.
        assert!(after < before + 8 * 1024, "{before} KiB -> {after} KiB");
    }
    // A command stops it at once; a move after it is answered promptly, from the same tree.
    let start = Instant::now();
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    let reply = e
        .send(if first.text == "C3" {
            "play w G7"
        } else {
            "play w C3"
        })
        .expect("answer");
    assert!(reply.ok, "{reply:?}");
    assert!(e.send("genmove b").expect("answer").ok);
    assert!(start.elapsed() < BOUND, "{:?}", start.elapsed());
    finish(e);
    let lines = pondered(&log);
    assert!(!lines.is_empty(), "{lines:?}");
    assert!(lines[0].0 >= target, "{lines:?}");
    assert!(lines[0].1.contains("reclaims"), "{lines:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ponders_after_a_book_move_too() {
    let dir = scratch_dir("ponder-book");
    let book = dir.join("book.txt");
    std::fs::write(&book, "size 9\nkomi 7.5\n : C3\n").expect("write book");
    let book = book.to_string_lossy().into_owned();
    let (mut e, log) = spawn(&dir, &["--ponder", "--book", &book]);
    assert!(e.send("boardsize 9").expect("answer").ok);
    assert_eq!(e.send("genmove b").expect("answer").text, "C3");
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(e.send("name").expect("answer").text, "shoutan");
    finish(e);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("book move for B at move 1: C3"), "{text}");
    assert!(!text.contains("search for B"), "{text}");
    // The time the book saved goes to the opponent's move, as after a searched move.
    let lines = pondered(&log);
    assert!(!lines.is_empty(), "{text}");
    assert!(lines[0].0 > 30, "{lines:?}");
    assert!(lines[0].1.contains("for W's move"), "{lines:?}");
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
    assert!(text.contains("search for B at move 1"), "{text}");
    assert!(pondered(&log).is_empty(), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
