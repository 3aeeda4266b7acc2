//! GTP commands that show the learned move-prediction model ([`crate::policy`]): the
//! probability of every legal move as text, and as a GoGui heat map.

use crate::board::{Color, Move};
use crate::policy;

use super::{Call, CommandSpec, Engine, parse_color};

/// The policy commands.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "shoutan-policy",
        handler: policy_list,
    },
    CommandSpec {
        name: "shoutan-policy_gfx",
        handler: policy_gfx,
    },
];

/// The colour argument: one colour, or none for the side to move.
fn color_arg(engine: &Engine, args: &[String]) -> Result<Color, String> {
    match args {
        [] => Ok(engine.game.to_move()),
        [c] => parse_color(c),
        _ => Err("syntax error: expected [COLOR]".into()),
    }
}

/// The probabilities of `color`'s legal moves, highest first.
pub(super) fn move_probabilities(engine: &Engine, color: Color) -> Vec<(Move, f32)> {
    policy::game_probabilities(policy::active(), &engine.game, color)
}

/// `shoutan-policy [COLOR]`: one line per legal move, `VERTEX PROBABILITY`, highest first;
/// probabilities below 0.0001 in exponent form (`3.142e-7`), so that none reads as 0.
fn policy_list(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let color = color_arg(engine, call.args)?;
    let board = engine.game.board();
    let lines: Vec<String> = move_probabilities(engine, color)
        .iter()
        .map(|&(mv, p)| {
            if p >= 1e-4 {
                format!("{} {p:.6}", board.move_name(mv))
            } else {
                format!("{} {p:.3e}", board.move_name(mv))
            }
        })
        .collect();
    Ok(lines.join("\n"))
}

/// A board label for a probability: whole percents with the sign (`92%`), `<1%` below one
/// half percent, so that GoGui never shows a bare `0` on a candidate point.
fn percent_label(p: f32) -> String {
    let percent = 100.0 * p;
    if percent < 0.5 {
        "<1%".to_string()
    } else {
        format!("{percent:.0}%")
    }
}

/// `shoutan-policy_gfx [COLOR]`: GoGui `gfx`, a heat map of the probabilities (`INFLUENCE`,
/// the square root of each probability over the highest, so that the weaker candidates
/// still show), the first ten as percentage labels, and the best ones in the status line.
fn policy_gfx(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    let color = color_arg(engine, call.args)?;
    let moves = move_probabilities(engine, color);
    let board = engine.game.board();
    let best = moves.first().map_or(1.0, |m| m.1).max(f32::MIN_POSITIVE);
    let mut influence = String::from("INFLUENCE");
    let mut labels = String::from("LABEL");
    let mut shown = 0;
    for &(mv, p) in &moves {
        if let Move::Play(q) = mv {
            let name = board.vertex_name(q);
            influence.push_str(&format!(" {name} {:.3}", (p / best).sqrt()));
            if shown < 10 {
                labels.push_str(&format!(" {name} {}", percent_label(p)));
                shown += 1;
            }
        }
    }
    let top: Vec<String> = moves
        .iter()
        .take(5)
        .map(|&(mv, p)| format!("{} {:.1}%", board.move_name(mv), 100.0 * p))
        .collect();
    Ok(format!(
        "{influence}\n{labels}\nTEXT {color} policy: {}",
        top.join(", ")
    ))
}
