//! Dynamic komi in handicap games: the search counts with a komi shifted in White's favour, so
//! that its win rates stay away from 0 and 1 where every move looks the same.
//!
//! A handicap game starts far from even. White, giving the stones, sees nearly every
//! simulation lost and cannot tell a good move from a bad one (and would resign); Black,
//! receiving them, sees nearly every simulation won and plays slack moves that give the
//! advantage back. Counting with extra komi for White makes the game look closer for both
//! sides: White plays for a smaller loss that can become a win, Black keeps its lead. As in
//! Pachi, the shift shrinks as the game goes on and is gone before the end, where the real
//! komi decides. Only the search's evaluation moves: the count, passing and the score
//! announced use the real komi.
//!
//! Two schemes: [`DynamicKomiScheme::Linear`] shifts by a value per handicap stone that falls
//! linearly to nothing over the first part of the game; [`DynamicKomiScheme::Adaptive`] starts
//! there and then moves the shift a point at a time to keep the engine's own win rate between
//! [`RED_ZONE`] and [`GREEN_ZONE`], never back to a shift that once put it in the red zone.
//!
//! In even games an optional **winning margin** ([`DynamicKomi::with_margin`], Pachi's
//! linear scheme past its opening moves): once the engine's own win rate passes a green zone
//! it counts with a point of komi more against itself each move, so that a won game is played
//! to stay won by a margin instead of drifting towards half a point, where one misread loses
//! it; below [`MARGIN_ORANGE_DROP`] under the green zone it gives [`MARGIN_DROP`] points back
//! and never climbs past that again, and below even chances it stops for the rest of the game.

use crate::board::Color;
use crate::game::Game;

use super::results::SearchResult;

/// Points of extra komi per handicap stone when the engine plays Black (it holds the stones
/// and should feel the game closer than it is). A stone is worth about twice the komi, some
/// 14 points, but early in the game our playouts see only 4 to 6 of them (the search's mean
/// score: B+16 with 4 stones, B+54 with 9, on 19x19), and the shift is there to bring the
/// search's own win rates near the middle. (Pachi, whose playouts see more, uses 12 and 8.)
pub const STONE_VALUE_AS_BLACK: f32 = 6.0;
/// Points of extra komi per handicap stone when the engine plays White (it gives the stones
/// and should feel behind, but not hopeless).
pub const STONE_VALUE_AS_WHITE: f32 = 5.0;

/// Below this win rate of its own the engine gives back a shift that made it lose.
pub const RED_ZONE: f64 = 0.45;
/// Above this win rate of its own the engine shifts komi a point further against itself.
pub const GREEN_ZONE: f64 = 0.60;
/// Root visits below which a win rate is too noisy to adapt the shift on.
pub const ADAPT_MIN_VISITS: u32 = 500;

/// In an even game with a winning margin: how far under the green zone the win rate may fall
/// before the margin shrinks (Pachi: green 0.85, orange 0.80).
pub const MARGIN_ORANGE_DROP: f64 = 0.05;
/// Points of margin given back when the win rate falls into the orange zone (Pachi's 4).
pub const MARGIN_DROP: f32 = 4.0;

/// How the search shifts komi in handicap games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DynamicKomiScheme {
    /// The real komi only.
    Off,
    /// A shift per handicap stone that falls linearly to 0 (Pachi's default).
    #[default]
    Linear,
    /// The linear shift, then adjusted to keep the engine's win rate in a band.
    Adaptive,
}

impl DynamicKomiScheme {
    /// Parses `off`, `linear` or `adaptive` (also as 0, 1, 2 for `--search-param`).
    pub fn parse(text: &str) -> Result<DynamicKomiScheme, String> {
        match text.to_ascii_lowercase().as_str() {
            "off" | "none" | "0" => Ok(DynamicKomiScheme::Off),
            "linear" | "1" => Ok(DynamicKomiScheme::Linear),
            "adaptive" | "2" => Ok(DynamicKomiScheme::Adaptive),
            _ => Err(format!(
                "dynamic komi '{text}': expected off, linear or adaptive"
            )),
        }
    }
}

