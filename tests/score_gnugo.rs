//! Differential test: games played out to the end (every dead stone captured, as light
//! playouts leave them) score exactly as GNU Go `--chinese-rules` `final_score` says, and as
//! Tromp-Taylor counting of the board does.
//!
//! GNU Go is the oracle: when `/usr/games/gnugo` is missing the test is skipped, unless the
//! environment variable `SHOUTAN_REQUIRE_GNUGO` is set (CI sets it), in which case it fails.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use shoutan::board::Color;
use shoutan::game::Game;
use shoutan::gtp::{Engine, EngineOptions};
use shoutan::playout::{Playout, Policy};
use shoutan::rules::{KoRule, Rules};
use shoutan::score::{result_string, tromp_taylor_score};

const GNUGO: &str = "/usr/games/gnugo";

struct Gnugo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gnugo {
    fn start() -> Option<Gnugo> {
        let mut child = Command::new(GNUGO)
            .args(["--mode", "gtp", "--chinese-rules"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take()?;
        let stdout = BufReader::new(child.stdout.take()?);
        Some(Gnugo {
            child,
            stdin,
            stdout,
        })
    }

    fn send(&mut self, cmd: &str) -> String {
        writeln!(self.stdin, "{cmd}").expect("write to gnugo");
        self.stdin.flush().expect("flush gnugo");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read gnugo");
            assert!(n > 0, "gnugo closed its output after {cmd}");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        assert!(answer.starts_with('='), "gnugo refused {cmd}: {answer}");
        answer[1..].trim().to_string()
    }
}

impl Drop for Gnugo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn gnugo_or_skip() -> Option<Gnugo> {
    let found = std::path::Path::new(GNUGO).exists();
    if !found {
        if std::env::var_os("SHOUTAN_REQUIRE_GNUGO").is_some() {
            panic!("SHOUTAN_REQUIRE_GNUGO is set but {GNUGO} is missing");
        }
        eprintln!("skipping: {GNUGO} not installed");
        return None;
    }
    Some(Gnugo::start().expect("start gnugo"))
}

/// A point result parsed back from `B+x`, `W+x` or `0`.
fn points(result: &str) -> f32 {
    if result == "0" {
        return 0.0;
    }
    let (sign, rest) = match result.split_at(2) {
        ("B+", r) => (1.0, r),
        ("W+", r) => (-1.0, r),
        _ => panic!("bad result {result}"),
    };
    sign * rest.parse::<f32>().expect("number")
}

#[test]
fn played_out_games_score_like_gnugo_chinese_rules() {
    let Some(mut gnugo) = gnugo_or_skip() else {
        return;
    };
    let komi = 7.5;
    let mut games = 0;
    for (size, n) in [(9usize, 12u64), (7, 6), (13, 3)] {
        for seed in 0..n {
            let game = Game::new(size, Rules::chinese()).expect("game");
            let mut po = Playout::new(1000 * size as u64 + seed);
            po.start(game.board());
            po.run(
                Color::Black,
                game.positions(),
                KoRule::Positional,
                komi,
                Policy::Light,
            );
            let expected = tromp_taylor_score(&po.board, komi);

            let mut engine = Engine::new(EngineOptions {
                size: Some(size),
                threads: 1,
                ..EngineOptions::default()
            })
            .expect("engine");
            gnugo.send(&format!("boardsize {size}"));
            gnugo.send("clear_board");
            gnugo.send(&format!("komi {komi}"));
            for &(p, c) in &po.moves {
                let mv = format!("play {} {}", c.letter(), po.board.vertex_name(p));
                assert_eq!(engine.execute(&mv), "= \n\n", "{mv}");
                gnugo.send(&mv);
            }
            assert_eq!(
                engine.game.board().hash(),
                po.board.hash(),
                "replay differs"
            );
            let ours = engine.execute("final_score");
            let ours = ours[2..].trim();
            let theirs = gnugo.send("final_score");
            assert_eq!(
                ours,
                result_string(expected),
                "ours vs Tromp-Taylor\n{:?}",
                po.board
            );
            assert_eq!(
                points(ours),
                points(&theirs),
                "ours {ours} vs GNU Go {theirs}\n{:?}",
                po.board
            );
            games += 1;
        }
    }
    assert_eq!(games, 21);
}
