//! The Go Text Protocol server: line reading and preprocessing, command parsing, answers, and
//! the command table.
//!
//! stdin is read on its own thread, so a long search can be stopped by what arrives next:
//! GoGui's `# interrupt` line raises [`Signals::interrupt`], and every queued command is
//! counted in [`Signals::pending`] so that analysis commands stop as soon as the GUI sends
//! anything else. Commands are still answered strictly in order.
//!
//! Every failure is an `?` answer: bad input never panics and never changes state.

mod analyze_commands;
mod core_commands;
mod engine;
mod gogui_commands;
mod life_commands;
mod policy_commands;
mod score_commands;
mod sgf_commands;
mod time_commands;

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

pub use engine::{Engine, EngineOptions, search_config};

use crate::board::{Board, Color, Move};

/// Longest command line accepted; longer lines are answered with an error and skipped.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Flags the input thread raises for a running search.
#[derive(Debug, Default)]
pub struct Signals {
    /// GoGui sent `# interrupt`: stop the current search and answer now.
    pub interrupt: AtomicBool,
    /// Commands read but not yet executed.
    pub pending: AtomicUsize,
    /// The input has ended: no command will come to stop a search that waits for one.
    pub input_closed: AtomicBool,
    /// Commands read but not yet answered. An interrupt is raised only while one is, and
    /// lowered when the last is answered, so it stops the search it was meant for (even one
    /// not yet started when it arrived) and never a later one.
    in_flight: Mutex<usize>,
}

impl Signals {
    /// The input thread read a command line.
    fn command_read(&self) {
        *self.in_flight.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.pending.fetch_add(1, Ordering::Relaxed);
    }

    /// The input thread read GoGui's `# interrupt`.
    fn interrupt_read(&self) {
        let in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        if *in_flight > 0 {
            self.interrupt.store(true, Ordering::Relaxed);
        }
    }

    /// The engine took a command line off the queue.
    fn command_taken(&self) {
        self.pending.fetch_sub(1, Ordering::Relaxed);
    }

    /// The engine answered a command line (or skipped it).
    fn command_done(&self) {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        *in_flight = in_flight.saturating_sub(1);
        if *in_flight == 0 {
            self.interrupt.store(false, Ordering::Relaxed);
        }
    }

    /// Whether a search that runs until the GUI says something else (analysis, pondering)
    /// should stop: an interrupt, any newer command, or the end of the input.
    pub fn analysis_should_stop(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
            || self.pending.load(Ordering::Relaxed) > 0
            || self.input_closed.load(Ordering::Relaxed)
    }
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, as sent (any number of digits), echoed in the answer.
    pub id: Option<String>,
    /// Command name.
    pub name: String,
    /// Arguments, split on spaces.
    pub args: Vec<String>,
}

/// What a handler gets: its arguments and the output, for commands that stream their answer.
pub struct Call<'a> {
    /// The command's id, if any.
    pub id: Option<&'a str>,
    /// Arguments after the command name.
    pub args: &'a [String],
    /// The protocol output, for streaming answers.
    pub out: &'a mut dyn Write,
    /// Set by a handler that wrote its whole answer itself (header, lines, empty line).
    pub streamed: bool,
}

/// A command handler: the answer text on success, the error message on failure.
pub type Handler = fn(&mut Engine, &mut Call<'_>) -> Result<String, String>;

/// One entry of the command table.
pub struct CommandSpec {
    /// The GTP name.
    pub name: &'static str,
    /// What runs it.
    pub handler: Handler,
}

/// Every command shoutan knows, in `list_commands` order.
pub fn command_table() -> impl Iterator<Item = &'static CommandSpec> {
    core_commands::COMMANDS
        .iter()
        .chain(time_commands::COMMANDS.iter())
        .chain(sgf_commands::COMMANDS.iter())
        .chain(score_commands::COMMANDS.iter())
        .chain(analyze_commands::COMMANDS.iter())
        .chain(policy_commands::COMMANDS.iter())
        .chain(life_commands::COMMANDS.iter())
        .chain(gogui_commands::COMMANDS.iter())
}

/// Looks up a command by name.
pub fn find_command(name: &str) -> Option<&'static CommandSpec> {
    command_table().find(|c| c.name == name)
}

/// Why a line could not be turned into a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The id, when one could still be read.
    pub id: Option<String>,
    /// What was wrong.
    pub message: String,
}

/// Applies the GTP preprocessing rules to a raw line (without its newline) and parses it.
/// `Ok(None)` means the line is empty after preprocessing and gets no answer.
pub fn parse_line(raw: &[u8]) -> Result<Option<Command>, LineError> {
    // Drop control characters except HT; turn HT into a space; cut at '#'.
    let mut bytes = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            _ => bytes.push(b),
        }
    }
    let leading_id = || {
        let digits: String = bytes
            .iter()
            .skip_while(|b| **b == b' ')
            .take_while(|b| b.is_ascii_digit())
            .map(|&b| b as char)
            .collect();
        (!digits.is_empty()).then_some(digits)
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(_) => {
            return Err(LineError {
                id: leading_id(),
                message: "invalid UTF-8 in command".into(),
            });
        }
    };
    let mut words = text.split(' ').filter(|w| !w.is_empty());
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        match words.next() {
            Some(name) => (Some(first.to_string()), name),
            None => {
                return Err(LineError {
                    id: Some(first.to_string()),
                    message: "missing command name".into(),
                });
            }
        }
    } else {
        (None, first)
    };
    Ok(Some(Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    }))
}

