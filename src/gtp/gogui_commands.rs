//! GoGui's analyze commands: the list GoGui shows in Tools → Analyze Commands, and the
//! displays it draws on the board or shows as text.
//!
//! Every "Search:" display reports one search of the position ([`Engine::display_search`]),
//! so the best move and its numbers are the same whichever display is opened; "Search:
//! search more" thinks again from the tree. GoGui draws one label per point, and labels
//! longer than three characters are clipped: the win rates (`52%`) and the principal
//! variation (numbered stones) are therefore two displays, never drawn over each other.
//! Everywhere, "visits" are the simulations through a move or the root, those kept from
//! earlier searches included; "playouts" are the simulations of the last search alone, so
//! the root's visits are the kept ones plus the playouts.

use crate::board::{Board, Color, Move};
use crate::search::{Candidate, SearchResult, format_moves};

use super::{Call, CommandSpec, Engine, expect_args};

/// GoGui's analyze commands.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "gogui-analyze_commands",
        handler: analyze_commands,
    },
    CommandSpec {
        name: "gogui-interrupt",
        handler: interrupt,
    },
    CommandSpec {
        name: "shoutan-winrates",
        handler: winrates,
    },
    CommandSpec {
        name: "shoutan-variation",
        handler: variation,
    },
    CommandSpec {
        name: "shoutan-ownership",
        handler: ownership,
    },
    CommandSpec {
        name: "shoutan-search_summary",
        handler: search_summary,
    },
    CommandSpec {
        name: "shoutan-search_more",
        handler: search_more,
    },
];

/// Most candidates labelled with their win rates.
const MAX_LABELS: usize = 10;

/// A candidate is labelled only when at least this share of the root's visits went through
/// it: the win rate of a move tried a handful of times says nothing yet.
const LABEL_MIN_VISIT_SHARE: f64 = 0.01;

/// Background of the best move's point in the win-rate display (a light blue shade, under
/// the label).
const BEST_MOVE_COLOR: &str = "#9ec9ff";

/// GoGui's list: `type/label/command`, one per line (no `/` inside a label).
fn analyze_commands(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok([
        "gfx/Search: win rates/shoutan-winrates",
        "gfx/Search: principal variation/shoutan-variation",
        "gfx/Search: ownership/shoutan-ownership",
        "string/Search: summary/shoutan-search_summary",
        "string/Search: search more/shoutan-search_more",
        "gfx/Policy: move probabilities/shoutan-policy_gfx",
    ]
    .join("\n"))
}

/// GoGui sends `# interrupt` (which stops a running search) only to engines that list this
/// command; the command itself does nothing.
fn interrupt(_: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    Ok(String::new())
}

/// A win rate as a label of at most three characters: whole percent, at most `99%`.
fn percent_label(winrate: f64) -> String {
    format!("{}%", (100.0 * winrate).round().clamp(0.0, 99.0))
}

/// The best move and its numbers, worded the same in every display: `Black, best C5: win
/// rate 52.8%, 1342 visits`.
fn best_words(board: &Board, result: &SearchResult) -> String {
    let s = &result.summary;
    match s.best() {
        Some(best) => format!(
            "{}, best {}: win rate {:.1}%, {} visits",
            capitalised(s.color),
            board.move_name(best.mv),
            100.0 * best.winrate,
            best.visits,
        ),
        None => format!("{}: nothing to search", capitalised(s.color)),
    }
}

/// The root's visits, `N visits = K kept + P playouts`; `long` says `K kept from earlier
/// searches + P playouts of this search`.
fn root_visits(result: &SearchResult, long: bool) -> String {
    let s = &result.summary;
    let kept = u64::from(s.root_visits).saturating_sub(s.playouts);
    let (from, of_this) = if long {
        (" from earlier searches", " of this search")
    } else {
        ("", "")
    };
    format!(
        "{} visits = {kept} kept{from} + {} playouts{of_this}",
        s.root_visits, s.playouts
    )
}

