//! Game sense: turning a finished search into the move to play ([`Searcher::decide`]: never
//! pass into a loss, pass when the game is settled and passing is safe, capture dead stones
//! in cleanup mode), and resigning ([`Resignation`]), which the game decides, not a search.

use crate::board::{Board, Cell, Color, Move, Point};
use crate::game::Game;
use crate::life::{self, LifeReader};
use crate::playout::Policy;
use crate::rules::Scoring;
use crate::score::settle::{has_dead, is_settled, pessimistic_dead_stones};
use crate::score::{
    DeadStones, Ownership, effective_komi, final_count, result_string, settled_score,
};
use crate::tactics;

use super::Searcher;
use super::params::{Mode, SearchConfig};
use super::priors::runs_into_ladder;
use super::results::{SearchResult, Summary};

/// Root visits a search needs before its win rate may count towards resigning: below that
/// the estimate is too noisy to give up on (a forced pass or an interrupted search).
const RESIGN_MIN_VISITS: u32 = 1000;
/// No resigning before a quarter of the board's points have been played (`size² / 4`
/// moves): early win rates of a handicap or an opening are not to be trusted.
const RESIGN_AFTER: usize = 4;
/// White in a handicap game waits until half the board's points (`size² / 2` moves): it
/// starts far behind on purpose and catches up late.
const RESIGN_AFTER_HANDICAP_WHITE: usize = 2;
/// Passing stays safe when our win rate after the pass is at most this much below the
/// search's best: playout noise between two estimates, not a real loss.
const PASS_WINRATE_MARGIN: f64 = 0.05;
/// In cleanup mode, a move capturing dead stones may be this much worse than the best by
/// win rate (the same noise as above).
const CLEANUP_WINRATE_MARGIN: f64 = 0.05;
/// Playouts after a pass: [`AFTER_PASS_PRIME_FACTOR`] times the search's priming playouts,
/// and at least that factor times this many: the after-pass ownership must be as stable
/// as the one it is compared with.
const AFTER_PASS_MIN_PRIME: u32 = 64;
/// See [`AFTER_PASS_MIN_PRIME`].
const AFTER_PASS_PRIME_FACTOR: u32 = 4;

/// A read-dead ladder run the search prefers gives way to another move up to this much worse
/// by win rate: playout noise, not a chain saved ([`Searcher::decide`]).
const LADDER_RUN_MARGIN: f64 = 0.05;
/// The other move needs at least 1/this of the run's visits for its win rate to count.
const LADDER_RUN_VISIT_SHARE: u32 = 20;

/// Stones a chain needs for [`Searcher::instead_of_losing_a_group`] to read it: smaller ones
/// the search weighs well enough, and reading every chain would cost time for nothing.
const GROUP_DEFENCE_STONES: usize = 5;
/// Chains the playouts see surviving this surely (mean ownership from their owner's side,
/// +1 always) are not read: the reader's budget goes to the ones in doubt.
const SURE_SURVIVAL: f32 = 0.8;
/// At most this many chains are read for one move, biggest first.
const GROUPS_READ: usize = 3;
/// Weight of the running mean of the reading's time kept at each move (the rest is the
/// last move's): the time the next search leaves for the reading.
const READ_RESERVE_KEEP: f64 = 0.9;
/// A saving move the search has looked at (a [`LADDER_RUN_VISIT_SHARE`]th of the best's
/// visits) gives way to the search's move when it is this much worse by win rate: the
/// search has then seen something the local reading does not (a bigger fight elsewhere).
const GROUP_DEFENCE_MARGIN: f64 = 0.10;

/// After the opponent's pass in an open game, passing back still ends the game when the best
/// real move wins less often than this: going on would more likely lose than not, and the
/// count now wins.
const GOING_ON_LOSES_BELOW: f64 = 0.5;

/// What playouts say of the position after a pass of ours.
struct AfterPass {
    ownership: Ownership,
    /// Our share of wins.
    winrate: f64,
}

/// What the engine answers to a move request: a move (or pass) from [`Searcher::decide`],
/// or resigning when [`Resignation`] says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (or pass).
    Play(Move),
    /// Give up.
    Resign,
}

/// Resigning, decided by the game rather than by any search: the streak of generated moves
/// whose search found the game hopeless. Only moves the engine plays in the game (`genmove`
/// and its variants) count; analysis, `reg_genmove` and the GoGui analyze commands search
/// without touching it, so "resign after three hopeless moves" means moves, not searches.
/// (KataGo too decides resignation in its GTP layer.)
#[derive(Clone, Debug, Default)]
pub struct Resignation {
    /// Per colour (indexed by [`Color::index`]), consecutive moves generated for it whose
    /// best win rate was below the resign threshold. One streak per colour: when one
    /// engine plays both sides (GoGui's computer-plays-both, self-play), the winning
    /// side's moves must not keep resetting the losing side's streak.
    hopeless_streak: [u32; 2],
    /// Game length at the last generated move (a shorter game is a new game).
    last_move_number: usize,
}

