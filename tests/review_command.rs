//! `shoutan review` end to end: the built binary on game records written for the tests
//! (`tests/sgf/`), its output read back with `sgf-parse`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sgf_parse::SgfNode;
use sgf_parse::go::{Move, Prop, parse};

fn shoutan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(args)
        .output()
        .expect("run shoutan")
}

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Copies a repository file into `dir` (the review must leave the copy as it was).
fn copy_into(dir: &Path, path: &str) -> PathBuf {
    let to = dir.join(Path::new(path).file_name().unwrap());
    std::fs::copy(repo_file(path), &to).unwrap();
    to
}

/// The main line of the first game in `text`, root first.
fn main_line(text: &str) -> Vec<SgfNode<Prop>> {
    let root = parse(text).expect("the review parses as SGF").remove(0);
    let mut line = vec![root.clone()];
    let mut node = root;
    while let Some(child) = node.children.first().cloned() {
        line.push(child.clone());
        node = child;
    }
    line
}

fn number(node: &SgfNode<Prop>, id: &str) -> Option<f64> {
    match node.get_property(id)? {
        Prop::Unknown(_, values) if values.len() == 1 => values[0].parse().ok(),
        other => panic!("{id} is not one number: {other:?}"),
    }
}

fn comment(node: &SgfNode<Prop>) -> String {
    match node.get_property("C") {
        Some(Prop::C(text)) => text.text.clone(),
        _ => String::new(),
    }
}

fn the_move(node: &SgfNode<Prop>) -> Option<(char, Move)> {
    match node.get_move()? {
        Prop::B(m) => Some(('B', *m)),
        Prop::W(m) => Some(('W', *m)),
        _ => None,
    }
}

/// The SGF point of a GTP vertex on 9x9.
fn point(vertex: &str) -> Move {
    let col = "ABCDEFGHJ".find(&vertex[..1]).unwrap() as u8;
    let row: u8 = vertex[1..].parse().unwrap();
    Move::Move(sgf_parse::go::Point { x: col, y: 9 - row })
}

#[test]
fn an_obvious_blunder_is_flagged_and_the_record_stays_whole() {
    let dir = common::scratch_dir("review-blunder");
    let input = copy_into(&dir, "tests/sgf/blunder9.sgf");
    let before = std::fs::read(&input).unwrap();
    let output = dir.join("out.sgf");
    let picture = dir.join("graph.svg");
    let run = shoutan(&[
        "review",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--plot",
        picture.to_str().unwrap(),
        "--playouts",
        "500",
        "--threads",
        "1",
        "--seed",
        "3",
    ]);
    assert!(run.status.success(), "{run:?}");
    assert_eq!(std::fs::read(&input).unwrap(), before, "the input changed");

    let original = main_line(&String::from_utf8(before).unwrap());
    let reviewed = main_line(&std::fs::read_to_string(&output).unwrap());
    // Same moves in the same order, nothing lost from the original nodes.
    assert_eq!(reviewed.len(), original.len());
    for (r, o) in reviewed.iter().zip(&original) {
        assert_eq!(the_move(r), the_move(o));
        assert!(comment(r).starts_with(&comment(o)), "{}", comment(r));
    }
    assert_eq!(
        reviewed[0].get_property("PB"),
        original[0].get_property("PB")
    );

    // Sabaki's properties on every node: a win rate in percent, a lead in points.
    for node in &reviewed {
        let winrate = number(node, "SBKV").expect("SBKV on every node");
        assert!((0.0..=100.0).contains(&winrate), "SBKV[{winrate}]");
        assert!(
            number(node, "SBKS")
                .expect("SBKS on every node")
                .is_finite()
        );
    }
    // Every move is commented with its number and colour.
    for (i, node) in reviewed.iter().enumerate().skip(1) {
        let (color, _) = the_move(node).unwrap();
        let colour = if color == 'B' { "Black" } else { "White" };
        assert!(
            comment(node).contains(&format!("Move {i} ({colour} ")),
            "{}",
            comment(node)
        );
    }

    // Move 25, Black C2, leaves three stones in atari: marked bad, with the rescue at G7
    // as a variation beside it.
    let blunder = &reviewed[25];
    assert_eq!(the_move(blunder), Some(('B', point("C2"))));
    assert!(
        blunder.get_property("BM").is_some(),
        "move 25 is not marked"
    );
    let parent = &reviewed[24];
    assert_eq!(parent.children.len(), 2, "no variation beside move 25");
    assert_eq!(
        the_move(&parent.children[1]),
        Some(('B', point("G7"))),
        "the variation does not save the stones"
    );
    // White's capture that follows is no mistake, and the drop shows in the win rates.
    assert!(reviewed[26].get_property("BM").is_none());
    assert!(number(&reviewed[24], "SBKV").unwrap() - number(&reviewed[25], "SBKV").unwrap() > 20.0);
    // The summary names it as Black's biggest loss.
    let summary = comment(&reviewed[0]);
    assert!(summary.contains("biggest losses: move 25 C2 "), "{summary}");
    // At most one good move per side, never on a bad one.
    for color in ['B', 'W'] {
        let good = reviewed
            .iter()
            .filter(|n| n.get_property("TE").is_some())
            .filter(|n| the_move(n).is_some_and(|(c, _)| c == color))
            .count();
        assert!(good <= 1);
    }
    assert!(
        !reviewed
            .iter()
            .any(|n| n.get_property("TE").is_some() && n.get_property("BM").is_some())
    );

    // The picture: an SVG with one marker per blunder besides the legend's two.
    let svg = std::fs::read_to_string(&picture).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    let blunders = reviewed
        .iter()
        .filter(|n| n.get_property("BM").is_some())
        .count();
    assert_eq!(svg.matches("<circle").count(), 2 + blunders);
}

