//! Games in and out of SGF (FF\[4\]): reading through the `sgf-parse` crate, writing as plain
//! text that the same crate reads back.
//!
//! Reading follows GNU Go's `loadsgf`, the reference GUIs and regression suites are written
//! against:
//! - only the first game of a collection and the main line (first child everywhere) count;
//! - the root gives `SZ` (square, 2 to 25; 19 when absent), `KM` (applied when present, else
//!   komi stays as it was) and `HA` (recorded as the handicap count; White to move first);
//! - `AB`/`AW`/`AE` add and remove setup stones wherever they appear; `PL` says who is to move;
//! - `B`/`W` moves are played by the rules (captures), `[]` and, on boards up to 19x19, `[tt]`
//!   are passes;
//! - stopping "before move N" counts moves from 1, passes included, setup nodes not, and
//!   leaves the player of move N to move; a number beyond the last move loads everything;
//!   GNU Go's variant "before the first move at VERTEX" is understood too.
//!
//! Where we differ from GNU Go, we do so to keep the state exact: a move that is illegal on
//! the board (occupied point, suicide, retaking a ko at once) makes the load fail instead of
//! being skipped, when loading reaches it (a position before it is fine); a file that does
//! not parse, or whose root or setup is wrong, is always refused; `AE` is honoured (GNU Go
//! 3.8 ignores it). Moves that only repeat an
//! earlier position (superko) are accepted, because the game may have been played under
//! another repetition rule. The starting position is exactly the file's: the ruleset's 座子
//! stones are not added (a file of an ancient game carries them as `AB`/`AW`). Setup after
//! the first move turns the position reached so far into a new starting position, so `undo`
//! stops there.

use std::io::Read;

use sgf_parse::SgfNode;
use sgf_parse::go::{self, Prop};

use crate::board::{Board, Color, MAX_SIZE, Move, Point};
use crate::game::{Game, check_size};
use crate::rules::{KoRule, Rules};

/// Largest SGF file `loadsgf` reads, in bytes.
pub const MAX_SGF_BYTES: u64 = 16 << 20;

/// Most nodes an SGF file may have; bounds the parser's memory and stack use.
pub const MAX_SGF_NODES: usize = 200_000;

/// Most moves a loaded main line may have: every move keeps a board snapshot for `undo`.
pub const MAX_SGF_MOVES: usize = 5_000;

/// Stack for the parser thread: the crate frees its node tree recursively, one level per node.
const PARSER_STACK_BYTES: usize = 256 << 20;

/// Largest komi accepted from a file, in points.
const MAX_KOMI: f64 = 1000.0;

/// Where loading stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadUntil {
    /// Load the whole main line.
    End,
    /// Stop before the n-th move (counted from 1, passes included, setup nodes not).
    BeforeMove(usize),
    /// Stop before the first move at this GTP vertex (or `pass`): GNU Go's extension.
    BeforeVertex(String),
}

impl LoadUntil {
    /// Parses `loadsgf`'s optional second argument: a move number from 1, or a vertex.
    pub fn parse(arg: Option<&str>) -> Result<LoadUntil, String> {
        let Some(text) = arg else {
            return Ok(LoadUntil::End);
        };
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return match text.parse::<usize>() {
                Ok(0) => Err("move number must be at least 1".into()),
                Ok(n) => Ok(LoadUntil::BeforeMove(n)),
                // More moves than any file can hold: the whole game.
                Err(_) => Ok(LoadUntil::End),
            };
        }
        if text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Ok(LoadUntil::BeforeVertex(text.to_string()));
        }
        Err(format!(
            "invalid move number '{text}' (give a number from 1, or a vertex)"
        ))
    }
}

/// Reads the file at `path` as SGF text: at most [`MAX_SGF_BYTES`], any encoding that is
/// ASCII-compatible (invalid UTF-8 in comments is replaced, never fatal). Errors do not repeat
/// the path: the caller names the file.
pub fn read_file(path: &str) -> Result<String, String> {
    Ok(String::from_utf8_lossy(&read_bytes(path)?).into_owned())
}