impl Resignation {
    /// Records the search behind `color`'s generated move in `game` (searched with
    /// `config`, in `mode`) and says whether to resign instead of playing. Call once per
    /// move the engine generates for the game, before playing it.
    pub fn should_resign(
        &mut self,
        game: &Game,
        color: Color,
        mode: Mode,
        result: &SearchResult,
        config: &SearchConfig,
    ) -> bool {
        if game.move_number() < self.last_move_number {
            self.hopeless_streak = [0; 2];
        }
        self.last_move_number = game.move_number();
        if mode != Mode::Normal {
            return false;
        }
        let searched = result.summary.root_visits >= RESIGN_MIN_VISITS;
        let streak = &mut self.hopeless_streak[color.index()];
        if searched && result.winrate() < config.resign_threshold as f64 {
            *streak += 1;
        } else {
            *streak = 0;
        }
        let streak = *streak;
        let size = game.size();
        let handicap_white = game.handicap() > 0 && color == Color::White;
        let min_moves = size * size
            / if handicap_white {
                RESIGN_AFTER_HANDICAP_WHITE
            } else {
                RESIGN_AFTER
            };
        // Resigning errs the other way from passing: count as the opponent would before
        // passing.
        let board = game.board();
        let hopeful = pessimistic_dead_stones(board, &result.ownership, color.opponent());
        let tax = game.rules().scoring == Scoring::TaxedArea;
        let hopeful_score = settled_score(board, &hopeful, effective_komi(game), tax);
        let lost_even_hopefully = if color == Color::Black {
            hopeful_score < 0.0
        } else {
            hopeful_score > 0.0
        };
        streak >= config.params.resign_streak.max(1)
            && game.move_number() >= min_moves
            && lost_even_hopefully
    }
}

impl Searcher {
    /// Turns a finished search into the move to play (or pass), with the game sense around
    /// passing and cleaning up. It never resigns: that is the game's call
    /// ([`Resignation`]).
    pub fn decide(&mut self, game: &Game, color: Color, mode: Mode, result: &SearchResult) -> Move {
        let board = game.board();
        let summary = &result.summary;
        let best = result.best_move();
        let best_non_pass = summary
            .candidates
            .iter()
            .find(|c| c.mv != Move::Pass)
            .map(|c| c.mv);

        // Clean up only stones that are clearly dead: in a lost position the opponent's
        // replies in the tree are arbitrary, and its live groups can look half dead.
        if mode == Mode::Cleanup {
            let careful = pessimistic_dead_stones(board, &result.ownership, color);
            if has_dead(board, &careful, color.opponent())
                && let Some(mv) = cleanup_move(game, color, &careful, summary)
            {
                return mv;
            }
        }
        // A pass may end the game: it must win the count `final_score` would then announce,
        // with the stones `final_status_list` reports dead, so that the engine never passes
        // on one judgement and is scored on another. That judgement costs thousands of
        // playouts: it is made once, and only when a pass is in question.
        let mut margin = None;
        let mut wins_when_counted =
            || *margin.get_or_insert_with(|| final_margin(game, color)) > 0.0;
        let opponent_passed = game
            .history()
            .last()
            .is_some_and(|r| r.mv == Move::Pass && r.color != color);
        if opponent_passed
            && mode == Mode::Normal
            && (!result.pass_withheld || result.winrate() < GOING_ON_LOSES_BELOW)
            && wins_when_counted()
        {
            // Passing ends the game, won: when the game is settled (the search then weighed
            // the pass), or when going on would lose (the search looked at real moves only).
            return Move::Pass;
        }
        if best == Move::Pass {
            return match best_non_pass {
                Some(mv) if !wins_when_counted() => mv,
                _ => Move::Pass,
            };
        }
        if mode == Mode::Normal
            && is_settled(game, color, &result.ownership)
            && wins_when_counted()
            && self.passing_is_safe(game, color, result.winrate())
        {
            return Move::Pass;
        }
        if let Move::Play(p) = best
            && let Some(other) = self.instead_of_ladder_run(board, color, p, summary)
        {
            log::debug!(
                "{} runs into a ladder that catches it: {} instead",
                board.move_name(best),
                board.move_name(other)
            );
            return other;
        }
        if let Move::Play(p) = best
            && self.config.params.group_defence_for(board.size())
        {
            let start = std::time::Instant::now();
            let save = self.instead_of_losing_a_group(game, color, p, result);
            let took = start.elapsed().as_secs_f64();
            self.read_reserve =
                READ_RESERVE_KEEP * self.read_reserve + (1.0 - READ_RESERVE_KEEP) * took;
            log::debug!("group defence read in {took:.3} s");
            if let Some(save) = save {
                log::info!(
                    "{} leaves a group to be killed: {} saves it",
                    board.move_name(best),
                    board.move_name(save)
                );
                return save;
            }
        }
        best
    }

