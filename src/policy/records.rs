//! Game records for training and testing the policy: SGF files read from plain files,
//! directories and `.tar.gz` archives, replayed into the positions before each move.
//!
//! Files are loaded with [`crate::sgf::load`] (handicap and `AB`/`AW` setup, passes, the
//! main line only). A file that cannot be used is skipped and counted under a reason, so a
//! training run says what it left out instead of stopping.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::board::{Board, Color, Move, Point};
use crate::rules::{KoRule, Rules};
use crate::sgf::{self, LoadUntil, MAX_SGF_BYTES};

/// One game: board size, setup stones and the moves played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Where it came from (file path, or archive path and member name).
    pub name: String,
    /// Board size.
    pub size: usize,
    /// Stones on the board before the first move (handicap, setup).
    pub setup: Vec<(Point, Color)>,
    /// The moves in order, passes included.
    pub moves: Vec<(Color, Move)>,
}

impl GameRecord {
    /// Reads one SGF text; on failure, the reason it is skipped and the loader's message.
    pub fn from_sgf(name: &str, text: &str) -> Result<GameRecord, (Skip, String)> {
        let game = sgf::load(
            text,
            &LoadUntil::End,
            &Rules::japanese(),
            KoRule::Simple,
            6.5,
        )
        .map_err(|e| (Skip::classify(&e), e))?;
        if game.history().is_empty() {
            return Err((Skip::NoMoves, "no moves".into()));
        }
        Ok(GameRecord {
            name: name.to_string(),
            size: game.size(),
            setup: game.setup_stones().to_vec(),
            moves: game.history().iter().map(|r| (r.color, r.mv)).collect(),
        })
    }

    /// Replays the game, calling `visit(board, move number from 1, colour, move)` with the
    /// position before each move.
    pub fn replay(&self, mut visit: impl FnMut(&Board, usize, Color, Move)) {
        let mut board = Board::new(self.size);
        for &(p, c) in &self.setup {
            // The loader checked the setup: every stone is placeable.
            let _ = board.place_setup_stone(p, c);
        }
        for (i, &(c, mv)) in self.moves.iter().enumerate() {
            visit(&board, i + 1, c, mv);
            match mv {
                Move::Pass => board.pass(c),
                // The loader replayed the game under simple ko: every move is legal here.
                Move::Play(p) => {
                    board.play(p, c);
                }
            }
        }
    }
}

/// Why a file was left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Skip {
    /// Could not be read (I/O error, too large, a broken archive member).
    Unreadable,
    /// Not valid SGF, or not a game of Go.
    DoesNotParse,
    /// A move is illegal on the board (occupied point, suicide, ko retaken at once).
    IllegalMove,
    /// Setup stones or root properties that cannot stand (size, handicap, komi, setup).
    BadSetup,
    /// No move at all.
    NoMoves,
}

impl Skip {
    /// The reason for a [`sgf::load`] error message.
    fn classify(message: &str) -> Skip {
        if message.contains("illegal") {
            Skip::IllegalMove
        } else if message.contains("parse")
            || message.contains("holds no game")
            || message.contains("not a game of Go")
            || message.contains("too many nodes")
        {
            Skip::DoesNotParse
        } else {
            Skip::BadSetup
        }
    }

    /// A short description for the trainer's report.
    pub fn describe(self) -> &'static str {
        match self {
            Skip::Unreadable => "unreadable",
            Skip::DoesNotParse => "not valid SGF of a Go game",
            Skip::IllegalMove => "an illegal move",
            Skip::BadSetup => "bad root properties or setup",
            Skip::NoMoves => "no moves",
        }
    }
}

/// Games read from a set of paths, and the files skipped.
#[derive(Debug, Default)]
pub struct GameSet {
    /// The games, in the order of the paths given (directories sorted by name, archives in
    /// their own order).
    pub games: Vec<GameRecord>,
    /// Files skipped, by reason.
    pub skipped: BTreeMap<Skip, usize>,
    /// One example file name per reason, with the loader's message.
    pub examples: BTreeMap<Skip, String>,
}

impl GameSet {
    /// Number of files skipped.
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    /// The skip counts in one line, e.g. `3 skipped: 2 an illegal move, 1 no moves`.
    pub fn skip_summary(&self) -> String {
        if self.skipped.is_empty() {
            return "none skipped".into();
        }
        let parts: Vec<String> = self
            .skipped
            .iter()
            .map(|(r, n)| format!("{n} {}", r.describe()))
            .collect();
        format!("{} skipped: {}", self.skipped_total(), parts.join(", "))
    }

    fn skip(&mut self, reason: Skip, example: String) {
        *self.skipped.entry(reason).or_default() += 1;
        self.examples.entry(reason).or_insert(example);
    }
}

