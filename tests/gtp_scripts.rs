//! Runs every `gtp-scripts/*.gtp` regression script against the built `shoutan` binary.
//!
//! The scripts are in gogui-regress format, so `gogui-regress` runs them too (see
//! `gtp-scripts/README.md`):
//! - each line is a GTP command, sent as it is (the engine does the GTP preprocessing);
//! - `ID command` (ID a number) is a test, and the `#? [PATTERN]` line after it its
//!   expectation: the whole answer text must match the regular expression PATTERN
//!   (case-sensitive, `.` matching newlines, as gogui-regress does); `[!PATTERN]` means it must
//!   not match; a trailing `*` marks an expected failure. An error answer (`?`) fails a test;
//! - two extensions that other runners read as comments:
//!   - a first-lines comment `# shoutan-options: --ko situational` gives the engine's
//!     command-line options for the script;
//!   - `#refused [PATTERN]` after a command without ID says the command must be refused with
//!     a message matching PATTERN. Any other command without ID must succeed.
//!
//! This runner also checks that answers echo the command's ID, and that `quit` at the end
//! ends the engine with exit status 0. Patterns are compiled by the `regex` crate, whose
//! syntax covers the part of Java's that regression files use.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::GtpProcess;

/// The scripts that must exist: one per topic of the rules and the protocol.
const REQUIRED_SCRIPTS: &[&str] = &[
    "protocol",
    "captures",
    "ko",
    "superko_positional",
    "superko_situational",
    "ko_simple",
    "suicide",
    "handicap",
    "loadsgf",
    "printsgf",
    "undo",
    "bad_input",
];

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts")
}

/// An answer pattern with gogui-regress's semantics: the whole answer must match,
/// case-sensitively, with `.` matching newlines and `^`/`$` matching at line boundaries.
struct AnswerPattern(regex::Regex);

impl AnswerPattern {
    fn new(pattern: &str) -> Result<AnswerPattern, regex::Error> {
        // Compiled alone first, so that a pattern cannot escape the whole-answer group
        // below (`a)|(b` is an error, not two alternatives).
        regex::Regex::new(pattern)?;
        regex::Regex::new(&format!(r"(?sm)\A(?:{pattern})\z")).map(AnswerPattern)
    }

    fn matches(&self, answer: &str) -> bool {
        self.0.is_match(answer)
    }
}

/// An expectation line: `[PATTERN]`, `[!PATTERN]`, either with a trailing `*`.
#[derive(Debug, PartialEq)]
struct Expectation {
    pattern: String,
    negated: bool,
    expected_failure: bool,
}

fn parse_expectation(text: &str) -> Result<Option<Expectation>, String> {
    let mut t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let expected_failure = t.ends_with('*');
    if expected_failure {
        t = t[..t.len() - 1].trim_end();
    }
    let inner = t
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or_else(|| format!("pattern needs brackets: {text}"))?
        .trim();
    let (negated, pattern) = match inner.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    Ok(Some(Expectation {
        pattern: pattern.to_string(),
        negated,
        expected_failure,
    }))
}

/// The command sent last, waiting for its expectation line.
struct Pending {
    line: usize,
    id: Option<String>,
    command: String,
    ok: bool,
    text: String,
}

