//! How well the playouts judge a position: their ownership of each point, from positions of
//! finished games, against who owned it when the game was counted (`shoutan bench-playouts`).
//!
//! A search can only be as good as its playouts' judgement, and on big boards that judgement
//! is where games are lost (a group the playouts keep alive that dies, an open area given to
//! the wrong side). Game records of strong players that were played out to a count give an
//! independent answer for every point: the final position, its dead stones judged by the
//! referee ([`crate::score::final_count`]), counted by area. Mean squared error of the
//! playouts' ownership (+1 Black, −1 White) against that answer is 0 for a perfect judge
//! and 1 for one that says nothing.

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};
use crate::game::Game;
use crate::playout::Policy;
use crate::rules::Rules;
use crate::score::area::{DeadStones, Owners, settled_area};
#[cfg(test)]
use crate::score::ownership::OwnershipTally;
use crate::score::{Ownership, StoneStatus, final_count};
use crate::search::params::Params;
use crate::sgf::{self, LoadUntil};

/// The kinds of point scored apart: empty points, and stones by the size of their chain.
pub const CLASSES: [&str; 5] = [
    "empty points",
    "stones, chains of 1",
    "stones, chains of 2-3",
    "stones, chains of 4-9",
    "stones, chains of 10+",
];

/// Sums for one kind of point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClassTally {
    /// Points scored.
    pub points: u64,
    /// Sum of squared errors of the ownership against the final owner.
    pub squared_error: f64,
    /// Points with an owner at the end (not shared).
    pub owned: u64,
    /// Sum, over owned points, of the ownership given to their final owner (−1..1).
    pub owner_share: f64,
}

impl ClassTally {
    /// Mean squared error (0 perfect, 1 no opinion).
    pub fn mse(&self) -> f64 {
        self.squared_error / self.points.max(1) as f64
    }

    /// Mean ownership given to the final owner, over owned points (1 perfect).
    pub fn mean_owner_share(&self) -> f64 {
        self.owner_share / self.owned.max(1) as f64
    }

    fn add(&mut self, predicted: f64, truth: f64) {
        self.points += 1;
        self.squared_error += (predicted - truth) * (predicted - truth);
        if truth != 0.0 {
            self.owned += 1;
            self.owner_share += predicted * truth;
        }
    }
}

/// The measurement over many positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnershipAccuracy {
    /// Positions judged.
    pub positions: usize,
    /// Games they came from.
    pub games: usize,
    /// Sums by kind of point, in the order of [`CLASSES`].
    pub classes: [ClassTally; 5],
    /// Stones alive at the end: the ownership the playouts gave their colour.
    pub alive: ClassTally,
    /// Stones dead at the end: the same (−1 perfect).
    pub dead: ClassTally,
}

impl OwnershipAccuracy {
    /// All points together.
    pub fn total(&self) -> ClassTally {
        let mut t = ClassTally::default();
        for c in &self.classes {
            t.points += c.points;
            t.squared_error += c.squared_error;
            t.owned += c.owned;
            t.owner_share += c.owner_share;
        }
        t
    }

    /// Scores one position: `ownership` from the playouts against the final `owners`.
    pub fn add_position(&mut self, board: &Board, ownership: &Ownership, owners: &Owners) {
        let sizes = chain_sizes(board);
        for p in board.points() {
            let predicted = ownership.black(p) as f64;
            let truth = match owners[p as usize] {
                Cell::Black => 1.0,
                Cell::White => -1.0,
                _ => 0.0,
            };
            let class = match board.cell(p).color() {
                None => 0,
                Some(c) => {
                    let own = if c == Color::Black { 1.0 } else { -1.0 };
                    let stone = if truth == own {
                        &mut self.alive
                    } else {
                        &mut self.dead
                    };
                    if truth != 0.0 {
                        stone.points += 1;
                        stone.owned += 1;
                        stone.owner_share += predicted * own;
                    }
                    match sizes[p as usize] {
                        1 => 1,
                        2..=3 => 2,
                        4..=9 => 3,
                        _ => 4,
                    }
                }
            };
            self.classes[class].add(predicted, truth);
        }
        self.positions += 1;
    }

    /// The report: one row per kind of point, then all points, then stones by their fate.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} positions from {} games\n{:<24} {:>8} {:>8} {:>8}\n",
            self.positions, self.games, "points", "count", "MSE", "owner"
        );
        let row = |name: &str, t: &ClassTally| {
            format!(
                "{:<24} {:>8} {:>8.4} {:>8.3}\n",
                name,
                t.points,
                t.mse(),
                t.mean_owner_share()
            )
        };
        for (name, t) in CLASSES.iter().zip(&self.classes) {
            out.push_str(&row(name, t));
        }
        out.push_str(&row("all", &self.total()));
        out.push_str(&format!(
            "stones alive at the end: {:.3} of their colour (n {}); dead: {:.3} (n {})\n",
            self.alive.mean_owner_share(),
            self.alive.owned,
            self.dead.mean_owner_share(),
            self.dead.owned
        ));
        out
    }
}

