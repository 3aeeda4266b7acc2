//! Reviewing a game record (`shoutan review`): every position of the main line searched,
//! each move judged by how much it changed its player's chances, and the record written back
//! with what a player reviewing the game wants to see in Sabaki.
//!
//! - Every main-line node gets Black's win rate in percent (`SBKV`, Sabaki's win-rate graph)
//!   and Black's expected lead in points (`SBKS`), for the position before the next move.
//! - Every move gets a comment: its player's win rate before and after, what it lost, and the
//!   move shoutan prefers with its principal variation.
//! - A move that lost more than the blunder threshold (and was not shoutan's choice) is marked
//!   bad (`BM`), with shoutan's principal variation as a sibling variation; each side's best
//!   move, the one shoutan agreed with by the widest margin over the next best move, is
//!   marked good (`TE`).
//! - The root gets a summary: the biggest mistakes of each side and the best moves.
//!
//! Positions are loaded exactly as `loadsgf FILE N` loads them ([`crate::sgf::load`]), under
//! the rules the file names ([`crate::sgf::rules_for`]), and searched one after the other by
//! one [`Searcher`], so each search starts from the subtree of the move actually played.

pub mod annotate;
pub mod plot;

use std::time::Duration;

use crate::board::{Board, Color, Move};
use crate::search::{Candidate, Limits, LogObserver, Mode, Searcher, format_moves};
use crate::sgf::{self, GameFile, LoadUntil};

use annotate::{Layout, NodeNotes};

/// Most moves of shoutan's line written as a variation.
const VARIATION_MOVES: usize = 12;

/// Mistakes listed per side in the summary.
const SUMMARY_MISTAKES: usize = 3;

/// Visits an alternative to the preferred move needs for its win rate to be compared.
pub const RUNNER_UP_VISITS: u32 = 20;

/// How thoroughly to review, and what counts as a mistake.
#[derive(Clone, Debug)]
pub struct ReviewOptions {
    /// Playouts per position (with `time`, whichever ends first); with neither,
    /// [`default_playouts`].
    pub playouts: Option<u64>,
    /// Thinking time per position.
    pub time: Option<Duration>,
    /// A move whose player's win rate drops by more than this (0..1) is a blunder.
    pub blunder: f64,
}

/// Playouts per position when the user gives neither playouts nor time: the same thinking
/// time per position on every board (a playout's length grows with the board's area), so a
/// review takes about a minute on 9x9 and a few minutes on 19x19 with 2 threads.
pub fn default_playouts(size: usize) -> u64 {
    (1_600_000 / (size * size).max(1)) as u64
}

/// What the search thinks of one position.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// Who is to move.
    pub to_move: Color,
    /// Black's chance of winning, 0..1 (over all the search's simulations).
    pub black_winrate: f64,
    /// Black's expected lead in points, komi included (over all the search's simulations).
    pub black_lead: f64,
    /// The move shoutan prefers (most visited), statistics from `to_move`'s side.
    pub best: Option<Candidate>,
    /// The best win rate (from `to_move`'s side) of the other moves searched enough to
    /// compare (see [`RUNNER_UP_VISITS`]).
    pub runner_up: Option<f64>,
}

impl Evaluation {
    /// `color`'s chance of winning, 0..1.
    pub fn winrate_for(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black_winrate,
            Color::White => 1.0 - self.black_winrate,
        }
    }
}

/// One move of the main line, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Move number, from 1 (passes count, setup does not).
    pub number: usize,
    /// Who played it.
    pub color: Color,
    /// What was played.
    pub mv: Move,
    /// Its player's win rate before minus after (0..1; negative when it gained).
    pub loss: f64,
    /// Lost more than the threshold, and shoutan preferred another move.
    pub blunder: bool,
    /// When shoutan preferred this move too: how much better it was than the best other
    /// move (win rate, 0..1).
    pub margin: Option<f64>,
    /// Its player's best move of the game: the one shoutan agreed with by the largest
    /// margin, the move that mattered most.
    pub best: bool,
}

