//! Analysis commands for GUIs: Leela Zero's and KataGo's `lz-analyze` / `kata-analyze`
//! (Sabaki, Lizzie) and their `*-genmove_analyze` variants. GoGui's analyze commands are in
//! `gogui_commands`.
//!
//! `lz-analyze` and `kata-analyze` answer `=` on a line of its own, then search without limit,
//! writing one line of `info move ... pv ...` segments (one per candidate, most visited first)
//! every interval, until the GUI sends anything else: then the answer ends with an empty line
//! and the next command is served. Win rates are from the side to move: 0..10000 for
//! `lz-analyze`, 0..1 for `kata-analyze` (which also reports the score lead and, when asked,
//! ownership).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::board::{Board, Color, Move};
use crate::search::{Candidate, Limits, Mode, Observer, Summary};

use super::{Call, CommandSpec, Engine, Signals, parse_color};

/// The analysis commands.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "lz-analyze",
        handler: lz_analyze,
    },
    CommandSpec {
        name: "kata-analyze",
        handler: kata_analyze,
    },
    CommandSpec {
        name: "lz-genmove_analyze",
        handler: lz_genmove_analyze,
    },
    CommandSpec {
        name: "kata-genmove_analyze",
        handler: kata_genmove_analyze,
    },
];

/// Which dialect the `info` lines speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    /// Leela Zero: integer win rates and priors in 1/10000.
    Lz,
    /// KataGo: floats, score lead, optional ownership.
    Kata,
}

/// Arguments of an analysis command.
#[derive(Clone, Debug, PartialEq)]
struct AnalyzeArgs {
    color: Option<Color>,
    interval: Duration,
    max_moves: Option<usize>,
    min_moves: usize,
    ownership: bool,
}

/// Parses `[COLOR] [INTERVAL] [KEY VALUE]...` (interval in centiseconds).
fn parse_analyze_args(args: &[String]) -> Result<AnalyzeArgs, String> {
    let mut a = AnalyzeArgs {
        color: None,
        interval: Duration::from_secs(1),
        max_moves: None,
        min_moves: 0,
        ownership: false,
    };
    let centis = |text: &str| -> Result<Duration, String> {
        let n: u64 = text
            .parse()
            .map_err(|_| format!("interval must be a number of centiseconds, got '{text}'"))?;
        Ok(Duration::from_millis(n.saturating_mul(10).max(10)))
    };
    let count = |text: Option<&String>, what: &str| -> Result<usize, String> {
        text.and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("{what} needs a non-negative integer"))
    };
    let boolean = |text: Option<&String>, what: &str| -> Result<bool, String> {
        match text.map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(format!("{what} needs true or false")),
        }
    };
    let mut i = 0;
    while i < args.len() {
        let word = args[i].as_str();
        if i == 0
            && let Ok(c) = parse_color(word)
        {
            a.color = Some(c);
            i += 1;
            continue;
        }
        if word.bytes().all(|b| b.is_ascii_digit()) {
            a.interval = centis(word)?;
            i += 1;
            continue;
        }
        match word.to_ascii_lowercase().as_str() {
            "interval" => {
                a.interval = centis(args.get(i + 1).map_or("", |s| s.as_str()))?;
                i += 2;
            }
            "maxmoves" => {
                a.max_moves = Some(count(args.get(i + 1), "maxmoves")?);
                i += 2;
            }
            "minmoves" => {
                a.min_moves = count(args.get(i + 1), "minmoves")?;
                i += 2;
            }
            "ownership" => {
                a.ownership = boolean(args.get(i + 1), "ownership")?;
                i += 2;
            }
            // Accepted and ignored: options shoutan has nothing to answer with.
            "ownershipstdev" | "pvvisits" | "pvedgevisits" | "movesownership" | "rootinfo" => {
                boolean(args.get(i + 1), word)?;
                i += 2;
            }
            // `avoid|allow COLOR VERTICES UNTIL_DEPTH`: not supported, skipped.
            "avoid" | "allow" => {
                if args.len() < i + 4 {
                    return Err(format!("{word} needs COLOR VERTICES DEPTH"));
                }
                i += 4;
            }
            _ => return Err(format!("unknown analysis argument '{word}'")),
        }
    }
    Ok(a)
}

