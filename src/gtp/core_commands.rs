//! The core GTP commands: protocol administration, board setup, moves, handicap, move
//! generation.

use crate::board::{Board, Color, Move, Point};
use crate::game::{check_size, fixed_handicap_points, free_handicap_points};
use crate::search::Mode;

use super::{
    Call, CommandSpec, Engine, command_table, expect_args, find_command, parse_color, parse_float,
    parse_uint, parse_vertex,
};

/// The core commands, in `list_commands` order.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "protocol_version",
        handler: protocol_version,
    },
    CommandSpec {
        name: "name",
        handler: name,
    },
    CommandSpec {
        name: "version",
        handler: version,
    },
    CommandSpec {
        name: "known_command",
        handler: known_command,
    },
    CommandSpec {
        name: "list_commands",
        handler: list_commands,
    },
    CommandSpec {
        name: "quit",
        handler: quit,
    },
    CommandSpec {
        name: "boardsize",
        handler: boardsize,
    },
    CommandSpec {
        name: "clear_board",
        handler: clear_board,
    },
    CommandSpec {
        name: "komi",
        handler: komi,
    },
    CommandSpec {
        name: "play",
        handler: play,
    },
    CommandSpec {
        name: "genmove",
        handler: genmove,
    },
    CommandSpec {
        name: "reg_genmove",
        handler: reg_genmove,
    },
    CommandSpec {
        name: "kgs-genmove_cleanup",
        handler: genmove_cleanup,
    },
    CommandSpec {
        name: "undo",
        handler: undo,
    },
    CommandSpec {
        name: "showboard",
        handler: showboard,
    },
    CommandSpec {
        name: "is_legal",
        handler: is_legal,
    },
    CommandSpec {
        name: "fixed_handicap",
        handler: fixed_handicap,
    },
    CommandSpec {
        name: "place_free_handicap",
        handler: place_free_handicap,
    },
    CommandSpec {
        name: "set_free_handicap",
        handler: set_free_handicap,
    },
    CommandSpec {
        name: "cputime",
        handler: cputime,
    },
];

fn protocol_version(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok("2".into())
}

fn name(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok("shoutan".into())
}

fn version(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(env!("CARGO_PKG_VERSION").into())
}

fn known_command(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 1, "known_command COMMAND")?;
    Ok(find_command(&call.args[0]).is_some().to_string())
}

fn list_commands(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(command_table()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn quit(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    engine.request_quit();
    Ok(String::new())
}

fn boardsize(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 1, "boardsize SIZE")?;
    let size = call.args[0]
        .parse::<usize>()
        .map_err(|_| format!("unacceptable size: '{}' is not a size", call.args[0]))?;
    check_size(size)?;
    engine.new_game(size)?;
    Ok(String::new())
}

fn clear_board(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    engine.game.clear();
    Ok(String::new())
}

fn komi(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 1, "komi VALUE")?;
    let k = parse_float(&call.args[0], "komi")?;
    if k.abs() > 1000.0 {
        return Err(format!("komi {k} out of range"));
    }
    engine.game.set_komi(k as f32);
    Ok(String::new())
}

/// Parses `COLOR VERTEX` arguments.
fn color_and_move(board: &Board, args: &[String]) -> Result<(Color, Move), String> {
    expect_args(args, 2, "COLOR VERTEX")?;
    let color = parse_color(&args[0])?;
    let mv = parse_vertex(board, &args[1])?;
    Ok((color, mv))
}

fn play(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let (color, mv) = color_and_move(engine.game.board(), call.args)?;
    engine
        .game
        .play(mv, color)
        .map_err(|e| format!("illegal move: {e}"))?;
    Ok(String::new())
}

fn parse_one_color(args: &[String], usage: &str) -> Result<Color, String> {
    expect_args(args, 1, usage)?;
    parse_color(&args[0])
}

fn genmove(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let color = parse_one_color(call.args, "genmove COLOR")?;
    engine.generate(color, Mode::Normal)
}

/// `kgs-genmove_cleanup`: like genmove, but dead stones count as alive, so it captures them
/// before passing (KGS sends it when the players disagree about what is dead).
fn genmove_cleanup(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let color = parse_one_color(call.args, "kgs-genmove_cleanup COLOR")?;
    engine.generate(color, Mode::Cleanup)
}