/// A whole game reviewed.
#[derive(Clone, Debug)]
pub struct Review {
    /// Board size.
    pub size: usize,
    /// The position before each move (index = moves played), and the final one.
    pub positions: Vec<Evaluation>,
    /// Every move whose position before and after are both known (a setup node right after
    /// a move hides it), in order.
    pub moves: Vec<MoveReview>,
    /// How the positions were searched, for the summary.
    pub settings: String,
}

impl Review {
    /// The evaluation before `m` was played and after.
    pub fn around(&self, m: &MoveReview) -> (&Evaluation, &Evaluation) {
        (&self.positions[m.number - 1], &self.positions[m.number])
    }
}

/// Searches every position of `file`'s main line (which holds `moves` moves) with
/// `searcher`, calling `progress` with the number of positions done, and judges the moves.
pub fn analyse(
    file: &GameFile,
    moves: usize,
    searcher: &mut Searcher,
    options: &ReviewOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<Review, String> {
    let rules = file.game.rules().clone();
    let limits = Limits {
        playouts: options.playouts.or_else(|| {
            options
                .time
                .is_none()
                .then(|| default_playouts(file.game.size()))
        }),
        time: options.time,
        max_time: options.time,
        early_stop: false,
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut observer = LogObserver { stop: &never };
    let mut positions: Vec<Evaluation> = Vec::with_capacity(moves + 1);
    let mut arrivals: Vec<Option<(Color, Move)>> = vec![None];
    let mut previous_length = None;
    for k in 0..=moves {
        let game = if k == moves {
            file.game.clone()
        } else {
            sgf::load(
                &file.text,
                &LoadUntil::BeforeMove(k + 1),
                &rules,
                file.game.ko_rule(),
                file.game.komi(),
            )?
        };
        if k > 0 {
            let arrived = (previous_length.map(|n: usize| n + 1) == Some(game.move_number()))
                .then(|| game.history().last().map(|r| (r.color, r.mv)))
                .flatten();
            arrivals.push(arrived);
        }
        previous_length = Some(game.move_number());
        let color = game.to_move();
        let result = searcher.search(&game, color, limits, Mode::Normal, &mut observer);
        let candidates = &result.summary.candidates;
        let evaluation = match candidates.first() {
            Some(best) => Evaluation {
                to_move: color,
                black_winrate: {
                    let mean = root_winrate(candidates);
                    if color == Color::Black {
                        mean
                    } else {
                        1.0 - mean
                    }
                },
                black_lead: result.score,
                best: Some(best.clone()),
                runner_up: candidates[1..]
                    .iter()
                    .filter(|c| c.visits >= RUNNER_UP_VISITS)
                    .map(|c| c.winrate)
                    .max_by(f64::total_cmp),
            },
            // Nothing searched (a pass is the only move): the position is as before.
            None => match positions.last() {
                Some(last) => Evaluation {
                    to_move: color,
                    best: None,
                    runner_up: None,
                    ..last.clone()
                },
                None => Evaluation {
                    to_move: color,
                    black_winrate: 0.5,
                    black_lead: 0.0,
                    best: None,
                    runner_up: None,
                },
            },
        };
        positions.push(evaluation);
        progress(k + 1);
    }
    let mut moves_reviewed = judge(&positions, &arrivals, options.blunder);
    mark_best(&mut moves_reviewed);
    let budget = match (limits.playouts, options.time) {
        (Some(p), Some(t)) => format!("{p} playouts or {:.1} s", t.as_secs_f64()),
        (Some(p), None) => format!("{p} playouts"),
        (None, Some(t)) => format!("{:.1} s", t.as_secs_f64()),
        (None, None) => "unlimited".into(),
    };
    let config = searcher.config();
    let settings = format!(
        "{budget} a position, {} playouts, {} thread{}; {} rules, komi {}",
        config.policy.name(),
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        rules.name,
        file.game.komi()
    );
    Ok(Review {
        size: file.game.size(),
        positions,
        moves: moves_reviewed,
        settings,
    })
}

/// The win rate of a position for the side to move: the mean over all the simulations of
/// the search (the candidates' results weighted by their visits), as KataGo's `rootInfo`
/// reports it. The most visited move's own win rate would flatter the side to move (the
/// opponent's replies below it are still being explored), so a graph of it zigzags by a
/// few percent from move to move and every move would seem to lose that much.
fn root_winrate(candidates: &[Candidate]) -> f64 {
    let visits: f64 = candidates.iter().map(|c| f64::from(c.visits)).sum();
    let wins: f64 = candidates
        .iter()
        .map(|c| f64::from(c.visits) * c.winrate)
        .sum();
    if visits > 0.0 { wins / visits } else { 0.5 }
}

/// Judges each move whose positions before and after are known: `arrivals[k]` is the move
/// that led to position `k`.
fn judge(
    positions: &[Evaluation],
    arrivals: &[Option<(Color, Move)>],
    blunder: f64,
) -> Vec<MoveReview> {
    arrivals
        .iter()
        .enumerate()
        .filter_map(|(number, arrival)| {
            let (color, mv) = (*arrival)?;
            let (before, after) = (&positions[number - 1], &positions[number]);
            let loss = before.winrate_for(color) - after.winrate_for(color);
            let preferred = before.best.as_ref().filter(|_| before.to_move == color);
            let margin = preferred
                .filter(|b| b.mv == mv)
                .and_then(|b| Some(b.winrate - before.runner_up?));
            Some(MoveReview {
                number,
                color,
                mv,
                loss,
                blunder: loss > blunder && preferred.is_some_and(|b| b.mv != mv),
                margin,
                best: false,
            })
        })
        .collect()
}

/// Marks each side's best move: of the moves (not passes) shoutan preferred too, the one
/// with the largest margin over the next best move, if any was better at all.
fn mark_best(moves: &mut [MoveReview]) {
    for color in Color::BOTH {
        let best = moves
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let margin = m.margin.filter(|&x| x > 0.0)?;
                (m.color == color && m.mv != Move::Pass).then_some((i, margin))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i);
        if let Some(i) = best {
            moves[i].best = true;
        }
    }
}

fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A lead in points as a result: `B+2.5`, `W+0.5`.
fn lead_text(black_lead: f64) -> String {
    let side = if black_lead >= 0.0 { 'B' } else { 'W' };
    format!("{side}+{:.1}", black_lead.abs())
}

/// The comment on a move.
fn move_comment(board: &Board, review: &Review, m: &MoveReview) -> String {
    let (before, after) = review.around(m);
    let change = if m.loss >= 0.0 {
        format!("lost {}", percent(m.loss))
    } else {
        format!("gained {}", percent(-m.loss))
    };
    let mut text = format!(
        "Move {} ({} {}) {change}: {}'s win rate {} -> {}. Score {} -> {}.",
        m.number,
        title(m.color),
        board.move_name(m.mv),
        title(m.color),
        percent(before.winrate_for(m.color)),
        percent(after.winrate_for(m.color)),
        lead_text(before.black_lead),
        lead_text(after.black_lead),
    );
    if let Some(best) = &before.best {
        if best.mv == m.mv {
            text.push_str(" shoutan agrees.");
        } else {
            text.push_str(&format!(
                "\nshoutan prefers {} ({} for {}, {} visits): {}",
                board.move_name(best.mv),
                percent(best.winrate),
                title(m.color),
                best.visits,
                format_moves(board, &best.pv[..best.pv.len().min(VARIATION_MOVES)])
            ));
        }
    }
    if m.blunder {
        text.push_str(&format!("\nMistake: {} lost.", percent(m.loss)));
    } else if let (true, Some(margin)) = (m.best, m.margin) {
        text.push_str(&format!(
            "\n{}'s best move of the game: {} better than any other move shoutan looked at.",
            title(m.color),
            percent(margin)
        ));
    }
    text
}

/// shoutan's line instead of `m`, as an SGF node sequence.
fn variation(board: &Board, review: &Review, m: &MoveReview) -> Option<String> {
    let before = review.around(m).0;
    let best = before.best.as_ref()?;
    let mut text = String::new();
    let mut color = m.color;
    for (i, &mv) in best.pv.iter().take(VARIATION_MOVES).enumerate() {
        text.push_str(&format!(
            ";{}[{}]",
            color.letter(),
            sgf::move_value(board, mv)
        ));
        if i == 0 {
            text.push_str(&format!(
                "C[{}]",
                annotate::escape(&format!(
                    "shoutan's line instead of {}: {}'s win rate {} ({} visits).",
                    board.move_name(m.mv),
                    title(m.color),
                    percent(best.winrate),
                    best.visits
                ))
            ));
        }
        color = color.opponent();
    }
    (!text.is_empty()).then_some(text)
}

/// The summary written at the root (and printed): settings, each side's biggest mistakes
/// and best move.
pub fn summary(review: &Review, blunder: f64) -> String {
    let board = Board::new(review.size);
    let name = |m: &MoveReview| format!("move {} {}", m.number, board.move_name(m.mv));
    let mut text = format!(
        "Reviewed by shoutan {}: {} moves, {}.\n\
         SBKV is Black's win rate in percent, SBKS Black's lead in points. BM marks a move \
         that lost more than {} of its player's win rate where shoutan preferred another (its \
         line is a variation); TE marks each side's best move, shoutan's choice by the widest \
         margin over the next best.",
        env!("CARGO_PKG_VERSION"),
        review.positions.len() - 1,
        review.settings,
        percent(blunder),
    );
    if let (Some(first), Some(last)) = (review.positions.first(), review.positions.last()) {
        text.push_str(&format!(
            "\nBlack's win rate: {} at the start, {} at the end (score {}).",
            percent(first.black_winrate),
            percent(last.black_winrate),
            lead_text(last.black_lead)
        ));
    }
    for color in Color::BOTH {
        // Losses that show as at least 0.1%.
        let mut mistakes: Vec<&MoveReview> = review
            .moves
            .iter()
            .filter(|m| m.color == color && m.loss >= 0.0005)
            .collect();
        mistakes.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        let listed: Vec<String> = mistakes
            .iter()
            .take(SUMMARY_MISTAKES)
            .map(|m| format!("{} (-{})", name(m), percent(m.loss)))
            .collect();
        let blunders = review
            .moves
            .iter()
            .filter(|m| m.color == color && m.blunder)
            .count();
        let best = review
            .moves
            .iter()
            .find(|m| m.color == color && m.best)
            .map_or("none".to_string(), |m| {
                format!(
                    "{} ({} better than the next move)",
                    name(m),
                    percent(m.margin.unwrap_or(0.0))
                )
            });
        text.push_str(&format!(
            "\n{}: {} mistake{} over {}; biggest losses: {}; best move: {best}.",
            title(color),
            blunders,
            if blunders == 1 { "" } else { "s" },
            percent(blunder),
            if listed.is_empty() {
                "none".to_string()
            } else {
                listed.join(", ")
            },
        ));
    }
    text
}

/// The notes for every main-line node of `layout` (see [`annotate::annotate`]).
pub fn notes(layout: &Layout, review: &Review, blunder: f64) -> Vec<NodeNotes> {
    let board = Board::new(review.size);
    let played_so_far = layout.moves_so_far();
    played_so_far
        .iter()
        .enumerate()
        .map(|(index, &played)| {
            let position = &review.positions[played.min(review.positions.len() - 1)];
            let mut note = NodeNotes {
                props: vec![
                    (
                        "SBKV".into(),
                        format!("{:.2}", 100.0 * position.black_winrate),
                    ),
                    ("SBKS".into(), format!("{:.1}", position.black_lead)),
                ],
                ..NodeNotes::default()
            };
            if index == 0 {
                note.comment = Some(summary(review, blunder));
            }
            // The node of move `played`, if it is judged (moves are in order).
            let judged = (index > 0 && played_so_far[index - 1] < played)
                .then(|| {
                    let i = review.moves.binary_search_by_key(&played, |m| m.number);
                    i.ok().map(|i| &review.moves[i])
                })
                .flatten();
            if let Some(m) = judged {
                note.comment = Some(move_comment(&board, review, m));
                if m.blunder {
                    note.props.push(("BM".into(), "1".into()));
                    note.variation = variation(&board, review, m);
                } else if m.best {
                    note.props.push(("TE".into(), "1".into()));
                }
            }
            note
        })
        .collect()
}

/// What `shoutan review` is asked to do.
#[derive(Clone, Debug)]
pub struct ReviewJob {
    /// The game file; it is only read.
    pub input: String,
    /// Where to write the reviewed game: `-` for standard output; by default the input's
    /// name with `-review.sgf` for its extension.
    pub output: Option<String>,
    /// Where to draw the win-rate graph (SVG), if anywhere.
    pub plot: Option<String>,
    /// Rules overriding the file's `RU`.
    pub rules: Option<crate::rules::Rules>,
    /// How thoroughly to review.
    pub options: ReviewOptions,
}

/// Why a review was not written.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewError {
    /// The game file cannot be read or is not a valid game.
    Input(String),
    /// The review or the picture cannot be written.
    Output(String),
}

