//! Helpers shared by the integration tests: a GTP client over pipes and finding GNU Go.
#![allow(dead_code)]

use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// One GTP answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `=` (success) rather than `?` (failure).
    pub ok: bool,
    /// The id echoed after `=`/`?`, if any.
    pub id: Option<String>,
    /// The text after the id and one space, lines joined by `\n`, without the final empty line.
    pub text: String,
}

/// A GTP engine running as a child process.
pub struct GtpProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl GtpProcess {
    /// Starts `program args` in `cwd` (the current directory when `None`), stderr discarded.
    pub fn spawn(program: &Path, args: &[&str], cwd: Option<&Path>) -> io::Result<GtpProcess> {
        GtpProcess::spawn_with_stderr(program, args, cwd, Stdio::null())
    }

    /// Like [`GtpProcess::spawn`], with stderr (the engine's log) going to `stderr`.
    pub fn spawn_with_stderr(
        program: &Path,
        args: &[&str],
        cwd: Option<&Path>,
        stderr: Stdio,
    ) -> io::Result<GtpProcess> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(dir) = cwd {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(GtpProcess {
            child,
            stdin,
            stdout,
        })
    }

    /// Sends raw bytes (one or more lines) without reading anything.
    pub fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("stdin closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Sends one command and reads its answer.
    pub fn send(&mut self, command: &str) -> io::Result<Answer> {
        self.write_raw(format!("{command}\n").as_bytes())?;
        self.read_answer()
    }

    /// Sends many commands in one write and reads their answers, in order. Keep batches
    /// small enough (a few thousand short commands) that neither pipe fills up.
    pub fn batch(&mut self, commands: &[String]) -> io::Result<Vec<Answer>> {
        let mut text = String::new();
        for c in commands {
            text.push_str(c);
            text.push('\n');
        }
        self.write_raw(text.as_bytes())?;
        commands.iter().map(|_| self.read_answer()).collect()
    }

    /// Reads one answer: a line starting with `=` or `?`, more lines, then an empty line.
    pub fn read_answer(&mut self) -> io::Result<Answer> {
        let mut first = String::new();
        loop {
            first.clear();
            if self.stdout.read_line(&mut first)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "engine closed its output",
                ));
            }
            if first.starts_with('=') || first.starts_with('?') {
                break;
            }
        }
        let line = first.trim_end_matches(['\n', '\r']);
        let ok = line.starts_with('=');
        let rest = &line[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let id = (digits > 0).then(|| rest[..digits].to_string());
        let rest = &rest[digits..];
        let mut lines = vec![rest.strip_prefix(' ').unwrap_or(rest).to_string()];
        loop {
            let mut next = String::new();
            if self.stdout.read_line(&mut next)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "answer not ended by an empty line",
                ));
            }
            let next = next.trim_end_matches(['\n', '\r']);
            if next.is_empty() {
                break;
            }
            lines.push(next.to_string());
        }
        Ok(Answer {
            ok,
            id,
            text: lines.join("\n"),
        })
    }

    /// Reads one line of output, without its line end (for streamed answers).
    pub fn read_line(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.stdout.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "engine closed its output",
            ));
        }
        Ok(line.trim_end_matches(['\n', '\r']).to_string())
    }

    /// The engine's process id (to read its memory from /proc).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The exit status if the process has ended.
    pub fn try_wait(&mut self) -> io::Result<Option<std::process::ExitStatus>> {
        self.child.try_wait()
    }

    /// Closes stdin and waits at most `bound` for the process to end; panics if it does not.
    pub fn wait_for_exit(&mut self, bound: std::time::Duration) -> std::process::ExitStatus {
        self.close_stdin();
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.try_wait().expect("wait for the engine") {
                return status;
            }
            assert!(start.elapsed() < bound, "still running after {bound:?}");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Waits for the process to end.
    pub fn wait(&mut self) -> io::Result<std::process::ExitStatus> {
        self.stdin = None;
        self.child.wait()
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Where GNU Go is installed, if anywhere: `/usr/games/gnugo` or `gnugo` on the `PATH`.
pub fn find_gnugo() -> Option<PathBuf> {
    let default = PathBuf::from("/usr/games/gnugo");
    if default.is_file() {
        return Some(default);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("gnugo"))
        .find(|p| p.is_file())
}

/// GNU Go for a test that needs it. Without GNU Go the test is skipped with a message, unless
/// `SHOUTAN_REQUIRE_GNUGO` is set (CI sets it), in which case it fails.
pub fn gnugo_or_skip(test: &str) -> Option<PathBuf> {
    match find_gnugo() {
        Some(p) => Some(p),
        None if std::env::var_os("SHOUTAN_REQUIRE_GNUGO").is_some() => {
            panic!("{test}: GNU Go is required (SHOUTAN_REQUIRE_GNUGO is set) but was not found")
        }
        None => {
            eprintln!("{test}: SKIPPED: GNU Go not found (install gnugo to run this test)");
            None
        }
    }
}

/// A fresh, empty directory for a test's files.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shoutan-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch directory");
    dir
}