/// Moves (of both players) over which the linear shift falls to 0, by board size and the
/// engine's colour (Pachi's figures: White catches up sooner than Black lets go).
pub fn linear_moves(size: usize, engine: Color) -> usize {
    if size >= 19 {
        match engine {
            Color::Black => 200,
            Color::White => 150,
        }
    } else if size >= 13 {
        50
    } else {
        15
    }
}

/// The linear scheme's extra komi for White when `engine` is to move at `move_number` in a
/// game with `handicap` stones on a board of `size`: a value per stone falling linearly to 0
/// at [`linear_moves`].
pub fn linear_extra_komi(size: usize, handicap: usize, move_number: usize, engine: Color) -> f32 {
    if handicap < 2 {
        return 0.0;
    }
    let moves = linear_moves(size, engine);
    if move_number >= moves {
        return 0.0;
    }
    let per_stone = match engine {
        Color::Black => STONE_VALUE_AS_BLACK,
        Color::White => STONE_VALUE_AS_WHITE,
    };
    per_stone * handicap as f32 * (moves - move_number) as f32 / moves as f32
}

/// The engine's dynamic komi through a game: which scheme, and what the adaptive scheme has
/// learnt so far.
#[derive(Clone, Debug, Default)]
pub struct DynamicKomi {
    /// The scheme in force.
    pub scheme: DynamicKomiScheme,
    /// The adaptive scheme's shift from the engine's side: points of komi it gives away
    /// (positive: it counts as if the opponent had them) beyond the linear shift.
    adjustment: f32,
    /// The smallest give-away that ever put the engine in the red zone: never reached again.
    ratchet: Option<f32>,
    /// Game length at the last move (a shorter game is a new game).
    last_move_number: usize,
    /// Even games: the win rate above which the engine plays for a margin (0: never).
    margin_green: f64,
    /// Even games: the points the engine counts against itself now.
    margin: f32,
    /// Even games: the margin never to climb past again (0 once the game looked lost).
    margin_ratchet: Option<f32>,
}

impl DynamicKomi {
    /// A fresh state under `scheme`.
    pub fn new(scheme: DynamicKomiScheme) -> DynamicKomi {
        DynamicKomi {
            scheme,
            ..DynamicKomi::default()
        }
    }

    /// The same, also playing even games for a margin once the engine's own win rate
    /// passes `green` (0 or less: never; Pachi's is 0.85).
    pub fn with_margin(scheme: DynamicKomiScheme, green: f64) -> DynamicKomi {
        DynamicKomi {
            margin_green: green.max(0.0),
            ..DynamicKomi::new(scheme)
        }
    }

    /// The extra komi for White (points; negative favours Black) that the search for
    /// `engine`'s move in `game` should count with.
    pub fn extra_komi(&mut self, game: &Game, engine: Color) -> f32 {
        if game.move_number() < self.last_move_number {
            self.adjustment = 0.0;
            self.ratchet = None;
            self.margin = 0.0;
            self.margin_ratchet = None;
        }
        self.last_move_number = game.move_number();
        let handicap = game.handicap();
        if handicap < 2 {
            return match engine {
                Color::Black => self.margin,
                Color::White => -self.margin,
            };
        }
        if self.scheme == DynamicKomiScheme::Off {
            return 0.0;
        }
        let linear = linear_extra_komi(game.size(), handicap, game.move_number(), engine);
        let give_away = match engine {
            Color::Black => linear,
            Color::White => -linear,
        } + self.adjustment;
        match engine {
            Color::Black => give_away,
            Color::White => -give_away,
        }
    }

    /// Learns from the search behind `engine`'s move (adaptive scheme): a win rate in the
    /// green zone gives a point more away, one in the red zone takes two back and remembers
    /// not to go there again.
    pub fn observe(&mut self, game: &Game, engine: Color, result: &SearchResult) {
        if game.handicap() < 2 {
            self.observe_even(game, engine, result);
            return;
        }
        if self.scheme != DynamicKomiScheme::Adaptive
            || game.handicap() < 2
            || result.summary.root_visits < ADAPT_MIN_VISITS
        {
            return;
        }
        let winrate = result.winrate();
        let linear = linear_extra_komi(game.size(), game.handicap(), game.move_number(), engine);
        let base = match engine {
            Color::Black => linear,
            Color::White => -linear,
        };
        let give_away = base + self.adjustment;
        if winrate < RED_ZONE {
            if give_away > 0.0 {
                self.ratchet = Some(self.ratchet.map_or(give_away, |r| r.min(give_away)));
            }
            self.adjustment -= 2.0;
        } else if winrate > GREEN_ZONE && self.ratchet.is_none_or(|r| give_away + 1.0 < r) {
            self.adjustment += 1.0;
        }
    }
}

