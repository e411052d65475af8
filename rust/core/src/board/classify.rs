//! What a move given as from/to/promotion would do (python-chess's `is_capture`,
//! `is_en_passant`, `is_castling`, `is_zeroing`, `is_irreversible`), whether or not it is legal.

use super::Board;
use crate::notation::UciMove;
use crate::types::{Bitboard, Move, MoveKind, Role, Square};

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
            // A drop touches one square (from == to): python-chess zeroes on a pawn drop.
            || m.as_drop().is_some_and(|drop| drop.role == Role::Pawn)
    }

    /// Is `m` castling: a king moving two files or onto one of its own rooks?
    pub fn is_castling_move(&self, m: UciMove) -> bool {
        if !self.pieces(self.turn(), Role::King).contains(m.from) {
            return false;
        }
        m.from.file().abs_diff(m.to.file()) > 1
            || self.pieces(self.turn(), Role::Rook).contains(m.to)
    }

    /// Is `m` castling towards the h-file (python-chess's `is_kingside_castling`)?
    pub fn is_kingside_castling_move(&self, m: UciMove) -> bool {
        self.is_castling_move(m) && m.to.file() > m.from.file()
    }

    /// Is `m` castling towards the a-file (python-chess's `is_queenside_castling`)?
    pub fn is_queenside_castling_move(&self, m: UciMove) -> bool {
        self.is_castling_move(m) && m.to.file() < m.from.file()
    }

    /// Where the king lands if `m` castles here: the g- or c-file of its rank, whichever way
    /// the move spells castling (`e1g1`, or king takes rook as in Chess960). `None` for a
    /// move that is not castling. Boards and move lists show a castling move there.
    pub fn castling_king_target(&self, m: UciMove) -> Option<Square> {
        self.is_castling_move(m)
            .then(|| Move::new(m.from, m.to, MoveKind::Castle).castle_king_target())
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

#[cfg(test)]
mod tests {
    use crate::{Board, Color, UciMove};

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn castling_sides_and_moves() {
        let b = board("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        assert_eq!(b.castling_sides(Color::White), (true, false));
        assert_eq!(b.castling_sides(Color::Black), (false, true));
        let short = UciMove::parse("e1g1").unwrap();
        assert!(b.is_kingside_castling_move(short) && !b.is_queenside_castling_move(short));
        assert!(b.is_kingside_castling_move(UciMove::parse("e1h1").unwrap()));
        assert!(!b.is_kingside_castling_move(UciMove::parse("e1f1").unwrap()));
        let chess960 = Board::from_fen("1r2k3/8/8/8/8/8/8/1R2K3 w Bb - 0 1", true).unwrap();
        assert_eq!(chess960.castling_sides(Color::White), (false, true));
        assert!(chess960.is_queenside_castling_move(UciMove::parse("e1b1").unwrap()));
    }

    #[test]
    fn castling_king_targets() {
        let target = |b: &Board, m: &str| {
            b.castling_king_target(UciMove::parse(m).unwrap())
                .map(|sq| sq.to_string())
        };
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (m, expected) in [
            ("e1g1", Some("g1")),
            ("e1h1", Some("g1")),
            ("e1c1", Some("c1")),
            ("e1a1", Some("c1")),
            ("e1f1", None),
            ("a1a8", None),
        ] {
            assert_eq!(target(&b, m).as_deref(), expected, "{m}");
        }
        let black = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert_eq!(target(&black, "e8c8").as_deref(), Some("c8"));
        assert_eq!(target(&black, "e1g1"), None);
        // Chess960: the king on b1 castles towards a1 and lands on c1, to the right.
        let chess960 = Board::from_fen("1r2k3/8/8/8/8/8/8/RK5R w AH - 0 1", true).unwrap();
        assert_eq!(target(&chess960, "b1a1").as_deref(), Some("c1"));
        assert_eq!(target(&chess960, "b1h1").as_deref(), Some("g1"));
    }

    #[test]
    fn same_position_is_python_chess_equality() {
        let a = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        // The same position with a useless en-passant square written out.
        let b = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert!(a.same_position(&b) && a != b);
        let mut c = a.clone();
        c.set_chess960(true);
        assert!(a.same_position(&c));
        assert!(!a.same_position(&board(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 1"
        )));
        assert!(!a.same_position(&board(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1"
        )));
        // A legal en-passant chance makes positions differ.
        let ep = board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        let no_ep = board("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
        assert!(!ep.same_position(&no_ep));
    }
}