/// The number of stones in the chain of each point of `board` (0 for empty points).
fn chain_sizes(board: &Board) -> Vec<usize> {
    let mut sizes = vec![0; MAX_POINTS];
    for p in board.points() {
        if board.cell(p) != Cell::Empty && sizes[p as usize] == 0 {
            let stones: Vec<Point> = board.chain_stones(p).collect();
            for &q in &stones {
                sizes[q as usize] = stones.len();
            }
        }
    }
    sizes
}

/// The margin of a counted result in an SGF `RE` value (`B+3.5` is 3.5, `W+0.5` is −0.5);
/// `None` for resignations, time, forfeits, draws and anything else.
pub fn counted_result(re: &str) -> Option<f64> {
    let (sign, rest) = match re.trim().split_at_checked(2)? {
        ("B+", r) => (1.0, r),
        ("W+", r) => (-1.0, r),
        _ => return None,
    };
    rest.trim().parse::<f64>().ok().map(|m| sign * m)
}

/// The `RE` value of an SGF text, if any.
fn result_property(text: &str) -> Option<&str> {
    let start = text.find("RE[")? + 3;
    let len = text[start..].find(']')?;
    Some(&text[start..start + len])
}

/// The owner of every point when `game` (played to the end) is counted by area, its dead
/// stones judged by the referee, and the areas of Black and White.
pub fn final_owners(game: &Game) -> (Owners, [u32; 2]) {
    let (status, _) = final_count(game);
    let mut dead: DeadStones = [false; MAX_POINTS];
    for p in game.board().points() {
        dead[p as usize] = status[p as usize] == StoneStatus::Dead;
    }
    let mut owners: Owners = [Cell::Empty; MAX_POINTS];
    let area = settled_area(game.board(), &dead, &mut owners);
    (owners, area)
}

/// What the measurement takes from each game.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Positions before these move numbers are judged...
    pub at: Vec<usize>,
    /// ...when the game went on for at least this many moves after them.
    pub margin: usize,
    /// Playouts per position.
    pub playouts: u32,
    /// Playout policy.
    pub policy: Policy,
    /// The search's parameters (the playouts' steps and rates).
    pub params: Params,
    /// Seed of the first position's playouts (the next ones count up).
    pub seed: u64,
    /// A game is used only if its area count at its komi is within this many points of
    /// the result its record gives (territory and area counts differ by a point or two;
    /// a bigger gap means the referee judged some group otherwise than the players).
    pub max_count_gap: f64,
}

/// Why a game was left out, or the positions it gave.
enum GameUse {
    /// No counted result in its record (resigned, lost on time) or not loadable.
    NoCount,
    /// Its count at the end disagrees with the record's result.
    Disputed,
    /// Used: this many positions.
    Used(usize),
}

/// Games left out of a measurement, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// No counted result in the record, or not loadable.
    pub no_count: usize,
    /// The referee's count of the final position disagrees with the record's result.
    pub disputed: usize,
}

/// Measures the playouts on the games in `texts` (name, SGF text); `progress(games done)`
/// is called after each game. Games without a counted result, or whose count disagrees
/// with it, are left out and counted by reason.
pub fn measure(
    texts: &[(String, String)],
    settings: &Settings,
    mut progress: impl FnMut(usize),
) -> (OwnershipAccuracy, Skipped) {
    let mut acc = OwnershipAccuracy::default();
    let mut skipped = Skipped::default();
    let mut seed = settings.seed;
    for (i, (_, text)) in texts.iter().enumerate() {
        match measure_game(text, settings, &mut seed, &mut acc) {
            GameUse::Used(n) if n > 0 => acc.games += 1,
            GameUse::Used(_) => {}
            GameUse::NoCount => skipped.no_count += 1,
            GameUse::Disputed => skipped.disputed += 1,
        }
        progress(i + 1);
    }
    (acc, skipped)
}

