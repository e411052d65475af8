//! UCI move notation (`e2e4`, `e7e8q`, `0000`) in two steps: [`UciMove::parse`] reads the
//! text without a position, [`Board::resolve_uci`] finds the legal move it means.
//!
//! Castling is written `e1g1` in standard chess and king-takes-rook (`e1h1`) in Chess960;
//! both spellings are understood in standard chess, as python-chess does.
//!
//! ```
//! use pychess_core::{Board, UciMove};
//! let board = Board::default();
//! let m = board.resolve_uci(UciMove::parse("g1f3").unwrap()).unwrap();
//! assert_eq!(board.uci(m).to_string(), "g1f3");
//! ```

use crate::board::Board;
use crate::error::MoveError;
use crate::types::{Bitboard, Move, MoveKind, Role, Square};
use std::fmt;

/// A move as UCI writes it: squares and an optional promotion, or the null move.
/// This is also python-chess's `Move` value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct UciMove {
    /// Origin square.
    pub from: Square,
    /// Destination square (a1 for the null move).
    pub to: Square,
    /// Promotion role, if any (any role parses; only Q/R/B/N can be legal).
    pub promotion: Option<Role>,
}

impl UciMove {
    /// The null move, `0000`.
    pub const NULL: UciMove = UciMove {
        from: Square::new(0),
        to: Square::new(0),
        promotion: None,
    };

    /// Is this the null move?
    pub fn is_null(self) -> bool {
        self.from == self.to && self.promotion.is_none()
    }

    /// The drop `drop` as a move value: both squares the target, the piece in `promotion`.
    /// No parse of from/to/promotion text gives equal squares, and no board move has them, so
    /// the value cannot be mistaken for a move or the null move: boards find it illegal, and
    /// it prints as the drop (`P@e4`) in their messages.
    pub const fn from_drop(drop: UciDrop) -> UciMove {
        UciMove {
            from: drop.to,
            to: drop.to,
            promotion: Some(drop.role),
        }
    }

    /// The drop this value stands for (see [`UciMove::from_drop`]), if it is one.
    pub fn as_drop(self) -> Option<UciDrop> {
        match self.promotion {
            Some(role) if self.from == self.to => Some(UciDrop { role, to: self.to }),
            _ => None,
        }
    }

    /// Reads `e2e4`, `a7a8q` or `0000` (python-chess's `Move.from_uci`).
    pub fn parse(text: &str) -> Result<UciMove, MoveError> {
        let invalid = || MoveError::Invalid {
            text: text.to_string(),
            notation: "uci",
        };
        if text == "0000" {
            return Ok(UciMove::NULL);
        }
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(invalid());
        }
        let from = Square::parse(&text[0..2]).ok_or_else(invalid)?;
        let to = Square::parse(&text[2..4]).ok_or_else(invalid)?;
        let promotion = match text.as_bytes().get(4) {
            Some(&c) => Some(Role::from_char(c as char).ok_or_else(invalid)?),
            None => None,
        };
        if from == to {
            return Err(invalid());
        }
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

/// Is `text` a drop in UCI (`N@e4`)? python-chess reads drops and then finds them illegal in
/// standard chess, so callers report them as illegal rather than malformed.
pub fn is_drop(text: &str) -> bool {
    UciDrop::parse(text).is_some()
}

/// A piece dropped on a square (`N@e4`), as crazyhouse-style UCI writes it. Standard chess has
/// no drops; python-chess's `Move.from_uci` still reads them, so we read them too.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct UciDrop {
    /// The piece type dropped.
    pub role: Role,
    /// Where it is dropped.
    pub to: Square,
}

impl UciDrop {
    /// Reads `P@e4`; the piece letter may be either case (`p@e4` is the same drop).
    pub fn parse(text: &str) -> Option<UciDrop> {
        let mut chars = text.chars();
        let (Some(piece), Some('@')) = (chars.next(), chars.next()) else {
            return None;
        };
        // Python's `str.lower()`: the Kelvin sign (U+212A) reads as a king, as in python-chess.
        let mut lower = piece.to_lowercase();
        let role = match (lower.next(), lower.next()) {
            (Some(l), None) => Role::from_char(l)?,
            _ => return None,
        };
        let to = Square::parse(chars.as_str())?;
        Some(UciDrop { role, to })
    }
}

