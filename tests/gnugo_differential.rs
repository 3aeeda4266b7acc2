//! Differential tests against GNU Go 3.8 as the rules oracle.
//!
//! - Legal moves: random games on 5x5, 7x7, 9x9 and 19x19, played to the end (captures, ko
//!   fights and suicide points come up all the time when nobody avoids filling eyes). At every
//!   ply both engines answer `is_legal` for every point and both colours, and the answers must
//!   be identical; GNU Go runs with `--chinese-rules --positional-superko`, our default.
//!   The final stones and capture counts must agree too.
//! - `loadsgf`: random game records (setup stones, handicap, `PL`, passes as `[]` and `[tt]`)
//!   and hand-written edge cases are loaded by both at many move numbers: the answer (colour
//!   to move), stones, prisoners, komi and the legality of every point afterwards must agree.
//!
//! shoutan runs in-process through `Engine::execute`; GNU Go over pipes, many commands per
//! write. Without GNU Go the tests say they were skipped, unless `SHOUTAN_REQUIRE_GNUGO` is
//! set, in which case they fail.

mod common;

use std::path::Path;

use common::{GtpProcess, gnugo_or_skip, scratch_dir};
use shoutan::board::{Board, Color, Move};
use shoutan::game::Game;
use shoutan::gtp::{Engine, EngineOptions};
use shoutan::rng::Rng;
use shoutan::rules::Rules;

fn gnugo(path: &Path) -> GtpProcess {
    GtpProcess::spawn(
        path,
        &["--mode", "gtp", "--chinese-rules", "--positional-superko"],
        None,
    )
    .expect("start GNU Go")
}

fn engine(size: usize) -> Engine {
    Engine::new(EngineOptions {
        size: Some(size),
        threads: 1,
        seed: Some(1),
        playouts: Some(100),
        ..EngineOptions::default()
    })
    .expect("engine")
}

/// Our answer text: `= text\n\n` → `Ok(text)`, `? text\n\n` → `Err(text)`.
fn ours(engine: &mut Engine, command: &str) -> Result<String, String> {
    let answer = engine.execute(command);
    let text = answer[1..].trim_start_matches(' ').trim_end().to_string();
    if answer.starts_with('=') {
        Ok(text)
    } else {
        Err(text)
    }
}

fn theirs(gnugo: &mut GtpProcess, command: &str) -> Result<String, String> {
    let a = gnugo.send(command).expect("GNU Go answers");
    if a.ok { Ok(a.text) } else { Err(a.text) }
}

/// Every point of a board of `size`, by GTP name.
fn vertices(size: usize) -> Vec<String> {
    let b = Board::new(size);
    b.points().map(|p| b.vertex_name(p)).collect()
}

/// What the two engines say about every point for both colours; panics on any difference.
/// Returns the legal points of `to_move` and how many empty points were illegal (suicide,
/// ko, superko) for either colour.
fn compare_all_legality(
    ours_engine: &mut Engine,
    gnugo: &mut GtpProcess,
    names: &[String],
    to_move: Color,
    context: &dyn Fn() -> String,
) -> (Vec<String>, usize) {
    let mut commands = Vec::with_capacity(2 * names.len());
    for c in ["black", "white"] {
        for v in names {
            commands.push(format!("is_legal {c} {v}"));
        }
    }
    let answers = gnugo.batch(&commands).expect("GNU Go answers");
    let board = ours_engine.game.board().clone();
    let mut legal_for_mover = Vec::new();
    let mut empty_but_illegal = 0;
    for (command, answer) in commands.iter().zip(&answers) {
        assert!(answer.ok, "{}: GNU Go refused {command}", context());
        let ours_text = ours(ours_engine, command).expect("our is_legal answers");
        assert_eq!(
            ours_text,
            answer.text,
            "{}: `{command}`: shoutan {ours_text}, GNU Go {}\n{board:?}",
            context(),
            answer.text
        );
        let mut words = command.split(' ').skip(1);
        let color = words.next().unwrap_or_default();
        let vertex = words.next().unwrap_or_default();
        let empty = matches!(board.parse_move(vertex), Ok(Move::Play(p)) if board.cell(p).color().is_none());
        if ours_text == "1" && color == to_move.to_string() {
            legal_for_mover.push(vertex.to_string());
        }
        if ours_text == "0" && empty {
            empty_but_illegal += 1;
        }
    }
    (legal_for_mover, empty_but_illegal)
}