/// A candidate is reported to analysis GUIs once the search has explored it: at least this
/// many visits...
const EXPLORED_MIN_VISITS: u32 = 2;
/// ...and at least this share of the most visited move's visits. RAVE and the priors give
/// most legal moves a visit or two; listing them all buries the moves worth looking at
/// (KataGo's lines show the moves its search actually explored).
const EXPLORED_MIN_SHARE: f64 = 0.01;

/// How many of `summary`'s candidates (most visited first) the search has explored (see
/// [`EXPLORED_MIN_SHARE`]); the best move always counts.
fn explored(summary: &Summary) -> usize {
    let Some(best) = summary.best() else {
        return 0;
    };
    let floor = (EXPLORED_MIN_SHARE * best.visits as f64).max(EXPLORED_MIN_VISITS as f64);
    summary
        .candidates
        .iter()
        .skip(1)
        .take_while(|c| c.visits as f64 >= floor)
        .count()
        + 1
}

/// Formats one report: an `info` segment per candidate the search explored (at least
/// `min_moves`, at most `max_moves`), on one line.
fn info_line(
    board: &Board,
    summary: &Summary,
    ownership: Option<&[f32]>,
    dialect: Dialect,
    max_moves: Option<usize>,
    min_moves: usize,
    priors: &[(Move, f32)],
) -> String {
    let mut line = String::new();
    let shown = explored(summary).max(min_moves.min(summary.candidates.len()));
    let shown = max_moves.map_or(shown, |m| shown.min(m.max(1)));
    for (order, c) in summary.candidates.iter().take(shown).enumerate() {
        if !line.is_empty() {
            line.push(' ');
        }
        let prior = priors.iter().find(|p| p.0 == c.mv).map_or(0.0, |p| p.1);
        line.push_str(&info_segment(board, c, order, dialect, prior));
    }
    if let Some(own) = ownership {
        line.push_str(" ownership");
        for v in own {
            line.push_str(&format!(" {v:.3}"));
        }
    }
    line
}

/// One candidate as `info move ... pv ...`, with the policy's `prior` probability.
fn info_segment(
    board: &Board,
    c: &Candidate,
    order: usize,
    dialect: Dialect,
    prior: f32,
) -> String {
    let pv = crate::search::format_moves(board, &c.pv);
    let mv = board.move_name(c.mv);
    match dialect {
        Dialect::Lz => format!(
            "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
            c.visits,
            (c.winrate * 10000.0).round() as i64,
            (prior * 10000.0).round() as i64,
            (c.lcb * 10000.0).round() as i64,
        ),
        Dialect::Kata => format!(
            "info move {mv} visits {} winrate {:.6} scoreMean {:.3} scoreLead {:.3} prior {:.6} lcb {:.6} order {order} pv {pv}",
            c.visits, c.winrate, c.score_lead, c.score_lead, prior, c.lcb,
        ),
    }
}

/// Ownership from the point of view of `color`, row by row from the top left, as KataGo
/// reports it.
fn ownership_for(board: &Board, own: &[f32], color: Color) -> Vec<f32> {
    let size = board.size();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut v = Vec::with_capacity(size * size);
    for row in (0..size).rev() {
        for col in 0..size {
            v.push(sign * own[board.point(col, row) as usize]);
        }
    }
    v
}

/// Writes `info` lines while a search runs; stops it when the GUI sends something else
/// (analysis) or interrupts (genmove).
struct InfoWriter<'a> {
    out: &'a mut dyn Write,
    board: Board,
    dialect: Dialect,
    args: AnalyzeArgs,
    /// Whose point of view the ownership takes.
    color: Color,
    signals: Arc<Signals>,
    /// Analysis stops on any new command; a genmove only on an interrupt.
    stop_on_pending: bool,
    /// Writing failed: the GUI went away.
    broken: bool,
    /// The learned policy's probabilities, shown as each move's prior.
    priors: Vec<(Move, f32)>,
}

