//! Liberty-level tactics: captures, ataris, self-ataris and ladders, read straight off a
//! [`Board`] without playing anything (except the ladder reader, which plays on a scratch
//! board it is given).
//!
//! These are the cheap Go facts the heavy playout policy ([`crate::playout`]) and the search
//! priors ([`crate::patterns::move_features`]) are built from. Nothing here allocates.

use crate::board::{Board, Cell, Color, NO_POINT, Point};

/// Longest ladder the search priors read, in ataris: one across a 25x25 board. Priors are
/// computed once per new tree node, so a ladder can be read to its end there.
pub const PRIOR_LADDER_PLIES: usize = 50;
/// Longest ladder the heavy playouts read, in ataris (a longer one counts as escaped):
/// shorter than the priors' because playouts read at nearly every move and must stay fast.
pub const PLAYOUT_LADDER_PLIES: usize = 40;

/// Distinct chains of colour `c` next to `p`, as chain heads: `(heads, count)`.
#[inline]
pub fn adjacent_chains(board: &Board, p: Point, c: Color) -> ([Point; 4], usize) {
    let want = Cell::stone(c);
    let mut heads = [NO_POINT; 4];
    let mut n = 0;
    for q in board.neighbors(p) {
        if board.cell(q) == want {
            let h = board.chain_id(q);
            if !heads[..n].contains(&h) {
                heads[n] = h;
                n += 1;
            }
        }
    }
    (heads, n)
}

/// Whether a chain of `cell` touching the chain through `stone` has a liberty count that
/// satisfies `wanted` (how short the chains next to it are: what a capturing race reads).
pub fn touches_chain_with(
    board: &Board,
    stone: Point,
    cell: Cell,
    wanted: impl Fn(usize) -> bool,
) -> bool {
    board.chain_stones(stone).any(|s| {
        board
            .neighbors(s)
            .into_iter()
            .any(|q| board.cell(q) == cell && wanted(board.liberties(q)))
    })
}

/// Up to `out.len()` distinct liberties of the chain through the stone `stone`, found by
/// walking the chain until that many are found; returns how many were written. With
/// `out.len()` at least the chain's liberty count it lists them all.
pub fn chain_liberties(board: &Board, stone: Point, out: &mut [Point]) -> usize {
    let want = board.liberties(stone).min(out.len());
    let mut n = 0;
    if want == 0 {
        return 0;
    }
    for s in board.chain_stones(stone) {
        for q in board.neighbors(s) {
            if board.cell(q) == Cell::Empty && !out[..n].contains(&q) {
                out[n] = q;
                n += 1;
                if n == want {
                    return n;
                }
            }
        }
    }
    n
}

/// The only liberty of the chain through `stone`, which must be in atari.
#[inline]
pub fn last_liberty(board: &Board, stone: Point) -> Point {
    let mut out = [NO_POINT; 1];
    chain_liberties(board, stone, &mut out);
    out[0]
}

/// Number of stones `c` captures by playing the empty point `p`.
#[inline]
pub fn capture_count(board: &Board, p: Point, c: Color) -> usize {
    let (heads, n) = adjacent_chains(board, p, c.opponent());
    heads[..n]
        .iter()
        .filter(|&&h| board.liberties(h) == 1)
        .map(|&h| board.chain_len(h))
        .sum()
}

/// Liberties of the chain `c` would have on `p` after playing there, counted exactly up to
/// `cap` (the answer is `min(true count, cap)`; `cap` is at most 8), without playing. Of the
/// points a capture frees, only those next to `p` are counted, so for capturing moves the
/// figure is a lower bound.
pub fn liberties_after(board: &Board, p: Point, c: Color, cap: usize) -> usize {
    let mut seen = [NO_POINT; 8];
    let cap = cap.min(seen.len());
    let mut n = 0;
    let opp = Cell::stone(c.opponent());
    for q in board.neighbors(p) {
        let cell = board.cell(q);
        if cell == Cell::Empty || (cell == opp && board.liberties(q) == 1) {
            // A captured neighbour's point is empty after the move; the four neighbours are
            // distinct points.
            seen[n] = q;
            n += 1;
        }
    }
    if n >= cap {
        return cap;
    }
    let (heads, count) = adjacent_chains(board, p, c);
    for &h in &heads[..count] {
        if board.liberties(h) > cap {
            // Even without p it keeps at least `cap` liberties.
            return cap;
        }
        for s in board.chain_stones(h) {
            for q in board.neighbors(s) {
                if q != p && board.cell(q) == Cell::Empty && !seen[..n].contains(&q) {
                    seen[n] = q;
                    n += 1;
                    if n >= cap {
                        return cap;
                    }
                }
            }
        }
    }
    n
}

/// Stones of the chain a stone of `c` at the empty point `p` would form: itself and the own
/// chains next to it.
pub fn chain_size_after(board: &Board, p: Point, c: Color) -> usize {
    let (heads, count) = adjacent_chains(board, p, c);
    1 + heads[..count]
        .iter()
        .map(|&h| board.chain_len(h))
        .sum::<usize>()
}

/// Whether `c` playing the empty point `p` leaves its own chain with exactly one liberty
/// (captures included, see [`liberties_after`]). Illegal suicides count as self-atari too.
#[inline]
pub fn is_self_atari(board: &Board, p: Point, c: Color) -> bool {
    if board.empty_neighbors(p) >= 2 {
        return false;
    }
    liberties_after(board, p, c, 2) < 2
}

