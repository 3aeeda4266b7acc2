//! A game: the board plus everything that depends on history — whose turn it is, the
//! positions seen so far (superko), the moves played and exact undo, handicap and setup stones.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub use crate::board::check_size;
use crate::board::{Board, Cell, Color, Illegal, Move, Point, side_to_move_key};
use crate::rules::{KoRule, Rules};

/// A hasher for keys that are already uniformly random (Zobrist hashes): it passes them through.
#[derive(Default, Clone, Copy)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Hash maps keyed by Zobrist hashes.
pub type ZobristMap<V> = HashMap<u64, V, BuildHasherDefault<ZobristHasher>>;

/// The positions a game has passed through, for superko checks.
///
/// Positional keys are board hashes; situational keys mix in the player to move. Counts (not
/// flags) so that undo can remove exactly what a move added.
#[derive(Clone, Default, Debug)]
pub struct PositionHistory {
    positional: ZobristMap<u32>,
    situational: ZobristMap<u32>,
}

impl PositionHistory {
    /// Records a position with `to_move` to play next.
    pub fn insert(&mut self, hash: u64, to_move: Color) {
        *self.positional.entry(hash).or_insert(0) += 1;
        *self
            .situational
            .entry(hash ^ side_to_move_key(to_move))
            .or_insert(0) += 1;
    }

    /// Forgets one occurrence recorded by [`PositionHistory::insert`].
    pub fn remove(&mut self, hash: u64, to_move: Color) {
        fn dec(map: &mut ZobristMap<u32>, key: u64) {
            if let Some(n) = map.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&key);
                }
            }
        }
        dec(&mut self.positional, hash);
        dec(&mut self.situational, hash ^ side_to_move_key(to_move));
    }

    /// Whether the board position `hash` occurred before (side to move ignored).
    #[inline]
    pub fn seen_position(&self, hash: u64) -> bool {
        self.positional.contains_key(&hash)
    }

    /// Whether the position `hash` occurred before with `to_move` to play.
    #[inline]
    pub fn seen_situation(&self, hash: u64, to_move: Color) -> bool {
        self.situational
            .contains_key(&(hash ^ side_to_move_key(to_move)))
    }

    /// Whether a move producing `new_hash`, after which `next` is to move, repeats a position
    /// under `rule`. Simple ko is the board's business, so it never repeats here.
    #[inline]
    pub fn repeats(&self, rule: KoRule, new_hash: u64, next: Color) -> bool {
        match rule {
            KoRule::Positional => self.seen_position(new_hash),
            KoRule::Situational => self.seen_situation(new_hash, next),
            KoRule::Simple => false,
        }
    }

    /// Number of distinct positions recorded.
    pub fn len(&self) -> usize {
        self.positional.len()
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.positional.is_empty()
    }
}

/// One move of the game record, with the board as it stood before it (for exact undo).
#[derive(Clone, Debug)]
pub struct MoveRecord {
    /// Who played.
    pub color: Color,
    /// What was played.
    pub mv: Move,
    before: Box<Board>,
    to_move_before: Color,
}

/// A game in progress: board, side to move, history, komi and rules.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    to_move: Color,
    rules: Rules,
    ko_rule: KoRule,
    komi: f32,
    handicap: usize,
    /// Setup stones (handicap, 座子, SGF AB/AW) in the order they were placed.
    setup: Vec<(Point, Color)>,
    history: Vec<MoveRecord>,
    positions: PositionHistory,
}

impl Game {
    /// A new game on an empty `size` board (plus the ruleset's setup stones), with the
    /// ruleset's komi and ko rule.
    pub fn new(size: usize, rules: Rules) -> Result<Game, String> {
        check_size(size)?;
        let mut game = Game {
            board: Board::new(size),
            to_move: rules.first_player,
            ko_rule: rules.ko,
            komi: rules.komi,
            rules,
            handicap: 0,
            setup: Vec::new(),
            history: Vec::new(),
            positions: PositionHistory::default(),
        };
        game.clear();
        Ok(game)
    }

