//! Scoring and rules commands: `final_score`, `final_status_list`, `shoutan-count`,
//! `kgs-rules`, `shoutan-rules`, and GoGui's rules-referee commands `gogui-rules_*`.
//!
//! `final_score`, `final_status_list` and `shoutan-count` share one seeded decision
//! ([`crate::score::final_count`]), so they always agree with each other, and with the
//! count the search checks before passing.

use crate::board::{Cell, Color, Move};
use crate::game::Game;
use crate::referee::chains_with;
use crate::rules::Rules;
use crate::score::{StoneStatus, final_count};

use super::{Call, CommandSpec, Engine, expect_args};

/// The scoring and rules commands, in `list_commands` order.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "final_score",
        handler: final_score,
    },
    CommandSpec {
        name: "final_status_list",
        handler: final_status_list,
    },
    CommandSpec {
        name: "shoutan-count",
        handler: shoutan_count,
    },
    CommandSpec {
        name: "kgs-rules",
        handler: kgs_rules,
    },
    CommandSpec {
        name: "shoutan-rules",
        handler: shoutan_rules,
    },
    CommandSpec {
        name: "gogui-rules_game_id",
        handler: rules_game_id,
    },
    CommandSpec {
        name: "gogui-rules_board_size",
        handler: rules_board_size,
    },
    CommandSpec {
        name: "gogui-rules_board",
        handler: rules_board,
    },
    CommandSpec {
        name: "gogui-rules_legal_moves",
        handler: rules_legal_moves,
    },
    CommandSpec {
        name: "gogui-rules_side_to_move",
        handler: rules_side_to_move,
    },
    CommandSpec {
        name: "gogui-rules_final_result",
        handler: rules_final_result,
    },
    CommandSpec {
        name: "gogui-rules_captured_count",
        handler: rules_captured_count,
    },
];

fn final_score(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(final_count(&engine.game).1.result())
}

fn final_status_list(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 1, "final_status_list alive|dead|seki")?;
    let wanted = StoneStatus::parse(&call.args[0])?;
    let (status, _) = final_count(&engine.game);
    // One line per chain, as GNU Go answers.
    let lines: Vec<String> = chains_with(engine.game.board(), &status, wanted)
        .iter()
        .map(|chain| chain.join(" "))
        .collect();
    Ok(lines.join("\n"))
}

fn shoutan_count(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(final_count(&engine.game).1.report())
}

/// Whether the game has begun beyond the ruleset's own setup: a move, handicap or other
/// setup stones.
fn game_started(game: &Game) -> bool {
    let own_setup = game.rules().setup_stones(game.size()).len();
    game.move_number() > 0 || game.handicap() > 0 || game.setup_stones().len() != own_setup
}

/// Switches to `rules` unless a game is under way; keeps the command-line komi and ko
/// overrides.
fn switch_rules(engine: &mut Engine, rules: Rules) -> Result<(), String> {
    if *engine.game.rules() == rules {
        return Ok(());
    }
    if game_started(&engine.game) {
        return Err(format!(
            "cannot change rules from {} to {} during a game (clear_board first)",
            engine.game.rules().name,
            rules.name
        ));
    }
    engine.game.set_rules(rules.clone())?;
    if let Some(k) = engine.options.komi {
        engine.game.set_komi(k);
    }
    if let Some(ko) = engine.options.ko {
        engine.game.set_ko_rule(ko);
    }
    engine.options.rules = rules;
    Ok(())
}

fn kgs_rules(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 1, "kgs-rules NAME")?;
    let rules = Rules::from_kgs(&call.args[0])?;
    switch_rules(engine, rules)?;
    Ok(String::new())
}

fn shoutan_rules(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    match call.args.len() {
        0 => {}
        1 => {
            let rules = Rules::preset(&call.args[0])?;
            switch_rules(engine, rules)?;
        }
        _ => return Err("syntax error: expected shoutan-rules [NAME]".into()),
    }
    let game = &engine.game;
    let mut text = game.rules().describe();
    if game.komi() != game.rules().komi || game.ko_rule() != game.rules().ko {
        text.push_str(&format!(
            " (this game: komi {}, ko {})",
            game.komi(),
            game.ko_rule().name()
        ));
    }
    Ok(text)
}

fn rules_game_id(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok("Go".into())
}

/// The board's size, once something chose it. GoGui asks a player this before it sends
/// `boardsize`, and replaces the user's board by a new empty one when the answer differs
/// from it; an error answer leaves the user's board alone. So an engine that has not been
/// told a size says so rather than answer its default. A referee is never sent `boardsize`,
/// and a player attached beside one is asked before it is: they must be started with
/// `--size N`, which the message (shown by GoGui in a dialog) says.
fn rules_board_size(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    engine.chosen_size().map(|n| n.to_string()).ok_or_else(|| {
        "no board size chosen yet (no --size, boardsize or loadsgf): as GoGui's rules \
         referee, or as a player beside one, start shoutan with --size N for an NxN board"
            .to_string()
    })
}

