//! `shoutan score` end to end: a hand-counted ancient game, and the same answer as a GTP
//! session that loads the file and asks `final_score` on every game file of the repository.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::GtpProcess;

fn shoutan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shoutan"))
        .args(args)
        .output()
        .expect("run shoutan")
}

fn repo_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn stdout(run: &Output) -> String {
    assert!(run.status.success(), "{run:?}");
    String::from_utf8(run.stdout.clone()).unwrap()
}

fn json(run: &Output) -> serde_json::Value {
    serde_json::from_str(&stdout(run)).expect("valid JSON")
}

#[test]
fn an_ancient_game_counts_with_its_tax() {
    // Counted by hand in the file's comment: Black 40 points in two groups, White 41 in
    // one; with the tax Black has 39 stones against par 40½, W+3 (W+1 without it).
    let file = repo_file("tests/sgf/ancient9.sgf");
    let file = file.to_str().unwrap();
    let text = stdout(&shoutan(&["score", file]));
    assert!(text.contains("rules ancient"), "{text}");
    assert!(text.contains("= 40; 2 groups, tax 2"), "{text}");
    assert!(text.contains("= 41; 1 group, tax 1"), "{text}");
    assert!(text.contains("Black 39 stones"), "{text}");
    assert!(
        text.ends_with("result in points: W+3\ndead stones: G3 G7\n"),
        "{text}"
    );

    let v = json(&shoutan(&["score", file, "--json"]));
    assert_eq!(v["rules"], "ancient");
    assert_eq!(v["groups"]["black"], 2);
    assert_eq!(v["groups"]["white"], 1);
    assert_eq!(v["black_stones"], 39.0);
    assert_eq!(v["par"], 40.5);
    assert_eq!(v["score"], -3.0);
    assert_eq!(v["winner"], "white");
    assert_eq!(v["result"], "W+3");
    assert_eq!(v["dead_stones"], serde_json::json!(["G3", "G7"]));

    // The same board without the tax.
    let v = json(&shoutan(&["score", file, "--json", "--rules", "chinese"]));
    assert_eq!(v["result"], "W+1");
    assert_eq!(v["tax"]["black"], 0);
}

/// Every game file of the repository that loads.
fn game_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["gtp-scripts/sgf", "tests/sgf"] {
        for entry in std::fs::read_dir(repo_file(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".sgf") && !name.starts_with("bad_") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The preset a file's `RU` names, read by hand (chinese when absent).
fn rules_of(text: &str) -> &'static str {
    let ru = text
        .split_once("RU[")
        .map(|(_, rest)| rest.split(']').next().unwrap_or(""))
        .unwrap_or("");
    match ru {
        "" | "Chinese" => "chinese",
        "Japanese" => "japanese",
        "Ancient Chinese" => "ancient",
        other => panic!("a test file names rules {other}"),
    }
}

/// `final_score` and the dead stones after `loadsgf` in a GTP session under `rules`.
fn gtp_count(file: &Path, rules: &str) -> (String, Vec<String>) {
    let mut gtp = GtpProcess::spawn(
        Path::new(env!("CARGO_BIN_EXE_shoutan")),
        &["--rules", rules, "--threads", "1"],
        None,
    )
    .unwrap();
    let load = gtp.send(&format!("loadsgf {}", file.display())).unwrap();
    assert!(load.ok, "{}: {load:?}", file.display());
    let score = gtp.send("final_score").unwrap();
    let dead = gtp.send("final_status_list dead").unwrap();
    gtp.send("quit").unwrap();
    let mut stones: Vec<String> = dead.text.split_whitespace().map(str::to_string).collect();
    stones.sort();
    (score.text, stones)
}

#[test]
fn score_answers_as_final_score_does_after_loadsgf() {
    let files = game_files();
    assert!(files.len() >= 9, "{files:?}");
    for file in &files {
        let path = file.to_str().unwrap();
        let text = std::fs::read_to_string(file).unwrap();
        let file_rules = rules_of(&text);
        for (rules, args) in [
            (file_rules, vec!["score", path, "--json"]),
            (
                "japanese",
                vec!["score", path, "--json", "--rules", "japanese"],
            ),
        ] {
            let v = json(&shoutan(&args));
            let (result, dead) = gtp_count(file, rules);
            assert_eq!(v["result"], result.as_str(), "{path} under {rules}");
            let mut listed: Vec<String> = v["dead_stones"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            listed.sort();
            assert_eq!(listed, dead, "{path} under {rules}");
            assert_eq!(v["rules"], rules, "{path}");
        }
    }
}

#[test]
fn broken_files_and_unknown_rules_are_refused() {
    for bad in [
        "gtp-scripts/sgf/bad_malformed.sgf",
        "gtp-scripts/sgf/bad_ko.sgf",
    ] {
        let run = shoutan(&["score", repo_file(bad).to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("cannot load"));
        assert!(run.stdout.is_empty());
    }
    let game = repo_file("tests/sgf/ancient9.sgf");
    let run = shoutan(&["score", game.to_str().unwrap(), "--rules", "martian"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown rules"));
}