fn measure_game(
    text: &str,
    settings: &Settings,
    seed: &mut u64,
    acc: &mut OwnershipAccuracy,
) -> GameUse {
    let Some(result) = result_property(text).and_then(counted_result) else {
        return GameUse::NoCount;
    };
    let rules = Rules::chinese();
    let Ok(game) = sgf::load(text, &LoadUntil::End, &rules, rules.ko, 6.5) else {
        return GameUse::NoCount;
    };
    let (owners, [black, white]) = final_owners(&game);
    let area = f64::from(black) - f64::from(white);
    if (area - game.komi() as f64 - result).abs() > settings.max_count_gap {
        return GameUse::Disputed;
    }
    let moves = game.history().len();
    let mut used = 0;
    for &m in &settings.at {
        if m == 0 || m + settings.margin > moves {
            continue;
        }
        let Ok(position) = sgf::load(text, &LoadUntil::BeforeMove(m), &rules, rules.ko, 6.5) else {
            continue;
        };
        let ownership = crate::search::playout_ownership(
            &position,
            &settings.params,
            settings.policy,
            settings.playouts,
            *seed,
        );
        *seed += 1;
        acc.add_position(position.board(), &ownership, &owners);
        used += 1;
    }
    GameUse::Used(used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::pt;

    #[test]
    fn counted_results_only() {
        assert_eq!(counted_result("B+3.5"), Some(3.5));
        assert_eq!(counted_result("W+0.5"), Some(-0.5));
        assert_eq!(counted_result("W+R"), None);
        assert_eq!(counted_result("B+Resign"), None);
        assert_eq!(counted_result("B+Time"), None);
        assert_eq!(counted_result("0"), None);
        assert_eq!(counted_result("Draw"), None);
    }

    /// A finished 5x5 game: Black walls off the left, White the right, a White stone dead
    /// inside Black's area; its count and the owners follow by hand.
    const FINISHED: &str = "(;GM[1]SZ[5]KM[0.5]RE[B+0.5]\
        ;B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[cc];W[aa];B[tt];W[tt])";

    fn finished_game() -> Game {
        let rules = Rules::chinese();
        sgf::load(FINISHED, &LoadUntil::End, &rules, rules.ko, 0.5).expect("loads")
    }

    #[test]
    fn final_owners_take_dead_stones_off() {
        let game = finished_game();
        let (owners, _) = final_owners(&game);
        let b = game.board();
        // The white stone at A5 (SGF aa) is dead: Black owns it and the left column.
        assert_eq!(owners[pt(b, "A5") as usize], Cell::Black);
        assert_eq!(owners[pt(b, "A1") as usize], Cell::Black);
        assert_eq!(owners[pt(b, "C3") as usize], Cell::Black);
        assert_eq!(owners[pt(b, "E3") as usize], Cell::White);
        // C1, C2, C4, C5 touch both walls: nobody's.
        assert_eq!(owners[pt(b, "C1") as usize], Cell::Empty);
        assert_eq!(owners[pt(b, "C5") as usize], Cell::Empty);
    }

    #[test]
    fn perfect_and_blind_judges() {
        let game = finished_game();
        let (owners, _) = final_owners(&game);
        let b = game.board();
        // A judge that knows the answer, and one that says 0 everywhere.
        let mut perfect = OwnershipTally::new();
        perfect.record(b, &owners);
        let mut blind = OwnershipTally::new();
        blind.record(b, &[Cell::Empty; MAX_POINTS]);
        let mut a = OwnershipAccuracy::default();
        a.add_position(b, &perfect.ownership(b), &owners);
        assert_eq!(a.total().mse(), 0.0);
        assert_eq!(a.total().mean_owner_share(), 1.0);
        assert_eq!(a.dead.mean_owner_share(), -1.0);
        let mut z = OwnershipAccuracy::default();
        z.add_position(b, &blind.ownership(b), &owners);
        // Shared points are right to be 0; every owned point is off by 1.
        let t = z.total();
        assert!((t.mse() - t.owned as f64 / t.points as f64).abs() < 1e-9);
        assert_eq!(t.mean_owner_share(), 0.0);
    }

    #[test]
    fn the_game_is_measured_or_skipped_by_its_count() {
        let settings = Settings {
            at: vec![5, 13],
            margin: 1,
            playouts: 64,
            policy: Policy::Heavy,
            params: Params::default(),
            seed: 1,
            max_count_gap: 2.0,
        };
        let texts = vec![("g".to_string(), FINISHED.to_string())];
        let (acc, skipped) = measure(&texts, &settings, |_| {});
        assert_eq!((acc.positions, acc.games), (2, 1));
        assert_eq!(skipped, Skipped::default());
        // The same game with a result its count contradicts, and one that was resigned.
        for (re, no_count, disputed) in [("RE[W+4.5]", 0, 1), ("RE[B+R]", 1, 0)] {
            let text = FINISHED.replace("RE[B+0.5]", re);
            let (acc, skipped) = measure(&[("g".to_string(), text)], &settings, |_| {});
            assert_eq!(acc.positions, 0, "{re}");
            assert_eq!(skipped, Skipped { no_count, disputed }, "{re}");
        }
    }
}