impl Observer for InfoWriter<'_> {
    fn interval(&self) -> Option<Duration> {
        Some(self.args.interval)
    }

    fn report(&mut self, summary: &Summary) {
        if self.broken || summary.candidates.is_empty() {
            return;
        }
        let own = summary
            .ownership
            .as_ref()
            .map(|o| ownership_for(&self.board, o, self.color));
        let line = info_line(
            &self.board,
            summary,
            own.as_deref(),
            self.dialect,
            self.args.max_moves,
            self.args.min_moves,
            &self.priors,
        );
        if writeln!(self.out, "{line}")
            .and_then(|_| self.out.flush())
            .is_err()
        {
            self.broken = true;
        }
    }

    fn wants_ownership(&self) -> bool {
        self.args.ownership
    }

    fn should_stop(&self) -> bool {
        self.broken
            || if self.stop_on_pending {
                self.signals.analysis_should_stop()
            } else {
                self.signals.interrupt.load(Ordering::Relaxed)
            }
    }
}

fn lz_analyze(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    analyze(engine, call, Dialect::Lz)
}

fn kata_analyze(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    analyze(engine, call, Dialect::Kata)
}

/// Streams analysis until the next command arrives.
fn analyze(engine: &mut Engine, call: &mut Call<'_>, dialect: Dialect) -> Result<String, String> {
    let args = parse_analyze_args(call.args)?;
    let color = args.color.unwrap_or(engine.game.to_move());
    let id = call.id.unwrap_or("");
    let header = format!("={id}\n");
    call.out
        .write_all(header.as_bytes())
        .and_then(|_| call.out.flush())
        .map_err(|e| e.to_string())?;
    call.streamed = true;
    let board = engine.game.board().clone();
    let ownership = args.ownership;
    let mut writer = InfoWriter {
        out: &mut *call.out,
        board,
        dialect,
        args,
        color,
        signals: Arc::clone(&engine.signals),
        stop_on_pending: true,
        broken: false,
        priors: super::policy_commands::move_probabilities(engine, color),
    };
    let result = engine.searcher.search(
        &engine.game,
        color,
        Limits::default(),
        Mode::Normal,
        &mut writer,
    );
    // A last report with everything found, then the empty line that ends the answer.
    let own =
        ownership.then(|| ownership_for(&writer.board, result.ownership.black_shares(), color));
    let line = if result.summary.candidates.is_empty() {
        String::new()
    } else {
        info_line(
            &writer.board,
            &result.summary,
            own.as_deref(),
            dialect,
            writer.args.max_moves,
            writer.args.min_moves,
            &writer.priors,
        ) + "\n"
    };
    let _ = writeln!(call.out, "{line}");
    let _ = call.out.flush();
    Ok(String::new())
}

fn lz_genmove_analyze(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    genmove_analyze(engine, call, Dialect::Lz)
}

fn kata_genmove_analyze(engine: &mut Engine, call: &mut Call<'_>) -> Result<String, String> {
    genmove_analyze(engine, call, Dialect::Kata)
}

