//! Counting a board by area: who owns each point, with or without stones judged dead.
//!
//! One flood fill ([`flood_region`]) finds a region of points without living stones and the
//! colours around it; one group counter ([`count_groups`]) finds the living groups the
//! ancient group tax charges. On top of them:
//! - [`area_owners`]: the owners of a finished playout board where every stone lives. It
//!   ends every playout, so it allocates nothing and settles most points without a flood;
//! - [`settled_area`] and [`settled_score`]: the same with the stones judged dead taken off
//!   first (tree lines that end with two passes, the search's count before passing);
//! - [`tromp_taylor_score`], [`taxed_area`] and [`taxed_area_score`].
//!
//! The referee's count of a final position ([`fn@crate::score::count`]) uses the same two.

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};

/// Who owns each point of a board under area counting: a stone's colour, the only colour
/// an empty region touches, or nobody ([`Cell::Empty`]).
pub type Owners = [Cell; MAX_POINTS];

/// Stones judged dead: true on points holding a dead stone.
pub type DeadStones = [bool; MAX_POINTS];

/// Floods the region through `start` (already marked as entered by the caller): from each
/// of its points, a neighbour holding a living stone (`living` names its colour) borders the
/// region, any other neighbour joins it when `enter` accepts it (`enter` refuses the edge
/// and points already entered, and marks the ones it accepts). Leaves the region's points
/// in `region[..size]` and returns `size` and whether living stones of Black and of White
/// border it. Allocates nothing.
#[inline]
pub fn flood_region(
    board: &Board,
    start: Point,
    region: &mut [Point; MAX_POINTS],
    mut living: impl FnMut(Point) -> Option<Color>,
    mut enter: impl FnMut(Point) -> bool,
) -> (usize, [bool; 2]) {
    let mut touches = [false; 2];
    region[0] = start;
    let mut size = 1;
    let mut next = 0;
    while next < size {
        let q = region[next];
        next += 1;
        for n in board.neighbors(q) {
            if let Some(c) = living(n) {
                touches[c.index()] = true;
            } else if enter(n) {
                region[size] = n;
                size += 1;
            }
        }
    }
    (size, touches)
}

/// The owner of a region bordered by the colours in `touches`: the only one, else nobody.
pub(crate) fn region_owner(touches: [bool; 2]) -> Cell {
    match touches {
        [true, false] => Cell::Black,
        [false, true] => Cell::White,
        _ => Cell::Empty,
    }
}

/// Fills `owners` with the owner of every on-board point (stones own their point; an empty
/// region belongs to the only colour it touches, else to nobody: [`Cell::Empty`]) and returns
/// the area of Black and White. Allocates nothing.
pub fn area_owners(board: &Board, owners: &mut Owners) -> [u32; 2] {
    let mut area = [0u32; 2];
    let mut pending = false;
    // First pass, branch-free (it ends every playout): stones own their point, an empty
    // point without empty neighbours is decided by its neighbours, any other empty point is
    // marked undecided (Border) for the flood fill below.
    let stride = board.stride();
    for row in 1..=board.size() {
        for p in (row * stride + 1)..=(row * stride + board.size()) {
            let p = p as Point;
            let cell = board.cell(p);
            let owner = if cell == Cell::Empty {
                empty_point_owner(board, p)
            } else {
                cell
            };
            owners[p as usize] = owner;
            area[0] += u32::from(owner == Cell::Black);
            area[1] += u32::from(owner == Cell::White);
            pending |= owner == Cell::Border;
        }
    }
    if pending {
        let mut region = [0 as Point; MAX_POINTS];
        for p in board.points() {
            if board.cell(p) != Cell::Empty || owners[p as usize] != Cell::Border {
                continue;
            }
            // Flood the empty region through p; its points stop being undecided as they
            // are entered.
            owners[p as usize] = Cell::Empty;
            let (size, touches) = flood_region(
                board,
                p,
                &mut region,
                |n| board.cell(n).color(),
                |n| {
                    let undecided =
                        board.cell(n) == Cell::Empty && owners[n as usize] == Cell::Border;
                    if undecided {
                        owners[n as usize] = Cell::Empty;
                    }
                    undecided
                },
            );
            let owner = region_owner(touches);
            if let Some(c) = owner.color() {
                area[c.index()] += size as u32;
            }
            for &q in &region[..size] {
                owners[q as usize] = owner;
            }
        }
    }
    area
}

/// Owner of an empty point: [`Cell::Border`] (undecided) when it has an empty neighbour,
/// else the only colour among its neighbours, else nobody ([`Cell::Empty`]).
#[inline]
fn empty_point_owner(board: &Board, p: Point) -> Cell {
    let black = board.own_or_border_neighbors(p, Color::Black);
    let white = board.own_or_border_neighbors(p, Color::White);
    let empty = board.empty_neighbors(p);
    // Border neighbours count for both colours: black + white + empty = 4 + border.
    let border = black + white + empty - 4;
    const OWNER: [Cell; 8] = [
        Cell::Empty, // touches neither colour (cannot happen on a real board)
        Cell::White,
        Cell::Black,
        Cell::Empty, // touches both: dame
        Cell::Border,
        Cell::Border,
        Cell::Border,
        Cell::Border,
    ];
    let index = usize::from(empty > 0) << 2
        | usize::from(black > border) << 1
        | usize::from(white > border);
    OWNER[index]
}

