//! Dead stones and seki, decided: the status of every stone of a final position.
//!
//! One decision serves `final_score`, `final_status_list` and `shoutan-count`:
//! 1. Benson's algorithm ([`super::benson`]): unconditionally alive chains are alive, and
//!    opponent stones in their small enclosed regions are dead. No guess can override that.
//! 2. Monte-Carlo ownership ([`super::ownership`]) from the final position, with enough
//!    playouts that the decision is stable: a chain that does not survive in a clear
//!    majority of the playouts is dead (see `DEAD_BELOW`).
//! 3. Seki: light playouts break seki (they fill shared liberties at random), so seki is
//!    recognised separately. A candidate is an empty point touching chains of both colours
//!    where a stone of either colour would put itself in atari without capturing. For each
//!    colour that may play there, playouts are run after that fill; when the filler's chain
//!    is then mostly captured while the other colour's chains live, neither side can afford
//!    to fill: the chains around are in seki (alive, sharing their liberties).
//!    This tells seki from nakade, where the same local shape holds but the surrounded group
//!    dies whoever fills.
//!
//! Every run is seeded, so the same position always gets the same decision.

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};
use crate::game::{Game, PositionHistory};
use crate::rules::KoRule;

use super::area::flood_region;
use super::benson::unconditional_life;
use super::ownership::{Start, estimate};

/// What the final-position decision says of a stone.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum StoneStatus {
    /// Stays on the board and counts for its owner.
    Alive,
    /// Removed before counting; counts for the opponent.
    Dead,
    /// Alive in seki: stays, but under territory rules its eyes are nobody's.
    Seki,
}

impl StoneStatus {
    /// The GTP name (`alive`, `dead`, `seki`).
    pub fn name(self) -> &'static str {
        match self {
            StoneStatus::Alive => "alive",
            StoneStatus::Dead => "dead",
            StoneStatus::Seki => "seki",
        }
    }

    /// Parses a GTP status name.
    pub fn parse(text: &str) -> Result<StoneStatus, String> {
        match text.to_ascii_lowercase().as_str() {
            "alive" => Ok(StoneStatus::Alive),
            "dead" => Ok(StoneStatus::Dead),
            "seki" => Ok(StoneStatus::Seki),
            _ => Err(format!("invalid status '{text}' (use alive, dead or seki)")),
        }
    }
}

/// How much work the decision may do.
#[derive(Clone, Copy, Debug)]
pub struct StatusConfig {
    /// Playouts for the ownership estimate of the final position.
    pub playouts: usize,
    /// Playouts for each seki test (one per colour and candidate point).
    pub seki_playouts: usize,
    /// Seed of the random playouts.
    pub seed: u64,
}

impl StatusConfig {
    /// Enough playouts for a stable decision on a board of `size`.
    pub fn for_size(size: usize) -> StatusConfig {
        let playouts = if size <= 9 {
            2000
        } else if size <= 13 {
            3000
        } else {
            4000
        };
        StatusConfig {
            playouts,
            seki_playouts: playouts / 4,
            seed: 0x005e_ed0f_5c0e,
        }
    }
}

/// Below this mean ownership (from the chain's own side) a chain is dead: it must survive
/// in at least 65% of the playouts to count as alive. A bare majority is not enough
/// because the random defender of a surrounded area lets dead groups live too often. The
/// figure was calibrated on GNU Go's 57 scoring tests (regress `score*.tst`), where every
/// value from 0.25 to 0.35 gives the same decisions.
const DEAD_BELOW: f32 = 0.3;
/// A filler is "mostly captured" below this survival, the other side "lives" above its
/// negation.
const SEKI_MARGIN: f32 = 0.5;
/// A shared liberty that the playouts left nobody's more often than this (they never fill
/// such points themselves), with every chain around it kept, stands as a seki.
const SEKI_NEUTRAL_ABOVE: f32 = 0.5;

/// The status of every stone of `game`'s current position (indexed by point; empty points
/// say `Alive`). When the rules keep every stone (Tromp-Taylor), everything is alive.
pub fn decide(game: &Game, config: &StatusConfig) -> Vec<StoneStatus> {
    if !game.rules().remove_dead_stones {
        return vec![StoneStatus::Alive; game.board().array_len()];
    }
    decide_board(game.board(), game.positions(), game.ko_rule(), config)
}

