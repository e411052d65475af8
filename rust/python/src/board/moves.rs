//! `Board`: playing moves, notation, legality and what a move does.

use super::{Board, BB_ALL};
use crate::convert::{board_uci_arg, move_arg, square_arg};
use crate::errors::{Error, Result};
use crate::moves::Move;
use pychess_core::notation::explain::Reading;
use pychess_core::{Bitboard, Move as CoreMove, MoveError, Role, UciMove};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;

impl Board {
    /// Takes back the last move and returns it (python-chess's `pop`).
    pub(super) fn pop_move(&mut self, py: Python<'_>) -> PyResult<Py<Move>> {
        let popped = self.game_mut(py).pop();
        match popped {
            Some(m) => Ok(self.py_move(py, m)),
            None => Err(PyIndexError::new_err("pop from empty list")),
        }
    }

    /// Plays a pseudo-legal `Move` or the null move (python-chess's `push`); anything else
    /// (drops included) raises `IllegalMoveError`.
    pub(super) fn push_move(&mut self, r#move: &Bound<'_, PyAny>) -> Result<()> {
        let uci = move_arg(r#move)?;
        let Err(error) = self.game_mut(r#move.py()).push_uci(uci) else {
            return Ok(());
        };
        Err(self.refusal(uci, shown_as_given(error, r#move)))
    }

    /// The error refusing `uci` here: the core's `error`, naming the missing rook when `uci`
    /// castles with a right whose rook is gone.
    pub(super) fn refusal(&self, uci: UciMove, error: MoveError) -> Error {
        error.naming_missing_rook(self.board(), uci).into()
    }

    /// The legal move (or null move) a `Move` argument stands for.
    fn resolve_arg(&self, r#move: &Bound<'_, PyAny>) -> Result<CoreMove> {
        let uci = move_arg(r#move)?;
        self.game
            .resolve_uci(uci)
            .map_err(|error| self.refusal(uci, error))
    }

    /// Plays `m` and returns how it is shown (as a `Move`).
    fn play_shown(&mut self, py: Python<'_>, m: CoreMove) -> Py<Move> {
        let shown = self.py_move(py, m);
        self.game_mut(py).play(m);
        shown
    }

    /// A Python iterator over the legal moves from `from_mask` to `to_mask`.
    fn masked_moves_iter(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .legal_moves_masked(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.to_vec())
    }
}

/// A `NotPseudoLegal` error naming the move as the caller wrote it (`str(move)`): drops and
/// moves from a square to itself reach the core as moves no board has.
#[cold]
pub(super) fn shown_as_given(error: MoveError, r#move: &Bound<'_, PyAny>) -> MoveError {
    match error {
        MoveError::NotPseudoLegal { fen, text } => MoveError::NotPseudoLegal {
            text: r#move.str().map_or(text, |s| s.to_string()),
            fen,
        },
        other => other,
    }
}

#[pymethods]
impl Board {
    // `push` (METH_O) and `pop` (METH_NOARGS) are installed by `fast::install_fast_methods`.

    /// The last move played.
    ///
    /// :raises: :exc:`IndexError` if no move was played.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<Move>> {
        match self.game.uci_moves().next_back() {
            Some(uci) => Ok(crate::moves::intern(py, uci)),
            None => Err(PyIndexError::new_err("list index out of range")),
        }
    }

    /// Parses a UCI move and plays it; returns the move.
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> Result<Py<Move>> {
        let parsed = board_uci_arg(uci, self.board())?;
        let m = self
            .game
            .resolve_uci(parsed)
            .map_err(|error| self.refusal(parsed, error))?;
        Ok(self.play_shown(py, m))
    }

    /// Parses a SAN move and plays it; returns the move.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn push_san(&mut self, py: Python<'_>, san: &str) -> Result<Py<Move>> {
        let m = self.board().parse_san(san)?;
        Ok(self.play_shown(py, m.unwrap_or(CoreMove::NULL)))
    }

    /// The legal move a UCI string stands for (``Move.null()`` for ``0000``).
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> Result<Py<Move>> {
        let parsed = board_uci_arg(uci, self.board())?;
        let m = self
            .game
            .resolve_uci(parsed)
            .map_err(|error| self.refusal(parsed, error))?;
        Ok(self.py_move(py, m))
    }

    /// The legal move a SAN stands for.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn parse_san(&self, py: Python<'_>, san: &str) -> Result<Py<Move>> {
        let m = self.board().parse_san(san)?;
        Ok(self.py_move(py, m.unwrap_or(CoreMove::NULL)))
    }

    /// Reads a move as a person types it, for games (SAN or UCI, lenient about ``x``, ``+``,
    /// ``#``, ``=``, ``0-0`` and lowercase piece letters). Returns ``(kind, moves, message)``:
    /// ``kind`` is ``"move"`` (one legal move), ``"promotion"`` (the move once per promotion
    /// piece, queen first), ``"ambiguous"`` (the moves that fit), ``"illegal"`` or
    /// ``"invalid"`` (no moves); ``message`` is one line for the player (the SAN, the
    /// question to ask, or why the move cannot be played). Never raises for any text.
    fn read_move(&self, py: Python<'_>, text: &str) -> (&'static str, Vec<Py<Move>>, String) {
        let board = self.board();
        let reading = board.read_move(text);
        let message = reading.message(board);
        let (kind, moves) = match reading {
            Reading::Legal(m) => ("move", vec![m]),
            Reading::Promotion(moves) => ("promotion", moves),
            Reading::Ambiguous(moves) => ("ambiguous", moves),
            Reading::Illegal(_) => ("illegal", Vec::new()),
            Reading::Unreadable(_) => ("invalid", Vec::new()),
        };
        let moves = moves.into_iter().map(|m| self.py_move(py, m)).collect();
        (kind, moves, message)
    }

    /// SAN of a legal move (``--`` for the null move).
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> Result<String> {
        Ok(self.board().san(self.resolve_arg(r#move)?))
    }

    /// Long algebraic notation of a legal move, e.g. ``Ng1-f3``.
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn lan(&self, r#move: &Bound<'_, PyAny>) -> Result<String> {
        Ok(self.board().lan(self.resolve_arg(r#move)?))
    }

    /// SAN of a legal move, then plays it.
    fn san_and_push(&mut self, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = self.resolve_arg(r#move)?;
        let san = self.board().san(m);
        self.game_mut(r#move.py()).play(m);
        Ok(san)
    }

    /// LAN of a legal move, then plays it.
    fn lan_and_push(&mut self, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = self.resolve_arg(r#move)?;
        let lan = self.board().lan(m);
        self.game_mut(r#move.py()).play(m);
        Ok(lan)
    }

    /// UCI text of a move; castling as ``e1g1``, or ``e1h1`` when ``chess960`` (default: the
    /// board's mode).
    #[pyo3(signature = (r#move, *, chess960 = None))]
    fn uci(&self, r#move: &Bound<'_, PyAny>, chess960: Option<bool>) -> PyResult<String> {
        let uci = move_arg(r#move)?;
        let mut board = self.board().clone();
        board.set_chess960(chess960.unwrap_or(board.is_chess960()));
        Ok(match board.resolve_uci(uci) {
            Ok(m) if m.is_castle() => board.uci(m).to_string(),
            _ => uci.to_string(),
        })
    }

    /// A line of moves in SAN with move numbers, e.g. ``1. e4 e5 2. Nf3``.
    ///
    /// :raises: :exc:`IllegalMoveError` if a move of the line is illegal.
    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> Result<String> {
        let line = variation
            .try_iter()?
            .map(|item| move_arg(&item?))
            .collect::<PyResult<Vec<UciMove>>>()?;
        Ok(self.board().variation_san(&line)?)
    }

    /// The legal move from ``from_square`` to ``to_square`` (a pawn reaching the back rank
    /// promotes to a queen unless ``promotion`` says otherwise).
    ///
    /// :raises: :exc:`IllegalMoveError` if there is none.
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move(
        &self,
        py: Python<'_>,
        from_square: u32,
        to_square: u32,
        promotion: Option<u8>,
    ) -> Result<Py<Move>> {
        let from = square_arg(from_square, "square")?;
        let to = square_arg(to_square, "square")?;
        let promotion = promotion.and_then(Role::from_number);
        let m = self.board().find_move(from, to, promotion)?;
        Ok(self.py_move(py, m))
    }

    /// Is the move legal here? (``e1h1`` counts as castling in standard chess too.)
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = move_arg(r#move)?;
        Ok(self.game.find_legal(uci).is_some())
    }

    /// Does the move follow the pieces' rules (possibly leaving the king in check)?
    fn is_pseudo_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = move_arg(r#move)?;
        Ok(self.board().find_pseudo_legal(uci).is_some())
    }

    /// Would the move leave the mover's king attacked (python-chess's answer for any move)?
    fn is_into_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_into_check_uci(move_arg(r#move)?))
    }

    /// Is the side not to move in check (did the last move leave its king attacked)?
    fn was_into_check(&self) -> bool {
        self.board().was_into_check()
    }

    /// Legal moves from squares of ``from_mask`` to squares of ``to_mask``.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        self.masked_moves_iter(py, from_mask, to_mask)
    }

    /// Pseudo-legal moves from ``from_mask`` to ``to_mask``.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_pseudo_legal_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .pseudo_legal_moves_masked(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.to_vec())
    }

    /// Pseudo-legal captures (en passant included).
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_pseudo_legal_captures(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .pseudo_legal_captures(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.iter().copied())
    }

    /// Pseudo-legal en-passant captures.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_pseudo_legal_ep(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .pseudo_legal_ep_moves(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.to_vec())
    }

    /// Legal captures (en passant included).
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_captures(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .legal_captures(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.iter().copied())
    }

    /// Castling moves (python-chess generates them only when legal).
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_castling_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .castling_moves(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.to_vec())
    }

    /// Legal en-passant captures.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_ep(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .legal_ep_moves(Bitboard(from_mask), Bitboard(to_mask));
        self.moves_iter(py, moves.iter().copied())
    }

    /// Does the move capture (en passant included)?
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_capture_move(move_arg(r#move)?))
    }

    /// Is the move an en-passant capture?
    fn is_en_passant(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_en_passant_move(move_arg(r#move)?))
    }

    /// Is the move castling?
    fn is_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_castling_move(move_arg(r#move)?))
    }

    /// Is the move castling towards the h-file?
    fn is_kingside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_kingside_castling_move(move_arg(r#move)?))
    }

    /// Is the move castling towards the a-file?
    fn is_queenside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_queenside_castling_move(move_arg(r#move)?))
    }

    /// Does the move reset the fifty-move counter?
    fn is_zeroing(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_zeroing_move(move_arg(r#move)?))
    }

    /// Does the move end the reversible sequence (zeroing, castling rights, en passant)?
    fn is_irreversible(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_irreversible_move(move_arg(r#move)?))
    }

    /// Does the (pseudo-)legal move give check?
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let board = self.board();
        let m = board.find_pseudo_legal(board.normalize_castling(move_arg(r#move)?));
        Ok(m.is_some_and(|m| board.gives_check(m)))
    }
}
