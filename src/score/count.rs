//! Counting the final position.
//!
//! Two layers:
//! - fast, allocation-free counts of a *finished* board where every stone is alive, for
//!   playouts: [`area_owners`] / [`tromp_taylor_score`] (area) and [`taxed_area_score`]
//!   (area with the ancient group tax, 還棋頭);
//! - the referee's [`Count`] of a final position for a given set of dead and seki stones
//!   ([`count`]), under any [`Scoring`]: area (stones + territory, shared points split
//!   half and half), territory (territory + prisoners, nothing in seki) or taxed area
//!   (area minus one stone per living group). Who is dead is decided in
//!   [`crate::status`].

use std::fmt::Write as _;

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};
use crate::rules::{HandicapCompensation, Rules, Scoring};

/// Who owns each point of a board under area counting of the board as it stands.
pub type Owners = [Cell; MAX_POINTS];

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
    let mut groups = [0u32; 2];
    let mut seen = [false; MAX_POINTS];
    let mut stack = [0 as Point; MAX_POINTS];
    for p in board.points() {
        let Some(c) = owners[p as usize].color() else {
            continue;
        };
        if seen[p as usize] {
            continue;
        }
        groups[c.index()] += 1;
        let owner = owners[p as usize];
        seen[p as usize] = true;
        stack[0] = p;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let q = stack[top];
            for n in board.neighbors(q) {
                if owners[n as usize] == owner && !seen[n as usize] && board.on_board(n) {
                    seen[n as usize] = true;
                    stack[top] = n;
                    top += 1;
                }
            }
        }
    }
    (area, groups)
}

/// Black's taxed area minus White's minus `komi` on a finished board where every stone is
/// alive: each living group costs its owner 2 points (one stone, 還棋頭). This is what a
/// playout under the `ancient` rules returns. Allocates nothing.
pub fn taxed_area_score(board: &Board, owners: &mut Owners, komi: f32) -> f32 {
    let ([b, w], [gb, gw]) = taxed_area(board, owners);
    (b as f32 - 2.0 * gb as f32) - (w as f32 - 2.0 * gw as f32) - komi
}

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

/// The referee's breakdown of a final position (see [`count`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// How it was counted.
    pub scoring: Scoring,
    /// Name of the ruleset.
    pub rules_name: &'static str,
    /// Number of intersections.
    pub points: u32,
    /// Living stones (alive or in seki) of Black and White.
    pub stones: [u32; 2],
    /// Empty points and dead-stone points surrounded by one colour's living stones only.
    /// Under territory scoring the eyes of seki groups are left out (see `seki_eyes`).
    pub territory: [u32; 2],
    /// Points surrounded by one colour's seki groups: territory under area rules, nobody's
    /// under territory rules (these are already in `territory` only for area rules).
    pub seki_eyes: [u32; 2],
    /// Points touching both colours (dame and the shared liberties of seki, 公氣), or
    /// neither (an empty board).
    pub shared: u32,
    /// Dead stones of Black and White, removed before counting.
    pub dead: [u32; 2],
    /// Stones captured during the game by Black and by White.
    pub prisoners: [u32; 2],
    /// Living groups of Black and White (stones connected directly or through own
    /// territory).
    pub groups: [u32; 2],
    /// Komi in points.
    pub komi: f32,
    /// Handicap stones placed.
    pub handicap: usize,
    /// Points White receives for the handicap under these rules.
    pub handicap_compensation: f32,
}

/// Half of a count of points.
fn half(x: u32) -> f32 {
    x as f32 / 2.0
}

impl Count {
    /// Whether stones are counted (area and taxed area) rather than territory.
    pub fn is_area(&self) -> bool {
        self.scoring != Scoring::Territory
    }

    /// Stones one colour gives back for its groups: one per living group under the tax.
    pub fn tax(&self, c: Color) -> u32 {
        match self.scoring {
            Scoring::TaxedArea => self.groups[c.index()],
            _ => 0,
        }
    }

    /// Area of `c` in stones: living stones + territory + half the shared points.
    pub fn area(&self, c: Color) -> f32 {
        (self.stones[c.index()] + self.territory[c.index()]) as f32 + half(self.shared)
    }

