//! Local life-and-death reading of one chain: whether the opponent, moving first, can
//! capture it or leave it without two eyes, and whether a move of the owner prevents that.
//!
//! The playouts judge eye space on the edge badly: in the 19x19 games against Pachi a group
//! the opponent killed with one move lived in four playouts of five, and the search left it
//! to die (docs/strength.md). A person reads such a group out before playing elsewhere;
//! [`crate::search::Searcher::decide`] does so with this reader.
//!
//! The reading is a small proof search. Both sides play only near the chain: its
//! liberties, the empty points next to those, the liberties of the opponent's chains
//! touching it that have few liberties (a capturing race), and those of the owner's chains
//! short of liberties that touch them (the race's other front). A line ends when the chain is
//! captured, is shut in without room for two eyes (its group's eye space, [`EyeSpace`]),
//! has [`FREE_LIBERTIES`] liberties (it has escaped or has room for two eyes), or has two
//! true eyes. A line longer than [`MAX_PLIES`] or a reading larger than its budget
//! counts as the chain living, so a kill is only reported when it was read to its end: the
//! reader may miss kills, and it may call a chain dead that lives by a move it does not
//! look at (far away, or by connecting out through a stone it does not see).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use crate::board::{Board, Cell, Color, MAX_POINTS, NO_POINT, Point, side_to_move_key};
use crate::score::area::flood_region;
use crate::tactics::{adjacent_chains, capture_count, chain_liberties};

/// Liberties at which a chain counts as living: it has escaped, or has room for two eyes.
pub const FREE_LIBERTIES: usize = 6;
/// Longest line read, in moves of both sides.
const MAX_PLIES: usize = 20;
/// Positions a reading for a kill may visit (about two microseconds each on 19x19): enough
/// for the kill on the top edge of `gtp-scripts/search_big_groups.gtp` (about 50,000).
pub const KILL_BUDGET: u32 = 80_000;
/// Positions a reading for a saving move may visit: a save must be read to its end, and
/// proving that no attack works costs more than finding one that does (about 125,000 for
/// the save on the top edge of `gtp-scripts/search_big_groups.gtp`).
pub const SAVE_BUDGET: u32 = 250_000;
/// Positions each reading of the `shoutan-group_status` command may visit: a person asking
/// about a group can wait a second or two for a deeper answer (the kill on the top edge of
/// `gtp-scripts/life_status.gtp` needs about 300,000 before Black's move).
pub const ANALYSIS_BUDGET: u32 = 600_000;
/// Depth of the first of the ever deeper readings ([`LifeReader::deepening`]).
const FIRST_PLIES: usize = 6;
/// How much deeper each next reading goes.
const PLIES_STEP: usize = 4;
/// Moves tried in a position, best first by [`move_order`].
const MAX_MOVES: usize = 12;
/// An opponent chain touching ours with at most this many liberties is in a race with it:
/// its liberties are candidate moves for both sides.
const RACE_LIBERTIES: usize = 3;
/// An owner's chain with at most this many liberties touching an opponent chain in the race
/// is read too: its liberties are candidate moves (to capture it, or to save it).
const SUPPORT_LIBERTIES: usize = 2;
/// Room for the candidate moves before they are cut to [`MAX_MOVES`].
const MOVE_ROOM: usize = 48;
/// Positions read between two looks at the clock (about two milliseconds on 19x19).
const CLOCK_EVERY: u32 = 1024;

/// The reader and its scratch boards, kept between readings so a reading allocates only
/// when it goes deeper than any before.
pub struct LifeReader {
    /// `boards[d]` holds the position `d` moves into the reading.
    boards: Vec<Board>,
    /// Positions the current reading may still visit.
    budget: u32,
    /// Positions each reading may visit; beyond them the chain counts as living.
    budget_per_reading: u32,
    /// Positions already read in this reading, by [`position_key`]: whether the chain was
    /// killed there, and the plies the reading had left (a kill holds with more plies, a
    /// life with fewer).
    known: HashMap<u64, (bool, u8), BuildHasherDefault<KeyHasher>>,
    /// The move that last decided a position at each depth of this reading (a kill for the
    /// attacker, a life for the owner), tried first in the next position at that depth: the
    /// same answer usually refutes the other side's alternatives.
    killers: [Point; MAX_PLIES + 2],
    /// Scratch marks of the eye-space judgement at the end of a line.
    eyes: EyeSpace,
    /// When the readings must stop, as if out of positions: the move's time runs out then.
    deadline: Option<Instant>,
}

