//! `Board`: the position's state, pieces and attacks.

use super::{Board, BB_ALL};
use crate::convert::{color_arg, move_arg, piece_arg, square_arg};
use crate::errors::Result;
use crate::piece::Piece;
use crate::position::Position;
use crate::squareset::SquareSet;
use pychess_core::{Bitboard, Board as CoreBoard, Color, EpMode, MoveError, Role, Square};
use pyo3::prelude::*;
use pyo3::types::PyDict;

impl Board {
    /// The board with every bitboard mapped by the Python callable `f` (called once per
    /// distinct bitboard, as python-chess calls it once per field).
    fn transformed(&self, f: &Bound<'_, PyAny>) -> PyResult<CoreBoard> {
        let board = self.board();
        let mut inputs: Vec<u64> = Role::ALL.iter().map(|&r| board.by_role(r).0).collect();
        inputs.extend([
            board.by_color(Color::White).0,
            board.by_color(Color::Black).0,
            board.promoted().0,
            board.castling_rights().0,
        ]);
        inputs.extend(board.ep_square().map(|sq| Bitboard::from_square(sq).0));
        let mut images: Vec<(u64, u64)> = Vec::with_capacity(inputs.len());
        for bb in inputs {
            if images.iter().any(|&(input, _)| input == bb) {
                continue;
            }
            let image = f.call1((bb,))?;
            // Python ints are unbounded: keep the board's 64 bits, as python-chess masks do.
            let mask = 0xffff_ffff_ffff_ffff_u64.into_pyobject(f.py())?;
            let image: u64 = image.call_method1("__and__", (mask,))?.extract()?;
            images.push((bb, image));
        }
        let lookup = |bb: Bitboard| {
            Bitboard(
                images
                    .iter()
                    .find(|&&(input, _)| input == bb.0)
                    .map_or(0, |&(_, image)| image),
            )
        };
        Ok(board.transform(lookup))
    }

    fn role_mask(&self, role: Role) -> u64 {
        self.board().by_role(role).0
    }

    fn square(&self, square: u32) -> PyResult<Square> {
        square_arg(square, "square")
    }
}

impl Board {
    /// The setters of the attributes `__setattr__` handles (see `setattr.rs`).
    pub(super) fn set_turn(&mut self, py: Python<'_>, turn: bool) {
        self.game_mut(py)
            .edit_board(|b| b.set_turn(color_arg(turn)));
    }

    pub(super) fn set_castling_rights(&mut self, py: Python<'_>, rights: u64) {
        self.game_mut(py)
            .edit_board(|b| b.set_castling_rights(Bitboard(rights)));
    }

    pub(super) fn set_ep_square(&mut self, py: Python<'_>, square: Option<u32>) -> PyResult<()> {
        let ep = square.map(|sq| square_arg(sq, "ep_square")).transpose()?;
        self.game_mut(py).edit_board(|b| b.set_ep_square(ep));
        Ok(())
    }

    pub(super) fn set_halfmove_clock(&mut self, py: Python<'_>, clock: u64) {
        self.game_mut(py)
            .edit_board(|b| b.set_halfmove_clock(clock));
    }

    pub(super) fn set_fullmove_number(&mut self, py: Python<'_>, number: u64) {
        self.game_mut(py)
            .edit_board(|b| b.set_fullmove_number(number));
    }
}

#[pymethods]
impl Board {
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

    /// Bitmask of the pieces that got there by promotion.
    #[getter]
    fn promoted(&self) -> u64 {
        self.board().promoted().0
    }

    /// Half-moves since the start of the game (from the move number and side to move).
    fn ply(&self) -> u64 {
        self.game.ply()
    }

