//! Hash keys: the Polyglot key python-chess's `chess.polyglot.zobrist_hash` gives, and the
//! repetition key that decides threefold/fivefold repetition.
//!
//! Both share the incrementally updated piece-and-turn part (`Board::piece_key`); the
//! castling and en-passant parts are cheap to add on demand, and they differ: Polyglot hashes
//! castling by side (K/Q/k/q) and en passant when a pawn merely stands ready to capture, while
//! a repetition (python-chess's `_transposition_key`) needs the exact castling rooks and counts
//! en passant only when the capture is legal.

use super::polyglot_keys::POLYGLOT_KEYS;
use super::Board;
use crate::types::{Bitboard, Color, Piece, Square};

/// Polyglot key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_square_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + usize::from(piece.color.is_white());
    POLYGLOT_KEYS[64 * kind + sq.index()]
}

/// Polyglot key XORed in while White is to move.
pub(crate) const WHITE_TO_MOVE_KEY: u64 = POLYGLOT_KEYS[780];

#[inline]
fn ep_file_key(sq: Square) -> u64 {
    POLYGLOT_KEYS[772 + sq.file() as usize]
}

/// Keys for the exact castling rook squares (repetition key only), from a fixed-seed
/// splitmix64 stream so every build agrees.
static CASTLING_SQUARE_KEYS: [u64; 64] = {
    let mut keys = [0u64; 64];
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut i = 0;
    while i < 64 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

impl Board {
    /// The Polyglot Zobrist hash, equal to python-chess's `chess.polyglot.zobrist_hash`.
    pub fn zobrist_hash(&self) -> u64 {
        let mut key = self.piece_key;
        for color in Color::ALL {
            let (king_side, queen_side) = self.castling_sides(color);
            let base = if color.is_white() { 768 } else { 770 };
            if king_side {
                key ^= POLYGLOT_KEYS[base];
            }
            if queen_side {
                key ^= POLYGLOT_KEYS[base + 1];
            }
        }
        // python-chess's truth test skips an en-passant square of index 0.
        if let Some(ep) = self.ep_square.filter(|sq| sq.index() != 0) {
            if self.ep_capturers(ep).nonempty() {
                key ^= ep_file_key(ep);
            }
        }
        key
    }

    /// The key that identifies a position for repetition: placement, side to move, the exact
    /// castling rooks and a *legal* en-passant capture.
    pub fn repetition_key(&self) -> u64 {
        let mut key = self.piece_key;
        for sq in self.clean_castling_rights() {
            key ^= CASTLING_SQUARE_KEYS[sq.index()];
        }
        if let Some(ep) = self.legal_ep_square() {
            key ^= ep_file_key(ep);
        }
        key
    }

    /// The piece-and-turn part of the key computed from scratch (the incremental one must
    /// always equal it).
    pub(crate) fn compute_piece_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in crate::Role::ALL {
                for sq in self.pieces(color, role) {
                    key ^= piece_square_key(Piece { color, role }, sq);
                }
            }
        }
        if self.turn.is_white() {
            key ^= WHITE_TO_MOVE_KEY;
        }
        key
    }

    /// Pawns of the side to move that stand next to the double-stepped pawn (legality of the
    /// capture not considered), as Polyglot's en-passant rule wants.
    pub(crate) fn ep_capturers(&self, ep: Square) -> Bitboard {
        crate::attacks::pawn(!self.turn, ep) & self.pieces(self.turn, crate::Role::Pawn)
    }
}
