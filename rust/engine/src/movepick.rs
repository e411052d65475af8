//! Move ordering: static exchange evaluation, the scores moves are ordered by, and the
//! picker that hands a node its moves best first.
//!
//! The core generates strictly legal moves all at once; [`MovePicker`] scores them once
//! (table move, then captures by SEE and MVV-LVA, killers, the countermove, quiets by
//! history, losing captures, under-promotions) and then selects the best remaining move each
//! time for the first few (a lazy selection sort, cheap because most nodes cut off after a
//! few moves); a node that got that far is likely to search everything, so the rest is
//! sorted once.

use crate::history::{ContinuationRows, History};
use crate::params::SEE_VALUES;
use pychess_core::{attacks, Bitboard, Board, Color, Move, MoveList, Role};

/// Room for the moves of a position the engine searches (a valid one has at most 218).
const MAX_MOVES: usize = 256;

/// Score of the transposition-table move.
pub const TT_MOVE_SCORE: i32 = 10_000_000;
/// Base of captures (and queen promotions) that do not lose material.
pub const GOOD_NOISY_SCORE: i32 = 2_000_000;
/// First killer; the second killer and the countermove follow just below.
pub const KILLER_SCORE: i32 = 1_000_000;
/// Base of captures that lose material by SEE: after every quiet move.
pub const BAD_NOISY_SCORE: i32 = -1_000_000;
/// Under-promotions come last.
pub const UNDERPROMOTION_SCORE: i32 = -2_000_000;

/// Does `m` capture something (en passant included)?
#[inline]
pub fn is_capture(board: &Board, m: Move) -> bool {
    m.is_en_passant() || (!m.is_castle() && board.by_color(!board.turn()).contains(m.to))
}

/// The role `m` captures, if any.
#[inline]
pub fn captured_role(board: &Board, m: Move) -> Option<Role> {
    if m.is_en_passant() {
        Some(Role::Pawn)
    } else if m.is_castle() {
        None
    } else {
        board.role_at(m.to)
    }
}

/// Captures and promotions: the moves quiescence search looks at.
#[inline]
pub fn is_noisy(board: &Board, m: Move) -> bool {
    m.promotion().is_some() || is_capture(board, m)
}

#[inline]
fn value(role: Role) -> i32 {
    SEE_VALUES[role.index()]
}

/// Does the side to move have a capture or promotion that wins material by static exchange
/// (at least one centipawn)? The engine's test of a position that is not quiet: its static
/// evaluation misses what the next move takes. Training-data filters use it where the best
/// move is unknown.
pub fn has_winning_noisy_move(board: &Board) -> bool {
    board
        .legal_moves()
        .iter()
        .any(|&m| (m.promotion().is_some() || is_capture(board, m)) && see(board, m, 1))
}

/// Static exchange evaluation: does `m` win at least `threshold` centipawns once every
/// capture on its target square has been played out, each side taking with its least
/// valuable piece and free to stop? Pins are ignored.
pub fn see(board: &Board, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let from = m.from;
    let to = m.to;
    let Some(mover) = board.role_at(from) else {
        return threshold <= 0;
    };
    let mut gain = captured_role(board, m).map_or(0, value);
    let mut placed = mover;
    if let Some(promoted) = m.promotion() {
        gain += value(promoted) - value(Role::Pawn);
        placed = promoted;
    }
    // `swap` is the score to beat for the side about to capture, relative to the threshold;
    // `wins` says whether the side that moved first is ahead if the exchange stops here.
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(placed) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.is_en_passant() {
        occupied = occupied.without(m.en_passant_victim());
    }
    let bishops = board.by_role(Role::Bishop) | board.by_role(Role::Queen);
    let rooks = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    let mut attackers = board.attackers_with(to, Color::White, occupied)
        | board.attackers_with(to, Color::Black, occupied);
    let mut side = board.turn();
    let mut wins = true;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        wins = !wins;
        let Some(role) = Role::ALL
            .into_iter()
            .find(|&role| (ours & board.by_role(role)).nonempty())
        else {
            break;
        };
        if role == Role::King {
            // Taking with the king is only legal when the other side has no attacker left.
            return if (attackers & !board.by_color(side)).nonempty() {
                !wins
            } else {
                wins
            };
        }
        swap = value(role) - swap;
        if swap < i32::from(wins) {
            break;
        }
        let square = (ours & board.by_role(role))
            .first()
            .expect("the role was found in this set");
        occupied = occupied.without(square);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop(to, occupied) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook(to, occupied) & rooks;
        }
    }
    wins
}

