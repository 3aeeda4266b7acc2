//! The end of the game, in one pipeline: who owns what, which stones are dead or in seki,
//! and the count.
//!
//! From the bottom up:
//! - [`area`]: counting a board by area, with one region flood fill and one living-group
//!   counter; the allocation-free count that ends every playout lives here.
//! - [`benson`]: Benson's unconditional life, the hard truth no guess overrides.
//! - [`ownership`]: Monte-Carlo ownership ([`Ownership`], the one type for it) and the
//!   playouts that estimate it for final positions.
//! - [`status`]: the fate of every stone of a final position (alive, dead, seki), decided
//!   from Benson, ownership and seki tests.
//! - [`mod@count`]: the referee's count for those fates under any ruleset, handicap
//!   compensation ([`effective_komi`]), and [`final_count`]: the one judgement that
//!   `final_score`, `final_status_list` and the search's decision to pass all use, so the
//!   engine never passes on one judgement and is scored on another.
//! - [`settle`]: the search's quick judgement from its own playouts' ownership: dead stones
//!   for tree lines that end with two passes, whether the board is settled, the careful
//!   counts of cleanup and resigning.

pub mod area;
pub mod benson;
pub mod count;
pub mod ownership;
pub mod settle;
pub mod status;

pub use area::{
    DeadStones, Owners, area_owners, settled_score, taxed_area, taxed_area_score,
    tromp_taylor_score,
};
pub use count::{Count, count, effective_komi, final_count, result_string, stones_text};
pub use ownership::Ownership;
pub use status::StoneStatus;