/// Reads the file at `path` as it is, at most [`MAX_SGF_BYTES`].
pub fn read_bytes(path: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open the file: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SGF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(format!(
            "the file is too large for SGF (limit {MAX_SGF_BYTES} bytes)"
        ));
    }
    Ok(bytes)
}

/// Loads the SGF game `text` until `until`, as a new game under `rules` with repetition rule
/// `ko`; `komi` applies unless the file gives `KM`. The colour to move is the game's
/// [`Game::to_move`]. Errors say what is wrong with the file; nothing outside is touched.
pub fn load(
    text: &str,
    until: &LoadUntil,
    rules: &Rules,
    ko: KoRule,
    komi: f32,
) -> Result<Game, String> {
    let nodes = parse_main_line(text)?;
    let Some(root) = nodes.first() else {
        return Err("the SGF file holds no game".into());
    };
    let info = RootInfo::read(root)?;
    let mut loader = Loader {
        size: info.size,
        rules,
        komi: info.komi.unwrap_or(komi),
        game: Game::new(info.size, rules.clone())?,
        next: if info.handicap >= 2 {
            Color::White
        } else {
            Color::Black
        },
        moves: 0,
    };
    loader.game = loader.fresh_game()?;
    loader.game.set_setup_position(&[])?;
    loader.game.set_to_move(loader.next);
    let stop_at = match until {
        LoadUntil::End => Stop::Never,
        LoadUntil::BeforeMove(n) => Stop::Move(*n),
        LoadUntil::BeforeVertex(v) => Stop::Vertex(
            Board::new(info.size)
                .parse_move(v)
                .map_err(|e| format!("invalid move number: {e}"))?,
        ),
    };
    for (index, props) in nodes.iter().enumerate() {
        if loader.node(index, props, &stop_at)? {
            break;
        }
    }
    let mut game = loader.game;
    if info.handicap >= 2 {
        game.set_handicap_count(info.handicap);
    }
    game.set_to_move(loader.next);
    game.set_ko_rule(ko);
    Ok(game)
}

/// A game file as a referee or a reviewer takes it (see [`load_file`]).
pub struct GameFile {
    /// The file as it is.
    pub bytes: Vec<u8>,
    /// Its text (invalid UTF-8 replaced).
    pub text: String,
    /// The whole main line, loaded.
    pub game: Game,
    /// Something the user should know about how the file was read.
    pub note: Option<String>,
}

/// Reads and loads the whole main line of the file at `path` under `rules` when given, else
/// under the rules its `RU` names ([`rules_for`]), with those rules' komi unless `KM` says
/// otherwise, and their ko rule. Errors name the file and say what is wrong with it.
pub fn load_file(path: &str, rules: Option<Rules>) -> Result<GameFile, String> {
    let fail = |e: String| format!("cannot load '{path}': {e}");
    let bytes = read_bytes(path).map_err(fail)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (rules, note) = rules_for(&text, rules).map_err(fail)?;
    let game = load(&text, &LoadUntil::End, &rules, rules.ko, rules.komi).map_err(fail)?;
    Ok(GameFile {
        bytes,
        text,
        game,
        note,
    })
}

/// What the root node says about the whole game.
struct RootInfo {
    size: usize,
    komi: Option<f32>,
    handicap: usize,
}

impl RootInfo {
    fn read(root: &[Prop]) -> Result<RootInfo, String> {
        let mut info = RootInfo {
            size: 19,
            komi: None,
            handicap: 0,
        };
        for prop in root {
            match prop {
                Prop::SZ((w, h)) => {
                    if w != h {
                        return Err(format!(
                            "rectangular boards are not supported (SZ[{w}:{h}])"
                        ));
                    }
                    let size = usize::from(*w);
                    check_size(size).map_err(|e| format!("SZ[{w}]: {e}"))?;
                    info.size = size;
                }
                Prop::KM(k) => {
                    if !k.is_finite() || k.abs() > MAX_KOMI {
                        return Err(format!("KM[{k}] is out of range"));
                    }
                    info.komi = Some(*k as f32);
                }
                Prop::HA(n) => {
                    info.handicap = usize::try_from(*n).unwrap_or(usize::MAX);
                }
                // The crate refuses HA below 2, but HA[0] and HA[1] are common for "no handicap".
                Prop::Invalid(id, values)
                    if id == "HA"
                        && matches!(values.as_slice(), [v] if v.trim() == "0" || v.trim() == "1") =>
                {
                    info.handicap = 0;
                }
                Prop::Invalid(id, values) if id == "SZ" || id == "KM" || id == "HA" => {
                    return Err(format!("invalid {id}[{}]", values.join("][")));
                }
                _ => {}
            }
        }
        if info.handicap > 0 && info.handicap >= info.size * info.size {
            return Err(format!(
                "HA[{}] is too large for a {}x{} board",
                info.handicap, info.size, info.size
            ));
        }
        Ok(info)
    }
}

