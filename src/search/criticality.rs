//! Criticality of the root's moves: how much owning a move's point at the end of a
//! simulation goes with winning it (Coulom's criticality, Pachi's `crit_rave`).
//!
//! AMAF values say how a move did wherever it was played; they do not say whether the point
//! matters. A point whose owner at the end decides the game (the vital point of a race, the
//! cutting point of a big group) is critical: its owner and the winner go together more
//! often than their separate frequencies predict. For a well visited root move the search
//! adds that excess to the move's AMAF value, as Pachi does, so a critical move keeps its
//! visits even where its AMAF statistics are muddled by playouts that played it too late.
//!
//! Only the root's children are tracked, over the simulations of the current search: Pachi
//! uses the statistic only for nodes of thousands of visits, which at a second a move are
//! the root's best few moves.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use crate::board::{Cell, MAX_POINTS, Point};

/// Per root move (indexed by its point): simulations through it and who owned its point
/// and who won at their ends. Threads add with atomic increments.
pub struct RootCriticality {
    through: Box<[AtomicU32]>,
    black_owns: Box<[AtomicU32]>,
    white_owns: Box<[AtomicU32]>,
    winner_owns: Box<[AtomicU32]>,
    black_wins: Box<[AtomicU32]>,
}

impl Default for RootCriticality {
    fn default() -> RootCriticality {
        RootCriticality::new()
    }
}

fn counters() -> Box<[AtomicU32]> {
    (0..MAX_POINTS).map(|_| AtomicU32::new(0)).collect()
}

impl RootCriticality {
    /// Zero counts.
    pub fn new() -> RootCriticality {
        RootCriticality {
            through: counters(),
            black_owns: counters(),
            white_owns: counters(),
            winner_owns: counters(),
            black_wins: counters(),
        }
    }

    /// Forgets all counts (a new search).
    pub fn clear(&self) {
        for table in [
            &self.through,
            &self.black_owns,
            &self.white_owns,
            &self.winner_owns,
            &self.black_wins,
        ] {
            for a in table.iter() {
                a.store(0, Relaxed);
            }
        }
    }

    /// Counts a simulation that went through the root move at `point`, ended with `owner`
    /// owning that point and scored `score` for Black (a draw counts for neither side).
    pub fn record(&self, point: Point, owner: Cell, score: f64) {
        let i = point as usize;
        if i >= MAX_POINTS {
            return;
        }
        self.through[i].fetch_add(1, Relaxed);
        let black_won = score > 0.0;
        let white_won = score < 0.0;
        match owner {
            Cell::Black => {
                self.black_owns[i].fetch_add(1, Relaxed);
                if black_won {
                    self.winner_owns[i].fetch_add(1, Relaxed);
                }
            }
            Cell::White => {
                self.white_owns[i].fetch_add(1, Relaxed);
                if white_won {
                    self.winner_owns[i].fetch_add(1, Relaxed);
                }
            }
            _ => {}
        }
        if black_won {
            self.black_wins[i].fetch_add(1, Relaxed);
        }
    }

    /// The criticality of the root move at `point` once at least `min_simulations` went
    /// through it in this search: the share of simulations whose winner owned the point,
    /// less the share expected if owning it and winning were independent. Positive when
    /// the point decides the game; about 0 when it does not matter.
    pub fn criticality(&self, point: Point, min_simulations: u32) -> Option<f32> {
        let i = point as usize;
        if i >= MAX_POINTS {
            return None;
        }
        let n = self.through[i].load(Relaxed);
        if n == 0 || n < min_simulations {
            return None;
        }
        let n = n as f32;
        let black_owns = self.black_owns[i].load(Relaxed) as f32 / n;
        let white_owns = self.white_owns[i].load(Relaxed) as f32 / n;
        let winner_owns = self.winner_owns[i].load(Relaxed) as f32 / n;
        let black_wins = self.black_wins[i].load(Relaxed) as f32 / n;
        let independent = black_owns * black_wins + white_owns * (1.0 - black_wins);
        Some(winner_owns - independent)
    }
}

/// An AMAF value (for the player of the move) after adding `criticality · weight` of its
/// AMAF visits as wins (as losses when negative), as Pachi's `crit_rave` does.
#[inline]
pub fn with_criticality(rave_value: f32, criticality: f32, weight: f32) -> f32 {
    let k = criticality * weight;
    // A strongly negative criticality would remove all the AMAF visits: keep some.
    let k = k.max(-0.5);
    ((rave_value + k) / (1.0 + k)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records `n` simulations through `point`, alternating between the two outcomes
    /// `(owner of the point, score for Black)`, the first one first.
    fn record_alternating(
        crit: &RootCriticality,
        point: Point,
        n: usize,
        outcomes: [(Cell, f64); 2],
    ) {
        for k in 0..n {
            let (owner, score) = outcomes[k % 2];
            crit.record(point, owner, score);
        }
    }

    #[test]
    fn a_point_whose_owner_wins_is_critical_and_an_unrelated_one_is_not() {
        let crit = RootCriticality::new();
        // Point 10: whoever owns it wins (half the time each). Point 20: Black always owns
        // it, and wins half the time.
        record_alternating(&crit, 10, 100, [(Cell::Black, 5.5), (Cell::White, -3.5)]);
        record_alternating(&crit, 20, 100, [(Cell::Black, 5.5), (Cell::Black, -3.5)]);
        // Winner always owns 10: 1 - (0.5·0.5 + 0.5·0.5) = 0.5.
        let c10 = crit.criticality(10, 50).unwrap();
        assert!((c10 - 0.5).abs() < 1e-6, "{c10}");
        let c20 = crit.criticality(20, 50).unwrap();
        assert!(c20.abs() < 1e-6, "{c20}");
        // Too few simulations, or none.
        assert_eq!(crit.criticality(10, 101), None);
        assert_eq!(crit.criticality(30, 0), None);
        // Owning the point goes with losing: negative.
        let crit2 = RootCriticality::new();
        record_alternating(&crit2, 5, 10, [(Cell::White, 2.5), (Cell::Black, -2.5)]);
        assert!((crit2.criticality(5, 1).unwrap() + 0.5).abs() < 1e-6);
        crit.clear();
        assert_eq!(crit.criticality(10, 0), None);
    }

    #[test]
    fn criticality_raises_or_lowers_an_amaf_value_within_bounds() {
        assert_eq!(with_criticality(0.4, 0.0, 1.1), 0.4);
        let up = with_criticality(0.4, 0.2, 1.1);
        assert!(up > 0.4 && up < 1.0);
        // (0.4 + 0.22) / 1.22
        assert!((up - 0.62 / 1.22).abs() < 1e-6);
        let down = with_criticality(0.4, -0.2, 1.1);
        assert!((down - 0.18 / 0.78).abs() < 1e-6);
        assert_eq!(with_criticality(0.1, -0.9, 1.1), 0.0);
        assert!(with_criticality(1.0, 0.5, 1.1) <= 1.0);
    }
}