    /// Empties the board and history, keeping size, rules, komi and ko rule, then places the
    /// ruleset's setup stones.
    pub fn clear(&mut self) {
        self.board = Board::new(self.board.size());
        self.to_move = self.rules.first_player;
        self.handicap = 0;
        self.setup.clear();
        self.history.clear();
        for (col, row, color) in self.rules.setup_stones(self.board.size()) {
            let p = self.board.point(col, row);
            // Setup points are distinct star points on an empty board: always placeable.
            if self.board.place_setup_stone(p, color).is_ok() {
                self.setup.push((p, color));
            }
        }
        self.reset_positions();
    }

    fn reset_positions(&mut self) {
        self.positions = PositionHistory::default();
        self.positions.insert(self.board.hash(), self.to_move);
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Board size.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// Who plays next.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets who plays next (SGF `PL`, GUIs that set up positions). The current position is
    /// recorded with the new player to move, so situational superko sees what really stands.
    pub fn set_to_move(&mut self, c: Color) {
        if self.history.is_empty() {
            self.to_move = c;
            self.reset_positions();
        } else {
            self.positions.remove(self.board.hash(), self.to_move);
            self.to_move = c;
            self.positions.insert(self.board.hash(), c);
        }
    }

    /// The ruleset.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replaces the ruleset; only allowed before the first move. Resets komi and ko rule to
    /// the new ruleset's and redoes its setup stones.
    pub fn set_rules(&mut self, rules: Rules) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("cannot change rules during a game".into());
        }
        if self.handicap > 0 {
            return Err("cannot change rules after handicap stones are placed".into());
        }
        self.komi = rules.komi;
        self.ko_rule = rules.ko;
        self.rules = rules;
        self.clear();
        Ok(())
    }

    /// The repetition rule in force.
    #[inline]
    pub fn ko_rule(&self) -> KoRule {
        self.ko_rule
    }

    /// Overrides the ruleset's repetition rule.
    pub fn set_ko_rule(&mut self, rule: KoRule) {
        self.ko_rule = rule;
    }

    /// Komi in points.
    #[inline]
    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// Sets komi in points.
    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// Number of handicap stones placed.
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// Setup stones on the board before the first move (handicap, 座子, SGF setup).
    pub fn setup_stones(&self) -> &[(Point, Color)] {
        &self.setup
    }

    /// The moves played so far.
    pub fn history(&self) -> &[MoveRecord] {
        &self.history
    }

    /// Number of moves (passes included) played so far.
    pub fn move_number(&self) -> usize {
        self.history.len()
    }

    /// The positions seen so far, for superko checks during search.
    pub fn positions(&self) -> &PositionHistory {
        &self.positions
    }

    /// Number of passes at the end of the record.
    pub fn trailing_passes(&self) -> usize {
        self.history
            .iter()
            .rev()
            .take_while(|r| r.mv == Move::Pass)
            .count()
    }

    /// Whether two passes in a row have ended the game.
    pub fn is_over(&self) -> bool {
        self.trailing_passes() >= 2
    }

    /// Whether `c` may play `mv` now under every rule, superko included.
    pub fn check_move(&self, mv: Move, c: Color) -> Result<(), Illegal> {
        let Move::Play(p) = mv else {
            return Ok(());
        };
        self.board.check_move(p, c)?;
        if self.ko_rule != KoRule::Simple {
            // A move that repeats a position is forbidden; under superko a ko retake is just
            // one such repetition, so the board's simple-ko flag is subsumed.
            let h = self.board.hash_after(p, c);
            if self.positions.repeats(self.ko_rule, h, c.opponent()) {
                return Err(Illegal::Superko);
            }
        }
        Ok(())
    }

    /// Whether `c` may play `mv` now.
    pub fn is_legal(&self, mv: Move, c: Color) -> bool {
        self.check_move(mv, c).is_ok()
    }

    /// Plays `mv` for `c` (either colour may move: GTP allows two moves of one colour in a row).
    pub fn play(&mut self, mv: Move, c: Color) -> Result<(), Illegal> {
        self.check_move(mv, c)?;
        let record = MoveRecord {
            color: c,
            mv,
            before: Box::new(self.board.clone()),
            to_move_before: self.to_move,
        };
        match mv {
            Move::Pass => self.board.pass(c),
            Move::Play(p) => {
                self.board.play(p, c);
            }
        }
        self.history.push(record);
        self.to_move = c.opponent();
        self.positions.insert(self.board.hash(), self.to_move);
        Ok(())
    }

    /// Takes back the last move exactly (board, hash, prisoners, ko, side to move). Returns
    /// false when there is no move to take back.
    pub fn undo(&mut self) -> bool {
        let Some(record) = self.history.pop() else {
            return false;
        };
        self.positions.remove(self.board.hash(), self.to_move);
        self.board = *record.before;
        self.to_move = record.to_move_before;
        true
    }

    /// Places handicap stones for Black on an empty board; White moves next. Fails (changing
    /// nothing) if the board is not empty, a point repeats, or a stone would have no liberty.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), String> {
        if !self.history.is_empty() || self.board.stone_count() > 0 {
            return Err("board not empty".into());
        }
        if points.len() < 2 {
            return Err("invalid number of stones: at least two stones".into());
        }
        let mut board = self.board.clone();
        for &p in points {
            board
                .place_setup_stone(p, Color::Black)
                .map_err(|e| format!("bad vertex list: {} {e}", self.board.vertex_name(p)))?;
        }
        self.board = board;
        self.setup.extend(points.iter().map(|&p| (p, Color::Black)));
        self.handicap = points.len();
        self.to_move = Color::White;
        self.reset_positions();
        Ok(())
    }

    /// Adds setup stones (SGF AB/AW) before the first move; refuses any that would leave a
    /// chain without liberties.
    pub fn add_setup_stones(&mut self, stones: &[(Point, Color)]) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("setup stones are only allowed before the first move".into());
        }
        let mut board = self.board.clone();
        for &(p, c) in stones {
            if board.cell(p).color() == Some(c) {
                continue;
            }
            board
                .place_setup_stone(p, c)
                .map_err(|e| format!("setup stone {}: {e}", self.board.vertex_name(p)))?;
        }
        self.board = board;
        self.setup.extend_from_slice(stones);
        self.reset_positions();
        Ok(())
    }

    /// Records the handicap count without placing stones (SGF `HA` with explicit `AB`).
    pub fn set_handicap_count(&mut self, n: usize) {
        self.handicap = n;
    }

    /// Makes `stones` the whole starting position, replacing every stone on the board (the
    /// ruleset's 座子 included) before the first move: an SGF file describes its position
    /// completely. Fails, changing nothing, after a move or if a chain would have no liberty.
    /// The handicap count is reset (see [`Game::set_handicap_count`]).
    pub fn set_setup_position(&mut self, stones: &[(Point, Color)]) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("setup stones are only allowed before the first move".into());
        }
        let mut board = Board::new(self.board.size());
        for &(p, c) in stones {
            board.place_setup_stone(p, c).map_err(|e| {
                let why = match e {
                    Illegal::Suicide => "would leave a chain without liberties".to_string(),
                    e => e.to_string(),
                };
                format!("setup stone {}: {why}", self.board.vertex_name(p))
            })?;
        }
        self.board = board;
        self.setup = stones.to_vec();
        self.handicap = 0;
        self.reset_positions();
        Ok(())
    }
}