/// When replaying stops.
enum Stop {
    Never,
    Move(usize),
    Vertex(Move),
}

/// Replays the main line node by node.
struct Loader<'a> {
    size: usize,
    rules: &'a Rules,
    komi: f32,
    game: Game,
    /// Who is to move after what has been replayed.
    next: Color,
    /// Moves met so far.
    moves: usize,
}

impl Loader<'_> {
    /// An empty game of the file's size. Replay uses simple ko only: the record may come from
    /// a game under another repetition rule, and the caller restores the real one.
    fn fresh_game(&self) -> Result<Game, String> {
        let mut game = Game::new(self.size, self.rules.clone())?;
        game.set_komi(self.komi);
        game.set_ko_rule(KoRule::Simple);
        Ok(game)
    }

    /// Applies one node; returns true when loading stops before this node's move.
    fn node(&mut self, index: usize, props: &[Prop], stop: &Stop) -> Result<bool, String> {
        let mut changes: Vec<(Point, Option<Color>)> = Vec::new();
        let mut player = None;
        let mut mv = None;
        for prop in props {
            match prop {
                Prop::AB(points) => self.setup_points(&mut changes, points, Some(Color::Black))?,
                Prop::AW(points) => self.setup_points(&mut changes, points, Some(Color::White))?,
                Prop::AE(points) => self.setup_points(&mut changes, points, None)?,
                Prop::PL(c) => player = Some(from_sgf_color(*c)),
                Prop::B(_) | Prop::W(_) if mv.is_some() => {
                    return Err(format!("node {}: more than one move", index + 1));
                }
                Prop::B(m) => mv = Some((Color::Black, *m)),
                Prop::W(m) => mv = Some((Color::White, *m)),
                Prop::Invalid(id, values)
                    if matches!(id.as_str(), "B" | "W" | "AB" | "AW" | "AE" | "PL") =>
                {
                    return Err(format!(
                        "node {}: invalid {id}[{}]",
                        index + 1,
                        values.join("][")
                    ));
                }
                _ => {}
            }
        }
        if !changes.is_empty() {
            self.apply_setup(&changes)
                .map_err(|e| format!("node {}: {e}", index + 1))?;
        }
        if let Some(c) = player {
            self.next = c;
            self.game.set_to_move(c);
        }
        let Some((color, sgf_move)) = mv else {
            return Ok(false);
        };
        self.moves += 1;
        if self.moves > MAX_SGF_MOVES {
            return Err(format!("the main line has more than {MAX_SGF_MOVES} moves"));
        }
        if matches!(stop, Stop::Move(n) if *n == self.moves) {
            self.next = color;
            return Ok(true);
        }
        let m = self.to_move(sgf_move).map_err(|e| {
            format!(
                "move {} ({}[{}]): {e}",
                self.moves,
                color.letter(),
                sgf_move_text(sgf_move)
            )
        })?;
        if matches!(stop, Stop::Vertex(v) if *v == m) {
            self.next = color;
            return Ok(true);
        }
        self.game.play(m, color).map_err(|e| {
            format!(
                "move {} ({} {}) is illegal: {e}",
                self.moves,
                color,
                self.game.board().move_name(m)
            )
        })?;
        self.next = color.opponent();
        Ok(false)
    }

    /// Converts an SGF move: `[]` and, up to 19x19, `[tt]` pass.
    fn to_move(&self, m: go::Move) -> Result<Move, String> {
        match m {
            go::Move::Pass => Ok(Move::Pass),
            go::Move::Move(p) if self.size <= 19 && p.x == 19 && p.y == 19 => Ok(Move::Pass),
            go::Move::Move(p) => self.to_point(p).map(Move::Play),
        }
    }

    fn to_point(&self, p: go::Point) -> Result<Point, String> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        if x >= self.size || y >= self.size {
            return Err(format!(
                "point [{}] is off the {}x{} board",
                point_text(p),
                self.size,
                self.size
            ));
        }
        Ok(Board::new(self.size).point(x, self.size - 1 - y))
    }

    /// Adds a setup property's points, in a fixed order (the crate gives them as a set).
    fn setup_points(
        &self,
        changes: &mut Vec<(Point, Option<Color>)>,
        points: &std::collections::HashSet<go::Point>,
        color: Option<Color>,
    ) -> Result<(), String> {
        let mut sorted: Vec<go::Point> = points.iter().copied().collect();
        sorted.sort_by_key(|p| (p.y, p.x));
        for p in sorted {
            changes.push((self.to_point(p)?, color));
        }
        Ok(())
    }

    /// Sets and clears stones: the result becomes the starting position of the game.
    fn apply_setup(&mut self, changes: &[(Point, Option<Color>)]) -> Result<(), String> {
        let board = self.game.board();
        let mut cells: Vec<Option<Color>> = vec![None; board.array_len()];
        for p in board.points() {
            cells[p as usize] = board.cell(p).color();
        }
        for &(p, c) in changes {
            cells[p as usize] = c;
        }
        let stones: Vec<(Point, Color)> = board
            .points()
            .filter_map(|p| cells[p as usize].map(|c| (p, c)))
            .collect();
        if self.game.move_number() > 0 {
            self.game = self.fresh_game()?;
        }
        self.game.set_setup_position(&stones)?;
        self.game.set_to_move(self.next);
        Ok(())
    }
}