/// Whether a self-atari of `c` at `p` may still be worth playing as a nakade: the chain it
/// forms has at most three stones and, with its last liberty, fills a space enclosed by
/// the opponent alone. Playing such a point shrinks the opponent's eye space to a single
/// eye (capturing it leaves a dead shape of at most three points); any other self-atari
/// just feeds the opponent stones.
pub fn is_nakade_self_atari(board: &Board, p: Point, c: Color) -> bool {
    if chain_size_after(board, p, c) > 3 {
        return false;
    }
    let (heads, count) = adjacent_chains(board, p, c);
    // Find the chain's last liberty after the move.
    let mut lib = NO_POINT;
    for q in board.neighbors(p) {
        if board.cell(q) == Cell::Empty {
            lib = q;
        }
    }
    if lib == NO_POINT {
        for &h in &heads[..count] {
            let mut out = [NO_POINT; 2];
            let k = chain_liberties(board, h, &mut out);
            if let Some(&q) = out[..k].iter().find(|&&q| q != p) {
                lib = q;
                break;
            }
        }
    }
    if lib == NO_POINT {
        return false;
    }
    // Every neighbour of that liberty is the new chain, an opponent stone or the edge.
    let opp = Cell::stone(c.opponent());
    board.neighbors(lib).iter().all(|&q| {
        let cell = board.cell(q);
        q == p
            || cell == opp
            || cell == Cell::Border
            || (cell == Cell::stone(c) && heads[..count].contains(&board.chain_id(q)))
    })
}

/// Whether playing `p` puts an opponent chain next to it into atari (without being captured
/// right away itself: self-atari ataris do not count).
pub fn makes_atari(board: &Board, p: Point, c: Color) -> bool {
    let (heads, n) = adjacent_chains(board, p, c.opponent());
    heads[..n].iter().any(|&h| board.liberties(h) == 2) && !is_self_atari(board, p, c)
}

/// Whether playing `p` lets some chain of `c` in atari next to it escape: by capturing a
/// neighbour of that chain, or by extending so that the joined chain has two liberties or
/// more. Ladders are not read here (see [`ladder_captures`]).
pub fn escapes_atari(board: &Board, p: Point, c: Color) -> bool {
    let (heads, n) = adjacent_chains(board, p, c);
    if !heads[..n].iter().any(|&h| board.liberties(h) == 1) {
        return false;
    }
    capture_count(board, p, c) > 0 || liberties_after(board, p, c, 2) >= 2
}

/// The ladder reader: whether the chain of `defender` through `stone`, which has exactly two
/// liberties with the attacker to move, is captured in a ladder. The attacker keeps giving
/// atari from the side that leaves the defender fewest liberties after its escape; the
/// defender escapes when it reaches three liberties or can capture an attacking stone.
/// Copies `board` to `scratch` and reads there, at most `max_plies` ataris (a longer ladder
/// counts as escaped).
pub fn ladder_captures(
    scratch: &mut Board,
    board: &Board,
    stone: Point,
    defender: Color,
    max_plies: usize,
) -> bool {
    scratch.copy_from(board);
    read_ladder(scratch, stone, defender, max_plies)
}

/// [`ladder_captures`] played out on `board` itself (which it changes).
pub fn read_ladder(board: &mut Board, stone: Point, defender: Color, max_plies: usize) -> bool {
    chase(board, stone, defender, max_plies)
}

/// [`read_ladder`] that also reads on where the ladder gives the chain three liberties: the
/// attacker may then fill one of them and chase again (a net, or a ladder whose runner only
/// reaches a weak stone of its own). The defender answers by capturing an attacker in atari
/// (it escapes), or by extending from one of its two liberties; after the extension a third
/// liberty counts as escaped, two are read as a plain ladder, one as captured. One such
/// approach per line keeps the reading small; it runs only where the plain reader would have
/// stopped at three liberties. Where the attacker's usual atari lets the chain away it also
/// tries the other one ([`chase_both`]). Reads on copies of `board` (allocated per reading:
/// for the priors, not the playouts).
pub fn read_ladder_or_net(board: &Board, stone: Point, defender: Color, max_plies: usize) -> bool {
    chase_from_copy(board, stone, defender, max_plies)
}

/// Ataris the branching reader ([`chase_both`]) may play in one reading: far more than a
/// ladder needs (each side's wrong atari usually fails at once), few enough that a board
/// full of two-liberty chains cannot make one prior slow.
const BRANCHING_STEPS: u32 = 400;

/// [`chase_both`] from a copy of `board`, with its budget: the reader of
/// [`read_ladder_or_net`].
fn chase_from_copy(board: &Board, stone: Point, defender: Color, max_plies: usize) -> bool {
    let mut budget = BRANCHING_STEPS;
    let mut boards = vec![board.clone()];
    chase_both(&mut boards, 0, stone, defender, max_plies, &mut budget)
}

/// The ladder reader of [`read_ladder`], playing on `board`.
fn chase(board: &mut Board, stone: Point, defender: Color, max_plies: usize) -> bool {
    let scratch = board;
    let attacker = defender.opponent();
    for _ in 0..max_plies {
        let mut libs = [NO_POINT; 2];
        if chain_liberties(scratch, stone, &mut libs) != 2 {
            return false;
        }
        // Choose the atari after which the defender's escape gains fewest liberties.
        let mut best: Option<(Point, Point, usize)> = None;
        for (atari, escape) in [(libs[0], libs[1]), (libs[1], libs[0])] {
            if !scratch.is_legal(atari, attacker) || is_self_atari(scratch, atari, attacker) {
                continue;
            }
            let gain = escape_gain(scratch, atari, escape);
            if best.is_none_or(|b| gain < b.2) {
                best = Some((atari, escape, gain));
            }
        }
        let Some((atari, escape, _)) = best else {
            return false;
        };
        if let Some(captured) = atari_and_run(scratch, stone, atari, escape, attacker) {
            return captured;
        }
    }
    // Too long to read: assume the ladder fails for the attacker (the chain escapes).
    false
}

