//! `Board`: the live legal-move views, display, equality and the python-chess conversions.

use super::Board;
use crate::convert::move_arg;
use crate::errors::Result;
use crate::py_modules;
use pychess_core::{DiagramStyle, EpMode};
use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

#[pymethods]
impl Board {
    /// The legal moves, as a lazy view (``len``, ``in``, ``count()``, iteration).
    #[getter]
    fn legal_moves(slf: Py<Self>) -> LegalMoveGenerator {
        LegalMoveGenerator {
            source: ViewSource::Ours(slf),
        }
    }

    /// The pseudo-legal moves (they may leave the king in check), as a lazy view.
    #[getter]
    fn pseudo_legal_moves(slf: Py<Self>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            source: ViewSource::Ours(slf),
        }
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

    /// python-chess's repr, named after the instance's class (a subclass shows its own name).
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let class = slf.get_type().name()?;
        let this = slf.borrow();
        let board = this.board();
        Ok(if board.is_chess960() {
            format!(
                "{class}('{}', chess960=True)",
                board.fen_with(false, EpMode::Legal)
            )
        } else {
            format!("{class}('{}')", board.fen())
        })
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
    fn from_python_chess(board: &Bound<'_, PyAny>) -> Result<Board> {
        let root = board.call_method0("root")?;
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let kwargs = PyDict::new(board.py());
        kwargs.set_item("en_passant", "fen")?;
        kwargs.set_item("shredder", chess960)?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let mut ours = Board::from_fen_str(&fen, chess960)?;
        for m in board.getattr("move_stack")?.try_iter()? {
            let uci = move_arg(&m?)?;
            ours.game_mut(board.py()).push_uci(uci)?;
        }
        Ok(ours)
    }

    /// The same game as a python-chess ``chess.Board`` (imports ``chess`` on first use).
    fn to_python_chess(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let chess = py_modules::python_chess(py)?;
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

/// The board a move view reads: ours (read directly), or any object with python-chess's
/// board methods (`generate_legal_moves`, `is_legal`, `san`, ...), which python-chess's views
/// accept as well and which is then asked through those methods.
enum ViewSource {
    Ours(Py<Board>),
    Other(Py<PyAny>),
    /// A variant board (`pychess_rs.variant`): its legal moves read directly, by its rules.
    Variant(Py<PyAny>),
}

impl ViewSource {
    fn new(board: &Bound<'_, PyAny>) -> ViewSource {
        match board.cast::<Board>() {
            Ok(ours) => ViewSource::Ours(ours.clone().unbind()),
            Err(_) => ViewSource::Other(board.clone().unbind()),
        }
    }

    fn object(&self, py: Python<'_>) -> Py<PyAny> {
        match self {
            ViewSource::Ours(board) => board.clone_ref(py).into_any(),
            ViewSource::Other(board) | ViewSource::Variant(board) => board.clone_ref(py),
        }
    }
}

/// Whether an iterator yields anything, as python-chess's ``any(...)`` asks it.
fn any_item(iterable: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(iterable.try_iter()?.next().transpose()?.is_some())
}

/// A view of another board object has no length, as python-chess's views have none; the
/// `TypeError` also tells `list()` to iterate only once.
fn no_len() -> PyErr {
    PyTypeError::new_err("this move view has no len(); use count()")
}

/// ``<Name at 0x... (moves)>``, python-chess's repr of the move views.
fn view_repr(slf: &Bound<'_, PyAny>, name: &str, moves: &[String]) -> String {
    format!(
        "<{name} at {:#x} ({})>",
        slf.as_ptr() as usize,
        moves.join(", ")
    )
}

/// ``board.legal_moves``: a live view of the legal moves of a board.
#[pyclass(module = "pychess_rs", name = "LegalMoveGenerator")]
pub struct LegalMoveGenerator {
    source: ViewSource,
}

impl LegalMoveGenerator {
    /// The view of a variant board's legal moves.
    pub(crate) fn of_variant(board: Py<PyAny>) -> LegalMoveGenerator {
        LegalMoveGenerator {
            source: ViewSource::Variant(board),
        }
    }
}

#[pymethods]
impl LegalMoveGenerator {
    /// A view of ``board``'s legal moves.
    #[new]
    fn new(board: &Bound<'_, PyAny>) -> LegalMoveGenerator {
        LegalMoveGenerator {
            source: ViewSource::new(board),
        }
    }

    /// The board viewed.
    #[getter]
    fn board(&self, py: Python<'_>) -> Py<PyAny> {
        self.source.object(py)
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.source {
            ViewSource::Ours(board) => {
                let board = board.borrow(py);
                board.moves_iter(py, board.game.legal_moves().iter().copied())
            }
            ViewSource::Variant(board) => super::variant::legal_moves_iter(board.bind(py)),
            ViewSource::Other(board) => Ok(board
                .bind(py)
                .call_method0(intern!(py, "generate_legal_moves"))?
                .try_iter()?
                .into_any()
                .unbind()),
        }
    }

    /// Lists (and keeps) the moves: `list(board.legal_moves)` asks for the length right
    /// before iterating.
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.source {
            ViewSource::Ours(board) => Ok(board.borrow(py).game.legal_moves().len()),
            ViewSource::Variant(board) => super::variant::legal_moves_count(board.bind(py)),
            ViewSource::Other(_) => Err(no_len()),
        }
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        match &self.source {
            ViewSource::Ours(board) => Ok(board.borrow(py).game.has_legal_moves()),
            ViewSource::Variant(board) => {
                Ok(super::variant::legal_moves_count(board.bind(py))? > 0)
            }
            ViewSource::Other(board) => {
                any_item(&board.bind(py).call_method0("generate_legal_moves")?)
            }
        }
    }

    /// Counts the moves without listing them, unless they are listed already.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.source {
            ViewSource::Ours(board) => Ok(board.borrow(py).game.count_legal_moves()),
            ViewSource::Variant(board) => super::variant::legal_moves_count(board.bind(py)),
            ViewSource::Other(_) => self.__iter__(py)?.bind(py).try_iter()?.try_fold(0, |n, m| {
                m?;
                Ok(n + 1)
            }),
        }
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        match &self.source {
            ViewSource::Ours(board) => {
                Ok(move_arg(r#move)
                    .is_ok_and(|uci| board.borrow(py).game.find_legal(uci).is_some()))
            }
            ViewSource::Other(board) | ViewSource::Variant(board) => board
                .bind(py)
                .call_method1("is_legal", (r#move,))?
                .is_truthy(),
        }
    }

    /// ``<LegalMoveGenerator at 0x... (Nh3, Nf3, ...)>``: the moves in SAN.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let sans: Vec<String> = match &slf.borrow().source {
            ViewSource::Ours(board) => {
                let board = board.borrow(py);
                let b = board.board();
                board.game.legal_moves().iter().map(|&m| b.san(m)).collect()
            }
            ViewSource::Other(board) | ViewSource::Variant(board) => {
                let board = board.bind(py);
                let mut sans = Vec::new();
                for m in board.call_method0("generate_legal_moves")?.try_iter()? {
                    sans.push(board.call_method1("san", (m?,))?.extract()?);
                }
                sans
            }
        };
        Ok(view_repr(slf.as_any(), "LegalMoveGenerator", &sans))
    }
}

