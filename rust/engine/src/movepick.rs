//! Move ordering: static exchange evaluation and the scores the search sorts moves by.
//!
//! The core generates strictly legal moves all at once; ordering scores them once and the
//! search then picks the best remaining move each time (a lazy selection sort, cheap because
//! most nodes cut off after a few moves).

use crate::params::SEE_VALUES;
use pychess_core::{attacks, Bitboard, Board, Color, Move, Role, Square};

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
        let victim = if board.turn().is_white() {
            to.index() - 8
        } else {
            to.index() + 8
        };
        occupied = occupied.without(Square::new(victim as u8));
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