/// Liberties the defender's escape to `escape` gains after the attacker's atari at `atari`:
/// those of `escape` itself, since the chain's only other liberty is taken; approximated on
/// the board as it stands. The ladder readers chase with the atari that leaves fewest.
fn escape_gain(board: &Board, atari: Point, escape: Point) -> usize {
    board.empty_neighbors(escape) - usize::from(board.neighbors(escape).contains(&atari))
}

/// The reader of [`read_ladder_or_net`]: like [`chase`]'s plain loop, but where the
/// attacker's first atari (the one after which the escape gains fewest liberties) lets the
/// chain away, it tries the other one too. A ladder that runs into the defender's own weak
/// stones can need the atari from the other side several lines on, where the plain reader
/// called it escaped (an 11-stone run against Pachi, 2026-12-05; GNU Go 3.8 read it as
/// captured). `boards[depth]` holds the position, the steps read on the boards after it
/// (added as the reading deepens, on the heap: a board is too big for a deep stack);
/// `budget` caps the steps in all (when it runs out the chain counts as escaped).
fn chase_both(
    boards: &mut Vec<Board>,
    depth: usize,
    stone: Point,
    defender: Color,
    plies: usize,
    budget: &mut u32,
) -> bool {
    let attacker = defender.opponent();
    let mut libs = [NO_POINT; 2];
    if plies == 0 || *budget == 0 || chain_liberties(&boards[depth], stone, &mut libs) != 2 {
        return false;
    }
    *budget -= 1;
    let mut order = [(libs[0], libs[1]), (libs[1], libs[0])];
    let gain = |(atari, escape)| escape_gain(&boards[depth], atari, escape);
    if gain(order[1]) < gain(order[0]) {
        order.swap(0, 1);
    }
    if boards.len() == depth + 1 {
        push_copy(boards, depth);
    }
    for (atari, escape) in order {
        let (here, after) = boards.split_at_mut(depth + 1);
        let board = &here[depth];
        if !board.is_legal(atari, attacker) || is_self_atari(board, atari, attacker) {
            continue;
        }
        let step = &mut after[0];
        step.copy_from(board);
        let captured = match atari_and_run(step, stone, atari, escape, attacker) {
            Some(true) => true,
            Some(false) => {
                at_three_liberties(step, stone, defender)
                    && net_captures(step, stone, defender, plies)
            }
            None => chase_both(boards, depth + 1, stone, defender, plies - 1, budget),
        };
        if captured {
            return true;
        }
    }
    false
}

/// Steps the replaying ladder reader ([`read_ladder_both`]) may play in one reading, the
/// steps replayed to go back to an earlier atari included: a ladder needs far fewer, and a
/// board full of two-liberty chains cannot make one playout move slow.
const REPLAY_STEPS: u32 = 400;

/// Longest ladder, in ataris, that [`read_ladder_both`] keeps the steps of.
const REPLAY_MAX_PLIES: usize = 64;

/// One step of [`read_ladder_both`]'s line: the attacker's atari, the runner's extension, and
/// whether the atari from the other side (at `escape`, the runner then extending at
/// `atari`) is still to be tried.
#[derive(Clone, Copy)]
struct LadderStep {
    atari: Point,
    escape: Point,
    other_left: bool,
}

/// Whether the two-liberty chain through `stone` is captured in a ladder, the attacker to
/// move, in the position `board` with the moves `prefix` played: [`read_ladder`] where the
/// attacker, when its usual atari lets the chain away, also tries the atari from the other
/// side at each earlier step, as [`read_ladder_or_net`] does (without its nets). Nothing is
/// allocated: it reads on `scratch`, and to go back to an earlier step it copies `board`
/// again and replays the line up to there, so the heavy playouts can use it (search
/// parameter `ladder_both`). At most `max_plies` ataris deep (a longer ladder counts as
/// escaped).
pub fn read_ladder_both(
    scratch: &mut Board,
    board: &Board,
    prefix: &[(Point, Color)],
    stone: Point,
    defender: Color,
    max_plies: usize,
) -> bool {
    scratch.copy_from(board);
    for &(p, c) in prefix {
        scratch.play(p, c);
    }
    chase_replaying(scratch, board, prefix, stone, defender, max_plies)
}

