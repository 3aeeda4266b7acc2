//! Last-good-reply with forgetting (LGRF, Baier & Drake 2010): replies that won simulations,
//! remembered per thread and tried first by the heavy playout policy.
//!
//! After each simulation the whole move sequence (tree part and playout part) is read in
//! order. Every move of the winner is stored as the reply to the move before it (LGRF-1)
//! and to the two moves before it (LGRF-2); every move of the loser deletes the stored reply
//! to its predecessor(s) if that reply is this very move. A pass is never stored, and no
//! reply is stored to a pass: the sequence around a pass carries no local answer.
//!
//! The tables hold points of one board size: they are cleared whenever the size changes.
//! The LGRF-2 table (two bytes for every colour and pair of points, about 2 MB) is only
//! allocated when level 2 is first asked for; nothing is allocated per simulation.

use crate::board::{Color, MAX_POINTS, NO_POINT, Point};

/// Where the heavy policy tries the stored reply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ReplyOrder {
    /// Before the captures and atari escapes (as Baier & Drake, where it comes first).
    BeforeTactics,
    /// After the captures, atari escapes and two-liberty fights, before the 3x3 shapes.
    AfterTactics,
}

/// Per-thread reply tables.
pub struct Replies {
    /// 0: off; 1: replies to the last move; 2: also replies to the last two moves.
    level: u8,
    order: ReplyOrder,
    /// Board size the stored points belong to.
    size: usize,
    /// `one[color * MAX_POINTS + previous]`.
    one: Box<[Point]>,
    /// `two[(color * MAX_POINTS + before_previous) * MAX_POINTS + previous]`; empty until
    /// level 2 is used.
    two: Vec<Point>,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies::new()
    }
}

impl Replies {
    /// Empty tables, switched off.
    pub fn new() -> Replies {
        Replies {
            level: 0,
            order: ReplyOrder::BeforeTactics,
            size: 0,
            one: vec![NO_POINT; 2 * MAX_POINTS].into_boxed_slice(),
            two: Vec::new(),
        }
    }

    /// Sets the level (0 off, 1 or 2; higher counts as 2) and where the policy tries the
    /// reply. Cheap when nothing changes; the first switch to level 2 allocates its table.
    pub fn configure(&mut self, level: u8, order: ReplyOrder) {
        self.level = level.min(2);
        self.order = order;
        if self.level >= 2 && self.two.is_empty() {
            self.two = vec![NO_POINT; 2 * MAX_POINTS * MAX_POINTS];
        }
    }

    /// The level in use (0: off).
    #[inline]
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Where the policy tries the reply.
    #[inline]
    pub fn order(&self) -> ReplyOrder {
        self.order
    }

    /// Makes the tables hold points of a `size` x `size` board, forgetting everything when
    /// the size changes.
    #[inline]
    pub fn use_size(&mut self, size: usize) {
        if size != self.size {
            self.clear();
            self.size = size;
        }
    }

    /// Forgets every stored reply.
    pub fn clear(&mut self) {
        self.one.fill(NO_POINT);
        self.two.fill(NO_POINT);
    }

    #[inline]
    fn slot1(c: Color, previous: Point) -> usize {
        c.index() * MAX_POINTS + previous as usize
    }

    #[inline]
    fn slot2(c: Color, before: Point, previous: Point) -> usize {
        (c.index() * MAX_POINTS + before as usize) * MAX_POINTS + previous as usize
    }

    /// The stored reply of `c` to `previous` (`NO_POINT`: none, or `previous` is a pass).
    #[inline]
    pub fn reply1(&self, c: Color, previous: Point) -> Point {
        if previous == NO_POINT {
            return NO_POINT;
        }
        self.one[Self::slot1(c, previous)]
    }

    /// The stored reply of `c` to `before` followed by `previous` (`NO_POINT`: none, level
    /// below 2, or either is a pass).
    #[inline]
    pub fn reply2(&self, c: Color, before: Point, previous: Point) -> Point {
        if self.two.is_empty() || before == NO_POINT || previous == NO_POINT {
            return NO_POINT;
        }
        self.two[Self::slot2(c, before, previous)]
    }