    /// Points of `c` before komi under territory scoring: territory + prisoners + dead
    /// opponent stones.
    pub fn territory_points(&self, c: Color) -> u32 {
        self.territory[c.index()] + self.prisoners[c.index()] + self.dead[c.opponent().index()]
    }

    /// Black's count in stones as a Chinese referee announces it (area rules): Black's area,
    /// minus Black's tax, plus White's tax (the side with more groups gives the difference
    /// back).
    pub fn black_stones(&self) -> f32 {
        self.area(Color::Black) - self.tax(Color::Black) as f32 + self.tax(Color::White) as f32
    }

    /// Half the board (歸本數): 180½ on 19x19.
    pub fn par(&self) -> f32 {
        half(self.points)
    }

    /// The stones Black needs to draw: par plus half of komi and handicap compensation.
    pub fn black_needs(&self) -> f32 {
        self.par() + (self.komi + self.handicap_compensation) / 2.0
    }

    /// The result in points, Black minus White: positive means Black wins.
    pub fn score(&self) -> f32 {
        match self.scoring {
            Scoring::Territory => {
                self.territory_points(Color::Black) as f32
                    - self.territory_points(Color::White) as f32
                    - self.komi
                    - self.handicap_compensation
            }
            _ => 2.0 * (self.black_stones() - self.black_needs()),
        }
    }

    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        let s = self.score();
        if s > 0.0 {
            Some(Color::Black)
        } else if s < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The GTP `final_score` answer: `B+x`, `W+x` or `0`.
    pub fn result(&self) -> String {
        result_string(self.score())
    }

    /// The count as a referee announces it, one fact per line.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let kind = match self.scoring {
            Scoring::Area => "area counting",
            Scoring::Territory => "territory counting",
            Scoring::TaxedArea => "area counting with group tax",
        };
        let _ = writeln!(out, "rules {} ({kind})", self.rules_name);
        if self.is_area() {
            for c in Color::BOTH {
                let i = c.index();
                let _ = write!(
                    out,
                    "{}: {} stones + {} territory + {} of {} shared = {}",
                    title(c),
                    self.stones[i],
                    self.territory[i],
                    stones_text(half(self.shared)),
                    self.shared,
                    stones_text(self.area(c))
                );
                if self.scoring == Scoring::TaxedArea {
                    let _ = write!(
                        out,
                        "; {} group{}, tax {}",
                        self.groups[i],
                        plural(self.groups[i]),
                        self.groups[i]
                    );
                }
                if self.dead[i] > 0 {
                    let _ = write!(
                        out,
                        " ({} dead {c} stone{} removed)",
                        self.dead[i],
                        plural(self.dead[i])
                    );
                }
                out.push('\n');
            }
            if self.scoring == Scoring::TaxedArea {
                let _ = writeln!(
                    out,
                    "tax: Black gives back {}, White gives back {}",
                    self.groups[0], self.groups[1]
                );
            }
            let _ = write!(out, "par (歸本數) {}", stones_text(self.par()));
            if self.komi != 0.0 {
                let _ = write!(
                    out,
                    ", komi {} stones ({} points)",
                    stones_text(self.komi / 2.0),
                    self.komi
                );
            }
            if self.handicap_compensation != 0.0 {
                let _ = write!(
                    out,
                    ", handicap {} stones: {} points to White ({} stones back)",
                    self.handicap,
                    self.handicap_compensation,
                    stones_text(self.handicap_compensation / 2.0)
                );
            }
            out.push('\n');
            let black = self.black_stones();
            let needs = self.black_needs();
            let verdict = match self.winner() {
                Some(Color::Black) => {
                    format!("Black wins by {} stone", stones_text(black - needs))
                }
                Some(Color::White) => {
                    format!("White wins by {} stone", stones_text(needs - black))
                }
                None => "draw (和)".to_string(),
            };
            let plural_s = if (black - needs).abs() > 1.0 { "s" } else { "" };
            let verdict = if self.winner().is_some() {
                format!("{verdict}{plural_s}")
            } else {
                verdict
            };
            let needs_text = if self.komi == 0.0 && self.handicap_compensation == 0.0 {
                // Counts come in half stones: the least count above par wins.
                let wins = (needs * 2.0).floor() / 2.0 + 0.5;
                format!(
                    "needs more than {} ({} wins)",
                    stones_text(needs),
                    stones_text(wins)
                )
            } else {
                format!("needs {}", stones_text(needs))
            };
            let _ = writeln!(
                out,
                "Black {} stones, {needs_text}: {verdict}",
                stones_text(black)
            );
        } else {
            for c in Color::BOTH {
                let i = c.index();
                let _ = write!(
                    out,
                    "{}: {} territory + {} prisoners + {} dead {} = {}",
                    title(c),
                    self.territory[i],
                    self.prisoners[i],
                    self.dead[c.opponent().index()],
                    c.opponent(),
                    self.territory_points(c)
                );
                if self.seki_eyes[i] > 0 {
                    let _ = write!(out, " ({} in seki not counted)", self.seki_eyes[i]);
                }
                out.push('\n');
            }
            let _ = writeln!(out, "komi {}; dame {} (nobody's)", self.komi, self.shared);
            if self.handicap_compensation != 0.0 {
                let _ = writeln!(
                    out,
                    "handicap compensation {} to White",
                    self.handicap_compensation
                );
            }
            let black = self.territory_points(Color::Black) as f32;
            let white =
                self.territory_points(Color::White) as f32 + self.komi + self.handicap_compensation;
            let verdict = match self.winner() {
                Some(c) => format!("{} wins by {} points", title(c), self.score().abs()),
                None => "draw".to_string(),
            };
            let _ = writeln!(out, "Black {black}, White {white} with komi: {verdict}");
        }
        let _ = write!(out, "result in points: {}", self.result());
        out
    }
}