/// [`decide`] for a bare position: `history` holds the positions seen (for superko in the
/// playouts).
pub fn decide_board(
    board: &Board,
    history: &PositionHistory,
    ko: KoRule,
    config: &StatusConfig,
) -> Vec<StoneStatus> {
    let n = board.array_len();
    let mut status = vec![StoneStatus::Alive; n];
    if board.stone_count() == 0 {
        return status;
    }
    let benson = [
        unconditional_life(board, Color::Black),
        unconditional_life(board, Color::White),
    ];
    let ownership = estimate(
        &Start {
            board,
            history,
            ko,
            first: None,
        },
        config.playouts,
        config.seed,
    );

    // Chains by head, with their verdicts.
    let mut decided = vec![false; n];
    for p in board.points() {
        let Some(c) = board.cell(p).color() else {
            continue;
        };
        let head = board.chain_id(p) as usize;
        if decided[head] {
            continue;
        }
        decided[head] = true;
        log::debug!(
            "chain {} {}: survival {:.3}",
            board.vertex_name(p),
            c,
            ownership.chain_survival(board, p)
        );
        let verdict = if benson[c.index()].is_alive(p) {
            StoneStatus::Alive
        } else if benson[c.opponent().index()].is_safe_territory(p)
            || ownership.chain_survival(board, p) < DEAD_BELOW
        {
            StoneStatus::Dead
        } else {
            StoneStatus::Alive
        };
        for s in board.chain_stones(p) {
            status[s as usize] = verdict;
        }
    }

    // Seki, and nakade that the playouts cannot resolve on their own.
    let mut seki_heads: Vec<Point> = Vec::new();
    let mut killed_heads: Vec<Point> = Vec::new();
    let benson_alive = |q: Point| benson[0].is_alive(q) || benson[1].is_alive(q);
    for &p in board.empty_points() {
        let Some(fills) = mutual_self_atari(board, p) else {
            continue;
        };
        let around: Vec<Point> = board
            .neighbors(p)
            .into_iter()
            .filter(|&nb| board.cell(nb).color().is_some())
            .collect();
        match fill_test(board, history, ko, p, &fills, config) {
            FillTest::Kills(victim) => {
                for &nb in &around {
                    if board.cell(nb).color() == Some(victim) && !benson_alive(nb) {
                        push_head(&mut killed_heads, board.chain_id(nb));
                    }
                }
                continue;
            }
            FillTest::Seki => {}
            FillTest::Unclear => {
                // The playouts (which never make such fills) left the point empty and kept
                // every chain around it: the seki stands.
                let kept = around
                    .iter()
                    .all(|&nb| ownership.chain_survival(board, nb) > DEAD_BELOW);
                if !(ownership.neutral(p) > SEKI_NEUTRAL_ABOVE && kept) {
                    continue;
                }
            }
        }
        for &nb in &around {
            if !benson_alive(nb) {
                push_head(&mut seki_heads, board.chain_id(nb));
            }
        }
    }
    for &h in &killed_heads {
        for s in board.chain_stones(h) {
            status[s as usize] = StoneStatus::Dead;
        }
    }
    for &h in &seki_heads {
        if killed_heads.contains(&h) {
            continue;
        }
        for s in board.chain_stones(h) {
            status[s as usize] = StoneStatus::Seki;
        }
    }
    extend_seki_through_eyes(board, &mut status);
    status
}

fn push_head(heads: &mut Vec<Point>, h: Point) {
    if !heads.contains(&h) {
        heads.push(h);
    }
}

/// If the empty point `p` touches chains of both colours and neither colour can fill it
/// without putting its own chain into atari (or at all), the colours that may legally fill
/// it, each with the board after its fill. `None` otherwise.
fn mutual_self_atari(board: &Board, p: Point) -> Option<Vec<(Color, Board)>> {
    let mut touches = [false; 2];
    for nb in board.neighbors(p) {
        if let Some(c) = board.cell(nb).color() {
            touches[c.index()] = true;
        }
    }
    if touches != [true, true] {
        return None;
    }
    let mut fills = Vec::new();
    for c in Color::BOTH {
        if !board.is_legal(p, c) {
            continue;
        }
        let mut after = board.clone();
        let captured = after.play(p, c);
        if captured > 0 || after.liberties(p) > 1 {
            return None;
        }
        fills.push((c, after));
    }
    Some(fills)
}

/// What playouts after a self-atari fill of a shared liberty say.
enum FillTest {
    /// Some colour's sacrifice there kills the other colour's chains around it (nakade):
    /// those chains are dead.
    Kills(Color),
    /// Every possible fill loses the filler's chain while the other side lives: seki.
    Seki,
    /// Neither clearly.
    Unclear,
}

/// Runs playouts after each possible fill of `p` (see [`FillTest`]).
fn fill_test(
    board: &Board,
    history: &PositionHistory,
    ko: KoRule,
    p: Point,
    fills: &[(Color, Board)],
    config: &StatusConfig,
) -> FillTest {
    let mut seki = true;
    for (c, after) in fills {
        let own = estimate(
            &Start {
                board,
                history,
                ko,
                first: Some((p, *c)),
            },
            config.seki_playouts,
            config.seed ^ p as u64,
        );
        let filler = own.chain_survival(after, p);
        let others = board
            .neighbors(p)
            .into_iter()
            .filter(|&nb| after.cell(nb) == Cell::stone(c.opponent()))
            .map(|nb| own.chain_survival(after, nb))
            .fold(1.0f32, f32::min);
        if others < -SEKI_MARGIN {
            return FillTest::Kills(c.opponent());
        }
        if !(filler < -SEKI_MARGIN && others > SEKI_MARGIN) {
            seki = false;
        }
    }
    if seki {
        FillTest::Seki
    } else {
        FillTest::Unclear
    }
}

