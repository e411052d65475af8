//! `Board`: XBoard/WinBoard move notation and Shredder-FEN, as python-chess spells them, and
//! the variant identity python-chess's protocol code reads (`uci_variant`, `xboard_variant`).
//!
//! XBoard writes moves as UCI does (``e2e4``, ``e7e8q``, ``P@e4``) except the null move,
//! ``@@@@``, and castling in Chess960, ``O-O``/``O-O-O``. Reading XBoard moves is reading SAN,
//! which already takes UCI text, the castling words and every null-move spelling.

use super::Board;
use crate::convert::ep_mode_arg;
use crate::moves::move_object;
use pyo3::prelude::*;

#[pymethods]
impl Board {
    /// The variant's name in the UCI protocol (``UCI_Variant``).
    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    /// The variant's name in the XBoard protocol.
    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    /// The FEN a new board starts from.
    #[classattr]
    fn starting_fen() -> &'static str {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    }

    /// Each side has exactly one king.
    #[classattr]
    fn one_king() -> bool {
        true
    }

    /// The kings may not stand next to each other.
    #[classattr]
    fn connected_kings() -> bool {
        false
    }

    /// Capturing is optional.
    #[classattr]
    fn captures_compulsory() -> bool {
        false
    }

    /// The names PGN ``Variant`` headers give standard chess.
    #[classattr]
    fn aliases() -> Vec<&'static str> {
        vec![
            "Standard",
            "Chess",
            "Classical",
            "Normal",
            "Illegal",
            "From Position",
        ]
    }

    /// The file suffix of the variant's Syzygy WDL tables.
    #[classattr]
    fn tbw_suffix() -> Option<&'static str> {
        Some(".rtbw")
    }

    /// The file suffix of the variant's Syzygy DTZ tables.
    #[classattr]
    fn tbz_suffix() -> Option<&'static str> {
        Some(".rtbz")
    }

    /// The magic bytes of the variant's Syzygy WDL tables.
    #[classattr]
    fn tbw_magic() -> Option<&'static [u8]> {
        Some(b"\x71\xe8\x23\x5d")
    }

    /// The magic bytes of the variant's Syzygy DTZ tables.
    #[classattr]
    fn tbz_magic() -> Option<&'static [u8]> {
        Some(b"\xd7\x66\x0c\xa5")
    }

    /// The suffix of the pawnless WDL tables a variant shares with another (none in chess).
    #[classattr]
    fn pawnless_tbw_suffix() -> Option<&'static str> {
        None
    }

    /// The suffix of the pawnless DTZ tables a variant shares with another (none in chess).
    #[classattr]
    fn pawnless_tbz_suffix() -> Option<&'static str> {
        None
    }

    /// The magic of the pawnless WDL tables a variant shares with another (none in chess).
    #[classattr]
    fn pawnless_tbw_magic() -> Option<&'static [u8]> {
        None
    }

    /// The magic of the pawnless DTZ tables a variant shares with another (none in chess).
    #[classattr]
    fn pawnless_tbz_magic() -> Option<&'static [u8]> {
        None
    }

    /// The move in XBoard notation: UCI, ``@@@@`` for the null move, and ``O-O``/``O-O-O``
    /// for castling when ``chess960`` (default: the board's mode).
    #[pyo3(signature = (r#move, chess960 = None))]
    fn xboard(&self, r#move: &Bound<'_, PyAny>, chess960: Option<bool>) -> PyResult<String> {
        let board = self.board();
        let m = move_object(r#move)?;
        let m = m.get();
        if let Some(uci) = m.playable() {
            if chess960.unwrap_or(board.is_chess960()) && board.is_castling_move(uci) {
                let side = if board.is_kingside_castling_move(uci) {
                    "O-O"
                } else {
                    "O-O-O"
                };
                return Ok(side.to_string());
            }
        }
        Ok(m.xboard())
    }

    /// The move an XBoard move text stands for here (SAN, UCI, ``@@@@``, ...).
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or
    ///     :exc:`AmbiguousMoveError`, as :meth:`parse_san`.
    fn parse_xboard<'py>(slf: &Bound<'py, Self>, xboard: &str) -> PyResult<Bound<'py, PyAny>> {
        slf.call_method1("parse_san", (xboard,))
    }

    /// Plays an XBoard move text and returns the move.
    ///
    /// :raises: as :meth:`parse_xboard`; the board is left unchanged.
    fn push_xboard<'py>(slf: &Bound<'py, Self>, xboard: &str) -> PyResult<Bound<'py, PyAny>> {
        slf.call_method1("push_san", (xboard,))
    }

    /// The FEN with the castling field in Shredder-FEN form (rook files, ``HAha``).
    #[pyo3(signature = (*, en_passant = "legal", promoted = None))]
    fn shredder_fen(&self, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        // The promoted-pieces mask only exists in variants; python-chess ignores it here too.
        let _ = promoted;
        Ok(self.board().fen_with(true, ep_mode_arg(en_passant)?))
    }
}
