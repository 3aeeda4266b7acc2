//! Rules as data: one plain [`Rules`] value says how a game is played and scored, with named
//! presets for the rulesets of our seed documents (`chinese`, `ancient`) and the ones players
//! compare them with (`japanese`, `korean`, `tromp-taylor`).
//!
//! Everything that differs between rulesets is a field here, so the rest of the engine asks the
//! value instead of testing a ruleset's name.

use std::fmt;

use crate::board::Color;

/// Which repeated positions are forbidden.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KoRule {
    /// No move may recreate an earlier whole-board position (禁止全局同形再現).
    Positional,
    /// No move may recreate an earlier position with the same player to move.
    Situational,
    /// Only the immediate retake of a single-stone ko is forbidden.
    Simple,
}

impl KoRule {
    /// Parses `positional`, `situational` or `simple` (also `psk`, `ssk`).
    pub fn parse(name: &str) -> Result<KoRule, String> {
        match name.to_ascii_lowercase().as_str() {
            "positional" | "psk" | "pos_superko" | "positional-superko" => Ok(KoRule::Positional),
            "situational" | "ssk" | "superko" | "situational-superko" => Ok(KoRule::Situational),
            "simple" | "ko" => Ok(KoRule::Simple),
            _ => Err(format!(
                "unknown ko rule '{name}' (use positional, situational or simple)"
            )),
        }
    }

    /// The option name of this ko rule.
    pub fn name(self) -> &'static str {
        match self {
            KoRule::Positional => "positional",
            KoRule::Situational => "situational",
            KoRule::Simple => "simple",
        }
    }
}

/// How the final position is counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scoring {
    /// Stones plus surrounded empty points (數子法); dame split half and half.
    Area,
    /// Surrounded empty points plus prisoners (數目法); no points in seki.
    Territory,
    /// Area counting where every living group costs its owner 2 points (還棋頭).
    TaxedArea,
}

/// How a handicap game compensates White beyond komi.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HandicapCompensation {
    /// Nothing: the komi alone settles it.
    None,
    /// White receives one point per handicap stone (Black returns N/2 stones, 讓子貼還).
    PointPerStone,
}

/// Stones that stand on the board before the first move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Setup {
    /// An empty board.
    Empty,
    /// 座子: two black and two white stones on the corner star points, each colour on one
    /// diagonal. `flipped` swaps the diagonals (see [`Rules::setup_stones`]).
    Zuozi {
        /// Put White on the upper-left and lower-right instead.
        flipped: bool,
    },
}

/// A complete ruleset.
#[derive(Clone, PartialEq, Debug)]
pub struct Rules {
    /// Preset name, as accepted by [`Rules::preset`].
    pub name: &'static str,
    /// Counting method.
    pub scoring: Scoring,
    /// Default komi in points (GTP `komi` overrides it per game).
    pub komi: f32,
    /// Repetition rule.
    pub ko: KoRule,
    /// Compensation for handicap stones.
    pub handicap_compensation: HandicapCompensation,
    /// Stones placed before play.
    pub setup: Setup,
    /// Who moves first in an even game.
    pub first_player: Color,
    /// Whether dead stones are removed by agreement before counting; when false (Tromp-Taylor)
    /// every stone on the board counts as alive.
    pub remove_dead_stones: bool,
}

/// Names of the presets, in the order `shoutan-rules` lists them.
pub const PRESET_NAMES: [&str; 5] = ["chinese", "japanese", "korean", "ancient", "tromp-taylor"];

impl Default for Rules {
    fn default() -> Rules {
        Rules::chinese()
    }
}

impl Rules {
    /// Modern Chinese rules: area counting, komi 3¾ stones (7.5 points), positional superko,
    /// White gets N points for N handicap stones.
    pub fn chinese() -> Rules {
        Rules {
            name: "chinese",
            scoring: Scoring::Area,
            komi: 7.5,
            ko: KoRule::Positional,
            handicap_compensation: HandicapCompensation::PointPerStone,
            setup: Setup::Empty,
            first_player: Color::Black,
            remove_dead_stones: true,
        }
    }