    fn piece_at(&self, py: Python<'_>, square: u32) -> PyResult<Option<Py<Piece>>> {
        Ok(self
            .board()
            .piece_at(self.square(square)?)
            .map(|piece| Piece::shared(py, piece)))
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
                dict.set_item(sq.index(), Piece::shared(py, piece))?;
            }
        }
        Ok(dict)
    }

    /// The square of ``color``'s king (the highest one if there are several, ignoring
    /// promoted ones), or None.
    fn king(&self, color: bool) -> Option<usize> {
        self.board().king(color_arg(color)).map(|sq| sq.index())
    }

    /// Puts ``piece`` on ``square`` (None empties it); clears the move stack.
    #[pyo3(signature = (square, piece, promoted = false))]
    fn set_piece_at(
        &mut self,
        square: u32,
        piece: Option<&Bound<'_, PyAny>>,
        promoted: bool,
    ) -> PyResult<()> {
        let square = self.square(square)?;
        let piece = piece.map(piece_arg).transpose()?;
        let mut board = self.board().clone();
        board.set_piece_at(square, piece, promoted);
        *self = Board::new_game(board);
        Ok(())
    }

    /// Empties ``square`` and returns the piece that stood there; clears the move stack.
    fn remove_piece_at(&mut self, py: Python<'_>, square: u32) -> PyResult<Option<Py<Piece>>> {
        let square = self.square(square)?;
        let mut board = self.board().clone();
        let removed = board.remove_piece_at(square);
        *self = Board::new_game(board);
        Ok(removed.map(|piece| Piece::shared(py, piece)))
    }

    /// Replaces the placement with ``pieces`` (``{square: Piece}``); clears the move stack.
    fn set_piece_map(&mut self, pieces: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut placement = Vec::new();
        for item in pieces.call_method0("items")?.try_iter()? {
            let (square, piece): (u32, Bound<'_, PyAny>) = item?.extract()?;
            placement.push((self.square(square)?, piece_arg(&piece)?));
        }
        let mut board = self.board().clone();
        board.set_placement(placement);
        *self = Board::new_game(board);
        Ok(())
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

    /// Pieces of ``color`` attacking ``square``, with the board's pieces or, given
    /// ``occupied``, with those squares as the blockers (python-chess's X-ray question).
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers_mask(
        &self,
        color: bool,
        square: u32,
        occupied: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u64> {
        let square = square_arg(square, "square")?;
        let board = self.board();
        Ok(match occupied {
            None => board.attackers(square, color_arg(color)).0,
            Some(occupied) => {
                let occupied = Bitboard(crate::squareset::mask_of(occupied)?);
                board.attackers_with(square, color_arg(color), occupied).0
            }
        })
    }

    fn attacks_mask(&self, square: u32) -> PyResult<u64> {
        Ok(self.board().attacks_from(square_arg(square, "square")?).0)
    }

    fn pin_mask(&self, color: bool, square: u32) -> PyResult<u64> {
        let square = square_arg(square, "square")?;
        Ok(self.board().pin_mask(color_arg(color), square).0)
    }

    /// Pieces of ``color`` attacking ``square``.
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers(
        &self,
        color: bool,
        square: u32,
        occupied: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.attackers_mask(color, square, occupied)?,
        })
    }

    #[pyo3(signature = (color, square, occupied = None))]
    fn is_attacked_by(
        &self,
        color: bool,
        square: u32,
        occupied: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        Ok(self.attackers_mask(color, square, occupied)? != 0)
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

    /// The castling rights that can be used: rooks on their back rank with their king
    /// (on e1/e8 in standard chess), the outermost on each side in Chess960.
    fn clean_castling_rights(&self) -> u64 {
        self.board().clean_castling_rights().0
    }

    /// Are there castling rights only Chess960 allows (rooks off the corners, or a king
    /// off the e-file)?
    fn has_chess960_castling_rights(&self) -> bool {
        self.board().has_chess960_castling_rights()
    }

    fn has_castling_rights(&self, color: bool) -> bool {
        self.board().has_castling_rights(color_arg(color))
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

    /// The Polyglot Zobrist hash of the position after ``move``, without playing it: equal
    /// to ``push(move)`` then ``zobrist_hash()``. Takes what ``push`` takes (a legal or
    /// pseudo-legal move, or ``Move.null()``).
    ///
    /// :raises: :exc:`IllegalMoveError` if ``push`` would refuse the move.
    fn zobrist_hash_after(&self, r#move: &Bound<'_, PyAny>) -> Result<u64> {
        let uci = move_arg(r#move)?;
        let board = self.board();
        let m = match self.game.resolve_uci(uci) {
            Ok(m) => m,
            Err(_) => board
                .find_pseudo_legal(board.normalize_castling(uci))
                .ok_or_else(|| {
                    let error = MoveError::NotPseudoLegal {
                        text: r#move.str().map_or(uci.to_string(), |s| s.to_string()),
                        fen: board.fen(),
                    };
                    self.refusal(uci, error)
                })?,
        };
        Ok(board.zobrist_hash_after(m))
    }

    /// An immutable, hashable snapshot of the position (see ``Position``): equal snapshots
    /// are the same position for python-chess's repetition rules.
    fn snapshot(&self, py: Python<'_>) -> Position {
        Position::of(py, self.board())
    }

    /// The position with colours swapped and the board flipped vertically (castling
    /// rights, en-passant square and turn too), without the move stack.
    fn mirror(slf: &Bound<'_, Board>) -> PyResult<Py<PyAny>> {
        let mirrored = Board::new_game(slf.borrow().board().mirror());
        Board::like(slf, mirrored, None)
    }

    /// Mirrors the board in place (see ``mirror``); clears the move stack.
    fn apply_mirror(&mut self) {
        *self = Board::new_game(self.board().mirror());
    }

    /// A copy with every bitboard mapped by ``f`` (e.g. ``flip_horizontal``), without the
    /// move stack.
    fn transform(slf: &Bound<'_, Board>, f: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let transformed = Board::new_game(slf.borrow().transformed(f)?);
        Board::like(slf, transformed, None)
    }

    /// Maps every bitboard by ``f`` in place (see ``transform``); clears the move stack.
    fn apply_transform(&mut self, f: &Bound<'_, PyAny>) -> PyResult<()> {
        *self = Board::new_game(self.transformed(f)?);
        Ok(())
    }
}