/// The ordering score of a capture or promotion (no TT/killer logic).
pub fn noisy_score(board: &Board, m: Move) -> i32 {
    if let Some(promoted) = m.promotion() {
        if promoted != Role::Queen {
            return UNDERPROMOTION_SCORE;
        }
    }
    let victim =
        captured_role(board, m).map_or(0, value) + m.promotion().map_or(0, |_| value(Role::Queen));
    let attacker = board.role_at(m.from).map_or(0, |role| role.index() as i32);
    let mvv_lva = victim * 8 - attacker;
    if see(board, m, 0) {
        GOOD_NOISY_SCORE + mvv_lva
    } else {
        BAD_NOISY_SCORE + mvv_lva
    }
}

/// What the search knows at a node that orders its moves, besides the history tables.
#[derive(Copy, Clone, Debug)]
pub(crate) struct NodeHints {
    /// The transposition table's move.
    pub tt_move: Option<Move>,
    /// The quiet moves that cut off most recently at this ply.
    pub killers: [Option<Move>; 2],
    /// The quiet move that last refuted the move played just before.
    pub counter: Option<Move>,
    /// Continuation-history rows of the moves one and two plies back.
    pub rows: ContinuationRows,
}

/// The ordering score of `m`: table move, noisy moves by [`noisy_score`], killers, the
/// countermove, then quiet moves by history.
#[inline]
fn score(board: &Board, m: Move, hints: &NodeHints, history: &History) -> i32 {
    if Some(m) == hints.tt_move {
        TT_MOVE_SCORE
    } else if is_noisy(board, m) {
        noisy_score(board, m)
    } else if Some(m) == hints.killers[0] {
        KILLER_SCORE
    } else if Some(m) == hints.killers[1] {
        KILLER_SCORE - 1
    } else if Some(m) == hints.counter {
        KILLER_SCORE - 2
    } else {
        history.quiet_score(board, hints.rows, m)
    }
}

/// A node's moves with their ordering scores, handed out best first. It reorders the
/// move list it is given in place.
pub(crate) struct MovePicker<'a> {
    moves: &'a mut [Move],
    scores: [i32; MAX_MOVES],
    /// Index of the next move to hand out.
    next: usize,
    /// From this index on the rest is sorted once instead of selected one at a time.
    sort_from: usize,
}

impl<'a> MovePicker<'a> {
    /// Never sort: select every move one at a time (for nodes that usually stop early).
    pub const NEVER_SORT: usize = usize::MAX;