fn rules_board(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let board = engine.game.board();
    let size = board.size();
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|row| {
            (0..size)
                .map(|col| match board.cell(board.point(col, row)) {
                    Cell::Black => "X",
                    Cell::White => "O",
                    _ => ".",
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    // GoGui reads the board from the lines of the answer; the first starts after "= ".
    Ok(rows.join("\n"))
}

fn rules_legal_moves(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let game = &engine.game;
    if game.is_over() {
        return Ok(String::new());
    }
    let board = game.board();
    let color = game.to_move();
    // GoGui accepts a pass only when "pass" is listed, at the end.
    let mut moves: Vec<String> = board
        .points()
        .filter(|&p| game.is_legal(Move::Play(p), color))
        .map(|p| board.vertex_name(p))
        .collect();
    moves.push("pass".into());
    Ok(moves.join(" "))
}

fn rules_side_to_move(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(engine.game.to_move().to_string())
}

fn rules_final_result(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    if !engine.game.is_over() {
        return Ok("unknown".into());
    }
    Ok(final_count(&engine.game).1.result())
}

/// White stones captured, then black stones captured: GoGui reads the first number as
/// White's captured stones and the second as Black's.
fn rules_captured_count(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let board = engine.game.board();
    Ok(format!(
        "{} {}",
        board.prisoners(Color::Black),
        board.prisoners(Color::White)
    ))
}

#[cfg(test)]
mod tests {
    use crate::gtp::{Engine, EngineOptions};

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            playouts: Some(100),
            threads: 1,
            seed: Some(1),
            ..EngineOptions::default()
        })
        .unwrap()
    }

    #[test]
    fn rules_commands_switch_and_refuse_mid_game() {
        let mut e = engine();
        assert!(
            e.execute("shoutan-rules")
                .starts_with("= chinese: area counting")
        );
        assert_eq!(e.execute("kgs-rules japanese"), "= \n\n");
        assert_eq!(e.game.komi(), 6.5);
        assert!(
            e.execute("kgs-rules aga")
                .starts_with("? aga rules are not supported")
        );
        assert!(e.execute("kgs-rules").starts_with("? syntax error"));
        e.execute("play b D4");
        assert!(
            e.execute("kgs-rules chinese")
                .starts_with("? cannot change rules")
        );
        // Asking for the rules in force is no change.
        assert_eq!(e.execute("kgs-rules japanese"), "= \n\n");
        assert_eq!(e.game.rules().name, "japanese");
        e.execute("clear_board");
        assert!(
            e.execute("shoutan-rules ancient")
                .starts_with("= ancient: area counting with group tax")
        );
        assert_eq!(e.game.board().stone_count(), 4);
        assert_eq!(e.execute("gogui-rules_side_to_move"), "= white\n\n");
        assert!(
            e.execute("shoutan-rules martian")
                .starts_with("? unknown rules")
        );
    }

    #[test]
    fn gogui_rules_commands() {
        let mut e = engine();
        e.execute("boardsize 3");
        assert_eq!(e.execute("gogui-rules_game_id"), "= Go\n\n");
        assert_eq!(e.execute("gogui-rules_board_size"), "= 3\n\n");
        e.execute("play b B2");
        assert_eq!(e.execute("gogui-rules_board"), "= . . .\n. X .\n. . .\n\n");
        assert_eq!(e.execute("gogui-rules_side_to_move"), "= white\n\n");
        assert_eq!(
            e.execute("gogui-rules_legal_moves"),
            "= A1 B1 C1 A2 C2 A3 B3 C3 pass\n\n"
        );
        assert_eq!(e.execute("gogui-rules_final_result"), "= unknown\n\n");
        e.execute("play w A1");
        e.execute("play b B1");
        e.execute("play w A2");
        e.execute("play b A3");
        // Black captured the two white stones A1 and A2.
        assert_eq!(e.execute("gogui-rules_captured_count"), "= 2 0\n\n");
        e.execute("play w pass");
        e.execute("play b pass");
        assert_eq!(e.execute("gogui-rules_legal_moves"), "= \n\n");
        // Black owns the whole 3x3 board: 9 - 7.5.
        assert_eq!(e.execute("gogui-rules_final_result"), "= B+1.5\n\n");
        assert_eq!(e.execute("final_score"), "= B+1.5\n\n");
    }
}