/// A genmove that streams `info` lines while it thinks, then answers `play VERTEX`.
fn genmove_analyze(
    engine: &mut Engine,
    call: &mut Call<'_>,
    dialect: Dialect,
) -> Result<String, String> {
    let args = parse_analyze_args(call.args)?;
    let color = args
        .color
        .ok_or("syntax error: expected COLOR [INTERVAL]")?;
    let id = call.id.unwrap_or("");
    call.out
        .write_all(format!("={id}\n").as_bytes())
        .and_then(|_| call.out.flush())
        .map_err(|e| e.to_string())?;
    call.streamed = true;
    let t0 = engine.begin_clock();
    let limits = engine.move_limits(color);
    let mut writer = InfoWriter {
        out: &mut *call.out,
        board: engine.game.board().clone(),
        dialect,
        args,
        color,
        signals: Arc::clone(&engine.signals),
        stop_on_pending: false,
        broken: false,
        priors: super::policy_commands::move_probabilities(engine, color),
    };
    let (mv, result) = engine.think_for_game(color, Mode::Normal, limits, &mut writer, true);
    let decision = engine.decide_for_game(color, Mode::Normal, mv, &result);
    let answer = engine.finish_move(color, decision, t0)?;
    let _ = write!(call.out, "play {answer}\n\n");
    let _ = call.out.flush();
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn analyze_arguments() {
        let a = parse_analyze_args(&strings(&["B", "50"])).unwrap();
        assert_eq!(a.color, Some(Color::Black));
        assert_eq!(a.interval, Duration::from_millis(500));
        let a = parse_analyze_args(&strings(&["interval", "20", "maxmoves", "3"])).unwrap();
        assert_eq!(a.color, None);
        assert_eq!(a.interval, Duration::from_millis(200));
        assert_eq!(a.max_moves, Some(3));
        let a = parse_analyze_args(&strings(&["w", "10", "ownership", "true"])).unwrap();
        assert!(a.ownership);
        assert_eq!(a.color, Some(Color::White));
        assert!(parse_analyze_args(&strings(&["frobnicate"])).is_err());
        assert!(parse_analyze_args(&strings(&["b", "x1"])).is_err());
        assert!(parse_analyze_args(&strings(&["ownership", "maybe"])).is_err());
        assert!(parse_analyze_args(&strings(&["b", "avoid", "b"])).is_err());
    }

    #[test]
    fn info_segments_in_both_dialects() {
        let board = Board::new(9);
        let c = Candidate {
            mv: board.parse_move("E5").unwrap(),
            visits: 120,
            winrate: 0.5423,
            lcb: 0.51,
            prior: 0.0812,
            score_lead: 2.5,
            pv: vec![
                board.parse_move("E5").unwrap(),
                board.parse_move("D3").unwrap(),
            ],
        };
        assert_eq!(
            info_segment(&board, &c, 0, Dialect::Lz, 0.0812),
            "info move E5 visits 120 winrate 5423 prior 812 lcb 5100 order 0 pv E5 D3"
        );
        let kata = info_segment(&board, &c, 1, Dialect::Kata, 0.0812);
        assert!(
            kata.starts_with("info move E5 visits 120 winrate 0.542300 "),
            "{kata}"
        );
        assert!(kata.contains(" scoreLead 2.500 "));
        assert!(kata.ends_with(" order 1 pv E5 D3"));
    }

    #[test]
    fn info_lines_list_the_moves_the_search_explored() {
        let board = Board::new(9);
        let candidate = |v: &str, visits: u32| Candidate {
            mv: board.parse_move(v).unwrap(),
            visits,
            winrate: 0.5,
            lcb: 0.4,
            prior: 0.01,
            score_lead: 0.0,
            pv: vec![board.parse_move(v).unwrap()],
        };
        let summary = Summary {
            color: Color::Black,
            playouts: 6000,
            elapsed: Duration::from_secs(1),
            candidates: vec![
                candidate("E5", 5000),
                candidate("C3", 700),
                candidate("G7", 50),
                candidate("D4", 49),
                candidate("A1", 1),
                candidate("J9", 1),
            ],
            root_visits: 5801,
            nodes: (100, 1000),
            reclaims: 0,
            ownership: None,
        };
        let moves = |line: String| -> Vec<String> {
            line.split("info move ")
                .skip(1)
                .map(|seg| seg.split(' ').next().unwrap_or("").to_string())
                .collect()
        };
        // 1% of E5's 5000 visits is 50: D4 (49) and the one-visit moves are left out.
        let line = info_line(&board, &summary, None, Dialect::Lz, None, 0, &[]);
        assert_eq!(moves(line), ["E5", "C3", "G7"]);
        // maxmoves still caps the list, minmoves still fills it.
        let line = info_line(&board, &summary, None, Dialect::Kata, Some(2), 0, &[]);
        assert_eq!(moves(line), ["E5", "C3"]);
        let line = info_line(&board, &summary, None, Dialect::Lz, None, 5, &[]);
        assert_eq!(moves(line), ["E5", "C3", "G7", "D4", "A1"]);
        // Early in a search every move has a visit or two: the best one is always listed.
        let mut young = summary.clone();
        young.candidates = vec![candidate("E5", 1), candidate("C3", 1)];
        let line = info_line(&board, &young, None, Dialect::Lz, None, 0, &[]);
        assert_eq!(moves(line), ["E5"]);
    }
}
