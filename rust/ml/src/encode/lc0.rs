//! Lc0's classical 112-plane network input (`INPUT_CLASSICAL_112_PLANE`, as Lc0's
//! `EncodePositionForNN` writes it with its default `--history-fill=fen_only`).
//!
//! The array is channels-first `(112, 8, 8)` of `f32`, flattened row-major (`plane * 64 +
//! rank * 8 + file`), seen from the side to move: rank 0 is the mover's first rank (a1 is
//! index 0 for White; for Black the board is mirrored vertically, so a8 is index 0).
//!
//! * 13i .. 13(i + 1), i = 0..8: the position i plies ago in the mover's view: 6 planes of
//!   the mover's pieces (pawn, knight, bishop, rook, queen, king), 6 of the opponent's, then
//!   1.0 everywhere if the position had occurred before (python-chess's `is_repetition(2)`
//!   as of then). When the game is shorter, the root position fills the remaining slots
//!   (with a pawn that had just moved two squares put back on its starting square), unless
//!   the root is the standard starting position: then they stay zero.
//! * 104, 105: the mover may castle queenside, kingside. 106, 107: the opponent may castle
//!   queenside, kingside.
//! * 108: 1.0 everywhere if Black is to move.
//! * 109: the halfmove clock (the fifty-move counter, in plies), unscaled.
//! * 110: zeros (once the move count). 111: ones.

use super::history::recent;
use super::view_bits;
use pychess_core::{Board, Color, Game, Role, Setup};
use std::sync::OnceLock;

/// The input's shape: 112 planes of 8 ranks x 8 files.
pub const LC0_SHAPE: [usize; 3] = [112, 8, 8];

fn put(out: &mut [f32], plane: usize, bits: u64) {
    let mut rest = bits;
    while rest != 0 {
        out[plane * 64 + rest.trailing_zeros() as usize] = 1.0;
        rest &= rest - 1;
    }
}

fn fill(out: &mut [f32], plane: usize, value: f32) {
    out[plane * 64..(plane + 1) * 64].fill(value);
}

/// Is `board` the standard starting position (placement, side, castling, no en passant)?
fn is_start(board: &Board) -> bool {
    static START: OnceLock<Option<Board>> = OnceLock::new();
    let Some(start) = START.get_or_init(|| Board::from_setup(&Setup::standard(), false).ok())
    else {
        return false;
    };
    Color::ALL.iter().all(|&c| {
        Role::ALL
            .iter()
            .all(|&r| board.pieces(c, r) == start.pieces(c, r))
    }) && board.turn() == start.turn()
        && board.clean_castling_rights() == start.clean_castling_rights()
        && board.ep_square().is_none()
}

/// The pieces of `board` by colour and role, with the pawn that just moved two squares put
/// back on its starting square when `undo_double_step`.
fn pieces(board: &Board, undo_double_step: bool) -> [[u64; 6]; 2] {
    let mut pieces = [[0u64; 6]; 2];
    for color in Color::ALL {
        for role in Role::ALL {
            pieces[color.index()][role.index()] = board.pieces(color, role).0;
        }
    }
    if let (true, Some(ep)) = (undo_double_step, board.ep_square()) {
        let mover = !board.turn();
        let (now, start) = match ep.rank() {
            2 => (ep.index() + 8, ep.index() - 8),
            5 => (ep.index() - 8, ep.index() + 8),
            _ => return pieces,
        };
        let pawns = &mut pieces[mover.index()][Role::Pawn.index()];
        if *pawns & (1 << now) != 0 {
            *pawns = (*pawns & !(1 << now)) | 1 << start;
        }
    }
    pieces
}

/// Lc0's classical input planes for the game's current position into `out`, row-major
/// `(112, 8, 8)` (see the module documentation for every plane).
///
/// # Panics
/// If `out` is not 112 * 64 long.
pub fn lc0_planes(game: &Game, out: &mut [f32]) {
    assert_eq!(out.len(), 112 * 64, "Lc0 planes have 112 * 8 * 8 values");
    out.fill(0.0);
    let board = game.board();
    let us = board.turn();
    let (past, count) = recent(game, 8);
    let root = game.root();
    let fill_with_root = !is_start(root);
    for slot in 0..8 {
        let (position, occurrences, filled) = match past.get(slot).copied().flatten() {
            Some(entry) if slot < count => (entry.board, entry.occurrences, false),
            _ if fill_with_root => (root, 1, true),
            _ => break,
        };
        let pieces = pieces(position, filled);
        for (side, color) in [us, !us].into_iter().enumerate() {
            for role in Role::ALL {
                let bits = view_bits(pieces[color.index()][role.index()], us);
                put(out, 13 * slot + 6 * side + role.index(), bits);
            }
        }
        if occurrences >= 2 {
            fill(out, 13 * slot + 12, 1.0);
        }
    }
    let (our_king_side, our_queen_side) = board.castling_sides(us);
    let (their_king_side, their_queen_side) = board.castling_sides(!us);
    for (plane, on) in [
        our_queen_side,
        our_king_side,
        their_queen_side,
        their_king_side,
    ]
    .into_iter()
    .enumerate()
    {
        if on {
            fill(out, 104 + plane, 1.0);
        }
    }
    if us == Color::Black {
        fill(out, 108, 1.0);
    }
    fill(out, 109, board.halfmove_clock() as f32);
    fill(out, 111, 1.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    #[test]
    fn start_fen_root_and_history() {
        let mut out = vec![0f32; 112 * 64];
        let mut game = Game::default();
        lc0_planes(&game, &mut out);
        // Start position: one slot, the rest empty.
        assert_eq!(out[5 * 64 + 4], 1.0); // our king e1
        assert_eq!(out[11 * 64 + 60], 1.0); // their king e8
        assert!(out[13 * 64..104 * 64].iter().all(|&v| v == 0.0));
        assert!(out[104 * 64..108 * 64].iter().all(|&v| v == 1.0));
        game.push_uci(UciMove::parse("e2e4").unwrap()).unwrap();
        lc0_planes(&game, &mut out);
        // Black to move: Black's king (e8) is ours, mirrored to index 4.
        assert_eq!(out[5 * 64 + 4], 1.0);
        assert_eq!(out[108 * 64], 1.0);
        // The previous slot (start position) shows White's e-pawn on e2, mirrored to e7.
        assert_eq!(out[(13 + 6) * 64 + 52], 1.0);
        assert!(out[26 * 64..104 * 64].iter().all(|&v| v == 0.0));

        let fen = "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 7 40";
        let game = Game::new(Board::from_fen(fen, false).unwrap());
        lc0_planes(&game, &mut out);
        // Slot 0: White's pawn (theirs) on d4, mirrored to d5 = 35.
        assert_eq!(out[6 * 64 + 35], 1.0);
        // Filled slots: the same position with the pawn back on d2, mirrored to d7 = 51.
        for slot in 1..8 {
            assert_eq!(out[(13 * slot + 6) * 64 + 51], 1.0);
            assert_eq!(out[(13 * slot + 6) * 64 + 35], 0.0);
            assert_eq!(out[(13 * slot + 5) * 64 + 4], 1.0);
        }
        assert_eq!(out[109 * 64 + 10], 7.0);
    }
}
