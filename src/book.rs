//! The opening book: the first moves of small-board games, chosen once by long searches
//! (`shoutan build-book`) and played at once instead of a short search.
//!
//! A search of about a second is weakest on a nearly empty board, where the playouts are
//! longest and every move looks alike; a move found by a search two hundred times as long is
//! better and costs nothing to look up. The book is a text file: a header (`size`, `komi`)
//! and one line per position, the moves that reach it from the empty board and the reply
//! (`E5 C4 : D6`), with the search's figures as a comment. Positions are matched under the
//! board's eight symmetries, whatever order the moves came in.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use crate::board::{Board, Color, Move};
use crate::game::Game;
use crate::rules::{Rules, Scoring};
use crate::search::{Limits, LogObserver, Mode, SearchConfig, Searcher};

/// The built-in book (9x9, komi 7.5), built by `shoutan build-book` (see `docs/book.md`).
static BUILTIN_TEXT: &str = include_str!("../models/book9.txt");

/// A point as (column, row) from the lower left corner, the same in every orientation's
/// arithmetic below.
type Coord = (usize, usize);

/// An opening book: replies to positions, stored in a canonical orientation.
#[derive(Debug, Clone)]
pub struct Book {
    size: usize,
    komi: f32,
    /// Canonical key of a position (stones and side to move) to the reply, in the
    /// orientation that gives the key.
    replies: HashMap<u64, Coord>,
}

/// The 8 symmetries of a square board: `(col, row)` to its image under symmetry `s`.
fn transform(s: usize, (c, r): Coord, size: usize) -> Coord {
    let m = size - 1;
    let (c, r) = if s & 4 != 0 { (r, c) } else { (c, r) };
    let c = if s & 1 != 0 { m - c } else { c };
    let r = if s & 2 != 0 { m - r } else { r };
    (c, r)
}

/// The point whose image under symmetry `s` is `target`.
fn untransform(s: usize, target: Coord, size: usize) -> Option<Coord> {
    (0..size)
        .flat_map(|c| (0..size).map(move |r| (c, r)))
        .find(|&q| transform(s, q, size) == target)
}

