//! GoGui's analyze displays: the list GoGui reads, labels GoGui can draw without hiding one
//! another, one search reported by every display of a position, visits that add up, and an
//! ownership map that matches a position whose owners are plain.

use std::collections::HashSet;

use regex::Regex;
use shoutan::gtp::{Engine, EngineOptions};

const PLAYOUTS: u64 = 600;

fn engine(size: usize) -> Engine {
    Engine::new(EngineOptions {
        size: Some(size),
        threads: 1,
        seed: Some(7),
        playouts: Some(PLAYOUTS),
        max_memory: 64 << 20,
        ..EngineOptions::default()
    })
    .unwrap()
}

/// The text of a GTP answer (`= text`), or a panic with the error.
fn ok(answer: String) -> String {
    assert!(answer.starts_with("= "), "GTP error: {answer}");
    answer[2..].trim_end().to_string()
}

/// A 9x9 opening: Black to move.
fn opening() -> Engine {
    let mut e = engine(9);
    for m in ["b E5", "w C7", "b G7", "w E3"] {
        ok(e.execute(&format!("play {m}")));
    }
    e
}

/// What a display says about the search: best move, its win rate (text), its visits, and
/// the root's visits, kept visits and playouts.
#[derive(Debug, PartialEq)]
struct Story {
    best: String,
    winrate: String,
    visits: u64,
    root: u64,
    kept: u64,
    playouts: u64,
}

fn story(answer: &str) -> Story {
    let best = Regex::new(r"best (\S+): win rate ([0-9.]+)%, (\d+) visits").unwrap();
    let root =
        Regex::new(r"(\d+) visits = (\d+) kept (?:from earlier searches )?\+ (\d+) playouts")
            .unwrap();
    let b = best.captures(answer).unwrap_or_else(|| panic!("{answer}"));
    let r = root.captures(answer).unwrap_or_else(|| panic!("{answer}"));
    let n = |s: &str| s.parse::<u64>().unwrap();
    Story {
        best: b[1].to_string(),
        winrate: b[2].to_string(),
        visits: n(&b[3]),
        root: n(&r[1]),
        kept: n(&r[2]),
        playouts: n(&r[3]),
    }
}