/// Reviews `job.input` with `searcher`, showing progress on stderr, and writes the reviewed
/// game (and the graph). Returns the summary, for the user.
pub fn run(job: &ReviewJob, searcher: &mut Searcher) -> Result<String, ReviewError> {
    let output = job
        .output
        .clone()
        .unwrap_or_else(|| default_output(&job.input));
    for target in std::iter::once(&output).chain(&job.plot) {
        if same_file(target, &job.input) {
            return Err(ReviewError::Output(format!(
                "'{target}' is the game being reviewed: it is never overwritten"
            )));
        }
    }
    let file = sgf::load_file(&job.input, job.rules.clone()).map_err(ReviewError::Input)?;
    if let Some(note) = &file.note {
        log::warn!("{}: {note}", job.input);
    }
    let layout = Layout::scan(&file.bytes)
        .map_err(|e| ReviewError::Input(format!("cannot load '{}': {e}", job.input)))?;
    let moves = layout.moves_so_far().last().copied().unwrap_or(0);
    let bar = indicatif::ProgressBar::new(moves as u64 + 1);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "reviewing [{bar:30}] position {pos}/{len}, {elapsed} elapsed, {eta} left",
        )
        .map_err(|e| ReviewError::Output(e.to_string()))?
        .progress_chars("=> "),
    );
    let review = analyse(&file, moves, searcher, &job.options, &mut |done| {
        bar.set_position(done as u64)
    })
    .map_err(|e| ReviewError::Input(format!("cannot load '{}': {e}", job.input)))?;
    bar.finish_and_clear();
    let blunder = job.options.blunder;
    let reviewed = annotate::annotate(&file.bytes, &layout, &notes(&layout, &review, blunder));
    let write = |path: &str, bytes: &[u8]| {
        if path == "-" {
            use std::io::Write;
            std::io::stdout()
                .write_all(bytes)
                .map_err(|e| ReviewError::Output(format!("cannot write the review: {e}")))
        } else {
            std::fs::write(path, bytes)
                .map_err(|e| ReviewError::Output(format!("cannot write '{path}': {e}")))
        }
    };
    write(&output, &reviewed)?;
    if let Some(path) = &job.plot {
        let name = std::path::Path::new(&job.input)
            .file_name()
            .map_or(job.input.clone(), |n| n.to_string_lossy().into_owned());
        let picture = plot::svg(&review, &format!("{name}: Black's win rate (shoutan)"))
            .map_err(ReviewError::Output)?;
        write(path, picture.as_bytes())?;
    }
    let mut text = summary(&review, blunder);
    if output != "-" {
        text.push_str(&format!("\nWritten to {output}."));
    }
    Ok(text)
}