    /// Scores `moves` (at most [`MAX_MOVES`], which a valid position never exceeds); the
    /// first `sort_from` of them will be selected one at a time, the rest sorted once.
    #[inline]
    pub fn new(
        board: &Board,
        moves: &'a mut MoveList,
        hints: &NodeHints,
        history: &History,
        sort_from: usize,
    ) -> MovePicker<'a> {
        let mut picker = MovePicker {
            moves: moves.as_mut_slice(),
            scores: [0; MAX_MOVES],
            next: 0,
            sort_from,
        };
        let len = picker.moves.len();
        for (slot, &m) in picker.scores[..len].iter_mut().zip(picker.moves.iter()) {
            *slot = score(board, m, hints, history);
        }
        picker
    }

    /// The next move and its ordering score, or `None` when all were handed out.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        self.next += 1;
        if i < self.sort_from {
            return Some(self.select(i));
        }
        if i == self.sort_from {
            self.sort_rest(i);
        }
        Some((self.moves[i], self.scores[i]))
    }

    /// Moves the best-scored move of `start..` to `start` and returns it.
    #[inline]
    fn select(&mut self, start: usize) -> (Move, i32) {
        let len = self.moves.len();
        let (moves, scores) = (&mut *self.moves, &mut self.scores[..len]);
        let mut best = start;
        for i in start + 1..len {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(start, best);
        scores.swap(start, best);
        (moves[start], scores[start])
    }

    /// Sorts `start..` by descending score (insertion sort: short, mostly small lists).
    fn sort_rest(&mut self, start: usize) {
        let len = self.moves.len();
        let (moves, scores) = (&mut self.moves[start..], &mut self.scores[start..len]);
        for i in 1..moves.len() {
            let (m, score) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = score;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    fn check(fen: &str, uci: &str, threshold: i32) -> bool {
        let board = Board::from_fen(fen, false).unwrap();
        let m = board
            .find_legal(UciMove::parse(uci).unwrap())
            .expect("legal test move");
        see(&board, m, threshold)
    }

    /// Every move handed out once, by non-increasing score, the table move first; the same
    /// whether the tail is sorted or selected one at a time.
    #[test]
    fn the_picker_hands_out_every_move_best_first() {
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let legal = board.legal_moves();
        let quiet = board.find_legal(UciMove::parse("a2a3").unwrap()).unwrap();
        let hints = NodeHints {
            tt_move: Some(quiet),
            killers: [None; 2],
            counter: None,
            rows: [None; 2],
        };
        let history = History::new();
        let mut orders = Vec::new();
        for sort_from in [0, 3, MovePicker::NEVER_SORT] {
            let mut moves = legal.clone();
            let mut picker = MovePicker::new(&board, &mut moves, &hints, &history, sort_from);
            let mut order = Vec::new();
            while let Some(next) = picker.next() {
                order.push(next);
            }
            assert_eq!(order[0], (quiet, TT_MOVE_SCORE));
            assert!(order.windows(2).all(|w| w[0].1 >= w[1].1), "{order:?}");
            let mut handed: Vec<Move> = order.iter().map(|&(m, _)| m).collect();
            let mut legal = legal.to_vec();
            let key = |m: &Move| (m.from.index(), m.to.index(), format!("{:?}", m.kind));
            handed.sort_by_key(key);
            legal.sort_by_key(key);
            assert_eq!(handed, legal);
            orders.push(order.iter().map(|&(_, s)| s).collect::<Vec<_>>());
        }
        assert!(orders.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn exchanges() {
        // Undefended pawn: wins 100.
        let fen = "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(check(fen, "d1d5", 100));
        assert!(!check(fen, "d1d5", 101));
        // Pawn defended by a pawn: rook for pawn loses 400.
        let fen = "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1";
        assert!(!check(fen, "d1d5", 0));
        assert!(check(fen, "d1d5", -400));
        assert!(!check(fen, "d1d5", -399));
        // Knight takes a pawn defended by a knight, with a rook behind: N for P then R x N.
        let fen = "4k3/8/2n5/3p4/8/4N3/8/3RK3 w - - 0 1";
        assert!(check(fen, "e3d5", 100 - 320 + 320));
        assert!(!check(fen, "e3d5", 101));
        // X-ray: doubled rooks against a defended pawn with one defender.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(check(fen, "d2d5", 0));
        // The king cannot recapture a defended square.
        let fen = "8/8/8/3pk3/8/8/3R4/3RK3 w - - 0 1";
        assert!(check(fen, "d2d5", 100));
        // Quiet move onto an attacked square loses the piece.
        let fen = "4k3/8/2p5/8/8/8/8/3RK2N w - - 0 1";
        assert!(!check(fen, "d1d5", 0));
        assert!(check(fen, "d1d4", 0));
    }
}
