//! Counting the final position: area (Tromp-Taylor) ownership of a board as it stands.
//!
//! This first piece is what playouts need: a fast, allocation-free count of a finished board
//! where every stone is alive. Dead-stone decisions, territory and taxed counting build on it.

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};

/// Who owns each point of a board under area counting of the board as it stands.
pub type Owners = [Cell; MAX_POINTS];

/// Fills `owners` with the owner of every on-board point (stones own their point; an empty
/// region belongs to the only colour it touches, else to nobody: [`Cell::Empty`]) and returns
/// the area of Black and White. Allocates nothing.
pub fn area_owners(board: &Board, owners: &mut Owners) -> [u32; 2] {
    let mut area = [0u32; 2];
    let mut pending = false;
    for &p in board.empty_points() {
        owners[p as usize] = Cell::Border; // not yet decided
    }
    for p in board.points() {
        match board.cell(p) {
            Cell::Black => {
                owners[p as usize] = Cell::Black;
                area[0] += 1;
            }
            Cell::White => {
                owners[p as usize] = Cell::White;
                area[1] += 1;
            }
            _ => {
                if board.empty_neighbors(p) == 0 {
                    let owner = single_point_owner(board, p);
                    owners[p as usize] = owner;
                    if let Some(c) = owner.color() {
                        area[c.index()] += 1;
                    }
                } else {
                    pending = true;
                }
            }
        }
    }
    if pending {
        let mut stack = [0 as Point; MAX_POINTS];
        let mut region = [0 as Point; MAX_POINTS];
        for p in board.points() {
            if board.cell(p) != Cell::Empty || owners[p as usize] != Cell::Border {
                continue;
            }
            // Flood-fill the empty region through p, noting which colours it touches.
            let mut touches = [false; 2];
            let mut n_region = 0;
            let mut top = 1;
            stack[0] = p;
            owners[p as usize] = Cell::Empty;
            while top > 0 {
                top -= 1;
                let q = stack[top];
                region[n_region] = q;
                n_region += 1;
                for n in board.neighbors(q) {
                    match board.cell(n) {
                        Cell::Black => touches[0] = true,
                        Cell::White => touches[1] = true,
                        Cell::Empty if owners[n as usize] == Cell::Border => {
                            owners[n as usize] = Cell::Empty;
                            stack[top] = n;
                            top += 1;
                        }
                        _ => {}
                    }
                }
            }
            let owner = match touches {
                [true, false] => Cell::Black,
                [false, true] => Cell::White,
                _ => Cell::Empty,
            };
            if let Some(c) = owner.color() {
                area[c.index()] += n_region as u32;
            }
            for &q in &region[..n_region] {
                owners[q as usize] = owner;
            }
        }
    }
    area
}

/// Owner of an empty point none of whose neighbours is empty.
#[inline]
fn single_point_owner(board: &Board, p: Point) -> Cell {
    let black = board.own_or_border_neighbors(p, Color::Black);
    let white = board.own_or_border_neighbors(p, Color::White);
    // Neighbours are stones or border; border counts for both colours.
    let border = black + white - 4;
    match (black > border, white > border) {
        (true, false) => Cell::Black,
        (false, true) => Cell::White,
        _ => Cell::Empty,
    }
}

/// Black's area minus White's area minus `komi`, counting the board as it stands
/// (Tromp-Taylor).
pub fn tromp_taylor_score(board: &Board, komi: f32) -> f32 {
    let mut owners = [Cell::Empty; MAX_POINTS];
    let [b, w] = area_owners(board, &mut owners);
    b as f32 - w as f32 - komi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn board_from(rows: &[&str]) -> Board {
        let size = rows.len();
        let mut b = Board::new(size);
        for (i, row) in rows.iter().enumerate() {
            let r = size - 1 - i;
            for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let color = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                let p = b.point(c, r);
                b.place_setup_stone(p, color).unwrap();
            }
        }
        b
    }

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