/// Runs one script; returns its failures, one message each, and the number of tests.
fn run_script(path: &Path) -> (Vec<String>, usize) {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let bytes = std::fs::read(path).expect("read script");
    let content = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = content.split('\n').collect();
    let options: Vec<&str> = lines
        .iter()
        .take_while(|l| l.trim_start().starts_with('#') || l.trim().is_empty())
        .find_map(|l| l.trim().strip_prefix("# shoutan-options:"))
        .map(|o| o.split_whitespace().collect())
        .unwrap_or_default();
    let dir = path.parent().expect("script directory");
    let mut engine = GtpProcess::spawn(
        Path::new(env!("CARGO_BIN_EXE_shoutan")),
        &options,
        Some(dir),
    )
    .expect("start shoutan");
    let mut failures = Vec::new();
    let mut tests = 0;
    let mut pending: Option<Pending> = None;
    let at = |line: usize| format!("{name}:{}", line + 1);

    // A command without a verdict line: tests must not fail, other commands must succeed.
    let finish = |p: Pending, failures: &mut Vec<String>| {
        if !p.ok {
            failures.push(format!(
                "{}: `{}` failed unexpectedly: ? {}",
                at(p.line),
                p.command,
                p.text
            ));
        }
    };

    for (index, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix("#?") {
            let Some(p) = pending.take() else {
                failures.push(format!("{}: `#?` without a command before it", at(index)));
                continue;
            };
            if p.id.is_none() {
                failures.push(format!("{}: `#?` after a command without ID", at(index)));
                continue;
            }
            tests += 1;
            let expectation = match parse_expectation(rest) {
                Ok(Some(e)) => e,
                Ok(None) => {
                    finish(p, &mut failures);
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{}: {e}", at(index)));
                    continue;
                }
            };
            let regex = match AnswerPattern::new(&expectation.pattern) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{}: bad pattern: {e}", at(index)));
                    continue;
                }
            };
            let failed = !p.ok || regex.matches(p.text.trim()) == expectation.negated;
            let got = format!("{} {}", if p.ok { '=' } else { '?' }, p.text);
            if failed && !expectation.expected_failure {
                failures.push(format!(
                    "{}: `{}`: got `{got}`, expected {}",
                    at(p.line),
                    p.command,
                    rest.trim()
                ));
            } else if !failed && expectation.expected_failure {
                failures.push(format!(
                    "{}: `{}`: passes but is marked as an expected failure",
                    at(p.line),
                    p.command
                ));
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("#refused") {
            let Some(p) = pending.take() else {
                failures.push(format!("{}: `#refused` without a command", at(index)));
                continue;
            };
            tests += 1;
            let pattern = rest
                .trim()
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .map(str::trim);
            let Some(pattern) = pattern else {
                failures.push(format!("{}: `#refused` needs [PATTERN]", at(index)));
                continue;
            };
            match AnswerPattern::new(pattern) {
                Err(e) => failures.push(format!("{}: bad pattern: {e}", at(index))),
                Ok(regex) => {
                    if p.ok || !regex.matches(p.text.trim()) {
                        failures.push(format!(
                            "{}: `{}`: got `{} {}`, expected refusal [{pattern}]",
                            at(p.line),
                            p.command,
                            if p.ok { '=' } else { '?' },
                            p.text
                        ));
                    }
                }
            }
            continue;
        }
        if let Some(p) = pending.take() {
            finish(p, &mut failures);
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // Send the raw line: comments, tabs and control characters are the engine's business.
        let raw_line = *raw;
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        let id = (digits > 0 && line[digits..].starts_with([' ', '\t']))
            .then(|| line[..digits].to_string());
        let answer = match engine.send(raw_line) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{}: `{line}`: engine died: {e}", at(index)));
                return (failures, tests);
            }
        };
        if answer.id != id {
            failures.push(format!(
                "{}: `{line}`: answer id {:?}, expected {:?}",
                at(index),
                answer.id,
                id
            ));
        }
        pending = Some(Pending {
            line: index,
            id,
            command: line.to_string(),
            ok: answer.ok,
            text: answer.text,
        });
    }
    if let Some(p) = pending.take() {
        finish(p, &mut failures);
    }
    match engine.send("quit") {
        Ok(a) if a.ok => {}
        other => failures.push(format!("{name}: quit answered {other:?}")),
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match engine.try_wait() {
            Ok(Some(status)) => {
                if !status.success() {
                    failures.push(format!("{name}: engine exited with {status}"));
                }
                break;
            }
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                failures.push(format!("{name}: engine did not exit after quit"));
                break;
            }
        }
    }
    (failures, tests)
}