/// The hasher of [`LifeReader::known`]: its keys are Zobrist hashes already, as random as a
/// hash function would make them.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// How a line of the reading stands for the chain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// Taken off the board, or shut in without room for two eyes ([`EyeSpace::is_dead`]).
    Captured,
    Lives,
    Open,
}

impl LifeReader {
    /// A reader with no scratch boards yet.
    pub fn new(budget: u32) -> LifeReader {
        LifeReader {
            boards: Vec::new(),
            budget: 0,
            budget_per_reading: budget,
            known: HashMap::default(),
            killers: [NO_POINT; MAX_PLIES + 2],
            eyes: EyeSpace::new(),
            deadline: None,
        }
    }

    /// The same reader, stopping its readings at `deadline` as if out of positions (so a
    /// kill found holds, and one not found may be missed): the reading after a move's
    /// search must not overrun the move's time.
    pub fn until(mut self, deadline: Option<Instant>) -> LifeReader {
        self.deadline = deadline;
        self
    }

    /// Counts one position read against the budget; past the deadline, spends it all.
    fn spend(&mut self) {
        self.budget -= 1;
        if self.budget.is_multiple_of(CLOCK_EVERY) && self.past_deadline() {
            self.budget = 0;
        }
    }

    /// Whether the deadline has passed.
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The opponent's move that kills the chain through `stone` when the opponent moves
    /// first, if the reading finds one; `None` also for an empty point.
    /// [`NO_POINT`] (a pass) when the chain is dead as it stands: shut in without room
    /// for two eyes.
    pub fn killing_move(&mut self, board: &Board, stone: Point) -> Option<Point> {
        let owner = board.cell(stone).color()?;
        match outcome(board, stone, owner, Some(&mut self.eyes)) {
            Outcome::Captured => return Some(NO_POINT),
            Outcome::Lives => return None,
            Outcome::Open => {}
        }
        self.start(board);
        self.deepening(|r, plies| r.attack(0, stone, owner, plies))
    }

    /// The owner's move that keeps the chain through `stone` alive against every attack
    /// the reading finds (of a chain [`LifeReader::killing_move`] finds a kill of): `None`
    /// when no move does, when a pass does, or when the reading ran out of positions before
    /// it was complete (a shallower reading favours the owner: it stops before the kill).
    pub fn saving_move(&mut self, board: &Board, stone: Point) -> Option<Point> {
        let owner = board.cell(stone).color()?;
        if outcome(board, stone, owner, None) == Outcome::Lives {
            return None;
        }
        self.start(board);
        let mut plies = FIRST_PLIES;
        loop {
            let lives = self.defend(0, stone, owner, plies);
            if self.budget == 0 || !lives {
                return None;
            }
            if plies >= MAX_PLIES {
                return Some(self.killers[0]).filter(|&p| p != NO_POINT);
            }
            plies = (plies + PLIES_STEP).min(MAX_PLIES);
        }
    }

    /// `attack` read ever deeper up to [`MAX_PLIES`], until it finds a kill: a short kill
    /// costs little, and the positions read stay known for the deeper readings.
    fn deepening(
        &mut self,
        mut attack: impl FnMut(&mut LifeReader, usize) -> Option<Point>,
    ) -> Option<Point> {
        let mut plies = FIRST_PLIES;
        loop {
            let found = attack(self, plies);
            if found.is_some() || plies >= MAX_PLIES || self.budget == 0 {
                return found;
            }
            plies = (plies + PLIES_STEP).min(MAX_PLIES);
        }
    }

    /// Resets the budget (none left past the deadline), the table and the killers, and puts
    /// `board` in the first position.
    fn start(&mut self, board: &Board) {
        self.budget = if self.past_deadline() {
            0
        } else {
            self.budget_per_reading
        };
        self.known.clear();
        self.killers = [NO_POINT; MAX_PLIES + 2];
        if self
            .boards
            .first()
            .is_some_and(|b| b.size() != board.size())
        {
            self.boards.clear();
        }
        if self.boards.is_empty() {
            self.boards.push(Board::new(board.size()));
        }
        self.boards[0].copy_from(board);
    }

