//! `Board`: the position's state, pieces and attacks.

use super::{Board, BB_ALL};
use crate::convert::{color_arg, square_arg};
use crate::moves::{intern, Move};
use crate::piece::Piece;
use crate::squareset::SquareSet;
use pychess_core::{Bitboard, Color, EpMode, Role, Square};
use pyo3::prelude::*;
use pyo3::types::PyDict;

impl Board {
    fn role_mask(&self, role: Role) -> u64 {
        self.board().by_role(role).0
    }

    fn square(&self, square: u32) -> PyResult<Square> {
        square_arg(square, "square")
    }
}

#[pymethods]
impl Board {
    /// ``True`` (white) or ``False`` (black) to move.
    #[getter]
    fn turn(&self) -> bool {
        self.board().turn().is_white()
    }

    /// Bitmask of the rooks that keep castling rights.
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.board().castling_rights().0
    }

    /// The en-passant square after a double step (even if no capture is possible), or None.
    #[getter]
    fn ep_square(&self) -> Option<usize> {
        self.board().ep_square().map(|s| s.index())
    }

    #[getter]
    fn halfmove_clock(&self) -> u64 {
        self.board().halfmove_clock()
    }

    #[getter]
    fn fullmove_number(&self) -> u64 {
        self.board().fullmove_number()
    }

    #[getter]
    fn chess960(&self) -> bool {
        self.board().is_chess960()
    }

    /// Switches castling notation; the position and the history stay.
    #[setter]
    fn set_chess960(&mut self, chess960: bool) {
        self.game.set_chess960(chess960);
    }

    #[getter]
    fn occupied(&self) -> u64 {
        self.board().occupied().0
    }

    /// ``[black_mask, white_mask]``, indexed by colour like python-chess.
    #[getter]
    fn occupied_co(&self) -> [u64; 2] {
        let board = self.board();
        [
            board.by_color(Color::Black).0,
            board.by_color(Color::White).0,
        ]
    }

    #[getter]
    fn pawns(&self) -> u64 {
        self.role_mask(Role::Pawn)
    }

    #[getter]
    fn knights(&self) -> u64 {
        self.role_mask(Role::Knight)
    }

    #[getter]
    fn bishops(&self) -> u64 {
        self.role_mask(Role::Bishop)
    }

    #[getter]
    fn rooks(&self) -> u64 {
        self.role_mask(Role::Rook)
    }

    #[getter]
    fn queens(&self) -> u64 {
        self.role_mask(Role::Queen)
    }

    #[getter]
    fn kings(&self) -> u64 {
        self.role_mask(Role::King)
    }

    /// Always 0: promoted pieces are not tracked outside crazyhouse.
    #[getter]
    fn promoted(&self) -> u64 {
        0
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> Vec<Py<Move>> {
        self.game.uci_moves().map(|uci| intern(py, uci)).collect()
    }

    /// Half-moves since the start of the game (from the move number and side to move).
    fn ply(&self) -> u64 {
        self.game.ply()
    }

    fn piece_at(&self, square: u32) -> PyResult<Option<Piece>> {
        Ok(self
            .board()
            .piece_at(self.square(square)?)
            .map(Piece::from_core))
    }

    fn piece_type_at(&self, square: u32) -> PyResult<Option<u8>> {
        Ok(self.board().role_at(self.square(square)?).map(|r| r as u8))
    }

    fn color_at(&self, square: u32) -> PyResult<Option<bool>> {
        Ok(self
            .board()
            .color_at(self.square(square)?)
            .map(Color::is_white))
    }

    /// ``{square: Piece}`` for the occupied squares of ``mask``.
    #[pyo3(signature = (*, mask = BB_ALL))]
    fn piece_map<'py>(&self, py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let board = self.board();
        for sq in board.occupied() & Bitboard(mask) {
            if let Some(piece) = board.piece_at(sq) {
                dict.set_item(sq.index(), Piece::from_core(piece))?;
            }
        }
        Ok(dict)
    }

    /// The square of ``color``'s king.
    fn king(&self, color: bool) -> Option<usize> {
        Some(self.board().king_of(color_arg(color)).index())
    }

    /// The squares of ``color``'s pieces of ``piece_type``.
    fn pieces(&self, piece_type: u8, color: bool) -> SquareSet {
        SquareSet {
            mask: self.pieces_mask(piece_type, color),
        }
    }

    fn pieces_mask(&self, piece_type: u8, color: bool) -> u64 {
        Role::from_number(piece_type).map_or(0, |r| self.board().pieces(color_arg(color), r).0)
    }

    fn attackers_mask(&self, color: bool, square: u32) -> PyResult<u64> {
        let square = square_arg(square, "square")?;
        Ok(self.board().attackers(square, color_arg(color)).0)
    }

    fn attacks_mask(&self, square: u32) -> PyResult<u64> {
        Ok(self.board().attacks_from(square_arg(square, "square")?).0)
    }

    fn pin_mask(&self, color: bool, square: u32) -> PyResult<u64> {
        let square = square_arg(square, "square")?;
        Ok(self.board().pin_mask(color_arg(color), square).0)
    }

    /// Pieces of ``color`` attacking ``square``.
    fn attackers(&self, color: bool, square: u32) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.attackers_mask(color, square)?,
        })
    }

    fn is_attacked_by(&self, color: bool, square: u32) -> PyResult<bool> {
        Ok(self.attackers_mask(color, square)? != 0)
    }

    /// Squares attacked by the piece on ``square``.
    fn attacks(&self, square: u32) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.attacks_mask(square)?,
        })
    }

    /// Pieces giving check.
    fn checkers(&self) -> SquareSet {
        SquareSet {
            mask: self.checkers_mask(),
        }
    }

    fn checkers_mask(&self) -> u64 {
        self.board().checkers().0
    }

    /// The line ``square`` is pinned along to ``color``'s king (all squares if not pinned).
    fn pin(&self, color: bool, square: u32) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.pin_mask(color, square)?,
        })
    }

    fn is_pinned(&self, color: bool, square: u32) -> PyResult<bool> {
        Ok(self.pin_mask(color, square)? != BB_ALL)
    }

    fn has_legal_en_passant(&self) -> bool {
        self.board().legal_ep_square().is_some()
    }

    fn has_pseudo_legal_en_passant(&self) -> bool {
        self.board().ep_square_for(EpMode::PseudoLegal).is_some()
    }

    /// The castling rights (always clean here: invalid rights are refused on input).
    fn clean_castling_rights(&self) -> u64 {
        self.board().castling_rights().0
    }

    fn has_castling_rights(&self, color: bool) -> bool {
        let (kingside, queenside) = self.board().castling_sides(color_arg(color));
        kingside || queenside
    }

    fn has_kingside_castling_rights(&self, color: bool) -> bool {
        self.board().castling_sides(color_arg(color)).0
    }

    fn has_queenside_castling_rights(&self, color: bool) -> bool {
        self.board().castling_sides(color_arg(color)).1
    }

    /// The Polyglot Zobrist hash (equal to ``chess.polyglot.zobrist_hash(board)``).
    fn zobrist_hash(&self) -> u64 {
        self.board().zobrist_hash()
    }

    /// The position with colours swapped and the board flipped vertically.
    fn mirror(&self) -> Board {
        Board::new_game(self.board().mirror())
    }
}