fn title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A point result as GTP answers it: `B+x`, `W+x` or `0` for a draw.
pub fn result_string(score: f32) -> String {
    if score > 0.0 {
        format!("B+{score}")
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".to_string()
    }
}

/// A number of stones with quarter fractions as a Chinese referee writes them:
/// `184¼`, `180½`, `¾`, `3¾`.
pub fn stones_text(x: f32) -> String {
    let quarters = (x.abs() * 4.0).round() as i64;
    let (whole, frac) = (quarters / 4, quarters % 4);
    let sign = if x < 0.0 && quarters != 0 { "-" } else { "" };
    let frac_text = ["", "¼", "½", "¾"][frac as usize];
    if whole == 0 && frac != 0 {
        format!("{sign}{frac_text}")
    } else {
        format!("{sign}{whole}{frac_text}")
    }
}

/// Counts the final position `board` under `rules`, with `status` giving each stone's fate
/// (indexed by point; empty points are ignored; use [`StoneStatus::Alive`] everywhere for
/// Tromp-Taylor). `prisoners` come from the board; `handicap` is the number of handicap
/// stones placed.
pub fn count(
    board: &Board,
    status: &[StoneStatus],
    rules: &Rules,
    komi: f32,
    handicap: usize,
) -> Count {
    let n = board.array_len();
    let living = |p: Point| -> Option<Color> {
        let c = board.cell(p).color()?;
        (status[p as usize] != StoneStatus::Dead).then_some(c)
    };
    let mut stones = [0u32; 2];
    let mut dead = [0u32; 2];
    for p in board.points() {
        if let Some(c) = board.cell(p).color() {
            if status[p as usize] == StoneStatus::Dead {
                dead[c.index()] += 1;
            } else {
                stones[c.index()] += 1;
            }
        }
    }

    // Regions of points without living stones, with the colours and seki chains they touch.
    let mut region_of = vec![usize::MAX; n];
    struct Region {
        size: u32,
        touches: [bool; 2],
        seki: bool,
    }
    let mut regions: Vec<Region> = Vec::new();
    let mut stack: Vec<Point> = Vec::new();
    for p in board.points() {
        if living(p).is_some() || region_of[p as usize] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut region = Region {
            size: 0,
            touches: [false; 2],
            seki: false,
        };
        region_of[p as usize] = id;
        stack.push(p);
        while let Some(q) = stack.pop() {
            region.size += 1;
            for nb in board.neighbors(q) {
                if !board.on_board(nb) {
                    continue;
                }
                match living(nb) {
                    Some(c) => {
                        region.touches[c.index()] = true;
                        if status[nb as usize] == StoneStatus::Seki {
                            region.seki = true;
                        }
                    }
                    None => {
                        if region_of[nb as usize] == usize::MAX {
                            region_of[nb as usize] = id;
                            stack.push(nb);
                        }
                    }
                }
            }
        }
        regions.push(region);
    }

    let mut territory = [0u32; 2];
    let mut seki_eyes = [0u32; 2];
    let mut shared = 0u32;
    let mut owner_of_region = vec![None; regions.len()];
    for (id, r) in regions.iter().enumerate() {
        match r.touches {
            [true, false] | [false, true] => {
                let c = if r.touches[0] {
                    Color::Black
                } else {
                    Color::White
                };
                owner_of_region[id] = Some(c);
                if r.seki {
                    seki_eyes[c.index()] += r.size;
                    if rules.scoring != Scoring::Territory {
                        territory[c.index()] += r.size;
                    }
                } else {
                    territory[c.index()] += r.size;
                }
            }
            _ => shared += r.size,
        }
    }

    // Living groups: chains joined directly or through their own territory (union-find).
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    // Key of a living stone: its chain head; key of an owned region: n + region id would
    // not fit, so regions are represented by their first point (any point of the region).
    let mut region_rep = vec![usize::MAX; regions.len()];
    for p in board.points() {
        let r = region_of[p as usize];
        if r != usize::MAX && region_rep[r] == usize::MAX {
            region_rep[r] = p as usize;
        }
    }
    for p in board.points() {
        let Some(c) = living(p) else { continue };
        let a = find(&mut parent, board.chain_id(p) as usize);
        for nb in board.neighbors(p) {
            let r = if board.on_board(nb) {
                region_of[nb as usize]
            } else {
                usize::MAX
            };
            if r == usize::MAX || owner_of_region[r] != Some(c) {
                continue;
            }
            let b = find(&mut parent, region_rep[r]);
            if a != b {
                parent[b] = a;
            }
        }
    }
    let mut groups = [0u32; 2];
    let mut counted = vec![false; n];
    for p in board.points() {
        let Some(c) = living(p) else { continue };
        let root = find(&mut parent, board.chain_id(p) as usize);
        if !counted[root] {
            counted[root] = true;
            groups[c.index()] += 1;
        }
    }

    let handicap_compensation = match rules.handicap_compensation {
        HandicapCompensation::PointPerStone if handicap >= 2 => handicap as f32,
        _ => 0.0,
    };
    Count {
        scoring: rules.scoring,
        rules_name: rules.name,
        points: (board.size() * board.size()) as u32,
        stones,
        territory,
        seki_eyes,
        shared,
        dead,
        prisoners: [board.prisoners(Color::Black), board.prisoners(Color::White)],
        groups,
        komi,
        handicap,
        handicap_compensation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn board_from(rows: &[&str]) -> Board {
        Board::from_diagram(rows).expect("valid diagram")
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

    fn all_alive(b: &Board) -> Vec<StoneStatus> {
        vec![StoneStatus::Alive; b.array_len()]
    }

    #[test]
    fn stones_text_writes_quarters() {
        assert_eq!(stones_text(184.25), "184¼");
        assert_eq!(stones_text(180.5), "180½");
        assert_eq!(stones_text(0.75), "¾");
        assert_eq!(stones_text(3.75), "3¾");
        assert_eq!(stones_text(32.0), "32");
        assert_eq!(result_string(1.5), "B+1.5");
        assert_eq!(result_string(-0.5), "W+0.5");
        assert_eq!(result_string(0.0), "0");
        assert_eq!(result_string(18.0), "B+18");
    }

    #[test]
    fn taxed_area_counts_groups_through_own_territory() {
        // Black: two groups (the C and G walls, with their own areas A-B and H-J); White:
        // the D and F walls joined through E, one group.
        let b = board_from(&[
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
            ". . X O . O X . .",
        ]);
        let mut owners = [Cell::Empty; MAX_POINTS];
        assert_eq!(taxed_area(&b, &mut owners), ([54, 27], [2, 1]));
        // (54 - 4) - (27 - 2) - 0.
        assert_eq!(taxed_area_score(&b, &mut owners, 0.0), 25.0);
        // The slow referee count agrees.
        let c = count(&b, &all_alive(&b), &Rules::ancient(), 0.0, 0);
        assert_eq!(c.groups, [2, 1]);
        assert_eq!(c.score(), 25.0);
        assert_eq!(c.black_stones(), 53.0);
        // A lone stone in the opponent's area is a group of its own under Tromp-Taylor
        // ownership: dame around it belongs to nobody.
        let b = board_from(&[". . .", ". X .", ". . O"]);
        assert_eq!(taxed_area(&b, &mut owners), ([1, 1], [1, 1]));
    }

    #[test]
    fn fast_taxed_score_agrees_with_the_referee_count_on_finished_playouts() {
        use crate::game::Game;
        use crate::playout::{Playout, Policy};
        use crate::rules::KoRule;
        let mut po = Playout::new(11);
        let mut owners = [Cell::Empty; MAX_POINTS];
        for size in [5, 7, 9] {
            let game = Game::new(size, Rules::chinese()).unwrap();
            for _ in 0..50 {
                po.start(game.board());
                po.run(
                    Color::Black,
                    game.positions(),
                    KoRule::Positional,
                    0.0,
                    Policy::Light,
                );
                let fast = taxed_area_score(&po.board, &mut owners, 0.5);
                let slow = count(&po.board, &all_alive(&po.board), &Rules::ancient(), 0.5, 0);
                assert_eq!(fast, slow.score(), "{:?}", po.board);
                let area = count(&po.board, &all_alive(&po.board), &Rules::chinese(), 7.5, 0);
                assert_eq!(area.score(), tromp_taylor_score(&po.board, 7.5));
            }
        }
    }

    #[test]
    fn territory_count_uses_prisoners_dead_stones_and_no_seki_points() {
        // Black wall on C, White on D; a dead white stone at A2 in Black's area.
        let b = board_from(&[
            ". . X O .", //
            ". . X O .",
            ". . X O .",
            "O . X O .",
            ". . X O .",
        ]);
        let mut status = all_alive(&b);
        let Ok(Move::Play(a2)) = b.parse_move("A2") else {
            panic!()
        };
        status[a2 as usize] = StoneStatus::Dead;
        let c = count(&b, &status, &Rules::japanese(), 0.5, 0);
        // Black: 10 territory (A2 included) + 1 dead white; White: 5 territory.
        assert_eq!(c.territory, [10, 5]);
        assert_eq!(c.dead, [0, 1]);
        assert_eq!(c.score(), 11.0 - 5.0 - 0.5);
        assert_eq!(c.result(), "B+5.5");
        let c = count(&b, &status, &Rules::chinese(), 7.5, 0);
        // Area: 15 - 10 - 7.5.
        assert_eq!(c.result(), "W+2.5");
        // Seki eyes are nobody's under territory rules only.
        let mut status = all_alive(&b);
        for p in b.points() {
            if b.cell(p) == Cell::Black {
                status[p as usize] = StoneStatus::Seki;
            }
        }
        status[a2 as usize] = StoneStatus::Dead;
        let c = count(&b, &status, &Rules::japanese(), 0.0, 0);
        assert_eq!(c.territory[0], 0);
        assert_eq!(c.seki_eyes[0], 10);
        let c = count(&b, &status, &Rules::chinese(), 0.0, 0);
        assert_eq!(c.territory[0], 10);
    }

    #[test]
    fn handicap_compensation_is_one_point_per_stone_under_chinese_rules_only() {
        let b = board_from(&[". X O .", ". X O .", ". X O .", ". X O ."]);
        let c = count(&b, &all_alive(&b), &Rules::chinese(), 0.0, 4);
        assert_eq!(c.handicap_compensation, 4.0);
        assert_eq!(c.score(), 8.0 - 8.0 - 4.0);
        assert!(
            c.report()
                .contains("Black 8 stones, needs 10: White wins by 2 stones")
        );
        let c = count(&b, &all_alive(&b), &Rules::japanese(), 0.0, 4);
        assert_eq!(c.handicap_compensation, 0.0);
        let c = count(&b, &all_alive(&b), &Rules::ancient(), 0.0, 4);
        assert_eq!(c.handicap_compensation, 0.0);
    }
}