/// The reading of [`read_ladder_both`], from `scratch` already set to `board` with `prefix`
/// played.
fn chase_replaying(
    scratch: &mut Board,
    board: &Board,
    prefix: &[(Point, Color)],
    stone: Point,
    defender: Color,
    max_plies: usize,
) -> bool {
    let attacker = defender.opponent();
    let max_plies = max_plies.min(REPLAY_MAX_PLIES);
    let none = LadderStep {
        atari: NO_POINT,
        escape: NO_POINT,
        other_left: false,
    };
    let mut line = [none; REPLAY_MAX_PLIES];
    // `line[..len]` is the line read so far; `scratch` holds the position after it.
    let mut len = 0;
    let mut budget = REPLAY_STEPS;
    // How the line as it stands ends, where already known (after going back).
    let mut ended: Option<bool> = None;
    loop {
        let captured = match ended.take() {
            Some(captured) => captured,
            // Read on from the end of the line until the chain is captured or gets away.
            None => loop {
                let mut libs = [NO_POINT; 2];
                if len == max_plies
                    || budget == 0
                    || chain_liberties(scratch, stone, &mut libs) != 2
                {
                    break false;
                }
                budget -= 1;
                let mut order = [(libs[0], libs[1]), (libs[1], libs[0])];
                let gains = order.map(|(atari, escape)| escape_gain(scratch, atari, escape));
                if gains[1] < gains[0] {
                    order.swap(0, 1);
                }
                let playable = order.map(|(atari, _)| {
                    scratch.is_legal(atari, attacker) && !is_self_atari(scratch, atari, attacker)
                });
                // An escape that gains three liberties gets away whatever follows, so the
                // other atari is worth keeping only below that.
                let (first, other_left) = match playable {
                    [true, second] => (order[0], second && gains[0].max(gains[1]) <= 2),
                    [false, true] => (order[1], false),
                    [false, false] => break false,
                };
                line[len] = LadderStep {
                    atari: first.0,
                    escape: first.1,
                    other_left,
                };
                len += 1;
                if let Some(captured) = atari_and_run(scratch, stone, first.0, first.1, attacker) {
                    break captured;
                }
            },
        };
        if captured {
            return true;
        }
        // Go back to the last step with the other atari still to try, if any.
        let Some(back) = line[..len].iter().rposition(|s| s.other_left) else {
            return false;
        };
        let replayed = back as u32 + 1;
        if budget < replayed {
            return false;
        }
        budget -= replayed;
        let step = line[back];
        scratch.copy_from(board);
        for &(p, c) in prefix {
            scratch.play(p, c);
        }
        for s in &line[..back] {
            scratch.play(s.atari, attacker);
            scratch.play(s.escape, defender);
        }
        line[back] = LadderStep {
            atari: step.escape,
            escape: step.atari,
            other_left: false,
        };
        len = back + 1;
        ended = atari_and_run(scratch, stone, step.escape, step.atari, attacker);
    }
}

/// Appends a copy of `boards[depth]`; apart, so that the board's copy on the stack lives in
/// this frame only and not in every frame of [`chase_both`]'s recursion.
#[inline(never)]
fn push_copy(boards: &mut Vec<Board>, depth: usize) {
    let copy = boards[depth].clone();
    boards.push(copy);
}

/// Whether the defender's chain through `stone` got away from a ladder step with exactly
/// three liberties and no attacker in atari beside it: where [`net_captures`] reads on.
fn at_three_liberties(board: &Board, stone: Point, defender: Color) -> bool {
    board.cell(stone) == Cell::stone(defender)
        && board.liberties(stone) == 3
        && !can_capture_attacker(board, stone, defender)
}

/// Whether the attacker captures the defender's three-liberty chain through `stone` (attacker
/// to move) by filling one liberty and chasing as a ladder: see [`read_ladder_or_net`].
fn net_captures(board: &Board, stone: Point, defender: Color, max_plies: usize) -> bool {
    let attacker = defender.opponent();
    let mut libs = [NO_POINT; 3];
    if chain_liberties(board, stone, &mut libs) != 3 {
        return false;
    }
    let mut approach = board.clone();
    let mut answer = board.clone();
    libs.iter().any(|&a| {
        if !board.is_legal(a, attacker) || is_self_atari(board, a, attacker) {
            return false;
        }
        approach.copy_from(board);
        approach.play(a, attacker);
        if approach.liberties(stone) != 2 || can_capture_attacker(&approach, stone, defender) {
            return false;
        }
        let mut two = [NO_POINT; 2];
        chain_liberties(&approach, stone, &mut two);
        // Captured if every extension fails.
        two.iter().all(|&e| {
            if !approach.is_legal(e, defender) {
                return true;
            }
            answer.copy_from(&approach);
            answer.play(e, defender);
            match answer.liberties(stone) {
                0 | 1 => true,
                2 => read_ladder(&mut answer, stone, defender, max_plies),
                _ => false,
            }
        })
    })
}

/// One step of a ladder on `board`: `attacker` ataris the two-liberty chain through `stone`
/// at `atari`, and the chain runs to `escape`. `Some(true)` if it is captured (it cannot
/// run, or is still in atari), `Some(false)` if it gets away (it captures an attacker in
/// atari, or reaches three liberties), `None` if the chase goes on (two liberties).
fn atari_and_run(
    board: &mut Board,
    stone: Point,
    atari: Point,
    escape: Point,
    attacker: Color,
) -> Option<bool> {
    let defender = attacker.opponent();
    board.play(atari, attacker);
    // The defender may capture an attacker chain next to it that is now in atari.
    if can_capture_attacker(board, stone, defender) {
        return Some(false);
    }
    if !board.is_legal(escape, defender) {
        return Some(true);
    }
    board.play(escape, defender);
    match board.liberties(stone) {
        0 | 1 => Some(true),
        2 => None,
        _ => Some(false),
    }
}

/// Whether `c`'s atari at `atari` on the two-liberty opponent chain through `stone`
/// captures it: the runner's extension to `escape` is illegal, leaves it in atari, or
/// runs into a ladder (read at most `max_plies` ataris); a runner that can capture an
/// attacker instead gets away. `scratch` is a board to read on.
pub fn atari_captures(
    board: &Board,
    scratch: &mut Board,
    stone: Point,
    atari: Point,
    escape: Point,
    c: Color,
    max_plies: usize,
) -> bool {
    atari_chase(
        board,
        scratch,
        stone,
        atari,
        escape,
        c,
        max_plies,
        Reader::OneSided,
    )
}

