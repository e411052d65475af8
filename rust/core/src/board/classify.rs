//! What a move given as from/to/promotion would do (python-chess's `is_capture`,
//! `is_en_passant`, `is_castling`, `is_zeroing`, `is_irreversible`), whether or not it is legal.

use super::Board;
use crate::notation::UciMove;
use crate::types::{Bitboard, Role};

impl Board {
    /// Does `m` capture en passant (a pawn moving diagonally onto the empty ep square)?
    pub fn is_en_passant_move(&self, m: UciMove) -> bool {
        let diff = m.to.index().abs_diff(m.from.index());
        self.ep_square() == Some(m.to)
            && self.by_role(Role::Pawn).contains(m.from)
            && (diff == 7 || diff == 9)
            && !self.occupied().contains(m.to)
    }

    /// Does `m` capture an opponent piece?
    pub fn is_capture_move(&self, m: UciMove) -> bool {
        self.by_color(!self.turn()).contains(m.to) || self.is_en_passant_move(m)
    }

    /// Does `m` reset the fifty-move counter (a pawn move or a capture)?
    pub fn is_zeroing_move(&self, m: UciMove) -> bool {
        let touched = Bitboard::from_square(m.from) ^ Bitboard::from_square(m.to);
        (touched & self.by_role(Role::Pawn)).nonempty()
            || (touched & self.by_color(!self.turn())).nonempty()
    }

    /// Is `m` castling: a king moving two files or onto one of its own rooks?
    pub fn is_castling_move(&self, m: UciMove) -> bool {
        if !self.pieces(self.turn(), Role::King).contains(m.from) {
            return false;
        }
        m.from.file().abs_diff(m.to.file()) > 1
            || self.pieces(self.turn(), Role::Rook).contains(m.to)
    }

    /// Does `m` lose castling rights (moving the king, or moving or capturing a castling rook)?
    pub fn reduces_castling_rights(&self, m: UciMove) -> bool {
        let touched = Bitboard::from_square(m.from) ^ Bitboard::from_square(m.to);
        let rights = self.castling_rights();
        if (touched & rights).nonempty() {
            return true;
        }
        crate::Color::ALL.into_iter().any(|color| {
            (rights & Bitboard::rank(color.back_rank())).nonempty()
                && (touched & self.pieces(color, Role::King)).nonempty()
        })
    }

    /// Is `m` irreversible: zeroing, losing castling rights, or giving up a legal en passant?
    pub fn is_irreversible_move(&self, m: UciMove) -> bool {
        self.is_zeroing_move(m)
            || self.reduces_castling_rights(m)
            || self.legal_ep_square().is_some()
    }
}