    /// When `p`, the search's choice for `color`, lets the opponent kill one of `color`'s
    /// chains of [`GROUP_DEFENCE_STONES`] or more that a local move saves, as the life
    /// reader ([`crate::life`]) reads it: the reader's saving move. The playouts misjudge
    /// eye space on the edge, so the search can rate a dead group alive and play elsewhere
    /// (docs/strength.md). Only chains the playouts are unsure of are read, the biggest
    /// first; a saving move that takes a ko, or that the search looked at and found
    /// [`GROUP_DEFENCE_MARGIN`] worse than `p`, gives way.
    fn instead_of_losing_a_group(
        &self,
        game: &Game,
        color: Color,
        p: Point,
        result: &SearchResult,
    ) -> Option<Move> {
        let board = game.board();
        let summary = &result.summary;
        let mut chains: Vec<Point> = board
            .points()
            .filter(|&q| {
                board.cell(q) == Cell::stone(color)
                    && board.chain_id(q) == q
                    && board.chain_len(q) >= GROUP_DEFENCE_STONES
                    && board.liberties(q) < life::FREE_LIBERTIES
                    && result.ownership.chain_survival(board, q) < SURE_SURVIVAL
            })
            .collect();
        if chains.is_empty() {
            return None;
        }
        chains.sort_by_key(|&q| std::cmp::Reverse(board.chain_len(q)));
        let mut reader = LifeReader::new(life::KILL_BUDGET).until(self.move_deadline);
        let mut after = board.clone();
        after.play(p, color);
        let run = summary.best()?;
        for group in chains.into_iter().take(GROUPS_READ) {
            if reader.killing_move(&after, group).is_none() {
                continue;
            }
            let Some(save) = LifeReader::new(life::SAVE_BUDGET)
                .until(self.move_deadline)
                .saving_move(board, group)
            else {
                continue;
            };
            if !super::root_moves(game, color).contains(&Move::Play(save)) {
                continue;
            }
            // Taking a ko saves nothing for good: the opponent takes back after a threat,
            // and whether to fight the ko is the search's call (against Pachi the reader
            // took one ko six times over the search's threats and answers).
            let mut taken = board.clone();
            taken.play(save, color);
            if taken.ko().is_some() {
                continue;
            }
            if let Some(c) = summary.candidates.iter().find(|c| c.mv == Move::Play(save))
                && c.visits.saturating_mul(LADDER_RUN_VISIT_SHARE) >= run.visits
                && c.winrate < run.winrate - GROUP_DEFENCE_MARGIN
            {
                continue;
            }
            return Some(Move::Play(save));
        }
        None
    }

    /// When `p`, the search's choice for `color`, runs a chain out of atari into a ladder
    /// (or net) that catches it anyway, the move to play instead: the most visited other
    /// move whose win rate is within [`LADDER_RUN_MARGIN`] of the run's and which has a
    /// [`LADDER_RUN_VISIT_SHARE`]th of its visits. In a lost game every move's win rate is
    /// low and the run's complications in the playouts keep it on top; a person sees a
    /// chain running along the edge to its death. A run worth more than the margin stays:
    /// there the search has seen the reader miss something.
    fn instead_of_ladder_run(
        &self,
        board: &Board,
        color: Color,
        p: Point,
        summary: &Summary,
    ) -> Option<Move> {
        let net_reading = self.config.params.priors_for(board.size()).net_reading;
        let mut scratch = Board::new(board.size());
        if !runs_into_ladder(board, p, color, net_reading, &mut scratch) {
            return None;
        }
        let run = summary.best()?;
        summary
            .candidates
            .iter()
            .find(|c| {
                let Move::Play(q) = c.mv else {
                    return false;
                };
                q != p
                    && c.visits.saturating_mul(LADDER_RUN_VISIT_SHARE) >= run.visits
                    && c.winrate >= run.winrate - LADDER_RUN_MARGIN
                    && !runs_into_ladder(board, q, color, net_reading, &mut scratch)
            })
            .map(|c| c.mv)
    }