/// [`atari_captures`] reading on through three liberties as [`read_ladder_or_net`] does.
pub fn atari_captures_or_net(
    board: &Board,
    scratch: &mut Board,
    stone: Point,
    atari: Point,
    escape: Point,
    c: Color,
    max_plies: usize,
) -> bool {
    atari_chase(
        board,
        scratch,
        stone,
        atari,
        escape,
        c,
        max_plies,
        Reader::Nets,
    )
}

/// [`atari_captures`] reading the ladder after it as [`read_ladder_both`] does, the atari
/// from either side at each step, without allocating: for the playouts.
pub fn atari_captures_both(
    board: &Board,
    scratch: &mut Board,
    stone: Point,
    atari: Point,
    escape: Point,
    c: Color,
    max_plies: usize,
) -> bool {
    atari_chase(
        board,
        scratch,
        stone,
        atari,
        escape,
        c,
        max_plies,
        Reader::BothSides,
    )
}

/// The ladder reader behind an `atari_captures` function.
#[derive(Clone, Copy)]
enum Reader {
    /// [`read_ladder`].
    OneSided,
    /// [`read_ladder_both`].
    BothSides,
    /// [`read_ladder_or_net`].
    Nets,
}

/// The reading of [`atari_captures`] and its variants, with the ladder reader `reader`.
#[allow(clippy::too_many_arguments)]
fn atari_chase(
    board: &Board,
    scratch: &mut Board,
    stone: Point,
    atari: Point,
    escape: Point,
    c: Color,
    max_plies: usize,
    reader: Reader,
) -> bool {
    if !board.is_legal(atari, c) || is_self_atari(board, atari, c) {
        return false;
    }
    let runner = c.opponent();
    // Liberties after the extension, counted before the atari (which takes one of them).
    match liberties_after(board, escape, runner, 4) {
        0..=2 => {
            // At most one liberty left: captured, unless the runner captures first.
            return !can_capture_attacker(board, stone, runner);
        }
        3 => {}
        _ => return false,
    }
    scratch.copy_from(board);
    let step = atari_and_run(scratch, stone, atari, escape, c);
    match (step, reader) {
        (Some(false), Reader::Nets) if at_three_liberties(scratch, stone, runner) => {
            net_captures(scratch, stone, runner, max_plies)
        }
        (Some(captured), _) => captured,
        (None, Reader::OneSided) => chase(scratch, stone, runner, max_plies),
        (None, Reader::BothSides) => {
            let line = [(atari, c), (escape, runner)];
            chase_replaying(scratch, board, &line, stone, runner, max_plies)
        }
        (None, Reader::Nets) => chase_from_copy(scratch, stone, runner, max_plies),
    }
}