/// A fixed pseudo-random number for a stone of `color` on `(col, row)` (splitmix64), so
/// keys do not depend on the board's own hashing.
fn stone_key((c, r): Coord, color: Color) -> u64 {
    let mut z = ((r * 32 + c) as u64) * 2 + color.index() as u64 + 0x9E37_79B9_7F4A_7C15;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stones of a board as coordinates.
fn stones(board: &Board) -> Vec<(Coord, Color)> {
    board
        .points()
        .filter_map(|p| board.cell(p).color().map(|c| (board.col_row(p), c)))
        .collect()
}

/// The canonical key of a position and the symmetry that gives it: the smallest key over
/// the eight orientations (the first such symmetry on a tie).
fn canonical(stones: &[(Coord, Color)], to_move: Color, size: usize) -> (u64, usize) {
    (0..8)
        .map(|s| {
            let key = stones.iter().fold(to_move.index() as u64, |k, &(p, c)| {
                k ^ stone_key(transform(s, p, size), c)
            });
            (key, s)
        })
        .min()
        .unwrap_or((0, 0))
}

impl Book {
    /// The built-in book, parsed once and shared by every engine.
    pub fn builtin() -> Arc<Book> {
        static BOOK: OnceLock<Arc<Book>> = OnceLock::new();
        Arc::clone(BOOK.get_or_init(|| {
            Arc::new(Book::parse(BUILTIN_TEXT).unwrap_or_else(|e| {
                log::error!("the built-in opening book does not load: {e}");
                Book::empty(9, 7.5)
            }))
        }))
    }

    /// A book without positions.
    pub fn empty(size: usize, komi: f32) -> Book {
        Book {
            size,
            komi,
            replies: HashMap::new(),
        }
    }

    /// Reads a book file.
    pub fn load(path: &std::path::Path) -> Result<Book, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Book::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses a book's text: `size N`, `komi K`, then lines `MOVES : REPLY`; `#` starts a
    /// comment. Every line is replayed from the empty board, so an illegal one is an error.
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut size = None;
        let mut komi = None;
        let mut replies = HashMap::new();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", n + 1);
            if let Some(v) = line.strip_prefix("size ") {
                let s: usize = v
                    .trim()
                    .parse()
                    .map_err(|_| at(format!("bad size '{v}'")))?;
                crate::game::check_size(s).map_err(at)?;
                size = Some(s);
                continue;
            }
            if let Some(v) = line.strip_prefix("komi ") {
                let k: f32 = v
                    .trim()
                    .parse()
                    .map_err(|_| at(format!("bad komi '{v}'")))?;
                komi = Some(k);
                continue;
            }
            let size = size.ok_or_else(|| at("a position before the 'size' line".into()))?;
            let (moves, reply) = line
                .split_once(':')
                .ok_or_else(|| at("expected 'MOVES : REPLY'".into()))?;
            let mut game = Game::new(size, Rules::chinese()).map_err(at)?;
            for name in moves.split_whitespace() {
                let mv = game.board().parse_move(name).map_err(at)?;
                let color = game.to_move();
                game.play(mv, color)
                    .map_err(|e| at(format!("{name}: {e}")))?;
            }
            let to_move = game.to_move();
            let reply = match game.board().parse_move(reply.trim()).map_err(at)? {
                Move::Play(p) if game.is_legal(Move::Play(p), to_move) => p,
                _ => return Err(at(format!("'{}' is not a legal reply", reply.trim()))),
            };
            let board = game.board();
            let (key, s) = canonical(&stones(board), to_move, size);
            replies.insert(key, transform(s, board.col_row(reply), size));
        }
        Ok(Book {
            size: size.ok_or("no 'size' line")?,
            komi: komi.ok_or("no 'komi' line")?,
            replies,
        })
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.replies.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.replies.is_empty()
    }

    /// The book's reply for `color` in the game's position, if the book holds it and was
    /// made for this game: the board size and komi it was searched with, area counting
    /// without a group tax, no handicap or setup stones, no pass yet, `color` to move.
    pub fn lookup(&self, game: &Game, color: Color) -> Option<Move> {
        let rules = game.rules();
        if game.size() != self.size
            || game.komi() != self.komi
            || rules.scoring != Scoring::Area
            || rules.first_player != Color::Black
            || game.handicap() > 0
            || !game.setup_stones().is_empty()
            || game.to_move() != color
            || game.history().iter().any(|r| r.mv == Move::Pass)
        {
            return None;
        }
        let board = game.board();
        let (key, s) = canonical(&stones(board), color, self.size);
        let stored = self.replies.get(&key)?;
        let (c, r) = untransform(s, *stored, self.size)?;
        let mv = Move::Play(board.point(c, r));
        game.is_legal(mv, color).then_some(mv)
    }
}

/// How `shoutan build-book` searches.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Board size.
    pub size: usize,
    /// Komi the searches count with.
    pub komi: f32,
    /// The book holds the engine's moves up to this many moves into the game (plies).
    pub plies: usize,
    /// Opponent moves followed from each position where the opponent is to move: the most
    /// visited distinct ones (symmetric moves count once).
    pub replies: usize,
    /// An opponent move is followed only with at least this share of the root's visits.
    pub min_share: f64,
    /// Playouts of each position's search.
    pub playouts: u64,
    /// Positions searched at once (one thread each).
    pub workers: usize,
    /// Moves games played from positions of the book's tree ([`count_game_moves`]): where
    /// the opponent is to move, those played at least `min_games` times are followed too.
    pub game_moves: GameMoves,
    /// See `game_moves`.
    pub min_games: u32,
}

/// How often games played each move from each position: canonical position key to the
/// moves (in that key's orientation) and their counts.
pub type GameMoves = HashMap<u64, HashMap<Coord, u32>>;