/// A region of more points than this is too big to be an eye (see
/// [`extend_seki_through_eyes`]).
const EYE_MAX_POINTS: usize = 64;

/// Gives seki status to every living chain joined to a seki chain through an eye: the
/// chains of one seki group share its fate.
fn extend_seki_through_eyes(board: &Board, status: &mut [StoneStatus]) {
    let living = |status: &[StoneStatus], q: Point| {
        let c = board.cell(q).color()?;
        (status[q as usize] != StoneStatus::Dead).then_some(c)
    };
    let mut region = [0 as Point; MAX_POINTS];
    // Points entered by the current flood carry its number.
    let mut entered = [0u32; MAX_POINTS];
    let mut flood = 0u32;
    loop {
        let mut changed = false;
        for p in board.points() {
            if status[p as usize] != StoneStatus::Seki {
                continue;
            }
            let Some(c) = board.cell(p).color() else {
                continue;
            };
            // Flood the regions without living stones next to p; if such a region is small
            // enough for an eye and touches only colour c, every c chain around it joins
            // the seki.
            for start in board.neighbors(p) {
                if !board.on_board(start) || living(status, start).is_some() {
                    continue;
                }
                flood += 1;
                entered[start as usize] = flood;
                let mut border: Vec<Point> = Vec::new();
                let (size, touches) = flood_region(
                    board,
                    start,
                    &mut region,
                    |q| {
                        let owner = living(status, q)?;
                        if owner == c {
                            border.push(q);
                        }
                        Some(owner)
                    },
                    |q| {
                        let enters = board.on_board(q) && entered[q as usize] != flood;
                        if enters {
                            entered[q as usize] = flood;
                        }
                        enters
                    },
                );
                if size > EYE_MAX_POINTS || touches[c.opponent().index()] {
                    continue;
                }
                for q in border {
                    if status[q as usize] == StoneStatus::Alive {
                        for s in board.chain_stones(q) {
                            status[s as usize] = StoneStatus::Seki;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// Whether the game is over as people see it, once the stones `status` calls dead are off
/// the board: every empty region belongs to one colour or is dame (each of its points touches
/// living stones of both colours: a neutral point, or a shared liberty of a seki), and no
/// living chain stands in atari (a capture is still to be played). A nearly empty board, an
/// open border between two frameworks, or a fight in progress is not over, whatever the count
/// on the board says.
pub fn is_finished(board: &Board, status: &[StoneStatus]) -> bool {
    let living = |p: Point| {
        let c = board.cell(p).color()?;
        (status[p as usize] != StoneStatus::Dead).then_some(c)
    };
    let mut entered = [false; MAX_POINTS];
    let mut region = [0 as Point; MAX_POINTS];
    for p in board.points() {
        if living(p).is_some() {
            if board.liberties(p) == 1 && status[p as usize] == StoneStatus::Alive {
                return false;
            }
            continue;
        }
        if entered[p as usize] {
            continue;
        }
        entered[p as usize] = true;
        let (size, touches) = flood_region(board, p, &mut region, living, |n| {
            let fresh = board.cell(n) != Cell::Border && !entered[n as usize];
            if fresh {
                entered[n as usize] = true;
            }
            fresh
        });
        if touches == [true, true] {
            let touches_both = |q: Point| {
                let mut seen = [false; 2];
                for n in board.neighbors(q) {
                    if let Some(c) = living(n) {
                        seen[c.index()] = true;
                    }
                }
                seen == [true, true]
            };
            if !region[..size].iter().all(|&q| touches_both(q)) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::test_support::pt;

    fn statuses(rows: &[&str]) -> (Board, Vec<StoneStatus>) {
        let b = Board::from_diagram(rows).unwrap();
        let s = decide_board(
            &b,
            &PositionHistory::default(),
            KoRule::Positional,
            &StatusConfig::for_size(b.size()),
        );
        (b, s)
    }

    #[test]
    fn dead_stones_inside_territory_are_dead() {
        let (b, s) = statuses(&[
            ". . . X O . . . .", //
            ". . . X O . O . .",
            ". O . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . X .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
        ]);
        assert_eq!(s[pt(&b, "B7") as usize], StoneStatus::Dead);
        assert_eq!(s[pt(&b, "H5") as usize], StoneStatus::Dead);
        assert_eq!(s[pt(&b, "G8") as usize], StoneStatus::Alive);
        assert_eq!(s[pt(&b, "D1") as usize], StoneStatus::Alive);
        assert_eq!(s[pt(&b, "E1") as usize], StoneStatus::Alive);
    }

    #[test]
    fn seki_without_eyes_is_recognised() {
        // The black and white chains at the bottom share E1 and E2 and have no eye: whoever
        // fills one is captured, and the capturer's group then lives.
        let (b, s) = statuses(&[
            ". O . O O X . X .", //
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O X X O X X X",
            "O X X X . O O O X",
            "O X X X . O O O X",
        ]);
        assert_eq!(s[pt(&b, "B1") as usize], StoneStatus::Seki, "{b:?}");
        assert_eq!(s[pt(&b, "F1") as usize], StoneStatus::Seki);
        assert_eq!(s[pt(&b, "A1") as usize], StoneStatus::Alive);
        assert_eq!(s[pt(&b, "J1") as usize], StoneStatus::Alive);
    }

    #[test]
    fn seki_with_one_eye_each_is_recognised() {
        let (b, s) = statuses(&[
            ". O . O O X . X .", //
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O O O X X X X",
            "O O O X X O X X X",
            "O X X X X O O O X",
            "O X . X . O . O X",
        ]);
        assert_eq!(s[pt(&b, "B1") as usize], StoneStatus::Seki, "{b:?}");
        assert_eq!(s[pt(&b, "F1") as usize], StoneStatus::Seki);
        assert_eq!(s[pt(&b, "A1") as usize], StoneStatus::Alive);
    }

    #[test]
    fn nakade_is_not_seki() {
        // White's corner group has a straight three eye (A1 B1 C1) with a black stone on
        // its vital point B1: dead, whoever fills A1 or C1 first.
        let (b, s) = statuses(&[
            ". . . . . . .", //
            ". . . . . . .",
            "X X X X X . .",
            "X X X X X . .",
            "O O O O X . .",
            "O O O O X . .",
            ". X . O X . .",
        ]);
        assert_eq!(s[pt(&b, "A2") as usize], StoneStatus::Dead, "{b:?}");
        assert_eq!(s[pt(&b, "B1") as usize], StoneStatus::Alive);
    }

    #[test]
    fn tromp_taylor_keeps_every_stone() {
        let mut g = Game::new(5, crate::rules::Rules::tromp_taylor()).unwrap();
        g.play(Move::Play(pt(g.board(), "C3")), Color::Black)
            .unwrap();
        g.play(Move::Play(pt(g.board(), "A1")), Color::White)
            .unwrap();
        let s = decide(&g, &StatusConfig::for_size(5));
        assert!(s.iter().all(|&x| x == StoneStatus::Alive));
    }
}

#[cfg(test)]
mod finished_tests {
    use super::*;

    /// The position of `rows` with every stone alive except those on the points named dead.
    fn judge(rows: &[&str], dead: &[&str]) -> bool {
        let b = Board::from_diagram(rows).unwrap();
        let mut status = vec![StoneStatus::Alive; b.array_len()];
        for v in dead {
            let Ok(crate::board::Move::Play(p)) = b.parse_move(v) else {
                panic!("bad vertex {v}")
            };
            status[p as usize] = StoneStatus::Dead;
        }
        is_finished(&b, &status)
    }

    #[test]
    fn territories_walls_and_dead_stones_are_finished() {
        // Black's wall on C, White's on D, a dead white stone at A4 in Black's area.
        let rows = [".XXO.", "O.XO.", "XXXO.", ".XXO.", "X.XO."];
        assert!(judge(&rows, &["A4"]));
    }

    #[test]
    fn one_point_dame_is_finished_a_two_point_gap_is_not() {
        // Column C between the walls: each of its points touches both colours (dame, or the
        // shared liberties of a seki: the same shape to this test).
        assert!(judge(&["XX.OO", "XX.OO", "XX.OO", "XX.OO", "XX.OO"], &[]));
        // Columns C and D between the walls: a border still to be played.
        assert!(!judge(
            &["XX..OO", "XX..OO", "XX..OO", "XX..OO", "XX..OO", "XX..OO"],
            &[]
        ));
        // A nearly empty board is anything but finished.
        assert!(!judge(&[".....", ".X...", ".....", "...O.", "....."], &[]));
    }

    #[test]
    fn a_living_chain_in_atari_is_a_capture_still_to_play() {
        // White's C3 stands in atari (its last liberty D3) between finished walls.
        let rows = [".X.O.", "X.XO.", "XXO.O", "..XXO", "...XO"];
        assert!(!judge(&rows, &[]));
        // Joined to White's wall through D3, C3 has liberties enough and the game is over.
        assert!(judge(&[".X.O.", "X.XO.", "XXOOO", "..XXO", "...XO"], &[]));
    }
}
