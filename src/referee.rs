//! Counting a game record as a referee: the judgement of [`crate::score::final_count`] (the
//! one `final_score`, `final_status_list` and `shoutan-count` give), shown as chains, as a
//! report or as JSON, for the command line's `shoutan score`.

use std::fmt::Write;

use crate::board::{Board, Color};
use crate::score::{Count, StoneStatus, final_count};

/// The chains whose stones have status `wanted`, each as its vertices (`A1`...), in board
/// order: `final_status_list`'s answer, one chain a line.
pub fn chains_with(board: &Board, status: &[StoneStatus], wanted: StoneStatus) -> Vec<Vec<String>> {
    let mut done = vec![false; board.array_len()];
    let mut chains = Vec::new();
    for p in board.points() {
        if board.cell(p).color().is_none()
            || status[p as usize] != wanted
            || done[board.chain_id(p) as usize]
        {
            continue;
        }
        done[board.chain_id(p) as usize] = true;
        chains.push(
            board
                .chain_stones(p)
                .map(|s| board.vertex_name(s))
                .collect(),
        );
    }
    chains
}

/// The count as one JSON object for scripts: every figure of [`Count::report`], the result,
/// and the dead stones and seki stones by vertex.
pub fn to_json(board: &Board, status: &[StoneStatus], c: &Count) -> String {
    let pair = |v: [u32; 2]| format!("{{\"black\":{},\"white\":{}}}", v[0], v[1]);
    let stones_of = |wanted: StoneStatus| {
        let names: Vec<String> = chains_with(board, status, wanted)
            .concat()
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect();
        format!("[{}]", names.join(","))
    };
    let scoring = match c.scoring {
        crate::rules::Scoring::Area => "area",
        crate::rules::Scoring::Territory => "territory",
        crate::rules::Scoring::TaxedArea => "taxed-area",
    };
    let mut out = String::from("{");
    let _ = write!(
        out,
        "\"rules\":\"{}\",\"scoring\":\"{scoring}\",\"points\":{},\"stones\":{},\"territory\":{},\
         \"seki_eyes\":{},\"shared\":{},\"dead\":{},\"prisoners\":{},\"groups\":{},\"tax\":{},\
         \"komi\":{},\"handicap\":{},\"handicap_compensation\":{},",
        c.rules_name,
        c.points,
        pair(c.stones),
        pair(c.territory),
        pair(c.seki_eyes),
        c.shared,
        pair(c.dead),
        pair(c.prisoners),
        pair(c.groups),
        pair([c.tax(Color::Black), c.tax(Color::White)]),
        c.komi,
        c.handicap,
        c.handicap_compensation,
    );
    if c.is_area() {
        let _ = write!(
            out,
            "\"par\":{},\"black_stones\":{},\"black_needs\":{},",
            c.par(),
            c.black_stones(),
            c.black_needs()
        );
    }
    let winner = match c.winner() {
        Some(Color::Black) => "\"black\"",
        Some(Color::White) => "\"white\"",
        None => "null",
    };
    let _ = write!(
        out,
        "\"score\":{},\"winner\":{winner},\"result\":\"{}\",\"dead_stones\":{},\"seki_stones\":{}}}",
        c.score(),
        c.result(),
        stones_of(StoneStatus::Dead),
        stones_of(StoneStatus::Seki),
    );
    out
}

/// `shoutan score`: counts the final position of the game file at `path` under `rules`
/// (else the file's `RU`, else Chinese), as `final_score` would after `loadsgf`. Returns
/// the `shoutan-count` breakdown followed by the dead stones, or the JSON object; notes for
/// the user go to the log.
pub fn score_file(
    path: &str,
    rules: Option<crate::rules::Rules>,
    json: bool,
) -> Result<String, String> {
    let file = crate::sgf::load_file(path, rules)?;
    if let Some(note) = &file.note {
        log::warn!("{path}: {note}");
    }
    let game = &file.game;
    if game.trailing_passes() < 2 {
        log::warn!(
            "{path}: the game did not end with two passes; counting the position as it stands"
        );
    }
    let (status, c) = final_count(game);
    let board = game.board();
    if json {
        return Ok(to_json(board, &status, &c));
    }
    let dead = chains_with(board, &status, StoneStatus::Dead).concat();
    Ok(format!(
        "{}\ndead stones: {}",
        c.report(),
        if dead.is_empty() {
            "none".to_string()
        } else {
            dead.join(" ")
        }
    ))
}