/// The largest `fixed_handicap` a board of `size` supports (GTP 2 spec §4.1.1): 9 on odd
/// sizes from 9 up, 4 on even sizes from 8 and on 7x7, none below 7x7.
pub fn max_fixed_handicap(size: usize) -> usize {
    if size < 7 {
        0
    } else if size.is_multiple_of(2) || size == 7 {
        4
    } else {
        9
    }
}

/// The GTP 2 spec's fixed handicap points for `n` stones as (col, row), in the spec's order.
pub fn fixed_handicap_points(size: usize, n: usize) -> Result<Vec<(usize, usize)>, String> {
    let max = max_fixed_handicap(size);
    if n < 2 || n > max {
        return Err(if max == 0 {
            format!("invalid number of stones: no fixed handicap on {size}x{size}")
        } else {
            format!("invalid number of stones: {n} (use 2 to {max} on {size}x{size})")
        });
    }
    let edge = if size < 13 { 2 } else { 3 };
    let lo = edge;
    let mid = size / 2;
    let hi = size - 1 - edge;
    // (col, row): lower-left, upper-right, upper-left, lower-right, then sides and centre.
    let order: [(usize, usize); 9] = [
        (lo, lo),
        (hi, hi),
        (lo, hi),
        (hi, lo),
        (mid, mid),
        (lo, mid),
        (hi, mid),
        (mid, lo),
        (mid, hi),
    ];
    let picks: &[usize] = match n {
        2 => &[0, 1],
        3 => &[0, 1, 2],
        4 => &[0, 1, 2, 3],
        5 => &[0, 1, 2, 3, 4],
        6 => &[0, 1, 2, 3, 5, 6],
        7 => &[0, 1, 2, 3, 5, 6, 4],
        8 => &[0, 1, 2, 3, 5, 6, 7, 8],
        _ => &[0, 1, 2, 3, 5, 6, 7, 8, 4],
    };
    Ok(picks.iter().map(|&i| order[i]).collect())
}