fn stones_agree(ours_engine: &Engine, gnugo: &mut GtpProcess, context: &dyn Fn() -> String) {
    let board = ours_engine.game.board();
    for c in Color::BOTH {
        let mut expected: Vec<String> = theirs(gnugo, &format!("list_stones {c}"))
            .expect("list_stones")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let mut actual: Vec<String> = board
            .points()
            .filter(|&p| board.cell(p).color() == Some(c))
            .map(|p| board.vertex_name(p))
            .collect();
        expected.sort();
        actual.sort();
        assert_eq!(actual, expected, "{}: {c} stones\n{board:?}", context());
        let captured: u32 = theirs(gnugo, &format!("captures {c}"))
            .expect("captures")
            .trim()
            .parse()
            .expect("a number");
        assert_eq!(board.prisoners(c), captured, "{}: {c} prisoners", context());
    }
}

/// Totals over a series of games, to show the games reached the interesting situations.
#[derive(Default, Debug)]
struct Coverage {
    games: usize,
    plies: usize,
    captures: u32,
    empty_but_illegal: usize,
}

fn legal_move_games(
    gnugo_path: &Path,
    size: usize,
    games: usize,
    max_moves: usize,
    seed: u64,
) -> Coverage {
    let mut gnugo = gnugo(gnugo_path);
    let mut us = engine(size);
    let mut rng = Rng::new(seed);
    let names = vertices(size);
    let mut coverage = Coverage::default();
    for game in 0..games {
        for setup in [format!("boardsize {size}"), "clear_board".into()] {
            assert_eq!(ours(&mut us, &setup), Ok(String::new()));
            assert_eq!(theirs(&mut gnugo, &setup), Ok(String::new()));
        }
        let mut to_move = Color::Black;
        let mut passes = 0;
        let mut last: Option<String> = None;
        for ply in 0..max_moves {
            let context = || format!("{size}x{size} game {game} (seed {seed}) ply {ply}");
            let (legal, empty_illegal) =
                compare_all_legality(&mut us, &mut gnugo, &names, to_move, &context);
            coverage.empty_but_illegal += empty_illegal;
            coverage.plies += 1;
            // Mostly next to the last move, where captures and ko happen; sometimes a pass.
            let near: Vec<&String> = match &last {
                Some(v) => {
                    let b = us.game.board();
                    let Ok(Move::Play(p)) = b.parse_move(v) else {
                        unreachable!()
                    };
                    let around: Vec<String> = b
                        .neighbors(p)
                        .into_iter()
                        .chain(b.diagonals(p))
                        .filter(|&q| b.on_board(q))
                        .map(|q| b.vertex_name(q))
                        .collect();
                    legal.iter().filter(|v| around.contains(v)).collect()
                }
                None => Vec::new(),
            };
            let choice = if legal.is_empty() || rng.below(100) < 2 {
                "pass".to_string()
            } else if !near.is_empty() && rng.below(2) == 0 {
                near[rng.below(near.len())].clone()
            } else {
                legal[rng.below(legal.len())].clone()
            };
            let command = format!("play {to_move} {choice}");
            let before = us.game.board().stone_count();
            assert_eq!(ours(&mut us, &command), Ok(String::new()), "{}", context());
            assert_eq!(
                theirs(&mut gnugo, &command),
                Ok(String::new()),
                "{}",
                context()
            );
            if choice == "pass" {
                passes += 1;
                last = None;
            } else {
                passes = 0;
                coverage.captures += (before + 1 - us.game.board().stone_count()) as u32;
                last = Some(choice);
            }
            to_move = to_move.opponent();
            if passes >= 2 {
                break;
            }
        }
        stones_agree(&us, &mut gnugo, &|| {
            format!("{size}x{size} game {game} end")
        });
        coverage.games += 1;
    }
    eprintln!("{size}x{size}: {coverage:?}");
    coverage
}

