//! The referee's count of a final position.
//!
//! [`count`] counts a position for a given fate of every stone (alive, dead or in seki, as
//! [`crate::score::status`] decides) under any [`Scoring`]: area (stones + territory,
//! shared points split half and half), territory (territory + prisoners, nothing in seki)
//! or taxed area (area minus one stone per living group). The [`Count`] it returns knows the
//! result and tells it as a Chinese referee would. Handicap compensation is decided here,
//! once, for the count and the search alike ([`effective_komi`]).

use std::fmt::Write as _;

use crate::board::{Board, Cell, Color, MAX_POINTS, Point};
use crate::game::Game;
use crate::rules::{HandicapCompensation, Rules, Scoring};

use super::area::{count_groups, flood_region, region_owner};
use super::status::{StatusConfig, StoneStatus, decide};

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

/// Points White receives for `handicap` stones under `rules`: one per stone under Chinese
/// rules (Black gives back half the handicap in stones, 讓子貼還), nothing otherwise. One
/// stone is no handicap (Black simply plays first without komi), so it earns nothing.
pub fn handicap_compensation(rules: &Rules, handicap: usize) -> f32 {
    match rules.handicap_compensation {
        HandicapCompensation::PointPerStone if handicap >= 2 => handicap as f32,
        _ => 0.0,
    }
}

/// The total komi White receives in `game`, handicap compensation included: what the final
/// count charges Black, and so what the search plays for.
pub fn effective_komi(game: &Game) -> f32 {
    game.komi() + handicap_compensation(game.rules(), game.handicap())
}

/// The referee's decision on every stone of `game`'s position ([`super::status::decide`])
/// and the count that follows from it: what `final_score` and `final_status_list` answer,
/// and what the search checks before it passes.
pub fn final_count(game: &Game) -> (Vec<StoneStatus>, Count) {
    let status = decide(game, &StatusConfig::for_size(game.size()));
    let c = count(
        game.board(),
        &status,
        game.rules(),
        game.komi(),
        game.handicap(),
    );
    (status, c)
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
    let living = |p: Point| -> Option<Color> {
        let c = board.cell(p).color()?;
        (status[p as usize] != StoneStatus::Dead).then_some(c)
    };
    let mut stones = [0u32; 2];
    let mut dead = [0u32; 2];
    let mut owners = [Cell::Empty; MAX_POINTS];
    for p in board.points() {
        if let Some(c) = board.cell(p).color() {
            if status[p as usize] == StoneStatus::Dead {
                dead[c.index()] += 1;
            } else {
                stones[c.index()] += 1;
                owners[p as usize] = Cell::stone(c);
            }
        }
    }

    // Regions of points without living stones: territory (seki eyes apart) or shared.
    let mut territory = [0u32; 2];
    let mut seki_eyes = [0u32; 2];
    let mut shared = 0u32;
    let mut entered = [false; MAX_POINTS];
    let mut region = [0 as Point; MAX_POINTS];
    for p in board.points() {
        if living(p).is_some() || entered[p as usize] {
            continue;
        }
        entered[p as usize] = true;
        let mut seki = false;
        let (size, touches) = flood_region(
            board,
            p,
            &mut region,
            |n| {
                let c = living(n)?;
                seki |= status[n as usize] == StoneStatus::Seki;
                Some(c)
            },
            |n| {
                let enters = board.on_board(n) && !entered[n as usize];
                if enters {
                    entered[n as usize] = true;
                }
                enters
            },
        );
        let owner = region_owner(touches);
        match owner.color() {
            Some(c) if seki => {
                seki_eyes[c.index()] += size as u32;
                if rules.scoring != Scoring::Territory {
                    territory[c.index()] += size as u32;
                }
            }
            Some(c) => territory[c.index()] += size as u32,
            None => shared += size as u32,
        }
        for &q in &region[..size] {
            owners[q as usize] = owner;
        }
    }
    // Living groups: stones connected directly or through their own territory.
    let groups = count_groups(board, &owners);

    let handicap_compensation = handicap_compensation(rules, handicap);
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
    use crate::board::test_support::board_from;

    use crate::score::area::{taxed_area, taxed_area_score, tromp_taylor_score};

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
    fn effective_komi_adds_the_handicap_compensation() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(effective_komi(&g), 7.5);
        g.set_handicap_count(3);
        assert_eq!(effective_komi(&g), 10.5);
        // One stone is no handicap.
        g.set_handicap_count(1);
        assert_eq!(effective_komi(&g), 7.5);
        let mut j = Game::new(9, Rules::japanese()).unwrap();
        j.set_handicap_count(3);
        assert_eq!(effective_komi(&j), j.komi());
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