/// Formats an answer: `=id text` or `?id message`, ended by an empty line. Empty lines inside
/// the text are dropped, since they would end the answer early.
pub fn format_answer(id: Option<&str>, result: &Result<String, String>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t),
        Err(e) => ('?', e),
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push(mark);
    out.push_str(id.unwrap_or(""));
    out.push(' ');
    // The first line may be empty (a diagram starting on its own line, as GNU Go does).
    let mut lines = text.trim_end_matches(['\n', '\r']).split('\n');
    out.push_str(lines.next().unwrap_or(""));
    for line in lines.filter(|l| !l.trim().is_empty()) {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// One line as the input thread delivers it.
enum Input {
    Line(Vec<u8>),
    /// A line over the length limit: its first bytes, and whether the whole line is blank
    /// after preprocessing (a long comment gets no answer, like any comment).
    TooLong {
        prefix: Vec<u8>,
        blank: bool,
    },
    Eof,
}

/// Tracks, byte by byte, whether a line has anything left after GTP preprocessing.
#[derive(Default)]
struct BlankTracker {
    in_comment: bool,
    has_text: bool,
}

impl BlankTracker {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.in_comment {
                return;
            }
            match b {
                b'#' => self.in_comment = true,
                b' ' | b'\t' | 0..=31 | 127 => {}
                _ => self.has_text = true,
            }
        }
    }
}

/// Reads one line of at most `max` bytes (newline excluded). Longer lines are consumed to
/// their end and returned as `TooLong` with their first `max` bytes.
fn read_bounded_line<R: BufRead>(reader: &mut R, max: usize) -> io::Result<Input> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut tracker = BlankTracker::default();
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if line.is_empty() && !too_long {
                return Ok(Input::Eof);
            }
            break;
        }
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i)),
            None => (buf, None),
        };
        let room = max.saturating_sub(line.len());
        if chunk.len() > room {
            too_long = true;
        }
        tracker.feed(chunk);
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = found.map_or(buf.len(), |i| i + 1);
        reader.consume(used);
        if found.is_some() {
            break;
        }
    }
    Ok(if too_long {
        Input::TooLong {
            prefix: line,
            blank: !tracker.has_text,
        }
    } else {
        Input::Line(line)
    })
}

/// Whether a raw line is GoGui's interrupt request.
fn is_interrupt_line(line: &[u8]) -> bool {
    let trimmed: Vec<u8> = line
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    trimmed == b"#interrupt"
}

impl Engine {
    /// Executes one raw input line and writes its answer to `out`. Returns false once the
    /// engine should stop (after `quit`).
    pub fn execute_line(&mut self, raw: &[u8], out: &mut dyn Write) -> io::Result<bool> {
        let cmd = match parse_line(raw) {
            Ok(Some(cmd)) => cmd,
            Ok(None) => return Ok(true),
            Err(e) => {
                out.write_all(format_answer(e.id.as_deref(), &Err(e.message)).as_bytes())?;
                out.flush()?;
                return Ok(true);
            }
        };
        let result = match find_command(&cmd.name) {
            None => Err(format!("unknown command: {}", cmd.name)),
            Some(spec) => {
                let mut call = Call {
                    id: cmd.id.as_deref(),
                    args: &cmd.args,
                    out,
                    streamed: false,
                };
                let result = (spec.handler)(self, &mut call);
                if call.streamed {
                    out.flush()?;
                    return Ok(!self.quit_requested());
                }
                result
            }
        };
        out.write_all(format_answer(cmd.id.as_deref(), &result).as_bytes())?;
        out.flush()?;
        Ok(!self.quit_requested())
    }