#[test]
fn legal_moves_agree_with_gnugo_on_5x5_7x7_9x9_and_19x19() {
    let Some(gnugo_path) = gnugo_or_skip("legal_moves_agree_with_gnugo") else {
        return;
    };
    // (size, games, move cap): random games last long on small boards (captures refill the
    // board), so they are capped; 19x19 is costly per ply, so it gets few games.
    let plan = [(5, 40, 150), (7, 20, 200), (9, 10, 260), (19, 2, 500)];
    let workers: Vec<_> = plan
        .into_iter()
        .map(|(size, games, cap)| {
            let path = gnugo_path.clone();
            std::thread::spawn(move || {
                legal_move_games(&path, size, games, cap, 7_000 + size as u64)
            })
        })
        .collect();
    for w in workers {
        let c = w.join().expect("a differential game series failed");
        assert!(c.captures > 0, "the games must include captures: {c:?}");
        assert!(
            c.empty_but_illegal > 0,
            "the games must include suicide or ko points: {c:?}"
        );
    }
}

/// A random game record: root properties, then moves; some setup, handicap and passes.
fn random_record(rng: &mut Rng, size: usize) -> (String, usize) {
    let mut game = Game::new(size, Rules::chinese()).expect("size");
    let b = game.board().clone();
    let coords = |p: shoutan::board::Point| {
        let (col, row) = b.col_row(p);
        format!(
            "{}{}",
            (b'a' + col as u8) as char,
            (b'a' + (size - 1 - row) as u8) as char
        )
    };
    let komi = ["0.5", "5.5", "6.5", "7.5", "-3"][rng.below(5)];
    let mut root = format!("(;FF[4]GM[1]SZ[{size}]KM[{komi}]");
    let mut first = Color::Black;
    match rng.below(3) {
        0 if size >= 7 => {
            // Handicap with explicit stones.
            let n = 2 + rng.below(3);
            let pts: Vec<_> = shoutan::game::fixed_handicap_points(size, n.min(4))
                .expect("handicap")
                .into_iter()
                .map(|(c, r)| b.point(c, r))
                .collect();
            root.push_str(&format!("HA[{}]AB", pts.len()));
            for &p in &pts {
                root.push_str(&format!("[{}]", coords(p)));
            }
            game.place_handicap(&pts).expect("handicap stones");
            first = Color::White;
        }
        1 => {
            // Scattered setup stones of both colours, then maybe PL.
            let mut stones = Vec::new();
            for _ in 0..(size * size / 8) {
                let p = b.point(rng.below(size), rng.below(size));
                let c = Color::BOTH[rng.below(2)];
                if !stones.iter().any(|&(q, _)| q == p) {
                    let mut trial = stones.clone();
                    trial.push((p, c));
                    let mut g = Game::new(size, Rules::chinese()).expect("size");
                    if g.set_setup_position(&trial).is_ok() {
                        stones = trial;
                    }
                }
            }
            game.set_setup_position(&stones).expect("valid setup");
            for c in Color::BOTH {
                let pts: Vec<String> = stones
                    .iter()
                    .filter(|&&(_, sc)| sc == c)
                    .map(|&(p, _)| format!("[{}]", coords(p)))
                    .collect();
                if !pts.is_empty() {
                    root.push_str(if c == Color::Black { "AB" } else { "AW" });
                    root.push_str(&pts.concat());
                }
            }
            if rng.below(2) == 0 {
                first = Color::White;
                root.push_str("PL[W]");
            }
        }
        _ => {}
    }
    game.set_to_move(first);
    let mut text = root;
    let moves = rng.below(3 * size * size);
    let mut color = first;
    let mut count = 0;
    for _ in 0..moves {
        let legal: Vec<_> = game
            .board()
            .empty_points()
            .iter()
            .copied()
            .filter(|&p| game.is_legal(Move::Play(p), color))
            .collect();
        let mv = if legal.is_empty() || rng.below(100) < 4 {
            Move::Pass
        } else {
            Move::Play(legal[rng.below(legal.len())])
        };
        game.play(mv, color).expect("legal");
        let value = match mv {
            Move::Pass if size <= 19 && rng.below(2) == 0 => "tt".to_string(),
            Move::Pass => String::new(),
            Move::Play(p) => coords(p),
        };
        text.push_str(&format!(";{}[{value}]", color.letter()));
        count += 1;
        // Now and then two moves of one colour in a row, as records of handicap games do.
        if rng.below(50) != 0 {
            color = color.opponent();
        }
    }
    text.push(')');
    (text, count)
}