    /// Position `d + 1` as `d` after `mover` plays `p`, if that is legal there.
    fn step(&mut self, d: usize, p: Point, mover: Color) -> bool {
        if self.boards.len() <= d + 1 {
            let size = self.boards[0].size();
            self.boards.push(Board::new(size));
        }
        let (here, after) = self.boards.split_at_mut(d + 1);
        if p != NO_POINT && !here[d].is_legal(p, mover) {
            return false;
        }
        after[0].copy_from(&here[d]);
        if p == NO_POINT {
            after[0].pass(mover);
        } else {
            after[0].play(p, mover);
        }
        true
    }

    /// The attacker to move in position `d`: a move after which the chain through `stone`
    /// is captured or cannot be saved, if one is read out within `plies`.
    fn attack(&mut self, d: usize, stone: Point, owner: Color, plies: usize) -> Option<Point> {
        if plies == 0 || self.budget == 0 {
            return None;
        }
        let attacker = owner.opponent();
        let key = position_key(&self.boards[d], attacker);
        match self.known.get(&key) {
            Some(&(true, p)) if plies >= p as usize => return Some(NO_POINT),
            Some(&(false, p)) if plies <= p as usize => return None,
            _ => {}
        }
        let found = self.attack_moves(d, stone, owner, plies);
        if self.budget > 0 {
            self.known.insert(key, (found.is_some(), plies as u8));
        }
        found
    }

    /// [`LifeReader::attack`] past its table of known positions.
    fn attack_moves(
        &mut self,
        d: usize,
        stone: Point,
        owner: Color,
        plies: usize,
    ) -> Option<Point> {
        self.spend();
        let attacker = owner.opponent();
        let mut moves = [NO_POINT; MAX_MOVES];
        let n = candidate_moves(&self.boards[d], stone, attacker, &mut moves);
        promote(&mut moves[..n], self.killers[d]);
        for &p in &moves[..n] {
            if !self.step(d, p, attacker) {
                continue;
            }
            let killed = match outcome(&self.boards[d + 1], stone, owner, None) {
                Outcome::Captured => true,
                Outcome::Lives => false,
                Outcome::Open => !self.defend(d + 1, stone, owner, plies - 1),
            };
            if killed {
                self.killers[d] = p;
                return Some(p);
            }
            if self.budget == 0 {
                return None;
            }
        }
        None
    }

    /// The owner to move in position `d`: whether some move (or a pass) keeps the chain
    /// through `stone` alive against every attack read within `plies`.
    fn defend(&mut self, d: usize, stone: Point, owner: Color, plies: usize) -> bool {
        if plies == 0 || self.budget == 0 {
            return true;
        }
        let key = position_key(&self.boards[d], owner);
        match self.known.get(&key) {
            Some(&(true, p)) if plies >= p as usize => return false,
            Some(&(false, p)) if plies <= p as usize => return true,
            _ => {}
        }
        let lives = self.defend_moves(d, stone, owner, plies);
        if self.budget > 0 {
            self.known.insert(key, (!lives, plies as u8));
        }
        lives
    }

    /// [`LifeReader::defend`] past its table of known positions.
    fn defend_moves(&mut self, d: usize, stone: Point, owner: Color, plies: usize) -> bool {
        self.spend();
        let mut moves = [NO_POINT; MAX_MOVES + 1];
        let n = candidate_moves(&self.boards[d], stone, owner, &mut moves[..MAX_MOVES]);
        promote(&mut moves[..n], self.killers[d]);
        // Last, a pass: in a seki every local move of the owner may be its own undoing.
        moves[n] = NO_POINT;
        for &p in &moves[..=n] {
            if !self.step(d, p, owner) {
                continue;
            }
            let after = &self.boards[d + 1];
            // A move that leaves the chain in atari without capturing anything only helps
            // the attacker.
            if p != NO_POINT
                && after.cell(stone) == Cell::stone(owner)
                && after.liberties(stone) == 1
                && after.prisoners(owner) == self.boards[d].prisoners(owner)
            {
                continue;
            }
            let lives = match outcome(after, stone, owner, Some(&mut self.eyes)) {
                Outcome::Captured => false,
                Outcome::Lives => true,
                Outcome::Open => self.attack(d + 1, stone, owner, plies - 1).is_none(),
            };
            if lives {
                self.killers[d] = p;
            }
            if lives || self.budget == 0 {
                return true;
            }
        }
        false
    }
}

