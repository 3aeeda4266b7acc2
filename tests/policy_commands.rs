//! The learned policy through GTP: `shoutan-policy` lists every legal move with its
//! probability, `shoutan-policy_gfx` draws them for GoGui, the analysis lines carry them
//! as `prior`, and `--patterns` refuses bad model files with a clear message.

mod common;

use std::path::Path;
use std::process::Command;

use shoutan::gtp::{Engine, EngineOptions};

fn engine(size: usize) -> Engine {
    Engine::new(EngineOptions {
        size: Some(size),
        threads: 1,
        seed: Some(1),
        playouts: Some(300),
        max_memory: 64 << 20,
        ..EngineOptions::default()
    })
    .unwrap()
}

fn ok(answer: String) -> String {
    assert!(answer.starts_with('='), "GTP error: {answer}");
    answer.trim_start_matches('=').trim().to_string()
}

/// The `VERTEX PROBABILITY` lines of `shoutan-policy`.
fn policy(e: &mut Engine, color: &str) -> Vec<(String, f64)> {
    ok(e.execute(&format!("shoutan-policy {color}")))
        .lines()
        .map(|l| {
            let (v, p) = l.split_once(' ').expect("VERTEX PROBABILITY");
            (v.to_string(), p.parse().expect("a probability"))
        })
        .collect()
}

#[test]
fn policy_lists_every_legal_move_once_highest_first() {
    let mut e = engine(9);
    for m in ["b E5", "w E4", "b D4", "w D5", "b C5"] {
        ok(e.execute(&format!("play {m}")));
    }
    for color in ["w", "B", "white"] {
        let moves = policy(&mut e, color);
        // 81 points, 5 stones, plus pass; no occupied point appears.
        assert_eq!(moves.len(), 81 - 5 + 1, "{color}");
        for stone in ["E5", "E4", "D4", "D5", "C5"] {
            assert!(moves.iter().all(|(v, _)| v != stone));
        }
        assert!(moves.iter().any(|(v, _)| v == "PASS"));
        let sum: f64 = moves.iter().map(|m| m.1).sum();
        assert!((sum - 1.0).abs() < 1e-3, "sum {sum}");
        assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1), "sorted");
        assert!(moves.iter().all(|m| m.1 > 0.0));
    }
    // Without a colour: the side to move (White).
    assert_eq!(
        ok(e.execute("shoutan-policy")),
        ok(e.execute("shoutan-policy w"))
    );
    assert!(e.execute("shoutan-policy purple").starts_with('?'));
    assert!(e.execute("shoutan-policy b w").starts_with('?'));
}

#[test]
fn policy_leaves_out_suicide_and_ko() {
    let mut e = engine(5);
    // White B3 in atari; black C3 takes it, and White may not retake at once:
    //   5  X . . . .
    //   4  . X O . .
    //   3  X O . O .
    //   2  . X O . .
    for m in [
        "b B4", "w C4", "b A3", "w B3", "b B2", "w C2", "b A5", "w D3",
    ] {
        ok(e.execute(&format!("play {m}")));
    }
    ok(e.execute("play b C3"));
    let white = policy(&mut e, "w");
    assert!(
        white.iter().all(|(v, _)| v != "B3"),
        "retaking the ko at once is illegal"
    );
    // A4, between black A5, B4 and A3, would be White's suicide; Black may fill it.
    assert!(white.iter().all(|(v, _)| v != "A4"), "suicide");
    assert!(policy(&mut e, "b").iter().any(|(v, _)| v == "A4"));
}