/// Counts the moves of the first `plies` moves of `games` (records on `size` boards from
/// the empty board, Black first) by position, so that a book follows the opponent moves
/// real games play and not only those its own searches rate highly.
pub fn count_game_moves(
    games: &[crate::policy::records::GameRecord],
    size: usize,
    plies: usize,
) -> GameMoves {
    let mut counts = GameMoves::new();
    for record in games {
        if record.size != size || !record.setup.is_empty() {
            continue;
        }
        let Ok(mut game) = Game::new(size, Rules::chinese()) else {
            continue;
        };
        for &(color, mv) in record.moves.iter().take(plies) {
            let Move::Play(p) = mv else { break };
            if color != game.to_move() {
                break;
            }
            let board = game.board();
            let (key, s) = canonical(&stones(board), color, size);
            *counts
                .entry(key)
                .or_default()
                .entry(transform(s, board.col_row(p), size))
                .or_default() += 1;
            if game.play(mv, color).is_err() {
                break;
            }
        }
    }
    counts
}

/// One searched position of a book being built.
#[derive(Debug, Clone)]
pub struct BuiltEntry {
    /// Moves from the empty board.
    pub moves: Vec<Move>,
    /// The searched reply.
    pub reply: Move,
    /// Its win rate for the player to move.
    pub winrate: f64,
    /// Its share of the root's visits.
    pub share: f64,
}

/// What a position in the book's tree is for: the engine moves there (one reply is kept),
/// the opponent does (its likely moves are followed), or both (the empty board).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Role {
    ours: bool,
    theirs: bool,
}

/// Builds a book: from the empty board, searches every position the engine may meet within
/// `plies` moves when it plays either colour, following its own searched reply where it
/// moves and the opponent's likeliest replies where the opponent moves. `progress` hears
/// each finished position.
pub fn build(
    opts: &BuildOptions,
    config: &SearchConfig,
    progress: &(dyn Fn(&BuiltEntry, usize, usize) + Sync),
) -> Result<Vec<BuiltEntry>, String> {
    crate::game::check_size(opts.size)?;
    let mut done: Vec<BuiltEntry> = Vec::new();
    let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut level: Vec<(Vec<Move>, Role)> = vec![(Vec::new(), BOTH)];
    for ply in 0..opts.plies {
        // An opponent position needs a search only when its replies lead to one of ours
        // still inside the book.
        let wanted: Vec<(Vec<Move>, Role)> = level
            .into_iter()
            .filter(|(_, role)| role.ours || ply + 1 < opts.plies)
            .collect();
        let results = search_level(&wanted, opts, config, progress)?;
        let mut next = Frontier::default();
        for ((moves, role), (entry, candidates)) in wanted.iter().zip(results) {
            seen.insert(entry_key(&entry.moves, opts)?);
            if role.ours {
                next.add(moves, entry.reply, THEIRS, &seen, opts)?;
            }
            if role.theirs {
                for &mv in candidates.iter().chain(&played_in_games(moves, opts)?) {
                    next.add(moves, mv, OURS, &seen, opts)?;
                }
            }
            done.push(entry);
        }
        level = next.positions;
    }
    Ok(done)
}

/// The empty board: the engine may move first there, or the opponent may.
const BOTH: Role = Role {
    ours: true,
    theirs: true,
};

/// A position the engine is to move in next.
const OURS: Role = Role {
    ours: true,
    theirs: false,
};

/// A position the opponent is to move in next.
const THEIRS: Role = Role {
    ours: false,
    theirs: true,
};

/// The positions of the next ply of a book's tree, each once whatever the moves' order or
/// orientation (a position reached both as ours and as theirs is both).
#[derive(Default)]
struct Frontier {
    positions: Vec<(Vec<Move>, Role)>,
    keys: HashMap<u64, usize>,
}

