//! The opening book through GTP: `genmove` and `reg_genmove` play a book position's reply
//! without searching, only in games the book was made for; `--book` loads a file, `none`
//! turns the book off, and a bad file is refused with a clear message.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use shoutan::book::Book;
use shoutan::gtp::{Engine, EngineOptions};

/// A book whose one reply no search would choose (the corner point), so an answer of A1
/// can only come from the book.
const CORNER_BOOK: &str = "size 9\nkomi 7.5\nE5 C3 : A1\n";

fn engine(book: Option<&str>) -> Engine {
    Engine::new(EngineOptions {
        size: Some(9),
        threads: 1,
        seed: Some(1),
        playouts: Some(300),
        max_memory: 64 << 20,
        book: book.map(|text| Arc::new(Book::parse(text).expect("a book"))),
        ..EngineOptions::default()
    })
    .expect("an engine")
}

fn ok(answer: String) -> String {
    assert!(answer.starts_with('='), "GTP error: {answer}");
    answer.trim_start_matches('=').trim().to_string()
}

#[test]
fn genmove_plays_the_book_reply_in_any_orientation() {
    let mut e = engine(Some(CORNER_BOOK));
    for m in ["play b E5", "play w C3"] {
        ok(e.execute(m));
    }
    assert_eq!(ok(e.execute("reg_genmove b")), "A1");
    assert_eq!(ok(e.execute("genmove b")), "A1");
    assert_eq!(e.game.move_number(), 3, "the book move is played");
    // The same position mirrored (left to right): the reply is mirrored too.
    ok(e.execute("clear_board"));
    for m in ["play b E5", "play w G3"] {
        ok(e.execute(m));
    }
    assert_eq!(ok(e.execute("genmove b")), "J1");
}

#[test]
fn other_games_and_clean_up_search_instead() {
    let mut e = engine(Some(CORNER_BOOK));
    ok(e.execute("komi 6.5"));
    for m in ["play b E5", "play w C3"] {
        ok(e.execute(m));
    }
    assert_ne!(
        ok(e.execute("reg_genmove b")),
        "A1",
        "komi 6.5 is not the book's"
    );
    ok(e.execute("komi 7.5"));
    assert_ne!(
        ok(e.execute("kgs-genmove_cleanup b")),
        "A1",
        "clean-up searches"
    );
    let mut off = engine(None);
    for m in ["play b E5", "play w C3"] {
        ok(off.execute(m));
    }
    assert_ne!(ok(off.execute("genmove b")), "A1", "no book");
}

#[test]
fn the_book_option_loads_a_file_or_turns_the_book_off() {
    let bin = Path::new(env!("CARGO_BIN_EXE_shoutan"));
    let dir = common::scratch_dir("book");
    let good = dir.join("corner.book");
    std::fs::write(&good, CORNER_BOOK).expect("write");
    let bad = dir.join("bad.book");
    std::fs::write(&bad, "size 9\nkomi 7.5\nE5 E5 : C3\n").expect("write");
    let run = |book: &Path| {
        Command::new(bin)
            .args(["--threads", "1", "--playouts", "50", "--book"])
            .arg(book)
            .stdin(std::process::Stdio::piped())
            .output()
            .expect("runs")
    };
    let missing = run(&dir.join("no-such.book"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--book"));
    let refused = run(&bad);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("line 3"), "{message}");
    for book in [good.as_path(), Path::new("none")] {
        let mut gtp = common::GtpProcess::spawn(
            bin,
            &[
                "--threads",
                "1",
                "--playouts",
                "50",
                "--book",
                book.to_str().expect("utf-8"),
            ],
            None,
        )
        .expect("spawn");
        for c in ["boardsize 9", "clear_board", "play b E5", "play w C3"] {
            assert!(gtp.send(c).expect("answer").ok, "{c}");
        }
        let answer = gtp.send("genmove b").expect("answer");
        assert!(answer.ok);
        assert_eq!(answer.text == "A1", book == good.as_path(), "{book:?}");
    }
}