    /// Japanese rules: territory counting, komi 6.5, simple ko.
    pub fn japanese() -> Rules {
        Rules {
            name: "japanese",
            scoring: Scoring::Territory,
            komi: 6.5,
            ko: KoRule::Simple,
            handicap_compensation: HandicapCompensation::None,
            setup: Setup::Empty,
            first_player: Color::Black,
            remove_dead_stones: true,
        }
    }

    /// Korean rules: counted like the Japanese ones.
    pub fn korean() -> Rules {
        Rules {
            name: "korean",
            ..Rules::japanese()
        }
    }

    /// Ancient Chinese rules: 座子 setup, White first, no komi, area counting with the group
    /// tax (還棋頭).
    pub fn ancient() -> Rules {
        Rules {
            name: "ancient",
            scoring: Scoring::TaxedArea,
            komi: 0.0,
            ko: KoRule::Positional,
            handicap_compensation: HandicapCompensation::None,
            setup: Setup::Zuozi { flipped: false },
            first_player: Color::White,
            remove_dead_stones: true,
        }
    }

    /// The ancient rules with the 座子 diagonals swapped: Black on the upper-right and
    /// lower-left star points, White on the other two.
    pub fn ancient_flipped() -> Rules {
        Rules {
            name: "ancient-flipped",
            setup: Setup::Zuozi { flipped: true },
            ..Rules::ancient()
        }
    }

    /// Tromp-Taylor: area counting of the board exactly as it stands, positional superko.
    pub fn tromp_taylor() -> Rules {
        Rules {
            name: "tromp-taylor",
            scoring: Scoring::Area,
            komi: 7.5,
            ko: KoRule::Positional,
            handicap_compensation: HandicapCompensation::None,
            setup: Setup::Empty,
            first_player: Color::Black,
            remove_dead_stones: false,
        }
    }

    /// The preset called `name` (case-insensitive; `tromp_taylor` and `tt` also accepted).
    pub fn preset(name: &str) -> Result<Rules, String> {
        match name.to_ascii_lowercase().as_str() {
            "chinese" | "cn" => Ok(Rules::chinese()),
            "japanese" | "jp" => Ok(Rules::japanese()),
            "korean" | "kr" => Ok(Rules::korean()),
            "ancient" | "ancient-chinese" | "ancient_chinese" => Ok(Rules::ancient()),
            "ancient-flipped" | "ancient_flipped" => Ok(Rules::ancient_flipped()),
            "tromp-taylor" | "tromp_taylor" | "tt" => Ok(Rules::tromp_taylor()),
            _ => Err(format!(
                "unknown rules '{name}' (known: {}, ancient-flipped)",
                PRESET_NAMES.join(", ")
            )),
        }
    }

    /// The preset for a KGS rules name (GTP `kgs-rules`): `chinese` and `japanese` map to our
    /// presets (our own preset names are accepted too); `aga` and `new_zealand` are refused
    /// with an explanation, since their pass stones and suicide rule are not implemented.
    pub fn from_kgs(name: &str) -> Result<Rules, String> {
        match name.to_ascii_lowercase().as_str() {
            "aga" => Err(
                "aga rules are not supported (no pass stones); use chinese for area counting"
                    .into(),
            ),
            "new_zealand" | "nz" | "new-zealand" => Err(
                "new_zealand rules are not supported (suicide is illegal here); use chinese".into(),
            ),
            _ => Rules::preset(name),
        }
    }

    /// A one-line description: scoring, komi, ko, handicap, setup, first player, tax.
    pub fn describe(&self) -> String {
        let scoring = match self.scoring {
            Scoring::Area => "area counting",
            Scoring::Territory => "territory counting",
            Scoring::TaxedArea => "area counting with group tax",
        };
        let handicap = match self.handicap_compensation {
            HandicapCompensation::None => "no handicap compensation",
            HandicapCompensation::PointPerStone => "handicap: White +1 point per stone",
        };
        let setup = match self.setup {
            Setup::Empty => "empty board",
            Setup::Zuozi { flipped: false } => "zuozi setup stones (black D16 Q4)",
            Setup::Zuozi { flipped: true } => "zuozi setup stones (black Q16 D4)",
        };
        let dead = if self.remove_dead_stones {
            "dead stones removed"
        } else {
            "all stones count as alive"
        };
        format!(
            "{}: {scoring}, komi {}, ko {}, {handicap}, {setup}, {} moves first, {dead}",
            self.name,
            self.komi,
            self.ko.name(),
            self.first_player
        )
    }