impl Frontier {
    /// Adds the position `moves` then `mv` reach, unless it is in `seen` already.
    fn add(
        &mut self,
        moves: &[Move],
        mv: Move,
        role: Role,
        seen: &std::collections::HashSet<u64>,
        opts: &BuildOptions,
    ) -> Result<(), String> {
        let mut child = moves.to_vec();
        child.push(mv);
        let key = entry_key(&child, opts)?;
        if seen.contains(&key) {
            return Ok(());
        }
        match self.keys.get(&key) {
            Some(&i) => {
                let r = &mut self.positions[i].1;
                r.ours |= role.ours;
                r.theirs |= role.theirs;
            }
            None => {
                self.keys.insert(key, self.positions.len());
                self.positions.push((child, role));
            }
        }
        Ok(())
    }
}

/// Lengthens the book `base` along the lines games play, up to `opts.plies` moves into the
/// game: where the engine is to move it plays the base's reply or, where the base has none,
/// a searched one; where the opponent is to move, every move the games (`opts.game_moves`)
/// played at least `opts.min_games` times there is followed. So an opponent that plays the
/// same line game after game (a deterministic engine) meets long-searched replies deeper
/// than the base's tree goes. Returns the new positions only; `opts.replies` and
/// `opts.min_share` are not used.
pub fn extend(
    base: &Book,
    opts: &BuildOptions,
    config: &SearchConfig,
    progress: &(dyn Fn(&BuiltEntry, usize, usize) + Sync),
) -> Result<Vec<BuiltEntry>, String> {
    crate::game::check_size(opts.size)?;
    if base.size != opts.size || base.komi != opts.komi {
        return Err(format!(
            "the base book is for {}x{}, komi {}: not for {}x{}, komi {}",
            base.size, base.size, base.komi, opts.size, opts.size, opts.komi
        ));
    }
    let mut done: Vec<BuiltEntry> = Vec::new();
    let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
    let mut level: Vec<(Vec<Move>, Role)> = vec![(Vec::new(), BOTH)];
    for _ in 0..opts.plies {
        let mut replies: Vec<Option<Move>> = Vec::with_capacity(level.len());
        let mut missing: Vec<(Vec<Move>, Role)> = Vec::new();
        for (moves, role) in &level {
            let reply = if role.ours {
                let game = replay(moves, opts)?;
                base.lookup(&game, game.to_move())
            } else {
                None
            };
            if role.ours && reply.is_none() {
                missing.push((moves.clone(), *role));
            }
            replies.push(reply);
        }
        let mut searched = search_level(&missing, opts, config, progress)?.into_iter();
        let mut next = Frontier::default();
        for ((moves, role), reply) in level.iter().zip(replies) {
            seen.insert(entry_key(moves, opts)?);
            if role.ours {
                let reply = match reply {
                    Some(mv) => mv,
                    None => {
                        let (entry, _) = searched.next().ok_or("a book search did not finish")?;
                        let mv = entry.reply;
                        done.push(entry);
                        mv
                    }
                };
                if reply != Move::Pass {
                    next.add(moves, reply, THEIRS, &seen, opts)?;
                }
            }
            if role.theirs {
                for mv in played_in_games(moves, opts)? {
                    next.add(moves, mv, OURS, &seen, opts)?;
                }
            }
        }
        level = next.positions;
    }
    Ok(done)
}

/// The moves the build's games played at least `min_games` times from the position of
/// `moves`, in its orientation.
fn played_in_games(moves: &[Move], opts: &BuildOptions) -> Result<Vec<Move>, String> {
    let game = replay(moves, opts)?;
    let board = game.board();
    let (key, s) = canonical(&stones(board), game.to_move(), opts.size);
    let Some(played) = opts.game_moves.get(&key) else {
        return Ok(Vec::new());
    };
    let mut found: Vec<(u32, Move)> = played
        .iter()
        .filter(|&(_, &n)| n >= opts.min_games)
        .filter_map(|(&c, &n)| {
            let (col, row) = untransform(s, c, opts.size)?;
            Some((n, Move::Play(board.point(col, row))))
        })
        .collect();
    found.sort_by_key(|&(n, mv)| (std::cmp::Reverse(n), board.move_name(mv)));
    Ok(found.into_iter().map(|(_, mv)| mv).collect())
}