#[test]
fn ancient_games_are_reviewed_under_their_own_rules() {
    let dir = common::scratch_dir("review-ancient");
    let output = dir.join("out.sgf");
    let run = shoutan(&[
        "review",
        repo_file("tests/sgf/ancient9.sgf").to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
        "--playouts",
        "100",
        "--threads",
        "1",
    ]);
    assert!(run.status.success(), "{run:?}");
    let reviewed = main_line(&std::fs::read_to_string(&output).unwrap());
    assert!(
        comment(&reviewed[0]).contains("ancient rules, komi 0"),
        "{}",
        comment(&reviewed[0])
    );
    // White moves first: the first move and its comment are White's.
    assert!(comment(&reviewed[1]).contains("Move 1 (White A4)"));
    // The game ends in a count of W+3 with the tax: Black's win rate at the end is low.
    assert!(number(reviewed.last().unwrap(), "SBKV").unwrap() < 50.0);
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(stdout.contains("Written to"), "{stdout}");
}

#[test]
fn broken_files_are_refused_and_nothing_is_written() {
    let dir = common::scratch_dir("review-broken");
    let output = dir.join("out.sgf");
    for bad in [
        "gtp-scripts/sgf/bad_malformed.sgf",
        "gtp-scripts/sgf/bad_truncated.sgf",
        "gtp-scripts/sgf/bad_occupied.sgf",
        "gtp-scripts/sgf/bad_notgo.sgf",
        "tests/sgf/no-such-file.sgf",
    ] {
        let run = shoutan(&[
            "review",
            repo_file(bad).to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
            "--playouts",
            "10",
        ]);
        assert_eq!(run.status.code(), Some(2), "{bad}: {run:?}");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("cannot load"), "{bad}: {stderr}");
        assert!(run.stdout.is_empty(), "{bad}");
        assert!(!output.exists(), "{bad}: wrote a review");
    }
    // The input is never the output.
    let input = copy_into(&dir, "tests/sgf/blunder9.sgf");
    let before = std::fs::read(&input).unwrap();
    let run = shoutan(&[
        "review",
        input.to_str().unwrap(),
        "-o",
        input.to_str().unwrap(),
        "--playouts",
        "10",
    ]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("never overwritten"));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}