/// The lines of a gfx answer that start with `keyword`, without it, split into words.
fn gfx_words(answer: &str, keyword: &str) -> Vec<Vec<String>> {
    answer
        .lines()
        .filter_map(|l| l.strip_prefix(keyword).filter(|r| r.starts_with(' ')))
        .map(|r| r.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn the_analyze_command_list_is_what_gogui_can_read() {
    let mut e = engine(9);
    let listed: HashSet<String> = ok(e.execute("list_commands"))
        .lines()
        .map(str::to_string)
        .collect();
    let list = ok(e.execute("gogui-analyze_commands"));
    let mut labels = HashSet::new();
    for line in list.lines() {
        // GoGui splits each line on '/': type, label, command.
        let fields: Vec<&str> = line.split('/').collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(["gfx", "string"].contains(&fields[0]), "{line}");
        assert!(labels.insert(fields[1].to_string()), "label twice: {line}");
        assert!(listed.contains(fields[2]), "not in list_commands: {line}");
        // Every display answers on an empty board too.
        ok(e.execute(fields[2]));
    }
    assert!(labels.len() >= 5, "{list}");
}

#[test]
fn win_rates_and_the_variation_are_separate_readable_displays() {
    let mut e = opening();
    let rates = ok(e.execute("shoutan-winrates"));
    assert!(gfx_words(&rates, "VAR").is_empty(), "{rates}");
    let labels = gfx_words(&rates, "LABEL");
    assert_eq!(labels.len(), 1, "{rates}");
    let labels = &labels[0];
    assert!(
        labels.len() >= 4 && labels.len().is_multiple_of(2),
        "{rates}"
    );
    let mut points = HashSet::new();
    for pair in labels.chunks(2) {
        assert!(
            points.insert(pair[0].clone()),
            "one label per point: {rates}"
        );
        // GoGui clips labels longer than three characters.
        let label = &pair[1];
        assert!(label.len() <= 3 && label.ends_with('%'), "{rates}");
        let pct: u32 = label.trim_end_matches('%').parse().unwrap();
        assert!(pct <= 99, "{rates}");
    }
    // The best move is labelled with its win rate, rounded to a whole percent.
    let s = story(&rates);
    let winrate: f64 = s.winrate.parse().unwrap();
    let best_label = labels
        .chunks(2)
        .find(|p| p[0] == s.best)
        .unwrap_or_else(|| panic!("best move not labelled: {rates}"));
    assert_eq!(best_label[1], format!("{}%", winrate.round()));
    assert_eq!(gfx_words(&rates, "COLOR")[0][1], s.best, "{rates}");

    let var = ok(e.execute("shoutan-variation"));
    assert!(gfx_words(&var, "LABEL").is_empty(), "{var}");
    let moves = &gfx_words(&var, "VAR")[0];
    assert!(moves.len() >= 4, "{var}");
    assert_eq!(
        moves[1], s.best,
        "the line starts with the best move: {var}"
    );
    let mut seen = HashSet::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        // Colours alternate from the side to move (Black here).
        assert_eq!(pair[0], if i % 2 == 0 { "b" } else { "w" }, "{var}");
        // A point played twice would hide its earlier number.
        assert!(pair[1] == "PASS" || seen.insert(pair[1].clone()), "{var}");
    }
}

#[test]
fn every_display_reports_one_search_of_the_position() {
    let mut e = opening();
    let first = story(&ok(e.execute("shoutan-search_summary")));
    assert_eq!(
        (first.root, first.kept, first.playouts),
        (PLAYOUTS, 0, PLAYOUTS),
        "{first:?}"
    );
    assert!(first.visits <= first.root);
    // The other displays tell the same story without searching again.
    for display in [
        "shoutan-winrates",
        "shoutan-variation",
        "shoutan-ownership",
        "shoutan-search_summary",
    ] {
        let answer = ok(e.execute(display));
        if display == "shoutan-ownership" {
            assert!(
                answer.contains(&format!("end of {PLAYOUTS} playouts")),
                "{answer}"
            );
        } else {
            assert_eq!(story(&answer), first, "{display}: {answer}");
        }
    }
    // Searching more goes on from the tree: the root's visits are the kept ones plus the
    // new playouts, and every display reports that search from then on.
    let more = story(&ok(e.execute("shoutan-search_more")));
    assert_eq!(
        (more.root, more.kept, more.playouts),
        (2 * PLAYOUTS, PLAYOUTS, PLAYOUTS),
        "{more:?}"
    );
    assert_eq!(story(&ok(e.execute("shoutan-winrates"))), more);
    // Another position: a new search, keeping the subtree of the move played.
    ok(e.execute(&format!("play b {}", more.best)));
    let next = story(&ok(e.execute("shoutan-variation")));
    assert_eq!(next.playouts, PLAYOUTS);
    assert_eq!(next.root, next.kept + next.playouts, "{next:?}");
    assert!(next.kept > 0, "the reply's subtree was kept: {next:?}");
    // Other komi, other game: nothing is kept, nothing reported from before.
    ok(e.execute("komi 0.5"));
    let komi = story(&ok(e.execute("shoutan-winrates")));
    assert_eq!((komi.root, komi.kept), (PLAYOUTS, 0), "{komi:?}");
}

/// 5x5: Black on column B with eyes A1, A3, A5; White on column D with eyes E1, E3, E5;
/// column C is the dame between them.
///
/// ```text
///  5  . X . O .
///  4  X X . O O
///  3  . X . O .
///  2  X X . O O
///  1  . X . O .
/// ```
#[test]
fn ownership_shows_who_owns_a_plain_position() {
    let mut e = engine(5);
    let black = ["B1", "B2", "B3", "B4", "B5", "A2", "A4"];
    let white = ["D1", "D2", "D3", "D4", "D5", "E2", "E4"];
    for (b, w) in black.iter().zip(white) {
        ok(e.execute(&format!("play b {b}")));
        ok(e.execute(&format!("play w {w}")));
    }
    let answer = ok(e.execute("shoutan-ownership"));
    let words = &gfx_words(&answer, "INFLUENCE")[0];
    assert_eq!(words.len(), 2 * 25, "{answer}");
    for pair in words.chunks(2) {
        let v: f64 = pair[1].parse().unwrap();
        assert!((-1.0..=1.0).contains(&v), "{answer}");
        match &pair[0][..1] {
            "A" | "B" => assert!(v > 0.9, "{} should be Black's: {answer}", pair[0]),
            "D" | "E" => assert!(v < -0.9, "{} should be White's: {answer}", pair[0]),
            _ => {}
        }
    }
    assert!(answer.contains("TEXT ownership"), "{answer}");
}