#[test]
fn gogui_heat_map_and_analysis_priors_come_from_the_policy() {
    let mut e = engine(9);
    ok(e.execute("play b E5"));
    assert!(
        ok(e.execute("gogui-analyze_commands"))
            .lines()
            .any(|l| l == "gfx/Policy: move probabilities/shoutan-policy_gfx")
    );
    let gfx = ok(e.execute("shoutan-policy_gfx"));
    let lines: Vec<&str> = gfx.lines().collect();
    assert!(lines[0].starts_with("INFLUENCE "), "{gfx}");
    // Every empty point has a value in 0..=1, the best exactly 1.
    let values: Vec<f64> = lines[0]
        .split(' ')
        .skip(1)
        .collect::<Vec<_>>()
        .chunks(2)
        .map(|c| c[1].parse().unwrap())
        .collect();
    assert_eq!(values.len(), 80);
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
    assert!(values.contains(&1.0));
    assert!(lines[1].starts_with("LABEL "));
    assert!(lines[2].starts_with("TEXT white policy: "));
    let moves = policy(&mut e, "w");
    // The labels are percentages with their sign, each the rounded probability of its
    // point (`<1%` below one half percent, never a bare `0`).
    let labels: Vec<&str> = lines[1].split(' ').skip(1).collect();
    assert_eq!(labels.len(), 20, "ten labelled points: {gfx}");
    for pair in labels.chunks(2) {
        let (vertex, label) = (pair[0], pair[1]);
        let p = moves
            .iter()
            .find(|(v, _)| v == vertex)
            .map(|m| 100.0 * m.1)
            .expect("a labelled point is a candidate");
        let number = label.strip_suffix('%').expect("a percent sign");
        if number == "<1" {
            assert!(p < 0.5, "{vertex} {p}");
        } else {
            let shown: f64 = number.parse().expect("a whole percent");
            assert!((shown - p).abs() <= 0.5 + 1e-3, "{vertex} {label} {p}");
        }
    }
    // The analysis shows each candidate's policy probability as its prior.
    let mut gtp = common::GtpProcess::spawn(
        Path::new(env!("CARGO_BIN_EXE_shoutan")),
        &["--size", "9", "--threads", "1", "--seed", "1"],
        None,
    )
    .expect("start shoutan");
    assert!(gtp.send("play b E5").expect("answer").ok);
    gtp.write_raw(b"lz-analyze w 10\n").expect("write");
    assert_eq!(gtp.read_line().expect("header"), "=");
    // The first report, then stop the analysis with the next command.
    let out = gtp.read_line().expect("an info line");
    gtp.write_raw(b"name\n").expect("write");
    while !gtp
        .read_line()
        .expect("the rest of the analysis")
        .is_empty()
    {}
    assert_eq!(gtp.read_answer().expect("name").text, "shoutan");
    let mut checked = 0;
    for segment in out.split("info move ").skip(1) {
        let words: Vec<&str> = segment.split(' ').collect();
        let prior: f64 = words[words.iter().position(|w| *w == "prior").unwrap() + 1]
            .parse()
            .unwrap();
        let expected = moves.iter().find(|m| m.0 == words[0]).unwrap().1;
        assert!(
            (prior - (expected * 10000.0).round()).abs() <= 1.0,
            "{} prior {prior} expected {expected}",
            words[0]
        );
        checked += 1;
    }
    assert!(checked > 0, "{out}");
}

#[test]
fn bad_pattern_files_are_refused_at_start() {
    let dir = common::scratch_dir("policy-files");
    let bin = Path::new(env!("CARGO_BIN_EXE_shoutan"));
    let run = |file: &Path| {
        let out = Command::new(bin)
            .args(["--patterns", file.to_str().unwrap()])
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run shoutan");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&dir.join("missing.patterns"));
    assert_eq!(code, Some(2));
    assert!(err.contains("missing.patterns"), "{err}");
    let foreign = dir.join("foreign.patterns");
    std::fs::write(&foreign, b"GIF89a, not a model").unwrap();
    let (code, err) = run(&foreign);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a shoutan pattern file"), "{err}");
    let truncated = dir.join("truncated.patterns");
    let good = shoutan::policy::model_file::to_bytes(shoutan::policy::Policy::builtin());
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    let (code, err) = run(&truncated);
    assert_eq!(code, Some(2));
    assert!(err.contains("truncated"), "{err}");
    // A good file is accepted: the engine starts, and ends with its input.
    let copy = dir.join("copy.patterns");
    std::fs::write(&copy, &good).unwrap();
    assert_eq!(run(&copy).0, Some(0));
}
