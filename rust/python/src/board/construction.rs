//! `Board` construction, FEN/EPD in and out, copies and pickling.

use super::Board;
use crate::convert::{ep_mode_arg, epd_value_arg};
use crate::errors::Result;
use crate::moves::intern;
use pychess_core::notation::epd::{parse_epd, Operand};
use pychess_core::notation::{parse_castling_field, parse_fen};
use pychess_core::{Board as CoreBoard, Color, EpMode, Setup, UciMove};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{IntoPyDict, PyBool, PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyTypeInfo;

const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What a pickled board carries: root FEN (promoted marks included), Chess960 flag, moves in
/// UCI, the root's castling rights as set (a FEN writes only the clean ones), and the current
/// position's fields a program may have written since the last move (`EditedFields`).
type PickledBoard = (String, bool, Vec<String>, u64, EditedFields);

/// Turn, castling rights as set, en-passant square and clocks of the current position:
/// replaying the moves from the root gives them unless they were written after the last move.
type EditedFields = (bool, u64, Option<u32>, u64, u64);

/// The FEN argument of `Board(fen=STARTING_FEN, ...)`: given (a string or None) or left out.
/// The string stays Python's (no copy into a Rust `String`: this runs on every `Board(fen)`).
type FenArg = Option<Option<PyBackedStr>>;

/// `(fen, chess960)` from the arguments of python-chess's `Board(fen=STARTING_FEN, *,
/// chess960=False)`, checked as Python checks a signature.
fn init_args(
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<(FenArg, bool)> {
    if args.len() > 1 {
        return Err(PyTypeError::new_err(format!(
            "Board() takes at most 1 positional argument ({} given)",
            args.len()
        )));
    }
    let mut fen = match args.len() {
        0 => None,
        _ => Some(args.get_item(0)?),
    };
    let mut chess960 = false;
    for (key, value) in kwargs.into_iter().flat_map(|kw| kw.iter()) {
        match &*key.cast::<PyString>()?.to_cow()? {
            "fen" if fen.is_none() => fen = Some(value),
            "fen" => {
                return Err(PyTypeError::new_err(
                    "Board() got multiple values for argument 'fen'",
                ))
            }
            "chess960" => chess960 = value.extract()?,
            other => {
                return Err(PyTypeError::new_err(format!(
                    "Board() got an unexpected keyword argument {other:?}"
                )))
            }
        }
    }
    let fen = fen.map(|fen| fen.extract()).transpose()?;
    Ok((fen, chess960))
}

/// Whether `cls` is `Board` itself (a pointer comparison: it is asked on every `Board(fen)`).
fn is_board(cls: &Bound<'_, PyType>) -> bool {
    cls.as_type_ptr() == Board::type_object_raw(cls.py())
}

impl Board {
    /// The board of a FEN argument (None: an empty board; left out: the starting position).
    #[inline]
    fn from_fen_arg(fen: &FenArg, chess960: bool) -> Result<Board> {
        let fen = match fen {
            None => Some(STARTING_FEN),
            Some(fen) => fen.as_deref(),
        };
        match fen {
            Some(fen) => Board::from_fen_str(fen, chess960),
            None => Ok(Board::new_game(CoreBoard::empty(chess960))),
        }
    }

    /// `board` as an instance of `cls`. python-chess makes its copies, roots and parsed
    /// boards with `cls(None)` (`chess960` passed when given), so a subclass's `__init__`
    /// runs and sets its own attributes before the position is put in.
    pub(crate) fn into_instance(
        cls: &Bound<'_, PyType>,
        board: Board,
        chess960: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        if is_board(cls) {
            return Ok(Py::new(py, board)?.into_any());
        }
        let kwargs = chess960
            .map(|c| [("chess960", c)].into_py_dict(py))
            .transpose()?;
        let instance = cls.call((None::<String>,), kwargs.as_ref())?;
        *instance.cast::<Board>()?.try_borrow_mut()? = board;
        Ok(instance.unbind())
    }

    /// `board` as an instance of the class of `slf` (see [`Board::into_instance`]).
    pub(crate) fn like(
        slf: &Bound<'_, Board>,
        board: Board,
        chess960: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        if slf.is_exact_instance_of::<Board>() {
            return Ok(Py::new(slf.py(), board)?.into_any());
        }
        Board::into_instance(&slf.get_type(), board, chess960)
    }

    fn edited_fields(board: &CoreBoard) -> EditedFields {
        (
            board.turn().is_white(),
            board.castling_rights().0,
            board.ep_square().map(|sq| sq.index() as u32),
            board.halfmove_clock(),
            board.fullmove_number(),
        )
    }

    /// `fen` with its placement field written with `~` marks when `promoted` is True.
    fn with_promoted_marks(&self, fen: String, promoted: Option<bool>) -> String {
        if promoted != Some(true) {
            return fen;
        }
        let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
        format!("{} {rest}", self.board().board_fen_with(true))
    }

    /// Replaces the placement with `setup`'s, keeping the other fields, and clears the stack
    /// (python-chess's placement editors).
    fn replace_placement(&mut self, setup: &Setup) {
        let mut board = self.board().clone();
        board.set_placement_from(setup);
        *self = Board::new_game(board);
    }

    /// The operations read from an EPD, as the dict python-chess returns.
    fn operations_dict<'py>(
        &self,
        py: Python<'py>,
        operations: Vec<(String, Operand)>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let board = self.board();
        let dict = PyDict::new(py);
        for (opcode, operand) in operations {
            let value = match operand {
                Operand::Empty => py.None(),
                Operand::Text(s) => s.into_pyobject(py)?.into_any().unbind(),
                Operand::Integer(i) => i.into_pyobject(py)?.into_any().unbind(),
                Operand::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
                Operand::Move(m) => self.py_move(py, m).into_any(),
                Operand::Moves(moves) => {
                    PyList::new(py, moves.into_iter().map(|m| intern(py, board.uci(m))))?
                        .into_any()
                        .unbind()
                }
            };
            dict.set_item(opcode, value)?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl Board {
    /// Builds the position for an exact `Board`, from python-chess's arguments
    /// `(fen=STARTING_FEN, *, chess960=False)`. A subclass's constructor may take other
    /// arguments: its position is set by `__init__` (the subclass's own calls it through
    /// `super()`, or inherits it). Its instance starts from the arguments when they are a
    /// valid `Board`'s, for subclasses written before `Board` had an `__init__` (which relied
    /// on `__new__`), and as an empty board otherwise.
    #[new]
    #[classmethod]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(fen=..., *, chess960=False)")]
    fn new(
        cls: &Bound<'_, PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Board> {
        if !is_board(cls) {
            let from_args = init_args(args, kwargs)
                .ok()
                .and_then(|(fen, chess960)| Board::from_fen_arg(&fen, chess960).ok());
            return Ok(from_args.unwrap_or_else(|| Board::new_game(CoreBoard::empty(false))));
        }
        let (fen, chess960) = init_args(args, kwargs)?;
        let mut board = Board::from_fen_arg(&fen, chess960)?;
        board.constructed = true;
        Ok(board)
    }

    /// Sets the position from a FEN (None: an empty board) and clears the move stack, as
    /// python-chess's ``Board.__init__`` does (also when called again on a live board).
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong; the board is left unchanged.
    #[pyo3(signature = (*args, **kwargs))]
    fn __init__(
        &mut self,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        // `Board(fen)` already built this position in `__new__`: CPython calls `__init__`
        // with the same arguments right after it.
        if std::mem::take(&mut self.constructed) {
            return Ok(());
        }
        let (fen, chess960) = init_args(args, kwargs)?;
        *self = Board::from_fen_arg(&fen, chess960)?;
        Ok(())
    }

    /// An empty board (no pieces, White to move), like ``Board(None)``.
    #[classmethod]
    #[pyo3(signature = (*, chess960 = false))]
    fn empty(cls: &Bound<'_, PyType>, chess960: bool) -> PyResult<Py<PyAny>> {
        cls.call(
            (None::<String>,),
            Some(&[("chess960", chess960)].into_py_dict(cls.py())?),
        )
        .map(Bound::unbind)
    }

    /// Empties the board, White to move, no castling rights or en-passant square, clocks
    /// reset; clears the move stack.
    fn clear(&mut self) {
        *self = Board::new_game(CoreBoard::empty(self.board().is_chess960()));
    }

    /// Removes every piece (the other fields stay) and clears the move stack.
    fn clear_board(&mut self) {
        self.replace_placement(&Setup::empty());
    }

    /// Puts the pieces on their starting squares (the other fields stay) and clears the move
    /// stack.
    fn reset_board(&mut self) {
        self.replace_placement(&Setup::standard());
    }

    /// Sets the placement from the first FEN field (the other fields stay); clears the
    /// move stack.
    ///
    /// :raises: :exc:`ValueError` if the placement is malformed.
    fn set_board_fen(&mut self, fen: &str) -> Result<()> {
        let fen = fen.trim();
        if fen.contains(char::is_whitespace) {
            return Err(PyValueError::new_err(format!(
                "expected position part of fen, got multiple parts: {fen:?}"
            ))
            .into());
        }
        let setup = parse_fen(fen)?;
        self.replace_placement(&setup);
        Ok(())
    }

    /// Sets the castling rights from a FEN castling field like ``KQkq`` (or Shredder-FEN
    /// letters), read against the current placement; clears the move stack.
    ///
    /// :raises: :exc:`ValueError` if the field is malformed.
    fn set_castling_fen(&mut self, castling_fen: &str) -> PyResult<()> {
        let mut board = self.board().clone();
        let rights = parse_castling_field(castling_fen, &board.to_setup()).ok_or_else(|| {
            PyValueError::new_err(format!("invalid castling fen: {castling_fen:?}"))
        })?;
        board.set_castling_rights(rights);
        *self = Board::new_game(board);
        Ok(())
    }

    /// Sets up Chess960 starting position ``scharnagl`` (White to move, every rook keeps its
    /// right) and switches to Chess960 mode; clears the move stack.
    ///
    /// :raises: :exc:`ValueError` if the number is not in 0..959.
    fn set_chess960_pos(&mut self, scharnagl: u32) -> PyResult<()> {
        let setup = Setup::chess960(scharnagl).ok_or_else(|| {
            PyValueError::new_err(format!(
                "chess960 position index not 0 <= {scharnagl} <= 959"
            ))
        })?;
        *self = Board::new_game(CoreBoard::from_setup_unchecked(&setup, true));
        Ok(())
    }

    /// The Chess960 starting position number of this position, or None. By default White
    /// must be to move and every rook must keep its castling right; the clocks are ignored.
    #[pyo3(signature = (*, ignore_turn = false, ignore_castling = false, ignore_counters = true))]
    fn chess960_pos(
        &self,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> Option<u32> {
        let board = self.board();
        if board.ep_square().is_some_and(|sq| sq.index() != 0) {
            return None;
        }
        if !ignore_turn && board.turn() != Color::White {
            return None;
        }
        if !ignore_castling
            && board.clean_castling_rights() != board.by_role(pychess_core::Role::Rook)
        {
            return None;
        }
        if !ignore_counters && (board.fullmove_number() != 1 || board.halfmove_clock() != 0) {
            return None;
        }
        board.chess960_placement_number()
    }

    /// Creates a board from an EPD; returns ``(board, operations)``.
    ///
    /// :raises: :exc:`InvalidFenError` if the position or an operation is invalid.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd<'py>(
        cls: &Bound<'py, PyType>,
        epd: &str,
        chess960: bool,
    ) -> Result<(Py<PyAny>, Bound<'py, PyDict>)> {
        let py = cls.py();
        let (board, operations) = parse_epd(epd, chess960)?;
        let board = Board::new_game(board);
        let operations = board.operations_dict(py, operations)?;
        Ok((
            Board::into_instance(cls, board, Some(chess960))?,
            operations,
        ))
    }

    /// Chess960 starting position by Scharnagl number (0..960; 518 is the standard one).
    ///
    /// :raises: :exc:`ValueError` if the number is out of range.
    #[classmethod]
    fn from_chess960_pos(cls: &Bound<'_, PyType>, scharnagl: u32) -> PyResult<Py<PyAny>> {
        let setup = Setup::chess960(scharnagl).ok_or_else(|| {
            PyValueError::new_err(format!(
                "chess960 position index not 0 <= {scharnagl} <= 959"
            ))
        })?;
        let board = Board::new_game(CoreBoard::from_setup_unchecked(&setup, true));
        Board::into_instance(cls, board, Some(true))
    }

    /// Parses an EPD into this board and returns its operations.
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong; the board is left unchanged.
    fn set_epd<'py>(&mut self, py: Python<'py>, epd: &str) -> Result<Bound<'py, PyDict>> {
        let (board, operations) = parse_epd(epd, self.board().is_chess960())?;
        *self = Board::new_game(board);
        Ok(self.operations_dict(py, operations)?)
    }

    /// The FEN. ``en_passant`` is ``'legal'`` (default), ``'fen'`` or ``'xfen'``.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        let fen = self.board().fen_with(shredder, ep_mode_arg(en_passant)?);
        Ok(self.with_promoted_marks(fen, promoted))
    }

    /// Replaces the position (and clears the move stack).
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong; the board is left unchanged.
    fn set_fen(&mut self, fen: &str) -> Result<()> {
        *self = Board::from_fen_str(fen, self.board().is_chess960())?;
        Ok(())
    }

    /// The placement part of the FEN.
    #[pyo3(signature = (*, promoted = false))]
    fn board_fen(&self, promoted: Option<bool>) -> String {
        self.board().board_fen_with(promoted == Some(true))
    }

    /// The EPD: the first four FEN fields, then operations given as keyword arguments.
    ///
    /// :raises: :exc:`IllegalMoveError` if a move operand is not legal.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, PyDict>>,
    ) -> Result<String> {
        let board = self.board();
        let epd = board.epd_with(shredder, ep_mode_arg(en_passant)?);
        let mut epd = self.with_promoted_marks(epd, promoted);
        for (opcode, value) in operations.into_iter().flat_map(|ops| ops.iter()) {
            let opcode: String = opcode.extract()?;
            let operation = board.epd_operation(&opcode, &epd_value_arg(&value)?)?;
            epd.push(' ');
            epd.push_str(&operation);
        }
        Ok(epd)
    }

    /// The castling field in X-FEN form.
    fn castling_xfen(&self) -> String {
        self.board().castling_fen(false)
    }

    /// The castling field in Shredder-FEN form.
    fn castling_shredder_fen(&self) -> String {
        self.board().castling_fen(true)
    }

    /// Back to the starting position (the Chess960 flag is kept).
    fn reset(&mut self) {
        let board = CoreBoard::from_setup_unchecked(&Setup::standard(), self.board().is_chess960());
        *self = Board::new_game(board);
    }

    /// Forgets the move stack (and with it the repetition history).
    fn clear_stack(&mut self, py: Python<'_>) {
        self.game_mut(py).clear_stack();
    }

    /// The starting position of the game, without moves.
    fn root(slf: &Bound<'_, Board>) -> PyResult<Py<PyAny>> {
        let root = slf.borrow().game.root().clone();
        let chess960 = root.is_chess960();
        Board::like(slf, Board::new_game(root), Some(chess960))
    }

    /// A copy; ``stack`` keeps all moves (True), none (False) or the last N (int).
    #[pyo3(signature = (*, stack = None))]
    fn copy(slf: &Bound<'_, Board>, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let keep = match stack {
            None => None,
            Some(s) if s.is_instance_of::<PyBool>() => (!s.extract::<bool>()?).then_some(0),
            Some(s) => Some(s.extract::<usize>()?),
        };
        let copy = {
            let this = slf.borrow();
            match keep {
                None => this.clone(),
                Some(keep) => Board::from_game(this.game.with_last_moves(keep)),
            }
        };
        Board::like(slf, copy, None)
    }

    fn __copy__(slf: &Bound<'_, Board>) -> PyResult<Py<PyAny>> {
        let copy = slf.borrow().clone();
        Board::like(slf, copy, None)
    }

    fn __deepcopy__(slf: &Bound<'_, Board>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let copy = slf.borrow().clone();
        Board::like(slf, copy, None)
    }

    /// Rebuilds a pickled board: root FEN, Chess960 flag, the moves in UCI and the root's
    /// castling rights as set (older pickles have none); `cls`, a subclass to rebuild it as
    /// (made with `cls.__new__(cls)`, as pickle makes python-chess's boards).
    #[staticmethod]
    #[pyo3(signature = (fen, chess960, moves, castling_rights = None, current = None, cls = None))]
    fn _from_moves(
        py: Python<'_>,
        fen: &str,
        chess960: bool,
        moves: Vec<String>,
        castling_rights: Option<u64>,
        current: Option<EditedFields>,
        cls: Option<&Bound<'_, PyType>>,
    ) -> Result<Py<PyAny>> {
        let mut board = Board::from_fen_str(fen, chess960)?;
        if let Some(rights) = castling_rights {
            board
                .game_mut(py)
                .edit_board(|b| b.set_castling_rights(pychess_core::Bitboard(rights)));
        }
        for m in moves {
            let uci = UciMove::parse(&m)?;
            board.game_mut(py).push_uci(uci)?;
        }
        if let Some(fields) = current {
            if Board::edited_fields(board.board()) != fields {
                let (turn, rights, ep, halfmove, fullmove) = fields;
                board.set_turn(py, turn);
                board.set_castling_rights(py, rights);
                board.set_ep_square(py, ep)?;
                board.set_halfmove_clock(py, halfmove);
                board.set_fullmove_number(py, fullmove);
            }
        }
        match cls {
            Some(cls) if !is_board(cls) => {
                let instance = cls.call_method1("__new__", (cls,))?;
                *instance.cast::<Board>()?.try_borrow_mut()? = board;
                Ok(instance.unbind())
            }
            _ => Ok(Py::new(py, board)?.into_any()),
        }
    }

    /// `(rebuild, args)` for a `Board`; a subclass instance adds its class to `args` and its
    /// `__dict__` as the state pickle restores, as for python-chess's boards.
    fn __reduce__<'py>(slf: &Bound<'py, Board>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let (rebuild, pickled) = slf.borrow().reduced(py)?;
        let cls = slf.get_type();
        if is_board(&cls) {
            return (rebuild, pickled).into_pyobject(py);
        }
        let (fen, chess960, moves, rights, current) = pickled;
        let state = match slf.getattr("__dict__") {
            Ok(state) => state,
            Err(_) => py.None().into_bound(py),
        };
        (rebuild, (fen, chess960, moves, rights, current, cls), state).into_pyobject(py)
    }
}

impl Board {
    /// The rebuilding function and arguments of a pickled board.
    fn reduced(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, PickledBoard)> {
        let root = self.game.root();
        let chess960 = root.is_chess960();
        let moves = self.game.uci_moves().map(|m| m.to_string()).collect();
        let rebuild = py.get_type::<Board>().getattr("_from_moves")?.unbind();
        let fen = root.fen_with(chess960, EpMode::Always);
        let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
        let fen = format!("{} {rest}", root.board_fen_with(true));
        let current = Board::edited_fields(self.board());
        Ok((
            rebuild,
            (fen, chess960, moves, root.castling_rights().0, current),
        ))
    }
}