    /// Whether passing now is safe: playouts as if we had passed (the opponent to move, who
    /// in the search's own playouts always moved second) must still find the board settled
    /// and our win rate close to `best_winrate`.
    ///
    /// Under heavy playouts the check is repeated with light ones: the heavy policy's shape
    /// knowledge can blind it to an eye-making point the opponent would find after our pass
    /// (the light policy tries every point), and passing early only saves time.
    fn passing_is_safe(&mut self, game: &Game, color: Color, best_winrate: f64) -> bool {
        let policies: &[Policy] = match self.config.policy {
            Policy::Light => &[Policy::Light],
            Policy::Heavy => &[Policy::Heavy, Policy::Light],
        };
        policies.iter().all(|&policy| {
            let Some(after) = self.after_pass(game, color, policy) else {
                return false;
            };
            log::debug!(
                "pass check ({}): {:.3} after a pass vs {best_winrate:.3}",
                policy.name(),
                after.winrate,
            );
            after.winrate >= best_winrate - PASS_WINRATE_MARGIN
                && is_settled(game, color, &after.ownership)
        })
    }

    /// Playouts under `policy` from the position as if `color` had passed; `None` before any
    /// search.
    fn after_pass(&mut self, game: &Game, color: Color, policy: Policy) -> Option<AfterPass> {
        let worker = self.workers.first_mut()?;
        let board = game.board();
        let komi = effective_komi(game);
        let n =
            self.config.params.prime_playouts.max(AFTER_PASS_MIN_PRIME) * AFTER_PASS_PRIME_FACTOR;
        let (ownership, black_wins) = worker.playout_ownership(
            board,
            color.opponent(),
            game.positions(),
            game.ko_rule(),
            komi,
            policy,
            n,
        );
        let winrate = match color {
            Color::Black => black_wins,
            Color::White => 1.0 - black_wins,
        };
        Some(AfterPass { ownership, winrate })
    }
}

/// `color`'s margin in the count `final_score` would announce if the game ended now.
fn final_margin(game: &Game, color: Color) -> f32 {
    let score = final_count(game).1.score();
    log::debug!("pass check: the final count says {}", result_string(score));
    match color {
        Color::Black => score,
        Color::White => -score,
    }
}