/// The game of `moves` from the empty board, with the build's komi.
fn replay(moves: &[Move], opts: &BuildOptions) -> Result<Game, String> {
    let mut game = Game::new(opts.size, Rules::chinese())?;
    game.set_komi(opts.komi);
    for &mv in moves {
        let color = game.to_move();
        game.play(mv, color).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// The canonical key of the position `moves` reach.
fn entry_key(moves: &[Move], opts: &BuildOptions) -> Result<u64, String> {
    let game = replay(moves, opts)?;
    Ok(canonical(&stones(game.board()), game.to_move(), opts.size).0)
}

/// A searched position: its entry and its most visited distinct moves.
type Searched = (BuiltEntry, Vec<Move>);

/// Searches a level's positions, `opts.workers` at a time: each position's entry and the
/// distinct moves its search visited most (for the opponent's side).
fn search_level(
    level: &[(Vec<Move>, Role)],
    opts: &BuildOptions,
    config: &SearchConfig,
    progress: &(dyn Fn(&BuiltEntry, usize, usize) + Sync),
) -> Result<Vec<Searched>, String> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<Searched, String>>>> =
        level.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..opts.workers.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    let Some((moves, _)) = level.get(i) else {
                        break;
                    };
                    let result = search_position(moves, opts, config);
                    if let Ok((entry, _)) = &result {
                        progress(entry, finished.fetch_add(1, Relaxed) + 1, level.len());
                    }
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(result);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("a book search did not finish".into()))
        })
        .collect()
}

/// One position's search (one thread, seeded by the position so the build is
/// reproducible): its entry and its most visited distinct moves.
fn search_position(
    moves: &[Move],
    opts: &BuildOptions,
    config: &SearchConfig,
) -> Result<Searched, String> {
    let game = replay(moves, opts)?;
    let color = game.to_move();
    let (key, _) = canonical(&stones(game.board()), color, opts.size);
    let mut config = config.clone();
    config.threads = 1;
    config.seed = Some(config.seed.unwrap_or(1) ^ key);
    let mut searcher = Searcher::new(config);
    let limits = Limits {
        playouts: Some(opts.playouts),
        time: None,
        max_time: None,
        early_stop: false,
    };
    let stop = AtomicBool::new(false);
    let mut observer = LogObserver { stop: &stop };
    let result = searcher.search(&game, color, limits, Mode::Normal, &mut observer);
    let reply = searcher.decide(&game, color, Mode::Normal, &result);
    let root = f64::from(result.summary.root_visits.max(1));
    let figures = |mv: Move| {
        result
            .summary
            .candidates
            .iter()
            .find(|c| c.mv == mv)
            .map_or((0.5, 0.0), |c| (c.winrate, f64::from(c.visits) / root))
    };
    let (winrate, share) = figures(reply);
    let mut distinct: Vec<Move> = Vec::new();
    let mut keys: Vec<u64> = Vec::new();
    for c in &result.summary.candidates {
        if distinct.len() >= opts.replies || f64::from(c.visits) / root < opts.min_share {
            break;
        }
        if c.mv == Move::Pass {
            continue;
        }
        let mut child = moves.to_vec();
        child.push(c.mv);
        let k = entry_key(&child, opts)?;
        if !keys.contains(&k) {
            keys.push(k);
            distinct.push(c.mv);
        }
    }
    let entry = BuiltEntry {
        moves: moves.to_vec(),
        reply,
        winrate,
        share,
    };
    Ok((entry, distinct))
}

/// A built book as the text [`Book::parse`] reads, with a header saying how it was made.
pub fn to_text(entries: &[BuiltEntry], opts: &BuildOptions, command: &str) -> String {
    let mut out = format!(
        "# shoutan opening book: {} positions, each searched with {} playouts\n# made by: {command}\n# position (moves from the empty board) : reply  # win rate of the reply, its share of the visits\nsize {}\nkomi {}\n",
        entries.len(),
        opts.playouts,
        opts.size,
        opts.komi
    );
    out.push_str(&entry_lines(entries, opts.size));
    out
}