#[test]
fn every_gtp_script_passes() {
    let dir = scripts_dir();
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gtp-scripts directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gtp"))
        .collect();
    scripts.sort();
    for required in REQUIRED_SCRIPTS {
        assert!(
            scripts
                .iter()
                .any(|p| p.file_stem().is_some_and(|s| s == *required)),
            "gtp-scripts/{required}.gtp is missing"
        );
    }
    let workers: Vec<_> = scripts
        .into_iter()
        .map(|path| std::thread::spawn(move || (path.clone(), run_script(&path))))
        .collect();
    let mut all_failures = Vec::new();
    let mut total = 0;
    for w in workers {
        let (path, (failures, tests)) = w.join().expect("script runner");
        assert!(tests > 0, "{} has no tests", path.display());
        total += tests;
        all_failures.extend(failures);
    }
    eprintln!("{total} script tests run");
    assert!(
        all_failures.is_empty(),
        "{} failures:\n{}",
        all_failures.len(),
        all_failures.join("\n")
    );
}

#[test]
fn the_runner_catches_wrong_answers() {
    // A test of the test: a script whose expectations are wrong must fail, each for its
    // own reason.
    let dir = common::scratch_dir("runner-self-test");
    let script = dir.join("wrong.gtp");
    std::fs::write(
        &script,
        "1 name\n#? [gnugo]\n2 boardsize 9\n#? [!]\nboardsize 99\n#refused [x]\nplay b A1\n#refused [.*]\n3 protocol_version\n#? [2]*\nfrobnicate\n",
    )
    .expect("write script");
    let (failures, tests) = run_script(&script);
    assert_eq!(tests, 5);
    assert_eq!(failures.len(), 6, "{failures:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn expectation_lines_parse_like_gogui_regress() {
    assert_eq!(parse_expectation("  "), Ok(None));
    assert_eq!(
        parse_expectation(" [!D4|E5]* "),
        Ok(Some(Expectation {
            pattern: "D4|E5".into(),
            negated: true,
            expected_failure: true,
        }))
    );
    assert!(parse_expectation("D4").is_err());
}

#[test]
fn answer_patterns_match_the_whole_answer_like_gogui_regress() {
    let m = |p: &str, t: &str| AnswerPattern::new(p).expect("pattern").matches(t);
    assert!(m("D4", "D4"));
    // Case-sensitive, and the whole answer: no prefix, no suffix.
    assert!(!m("D4", "d4"));
    assert!(!m("D4", "D44"));
    assert!(!m("D4", "xD4"));
    assert!(m("D4|E5", "E5"));
    assert!(!m("D4|E5", "D4E5"));
    assert!(m("1 (C4|D5)", "1 D5"));
    assert!(!m("1 (C4|D5)", "1 C5"));
    assert!(m("W\\+3\\.5", "W+3.5"));
    assert!(!m("W\\+3\\.5", "W+305"));
    // `.` crosses lines; `^` and `$` match at line boundaries.
    assert!(m(
        ".*captured 2 stones.*",
        "line\nWHITE (O) has captured 2 stones\nmore"
    ));
    assert!(m(".*^ 1 X.*", "top\n 1 X ."));
    assert!(m(".*^loadsgf$.*", "play\nloadsgf\nquit"));
    assert!(!m(".*^oadsgf$.*", "play\nloadsgf\nquit"));
    assert!(m("[A-HJ-T]\\d+", "Q16"));
    assert!(!m("[A-HJ-T]\\d+", "I16"));
    assert!(m("(?:[A-T]\\d{1,2} ?){2}", "D4 Q16"));
    assert!(!m("a{2,3}", "aaaa"));
    assert!(m("", ""));
    assert!(!m("", "x"));
    assert!(AnswerPattern::new("(unclosed").is_err());
    assert!(AnswerPattern::new("*").is_err());
    assert!(AnswerPattern::new("a)").is_err());
    // A pattern cannot break out of the whole-answer group.
    assert!(AnswerPattern::new("a)|(b").is_err());
}