impl fmt::Display for UciDrop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.role.upper_char(), self.to)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(drop) = self.as_drop() {
            return write!(f, "{drop}");
        }
        if self.is_null() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl Board {
    /// How python-chess shows the legal move `m`: castling as `e1g1` unless Chess960 (only a
    /// king on the e-file castling with a corner rook is written so: python-chess's
    /// `_from_chess960`; other castling moves, on edited boards, stay king-takes-rook).
    pub fn uci(&self, m: Move) -> UciMove {
        if let MoveKind::Drop(role) = m.kind {
            return UciMove::from_drop(UciDrop { role, to: m.to });
        }
        let standard_castle = m.is_castle()
            && !self.is_chess960()
            && m.from.file() == 4
            && (m.to.file() == 0 || m.to.file() == 7);
        let to = if standard_castle {
            m.castle_king_target()
        } else {
            m.to
        };
        UciMove {
            from: m.from,
            to,
            promotion: m.promotion(),
        }
    }

    /// Does the legal move `m` match `uci` under python-chess's `is_legal` rules? Castling
    /// matches king-takes-rook always, and king-to-target only in standard chess.
    pub(crate) fn matches(&self, m: Move, uci: UciMove) -> bool {
        if m.is_drop() {
            return self.uci(m) == uci;
        }
        if m.from != uci.from || m.promotion() != uci.promotion {
            return false;
        }
        match m.kind {
            MoveKind::Castle => uci.to == m.to || uci.to == self.uci(m).to,
            _ => uci.to == m.to,
        }
    }

    /// The legal move `uci` stands for, if any, with python-chess's `is_legal` semantics.
    pub fn find_legal(&self, uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        if !self.is_regular() {
            // python-chess's `is_legal`: pseudo-legal and not into check. On such boards its
            // generator can list moves this rejects and the other way round (several kings,
            // promoted kings), see `find_listed`.
            return self
                .find_pseudo_legal(uci)
                .filter(|&m| !self.is_into_check(m));
        }
        self.find_listed(uci)
    }

    /// The move `uci` stands for among those python-chess's legal-move generator lists.
    pub(crate) fn find_listed(&self, uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        let from = crate::Bitboard::from_square(uci.from);
        self.legal_moves_masked(from, crate::Bitboard::FULL)
            .iter()
            .copied()
            .find(|&m| self.matches(m, uci))
    }

    /// The pseudo-legal move `uci` stands for, if any (python-chess's `is_pseudo_legal`).
    pub fn find_pseudo_legal(&self, uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        self.pseudo_legal_moves()
            .iter()
            .copied()
            .find(|&m| self.matches(m, uci))
    }

    /// The legal move from `from` to `to` (python-chess's `find_move`): a pawn reaching the
    /// back rank promotes to a queen unless `promotion` says otherwise, and castling may be
    /// asked for king-to-target or king-to-rook.
    pub fn find_move(
        &self,
        from: Square,
        to: Square,
        promotion: Option<Role>,
    ) -> Result<Move, MoveError> {
        let promotes = self.by_role(Role::Pawn).contains(from) && Bitboard::BACKRANKS.contains(to);
        let uci = UciMove {
            from,
            to,
            promotion: promotion.or(promotes.then_some(Role::Queen)),
        };
        self.find_legal(uci)
            .ok_or_else(|| MoveError::NoMatchingMove {
                uci,
                fen: self.fen(),
            })
    }

    /// python-chess's `_to_chess960`: `e1g1`/`e1c1` (and the black ones) with a king on e1
    /// mean castling even in Chess960 mode, unless a rook stands on the target.
    pub fn normalize_castling(&self, uci: UciMove) -> UciMove {
        let rank = uci.from.rank();
        if uci.from.file() != 4 || (rank != 0 && rank != 7) || uci.from.rank() != uci.to.rank() {
            return uci;
        }
        if self.role_at(uci.from) != Some(Role::King) {
            return uci;
        }
        let rook_file = match uci.to.file() {
            6 => 7,
            2 => 0,
            _ => return uci,
        };
        if self.role_at(uci.to) == Some(Role::Rook) {
            return uci;
        }
        UciMove {
            from: uci.from,
            to: Square::from_coords(rook_file, rank),
            promotion: None,
        }
    }

    /// python-chess's `_from_chess960`, the reverse of [`Board::normalize_castling`]: outside
    /// Chess960, king-takes-rook from e1/e8 to a corner (`e1h1`, `e8a8`) with a king (of
    /// either colour) on e1/e8 becomes the king's move (`e1g1`, `e8c8`). Everything else,
    /// and everything in Chess960, stays as it is. Polyglot books write castling the first
    /// way; python-chess shows it the second.
    ///
    /// ```
    /// use pychess_core::{Board, UciMove};
    /// let board = Board::default();
    /// let castle = UciMove::parse("e1h1").unwrap();
    /// assert_eq!(board.castling_from_chess960(castle).to_string(), "e1g1");
    /// ```
    pub fn castling_from_chess960(&self, uci: UciMove) -> UciMove {
        if self.is_chess960() || uci.promotion.is_some() || uci.from.file() != 4 {
            return uci;
        }
        let rank = uci.from.rank();
        let on_back_rank = (rank == 0 || rank == 7) && uci.to.rank() == rank;
        if !on_back_rank || self.role_at(uci.from) != Some(Role::King) {
            return uci;
        }
        let king_file = match uci.to.file() {
            7 => 6,
            0 => 2,
            _ => return uci,
        };
        UciMove {
            from: uci.from,
            to: Square::from_coords(king_file, rank),
            promotion: None,
        }
    }

    /// Reads UCI text given to this board (`push_uci`, `parse_uci`): as [`UciMove::parse`],
    /// but a drop (`N@e4`), which python-chess reads and then finds illegal in standard
    /// chess, is an illegal move here rather than a malformed one.
    pub fn parse_uci_text(&self, text: &str) -> Result<UciMove, MoveError> {
        UciMove::parse(text).map_err(|e| {
            if is_drop(text) {
                MoveError::Illegal {
                    text: text.to_string(),
                    fen: self.fen(),
                }
            } else {
                e
            }
        })
    }

    /// The legal move for a UCI move given to `push`/`parse_uci` (castling spelled either way).
    pub fn resolve_uci(&self, uci: UciMove) -> Result<Move, MoveError> {
        self.find_legal(self.normalize_castling(uci))
            .ok_or_else(|| {
                MoveError::Illegal {
                    text: uci.to_string(),
                    fen: self.fen(),
                }
                .naming_missing_rook(self, uci)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_reads_drops_as_illegal_and_garbage_as_invalid() {
        let board = Board::default();
        assert_eq!(board.parse_uci_text("e2e4"), UciMove::parse("e2e4"));
        assert!(matches!(
            board.parse_uci_text("N@e4"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            board.parse_uci_text("e2e9"),
            Err(MoveError::Invalid { .. })
        ));
    }

    #[test]
    fn find_move_defaults_promotions_to_a_queen() {
        let board = Board::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1", false).unwrap();
        let sq = |name| Square::parse(name).unwrap();
        let queen = board.find_move(sq("a7"), sq("a8"), None).unwrap();
        assert_eq!(queen.promotion(), Some(Role::Queen));
        let knight = board
            .find_move(sq("a7"), sq("a8"), Some(Role::Knight))
            .unwrap();
        assert_eq!(knight.promotion(), Some(Role::Knight));
        let err = board.find_move(sq("a1"), sq("a3"), None).unwrap_err();
        assert_eq!(
            err.to_string(),
            "no matching legal move for a1a3 in 8/P6k/8/8/8/8/8/K7 w - - 0 1"
        );
        let castle = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false).unwrap();
        assert!(castle
            .find_move(sq("e1"), sq("g1"), None)
            .unwrap()
            .is_castle());
        assert!(castle
            .find_move(sq("e1"), sq("h1"), None)
            .unwrap()
            .is_castle());
    }

    #[test]
    fn castling_from_chess960_maps_corners_to_king_moves() {
        let mapped = |fen: &str, chess960: bool, uci: &str| {
            let board = Board::from_fen(fen, chess960).unwrap();
            board
                .castling_from_chess960(UciMove::parse(uci).unwrap())
                .to_string()
        };
        let start = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(mapped(start, false, "e1h1"), "e1g1");
        assert_eq!(mapped(start, false, "e1a1"), "e1c1");
        assert_eq!(mapped(start, false, "e8h8"), "e8g8");
        assert_eq!(mapped(start, false, "e8a8"), "e8c8");
        // Chess960 keeps king-takes-rook; other squares and promotions are left alone.
        assert_eq!(mapped(start, true, "e1h1"), "e1h1");
        assert_eq!(mapped(start, false, "e1f1"), "e1f1");
        assert_eq!(mapped(start, false, "a1a8"), "a1a8");
        // Only with a king on e1/e8 (either colour: python-chess looks at any king).
        assert_eq!(
            mapped("4k3/8/8/8/8/8/8/R3R1K1 w - - 0 1", false, "e1a1"),
            "e1a1"
        );
        assert_eq!(
            mapped("8/8/8/8/8/8/8/R3k1K1 b - - 0 1", false, "e1a1"),
            "e1c1"
        );
    }

    #[test]
    fn parses_like_python_chess() {
        assert_eq!(UciMove::parse("e2e4").unwrap().to_string(), "e2e4");
        assert_eq!(
            UciMove::parse("a7a8q").unwrap().promotion,
            Some(Role::Queen)
        );
        assert_eq!(UciMove::parse("a7a8k").unwrap().promotion, Some(Role::King));
        assert!(UciMove::parse("0000").unwrap().is_null());
        for bad in [
            "", "e2", "e2e2", "e2e9", "e2e4x", "e2e4qq", "é2e4", "E2E4", "e2e4Q",
        ] {
            assert!(UciMove::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn drops_are_recognised() {
        assert!(is_drop("N@e4"));
        assert!(is_drop("p@a1"));
        assert!(is_drop("\u{212a}@e4"));
        assert!(!is_drop("X@e4"));
        assert!(!is_drop("N@e9"));
        assert!(!is_drop("N@e44"));
        assert!(!is_drop("e2e4"));
        let drop = UciDrop::parse("p@e4").unwrap();
        assert_eq!(drop.role, Role::Pawn);
        assert_eq!(drop.to.to_string(), "e4");
        assert_eq!(drop.to_string(), "P@e4");
        assert_eq!(UciDrop::parse("\u{212a}@h8").unwrap().to_string(), "K@h8");
        assert_eq!(UciDrop::parse("Q@g9"), None);
        assert_eq!(UciDrop::parse("@e4"), None);
    }

    #[test]
    fn drops_as_move_values_are_never_played() {
        let drop = UciMove::from_drop(UciDrop::parse("N@f3").unwrap());
        assert!(!drop.is_null());
        assert_eq!(drop.to_string(), "N@f3");
        assert_eq!(drop.as_drop(), UciDrop::parse("n@f3"));
        assert_eq!(UciMove::NULL.as_drop(), None);
        assert_eq!(UciMove::parse("e2e4").unwrap().as_drop(), None);
        let board = Board::default();
        assert_eq!(board.find_legal(drop), None);
        assert_eq!(board.find_pseudo_legal(drop), None);
        let err = board.resolve_uci(drop).unwrap_err();
        assert!(err.to_string().contains("'N@f3'"), "{err}");
    }

    #[test]
    fn castling_both_spellings() {
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let short = board.resolve_uci(UciMove::parse("e1g1").unwrap()).unwrap();
        assert!(short.is_castle());
        assert_eq!(
            board.resolve_uci(UciMove::parse("e1h1").unwrap()).unwrap(),
            short
        );
        assert_eq!(board.uci(short).to_string(), "e1g1");
        let mut chess960 = board.clone();
        chess960.set_chess960(true);
        assert_eq!(chess960.uci(short).to_string(), "e1h1");
        assert!(chess960
            .find_legal(UciMove::parse("e1g1").unwrap())
            .is_none());
        assert_eq!(
            chess960
                .resolve_uci(UciMove::parse("e1g1").unwrap())
                .unwrap(),
            short
        );
    }

    #[test]
    fn promotion_must_be_named() {
        let board = Board::from_fen("8/P7/8/8/8/8/8/K1k5 w - - 0 1", false).unwrap();
        assert!(board.resolve_uci(UciMove::parse("a7a8").unwrap()).is_err());
        assert!(board.resolve_uci(UciMove::parse("a7a8k").unwrap()).is_err());
        assert!(board.resolve_uci(UciMove::parse("a7a8n").unwrap()).is_ok());
    }
}