/// ``board.pseudo_legal_moves``: a live view of the pseudo-legal moves of a board.
#[pyclass(module = "pychess_rs", name = "PseudoLegalMoveGenerator")]
pub struct PseudoLegalMoveGenerator {
    source: ViewSource,
}

impl PseudoLegalMoveGenerator {
    /// A view that asks `board` through python-chess's board methods (a variant board).
    pub(crate) fn of_other(board: Py<PyAny>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            source: ViewSource::Other(board),
        }
    }
}

#[pymethods]
impl PseudoLegalMoveGenerator {
    /// A view of ``board``'s pseudo-legal moves.
    #[new]
    fn new(board: &Bound<'_, PyAny>) -> PseudoLegalMoveGenerator {
        PseudoLegalMoveGenerator {
            source: ViewSource::new(board),
        }
    }

    /// The board viewed.
    #[getter]
    fn board(&self, py: Python<'_>) -> Py<PyAny> {
        self.source.object(py)
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match &self.source {
            ViewSource::Ours(board) => {
                let board = board.borrow(py);
                let moves = board.board().pseudo_legal_moves();
                board.moves_iter(py, moves.iter().copied())
            }
            ViewSource::Other(board) | ViewSource::Variant(board) => Ok(board
                .bind(py)
                .call_method0("generate_pseudo_legal_moves")?
                .try_iter()?
                .into_any()
                .unbind()),
        }
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.source {
            ViewSource::Ours(board) => Ok(board.borrow(py).board().pseudo_legal_moves().len()),
            ViewSource::Other(_) | ViewSource::Variant(_) => Err(no_len()),
        }
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        match &self.source {
            ViewSource::Ours(_) => Ok(self.__len__(py)? > 0),
            ViewSource::Other(board) | ViewSource::Variant(board) => {
                any_item(&board.bind(py).call_method0("generate_pseudo_legal_moves")?)
            }
        }
    }

    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        match &self.source {
            ViewSource::Ours(_) => self.__len__(py),
            ViewSource::Other(_) | ViewSource::Variant(_) => {
                self.__iter__(py)?.bind(py).try_iter()?.try_fold(0, |n, m| {
                    m?;
                    Ok(n + 1)
                })
            }
        }
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        match &self.source {
            ViewSource::Ours(board) => Ok(move_arg(r#move)
                .is_ok_and(|uci| board.borrow(py).board().find_pseudo_legal(uci).is_some())),
            ViewSource::Other(board) | ViewSource::Variant(board) => board
                .bind(py)
                .call_method1("is_pseudo_legal", (r#move,))?
                .is_truthy(),
        }
    }

    /// ``<PseudoLegalMoveGenerator at 0x... (Nh3, ..., e8d7)>``: legal moves in SAN, the
    /// others (which leave the king in check) in UCI.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let shown: Vec<String> = match &slf.borrow().source {
            ViewSource::Ours(board) => {
                let board = board.borrow(py);
                let b = board.board();
                let legal = board.game.legal_moves();
                b.pseudo_legal_moves()
                    .iter()
                    .map(|&m| {
                        if legal.contains(&m) {
                            b.san(m)
                        } else {
                            b.uci(m).to_string()
                        }
                    })
                    .collect()
            }
            ViewSource::Other(board) | ViewSource::Variant(board) => {
                let board = board.bind(py);
                let mut shown = Vec::new();
                for m in board
                    .call_method0("generate_pseudo_legal_moves")?
                    .try_iter()?
                {
                    let m = m?;
                    let method = if board.call_method1("is_legal", (&m,))?.is_truthy()? {
                        "san"
                    } else {
                        "uci"
                    };
                    shown.push(board.call_method1(method, (m,))?.extract()?);
                }
                shown
            }
        };
        Ok(view_repr(slf.as_any(), "PseudoLegalMoveGenerator", &shown))
    }
}