    /// Executes a command line given as text and returns the whole answer; for tests and tools.
    pub fn execute(&mut self, line: &str) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.execute_line(line.as_bytes(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Serves GTP: reads commands from `input` on a separate thread and answers on `output` until
/// `quit` or end of input. A closed output ends the loop quietly.
pub fn serve<R, W>(input: R, mut output: W, engine: &mut Engine) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel::<Input>();
    let signals = Arc::clone(&engine.signals);
    std::thread::Builder::new()
        .name("gtp-input".into())
        .spawn(move || {
            let mut reader = BufReader::new(input);
            loop {
                let item = match read_bounded_line(&mut reader, MAX_LINE_BYTES) {
                    Ok(Input::Line(l)) if is_interrupt_line(&l) => {
                        signals.interrupt_read();
                        continue;
                    }
                    Ok(item) => item,
                    Err(_) => Input::Eof,
                };
                let eof = matches!(item, Input::Eof);
                if eof {
                    signals.input_closed.store(true, Ordering::Relaxed);
                } else {
                    signals.command_read();
                }
                if tx.send(item).is_err() || eof {
                    break;
                }
            }
        })?;
    for item in rx {
        let line = match item {
            Input::Eof => break,
            Input::Line(l) => l,
            Input::TooLong { blank: true, .. } => {
                engine.signals.command_taken();
                engine.signals.command_done();
                continue;
            }
            Input::TooLong { prefix, .. } => {
                engine.signals.command_taken();
                engine.signals.command_done();
                let id = parse_line(&prefix).ok().flatten().and_then(|c| c.id);
                let answer = format_answer(
                    id.as_deref(),
                    &Err(format!("line too long (limit {MAX_LINE_BYTES} bytes)")),
                );
                if output
                    .write_all(answer.as_bytes())
                    .and_then(|_| output.flush())
                    .is_err()
                {
                    return Ok(());
                }
                continue;
            }
        };
        engine.signals.command_taken();
        let served = engine.execute_line(&line, &mut output);
        engine.signals.command_done();
        match served {
            Ok(true) => engine.ponder(),
            Ok(false) => break,
            // The GUI went away: nothing more to say.
            Err(_) => return Ok(()),
        }
    }
    Ok(())
}

/// Parses a GTP colour: `b`, `black`, `w`, `white` in any case.
pub fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color '{text}'")),
    }
}

/// Parses a GTP vertex (or `pass`) on `board`.
pub fn parse_vertex(board: &Board, text: &str) -> Result<Move, String> {
    board.parse_move(text)
}

/// Parses a non-negative integer argument.
pub fn parse_uint(text: &str, what: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .map_err(|_| format!("{what} must be a non-negative integer, got '{text}'"))
}

/// Parses a finite float argument.
pub fn parse_float(text: &str, what: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(format!("{what} must be a number, got '{text}'")),
    }
}

/// Checks that exactly `n` arguments were given.
pub fn expect_args(args: &[String], n: usize, usage: &str) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(format!("syntax error: expected {usage}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_follows_the_spec() {
        let c = parse_line(b"  12\tplay  b\x01 D4 # comment")
            .unwrap()
            .unwrap();
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "D4"]);
        assert_eq!(parse_line(b"   # only a comment"), Ok(None));
        assert_eq!(parse_line(b"\t \r"), Ok(None));
        let big = parse_line(b"123456789012345678901234567890 name")
            .unwrap()
            .unwrap();
        assert_eq!(big.id.as_deref(), Some("123456789012345678901234567890"));
        let err = parse_line(b"7 na\xffme").unwrap_err();
        assert_eq!(err.id.as_deref(), Some("7"));
        assert!(parse_line(b"42").is_err());
    }

    #[test]
    fn answers_end_with_an_empty_line() {
        assert_eq!(format_answer(Some("3"), &Ok("2".into())), "=3 2\n\n");
        assert_eq!(format_answer(None, &Ok(String::new())), "= \n\n");
        assert_eq!(format_answer(None, &Err("bad".into())), "? bad\n\n");
        assert_eq!(format_answer(None, &Ok("a\n\nb\n".into())), "= a\nb\n\n");
        assert_eq!(format_answer(None, &Ok("\nboard".into())), "= \nboard\n\n");
    }

    #[test]
    fn bounded_reader_skips_overlong_lines() {
        let data = format!("{}\nname\n", "x".repeat(100));
        let mut r = io::Cursor::new(data.into_bytes());
        assert!(matches!(
            read_bounded_line(&mut r, 10),
            Ok(Input::TooLong { prefix, blank: false }) if prefix.len() == 10
        ));
        assert!(matches!(read_bounded_line(&mut r, 10), Ok(Input::Line(l)) if l == b"name"));
        assert!(matches!(read_bounded_line(&mut r, 10), Ok(Input::Eof)));
        // Long comments and long blank lines are blank, however long; text after a long
        // blank prefix is not.
        let data = format!(
            "# {}\n{}\n{}x\n",
            "x".repeat(50),
            " ".repeat(50),
            "\t".repeat(50)
        );
        let mut r = io::Cursor::new(data.into_bytes());
        for blank in [true, true, false] {
            assert!(matches!(
                read_bounded_line(&mut r, 10),
                Ok(Input::TooLong { blank: b, .. }) if b == blank
            ));
        }
        let mut r = io::Cursor::new(b"no newline".to_vec());
        assert!(matches!(read_bounded_line(&mut r, 100), Ok(Input::Line(l)) if l == b"no newline"));
    }

    #[test]
    fn interrupt_lines() {
        assert!(is_interrupt_line(b"# interrupt"));
        assert!(is_interrupt_line(b"#interrupt\r"));
        assert!(!is_interrupt_line(b"# interrupted"));
    }
}
