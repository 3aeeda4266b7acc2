//! GTP commands of the life-and-death reader ([`crate::life`]): how a chain stands if the
//! opponent moves first, for players, GUIs and regression files (GNU Go's `dragon_status`
//! answers the same question for its dragons).

use crate::board::{Cell, Move, NO_POINT};
use crate::life::{ANALYSIS_BUDGET, LifeReader};

use super::{Call, CommandSpec, Engine, parse_vertex};

/// The life-and-death commands.
pub static COMMANDS: &[CommandSpec] = &[CommandSpec {
    name: "shoutan-group_status",
    handler: group_status,
}];

/// `shoutan-group_status VERTEX`: `alive` when the reader finds no kill of the chain
/// through the stone at VERTEX with the opponent to move first; `critical KILL SAVE` when
/// the opponent kills it at KILL and its owner's SAVE prevents that; `dead KILL` when the
/// reader finds no move of the owner that does (or runs out of positions proving one). KILL
/// is `PASS` when the chain is dead as it stands (shut in without room for two eyes).
fn group_status(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let [vertex] = call.args else {
        return Err("syntax error: expected VERTEX".into());
    };
    let board = engine.game.board();
    let Move::Play(stone) = parse_vertex(board, vertex)? else {
        return Err("expected a vertex, not pass".into());
    };
    if board.cell(stone) == Cell::Empty {
        return Err(format!("no stone at {}", board.vertex_name(stone)));
    }
    let Some(kill) = LifeReader::new(ANALYSIS_BUDGET).killing_move(board, stone) else {
        return Ok("alive".into());
    };
    let kill = if kill == NO_POINT {
        Move::Pass
    } else {
        Move::Play(kill)
    };
    Ok(
        match LifeReader::new(ANALYSIS_BUDGET).saving_move(board, stone) {
            Some(save) => format!(
                "critical {} {}",
                board.move_name(kill),
                board.vertex_name(save)
            ),
            None => format!("dead {}", board.move_name(kill)),
        },
    )
}