/// `reg_genmove`: the move genmove would choose, without playing it. A regression file asks
/// which move the engine would choose, so this answers a move, never `resign`, and leaves
/// the game's resignation streak alone.
fn reg_genmove(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let color = parse_one_color(call.args, "reg_genmove COLOR")?;
    if let Some(mv) = engine.book_move(color, Mode::Normal) {
        return Ok(engine.game.board().move_name(mv));
    }
    let limits = engine.move_limits(color);
    let signals = std::sync::Arc::clone(&engine.signals);
    let mut observer = crate::search::LogObserver {
        stop: &signals.interrupt,
    };
    let (mv, _) = engine.think_for_game(color, Mode::Normal, limits, &mut observer, false);
    Ok(engine.game.board().move_name(mv))
}

fn undo(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    if engine.game.undo() {
        Ok(String::new())
    } else {
        Err("cannot undo".into())
    }
}

fn showboard(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let g = &engine.game;
    let b = g.board();
    // Side notes next to diagram lines 1, 2 and 4, as GNU Go places them; on boards too
    // small for that they follow the diagram.
    let mut notes = vec![
        (
            1,
            format!(
                "WHITE (O) has captured {} stones",
                b.prisoners(Color::White)
            ),
        ),
        (
            2,
            format!(
                "BLACK (X) has captured {} stones",
                b.prisoners(Color::Black)
            ),
        ),
        (
            4,
            format!(
                "{} to move, move {}, komi {}, rules {}",
                g.to_move(),
                g.move_number() + 1,
                g.komi(),
                g.rules().name
            ),
        ),
    ];
    let mut text = String::from("\n");
    let diagram = b.ascii();
    for (i, line) in diagram.lines().enumerate() {
        text.push_str(line);
        if let Some(k) = notes.iter().position(|(at, _)| *at == i) {
            text.push_str("     ");
            text.push_str(&notes.remove(k).1);
        }
        text.push('\n');
    }
    for (_, note) in notes {
        text.push_str(&note);
        text.push('\n');
    }
    Ok(text)
}

fn is_legal(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let (color, mv) = color_and_move(engine.game.board(), call.args)?;
    Ok(if engine.game.is_legal(mv, color) {
        "1"
    } else {
        "0"
    }
    .into())
}

fn handicap_count(engine: &Engine, args: &[String], usage: &str) -> Result<usize, String> {
    expect_args(args, 1, usage)?;
    let n = parse_uint(&args[0], "number of stones")?;
    if engine.game.board().stone_count() > 0 || engine.game.move_number() > 0 {
        return Err("board not empty".into());
    }
    Ok(n)
}