/// `game.sgf` -> `game-review.sgf` (beside the input).
fn default_output(input: &str) -> String {
    let stem = input
        .strip_suffix(".sgf")
        .or_else(|| input.strip_suffix(".SGF"))
        .unwrap_or(input);
    format!("{stem}-review.sgf")
}

/// Whether two paths name one existing file.
fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(board: &Board, vertex: &str, winrate: f64) -> Candidate {
        let mv = board.parse_move(vertex).unwrap();
        Candidate {
            mv,
            visits: 1000,
            winrate,
            lcb: winrate,
            prior: 0.1,
            score_lead: 0.0,
            pv: vec![mv],
        }
    }

    /// A position where `to_move` prefers `best` at `winrate` (its own view), the next best
    /// move reaching `runner_up`.
    fn position(to_move: Color, best: &str, winrate: f64, runner_up: f64) -> Evaluation {
        let board = Board::new(9);
        Evaluation {
            to_move,
            black_winrate: if to_move == Color::Black {
                winrate
            } else {
                1.0 - winrate
            },
            black_lead: 0.0,
            best: Some(candidate(&board, best, winrate)),
            runner_up: Some(runner_up),
        }
    }

    fn play(vertex: &str, color: Color) -> Option<(Color, Move)> {
        Some((color, Board::new(9).parse_move(vertex).unwrap()))
    }

    #[test]
    fn losses_blunders_and_best_moves() {
        use Color::{Black, White};
        let positions = [
            position(Black, "E5", 0.50, 0.45),
            // Black played E5 as preferred (5 points better than the next move).
            position(White, "C3", 0.52, 0.30),
            // White played C3 as preferred, by 22 points (and gained 3): White's best move.
            position(Black, "G7", 0.45, 0.40),
            // Black played A1 instead of G7: 40 points lost, a blunder.
            position(White, "G7", 0.95, 0.94),
            // White played J9 instead of G7 and lost 15 points: a blunder too.
            position(Black, "G7", 0.20, 0.10),
            // Black played G7 as preferred, but its win rate still fell 15 points: not a
            // blunder, since shoutan agreed.
            position(White, "D4", 0.95, 0.5),
        ];
        let arrivals = [
            None,
            play("E5", Black),
            play("C3", White),
            play("A1", Black),
            play("J9", White),
            play("G7", Black),
        ];
        let mut moves = judge(&positions, &arrivals, 0.10);
        mark_best(&mut moves);
        let losses: Vec<i64> = moves
            .iter()
            .map(|m| (100.0 * m.loss).round() as i64)
            .collect();
        assert_eq!(losses, [2, -3, 40, 15, 15]);
        let blunders: Vec<bool> = moves.iter().map(|m| m.blunder).collect();
        assert_eq!(blunders, [false, false, true, true, false]);
        let best: Vec<usize> = moves.iter().filter(|m| m.best).map(|m| m.number).collect();
        // Black's G7 (move 5) agreed by 10 points beats E5's 5; White's C3 by 22.
        assert_eq!(best, [2, 5]);

        let review = Review {
            size: 9,
            positions: positions.to_vec(),
            moves,
            settings: "test".into(),
        };
        let text = summary(&review, 0.10);
        assert!(
            text.contains("Black: 1 mistake over 10.0%; biggest losses: move 3 A1 (-40.0%), move 5 G7 (-15.0%), move 1 E5 (-2.0%); best move: move 5 G7 (10.0% better than the next move)."),
            "{text}"
        );
        assert!(text.contains("White: 1 mistake over"), "{text}");
        let board = Board::new(9);
        let comment = move_comment(&board, &review, &review.moves[2]);
        assert!(
            comment.starts_with("Move 3 (Black A1) lost 40.0%: Black's win rate 45.0% -> 5.0%."),
            "{comment}"
        );
        assert!(comment.contains("shoutan prefers G7"), "{comment}");
        assert_eq!(
            variation(&board, &review, &review.moves[2]).unwrap(),
            ";B[gc]C[shoutan's line instead of A1: Black's win rate 45.0% (1000 visits).]"
        );
    }

    #[test]
    fn default_output_sits_beside_the_input() {
        assert_eq!(default_output("games/a.sgf"), "games/a-review.sgf");
        assert_eq!(default_output("B.SGF"), "B-review.sgf");
        assert_eq!(default_output("c"), "c-review.sgf");
        assert_eq!(default_playouts(9), 19_753);
        assert_eq!(default_playouts(19), 4_432);
    }
}
