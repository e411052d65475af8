//! `Position`: an immutable, hashable snapshot of a board's position, for dictionaries and
//! sets (python-chess's `Board` is mutable and so, rightly, not hashable).
//!
//! Two snapshots are equal when python-chess's repetition rules would count them as the same
//! position (its `Board._transposition_key`): the placement, the side to move, the clean
//! castling rights and the en-passant square when an en-passant capture is legal. The clocks,
//! the move stack and the notation mode do not count. The hash is the core's repetition key,
//! a Zobrist key over exactly those fields, and equality compares the fields themselves, so a
//! hash collision never makes two positions equal.

use crate::board::Board;
use crate::errors::Result;
use pychess_core::{Board as CoreBoard, Color, EpMode, Role, Square};
use pyo3::prelude::*;
use pyo3::types::PyBool;

/// What python-chess's `_transposition_key` holds, in the core's terms.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Identity {
    /// The six piece-type bitboards, then White's and Black's pieces.
    placement: [u64; 8],
    white_to_move: bool,
    castling_rights: u64,
    legal_ep_square: Option<Square>,
}

impl Identity {
    fn of(board: &CoreBoard) -> Identity {
        let mut placement = [0; 8];
        for (slot, role) in placement.iter_mut().zip(Role::ALL) {
            *slot = board.by_role(role).0;
        }
        placement[6] = board.by_color(Color::White).0;
        placement[7] = board.by_color(Color::Black).0;
        Identity {
            placement,
            white_to_move: board.turn().is_white(),
            castling_rights: board.clean_castling_rights().0,
            legal_ep_square: board.legal_ep_square(),
        }
    }
}

/// An immutable snapshot of a position (``board.snapshot()``), equal and hashing alike
/// exactly when python-chess's repetition rules see the same position.
#[pyclass(module = "pychess_rs", name = "Position", frozen)]
pub struct Position {
    board: CoreBoard,
    identity: Identity,
    key: u64,
    /// ``True`` (white) or ``False`` (black) to move.
    #[pyo3(get, name = "turn")]
    turn_object: Py<PyAny>,
}

impl Position {
    /// The snapshot of `board`'s current position.
    pub(crate) fn of(py: Python<'_>, board: &CoreBoard) -> Position {
        Position {
            board: board.clone(),
            identity: Identity::of(board),
            key: board.repetition_key(),
            turn_object: PyBool::new(py, board.turn().is_white())
                .to_owned()
                .into_any()
                .unbind(),
        }
    }
}

#[pymethods]
impl Position {
    /// The position of a FEN (as ``Board(fen, chess960=chess960).snapshot()``).
    ///
    /// :raises: :exc:`ValueError` if the FEN is invalid.
    #[new]
    #[pyo3(signature = (fen, *, chess960 = false))]
    fn new(py: Python<'_>, fen: &str, chess960: bool) -> Result<Position> {
        let board = CoreBoard::from_fen(fen, chess960)?;
        Ok(Position::of(py, &board))
    }

    /// The FEN of the snapshot, clocks as they were when it was taken (the en-passant square
    /// written only when a capture is legal, as ``Board.fen()`` does).
    fn fen(&self) -> String {
        self.board.fen()
    }

    /// A new ``Board`` set up at this position, without a move stack.
    fn board(&self) -> Board {
        Board::from_game(pychess_core::Game::new(self.board.clone()))
    }

    /// The Polyglot Zobrist hash, as ``Board.zobrist_hash()`` (it also counts an en-passant
    /// square no capture can legally use, as Polyglot does).
    fn zobrist_hash(&self) -> u64 {
        self.board.zobrist_hash()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Position>()
            .is_ok_and(|o| o.get().identity == self.identity)
    }

    fn __hash__(&self) -> u64 {
        self.key
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.board.fen())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let chess960 = self.board.is_chess960();
        let fen = self.board.fen_with(chess960, EpMode::Always);
        let rebuild = py.get_type::<Position>().into_any().unbind();
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("chess960", chess960)?;
        // `__reduce__` passes positional arguments only: the keyword goes through `partial`.
        let partial = crate::py_modules::partial(py)?.call((rebuild,), Some(&kwargs))?;
        Ok((partial.unbind(), (fen,)))
    }

    fn __copy__(slf: Py<Position>) -> Py<Position> {
        slf
    }

    fn __deepcopy__(slf: Py<Position>, _memo: &Bound<'_, PyAny>) -> Py<Position> {
        slf
    }
}
