//! Stopping a search from the outside, through the built binary: GoGui's
//! `# interrupt` line ends a long `genmove` with a legal move, and the next command ends an
//! `lz-analyze`. The engine is given a minute per move; the interrupt is sent at once, so an
//! answer within the bound below can only come from the interrupt. The opening book is off:
//! its moves on the empty 9x9 board come without a search.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::GtpProcess;

/// Far below the 60 s the engine would otherwise think, far above any interrupt latency.
const BOUND: Duration = Duration::from_secs(20);

fn spawn() -> GtpProcess {
    GtpProcess::spawn(
        Path::new(env!("CARGO_BIN_EXE_shoutan")),
        &["--threads", "1", "--time", "60", "--book", "none"],
        None,
    )
    .expect("start shoutan")
}

#[test]
fn gogui_interrupt_is_listed_and_stops_genmove() {
    let mut e = spawn();
    let listed = e.send("list_commands").expect("answer");
    assert!(listed.text.lines().any(|l| l == "gogui-interrupt"));
    assert!(e.send("gogui-interrupt").expect("answer").ok);
    assert!(e.send("boardsize 9").expect("answer").ok);

    let start = Instant::now();
    e.write_raw(b"1 genmove b\n# interrupt\n").expect("write");
    let answer = e.read_answer().expect("genmove answer");
    assert!(start.elapsed() < BOUND, "took {:?}", start.elapsed());
    assert!(answer.ok && answer.id.as_deref() == Some("1"), "{answer:?}");
    let mv = answer.text.to_lowercase();
    let legal = e.send(&format!("is_legal b {mv}")).expect("answer");
    assert!(
        mv == "pass" || legal.text == "0",
        "{mv} was played, so no longer legal"
    );

    // The interrupt was for that search only: the engine goes on serving.
    let name = e.send("name").expect("answer");
    assert_eq!(name.text, "shoutan");
}

#[test]
fn next_command_stops_analysis() {
    let mut e = spawn();
    assert!(e.send("boardsize 9").expect("answer").ok);
    let start = Instant::now();
    e.write_raw(b"lz-analyze b 10\nname\n").expect("write");
    // `lz-analyze` answers `=`, then info lines, then the empty line that ends it.
    let analysis = e.read_answer().expect("analysis answer");
    assert!(analysis.ok, "{analysis:?}");
    let name = e.read_answer().expect("name answer");
    assert_eq!(name.text, "shoutan");
    assert!(start.elapsed() < BOUND, "took {:?}", start.elapsed());
}

#[test]
fn end_of_input_stops_analysis() {
    let mut e = spawn();
    assert!(e.send("boardsize 9").expect("answer").ok);
    let start = Instant::now();
    e.write_raw(b"lz-analyze b 10\n").expect("write");
    // No command will follow: the end of the input must end the analysis, and the engine.
    let status = e.wait_for_exit(BOUND);
    assert!(status.success(), "{status:?}");
    assert!(start.elapsed() < BOUND, "took {:?}", start.elapsed());
}
