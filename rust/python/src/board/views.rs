//! `Board`: the live legal-move views, display, equality and the python-chess conversions.

use super::Board;
use crate::convert::move_arg;
use crate::errors::move_error;
use pychess_core::{DiagramStyle, EpMode, UciMove};
use pyo3::prelude::*;
use pyo3::types::PyDict;

#[pymethods]
impl Board {
    /// The legal moves, as a lazy view (``len``, ``in``, ``count()``, iteration).
    #[getter]
    fn legal_moves(slf: Py<Self>) -> LegalMoveGenerator {
        LegalMoveGenerator { board: slf }
    }

    /// The pseudo-legal moves (they may leave the king in check), as a lazy view.
    #[getter]
    fn pseudo_legal_moves(slf: Py<Self>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator { board: slf }
    }

    fn __str__(&self) -> String {
        self.board().to_string()
    }

    /// The board drawn with chess figurines (python-chess's ``unicode``).
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "⭘", orientation = true))]
    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> String {
        self.board().diagram(&DiagramStyle {
            unicode: true,
            invert_color,
            borders,
            empty_square: empty_square.to_string(),
            white_view: orientation,
        })
    }

    fn __repr__(&self) -> String {
        let board = self.board();
        if board.is_chess960() {
            format!(
                "Board('{}', chess960=True)",
                board.fen_with(false, EpMode::Legal)
            )
        } else {
            format!("Board('{}')", board.fen())
        }
    }

    /// Equal when placement, side to move, castling rights, legal en passant and clocks are
    /// (the move stacks are not compared), as in python-chess.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Board>()
            .is_ok_and(|o| o.borrow().board().same_position(self.board()))
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    #[classattr]
    fn __hash__() -> Option<Py<PyAny>> {
        None
    }

    /// Builds the board from a python-chess board, move stack included.
    #[staticmethod]
    fn from_python_chess(board: &Bound<'_, PyAny>) -> PyResult<Board> {
        let root = board.call_method0("root")?;
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let kwargs = PyDict::new(board.py());
        kwargs.set_item("en_passant", "fen")?;
        kwargs.set_item("shredder", chess960)?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let mut ours = Board::from_fen_str(&fen, chess960)?;
        for m in board.getattr("move_stack")?.try_iter()? {
            let uci: String = m?.call_method0("uci")?.extract()?;
            let parsed = UciMove::parse(&uci).map_err(move_error)?;
            ours.game.push_uci(parsed).map_err(move_error)?;
        }
        Ok(ours)
    }

    /// The same game as a python-chess ``chess.Board`` (imports ``chess`` on first use).
    fn to_python_chess(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let chess = py.import("chess")?;
        let root = self.game.root();
        let kwargs = PyDict::new(py);
        kwargs.set_item("chess960", root.is_chess960())?;
        let board = chess.getattr("Board")?.call(
            (root.fen_with(root.is_chess960(), EpMode::Always),),
            Some(&kwargs),
        )?;
        let move_class = chess.getattr("Move")?;
        for uci in self.game.uci_moves() {
            let m = move_class.call_method1("from_uci", (uci.to_string(),))?;
            board.call_method1("push", (m,))?;
        }
        Ok(board.unbind())
    }
}

/// ``board.legal_moves``: a live view of the legal moves of a board.
#[pyclass(module = "pychess_rs", name = "LegalMoveGenerator")]
pub struct LegalMoveGenerator {
    board: Py<Board>,
}

#[pymethods]
impl LegalMoveGenerator {
    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let board = self.board.borrow(py);
        board.moves_iter(py, board.game.legal_moves().iter().copied())
    }

    /// Lists (and keeps) the moves: `list(board.legal_moves)` asks for the length right
    /// before iterating.
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).game.legal_moves().len()
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.board.borrow(py).game.has_legal_moves()
    }

    /// Counts the moves without listing them, unless they are listed already.
    fn count(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).game.count_legal_moves()
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        move_arg(r#move).is_ok_and(|uci| self.board.borrow(py).game.find_legal(uci).is_some())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let board = self.board.borrow(py);
        let b = board.board();
        let sans: Vec<String> = board.game.legal_moves().iter().map(|&m| b.san(m)).collect();
        format!("<LegalMoveGenerator ({})>", sans.join(", "))
    }
}

/// ``board.pseudo_legal_moves``: a live view of the pseudo-legal moves of a board.
#[pyclass(module = "pychess_rs", name = "PseudoLegalMoveGenerator")]
pub struct PseudoLegalMoveGenerator {
    board: Py<Board>,
}

#[pymethods]
impl PseudoLegalMoveGenerator {
    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let board = self.board.borrow(py);
        let moves = board.board().pseudo_legal_moves();
        board.moves_iter(py, moves.iter().copied())
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).board().pseudo_legal_moves().len()
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.__len__(py) > 0
    }

    fn count(&self, py: Python<'_>) -> usize {
        self.__len__(py)
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        move_arg(r#move).is_ok_and(|uci| {
            self.board
                .borrow(py)
                .board()
                .find_pseudo_legal(uci)
                .is_some()
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let board = self.board.borrow(py);
        let b = board.board();
        let ucis: Vec<String> = b
            .pseudo_legal_moves()
            .iter()
            .map(|&m| b.uci(m).to_string())
            .collect();
        format!("<PseudoLegalMoveGenerator ({})>", ucis.join(", "))
    }
}