/// The key of `board` with `mover` to move in [`LifeReader::known`]: the stones, the side
/// to move and the point a simple ko forbids.
fn position_key(board: &Board, mover: Color) -> u64 {
    let ko = board
        .ko()
        .map_or(0, |(p, _)| u64::from(p).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    board.hash() ^ side_to_move_key(mover) ^ ko
}

/// How the chain through `stone` of `owner` stands on `board`. With `eyes`, a group shut in
/// without room for two eyes counts as captured ([`EyeSpace`]); the reader asks that only
/// with the attacker to move, so the owner has had his move to make the second eye or to
/// start taking the stones around.
fn outcome(board: &Board, stone: Point, owner: Color, eyes: Option<&mut EyeSpace>) -> Outcome {
    if board.cell(stone) != Cell::stone(owner) {
        return Outcome::Captured;
    }
    if true_eyes(board, stone, owner) >= 2 {
        return Outcome::Lives;
    }
    if eyes.is_some_and(|e| e.is_dead(board, stone, owner)) {
        return Outcome::Captured;
    }
    if board.liberties(stone) >= FREE_LIBERTIES {
        return Outcome::Lives;
    }
    Outcome::Open
}

/// Most chains of the owner taken as one group by [`EyeSpace::is_dead`].
const GROUP_CHAINS: usize = 8;
/// Empty points next to the group and the opponent's stones beyond which it counts as having
/// room to run or to make eyes.
const SHARED_ROOM: usize = 4;
/// Empty points next to the group that the opponent does not touch beyond which they count
/// as room for two eyes.
const EYE_ROOM: usize = 3;

/// The eye-space judgement that ends a line before the capture: a group shut in by the
/// opponent, with no room to run and eye space for one eye at most, is dead, however many
/// liberties its stones still have (a reading of 20 moves cannot fill them all).
///
/// The group is the chain and the owner's chains that share a liberty with it. Its empty
/// surroundings split into regions of empty points: a region the opponent touches gives no
/// eye, one he does not touch gives one (a true eye of one point, or two points), one and a
/// half (three points: the vital point decides) or two (more). The group is dead when every
/// region the opponent touches is small (no room to run), the eyes add up to at most one,
/// and every opponent chain next to it has more liberties than the group (else it is a
/// capturing race, which the reading plays out: the shutting wall may be the one to die).
struct EyeSpace {
    /// `mark[p] == epoch` for the points already counted in this judgement.
    mark: Vec<u32>,
    epoch: u32,
    /// The points of the region being flooded ([`flood_region`]).
    region: Box<[Point; MAX_POINTS]>,
}

impl EyeSpace {
    fn new() -> EyeSpace {
        EyeSpace {
            mark: vec![0; MAX_POINTS],
            epoch: 0,
            region: Box::new([NO_POINT; MAX_POINTS]),
        }
    }

    /// Whether the group of the chain through `stone` of `owner` is shut in without room
    /// for two eyes (see [`EyeSpace`]).
    fn is_dead(&mut self, board: &Board, stone: Point, owner: Color) -> bool {
        self.next_epoch();
        let own = Cell::stone(owner);
        let opp = Cell::stone(owner.opponent());
        // The group: chains joined through a shared liberty.
        let mut group = [NO_POINT; GROUP_CHAINS];
        group[0] = board.chain_id(stone);
        let mut n = 1;
        let mut i = 0;
        let mut liberties = 0;
        while i < n {
            for s in board.chain_stones(group[i]) {
                for l in board.neighbors(s) {
                    if board.cell(l) != Cell::Empty || self.mark[l as usize] == self.epoch {
                        continue;
                    }
                    self.mark[l as usize] = self.epoch;
                    liberties += 1;
                    for q in board.neighbors(l) {
                        if board.cell(q) != own {
                            continue;
                        }
                        let h = board.chain_id(q);
                        if !group[..n].contains(&h) {
                            if n == GROUP_CHAINS {
                                return false;
                            }
                            group[n] = h;
                            n += 1;
                        }
                    }
                }
            }
            i += 1;
        }
        // No opponent chain next to it may be as short of liberties as the group: a capturing
        // race, which the reading plays out.
        for &h in &group[..n] {
            for s in board.chain_stones(h) {
                for q in board.neighbors(s) {
                    if board.cell(q) == opp && board.liberties(q) <= liberties {
                        return false;
                    }
                }
            }
        }
        // The regions, flooded from the group's liberties (marked above: flood anew).
        self.next_epoch();
        let mut half_eyes = 0;
        for &h in &group[..n] {
            for s in board.chain_stones(h) {
                for l in board.neighbors(s) {
                    if board.cell(l) != Cell::Empty || self.mark[l as usize] == self.epoch {
                        continue;
                    }
                    let Some((size, shared)) = self.region(board, l, opp) else {
                        return false;
                    };
                    half_eyes += match (shared, size) {
                        (true, _) => 0,
                        (false, 1) if board.is_playout_eye(l, owner) => 2,
                        (false, 1) => 0,
                        (false, 2) => 2,
                        (false, 3) => 3,
                        (false, _) => return false,
                    };
                    if half_eyes > 2 {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Starts a new set of marks.
    fn next_epoch(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.fill(0);
            self.epoch = 1;
        }
    }

    /// The empty region through `start`: its size and whether an `opp` stone touches it;
    /// `None` when it is bigger than the room that counts as open (the flood stops there).
    fn region(&mut self, board: &Board, start: Point, opp: Cell) -> Option<(usize, bool)> {
        let room = SHARED_ROOM.max(EYE_ROOM);
        let (mark, epoch) = (&mut self.mark, self.epoch);
        mark[start as usize] = epoch;
        let mut entered = 1;
        let (size, touches) = flood_region(
            board,
            start,
            &mut self.region,
            |q| board.cell(q).color(),
            |q| {
                if board.cell(q) != Cell::Empty || mark[q as usize] == epoch || entered > room {
                    return false;
                }
                mark[q as usize] = epoch;
                entered += 1;
                true
            },
        );
        let shared = opp.color().is_some_and(|c| touches[c.index()]);
        if size > room || shared && size > SHARED_ROOM || !shared && size > EYE_ROOM {
            return None;
        }
        Some((size, shared))
    }
}

/// Liberties of the chain through `stone` that are true eyes of `owner`: every neighbour is
/// an own stone (or the edge) in a chain that is not in atari, and the opponent holds at
/// most one diagonal in the centre, none on the edge.
fn true_eyes(board: &Board, stone: Point, owner: Color) -> usize {
    let mut libs = [NO_POINT; FREE_LIBERTIES];
    let n = chain_liberties(board, stone, &mut libs);
    libs[..n]
        .iter()
        .filter(|&&p| {
            board.is_playout_eye(p, owner)
                && board
                    .neighbors(p)
                    .iter()
                    .all(|&q| board.cell(q) != Cell::stone(owner) || board.liberties(q) >= 2)
        })
        .count()
}

/// The moves `mover` may try around the chain through `stone`, best first by
/// [`move_order`], written to `out` (at most its length); returns how many.
fn candidate_moves(board: &Board, stone: Point, mover: Color, out: &mut [Point]) -> usize {
    let owner = match board.cell(stone).color() {
        Some(c) => c,
        None => return 0,
    };
    let mut room = [NO_POINT; MOVE_ROOM];
    let mut n = 0;
    let add = |p: Point, room: &mut [Point; MOVE_ROOM], n: &mut usize| {
        if *n < MOVE_ROOM && board.cell(p) == Cell::Empty && !room[..*n].contains(&p) {
            room[*n] = p;
            *n += 1;
        }
    };
    let mut libs = [NO_POINT; FREE_LIBERTIES];
    let nl = chain_liberties(board, stone, &mut libs);
    for &l in &libs[..nl] {
        add(l, &mut room, &mut n);
    }
    for &l in &libs[..nl] {
        for q in board.neighbors(l) {
            add(q, &mut room, &mut n);
        }
    }
    // The liberties of opponent chains in a race with ours.
    let mut raced = [NO_POINT; MOVE_ROOM];
    let mut nr = 0;
    for s in board.chain_stones(stone) {
        let (heads, k) = adjacent_chains(board, s, owner.opponent());
        for &h in &heads[..k] {
            if nr < MOVE_ROOM && !raced[..nr].contains(&h) {
                raced[nr] = h;
                nr += 1;
            }
        }
    }
    // And of the owner's other chains short of liberties that touch those: capturing or
    // saving them decides the race (the opponent's wall in atari from behind).
    let head = board.chain_id(stone);
    for &h in &raced[..nr] {
        if board.liberties(h) > RACE_LIBERTIES {
            continue;
        }
        add_liberties(board, h, RACE_LIBERTIES, &mut |l| add(l, &mut room, &mut n));
        for s in board.chain_stones(h) {
            let (heads, k) = adjacent_chains(board, s, owner);
            for &o in &heads[..k] {
                if o != head && board.liberties(o) <= SUPPORT_LIBERTIES {
                    add_liberties(board, o, SUPPORT_LIBERTIES, &mut |l| {
                        add(l, &mut room, &mut n)
                    });
                }
            }
        }
    }
    let moves = &mut room[..n];
    moves.sort_by_key(|&p| std::cmp::Reverse(move_order(board, p, stone, mover)));
    let k = n.min(out.len());
    out[..k].copy_from_slice(&moves[..k]);
    k
}

/// Moves `first` to the front of `moves` if it is among them, the rest keeping their order.
fn promote(moves: &mut [Point], first: Point) {
    if let Some(i) = moves.iter().position(|&p| p == first) {
        moves[..=i].rotate_right(1);
    }
}

/// Calls `each` on the liberties of the chain through `stone`, up to `most` of them.
fn add_liberties(board: &Board, stone: Point, most: usize, each: &mut impl FnMut(Point)) {
    let mut libs = [NO_POINT; FREE_LIBERTIES];
    let k = chain_liberties(board, stone, &mut libs[..most.min(FREE_LIBERTIES)]);
    for &l in &libs[..k] {
        each(l);
    }
}

/// How promising `p` is for `mover` in the reading of the chain through `stone`: captures
/// first, then the chain's liberties, then points with room around them (the vital point
/// of an eye space has the most).
fn move_order(board: &Board, p: Point, stone: Point, mover: Color) -> u32 {
    let captures = capture_count(board, p, mover) as u32;
    let head = board.chain_id(stone);
    let liberty = board
        .neighbors(p)
        .iter()
        .any(|&q| matches!(board.cell(q), Cell::Black | Cell::White) && board.chain_id(q) == head);
    16 * captures.min(4) + 4 * u32::from(liberty) + board.empty_neighbors(p) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn at(board: &Board, name: &str) -> Point {
        match board.parse_move(name) {
            Ok(Move::Play(p)) => p,
            other => panic!("{name}: {other:?}"),
        }
    }

    /// Positions a test reading may visit: far more than these need.
    const TEST_BUDGET: u32 = 100_000;

    /// White's five stones in the corner enclose three points in a row on the first line,
    /// Black around them: the middle point B1 is the vital point for both sides.
    const STRAIGHT_THREE: [&str; 7] = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "X X X X X . .",
        "O O O O X . .",
        ". . . O X . .",
    ];

    /// The same with four points in a row: alive whoever moves first.
    const STRAIGHT_FOUR: [&str; 7] = [
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        "X X X X X X .",
        "O O O O O X .",
        ". . . . O X .",
    ];

    #[test]
    fn the_vital_point_of_a_straight_three_kills_and_saves() {
        let b = Board::from_diagram(&STRAIGHT_THREE).unwrap();
        let group = at(&b, "A2");
        let mut reader = LifeReader::new(TEST_BUDGET);
        assert_eq!(reader.killing_move(&b, group), Some(at(&b, "B1")));
        assert_eq!(reader.saving_move(&b, group), Some(at(&b, "B1")));
        // After a move far away, B1 still kills; after White's A1 or C1 the two points
        // left make one eye, and either kills.
        let mut after = b.clone();
        after.play(at(&b, "G7"), Color::White);
        assert_eq!(reader.killing_move(&after, group), Some(at(&b, "B1")));
        for name in ["A1", "C1"] {
            let mut after = b.clone();
            after.play(at(&b, name), Color::White);
            assert!(reader.killing_move(&after, group).is_some(), "{name}");
        }
    }

    #[test]
    fn a_reading_past_its_deadline_reads_nothing() {
        let b = Board::from_diagram(&STRAIGHT_THREE).unwrap();
        let group = at(&b, "A2");
        let past = Some(Instant::now());
        let mut late = LifeReader::new(TEST_BUDGET).until(past);
        assert_eq!(late.killing_move(&b, group), None);
        assert_eq!(late.saving_move(&b, group), None);
        let far = Instant::now().checked_add(std::time::Duration::from_secs(3600));
        let mut early = LifeReader::new(TEST_BUDGET).until(far);
        assert_eq!(early.killing_move(&b, group), Some(at(&b, "B1")));
        assert_eq!(early.saving_move(&b, group), Some(at(&b, "B1")));
    }

    #[test]
    fn a_straight_four_lives_whoever_moves_first() {
        let b = Board::from_diagram(&STRAIGHT_FOUR).unwrap();
        let mut reader = LifeReader::new(TEST_BUDGET);
        assert_eq!(reader.killing_move(&b, at(&b, "A2")), None);
        // Black's corner wall has liberties to spare.
        assert_eq!(reader.killing_move(&b, at(&b, "A3")), None);
    }

    #[test]
    fn a_chain_in_atari_is_killed_by_the_capture() {
        // White's three stones on the edge have one liberty, C1.
        let b = Board::from_diagram(&[
            ". . . . .",
            ". . . . .",
            "X X X X .",
            "O O O X .",
            "X X . X .",
        ])
        .unwrap();
        let mut reader = LifeReader::new(TEST_BUDGET);
        assert_eq!(reader.killing_move(&b, at(&b, "A2")), Some(at(&b, "C1")));
        assert_eq!(
            reader.saving_move(&b, at(&b, "A2")),
            None,
            "C1 is suicide for White"
        );
    }

    /// White on the first two lines under Black's wall: six liberties, four of them single
    /// points against the wall, and one eye of two points in the corner (K1, L1).
    const SHUT_IN_ONE_EYE: [&str; 11] = [
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        "X X X X X X X X X X X",
        "O . O . O . O . O O O",
        "O O O O O O O O O . .",
    ];

    #[test]
    fn a_group_shut_in_with_one_eye_is_dead_before_it_is_short_of_liberties() {
        let b = Board::from_diagram(&SHUT_IN_ONE_EYE).unwrap();
        let white = at(&b, "A1");
        assert_eq!(b.liberties(white), 6);
        let mut reader = LifeReader::new(TEST_BUDGET);
        assert_eq!(
            reader.killing_move(&b, white),
            Some(NO_POINT),
            "dead as it stands"
        );
        assert_eq!(
            reader.saving_move(&b, white),
            None,
            "no move makes a second eye"
        );
        // Black's wall, with eleven liberties above it, lives.
        assert_eq!(reader.killing_move(&b, at(&b, "A3")), None);
    }

    #[test]
    fn a_second_eye_or_a_wall_short_of_liberties_keeps_the_group_alive() {
        // A second eye of two points at the other end (A1, B1).
        let mut rows = SHUT_IN_ONE_EYE;
        rows[9] = "O O O . O . O . O O O";
        rows[10] = ". . O O O O O O O . .";
        let b = Board::from_diagram(&rows).unwrap();
        let mut reader = LifeReader::new(TEST_BUDGET);
        assert_eq!(reader.killing_move(&b, at(&b, "C1")), None);
        // One eye, but White above Black's wall leaves it five liberties, fewer than the
        // group's six: a race the eye-space judgement leaves to the reading.
        let mut rows = SHUT_IN_ONE_EYE;
        rows[7] = "O O O O O O O O O O .";
        let b = Board::from_diagram(&rows).unwrap();
        assert_eq!(b.liberties(at(&b, "A3")), 5);
        assert!(!reader.eyes.is_dead(&b, at(&b, "A1"), Color::White));
        // The same eye of three points is left to the reading too (its vital point decides).
        let mut rows = SHUT_IN_ONE_EYE;
        rows[10] = "O O O O O O O O . . .";
        rows[9] = "O . O . O . O . O O O";
        let b = Board::from_diagram(&rows).unwrap();
        assert!(!reader.eyes.is_dead(&b, at(&b, "A1"), Color::White));
    }

    #[test]
    fn the_moves_looked_at_are_the_liberties_and_their_neighbours() {
        let b = Board::from_diagram(&STRAIGHT_THREE).unwrap();
        let mut out = [NO_POINT; MAX_MOVES];
        let n = candidate_moves(&b, at(&b, "A2"), Color::Black, &mut out);
        let mut names: Vec<String> = out[..n].iter().map(|&p| b.vertex_name(p)).collect();
        assert_eq!(names[0], "B1", "the vital point first");
        names.sort();
        assert_eq!(names, ["A1", "B1", "C1"]);
    }
}