/// Whether some attacker chain touching the defender's chain through `stone` is in atari.
pub fn can_capture_attacker(board: &Board, stone: Point, defender: Color) -> bool {
    let opp = Cell::stone(defender.opponent());
    board.chain_stones(stone).any(|s| {
        board
            .neighbors(s)
            .iter()
            .any(|&q| board.cell(q) == opp && board.liberties(q) == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::test_support::{board_from, pt};
    use crate::sgf::test_support::game_before;

    #[test]
    fn self_atari_cases() {
        // Black B3-C3 is in atari (its only liberty is C2).
        let b = board_from(&[
            ". . . . .", //
            ". O O . .",
            "O X X O .",
            ". O . . .",
            ". . . . .",
        ]);
        assert_eq!(b.liberties(pt(&b, "B3")), 1);
        // Black C2 joins it and has D2 and C1: two liberties, no self-atari.
        assert_eq!(liberties_after(&b, pt(&b, "C2"), Color::Black, 10), 2);
        assert!(!is_self_atari(&b, pt(&b, "C2"), Color::Black));
        // Black A2 touches white A3 and B2 and keeps only A1: self-atari.
        assert_eq!(liberties_after(&b, pt(&b, "A2"), Color::Black, 10), 1);
        assert!(is_self_atari(&b, pt(&b, "A2"), Color::Black));
        // White C2 captures B3-C3.
        assert_eq!(capture_count(&b, pt(&b, "C2"), Color::White), 2);
        assert!(!is_self_atari(&b, pt(&b, "C2"), Color::White));
    }

    #[test]
    fn capture_escape_and_atari() {
        let b = board_from(&[
            ". . . . .", //
            ". . O . .",
            ". O X O .",
            ". . . . .",
            ". . . . .",
        ]);
        let (c2, b2) = (pt(&b, "C2"), pt(&b, "B2"));
        // Black C3's only liberty is C2; extending there gives B2, D2, C1.
        assert_eq!(last_liberty(&b, pt(&b, "C3")), c2);
        assert_eq!(liberties_after(&b, c2, Color::Black, 10), 3);
        assert_eq!(liberties_after(&b, c2, Color::Black, 2), 2);
        // White C2 captures C3: its point (a liberty after the capture), B2, D2 and C1.
        assert_eq!(liberties_after(&b, c2, Color::White, 10), 4);
        assert_eq!(chain_size_after(&b, c2, Color::Black), 2);
        assert_eq!(chain_size_after(&b, b2, Color::Black), 1);
        assert!(escapes_atari(&b, c2, Color::Black));
        assert!(!escapes_atari(&b, b2, Color::Black));
        // White C2 captures the stone.
        assert_eq!(capture_count(&b, c2, Color::White), 1);
        assert_eq!(capture_count(&b, b2, Color::White), 0);
        // White B3 has A3, B4 and B2: black B2 leaves it two, no atari.
        assert!(!makes_atari(&b, b2, Color::Black));
        let mut b = b;
        b.play(pt(&b, "A3"), Color::Black);
        // Now white B3 has B4 and B2: black B2 ataris it.
        assert!(makes_atari(&b, b2, Color::Black));
    }

    #[test]
    fn nakade_self_atari_inside_an_opponent_eye() {
        // White's straight three eye B3 C3 D3 with a black stone in the middle.
        let b = board_from(&[
            ". . . . . .", //
            ". . . . . .",
            "O O O O O .",
            "O . X . O .",
            "O O O O O .",
            ". . . . . .",
        ]);
        // Black B3 joins C3: the chain B3 C3 keeps only D3, whose other neighbours are all
        // white: a nakade self-atari.
        let b3 = pt(&b, "B3");
        assert!(is_self_atari(&b, b3, Color::Black));
        assert!(is_nakade_self_atari(&b, b3, Color::Black));
        // Without the middle stone, black B3 is a self-atari whose liberty C3 still touches
        // the empty D3: no nakade (the vital point is C3, which is no self-atari).
        let b = board_from(&[
            ". . . . . .", //
            ". . . . . .",
            "O O O O O .",
            "O . . . O .",
            "O O O O O .",
            ". . . . . .",
        ]);
        assert!(is_self_atari(&b, b3, Color::Black));
        assert!(!is_nakade_self_atari(&b, b3, Color::Black));
        assert!(!is_self_atari(&b, pt(&b, "C3"), Color::Black));
        // A stone thrown against a wall with open space behind its liberty: no nakade.
        let b = board_from(&[
            ". . . . .", //
            ". . . . .",
            ". O . . .",
            "O . O . .",
            ". . . . .",
        ]);
        let b2 = pt(&b, "B2");
        assert!(is_self_atari(&b, b2, Color::Black));
        assert!(!is_nakade_self_atari(&b, b2, Color::Black));
    }

    #[test]
    fn ladder_reading() {
        // Black C3-D3 in atari at D4. Extending to D4 leaves E4 and D5; white chases with
        // D5, E5... up the diagonal to the upper right edge: the ladder works.
        let rows = [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . O . . . . . .",
            ". O X X O . . . .",
            ". . O O . . . . .",
            ". . . . . . . . .",
        ];
        let b = board_from(&rows);
        let (c3, d4) = (pt(&b, "C3"), pt(&b, "D4"));
        assert_eq!(b.liberties(c3), 1);
        let mut ext = b.clone();
        ext.play(d4, Color::Black);
        assert_eq!(ext.liberties(c3), 2);
        let mut scratch = Board::new(9);
        assert!(ladder_captures(&mut scratch, &ext, c3, Color::Black, 40));
        // A black ladder breaker at G7 on that diagonal: the ladder fails.
        let mut rows_breaker = rows;
        rows_breaker[2] = ". . . . . . X . .";
        let b = board_from(&rows_breaker);
        let mut ext = b.clone();
        ext.play(d4, Color::Black);
        assert!(!ladder_captures(&mut scratch, &ext, c3, Color::Black, 40));
        // Too short a reading budget counts as an escape.
        let b = board_from(&rows);
        let mut ext = b.clone();
        ext.play(d4, Color::Black);
        assert!(!ladder_captures(&mut scratch, &ext, c3, Color::Black, 3));
        // Reading on through three liberties changes none of this: the plain ladder is
        // captured, and the breaker gives the runner four liberties.
        for (rows, captured) in [(rows, true), (rows_breaker, false)] {
            let mut ext = board_from(&rows);
            ext.play(d4, Color::Black);
            assert_eq!(read_ladder_or_net(&ext, c3, Color::Black, 40), captured);
        }
    }

    /// The position of the game record `text` before move `before`.
    fn position(text: &str, before: usize) -> Board {
        game_before(text, before).board().clone()
    }

    /// A slow reference ladder reader: the attacker tries both ataris, the runner its
    /// extension and every capture of an attacker chain in atari; a chain that reaches three
    /// liberties escapes. Reads on fresh copies, without a budget.
    fn reference_ladder(board: &Board, stone: Point, defender: Color, plies: usize) -> bool {
        let attacker = defender.opponent();
        let mut libs = [NO_POINT; 2];
        if plies == 0 || chain_liberties(board, stone, &mut libs) != 2 {
            return false;
        }
        libs.iter().any(|&atari| {
            if !board.is_legal(atari, attacker) || is_self_atari(board, atari, attacker) {
                return false;
            }
            let mut a = board.clone();
            a.play(atari, attacker);
            let mut answers = vec![last_liberty(&a, stone)];
            let chain: Vec<Point> = a.chain_stones(stone).collect();
            for s in chain {
                for q in a.neighbors(s) {
                    if a.cell(q) == Cell::stone(attacker) && a.liberties(q) == 1 {
                        answers.push(last_liberty(&a, q));
                    }
                }
            }
            answers.iter().all(|&r| {
                if !a.is_legal(r, defender) {
                    return true;
                }
                let mut b = a.clone();
                b.play(r, defender);
                match b.liberties(stone) {
                    0 | 1 => true,
                    2 => reference_ladder(&b, stone, defender, plies - 1),
                    _ => false,
                }
            })
        })
    }

    /// A slow reference for [`read_ladder_both`]: the attacker tries both ataris, the runner
    /// only extends, and gets away when it can capture an attacker chain in atari or has
    /// three liberties. Reads on fresh copies, without a budget.
    fn reference_both_sides(board: &Board, stone: Point, defender: Color, plies: usize) -> bool {
        let attacker = defender.opponent();
        let mut libs = [NO_POINT; 2];
        if plies == 0 || chain_liberties(board, stone, &mut libs) != 2 {
            return false;
        }
        [(libs[0], libs[1]), (libs[1], libs[0])]
            .iter()
            .any(|&(atari, escape)| {
                if !board.is_legal(atari, attacker) || is_self_atari(board, atari, attacker) {
                    return false;
                }
                let mut a = board.clone();
                a.play(atari, attacker);
                if can_capture_attacker(&a, stone, defender) {
                    return false;
                }
                if !a.is_legal(escape, defender) {
                    return true;
                }
                a.play(escape, defender);
                match a.liberties(stone) {
                    0 | 1 => true,
                    2 => reference_both_sides(&a, stone, defender, plies - 1),
                    _ => false,
                }
            })
    }

    #[test]
    fn the_replaying_reader_agrees_with_a_slow_two_sided_reader() {
        // Every two-liberty chain, of either colour, in the positions of the three 19x19
        // ladder games, move by move, read with the attacker to move and after each of its
        // ataris: the allocation-free two-sided reader the playouts use agrees with a slow
        // one on board copies, finds every ladder the one-sided reader finds, and finds
        // ladders that one misses.
        let mut scratch = Board::new(19);
        let (mut checked, mut captured, mut beyond_one_sided) = (0, 0, 0);
        for (text, moves) in [
            (include_str!("../gtp-scripts/sgf/ladder19.sgf"), 70),
            (include_str!("../gtp-scripts/sgf/ladder19b.sgf"), 72),
            (include_str!("../gtp-scripts/sgf/ladder19c.sgf"), 148),
        ] {
            for before in 20..=moves {
                let board = &position(text, before);
                let mut heads = Vec::new();
                for p in board.points() {
                    let Some(c) = board.cell(p).color() else {
                        continue;
                    };
                    if board.liberties(p) != 2 || heads.contains(&board.chain_id(p)) {
                        continue;
                    }
                    heads.push(board.chain_id(p));
                    let at = board.vertex_name(p);
                    let plies = PLAYOUT_LADDER_PLIES;
                    let fast = read_ladder_both(&mut scratch, board, &[], p, c, plies);
                    let slow = reference_both_sides(board, p, c, plies);
                    let plain = read_ladder(&mut board.clone(), p, c, plies);
                    assert_eq!(fast, slow, "move {before} chain {at}");
                    assert!(!plain || fast, "move {before} chain {at}: plain only");
                    checked += 1;
                    captured += usize::from(fast);
                    beyond_one_sided += usize::from(fast && !plain);
                    let mut libs = [NO_POINT; 2];
                    chain_liberties(board, p, &mut libs);
                    let attacker = c.opponent();
                    for (atari, escape) in [(libs[0], libs[1]), (libs[1], libs[0])] {
                        let both = atari_captures_both(
                            board,
                            &mut scratch,
                            p,
                            atari,
                            escape,
                            attacker,
                            plies,
                        );
                        let one =
                            atari_captures(board, &mut scratch, p, atari, escape, attacker, plies);
                        assert!(!one || both, "move {before} chain {at} atari {atari}");
                        // After the atari and the extension, the slow reader's verdict.
                        if board.is_legal(atari, attacker)
                            && !is_self_atari(board, atari, attacker)
                            && board.is_legal(escape, c)
                        {
                            let mut after = board.clone();
                            after.play(atari, attacker);
                            if !can_capture_attacker(&after, p, c) && after.is_legal(escape, c) {
                                after.play(escape, c);
                                if after.liberties(p) == 2 {
                                    let slow = reference_both_sides(&after, p, c, plies);
                                    assert_eq!(
                                        both, slow,
                                        "move {before} chain {at} atari {atari}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            checked > 300 && captured > 30 && beyond_one_sided > 0,
            "{checked} {captured} {beyond_one_sided}"
        );
    }

    #[test]
    fn a_ladder_into_the_runners_weak_group_is_read_with_both_ataris() {
        // From a game lost to Pachi (gtp-scripts/sgf/ladder19b.sgf): White M4 in atari runs
        // up and to the left, ten times, into White's own weak group at the top left. Black
        // chasing always from the side that leaves the runner fewest liberties lets it
        // capture a chaser and get away there; Black's atari from the other side a few
        // lines on captures it. GNU Go 3.8: `defend M4` gives 0 before every run.
        let text = include_str!("../gtp-scripts/sgf/ladder19b.sgf");
        let runs = [
            (48, "M5"),
            (50, "L5"),
            (52, "L6"),
            (54, "K6"),
            (56, "K7"),
            (58, "J7"),
            (60, "J8"),
            (64, "H8"),
            (66, "H9"),
            (68, "G9"),
        ];
        for (before, v) in runs {
            let mut run = position(text, before);
            let p = pt(&run, v);
            run.play(p, Color::White);
            assert_eq!(run.liberties(p), 2, "{v}");
            assert!(
                reference_ladder(&run, p, Color::White, PRIOR_LADDER_PLIES),
                "{v}"
            );
            assert!(
                read_ladder_or_net(&run, p, Color::White, PRIOR_LADDER_PLIES),
                "{v}"
            );
            // The playouts' two-sided reader agrees; the one-sided one calls it escaped.
            let mut scratch = Board::new(19);
            assert!(
                read_ladder_both(
                    &mut scratch,
                    &run,
                    &[],
                    p,
                    Color::White,
                    PLAYOUT_LADDER_PLIES
                ),
                "{v}"
            );
            assert!(
                !read_ladder(&mut run.clone(), p, Color::White, PRIOR_LADDER_PLIES),
                "{v}"
            );
        }
    }

    #[test]
    fn the_branching_reader_finds_every_ladder_the_reference_finds() {
        // Every two-liberty chain, of either colour, in the positions of the 19x19 ladder
        // games, move by move: the branching reader finds every ladder the slow
        // full-width reference finds, and every one the one-sided reader finds. (It may
        // find more than the reference: it also reads nets.)
        let (mut checked, mut captured) = (0, 0);
        for text in [
            include_str!("../gtp-scripts/sgf/ladder19.sgf"),
            include_str!("../gtp-scripts/sgf/ladder19b.sgf"),
        ] {
            for before in 20..=70 {
                let board = &position(text, before);
                let mut heads = Vec::new();
                for p in board.points() {
                    if let Some(c) = board.cell(p).color()
                        && board.liberties(p) == 2
                        && !heads.contains(&board.chain_id(p))
                    {
                        heads.push(board.chain_id(p));
                        // Is the chain captured in a ladder, the attacker to move?
                        let fast = read_ladder_or_net(board, p, c, PRIOR_LADDER_PLIES);
                        let slow = reference_ladder(board, p, c, PRIOR_LADDER_PLIES);
                        let plain = read_ladder(&mut board.clone(), p, c, PRIOR_LADDER_PLIES);
                        let at = board.vertex_name(p);
                        assert!(!slow || fast, "move {before} chain {at}: reference only");
                        assert!(!plain || fast, "move {before} chain {at}: plain only");
                        checked += 1;
                        captured += usize::from(fast);
                    }
                }
            }
        }
        assert!(checked > 100 && captured > 10, "{checked} {captured}");
    }

    #[test]
    fn a_ladder_past_a_weak_stone_is_read_to_its_end() {
        // From a game lost to Pachi (gtp-scripts/sgf/ladder19.sgf): Black C13 in atari runs
        // to D13, and White's ladder drives it down to the right, where it joins the lone
        // black M3 and has three liberties; White fills one and the chase goes on to the
        // capture. GNU Go 3.8 agrees: `defend C13` gives 0, and after D13 `attack D13` E13.
        let text = include_str!("../gtp-scripts/sgf/ladder19.sgf");
        let board = &position(text, 65);
        let (d13, e13, d12) = (pt(board, "D13"), pt(board, "E13"), pt(board, "D12"));
        let mut run = board.clone();
        run.play(d13, Color::Black);
        assert_eq!(run.liberties(d13), 2);
        // The plain reader stops at the three liberties and calls it an escape.
        assert!(!read_ladder(
            &mut run.clone(),
            d13,
            Color::Black,
            PRIOR_LADDER_PLIES
        ));
        assert!(read_ladder_or_net(
            &run,
            d13,
            Color::Black,
            PRIOR_LADDER_PLIES
        ));
        // The same from White's side: the atari at E13 captures the runner.
        let mut scratch = Board::new(19);
        let atari = |f: fn(&Board, &mut Board, Point, Point, Point, Color, usize) -> bool,
                     scratch: &mut Board| {
            f(
                &run,
                scratch,
                d13,
                e13,
                d12,
                Color::White,
                PRIOR_LADDER_PLIES,
            )
        };
        assert!(!atari(atari_captures, &mut scratch));
        assert!(atari(atari_captures_or_net, &mut scratch));
    }

    #[test]
    fn ataris_that_capture() {
        // White C4 has two liberties, C5 and D4 (B4 and C3 are black). After black D4 it
        // runs to C5 (B5, C6, D5); after black C5 to D4 (D5, E4, D3): it gets away.
        let b = board_from(&[
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". X O . . . .",
            ". . X . . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        let mut scratch = Board::new(7);
        let (c4, c5, d4) = (pt(&b, "C4"), pt(&b, "C5"), pt(&b, "D4"));
        // Whether black's atari on white C4 at `atari` captures it as it runs to `escape`.
        let mut captures = |b: &Board, atari, escape| {
            atari_captures(b, &mut scratch, c4, atari, escape, Color::Black, 40)
        };
        assert_eq!(b.liberties(c4), 2);
        assert!(!captures(&b, d4, c5));
        assert!(!captures(&b, c5, d4));
        // With black D3 as well, black C5 starts a ladder towards the upper right that
        // catches it at the top edge; D4 still lets it out to C5.
        let b = board_from(&[
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". X O . . . .",
            ". . X X . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        assert!(captures(&b, c5, d4));
        assert!(!captures(&b, d4, c5));
        // A white stone at F6 on the ladder's path breaks it.
        let b = board_from(&[
            ". . . . . . .",
            ". . . . . O .",
            ". . . . . . .",
            ". X O . . . .",
            ". . X X . . .",
            ". . . . . . .",
            ". . . . . . .",
        ]);
        assert!(!captures(&b, c5, d4));
    }
}