/// Loads `file` at `until` in both engines and compares everything observable; returns
/// whether the file loaded (in both).
fn compare_load(
    us: &mut Engine,
    gnugo: &mut GtpProcess,
    file: &Path,
    until: Option<usize>,
    sgf: &str,
) -> bool {
    let arg = until.map_or(String::new(), |n| format!(" {n}"));
    let command = format!("loadsgf {}{arg}", file.display());
    let context = || format!("`{command}` of\n{sgf}");
    let expected = theirs(gnugo, &command);
    let actual = ours(us, &command);
    assert_eq!(
        actual.is_ok(),
        expected.is_ok(),
        "{}: {actual:?} vs {expected:?}",
        context()
    );
    let Ok(color) = expected else { return false };
    assert_eq!(actual, Ok(color.clone()), "{}", context());
    stones_agree(us, gnugo, &context);
    let komi: f32 = theirs(gnugo, "get_komi")
        .expect("komi")
        .trim()
        .parse()
        .expect("number");
    assert_eq!(us.game.komi(), komi, "{}", context());
    let size = us.game.size();
    let to_move = if color == "white" {
        Color::White
    } else {
        Color::Black
    };
    compare_all_legality(us, gnugo, &vertices(size), to_move, &context);
    true
}

#[test]
fn loadsgf_agrees_with_gnugo() {
    let Some(gnugo_path) = gnugo_or_skip("loadsgf_agrees_with_gnugo") else {
        return;
    };
    let dir = scratch_dir("loadsgf-differential");
    let mut gnugo = gnugo(&gnugo_path);
    let mut us = engine(19);
    // Hand-written cases: setup in later nodes, PL after moves, two moves of one colour,
    // HA without stones, a node with only a comment.
    let mut cases: Vec<(String, usize)> = vec![
        (
            "(;FF[4]SZ[9]KM[5.5]AB[cc]AW[gg]PL[W];W[ee];B[ce];AB[aa];W[ge];B[tt];W[ab])".into(),
            5,
        ),
        ("(;FF[4]SZ[9]KM[0];B[cc];PL[B])".into(), 1),
        ("(;FF[4]SZ[9]KM[6.5];B[cc];B[dd];W[ee];W[ff])".into(), 4),
        ("(;FF[4]SZ[9]KM[0.5]HA[2])".into(), 0),
        (
            "(;FF[4]SZ[9]KM[7.5];B[ee]C[first];C[nothing here];W[];B[cc](;W[dd])(;W[gg]))".into(),
            4,
        ),
    ];
    let mut rng = Rng::new(99);
    for k in 0..40 {
        let size = [5, 7, 9, 13, 19][k % 5];
        cases.push(random_record(&mut rng, size));
    }
    let (mut loads, mut loaded) = (0, 0);
    for (index, (sgf, moves)) in cases.iter().enumerate() {
        let file = dir.join(format!("game{index}.sgf"));
        std::fs::write(&file, sgf).expect("write SGF");
        let mut untils = vec![None, Some(1), Some(2), Some(moves + 1), Some(moves + 7)];
        if *moves > 2 {
            untils.push(Some(*moves));
            untils.push(Some(2 + rng.below(moves - 1)));
        }
        for until in untils {
            loads += 1;
            loaded += usize::from(compare_load(&mut us, &mut gnugo, &file, until, sgf));
        }
    }
    eprintln!("loadsgf: {loaded} of {loads} loads succeeded in both engines");
    assert_eq!(loaded, loads, "every test file is valid");
    let _ = std::fs::remove_dir_all(&dir);
}