/// The SGF texts in `paths`: plain files, directories (searched recursively for `.sgf`
/// files, in name order) and `.tar.gz`/`.tgz` archives (their `.sgf` members, in archive
/// order). `progress(files so far)` is called after each file. An unreadable path is an
/// error; an unreadable member or file inside is counted as skipped.
pub fn read_texts(
    paths: &[PathBuf],
    set: &mut GameSet,
    mut progress: impl FnMut(usize),
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut files = Vec::new();
            collect_sgf_files(path, &mut files)
                .map_err(|e| format!("{}: cannot list the directory: {e}", path.display()))?;
            files.sort();
            for f in files {
                match read_plain(&f) {
                    Ok(text) => out.push((f.display().to_string(), text)),
                    Err(e) => set.skip(Skip::Unreadable, format!("{}: {e}", f.display())),
                }
                progress(out.len());
            }
        } else if is_archive(path) {
            read_archive(path, &mut out, set, &mut progress)?;
        } else {
            let text = read_plain(path).map_err(|e| format!("{}: {e}", path.display()))?;
            out.push((path.display().to_string(), text));
            progress(out.len());
        }
    }
    Ok(out)
}

fn is_archive(path: &Path) -> bool {
    let name = path.to_string_lossy();
    name.ends_with(".tar.gz") || name.ends_with(".tgz")
}

fn is_sgf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

fn collect_sgf_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_sgf_files(&path, out)?;
        } else if is_sgf(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads at most [`MAX_SGF_BYTES`] of SGF text (invalid UTF-8 replaced).
fn read_limited(reader: impl Read) -> Result<String, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_SGF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(format!("larger than {MAX_SGF_BYTES} bytes"));
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn read_plain(path: &Path) -> Result<String, String> {
    read_limited(File::open(path).map_err(|e| format!("cannot open: {e}"))?)
}

fn read_archive(
    path: &Path,
    out: &mut Vec<(String, String)>,
    set: &mut GameSet,
    progress: &mut impl FnMut(usize),
) -> Result<(), String> {
    let file = File::open(path).map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let entries = archive
        .entries()
        .map_err(|e| format!("{}: not a tar.gz archive: {e}", path.display()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("{}: broken archive: {e}", path.display()))?;
        let member = match entry.path() {
            Ok(p) => p.into_owned(),
            Err(e) => {
                set.skip(Skip::Unreadable, format!("{}: {e}", path.display()));
                continue;
            }
        };
        if !entry.header().entry_type().is_file() || !is_sgf(&member) {
            continue;
        }
        let name = format!("{}:{}", path.display(), member.display());
        match read_limited(&mut entry) {
            Ok(text) => out.push((name, text)),
            Err(e) => set.skip(Skip::Unreadable, format!("{name}: {e}")),
        }
        progress(out.len());
    }
    Ok(())
}

/// Parses SGF texts into `set`, in order, skipping (and counting) the ones that cannot be
/// used.
pub fn parse_texts(texts: &[(String, String)], set: &mut GameSet) {
    for (name, text) in texts {
        match GameRecord::from_sgf(name, text) {
            Ok(g) => set.games.push(g),
            Err((reason, message)) => set.skip(reason, format!("{name}: {message}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_replay_setup_moves_and_passes() {
        let g =
            GameRecord::from_sgf("t", "(;GM[1]FF[4]SZ[9]HA[2]AB[cc][gg];W[ee];B[];W[dd])").unwrap();
        assert_eq!(g.setup.len(), 2);
        assert_eq!(g.moves.len(), 3);
        let mut seen = Vec::new();
        g.replay(|b, n, c, mv| seen.push((n, c, b.move_name(mv), b.stone_count())));
        assert_eq!(
            seen,
            vec![
                (1, Color::White, "E5".to_string(), 2),
                (2, Color::Black, "PASS".to_string(), 3),
                (3, Color::White, "D6".to_string(), 3),
            ]
        );
    }

    #[test]
    fn odd_files_are_skipped_with_a_reason() {
        let texts: Vec<(String, String)> = [
            ("ok", "(;GM[1]SZ[9];B[ee];W[cc])"),
            ("garbage", "this is not sgf"),
            ("occupied", "(;GM[1]SZ[9];B[ee];W[ee])"),
            ("empty", "(;GM[1]SZ[9])"),
            ("setup", "(;GM[1]SZ[9]AB[zz];B[ee])"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let mut set = GameSet::default();
        parse_texts(&texts, &mut set);
        assert_eq!(set.games.len(), 1);
        assert_eq!(set.skipped[&Skip::DoesNotParse], 1);
        assert_eq!(set.skipped[&Skip::IllegalMove], 1);
        assert_eq!(set.skipped[&Skip::NoMoves], 1);
        assert_eq!(set.skipped[&Skip::BadSetup], 1);
        assert!(set.skip_summary().starts_with("4 skipped"));
    }
}