fn from_sgf_color(c: sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

fn point_text(p: go::Point) -> String {
    let letter = |v: u8| {
        if v < 26 {
            (b'a' + v) as char
        } else {
            (b'A' + v - 26) as char
        }
    };
    format!("{}{}", letter(p.x), letter(p.y))
}

fn sgf_move_text(m: go::Move) -> String {
    match m {
        go::Move::Pass => String::new(),
        go::Move::Move(p) => point_text(p),
    }
}

/// Parses `text` and returns the properties of the main line's nodes, root first.
///
/// The crate builds and frees its node tree recursively, so the work runs on a thread with a
/// large stack after the node count has been checked; a panic inside the crate becomes an
/// error instead of ending the engine.
fn parse_main_line(text: &str) -> Result<Vec<Vec<Prop>>, String> {
    let nodes = count_nodes(text);
    if nodes > MAX_SGF_NODES {
        return Err(format!(
            "the SGF file has too many nodes ({nodes}, limit {MAX_SGF_NODES})"
        ));
    }
    let owned = text.to_string();
    let worker = std::thread::Builder::new()
        .name("sgf-parse".into())
        .stack_size(PARSER_STACK_BYTES)
        .spawn(move || main_line_of(&owned))
        .map_err(|e| format!("cannot start the SGF parser: {e}"))?;
    worker
        .join()
        .unwrap_or_else(|_| Err("the SGF parser failed on this file".into()))
}

fn main_line_of(text: &str) -> Result<Vec<Vec<Prop>>, String> {
    let mut trees = go::parse(text).map_err(|e| match e {
        sgf_parse::SgfParseError::UnexpectedGameType => "not a game of Go (GM is not 1)".into(),
        e => format!("cannot parse SGF: {e}"),
    })?;
    if trees.is_empty() {
        return Err("the SGF file holds no game".into());
    }
    let mut node = trees.remove(0);
    let mut discard: Vec<SgfNode<Prop>> = trees;
    let mut line = Vec::new();
    loop {
        let mut children = std::mem::take(&mut node.children);
        line.push(std::mem::take(&mut node.properties));
        if children.is_empty() {
            break;
        }
        node = children.remove(0);
        discard.append(&mut children);
    }
    // Free the variations one node at a time.
    while let Some(mut n) = discard.pop() {
        discard.append(&mut n.children);
    }
    Ok(line)
}

/// Counts `;` outside property values: the number of nodes.
fn count_nodes(text: &str) -> usize {
    let mut in_value = false;
    let mut escaped = false;
    let mut count = 0;
    for b in text.bytes() {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
        } else if b == b'[' {
            in_value = true;
        } else if b == b';' {
            count += 1;
        }
    }
    count
}