impl DynamicKomi {
    /// The winning margin's step after a move of an even game: a point more in the green
    /// zone (up to the ratchet), [`MARGIN_DROP`] back in the orange zone, and nothing for the
    /// rest of the game once the engine's chances fell below even. Only past the opening
    /// moves ([`linear_moves`]), where the win rates start to mean something.
    fn observe_even(&mut self, game: &Game, engine: Color, result: &SearchResult) {
        if self.margin_green <= 0.0
            || game.move_number() < linear_moves(game.size(), engine)
            || result.summary.root_visits < ADAPT_MIN_VISITS
        {
            return;
        }
        let winrate = result.winrate();
        if winrate < 0.5 {
            self.margin = 0.0;
            self.margin_ratchet = Some(0.0);
        } else if winrate < self.margin_green - MARGIN_ORANGE_DROP && self.margin > 0.0 {
            self.margin = (self.margin - MARGIN_DROP).max(0.0);
            self.margin_ratchet = Some(self.margin);
        } else if winrate > self.margin_green
            && self.margin_ratchet.is_none_or(|r| self.margin + 1.0 <= r)
        {
            self.margin += 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn linear_komi_falls_to_nothing() {
        // Nine stones on 19x19: Black counts 9 x 6 = 54 points for White at the start,
        // half at move 100, none from move 200; White counts 9 x 5 = 45, none from move 150.
        assert_eq!(linear_extra_komi(19, 9, 0, Color::Black), 54.0);
        assert_eq!(linear_extra_komi(19, 9, 100, Color::Black), 27.0);
        assert_eq!(linear_extra_komi(19, 9, 200, Color::Black), 0.0);
        assert_eq!(linear_extra_komi(19, 9, 0, Color::White), 45.0);
        assert_eq!(linear_extra_komi(19, 9, 75, Color::White), 22.5);
        assert_eq!(linear_extra_komi(19, 9, 150, Color::White), 0.0);
        // No handicap (or one stone, which only gives Black the first move): no shift.
        assert_eq!(linear_extra_komi(19, 0, 0, Color::White), 0.0);
        assert_eq!(linear_extra_komi(19, 1, 0, Color::White), 0.0);
        // Small boards let go within 15 moves.
        assert_eq!(linear_extra_komi(9, 2, 15, Color::Black), 0.0);
    }

    fn handicap_game(stones: usize) -> Game {
        let mut g = Game::new(19, Rules::chinese()).unwrap();
        g.set_handicap_count(stones);
        g
    }

    #[test]
    fn both_sides_count_with_komi_shifted_towards_white() {
        // Giving the stones, White counts with more komi for itself; receiving them, Black
        // counts with more komi for White: both see a closer game than the board shows.
        let g = handicap_game(4);
        let mut dk = DynamicKomi::new(DynamicKomiScheme::Linear);
        assert_eq!(dk.extra_komi(&g, Color::White), 20.0);
        assert_eq!(dk.extra_komi(&g, Color::Black), 24.0);
        assert_eq!(
            DynamicKomi::new(DynamicKomiScheme::Off).extra_komi(&g, Color::White),
            0.0
        );
        // An even game has no shift under any scheme.
        let even = handicap_game(0);
        let mut adaptive = DynamicKomi::new(DynamicKomiScheme::Adaptive);
        assert_eq!(adaptive.extra_komi(&even, Color::White), 0.0);
    }

    fn result_with(winrate: f64) -> SearchResult {
        use super::super::results::{Candidate, Summary};
        SearchResult {
            summary: Summary {
                color: Color::Black,
                playouts: 1000,
                elapsed: std::time::Duration::from_secs(1),
                candidates: vec![Candidate {
                    mv: crate::board::Move::Pass,
                    visits: 900,
                    winrate,
                    lcb: winrate,
                    prior: 0.0,
                    score_lead: 0.0,
                    pv: Vec::new(),
                }],
                root_visits: 1000,
                nodes: (0, 0),
                reclaims: 0,
                ownership: None,
            },
            ownership: crate::score::Ownership::none(),
            score: 0.0,
            pass_withheld: false,
        }
    }

    #[test]
    fn adaptive_komi_keeps_the_win_rate_in_its_band() {
        let g = handicap_game(4);
        let mut dk = DynamicKomi::new(DynamicKomiScheme::Adaptive);
        let start = dk.extra_komi(&g, Color::Black);
        // Black wins too easily: it gives a point more away each time.
        dk.observe(&g, Color::Black, &result_with(0.8));
        assert_eq!(dk.extra_komi(&g, Color::Black), start + 1.0);
        dk.observe(&g, Color::Black, &result_with(0.8));
        assert_eq!(dk.extra_komi(&g, Color::Black), start + 2.0);
        // In the band nothing moves.
        dk.observe(&g, Color::Black, &result_with(0.5));
        assert_eq!(dk.extra_komi(&g, Color::Black), start + 2.0);
        // Red: two points back, and the shift that lost is not tried again.
        dk.observe(&g, Color::Black, &result_with(0.3));
        assert_eq!(dk.extra_komi(&g, Color::Black), start);
        dk.observe(&g, Color::Black, &result_with(0.8));
        assert_eq!(dk.extra_komi(&g, Color::Black), start + 1.0);
        dk.observe(&g, Color::Black, &result_with(0.8));
        assert_eq!(dk.extra_komi(&g, Color::Black), start + 1.0, "ratchet");
        // White, losing, takes komi for itself in points it needs.
        let mut w = DynamicKomi::new(DynamicKomiScheme::Adaptive);
        let start = w.extra_komi(&g, Color::White);
        w.observe(&g, Color::White, &result_with(0.2));
        assert_eq!(w.extra_komi(&g, Color::White), start + 2.0);
    }

    #[test]
    fn an_even_game_is_played_for_a_margin_only_when_asked_and_well_ahead() {
        let mut g = Game::new(9, Rules::chinese()).unwrap();
        let mut plain = DynamicKomi::new(DynamicKomiScheme::Linear);
        plain.observe(&g, Color::Black, &result_with(0.95));
        assert_eq!(plain.extra_komi(&g, Color::Black), 0.0);
        let mut dk = DynamicKomi::with_margin(DynamicKomiScheme::Linear, 0.85);
        // Not in the opening: 15 moves on 9x9.
        dk.observe(&g, Color::Black, &result_with(0.95));
        assert_eq!(dk.extra_komi(&g, Color::Black), 0.0);
        for i in 0..16 {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            g.play(crate::board::Move::Pass, c).unwrap();
        }
        // Black well ahead: a point more against itself each move, as White's komi.
        dk.observe(&g, Color::Black, &result_with(0.9));
        dk.observe(&g, Color::Black, &result_with(0.9));
        assert_eq!(dk.extra_komi(&g, Color::Black), 2.0);
        // Between orange and green nothing moves; in the orange zone 4 back, floored at 0,
        // and never past that again.
        dk.observe(&g, Color::Black, &result_with(0.82));
        assert_eq!(dk.extra_komi(&g, Color::Black), 2.0);
        dk.observe(&g, Color::Black, &result_with(0.7));
        assert_eq!(dk.extra_komi(&g, Color::Black), 0.0);
        dk.observe(&g, Color::Black, &result_with(0.9));
        assert_eq!(dk.extra_komi(&g, Color::Black), 0.0, "ratchet");
        // White ahead counts komi in Black's favour.
        let mut w = DynamicKomi::with_margin(DynamicKomiScheme::Off, 0.85);
        w.observe(&g, Color::White, &result_with(0.9));
        assert_eq!(w.extra_komi(&g, Color::White), -1.0);
        // Below even chances it stops for good.
        w.observe(&g, Color::White, &result_with(0.4));
        w.observe(&g, Color::White, &result_with(0.95));
        assert_eq!(w.extra_komi(&g, Color::White), 0.0);
    }
}
