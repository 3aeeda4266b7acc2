//! Move-prediction accuracy: how often the move a player chose is the model's first choice
//! (top-1) or among its first five (top-5), overall and by phase of the game.
//!
//! Ties are shared fairly: when the played move's score equals others', it counts as the
//! expected result of breaking the tie at random (with `g` moves scored higher and `e`
//! others equal, top-k credits `(k - g) / (e + 1)`, between 0 and 1). So a model that
//! cannot tell the four star points apart gets a quarter for each.

use super::records::GameRecord;
use super::{Candidate, Policy, Scratch};

/// Game phases by move number (from 1): upper bounds, the last open.
pub const PHASES: [(usize, usize); 4] = [(1, 30), (31, 100), (101, 200), (201, usize::MAX)];

/// Accumulated results for a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions counted.
    pub positions: u64,
    /// Top-1 credit (see the module documentation).
    pub top1: f64,
    /// Top-5 credit.
    pub top5: f64,
    /// Sum of the natural log of the played move's probability.
    pub log_likelihood: f64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.positions += other.positions;
        self.top1 += other.top1;
        self.top5 += other.top5;
        self.log_likelihood += other.log_likelihood;
    }

    /// Top-1 accuracy in percent.
    pub fn top1_percent(&self) -> f64 {
        100.0 * self.top1 / self.positions.max(1) as f64
    }

    /// Top-5 accuracy in percent.
    pub fn top5_percent(&self) -> f64 {
        100.0 * self.top5 / self.positions.max(1) as f64
    }

    /// Mean log-likelihood of the played moves.
    pub fn mean_log_likelihood(&self) -> f64 {
        self.log_likelihood / self.positions.max(1) as f64
    }
}

/// Accuracy overall and per phase ([`PHASES`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Every position.
    pub overall: Tally,
    /// Positions per phase.
    pub phases: [Tally; PHASES.len()],
    /// Games counted.
    pub games: usize,
}

impl Accuracy {
    fn add(&mut self, other: &Accuracy) {
        self.overall.add(&other.overall);
        for (a, b) in self.phases.iter_mut().zip(&other.phases) {
            a.add(b);
        }
        self.games += other.games;
    }

    /// Counts one position: the played move's score, the scores of all candidates
    /// (played move included) and the move number.
    pub fn count(
        &mut self,
        played: f32,
        scores: impl Iterator<Item = f32> + Clone,
        move_number: usize,
    ) {
        let (mut greater, mut equal) = (0usize, 0usize);
        let max = scores.clone().fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0f64;
        for s in scores {
            greater += usize::from(s > played);
            equal += usize::from(s == played);
            total += f64::from(s - max).exp();
        }
        let equal_others = equal.saturating_sub(1);
        let credit =
            |k: usize| (k.saturating_sub(greater) as f64 / (equal_others + 1) as f64).min(1.0);
        let tally = Tally {
            positions: 1,
            top1: credit(1),
            top5: credit(5),
            log_likelihood: f64::from(played - max) - total.ln(),
        };
        self.overall.add(&tally);
        if let Some(i) = PHASES
            .iter()
            .position(|&(lo, hi)| (lo..=hi).contains(&move_number))
        {
            self.phases[i].add(&tally);
        }
    }

    /// A text table: positions, top-1, top-5 and mean log-likelihood per phase and overall.
    pub fn table(&self) -> String {
        let mut out = String::from("moves      positions  top-1   top-5   log-likelihood\n");
        let row = |name: String, t: &Tally| {
            format!(
                "{name:<10} {:>9}  {:>5.1}%  {:>5.1}%  {:>7.3}\n",
                t.positions,
                t.top1_percent(),
                t.top5_percent(),
                t.mean_log_likelihood()
            )
        };
        for (&(lo, hi), t) in PHASES.iter().zip(&self.phases) {
            let name = if hi == usize::MAX {
                format!("{lo}+")
            } else {
                format!("{lo}-{hi}")
            };
            out.push_str(&row(name, t));
        }
        out.push_str(&row("all".into(), &self.overall));
        out
    }
}

/// The accuracy of `policy` on every move of `games`, on `threads` threads; `progress`
/// gets the number of games done so far, now and then. Independent of the thread count.
pub fn measure(
    policy: &Policy,
    games: &[GameRecord],
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Accuracy {
    let parts = super::train::parallel_chunks(games.len(), 16, threads, |range| {
        let mut acc = Accuracy::default();
        let mut scratch = Scratch::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        for game in &games[range.clone()] {
            game.replay(|board, number, mover, mv| {
                super::extract(
                    board,
                    mover,
                    policy.dictionary(),
                    &mut scratch,
                    |_| true,
                    &mut candidates,
                );
                let Some(played) = candidates.iter().find(|c| c.mv == mv) else {
                    return;
                };
                let played = policy.score(played);
                acc.count(played, candidates.iter().map(|c| policy.score(c)), number);
            });
            acc.games += 1;
        }
        progress(range.end);
        acc
    });
    let mut acc = Accuracy::default();
    for p in &parts {
        acc.add(p);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_are_shared_and_phases_split() {
        let mut a = Accuracy::default();
        // Played move best alone: full credit.
        a.count(2.0, [2.0, 1.0, 0.0].into_iter(), 5);
        // Tied with three others for first: a quarter of top-1, all of top-5.
        a.count(1.0, [1.0, 1.0, 1.0, 1.0, 0.0].into_iter(), 40);
        // Six moves better: nothing.
        a.count(0.0, [1.0; 6].into_iter().chain([0.0]), 250);
        assert_eq!(a.overall.positions, 3);
        assert!((a.overall.top1 - 1.25).abs() < 1e-9);
        assert!((a.overall.top5 - 2.0).abs() < 1e-9);
        assert_eq!(a.phases[0].positions, 1);
        assert_eq!(a.phases[1].positions, 1);
        assert_eq!(a.phases[2].positions, 0);
        assert_eq!(a.phases[3].positions, 1);
        // Log-likelihood of the first: softmax of 2 among [2, 1, 0].
        let expect = 2.0 - (2f64.exp() + 1f64.exp() + 1.0).ln();
        assert!((a.phases[0].log_likelihood - expect).abs() < 1e-6);
        // Tied for fifth place with one other: half the top-5 credit.
        let mut b = Accuracy::default();
        b.count(0.0, [1.0; 4].into_iter().chain([0.0, 0.0]), 1);
        assert!((b.overall.top5 - 0.5).abs() < 1e-9);
    }
}
