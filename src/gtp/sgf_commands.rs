//! SGF commands: `loadsgf FILE [MOVE_NUMBER]` and `printsgf [FILE]` (see [`crate::sgf`]).

use crate::sgf::{self, LoadUntil};

use super::{Call, CommandSpec, Engine};

/// The SGF commands.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "loadsgf",
        handler: loadsgf,
    },
    CommandSpec {
        name: "printsgf",
        handler: printsgf,
    },
];

/// `loadsgf FILE [MOVE_NUMBER]`: the position before move MOVE_NUMBER (or after the whole
/// main line); answers the colour to move. Rules and ko rule stay; `KM` sets komi. On any
/// failure the game is left as it was.
fn loadsgf(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let (path, until) = match call.args {
        [path] => (path, None),
        [path, until] => (path, Some(until.as_str())),
        _ => return Err("syntax error: expected loadsgf FILE [MOVE_NUMBER]".into()),
    };
    let until = LoadUntil::parse(until)?;
    let fail = |e: String| format!("cannot load '{path}': {e}");
    let text = sgf::read_file(path).map_err(&fail)?;
    let game = &engine.game;
    let loaded =
        sgf::load(&text, &until, game.rules(), game.ko_rule(), game.komi()).map_err(&fail)?;
    engine.load_game(loaded);
    Ok(engine.game.to_move().to_string())
}

/// `printsgf [FILE]`: the game as SGF, in the answer or written to FILE.
fn printsgf(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let text = sgf::write(&engine.game);
    match call.args {
        [] => Ok(text),
        [path] => {
            std::fs::write(path, text).map_err(|e| format!("cannot write '{path}': {e}"))?;
            Ok(String::new())
        }
        _ => Err("syntax error: expected printsgf [FILE]".into()),
    }
}