/// Where the engine puts `n` free handicap stones: the standard points as far as they go,
/// then, one by one, the point farthest from the stones already placed, preferring the third
/// and fourth lines. Never fills the board: stones that would leave no liberty are skipped,
/// so very large handicaps may come out smaller, as the GTP spec allows.
pub fn free_handicap_points(board: &Board, n: usize) -> Vec<Point> {
    let size = board.size();
    let fixed = n.min(max_fixed_handicap(size));
    let mut placed: Vec<(usize, usize)> = if fixed >= 2 {
        fixed_handicap_points(size, fixed).unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut scratch = board.clone();
    for &(c, r) in &placed {
        let _ = scratch.place_setup_stone(board.point(c, r), Color::Black);
    }
    let line_weight = |i: usize| -> i64 {
        let d = i.min(size - 1 - i);
        match (size >= 9, d) {
            (true, 0) => -40,
            (true, 1) => -15,
            (true, 2) | (true, 3) => 6,
            _ => 0,
        }
    };
    while placed.len() < n {
        let mut best: Option<((usize, usize), i64)> = None;
        for row in 0..size {
            for col in 0..size {
                let p = board.point(col, row);
                if scratch.cell(p) != Cell::Empty
                    || scratch.is_suicide(p, Color::Black)
                    || scratch.empty_neighbors(p) == 0
                {
                    continue;
                }
                let nearest = placed
                    .iter()
                    .map(|&(c, r)| {
                        let (dc, dr) = (c as i64 - col as i64, r as i64 - row as i64);
                        dc * dc + dr * dr
                    })
                    .min()
                    .unwrap_or((size * size) as i64);
                let centre = (2 * col as i64 - size as i64 + 1).abs()
                    + (2 * row as i64 - size as i64 + 1).abs();
                let score = nearest * 8 + line_weight(col) + line_weight(row) - centre;
                if best.is_none_or(|(_, s)| score > s) {
                    best = Some(((col, row), score));
                }
            }
        }
        let Some(((col, row), _)) = best else { break };
        let p = board.point(col, row);
        if scratch.place_setup_stone(p, Color::Black).is_err() {
            break;
        }
        placed.push((col, row));
    }
    placed.into_iter().map(|(c, r)| board.point(c, r)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(g: &Game, name: &str) -> Move {
        g.board().parse_move(name).unwrap()
    }

    #[test]
    fn fixed_handicap_matches_the_gtp_table() {
        let names = |size: usize, n: usize| -> Vec<String> {
            let b = Board::new(size);
            let mut v: Vec<String> = fixed_handicap_points(size, n)
                .unwrap()
                .into_iter()
                .map(|(c, r)| b.vertex_name(b.point(c, r)))
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 3), ["D16", "D4", "Q16"]);
        assert_eq!(names(19, 5), ["D16", "D4", "K10", "Q16", "Q4"]);
        assert_eq!(names(19, 6), ["D10", "D16", "D4", "Q10", "Q16", "Q4"]);
        assert_eq!(
            names(19, 8),
            ["D10", "D16", "D4", "K16", "K4", "Q10", "Q16", "Q4"]
        );
        assert_eq!(names(13, 4), ["D10", "D4", "K10", "K4"]);
        assert_eq!(names(9, 9).len(), 9);
        assert_eq!(names(7, 4), ["C3", "C5", "E3", "E5"]);
        assert!(fixed_handicap_points(7, 5).is_err());
        assert!(fixed_handicap_points(8, 5).is_err());
        assert!(fixed_handicap_points(6, 2).is_err());
        assert!(fixed_handicap_points(19, 1).is_err());
        assert!(fixed_handicap_points(19, 10).is_err());
    }

    #[test]
    fn undo_restores_everything() {
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        let before = g.board().clone();
        g.play(mv(&g, "C3"), Color::Black).unwrap();
        g.play(Move::Pass, Color::White).unwrap();
        assert!(g.undo());
        assert!(g.undo());
        assert!(!g.undo());
        assert_eq!(*g.board(), before);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.positions().len(), 1);
    }

    #[test]
    fn positional_superko_forbids_recreating_a_position() {
        // Simple ko on 5x5: retaking at once recreates the position before the capture.
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        for (v, c) in [
            ("B1", Color::Black),
            ("A2", Color::Black),
            ("B3", Color::Black),
            ("C1", Color::White),
            ("D2", Color::White),
            ("C3", Color::White),
            ("B2", Color::White),
            ("C2", Color::Black),
        ] {
            g.play(mv(&g, v), c).unwrap();
        }
        assert!(!g.is_legal(mv(&g, "B2"), Color::White));
        g.set_ko_rule(KoRule::Simple);
        assert_eq!(g.check_move(mv(&g, "B2"), Color::White), Err(Illegal::Ko));
    }

    #[test]
    fn changing_the_player_to_move_rerecords_the_position() {
        // Black captures at C2 and White passes; then the GUI says Black is to move again.
        // Under situational superko the position "after C2, White to move" must be the only
        // one recorded for that board with White to move.
        let mut g = Game::new(5, Rules::chinese()).unwrap();
        g.set_ko_rule(KoRule::Situational);
        g.play(mv(&g, "C3"), Color::Black).unwrap();
        g.set_to_move(Color::Black);
        let h = g.board().hash();
        assert!(g.positions().seen_situation(h, Color::Black));
        assert!(!g.positions().seen_situation(h, Color::White));
        assert!(g.undo());
        assert_eq!(g.to_move(), Color::Black);
        assert!(!g.positions().seen_position(h));
        assert_eq!(g.positions().len(), 1);
    }

    #[test]
    fn handicap_needs_an_empty_board() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let pts: Vec<Point> = fixed_handicap_points(9, 3)
            .unwrap()
            .into_iter()
            .map(|(c, r)| g.board().point(c, r))
            .collect();
        g.place_handicap(&pts).unwrap();
        assert_eq!(g.handicap(), 3);
        assert_eq!(g.to_move(), Color::White);
        assert!(g.place_handicap(&pts).is_err());
    }
}