/// The area of Black and White with the `dead` stones taken off; `owners` gets each point's
/// owner ([`Cell::Empty`] for nobody's). Allocates nothing.
pub fn settled_area(board: &Board, dead: &DeadStones, owners: &mut Owners) -> [u32; 2] {
    let mut seen = [false; MAX_POINTS];
    let mut region = [0 as Point; MAX_POINTS];
    let mut area = [0u32; 2];
    let live = |p: Point| -> Option<Color> {
        let c = board.cell(p).color()?;
        (!dead[p as usize]).then_some(c)
    };
    for p in board.points() {
        if let Some(c) = live(p) {
            area[c.index()] += 1;
            owners[p as usize] = Cell::stone(c);
            continue;
        }
        if seen[p as usize] {
            continue;
        }
        // Flood the region of empty points and dead stones through p.
        seen[p as usize] = true;
        let (size, touches) = flood_region(board, p, &mut region, live, |n| {
            let enters = board.on_board(n) && !seen[n as usize];
            if enters {
                seen[n as usize] = true;
            }
            enters
        });
        let owner = region_owner(touches);
        if let Some(c) = owner.color() {
            area[c.index()] += size as u32;
        }
        for &q in &region[..size] {
            owners[q as usize] = owner;
        }
    }
    area
}

/// Black's area minus White's area minus `komi`, with the `dead` stones taken off first;
/// with `tax`, every living group also costs its owner two points (ancient rules, 還棋頭).
/// Allocates nothing.
pub fn settled_score(board: &Board, dead: &DeadStones, komi: f32, tax: bool) -> f32 {
    let mut owners = [Cell::Empty; MAX_POINTS];
    let area = settled_area(board, dead, &mut owners);
    let mut score = area[0] as f32 - area[1] as f32 - komi;
    if tax {
        let groups = count_groups(board, &owners);
        score -= 2.0 * (groups[0] as f32 - groups[1] as f32);
    }
    score
}

/// Living groups of each colour: maximal sets of points one colour owns in `owners` (its
/// living stones and its territory) connected orthogonally, i.e. stones connected directly
/// or through their own territory. Allocates nothing.
pub fn count_groups(board: &Board, owners: &Owners) -> [u32; 2] {
    let mut seen = [false; MAX_POINTS];
    let mut region = [0 as Point; MAX_POINTS];
    let mut groups = [0u32; 2];
    for p in board.points() {
        let owner = owners[p as usize];
        let Some(c) = owner.color() else { continue };
        if seen[p as usize] {
            continue;
        }
        groups[c.index()] += 1;
        seen[p as usize] = true;
        flood_region(
            board,
            p,
            &mut region,
            |_| None,
            |n| {
                let enters = board.on_board(n) && owners[n as usize] == owner && !seen[n as usize];
                if enters {
                    seen[n as usize] = true;
                }
                enters
            },
        );
    }
    groups
}

/// Black's area minus White's area minus `komi`, counting the board as it stands
/// (Tromp-Taylor).
pub fn tromp_taylor_score(board: &Board, komi: f32) -> f32 {
    let mut owners = [Cell::Empty; MAX_POINTS];
    let [b, w] = area_owners(board, &mut owners);
    b as f32 - w as f32 - komi
}

/// Area of each colour and number of living groups on a finished board where every stone is
/// alive. A group is a maximal set of one colour's stones connected directly or through
/// that colour's own territory. Fills `owners` like [`area_owners`]. Allocates nothing.
pub fn taxed_area(board: &Board, owners: &mut Owners) -> ([u32; 2], [u32; 2]) {
    let area = area_owners(board, owners);
    (area, count_groups(board, owners))
}

/// Black's taxed area minus White's minus `komi` on a finished board where every stone is
/// alive: each living group costs its owner 2 points (one stone, 還棋頭). This is what a
/// playout under the `ancient` rules returns. Allocates nothing.
pub fn taxed_area_score(board: &Board, owners: &mut Owners, komi: f32) -> f32 {
    let ([b, w], [gb, gw]) = taxed_area(board, owners);
    (b as f32 - 2.0 * gb as f32) - (w as f32 - 2.0 * gw as f32) - komi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::test_support::board_from;

    #[test]
    fn area_counts_stones_territory_and_dame() {
        let b = board_from(&[
            ". X O . .", //
            "X X O . .",
            ". X O O O",
            "X X . O .",
            ". X O . .",
        ]);
        let mut owners = [Cell::Empty; MAX_POINTS];
        let area = area_owners(&b, &mut owners);
        // Black: 7 stones + A5, A3, A1 = 10. White: 7 stones + D5 E5 D4 E4 + E2 D1 E1 = 14.
        // C2 touches both: dame.
        assert_eq!(area, [10, 14]);
        let Ok(Move::Play(c2)) = b.parse_move("C2") else {
            panic!()
        };
        assert_eq!(owners[c2 as usize], Cell::Empty);
        assert_eq!(tromp_taylor_score(&b, 7.5), 10.0 - 14.0 - 7.5);
    }

    #[test]
    fn empty_board_belongs_to_nobody() {
        let b = Board::new(9);
        assert_eq!(tromp_taylor_score(&b, 0.0), 0.0);
        let b = board_from(&["X . .", ". . .", ". . ."]);
        assert_eq!(tromp_taylor_score(&b, 0.0), 9.0);
    }
}
