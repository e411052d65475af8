//! `Board`: the python-chess-shaped board. Every method translates arguments, calls the
//! core `Game`/`Board`, and translates the answer back; the rules live in `pychess-core`.

use crate::errors::{fen_error, move_error, IllegalMoveError, InvalidFenError};
use crate::fast_methods::{self, no_arg_method, one_arg_method};
use crate::moves::{as_move, intern, Move};
use crate::piece::Piece;
use crate::squareset::SquareSet;
use pychess_core::notation::epd::{parse_epd, EpdError, Operand};
use pychess_core::notation::uci::is_drop;
use pychess_core::{
    perft, perft_divide, Bitboard, Board as CoreBoard, Color, EpMode, Game, Move as CoreMove,
    MoveError, Role, Setup, Square, UciMove,
};
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BB_ALL: u64 = u64::MAX;

/// What a pickled board carries: root FEN, Chess960 flag, moves in UCI.
type PickledBoard = (String, bool, Vec<String>);

fn parse_sq(sq: u32) -> PyResult<Square> {
    Square::try_new(sq).ok_or_else(|| PyValueError::new_err(format!("square out of range: {sq}")))
}

fn color(white: bool) -> Color {
    Color::from_white(white)
}

fn ep_mode(en_passant: &str) -> PyResult<EpMode> {
    match en_passant {
        "legal" => Ok(EpMode::Legal),
        "fen" => Ok(EpMode::Always),
        "xfen" => Ok(EpMode::PseudoLegal),
        other => Err(PyValueError::new_err(format!(
            "en_passant must be 'legal', 'fen' or 'xfen', got {other:?}"
        ))),
    }
}

fn epd_error(e: EpdError) -> PyErr {
    match e {
        EpdError::Fen(f) => fen_error(f),
        e @ EpdError::Operation(..) => InvalidFenError::new_err(e.to_string()),
    }
}

/// A UCI string given to a board: drops (`N@e4`) are illegal here, not malformed.
fn parse_board_uci(text: &str, board: &CoreBoard) -> PyResult<UciMove> {
    UciMove::parse(text).map_err(|e| {
        if is_drop(text) {
            move_error(MoveError::Illegal {
                text: text.to_string(),
                fen: board.fen(),
            })
        } else {
            move_error(e)
        }
    })
}

fn uci_of(r#move: &Bound<'_, PyAny>) -> PyResult<UciMove> {
    match as_move(r#move) {
        Some(m) => Ok(m.get().uci),
        None => Err(PyTypeError::new_err(format!(
            "expected a Move, got {}",
            r#move
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))),
    }
}

/// The outcome classes live in Python (`pychess_rs.outcome`); fetched once.
fn outcome_classes(py: Python<'_>) -> PyResult<&(Py<PyAny>, Py<PyAny>)> {
    static CLASSES: PyOnceLock<(Py<PyAny>, Py<PyAny>)> = PyOnceLock::new();
    CLASSES.get_or_try_init(py, || {
        let module = py.import("pychess_rs.outcome")?;
        Ok((
            module.getattr("Termination")?.unbind(),
            module.getattr("Outcome")?.unbind(),
        ))
    })
}

/// A chess board with its move stack (python-chess's ``Board``).
#[pyclass(module = "pychess_rs", name = "Board", subclass)]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

impl Board {
    fn board(&self) -> &CoreBoard {
        self.game.board()
    }

    /// Takes back the last move and returns it (python-chess's `pop`).
    fn pop_move(&mut self, py: Python<'_>) -> PyResult<Py<Move>> {
        match self.game.pop() {
            Some(m) => Ok(self.py_move(py, m)),
            None => Err(PyIndexError::new_err("pop from empty list")),
        }
    }

