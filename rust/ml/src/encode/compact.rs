//! The compact encoding: a position as 17 unsigned 64-bit integers, in python-chess's
//! numbering (squares a1 = 0 .. h8 = 63, bit `i` of a bitboard = square `i`), never mirrored.
//!
//! * 0..6: White's pawns, knights, bishops, rooks, queens, king (bitboards).
//! * 6..12: Black's, in the same order.
//! * 12: side to move, 0 White, 1 Black.
//! * 13: castling rights as the bitboard of the rooks that keep them (python-chess's
//!   `clean_castling_rights()`: `BB_A1 | BB_H1 | BB_A8 | BB_H8` at the start).
//! * 14: the en-passant square if an en-passant capture is legal now (python-chess's
//!   `ep_square` when `has_legal_en_passant()`), else 64 ([`NO_SQUARE`]).
//! * 15: halfmove clock; 16: fullmove number.

use pychess_core::{Board, Color, Role};

/// How many integers one position takes.
pub const COMPACT_LEN: usize = 17;

/// The en-passant entry when no en-passant capture is legal.
pub const NO_SQUARE: u64 = 64;

/// Writes the compact encoding of `board` into `out`.
///
/// # Panics
/// If `out` is not [`COMPACT_LEN`] long.
pub fn compact(board: &Board, out: &mut [u64]) {
    assert_eq!(
        out.len(),
        COMPACT_LEN,
        "a compact position has COMPACT_LEN integers"
    );
    for color in Color::ALL {
        for role in Role::ALL {
            out[6 * color.index() + role.index()] = board.pieces(color, role).0;
        }
    }
    out[12] = u64::from(board.turn() == Color::Black);
    out[13] = board.clean_castling_rights().0;
    out[14] = board
        .ep_square()
        .and_then(|_| board.legal_ep_square())
        .map_or(NO_SQUARE, |sq| sq.index() as u64);
    out[15] = board.halfmove_clock();
    out[16] = board.fullmove_number();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let mut out = [0u64; COMPACT_LEN];
        compact(&Board::default(), &mut out);
        assert_eq!(out[0], 0xff00);
        assert_eq!(out[5], 1 << 4);
        assert_eq!(out[6], 0x00ff_0000_0000_0000);
        assert_eq!(out[11], 1 << 60);
        assert_eq!(out[12..], [0, 0x8100_0000_0000_0081, NO_SQUARE, 0, 1]);
        let ep = Board::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", false).unwrap();
        compact(&ep, &mut out);
        assert_eq!(out[14], 19);
        let no_capture = Board::from_fen("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1", false).unwrap();
        compact(&no_capture, &mut out);
        assert_eq!(out[14], NO_SQUARE);
    }
}