    /// The 座子 stones for a board of `size` (empty for other setups or boards without corner
    /// star points, i.e. even sizes or sizes below 7).
    ///
    /// Default orientation, as in the classical diagrams: White on the upper-right and
    /// lower-left star points (Q16 and D4 on 19x19), Black on the upper-left and lower-right
    /// (D16 and Q4). `flipped` swaps the colours. Coordinates are (col, row), 0-based from the
    /// lower-left corner.
    pub fn setup_stones(&self, size: usize) -> Vec<(usize, usize, Color)> {
        match self.setup {
            Setup::Empty => Vec::new(),
            Setup::Zuozi { flipped } => {
                if size < 7 || size.is_multiple_of(2) {
                    return Vec::new();
                }
                let edge = if size < 12 { 2 } else { 3 };
                let far = size - 1 - edge;
                let (upper_right_and_lower_left, upper_left_and_lower_right) = if flipped {
                    (Color::Black, Color::White)
                } else {
                    (Color::White, Color::Black)
                };
                vec![
                    (far, far, upper_right_and_lower_left),
                    (edge, edge, upper_right_and_lower_left),
                    (edge, far, upper_left_and_lower_right),
                    (far, edge, upper_left_and_lower_right),
                ]
            }
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_by_name() {
        for name in PRESET_NAMES {
            assert_eq!(Rules::preset(name).map(|r| r.name), Ok(name));
        }
        assert!(Rules::preset("aga").is_err());
        assert_eq!(Rules::from_kgs("japanese").map(|r| r.name), Ok("japanese"));
        assert_eq!(Rules::from_kgs("CHINESE").map(|r| r.name), Ok("chinese"));
        assert!(
            Rules::from_kgs("aga")
                .unwrap_err()
                .contains("not supported")
        );
        assert!(
            Rules::from_kgs("new_zealand")
                .unwrap_err()
                .contains("not supported")
        );
        assert!(Rules::from_kgs("martian").is_err());
        assert_eq!(Rules::preset("Chinese").map(|r| r.komi), Ok(7.5));
    }

    #[test]
    fn zuozi_on_19x19_uses_the_four_corner_star_points() {
        let stones = Rules::ancient().setup_stones(19);
        // Q16 = (15, 15) white, D4 = (3, 3) white, D16 = (3, 15) black, Q4 = (15, 3) black.
        assert!(stones.contains(&(15, 15, Color::White)));
        assert!(stones.contains(&(3, 3, Color::White)));
        assert!(stones.contains(&(3, 15, Color::Black)));
        assert!(stones.contains(&(15, 3, Color::Black)));
        assert_eq!(Rules::ancient().setup_stones(9).len(), 4);
        assert!(Rules::ancient().setup_stones(8).is_empty());
        assert!(Rules::chinese().setup_stones(19).is_empty());
        let flipped = Rules::preset("ancient-flipped").unwrap().setup_stones(19);
        assert!(flipped.contains(&(15, 15, Color::Black)));
        assert!(flipped.contains(&(3, 15, Color::White)));
        // Any odd size from 7 uses its corner star points: third line below 12x12.
        assert!(
            Rules::ancient()
                .setup_stones(7)
                .contains(&(2, 4, Color::Black))
        );
        assert!(Rules::ancient().setup_stones(5).is_empty());
    }

    #[test]
    fn ko_rules_parse() {
        assert_eq!(KoRule::parse("positional"), Ok(KoRule::Positional));
        assert_eq!(KoRule::parse("SITUATIONAL"), Ok(KoRule::Situational));
        assert_eq!(KoRule::parse("simple"), Ok(KoRule::Simple));
        assert!(KoRule::parse("none").is_err());
    }
}