/// The score the search expects after its best move, from Black's view (`B+x`, `W+x`).
fn score_estimate(result: &SearchResult) -> Option<String> {
    let best = result.summary.best()?;
    let black_lead = match result.summary.color {
        Color::Black => best.score_lead,
        Color::White => -best.score_lead,
    };
    let leader = if black_lead >= 0.0 { "B" } else { "W" };
    Some(format!("{leader}+{:.1}", black_lead.abs()))
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The candidates worth a label: the most visited, each with a fair share of the visits.
fn labelled(result: &SearchResult) -> impl Iterator<Item = &Candidate> {
    let s = &result.summary;
    let min_visits = (LABEL_MIN_VISIT_SHARE * f64::from(s.root_visits)).max(1.0);
    s.candidates
        .iter()
        .filter(move |c| f64::from(c.visits) >= min_visits && c.mv != Move::Pass)
        .take(MAX_LABELS)
}

/// `gfx`: the candidates' win rates (for the side to move) as labels, the best move's point
/// coloured, and the best move in the status line.
fn winrates(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let result = engine.display_search(false);
    let board = engine.game.board();
    let mut labels = String::from("LABEL");
    for c in labelled(&result) {
        labels.push_str(&format!(
            " {} {}",
            board.move_name(c.mv),
            percent_label(c.winrate)
        ));
    }
    let mut lines = vec![labels];
    if let Some(best) = result.summary.best()
        && best.mv != Move::Pass
    {
        lines.push(format!(
            "COLOR {BEST_MOVE_COLOR} {}",
            board.move_name(best.mv)
        ));
    }
    lines.push(format!(
        "TEXT {}; root {}",
        best_words(board, &result),
        root_visits(&result, false)
    ));
    Ok(lines.join("\n"))
}

/// The principal variation as GoGui numbers it, up to the first point played twice (a
/// later stone there would hide the earlier number).
fn variation_moves(pv: &[Move]) -> &[Move] {
    let repeat = (1..pv.len()).find(|&i| pv[i] != Move::Pass && pv[..i].contains(&pv[i]));
    &pv[..repeat.unwrap_or(pv.len())]
}

/// `gfx`: the best move's principal variation as numbered stones, and the whole line in the
/// status line.
fn variation(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let result = engine.display_search(false);
    let board = engine.game.board();
    let text = format!("TEXT {}", best_words(board, &result));
    let Some(best) = result.summary.best() else {
        return Ok(text);
    };
    let mut var = String::from("VAR");
    let mut color = result.summary.color;
    for &m in variation_moves(&best.pv) {
        var.push_str(&format!(
            " {} {}",
            color.letter().to_ascii_lowercase(),
            board.move_name(m)
        ));
        color = color.opponent();
    }
    Ok(format!(
        "{var}\n{text}; line {}; root {}",
        format_moves(board, &best.pv),
        root_visits(&result, false)
    ))
}

/// `gfx`: who owns each point at the end of the search's playouts, as GoGui's influence
/// squares (+1 Black, grey; -1 White, white), and the score estimate.
fn ownership(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let result = engine.display_search(false);
    let board = engine.game.board();
    let own = &result.ownership;
    let mut influence = String::from("INFLUENCE");
    for p in board.points() {
        influence.push_str(&format!(" {} {:.2}", board.vertex_name(p), own.black(p)));
    }
    let mut text = format!(
        "TEXT ownership at the end of {} playouts (grey Black, white White)",
        own.playouts()
    );
    if let Some(score) = score_estimate(&result) {
        text.push_str(&format!("; score estimate {score}"));
    }
    Ok(format!("{influence}\n{text}"))
}

/// `string`: the search as text: the best move, where the visits came from, and the
/// candidates.
fn search_summary(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let result = engine.display_search(false);
    Ok(summary_text(engine, &result))
}

/// `string`: searches the position again, going on from the tree, and shows the summary;
/// the other displays report this search from then on.
fn search_more(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    expect_args(call.args, 0, "no arguments")?;
    let result = engine.display_search(true);
    Ok(summary_text(engine, &result))
}

fn summary_text(engine: &Engine, result: &SearchResult) -> String {
    let game = &engine.game;
    let board = game.board();
    let s = &result.summary;
    let mut text = format!(
        "{} to move, komi {}, {} rules\n{}\nroot: {} ({:.2} s, {:.0} playouts/s)\n",
        capitalised(s.color),
        game.komi(),
        game.rules().name,
        best_words(board, result),
        root_visits(result, true),
        s.elapsed.as_secs_f64(),
        s.rate()
    );
    if let Some(score) = score_estimate(result) {
        text.push_str(&format!("score estimate {score} after the best move\n"));
    }
    text.push_str(" move  win rate  visits   lead  line (lead: points ahead for the mover)\n");
    for c in s.candidates.iter().take(MAX_LABELS) {
        text.push_str(&format!(
            "{:>5}  {:>7.1}%  {:>6}  {:>+5.1}  {}\n",
            board.move_name(c.mv),
            100.0 * c.winrate,
            c.visits,
            c.score_lead,
            format_moves(board, &c.pv)
        ));
    }
    text
}