    /// Plays a legal `Move` (python-chess's `push`).
    fn push_move(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let uci = uci_of(r#move)?;
        let core = self.resolve(uci).map_err(move_error)?;
        self.game.play(core);
        Ok(())
    }

    fn py_move(&self, py: Python<'_>, m: CoreMove) -> Py<Move> {
        if m.is_null() {
            return intern(py, UciMove::NULL);
        }
        intern(py, self.board().uci(m))
    }

    /// A Python iterator over the moves, shown as python-chess shows them.
    fn moves_iter(
        &self,
        py: Python<'_>,
        moves: impl IntoIterator<Item = CoreMove, IntoIter: ExactSizeIterator>,
    ) -> PyResult<Py<PyAny>> {
        let board = self.board();
        let objects = moves.into_iter().map(|m| intern(py, board.uci(m)));
        Ok(PyList::new(py, objects)?
            .into_any()
            .try_iter()?
            .into_any()
            .unbind())
    }

    /// The legal move for a `Move` given to push/san: castling may be spelled either way.
    fn resolve(&self, uci: UciMove) -> Result<CoreMove, MoveError> {
        if uci.is_null() {
            return Ok(CoreMove::NULL);
        }
        self.game.resolve_uci(uci)
    }

    fn outcome_object(&self, py: Python<'_>, claim_draw: bool) -> PyResult<Option<Py<PyAny>>> {
        let Some(outcome) = self.game.outcome(claim_draw) else {
            return Ok(None);
        };
        let (termination, class) = outcome_classes(py)?;
        let member = termination.bind(py).getattr(outcome.termination.name())?;
        let winner = outcome.winner.map(|c| c.is_white());
        Ok(Some(class.bind(py).call1((member, winner))?.unbind()))
    }

    fn from_fen_str(fen: &str, chess960: bool) -> PyResult<Board> {
        let board = CoreBoard::from_fen(fen, chess960).map_err(fen_error)?;
        Ok(Board {
            game: Game::new(board),
        })
    }

    /// A Python iterator over the legal moves from `from_mask` to `to_mask` that `keep`.
    fn masked_moves_iter(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
        keep: impl Fn(CoreMove) -> bool,
    ) -> PyResult<Py<PyAny>> {
        let moves = self
            .board()
            .legal_moves_masked(Bitboard(from_mask), Bitboard(to_mask));
        let kept: Vec<CoreMove> = moves.iter().copied().filter(|&m| keep(m)).collect();
        self.moves_iter(py, kept)
    }

    fn operand_object(&self, py: Python<'_>, operand: Operand) -> PyResult<Py<PyAny>> {
        let board = self.board();
        Ok(match operand {
            Operand::Empty => py.None(),
            Operand::Text(s) => s.into_pyobject(py)?.into_any().unbind(),
            Operand::Integer(i) => i.into_pyobject(py)?.into_any().unbind(),
            Operand::Float(f) => f.into_pyobject(py)?.into_any().unbind(),
            Operand::Move(m) => self.py_move(py, m).into_any(),
            Operand::Moves(moves) => {
                let mut position = board.clone();
                let mut out = Vec::with_capacity(moves.len());
                for m in moves {
                    out.push(if m.is_null() {
                        intern(py, UciMove::NULL)
                    } else {
                        intern(py, position.uci(m))
                    });
                    position.play_unchecked(m);
                }
                PyList::new(py, out)?.into_any().unbind()
            }
        })
    }

    fn epd_operation(&self, opcode: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
        if value.is_none() {
            return Ok(format!("{opcode};"));
        }
        if let Ok(m) = value.cast::<Move>() {
            let core = self.resolve(m.get().uci).map_err(move_error)?;
            return Ok(format!("{opcode} {};", self.board().san(core)));
        }
        if let Ok(text) = value.extract::<String>() {
            let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
            return Ok(format!("{opcode} \"{escaped}\";"));
        }
        if value.extract::<i64>().is_ok() || value.extract::<f64>().is_ok() {
            return Ok(format!("{opcode} {};", value.str()?));
        }
        let mut position = self.board().clone();
        let mut sans = Vec::new();
        for item in value.try_iter()? {
            let uci = uci_of(&item?)?;
            let m = position.resolve_uci(uci).map_err(move_error)?;
            sans.push(position.san(m));
            if opcode == "pv" {
                position.play_unchecked(m);
            }
        }
        Ok(format!("{opcode} {};", sans.join(" ")))
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = Some(STARTING_FEN.to_string()), *, chess960 = false))]
    fn new(fen: Option<String>, chess960: bool) -> PyResult<Board> {
        match fen {
            Some(fen) => Board::from_fen_str(&fen, chess960),
            None => Err(InvalidFenError::new_err(
                "Board(None): an empty board has no kings and cannot be played",
            )),
        }
    }

    /// Creates a board from an EPD; returns ``(board, operations)``.
    ///
    /// :raises: :exc:`InvalidFenError` if the position or an operation is invalid.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd(
        cls: &Bound<'_, pyo3::types::PyType>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let py = cls.py();
        let (board, ops) = parse_epd(epd, chess960).map_err(epd_error)?;
        let wrapped = Board {
            game: Game::new(board),
        };
        let dict = PyDict::new(py);
        for (opcode, operand) in ops {
            dict.set_item(opcode, wrapped.operand_object(py, operand)?)?;
        }
        Ok((Py::new(py, wrapped)?.into_any(), dict.into_any().unbind()))
    }

    /// Chess960 starting position by Scharnagl number (0..960; 518 is the standard one).
    ///
    /// :raises: :exc:`ValueError` if the number is out of range.
    #[staticmethod]
    fn from_chess960_pos(scharnagl: u32) -> PyResult<Board> {
        let setup = Setup::chess960(scharnagl).ok_or_else(|| {
            PyValueError::new_err(format!(
                "chess960 position index not 0 <= {scharnagl} <= 959"
            ))
        })?;
        let board = CoreBoard::from_setup(&setup, true)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Board {
            game: Game::new(board),
        })
    }

    /// Parses an EPD into this board and returns its operations.
    fn set_epd(&mut self, py: Python<'_>, epd: &str) -> PyResult<Py<PyAny>> {
        let chess960 = self.board().is_chess960();
        let (board, ops) = parse_epd(epd, chess960).map_err(epd_error)?;
        self.game = Game::new(board);
        let dict = PyDict::new(py);
        for (opcode, operand) in ops {
            dict.set_item(opcode, self.operand_object(py, operand)?)?;
        }
        Ok(dict.into_any().unbind())
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
        for (i, m) in self.game.moves().enumerate() {
            let before = self.game.board_before(i).unwrap_or(root);
            let uci = if m.is_null() {
                UciMove::NULL
            } else {
                before.uci(m)
            };
            board.call_method1(
                "push",
                (move_class.call_method1("from_uci", (uci.to_string(),))?,),
            )?;
        }
        Ok(board.unbind())
    }

    // --- Position state -----------------------------------------------------------------

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

    #[setter]
    fn set_chess960(&mut self, chess960: bool) {
        let mut board = self.board().clone();
        board.set_chess960(chess960);
        // Notation changes; the position and history do not.
        let moves: Vec<CoreMove> = self.game.moves().collect();
        let mut root = self.game.root().clone();
        root.set_chess960(chess960);
        let mut game = Game::new(root);
        for m in moves {
            game.play(m);
        }
        self.game = game;
    }

    #[getter]
    fn occupied(&self) -> u64 {
        self.board().occupied().0
    }

    /// ``[black_mask, white_mask]``, indexed by colour like python-chess.
    #[getter]
    fn occupied_co(&self) -> [u64; 2] {
        [
            self.board().by_color(Color::Black).0,
            self.board().by_color(Color::White).0,
        ]
    }

    #[getter]
    fn pawns(&self) -> u64 {
        self.board().by_role(Role::Pawn).0
    }

    #[getter]
    fn knights(&self) -> u64 {
        self.board().by_role(Role::Knight).0
    }

    #[getter]
    fn bishops(&self) -> u64 {
        self.board().by_role(Role::Bishop).0
    }

    #[getter]
    fn rooks(&self) -> u64 {
        self.board().by_role(Role::Rook).0
    }

    #[getter]
    fn queens(&self) -> u64 {
        self.board().by_role(Role::Queen).0
    }

    #[getter]
    fn kings(&self) -> u64 {
        self.board().by_role(Role::King).0
    }

    /// Always 0: promoted pieces are not tracked outside crazyhouse.
    #[getter]
    fn promoted(&self) -> u64 {
        0
    }

    /// The moves played, oldest first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> Vec<Py<Move>> {
        let root = self.game.root();
        self.game
            .moves()
            .enumerate()
            .map(|(i, m)| {
                if m.is_null() {
                    intern(py, UciMove::NULL)
                } else {
                    intern(py, self.game.board_before(i).unwrap_or(root).uci(m))
                }
            })
            .collect()
    }

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

    // --- FEN / EPD ----------------------------------------------------------------------

    /// The FEN. ``en_passant`` is ``'legal'`` (default), ``'fen'`` or ``'xfen'``.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        let _ = promoted;
        Ok(self.board().fen_with(shredder, ep_mode(en_passant)?))
    }

    /// Replaces the position (and clears the move stack).
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong; the board is left unchanged.
    fn set_fen(&mut self, fen: &str) -> PyResult<()> {
        *self = Board::from_fen_str(fen, self.board().is_chess960())?;
        Ok(())
    }

    /// The placement part of the FEN.
    #[pyo3(signature = (*, promoted = false))]
    fn board_fen(&self, promoted: Option<bool>) -> String {
        let _ = promoted;
        self.board().board_fen()
    }

    /// The EPD: the first four FEN fields, then operations given as keyword arguments.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let _ = promoted;
        let mut epd = self.board().epd_with(shredder, ep_mode(en_passant)?);
        if let Some(ops) = operations {
            for (opcode, value) in ops.iter() {
                let opcode: String = opcode.extract()?;
                epd.push(' ');
                epd.push_str(&self.epd_operation(&opcode, &value)?);
            }
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

    // --- Making moves -------------------------------------------------------------------

    // `push` is a METH_O method, installed by `install_fast_methods` below.

    // `pop` is a METH_NOARGS method, installed by `install_fast_methods` below.

    /// The last move played.
    ///
    /// :raises: :exc:`IndexError` if no move was played.
    fn peek(&self, py: Python<'_>) -> PyResult<Py<Move>> {
        let n = self.game.moves().len();
        match (
            self.game.last_move(),
            n.checked_sub(1).and_then(|i| self.game.board_before(i)),
        ) {
            (Some(m), Some(before)) => Ok(if m.is_null() {
                intern(py, UciMove::NULL)
            } else {
                intern(py, before.uci(m))
            }),
            _ => Err(PyIndexError::new_err("list index out of range")),
        }
    }

    /// Parses a UCI move and plays it; returns the move.
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> PyResult<Py<Move>> {
        let parsed = parse_board_uci(uci, self.board())?;
        let m = self.resolve(parsed).map_err(move_error)?;
        let shown = self.py_move(py, m);
        self.game.play(m);
        Ok(shown)
    }

    /// Parses a SAN move and plays it; returns the move.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn push_san(&mut self, py: Python<'_>, san: &str) -> PyResult<Py<Move>> {
        let m = self
            .board()
            .parse_san(san)
            .map_err(move_error)?
            .unwrap_or(CoreMove::NULL);
        let shown = self.py_move(py, m);
        self.game.play(m);
        Ok(shown)
    }

    /// The legal move a UCI string stands for (``Move.null()`` for ``0000``).
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> PyResult<Py<Move>> {
        let parsed = parse_board_uci(uci, self.board())?;
        let m = self.resolve(parsed).map_err(move_error)?;
        Ok(self.py_move(py, m))
    }

    /// The legal move a SAN stands for.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn parse_san(&self, py: Python<'_>, san: &str) -> PyResult<Py<Move>> {
        let m = self
            .board()
            .parse_san(san)
            .map_err(move_error)?
            .unwrap_or(CoreMove::NULL);
        Ok(self.py_move(py, m))
    }

    /// SAN of a legal move (``--`` for the null move).
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let core = self.resolve(uci_of(r#move)?).map_err(move_error)?;
        Ok(self.board().san(core))
    }

    /// Long algebraic notation of a legal move, e.g. ``Ng1-f3``.
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn lan(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let core = self.resolve(uci_of(r#move)?).map_err(move_error)?;
        Ok(self.board().lan(core))
    }

    /// SAN of a legal move, then plays it.
    fn san_and_push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let core = self.resolve(uci_of(r#move)?).map_err(move_error)?;
        let san = self.board().san(core);
        self.game.play(core);
        Ok(san)
    }

    /// LAN of a legal move, then plays it.
    fn lan_and_push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let core = self.resolve(uci_of(r#move)?).map_err(move_error)?;
        let lan = self.board().lan(core);
        self.game.play(core);
        Ok(lan)
    }

    /// UCI text of a move; castling as ``e1g1``, or ``e1h1`` when ``chess960`` (default: the
    /// board's mode).
    #[pyo3(signature = (r#move, *, chess960 = None))]
    fn uci(&self, r#move: &Bound<'_, PyAny>, chess960: Option<bool>) -> PyResult<String> {
        let uci = uci_of(r#move)?;
        let mut board = self.board().clone();
        board.set_chess960(chess960.unwrap_or(board.is_chess960()));
        Ok(match board.resolve_uci(uci) {
            Ok(core) if core.is_castle() => board.uci(core).to_string(),
            _ => uci.to_string(),
        })
    }

    /// A line of moves in SAN with move numbers, e.g. ``1. e4 e5 2. Nf3``.
    ///
    /// :raises: :exc:`IllegalMoveError` if a move of the line is illegal.
    fn variation_san(&self, variation: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut board = self.board().clone();
        let mut parts: Vec<String> = Vec::new();
        for item in variation.try_iter()? {
            let uci = uci_of(&item?)?;
            let m = board.find_legal(uci).ok_or_else(|| {
                IllegalMoveError::new_err(format!("illegal move {uci} in position {}", board.fen()))
            })?;
            let san = board.san(m);
            if board.turn().is_white() {
                parts.push(format!("{}. {san}", board.fullmove_number()));
            } else if parts.is_empty() {
                parts.push(format!("{}...{san}", board.fullmove_number()));
            } else {
                parts.push(san);
            }
            board.play_unchecked(m);
        }
        Ok(parts.join(" "))
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
    ) -> PyResult<Py<Move>> {
        let (from, to) = (parse_sq(from_square)?, parse_sq(to_square)?);
        let board = self.board();
        let mut promotion = promotion.and_then(Role::from_number);
        if promotion.is_none()
            && board.by_role(Role::Pawn).contains(from)
            && Bitboard::BACKRANKS.contains(to)
        {
            promotion = Some(Role::Queen);
        }
        let uci = UciMove {
            from,
            to,
            promotion,
        };
        match board.find_legal(uci) {
            Some(m) => Ok(self.py_move(py, m)),
            None => Err(IllegalMoveError::new_err(format!(
                "no matching legal move for {uci} in {}",
                board.fen()
            ))),
        }
    }

    /// Back to the starting position (the Chess960 flag is kept).
    fn reset(&mut self) -> PyResult<()> {
        let board = CoreBoard::from_setup(&Setup::standard(), self.board().is_chess960())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.game = Game::new(board);
        Ok(())
    }

    /// Forgets the move stack (and with it the repetition history).
    fn clear_stack(&mut self) {
        self.game.clear_stack();
    }

    /// The starting position of the game, without moves.
    fn root(&self) -> Board {
        Board {
            game: Game::new(self.game.root().clone()),
        }
    }

    /// Half-moves since the start of the game (from the move number and side to move).
    fn ply(&self) -> u64 {
        self.game.ply()
    }

    /// A copy; ``stack`` keeps all moves (True), none (False) or the last N (int).
    #[pyo3(signature = (*, stack = None))]
    fn copy(&self, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Board> {
        let keep = match stack {
            None => None,
            Some(s) if s.is_instance_of::<pyo3::types::PyBool>() => {
                if s.extract::<bool>()? {
                    None
                } else {
                    Some(0)
                }
            }
            Some(s) => Some(s.extract::<usize>()?),
        };
        let Some(keep) = keep else {
            return Ok(self.clone());
        };
        let moves: Vec<CoreMove> = self.game.moves().collect();
        let start = moves.len().saturating_sub(keep);
        let root = self
            .game
            .board_before(start)
            .unwrap_or(self.board())
            .clone();
        let mut game = Game::new(root);
        for &m in &moves[start..] {
            game.play(m);
        }
        Ok(Board { game })
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Rebuilds a pickled board: root FEN, Chess960 flag and the moves in UCI.
    #[staticmethod]
    fn _from_moves(fen: &str, chess960: bool, moves: Vec<String>) -> PyResult<Board> {
        let mut board = Board::from_fen_str(fen, chess960)?;
        for m in moves {
            let uci = UciMove::parse(&m).map_err(move_error)?;
            let core = board.resolve(uci).map_err(move_error)?;
            board.game.play(core);
        }
        Ok(board)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, PickledBoard)> {
        let root = self.game.root();
        let chess960 = root.is_chess960();
        let moves = self
            .game
            .moves()
            .enumerate()
            .map(|(i, m)| {
                let before = self.game.board_before(i).unwrap_or(root);
                if m.is_null() {
                    "0000".to_string()
                } else {
                    before.uci(m).to_string()
                }
            })
            .collect();
        let rebuild = py.get_type::<Board>().getattr("_from_moves")?.unbind();
        Ok((
            rebuild,
            (root.fen_with(chess960, EpMode::Always), chess960, moves),
        ))
    }

    // --- Legality -----------------------------------------------------------------------

    /// Is the move legal here? (``e1h1`` counts as castling in standard chess too.)
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.game.find_legal(uci_of(r#move)?).is_some())
    }

    /// Does the move follow the pieces' rules (possibly leaving the king in check)?
    fn is_pseudo_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().find_pseudo_legal(uci_of(r#move)?).is_some())
    }

    /// Would the pseudo-legal move leave the mover in check?
    fn is_into_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = uci_of(r#move)?;
        Ok(match self.board().find_pseudo_legal(uci) {
            Some(core) => self.board().is_into_check(core),
            None => false,
        })
    }

    /// Is the side not to move in check? Always False: such positions are rejected.
    fn was_into_check(&self) -> bool {
        false
    }

    /// Legal moves from squares of ``from_mask`` to squares of ``to_mask``.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        self.masked_moves_iter(py, from_mask, to_mask, |_| true)
    }

    /// Pseudo-legal moves from ``from_mask`` to ``to_mask``.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_pseudo_legal_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let (from_mask, to_mask) = (Bitboard(from_mask), Bitboard(to_mask));
        let moves = self.board().pseudo_legal_moves();
        let selected: Vec<CoreMove> = moves
            .iter()
            .copied()
            .filter(|m| from_mask.contains(m.from) && to_mask.contains(m.to))
            .collect();
        self.moves_iter(py, selected)
    }

    /// Legal captures (en passant included).
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_captures(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let board = self.board();
        let is_capture = |m: CoreMove| !m.is_castle() && board.is_capture_move(board.uci(m));
        self.masked_moves_iter(py, from_mask, to_mask, is_capture)
    }

    /// Legal castling moves.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_castling_moves(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        self.masked_moves_iter(py, from_mask, to_mask, CoreMove::is_castle)
    }

    /// Legal en-passant captures.
    #[pyo3(signature = (from_mask = BB_ALL, to_mask = BB_ALL))]
    fn generate_legal_ep(
        &self,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        self.masked_moves_iter(py, from_mask, to_mask, CoreMove::is_en_passant)
    }

    // --- Move properties ----------------------------------------------------------------

    /// Does the move capture (en passant included)?
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_capture_move(uci_of(r#move)?))
    }

    /// Is the move an en-passant capture?
    fn is_en_passant(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_en_passant_move(uci_of(r#move)?))
    }

    /// Is the move castling?
    fn is_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_castling_move(uci_of(r#move)?))
    }

    /// Is the move castling towards the h-file?
    fn is_kingside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = uci_of(r#move)?;
        Ok(self.board().is_castling_move(uci) && uci.to.file() > uci.from.file())
    }

    /// Is the move castling towards the a-file?
    fn is_queenside_castling(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = uci_of(r#move)?;
        Ok(self.board().is_castling_move(uci) && uci.to.file() < uci.from.file())
    }

    /// Does the move reset the fifty-move counter?
    fn is_zeroing(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_zeroing_move(uci_of(r#move)?))
    }

    /// Does the move end the reversible sequence (zeroing, castling rights, en passant)?
    fn is_irreversible(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.board().is_irreversible_move(uci_of(r#move)?))
    }

    /// Does the (pseudo-)legal move give check?
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = uci_of(r#move)?;
        let board = self.board();
        let core = board.find_pseudo_legal(board.normalize_castling(uci));
        Ok(core.is_some_and(|core| board.after(core).is_check()))
    }

    // --- Game end -----------------------------------------------------------------------

    fn is_check(&self) -> bool {
        self.board().is_check()
    }

    fn is_checkmate(&self) -> bool {
        self.game.is_checkmate()
    }

    fn is_stalemate(&self) -> bool {
        self.game.is_stalemate()
    }

    fn is_insufficient_material(&self) -> bool {
        self.board().is_insufficient_material()
    }

    /// Can ``color`` not possibly win (python-chess's rules, selfmates considered)?
    fn has_insufficient_material(&self, color: bool) -> bool {
        self.board()
            .has_insufficient_material(Color::from_white(color))
    }

    fn is_seventyfive_moves(&self) -> bool {
        self.game.is_seventyfive_moves()
    }

    fn is_fifty_moves(&self) -> bool {
        self.game.is_fifty_moves()
    }

    fn is_fivefold_repetition(&self) -> bool {
        self.game.is_fivefold_repetition()
    }

    fn can_claim_fifty_moves(&self) -> bool {
        self.game.can_claim_fifty_moves()
    }

    fn can_claim_threefold_repetition(&self) -> bool {
        self.game.can_claim_threefold_repetition()
    }

    fn can_claim_draw(&self) -> bool {
        self.game.can_claim_draw()
    }

    /// Has the position occurred ``count`` times since the last irreversible move?
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: u32) -> bool {
        self.game.is_repetition(count)
    }

    /// Always False: no variants.
    fn is_variant_end(&self) -> bool {
        false
    }

    fn is_variant_win(&self) -> bool {
        false
    }

    fn is_variant_loss(&self) -> bool {
        false
    }

    fn is_variant_draw(&self) -> bool {
        false
    }

    /// The ``Outcome`` if the game has ended, else None.
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, py: Python<'_>, claim_draw: bool) -> PyResult<Option<Py<PyAny>>> {
        self.outcome_object(py, claim_draw)
    }

    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.game.outcome(claim_draw).is_some()
    }

    /// ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.game.outcome(claim_draw).map_or("*", |o| o.result())
    }

    /// Always ``STATUS_VALID`` (0): invalid positions are rejected on construction.
    fn status(&self) -> u32 {
        0
    }

    fn is_valid(&self) -> bool {
        true
    }

    // --- Pieces and attacks -------------------------------------------------------------

    fn piece_at(&self, square: u32) -> PyResult<Option<Piece>> {
        Ok(self
            .board()
            .piece_at(parse_sq(square)?)
            .map(Piece::from_core))
    }

    fn piece_type_at(&self, square: u32) -> PyResult<Option<u8>> {
        Ok(self.board().role_at(parse_sq(square)?).map(|r| r as u8))
    }

    fn color_at(&self, square: u32) -> PyResult<Option<bool>> {
        Ok(self
            .board()
            .color_at(parse_sq(square)?)
            .map(|c| c.is_white()))
    }

    /// ``{square: Piece}`` for the occupied squares of ``mask``.
    #[pyo3(signature = (*, mask = BB_ALL))]
    fn piece_map(&self, py: Python<'_>, mask: u64) -> PyResult<Py<PyAny>> {
        let dict = PyDict::new(py);
        let board = self.board();
        for sq in board.occupied() & Bitboard(mask) {
            if let Some(piece) = board.piece_at(sq) {
                dict.set_item(sq.index(), Piece::from_core(piece))?;
            }
        }
        Ok(dict.into_any().unbind())
    }

    /// The square of ``color``'s king.
    fn king(&self, color: bool) -> Option<usize> {
        Some(self.board().king_of(Color::from_white(color)).index())
    }

    /// The squares of ``color``'s pieces of ``piece_type``.
    fn pieces(&self, piece_type: u8, color: bool) -> SquareSet {
        SquareSet {
            mask: self.pieces_mask(piece_type, color),
        }
    }

    fn pieces_mask(&self, piece_type: u8, color: bool) -> u64 {
        Role::from_number(piece_type)
            .map_or(0, |r| self.board().pieces(Color::from_white(color), r).0)
    }

    /// Pieces of ``color`` attacking ``square``.
    fn attackers(&self, color: bool, square: u32) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.attackers_mask(color, square)?,
        })
    }

    fn attackers_mask(&self, color: bool, square: u32) -> PyResult<u64> {
        Ok(self
            .board()
            .attackers(parse_sq(square)?, self::color(color))
            .0)
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

    fn attacks_mask(&self, square: u32) -> PyResult<u64> {
        Ok(self.board().attacks_from(parse_sq(square)?).0)
    }

    /// Pieces giving check.
    fn checkers(&self) -> SquareSet {
        SquareSet {
            mask: self.board().checkers().0,
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

    fn pin_mask(&self, color: bool, square: u32) -> PyResult<u64> {
        Ok(self
            .board()
            .pin_mask(self::color(color), parse_sq(square)?)
            .0)
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

    fn clean_castling_rights(&self) -> u64 {
        self.board().castling_rights().0
    }

    fn has_castling_rights(&self, color: bool) -> bool {
        (self.board().castling_rights() & Bitboard::rank(self::color(color).back_rank())).nonempty()
    }

    fn has_kingside_castling_rights(&self, color: bool) -> bool {
        let board = self.board();
        let king = board.king_of(self::color(color));
        (board.castling_rights() & Bitboard::rank(self::color(color).back_rank()))
            .any(|r| r.file() > king.file())
    }

    fn has_queenside_castling_rights(&self, color: bool) -> bool {
        let board = self.board();
        let king = board.king_of(self::color(color));
        (board.castling_rights() & Bitboard::rank(self::color(color).back_rank()))
            .any(|r| r.file() < king.file())
    }

    /// The Polyglot Zobrist hash (equal to ``chess.polyglot.zobrist_hash(board)``).
    fn zobrist_hash(&self) -> u64 {
        self.board().zobrist_hash()
    }

    /// The position with colours swapped and the board flipped vertically.
    fn mirror(&self) -> Board {
        Board {
            game: Game::new(self.board().mirror()),
        }
    }

    // --- Perft --------------------------------------------------------------------------

    /// Leaf nodes of the legal-move tree ``depth`` plies deep (native; releases the GIL).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.board().clone();
        py.detach(move || perft(&board, depth))
    }

    /// Perft by first move: ``{uci: nodes}`` (native; releases the GIL).
    fn perft_divide(&self, py: Python<'_>, depth: u32) -> PyResult<Py<PyAny>> {
        let board = self.board().clone();
        let divided = py.detach(|| perft_divide(&board, depth));
        let dict = PyDict::new(py);
        for (m, nodes) in divided {
            dict.set_item(board.uci(m).to_string(), nodes)?;
        }
        Ok(dict.into_any().unbind())
    }

    // --- Display and comparison ---------------------------------------------------------

    fn __str__(&self) -> String {
        let board = self.board();
        let mut out = String::with_capacity(128);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::from_coords(file, rank);
                out.push(board.piece_at(sq).map_or('.', |p| p.char()));
                if file < 7 {
                    out.push(' ');
                }
            }
            if rank > 0 {
                out.push('\n');
            }
        }
        out
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
        let board = self.board();
        let mut out = String::new();
        let ranks: Vec<u8> = if orientation {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        };
        let files: Vec<u8> = if orientation {
            (0..8).collect()
        } else {
            (0..8).rev().collect()
        };
        let rule = format!("  {}\n", "-".repeat(17));
        for &rank in &ranks {
            if borders {
                out.push_str(&rule);
                out.push((b'1' + rank) as char);
                out.push(' ');
            }
            for (i, &file) in files.iter().enumerate() {
                if borders {
                    out.push('|');
                } else if i > 0 {
                    out.push(' ');
                }
                match board.piece_at(Square::from_coords(file, rank)) {
                    Some(mut piece) => {
                        if invert_color {
                            piece.color = !piece.color;
                        }
                        out.push(piece.unicode());
                    }
                    None => out.push_str(empty_square),
                }
            }
            if borders {
                out.push('|');
            }
            let last = if orientation { rank == 0 } else { rank == 7 };
            if borders || !last {
                out.push('\n');
            }
        }
        if borders {
            out.push_str(&rule);
            out.push_str(if orientation {
                "   a b c d e f g h"
            } else {
                "   h g f e d c b a"
            });
        }
        out
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
        other.cast::<Board>().is_ok_and(|o| {
            o.borrow().board().fen_with(true, EpMode::Legal)
                == self.board().fen_with(true, EpMode::Legal)
        })
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    #[classattr]
    fn __hash__() -> Option<Py<PyAny>> {
        None
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
        uci_of(r#move).is_ok_and(|uci| self.board.borrow(py).game.find_legal(uci).is_some())
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
        uci_of(r#move).is_ok_and(|uci| {
            self.board
                .borrow(py)
                .board()
                .find_pseudo_legal(uci)
                .is_some()
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let board = self.board.borrow(py);
        let ucis: Vec<String> = board
            .board()
            .pseudo_legal_moves()
            .iter()
            .map(|&m| board.board().uci(m).to_string())
            .collect();
        format!("<PseudoLegalMoveGenerator ({})>", ucis.join(", "))
    }
}

fn push_body<'py>(
    slf: Borrowed<'_, 'py, PyAny>,
    r#move: Borrowed<'_, 'py, PyAny>,
) -> PyResult<Py<PyAny>> {
    // SAFETY: CPython's method descriptor checked that `self` is a `Board` (or subclass).
    let board = unsafe { slf.cast_unchecked::<Board>() };
    board.try_borrow_mut()?.push_move(&r#move)?;
    Ok(slf.py().None())
}

fn pop_body(slf: Borrowed<'_, '_, PyAny>) -> PyResult<Py<PyAny>> {
    // SAFETY: CPython's method descriptor checked that `self` is a `Board` (or subclass).
    let board = unsafe { slf.cast_unchecked::<Board>() };
    let popped = board.try_borrow_mut()?.pop_move(slf.py())?;
    Ok(popped.into_any())
}

one_arg_method!(PUSH => push_body);
no_arg_method!(POP => pop_body);

/// Replaces PyO3's wrappers of the methods a search loop calls most (see `fast_methods`).
pub(crate) fn install_fast_methods(py: Python<'_>) -> PyResult<()> {
    let class = py.get_type::<Board>();
    fast_methods::install(
        &class,
        c"push",
        c"push($self, move, /)\n--\n\nPlays a move. Castling may be given as ``e1g1`` or \
``e1h1``; ``Move.null()`` passes.\n\n:raises: :exc:`IllegalMoveError` if the move is not legal; \
the board is unchanged.",
        PUSH,
    )?;
    fast_methods::install(
        &class,
        c"pop",
        c"pop($self, /)\n--\n\nTakes back the last move and returns it.\n\n\
:raises: :exc:`IndexError` if no move was played.",
        POP,
    )
}