/// The SGF name of a ruleset for `RU`.
fn rules_name(rules: &Rules) -> &'static str {
    match rules.name {
        "chinese" => "Chinese",
        "japanese" => "Japanese",
        "korean" => "Korean",
        "ancient" => "Ancient Chinese",
        "tromp-taylor" => "Tromp-Taylor",
        other => other,
    }
}

/// The preset a file's `RU` value names: the names [`write`] gives, the common SGF spellings
/// (`Chinese`, `Japanese`, `Korean`, `Ancient Chinese`, case-insensitive) and our preset
/// names. `None` for rules we do not play (`AGA`, `GOE`, `NZ`...).
pub fn rules_named(ru: &str) -> Option<Rules> {
    match ru.trim().to_ascii_lowercase().as_str() {
        "ancient chinese" => Some(Rules::ancient()),
        name => Rules::preset(name).ok(),
    }
}

/// The rules to count or analyse the game `text` under: `chosen` when given, else the preset
/// its root's `RU` names, else Chinese. The second value tells the user when `RU` names rules
/// we do not play (the game is then taken as Chinese: area counting, like most of them).
pub fn rules_for(text: &str, chosen: Option<Rules>) -> Result<(Rules, Option<String>), String> {
    if let Some(rules) = chosen {
        return Ok((rules, None));
    }
    let nodes = parse_main_line(text)?;
    let ru = nodes.first().and_then(|root| {
        root.iter().find_map(|prop| match prop {
            Prop::RU(name) => Some(name.text.clone()),
            _ => None,
        })
    });
    Ok(match ru {
        None => (Rules::chinese(), None),
        Some(name) => match rules_named(&name) {
            Some(rules) => (rules, None),
            None => (
                Rules::chinese(),
                Some(format!(
                    "RU[{name}] is not a ruleset shoutan plays: taken as chinese (--rules to choose)"
                )),
            ),
        },
    })
}

/// The SGF coordinates of `p` (column letter, then row letter counted from the top).
fn sgf_coords(board: &Board, p: Point) -> String {
    let (col, row) = board.col_row(p);
    let y = board.size() - 1 - row;
    format!("{}{}", (b'a' + col as u8) as char, (b'a' + y as u8) as char)
}

/// The SGF value of a move on `board`: its coordinates, or nothing for a pass.
pub fn move_value(board: &Board, mv: Move) -> String {
    match mv {
        Move::Pass => String::new(),
        Move::Play(p) => sgf_coords(board, p),
    }
}