    /// Learns from one move of a simulation: `c` played `p` (`NO_POINT`: passed) after
    /// `recent = [move before previous, previous move]` (`NO_POINT` for passes), and `won`
    /// tells whether `c` won the simulation.
    #[inline]
    pub fn learn(&mut self, recent: [Point; 2], p: Point, c: Color, won: bool) {
        let [before, previous] = recent;
        if p == NO_POINT || previous == NO_POINT {
            return;
        }
        let one = &mut self.one[Self::slot1(c, previous)];
        if won {
            *one = p;
        } else if *one == p {
            *one = NO_POINT;
        }
        if self.level >= 2 && before != NO_POINT && !self.two.is_empty() {
            let two = &mut self.two[Self::slot2(c, before, previous)];
            if won {
                *two = p;
            } else if *two == p {
                *two = NO_POINT;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Point = 30;
    const B: Point = 31;
    const C: Point = 40;
    const D: Point = 41;
    const X: Point = 50;

    #[test]
    fn winners_moves_are_stored_and_losers_moves_forgotten() {
        let mut r = Replies::new();
        r.configure(2, ReplyOrder::BeforeTactics);
        r.use_size(9);
        // Black A, White B, Black C, and Black won.
        r.learn([NO_POINT, NO_POINT], A, Color::Black, true);
        r.learn([NO_POINT, A], B, Color::White, false);
        r.learn([A, B], C, Color::Black, true);
        assert_eq!(r.reply1(Color::Black, B), C);
        assert_eq!(r.reply2(Color::Black, A, B), C);
        // The loser's move stored nothing, and colours are kept apart.
        assert_eq!(r.reply1(Color::White, A), NO_POINT);
        assert_eq!(r.reply1(Color::White, B), NO_POINT);
        // Black loses with another move after B: the stored reply C stays.
        r.learn([X, B], D, Color::Black, false);
        assert_eq!(r.reply1(Color::Black, B), C);
        // Black loses with C after X, B: forgotten as the reply to B, but the reply to the
        // pair A, B is another entry and stays.
        r.learn([X, B], C, Color::Black, false);
        assert_eq!(r.reply1(Color::Black, B), NO_POINT);
        assert_eq!(r.reply2(Color::Black, A, B), C);
        r.learn([A, B], C, Color::Black, false);
        assert_eq!(r.reply2(Color::Black, A, B), NO_POINT);
        // A later win overwrites.
        r.learn([A, B], C, Color::Black, true);
        r.learn([A, B], D, Color::Black, true);
        assert_eq!(r.reply1(Color::Black, B), D);
        assert_eq!(r.reply2(Color::Black, A, B), D);
    }

    #[test]
    fn passes_are_neither_stored_nor_answered() {
        let mut r = Replies::new();
        r.configure(2, ReplyOrder::BeforeTactics);
        r.use_size(9);
        r.learn([A, NO_POINT], C, Color::Black, true);
        r.learn([NO_POINT, A], NO_POINT, Color::Black, true);
        assert_eq!(r.reply1(Color::Black, NO_POINT), NO_POINT);
        assert_eq!(r.reply1(Color::Black, A), NO_POINT);
        assert_eq!(r.reply2(Color::Black, A, NO_POINT), NO_POINT);
        // After a pass and a move, only the one-move reply is learnt.
        r.learn([NO_POINT, A], C, Color::Black, true);
        assert_eq!(r.reply1(Color::Black, A), C);
        assert_eq!(r.two.iter().filter(|&&p| p != NO_POINT).count(), 0);
    }

    #[test]
    fn level_one_keeps_no_pair_table_and_a_size_change_clears() {
        let mut r = Replies::new();
        r.configure(1, ReplyOrder::AfterTactics);
        r.use_size(9);
        r.learn([A, B], C, Color::White, true);
        assert_eq!(r.reply1(Color::White, B), C);
        assert_eq!(r.reply2(Color::White, A, B), NO_POINT);
        r.use_size(9);
        assert_eq!(r.reply1(Color::White, B), C);
        r.use_size(13);
        assert_eq!(r.reply1(Color::White, B), NO_POINT);
    }
}
