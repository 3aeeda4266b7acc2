//! Watching a running search: the [`Observer`] a search reports to (analysis streams its
//! `info` lines through one), and the progress lines it logs for people.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Duration;

use crate::board::Board;

use super::results::{Summary, format_moves};

/// Watches a running search: receives summaries at its interval and may stop it.
pub trait Observer {
    /// How often [`Observer::report`] wants a summary (`None`: never).
    fn interval(&self) -> Option<Duration>;
    /// A summary of the search so far.
    fn report(&mut self, summary: &Summary);
    /// Whether the search should stop now (interrupt, or a new command for analysis).
    fn should_stop(&self) -> bool;
    /// Whether summaries should carry the ownership so far.
    fn wants_ownership(&self) -> bool {
        false
    }
}

/// An observer that only logs progress to stderr every second.
pub struct LogObserver<'a> {
    /// Stops the search when raised.
    pub stop: &'a AtomicBool,
}

impl Observer for LogObserver<'_> {
    fn interval(&self) -> Option<Duration> {
        None
    }

    fn report(&mut self, _: &Summary) {}

    fn should_stop(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

/// Writes a one-line progress report to the log.
pub(super) fn log_progress(board: &Board, s: &Summary) {
    let Some(best) = s.best() else {
        return;
    };
    log::info!(
        "{} playouts ({:.0}/s), tree {}/{} nodes, {} reclaims, best {} win {:.1}% visits {}, pv {}",
        s.playouts,
        s.rate(),
        s.nodes.0,
        s.nodes.1,
        s.reclaims,
        board.move_name(best.mv),
        100.0 * best.winrate,
        best.visits,
        format_moves(board, &best.pv)
    );
}