/// Writes `game` as SGF: size, komi, rules, handicap, setup stones, who starts, and every
/// move (passes as `[]`). No line is empty, so the text can be a GTP answer as it is.
pub fn write(game: &Game) -> String {
    let board = game.board();
    let size = board.size();
    debug_assert!(size <= MAX_SIZE);
    let mut out = String::new();
    out.push_str(&format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[shoutan:{}]\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str(&format!(
        "SZ[{size}]KM[{}]RU[{}]",
        game.komi(),
        rules_name(game.rules())
    ));
    if game.handicap() >= 2 {
        out.push_str(&format!("HA[{}]", game.handicap()));
    }
    out.push('\n');
    // The starting position: the last word on each setup point counts.
    let mut start: Vec<Option<Color>> = vec![None; board.array_len()];
    for &(p, c) in game.setup_stones() {
        start[p as usize] = Some(c);
    }
    for c in Color::BOTH {
        let points: Vec<String> = board
            .points()
            .filter(|&p| start[p as usize] == Some(c))
            .map(|p| format!("[{}]", sgf_coords(board, p)))
            .collect();
        if !points.is_empty() {
            out.push_str(if c == Color::Black { "AB" } else { "AW" });
            for chunk in points.chunks(12) {
                out.push_str(&chunk.concat());
                out.push('\n');
            }
        }
    }
    let history = game.history();
    let first = history.first().map_or(game.to_move(), |r| r.color);
    out.push_str(&format!("PL[{}]", first.letter()));
    for (i, record) in history.iter().enumerate() {
        if i % 10 == 0 {
            out.push('\n');
        }
        out.push_str(&format!(
            ";{}[{}]",
            record.color.letter(),
            move_value(board, record.mv)
        ));
    }
    if let Some(last) = history.last()
        && game.to_move() != last.color.opponent()
    {
        out.push_str(&format!(";PL[{}]", game.to_move().letter()));
    }
    out.push_str(")\n");
    out
}

/// Helpers for tests elsewhere in the crate.
#[cfg(test)]
pub(crate) mod test_support {
    use super::{LoadUntil, load};
    use crate::game::Game;
    use crate::rules::Rules;

    /// The game of the record `text` (a file of gtp-scripts/sgf) before move `before`, under
    /// Chinese rules and komi 7.5.
    pub(crate) fn game_before(text: &str, before: usize) -> Game {
        let rules = Rules::chinese();
        let until = LoadUntil::BeforeMove(before);
        load(text, &until, &rules, rules.ko, 7.5).expect("a valid game record")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_all(text: &str) -> Result<Game, String> {
        load(
            text,
            &LoadUntil::End,
            &Rules::chinese(),
            KoRule::Positional,
            7.5,
        )
    }

    fn names(game: &Game, color: Color) -> Vec<String> {
        let b = game.board();
        b.points()
            .filter(|&p| b.cell(p).color() == Some(color))
            .map(|p| b.vertex_name(p))
            .collect()
    }

    #[test]
    fn rules_from_the_root() {
        let named = |text: &str| rules_for(text, None).map(|(r, note)| (r.name, note.is_some()));
        assert_eq!(named("(;SZ[9];B[aa])"), Ok(("chinese", false)));
        assert_eq!(named("(;RU[Japanese])"), Ok(("japanese", false)));
        assert_eq!(named("(;RU[ korean ])"), Ok(("korean", false)));
        assert_eq!(named("(;RU[Ancient Chinese])"), Ok(("ancient", false)));
        assert_eq!(named("(;RU[tromp-taylor])"), Ok(("tromp-taylor", false)));
        // Rules we do not play are counted as Chinese, and the user is told.
        assert_eq!(named("(;RU[AGA])"), Ok(("chinese", true)));
        assert_eq!(
            rules_for("(;RU[AGA])", Some(Rules::japanese())).map(|(r, _)| r.name),
            Ok("japanese")
        );
        assert!(rules_for("(;RU[AGA]", None).is_err());
        // Every name we write reads back as the same preset.
        for name in crate::rules::PRESET_NAMES {
            let rules = Rules::preset(name).unwrap();
            assert_eq!(rules_named(rules_name(&rules)), Some(rules));
        }
    }

    #[test]
    fn until_argument() {
        assert_eq!(LoadUntil::parse(None), Ok(LoadUntil::End));
        assert_eq!(LoadUntil::parse(Some("12")), Ok(LoadUntil::BeforeMove(12)));
        assert_eq!(
            LoadUntil::parse(Some("99999999999999999999999")),
            Ok(LoadUntil::End)
        );
        assert!(LoadUntil::parse(Some("0")).is_err());
        assert!(LoadUntil::parse(Some("-1")).is_err());
        assert!(LoadUntil::parse(Some("2x")).is_err());
        assert_eq!(
            LoadUntil::parse(Some("d4")),
            Ok(LoadUntil::BeforeVertex("d4".into()))
        );
    }

    #[test]
    fn coordinates_count_rows_from_the_top() {
        // SGF "cc" on 9x9 is column C, third row from the top: C7.
        let g = load_all("(;SZ[9];B[cc];W[ai])").unwrap();
        assert_eq!(names(&g, Color::Black), ["C7"]);
        assert_eq!(names(&g, Color::White), ["A1"]);
        assert_eq!(g.to_move(), Color::Black);
    }

    #[test]
    fn move_numbers_count_moves_not_setup_nodes() {
        let text = "(;SZ[9]AB[aa];W[bb];AW[cc];B[];W[dd])";
        let g = load(
            text,
            &LoadUntil::BeforeMove(3),
            &Rules::chinese(),
            KoRule::Positional,
            7.5,
        )
        .unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(names(&g, Color::White), ["C7", "B8"]);
        // Moves before a setup node cannot be taken back.
        assert_eq!(g.move_number(), 1);
    }

    #[test]
    fn setup_properties_and_player_to_move() {
        // AE removes a stone set earlier in the same node; PL names who moves; a node with
        // two moves is refused.
        let g = load_all("(;SZ[5]AB[aa][bb]AW[cc]AE[aa]PL[W])").unwrap();
        assert_eq!(names(&g, Color::Black), ["B4"]);
        assert_eq!(names(&g, Color::White), ["C3"]);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.setup_stones().len(), 2);
        let g = load_all("(;SZ[5]HA[2]AB[aa][ee])").unwrap();
        assert_eq!((g.handicap(), g.to_move()), (2, Color::White));
        assert!(
            load_all("(;SZ[5];B[aa]W[bb])")
                .unwrap_err()
                .contains("more than one move")
        );
        assert!(load_all("(;SZ[5]HA[0];B[aa])").is_ok());
    }

    #[test]
    fn tt_is_a_pass_only_up_to_19x19() {
        let g = load_all("(;SZ[19];B[tt])").unwrap();
        assert_eq!(g.board().stone_count(), 0);
        assert_eq!(g.history()[0].mv, Move::Pass);
        let g = load_all("(;SZ[21];B[tt])").unwrap();
        assert_eq!(names(&g, Color::Black), ["U2"]);
        assert!(load_all("(;SZ[9];B[tt])").is_ok());
        assert!(load_all("(;SZ[9];B[ss])").is_err());
    }

    #[test]
    fn deep_files_do_not_overflow_the_stack() {
        let mut text = String::from("(;SZ[19]");
        for _ in 0..150_000 {
            text.push_str(";C[]");
        }
        text.push_str(";B[aa])");
        let g = load_all(&text).unwrap();
        assert_eq!(g.move_number(), 1);
        let long = "(;SZ[9]".to_string() + &";B[]".repeat(MAX_SGF_MOVES + 1) + ")";
        assert!(load_all(&long).unwrap_err().contains("more than"));
        // Malformed at the very end: the crate's error path frees a deep partial tree
        // recursively (this overflows a normal thread's stack).
        let bad = "(;SZ[19]".to_string() + &";C[]".repeat(MAX_SGF_NODES - 5) + "(C[x]))";
        assert!(load_all(&bad).unwrap_err().contains("cannot parse"));
        text.pop();
        assert!(load_all(&text).is_err());
        let too_many = "(;B[]".to_string() + &";".repeat(MAX_SGF_NODES) + ")";
        assert!(load_all(&too_many).unwrap_err().contains("too many nodes"));
    }

    #[test]
    fn written_games_load_back_identically() {
        let mut g = Game::new(9, Rules::japanese()).unwrap();
        g.set_komi(-2.5);
        g.add_setup_stones(&[(g.board().point(0, 0), Color::White)])
            .unwrap();
        for (v, c) in [
            ("E5", Color::Black),
            ("PASS", Color::White),
            ("C3", Color::Black),
        ] {
            let m = g.board().parse_move(v).unwrap();
            g.play(m, c).unwrap();
        }
        let text = write(&g);
        let back = load(
            &text,
            &LoadUntil::End,
            &Rules::chinese(),
            KoRule::Simple,
            0.0,
        )
        .unwrap();
        assert_eq!(back.board(), g.board());
        assert_eq!(back.komi(), -2.5);
        assert_eq!(back.to_move(), g.to_move());
        assert_eq!(back.move_number(), 3);
        assert_eq!(back.rules().name, "chinese");
        assert!(!text.lines().any(|l| l.trim().is_empty()));
    }
}