/// The base book's text with the positions `extend` added after it, under a comment saying
/// how they were made.
pub fn extended_text(
    base_text: &str,
    entries: &[BuiltEntry],
    opts: &BuildOptions,
    command: &str,
) -> String {
    let mut out = base_text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "# extended by: {command}\n# {} positions on the lines of its games, {} moves deep, each searched with {} playouts\n",
        entries.len(),
        opts.plies,
        opts.playouts
    ));
    out.push_str(&entry_lines(entries, opts.size));
    out
}

/// One book line per searched position with a reply.
fn entry_lines(entries: &[BuiltEntry], size: usize) -> String {
    let board = Board::new(size);
    let name = |mv: Move| board.move_name(mv);
    let mut out = String::new();
    for e in entries {
        if e.reply == Move::Pass {
            continue;
        }
        let moves: Vec<String> = e.moves.iter().map(|&m| name(m)).collect();
        out.push_str(&format!(
            "{} : {}  # {:.1}% {:.0}%\n",
            moves.join(" "),
            name(e.reply),
            100.0 * e.winrate,
            100.0 * e.share
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eight symmetries of the 9x9 board written out on vertex names, independently of
    /// [`transform`]: mirror the letters, mirror the numbers, swap them.
    fn sym_vertex(s: usize, v: &str) -> String {
        const LETTERS: &str = "ABCDEFGHJ";
        let col = LETTERS.find(&v[..1]).expect("a letter");
        let row: usize = v[1..].parse::<usize>().expect("a number") - 1;
        let (col, row) = match s {
            0 => (col, row),
            1 => (8 - col, row),
            2 => (col, 8 - row),
            3 => (8 - col, 8 - row),
            4 => (row, col),
            5 => (8 - row, col),
            6 => (row, 8 - col),
            _ => (8 - row, 8 - col),
        };
        format!("{}{}", &LETTERS[col..col + 1], row + 1)
    }

    fn game_of(moves: &[String], komi: f32) -> Game {
        game_under(Rules::chinese(), moves, komi)
    }

    fn game_under(rules: Rules, moves: &[String], komi: f32) -> Game {
        let mut game = Game::new(9, rules).expect("9x9");
        game.set_komi(komi);
        for m in moves {
            let mv = game.board().parse_move(m).expect("a vertex");
            let c = game.to_move();
            game.play(mv, c).expect("legal");
        }
        game
    }

    const BOOK: &str = "size 9\nkomi 7.5\n : E5\nC3 D7 : F6  # a comment\nE5 C3 : G7\n";

    #[test]
    fn replies_follow_the_position_in_every_orientation() {
        let book = Book::parse(BOOK).expect("parses");
        assert_eq!(book.len(), 3);
        for (line, reply) in [(vec!["C3", "D7"], "F6"), (vec!["E5", "C3"], "G7")] {
            for s in 0..8 {
                let moves: Vec<String> = line.iter().map(|v| sym_vertex(s, v)).collect();
                let game = game_of(&moves, 7.5);
                let got = book.lookup(&game, game.to_move()).expect("in the book");
                assert_eq!(
                    game.board().move_name(got),
                    sym_vertex(s, reply),
                    "symmetry {s} of {line:?}"
                );
            }
        }
        // The same stones reached in another order are the same position.
        let game = game_of(&["D7".into(), "C3".into()], 7.5);
        assert_eq!(
            book.lookup(&game, Color::Black),
            None,
            "White to move there"
        );
        let game = game_of(&["E5".into(), "C3".into()], 7.5);
        assert_eq!(book.lookup(&game, Color::White), None, "Black is to move");
        let empty = game_of(&[], 7.5);
        assert_eq!(
            book.lookup(&empty, Color::Black)
                .map(|m| empty.board().move_name(m)),
            Some("E5".to_string())
        );
        let unknown = game_of(&["E5".into(), "D4".into()], 7.5);
        assert_eq!(book.lookup(&unknown, Color::Black), None);
    }

    #[test]
    fn only_games_the_book_was_made_for_use_it() {
        let book = Book::parse(BOOK).expect("parses");
        let moves = ["C3".to_string(), "D7".to_string()];
        assert!(book.lookup(&game_of(&moves, 7.5), Color::Black).is_some());
        assert_eq!(
            book.lookup(&game_of(&moves, 6.5), Color::Black),
            None,
            "komi"
        );
        let japanese = game_under(Rules::preset("japanese").expect("a preset"), &moves, 7.5);
        assert_eq!(
            book.lookup(&japanese, Color::Black),
            None,
            "territory counting"
        );
        let mut passed = game_of(&moves, 7.5);
        passed.play(Move::Pass, Color::Black).expect("a pass");
        passed.play(Move::Pass, Color::White).expect("a pass");
        assert_eq!(book.lookup(&passed, Color::Black), None, "after passes");
        let mut handicap = Game::new(9, Rules::chinese()).expect("9x9");
        let b = handicap.board();
        let points = [b.point(2, 2), b.point(6, 6)];
        handicap.place_handicap(&points).expect("handicap");
        assert_eq!(book.lookup(&handicap, Color::White), None, "handicap");
        let mut big = Game::new(13, Rules::chinese()).expect("13x13");
        big.set_komi(7.5);
        assert_eq!(book.lookup(&big, Color::Black), None, "board size");
    }

    #[test]
    fn a_bad_book_is_an_error_not_a_panic() {
        for (text, why) in [
            ("komi 7.5\n : E5\n", "no size before a position"),
            ("size 9\n : E5\n", "no komi"),
            ("size 9\nkomi 7.5\nE5 : E5\n", "reply on a stone"),
            ("size 9\nkomi 7.5\nE5 E5 : C3\n", "illegal line"),
            ("size 9\nkomi 7.5\nE5 Z9 : C3\n", "not a vertex"),
            ("size 9\nkomi 7.5\nE5 C3\n", "no reply"),
            ("size 9\nkomi 7.5\n : pass\n", "pass is no book move"),
            ("size 99\nkomi 7.5\n", "size out of range"),
            ("size 9\nkomi x\n", "bad komi"),
        ] {
            assert!(Book::parse(text).is_err(), "{why}: {text:?}");
        }
    }

    #[test]
    fn the_built_in_book_loads_and_every_reply_is_legal() {
        let book = Book::parse(BUILTIN_TEXT).expect("the built-in book parses");
        assert_eq!((book.size, book.komi), (9, 7.5));
        assert!(!book.is_empty(), "the built-in book has positions");
        assert_eq!(Book::builtin().len(), book.len());
        let empty = game_of(&[], 7.5);
        assert!(book.lookup(&empty, Color::Black).is_some(), "a first move");
    }

    #[test]
    fn a_built_book_reads_back_with_its_replies() {
        let opts = BuildOptions {
            size: 5,
            komi: 2.5,
            plies: 3,
            replies: 2,
            min_share: 0.0,
            playouts: 200,
            workers: 2,
            game_moves: GameMoves::new(),
            min_games: 1,
        };
        let config = SearchConfig {
            seed: Some(3),
            ..SearchConfig::default()
        };
        let entries = build(&opts, &config, &|_, _, _| {}).expect("builds");
        // The empty board (both colours), shoutan's move as Black and up to two White
        // replies, then positions after three moves' worth of lines.
        assert!(entries.len() >= 3, "{} positions", entries.len());
        assert!(entries[0].moves.is_empty());
        let book = Book::parse(&to_text(&entries, &opts, "test")).expect("reads back");
        for e in entries.iter().filter(|e| e.reply != Move::Pass) {
            let mut game = Game::new(5, Rules::chinese()).expect("5x5");
            game.set_komi(2.5);
            for &mv in &e.moves {
                let c = game.to_move();
                game.play(mv, c).expect("legal");
            }
            assert_eq!(book.lookup(&game, game.to_move()), Some(e.reply));
            assert!(e.moves.len() < opts.plies);
        }
        // The same options and seed give the same book.
        let again = build(&opts, &config, &|_, _, _| {}).expect("builds");
        let text = |es: &[BuiltEntry]| to_text(es, &opts, "test");
        assert_eq!(text(&entries), text(&again));
    }

    #[test]
    fn an_extended_book_keeps_its_lines_and_follows_the_games_deeper() {
        // A base book with only Black's first move, and games whose White answers C3 with
        // B3 three times and with D4 once.
        let base_text = "size 5\nkomi 2.5\n : C3\n";
        let base = Book::parse(base_text).expect("base parses");
        let board = Board::new(5);
        let record = |names: &[&str]| crate::policy::records::GameRecord {
            name: "test".into(),
            size: 5,
            setup: Vec::new(),
            moves: names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let color = if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    (color, board.parse_move(n).expect("vertex"))
                })
                .collect(),
        };
        let games = vec![
            record(&["C3", "B3", "D3"]),
            record(&["C3", "B3", "C2"]),
            record(&["C3", "B3", "D3"]),
            record(&["C3", "D4", "B2"]),
        ];
        let opts = BuildOptions {
            size: 5,
            komi: 2.5,
            plies: 3,
            replies: 0,
            min_share: 0.0,
            playouts: 200,
            workers: 2,
            game_moves: count_game_moves(&games, 5, 3),
            min_games: 3,
        };
        let config = SearchConfig {
            seed: Some(5),
            ..SearchConfig::default()
        };
        let entries = extend(&base, &opts, &config, &|_, _, _| {}).expect("extends");
        // Positions compare under the board's symmetries (C3 B3 is C3 D3 turned).
        let keys: Vec<u64> = entries
            .iter()
            .map(|e| entry_key(&e.moves, &opts).expect("legal"))
            .collect();
        let lines: Vec<Vec<String>> = entries
            .iter()
            .map(|e| e.moves.iter().map(|&m| board.move_name(m)).collect())
            .collect();
        let has = |names: &[&str]| {
            let moves: Vec<Move> = names
                .iter()
                .map(|n| board.parse_move(n).expect("vertex"))
                .collect();
            keys.contains(&entry_key(&moves, &opts).expect("legal"))
        };
        assert!(
            !has(&[]),
            "the base's position is not searched again: {lines:?}"
        );
        assert!(
            has(&["C3"]),
            "White's answer to the games' first move: {lines:?}"
        );
        assert!(
            has(&["C3", "B3"]),
            "the games' White move three times: {lines:?}"
        );
        assert!(
            !has(&["C3", "D4"]),
            "a move played once is not followed: {lines:?}"
        );
        assert!(entries.iter().all(|e| e.moves.len() < opts.plies));
        let text = extended_text(base_text, &entries, &opts, "test");
        let book = Book::parse(&text).expect("the extended book reads back");
        let replies = entries.iter().filter(|e| e.reply != Move::Pass).count();
        assert_eq!(book.len(), replies + 1);
        let game_of_5 = |moves: &[Move]| {
            let mut game = Game::new(5, Rules::chinese()).expect("5x5");
            game.set_komi(2.5);
            for &mv in moves {
                let c = game.to_move();
                game.play(mv, c).expect("legal");
            }
            game
        };
        let empty = game_of_5(&[]);
        let c3 = board.parse_move("C3").expect("vertex");
        assert_eq!(
            book.lookup(&empty, Color::Black),
            Some(c3),
            "the base's line holds"
        );
        for e in entries.iter().filter(|e| e.reply != Move::Pass) {
            let game = game_of_5(&e.moves);
            assert_eq!(book.lookup(&game, game.to_move()), Some(e.reply));
        }
        // A base for another komi is refused, not extended.
        let other = Book::parse("size 5\nkomi 0.5\n : C3\n").expect("parses");
        assert!(extend(&other, &opts, &config, &|_, _, _| {}).is_err());
    }
}
