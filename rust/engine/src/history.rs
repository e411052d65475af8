//! History heuristics: what move ordering learns about quiet moves as the search goes.
//!
//! Three tables, kept by the engine between searches (for the main thread):
//!
//! - **butterfly history** `[colour][from][to]`: how often a quiet move caused a beta cutoff,
//!   less how often it was tried before another quiet move that did;
//! - **continuation history** `[row][column]`: the same, for a quiet move (the column,
//!   [`piece_to`]) played one or two plies after another move (the row, same encoding), so a
//!   reply is judged by the move it answers;
//! - **countermoves** `[from][to]`: the quiet reply that last refuted a move.
//!
//! Entries move by *gravity*: a bonus `b` adds `b - entry * |b| / HISTORY_LIMIT`, so an
//! entry approaches `±HISTORY_LIMIT` ever more slowly and never leaves that range. Killers
//! live on the search stack (they belong to a ply, not to the game); see `search`.

use crate::params::{HISTORY_BONUS_FACTOR, HISTORY_BONUS_LIMIT, HISTORY_LIMIT};
use pychess_core::{Board, Move};

/// The continuation-history rows of the moves one and two plies back (`None`: no such move,
/// or a null move).
pub(crate) type ContinuationRows = [Option<usize>; 2];

/// `piece * 64 + to` of `m` played in `board` (`piece` counts colour and role): the
/// continuation-history index of a move.
#[inline]
pub(crate) fn piece_to(board: &Board, m: Move) -> usize {
    let role = board.role_at(m.from).map_or(0, |r| r.index());
    (board.turn().index() * 6 + role) * 64 + m.to.index()
}

/// The bonus a cutoff at `depth` earns (and the malus the quiets tried before it pay).
#[inline]
fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_FACTOR * depth * depth).min(HISTORY_BONUS_LIMIT)
}

/// Gravity: the entry moves toward `±HISTORY_LIMIT` ever more slowly, so it stays bounded.
#[inline]
fn apply_bonus(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
}

/// The history tables.
pub(crate) struct History {
    /// Quiet-move history, `[colour][from][to]`.
    butterfly: Vec<[[i32; 64]; 64]>,
    /// Continuation history, `[row][column]`, both `piece * 64 + to`.
    continuation: Vec<[i32; 768]>,
    /// The reply that refuted a move last time, `[from][to]` of that move.
    countermoves: Vec<[Option<Move>; 64]>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("History")
    }
}

impl History {
    /// Empty tables.
    pub fn new() -> Box<History> {
        Box::new(History {
            butterfly: vec![[[0; 64]; 64]; 2],
            continuation: vec![[0; 768]; 768],
            countermoves: vec![[None; 64]; 64],
        })
    }

    /// The history score of the quiet move `m` of `board`: butterfly plus the continuation
    /// histories of `rows`.
    #[inline]
    pub fn quiet_score(&self, board: &Board, rows: ContinuationRows, m: Move) -> i32 {
        let colour = board.turn().index();
        let column = piece_to(board, m);
        let mut score = self.butterfly[colour][m.from.index()][m.to.index()];
        for row in rows.into_iter().flatten() {
            score += self.continuation[row][column];
        }
        score
    }

    /// The countermove of `previous` (the move played just before), if any.
    #[inline]
    pub fn countermove(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|prev| self.countermoves[prev.from.index()][prev.to.index()])
    }

    /// The quiet move `m` caused a beta cutoff at `depth`, in reply to `previous`: reward it
    /// (history and countermove) and punish the quiet moves `tried` before it.
    pub fn reward_cutoff(
        &mut self,
        board: &Board,
        rows: ContinuationRows,
        previous: Option<Move>,
        m: Move,
        depth: i32,
        tried: &[Move],
    ) {
        if let Some(prev) = previous {
            self.countermoves[prev.from.index()][prev.to.index()] = Some(m);
        }
        let bonus = bonus(depth);
        self.update(board, rows, m, bonus);
        for &other in tried {
            if other != m {
                self.update(board, rows, other, -bonus);
            }
        }
    }

    fn update(&mut self, board: &Board, rows: ContinuationRows, m: Move, bonus: i32) {
        let colour = board.turn().index();
        apply_bonus(
            &mut self.butterfly[colour][m.from.index()][m.to.index()],
            bonus,
        );
        let column = piece_to(board, m);
        for row in rows.into_iter().flatten() {
            apply_bonus(&mut self.continuation[row][column], bonus);
        }
    }
}

/// The quiet moves a node has tried, in order, for the malus when a later one cuts off.
/// Only the first [`QuietsTried::CAPACITY`] are kept: later ones go unpunished.
pub(crate) struct QuietsTried {
    moves: [Move; QuietsTried::CAPACITY],
    len: usize,
}

impl QuietsTried {
    /// How many quiet moves are remembered.
    pub const CAPACITY: usize = 64;

    /// None yet.
    #[inline]
    pub fn new() -> QuietsTried {
        QuietsTried {
            moves: [Move::NULL; QuietsTried::CAPACITY],
            len: 0,
        }
    }

    /// Remembers `m` while there is room.
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < QuietsTried::CAPACITY {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// The moves remembered, in the order tried.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    fn legal(board: &Board, uci: &str) -> Move {
        board
            .find_legal(UciMove::parse(uci).unwrap())
            .expect("legal test move")
    }

    #[test]
    fn gravity_keeps_entries_inside_the_limit() {
        let mut entry = 0;
        for _ in 0..10_000 {
            apply_bonus(&mut entry, HISTORY_BONUS_LIMIT);
        }
        assert!((HISTORY_LIMIT - HISTORY_BONUS_LIMIT..=HISTORY_LIMIT).contains(&entry));
        for _ in 0..10_000 {
            apply_bonus(&mut entry, -HISTORY_BONUS_LIMIT);
        }
        assert!((-HISTORY_LIMIT..=-HISTORY_LIMIT + HISTORY_BONUS_LIMIT).contains(&entry));
    }

    #[test]
    fn a_cutoff_rewards_the_move_and_punishes_the_quiets_before_it() {
        let board = Board::default();
        let (cut, before) = (legal(&board, "g1f3"), legal(&board, "a2a3"));
        let previous = Some(legal(&board, "e2e4"));
        let rows = [Some(7), None];
        let mut history = History::new();
        history.reward_cutoff(&board, rows, previous, cut, 3, &[before, cut]);
        let (reward, malus) = (
            history.quiet_score(&board, rows, cut),
            history.quiet_score(&board, rows, before),
        );
        // Butterfly and one continuation row, each moved by the full bonus from zero.
        assert_eq!(reward, 2 * bonus(3));
        assert_eq!(malus, -2 * bonus(3));
        // Other rows have not learnt anything.
        assert_eq!(history.quiet_score(&board, [Some(8), None], cut), bonus(3));
        assert_eq!(history.countermove(previous), Some(cut));
        assert_eq!(history.countermove(None), None);
    }

    #[test]
    fn quiets_tried_keeps_the_first_ones() {
        let mut tried = QuietsTried::new();
        let m = legal(&Board::default(), "e2e4");
        for _ in 0..QuietsTried::CAPACITY + 5 {
            tried.push(m);
        }
        assert_eq!(tried.as_slice().len(), QuietsTried::CAPACITY);
    }
}