/// In cleanup mode, a move that helps capture a dead opponent chain: among the candidates
/// nearly as good as the best, one on a liberty of a dead chain; else any safe such liberty.
fn cleanup_move(game: &Game, color: Color, dead: &DeadStones, summary: &Summary) -> Option<Move> {
    let board = game.board();
    let opp = Cell::stone(color.opponent());
    let on_dead_liberty = |p: Point| {
        board
            .neighbors(p)
            .iter()
            .any(|&n| board.cell(n) == opp && dead[n as usize])
    };
    let best_wr = summary
        .candidates
        .iter()
        .find(|c| c.mv != Move::Pass)
        .map_or(0.0, |c| c.winrate);
    for c in &summary.candidates {
        if let Move::Play(p) = c.mv
            && c.winrate >= best_wr - CLEANUP_WINRATE_MARGIN
            && on_dead_liberty(p)
        {
            return Some(c.mv);
        }
    }
    let mut best: Option<(Point, usize)> = None;
    for &p in board.empty_points() {
        if !on_dead_liberty(p) || !game.is_legal(Move::Play(p), color) {
            continue;
        }
        if tactics::liberties_after(board, p, color, 2) < 2 && !board.captures_any(p, color) {
            continue;
        }
        // Fewest liberties of the dead chain first: that finishes the capture soonest.
        let libs = board
            .neighbors(p)
            .iter()
            .filter(|&&n| board.cell(n) == opp && dead[n as usize])
            .map(|&n| board.liberties(n))
            .min()
            .unwrap_or(usize::MAX);
        if best.is_none_or(|(_, l)| libs < l) {
            best = Some((p, libs));
        }
    }
    best.map(|(p, _)| Move::Play(p)).or_else(|| {
        summary
            .candidates
            .iter()
            .find(|c| c.mv != Move::Pass)
            .map(|c| c.mv)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::score::Ownership;
    use crate::search::results::Candidate;
    use crate::search::{Limits, Params};

    /// 13x13, White to move: White's five stones in the lower left corner enclose a straight
    /// three on the first line (A1 B1 C1), Black's wall around them. B1 is the vital point:
    /// White B1 lives, Black B1 kills.
    fn straight_three() -> Game {
        let mut game = Game::new(13, Rules::chinese()).unwrap();
        let stones = [
            ("A3", Color::Black),
            ("B3", Color::Black),
            ("C3", Color::Black),
            ("D3", Color::Black),
            ("E3", Color::Black),
            ("E2", Color::Black),
            ("E1", Color::Black),
            ("A2", Color::White),
            ("B2", Color::White),
            ("C2", Color::White),
            ("D2", Color::White),
            ("D1", Color::White),
        ];
        for (name, color) in stones {
            let mv = game.board().parse_move(name).unwrap();
            game.play(mv, color).unwrap();
        }
        game
    }

    /// A finished search for White whose most visited move is `best`, with the other
    /// `(move, visits, win rate)` candidates, and no ownership (every chain in doubt).
    fn result(game: &Game, best: &str, others: &[(&str, u32, f64)]) -> SearchResult {
        let board = game.board();
        let candidate = |name: &str, visits: u32, winrate: f64| Candidate {
            mv: board.parse_move(name).unwrap(),
            visits,
            winrate,
            lcb: winrate,
            prior: 0.0,
            score_lead: 0.0,
            pv: Vec::new(),
        };
        let mut candidates = vec![candidate(best, 900, 0.6)];
        candidates.extend(others.iter().map(|&(m, v, w)| candidate(m, v, w)));
        SearchResult {
            summary: Summary {
                color: Color::White,
                playouts: 1000,
                elapsed: std::time::Duration::from_secs(1),
                candidates,
                root_visits: 1000,
                nodes: (0, 0),
                reclaims: 0,
                ownership: None,
            },
            ownership: Ownership::none(),
            score: 0.0,
            pass_withheld: false,
        }
    }

    fn searcher(group_defence: u8) -> Searcher {
        let mut config = SearchConfig::default();
        config.params.group_defence = group_defence;
        Searcher::new(config)
    }

    fn decided(searcher: &mut Searcher, game: &Game, result: &SearchResult) -> String {
        let mv = searcher.decide(game, Color::White, Mode::Normal, result);
        game.board().move_name(mv)
    }

    #[test]
    fn a_move_elsewhere_gives_way_to_the_saving_move() {
        let game = straight_three();
        let far = result(&game, "K10", &[]);
        assert_eq!(decided(&mut searcher(2), &game, &far), "B1");
        assert_eq!(decided(&mut searcher(0), &game, &far), "K10", "off");
        // The saving move itself stays.
        let save = result(&game, "B1", &[]);
        assert_eq!(decided(&mut searcher(2), &game, &save), "B1");
    }

    #[test]
    fn a_saving_move_the_search_found_much_worse_gives_way_to_the_search() {
        let game = straight_three();
        let worse = result(&game, "K10", &[("B1", 100, 0.45)]);
        assert_eq!(decided(&mut searcher(2), &game, &worse), "K10");
        let close = result(&game, "K10", &[("B1", 100, 0.55)]);
        assert_eq!(decided(&mut searcher(2), &game, &close), "B1");
    }

    #[test]
    fn no_reading_once_the_moves_time_is_up() {
        let game = straight_three();
        let far = result(&game, "K10", &[]);
        let mut late = searcher(2);
        late.move_deadline = Some(std::time::Instant::now());
        assert_eq!(decided(&mut late, &game, &far), "K10");
    }

    #[test]
    fn the_search_leaves_the_readings_time_out_of_its_own() {
        let secs = std::time::Duration::from_secs_f64;
        let limits = Limits {
            playouts: Some(5000),
            time: Some(secs(2.0)),
            max_time: Some(secs(3.0)),
            early_stop: true,
        };
        let cut = super::super::leave_time_for_reading(limits, secs(0.5));
        assert_eq!(cut.time, Some(secs(1.5)));
        assert_eq!(cut.max_time, Some(secs(2.5)));
        assert_eq!((cut.playouts, cut.early_stop), (Some(5000), true));
        // Never more than half.
        let cut = super::super::leave_time_for_reading(limits, secs(5.0));
        assert_eq!((cut.time, cut.max_time), (Some(secs(1.0)), Some(secs(1.5))));
        let untimed = Limits {
            playouts: Some(5000),
            ..Limits::default()
        };
        assert_eq!(
            super::super::leave_time_for_reading(untimed, secs(0.5)),
            untimed
        );
    }

    #[test]
    fn group_defence_2_reads_on_big_boards_only() {
        let p = Params {
            group_defence: 2,
            ..Params::default()
        };
        assert!(!p.group_defence_for(9) && p.group_defence_for(13) && p.group_defence_for(19));
    }
}
