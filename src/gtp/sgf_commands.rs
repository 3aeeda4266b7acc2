//! SGF commands: `loadsgf`, `printsgf`.

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

fn loadsgf(_: &mut Engine, _: &mut Call<'_>) -> Result<String, String> {
    Err("loadsgf is not available yet".into())
}

fn printsgf(_: &mut Engine, _: &mut Call<'_>) -> Result<String, String> {
    Err("printsgf is not available yet".into())
}