fn vertex_list(board: &Board, points: &[Point]) -> String {
    points
        .iter()
        .map(|&p| board.vertex_name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fixed_handicap(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let n = handicap_count(engine, call.args, "fixed_handicap NUMBER")?;
    let size = engine.game.size();
    let board = engine.game.board();
    let points: Vec<Point> = fixed_handicap_points(size, n)?
        .into_iter()
        .map(|(c, r)| board.point(c, r))
        .collect();
    engine.game.place_handicap(&points)?;
    Ok(vertex_list(engine.game.board(), &points))
}

fn place_free_handicap(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let n = handicap_count(engine, call.args, "place_free_handicap NUMBER")?;
    let size = engine.game.size();
    if n < 2 || n >= size * size {
        return Err(format!(
            "invalid number of stones: {n} (use 2 to {} on {size}x{size})",
            size * size - 1
        ));
    }
    let points = free_handicap_points(engine.game.board(), n);
    engine.game.place_handicap(&points)?;
    Ok(vertex_list(engine.game.board(), &points))
}

fn set_free_handicap(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    if engine.game.board().stone_count() > 0 || engine.game.move_number() > 0 {
        return Err("board not empty".into());
    }
    let size = engine.game.size();
    if call.args.len() < 2 || call.args.len() >= size * size {
        return Err(format!(
            "bad vertex list: give 2 to {} vertices",
            size * size - 1
        ));
    }
    let mut points = Vec::with_capacity(call.args.len());
    for a in call.args {
        match parse_vertex(engine.game.board(), a) {
            Ok(Move::Play(p)) if !points.contains(&p) => points.push(p),
            Ok(Move::Play(p)) => {
                let name = engine.game.board().vertex_name(p);
                return Err(format!("bad vertex list: {name} repeated"));
            }
            Ok(Move::Pass) => return Err("bad vertex list: pass is not a vertex".into()),
            Err(e) => return Err(format!("bad vertex list: {e}")),
        }
    }
    engine.game.place_handicap(&points)?;
    Ok(String::new())
}

fn cputime(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(format!("{:.3}", engine.cpu_seconds()))
}

#[cfg(test)]
mod tests {
    use crate::gtp::{Engine, EngineOptions};

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            playouts: Some(200),
            threads: 1,
            seed: Some(3),
            ..EngineOptions::default()
        })
        .unwrap()
    }

    #[test]
    fn protocol_basics() {
        let mut e = engine();
        assert_eq!(e.execute("1 protocol_version"), "=1 2\n\n");
        assert_eq!(e.execute("name"), "= shoutan\n\n");
        assert_eq!(e.execute("known_command play"), "= true\n\n");
        assert_eq!(e.execute("known_command frobnicate"), "= false\n\n");
        assert!(e.execute("list_commands").contains("\ngenmove\n"));
        assert_eq!(e.execute("frobnicate"), "? unknown command: frobnicate\n\n");
    }

    #[test]
    fn play_and_undo_and_refusals() {
        let mut e = engine();
        assert_eq!(e.execute("boardsize 9"), "= \n\n");
        assert_eq!(e.execute("play b e5"), "= \n\n");
        assert!(e.execute("play w E5").starts_with("? illegal move"));
        assert!(e.execute("play x D4").starts_with("? invalid color"));
        assert!(e.execute("play b ZZ").starts_with("? invalid vertex"));
        assert!(e.execute("play b Z9").starts_with("? vertex"));
        assert!(e.execute("play b").starts_with("? syntax error"));
        assert_eq!(e.execute("undo"), "= \n\n");
        assert_eq!(e.execute("undo"), "? cannot undo\n\n");
        assert!(e.execute("boardsize 26").starts_with("? unacceptable size"));
        assert!(e.execute("boardsize 1").starts_with("? unacceptable size"));
        assert!(e.execute("boardsize x").starts_with("? unacceptable size"));
        assert_eq!(e.game.size(), 9);
        assert!(e.execute("komi abc").starts_with("? komi"));
        assert!(e.execute("komi nan").starts_with("? komi"));
        assert_eq!(e.execute("komi 6.5"), "= \n\n");
        assert_eq!(e.game.komi(), 6.5);
    }

    #[test]
    fn handicap_commands() {
        let mut e = engine();
        assert_eq!(e.execute("fixed_handicap 2"), "= D4 Q16\n\n");
        assert_eq!(e.execute("fixed_handicap 2"), "? board not empty\n\n");
        e.execute("clear_board");
        assert!(
            e.execute("fixed_handicap 10")
                .starts_with("? invalid number of stones")
        );
        assert!(
            e.execute("fixed_handicap 1")
                .starts_with("? invalid number of stones")
        );
        assert_eq!(
            e.execute("set_free_handicap D4 D4"),
            "? bad vertex list: D4 repeated\n\n"
        );
        assert_eq!(e.game.board().stone_count(), 0);
        assert_eq!(e.execute("set_free_handicap D4 E5 F6"), "= \n\n");
        assert_eq!(e.game.handicap(), 3);
        e.execute("boardsize 9");
        let answer = e.execute("place_free_handicap 12");
        assert_eq!(answer.split_whitespace().count(), 13, "{answer}");
        assert_eq!(e.game.board().stone_count(), 12);
    }

    #[test]
    fn genmove_plays_a_legal_move() {
        let mut e = engine();
        e.execute("boardsize 5");
        let answer = e.execute("genmove b");
        assert!(answer.starts_with("= "), "{answer}");
        assert_eq!(e.game.move_number(), 1);
    }
}
