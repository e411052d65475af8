//! python-chess's visitors driven by the Rust reader: `pychess_pgn::read_game` calls a
//! [`PyVisitor`], which calls the Python visitor's methods in python-chess's order with
//! python-chess's arguments, and hands its `SKIP` answers back to the reader.
//!
//! Only the methods the visitor overrides are called (the caller names them; the others are
//! `BaseVisitor`'s, which do nothing). Boards are made only for a visitor that is given any
//! (`visit_board`, `begin_parse_san`, `parse_san`, `visit_move`): as in python-chess, one
//! board per open variation, the same object throughout a line, played as the line goes on.
//! A plain `GameBuilder` hands its node building to `tree.rs`.
//!
//! If a method raises (other than a `ValueError` from `parse_san`, which goes to
//! `handle_error` as python-chess does), the rest of the game is read without calling back
//! and the exception is raised when the reader returns.

use super::tree::Tree;
use super::{error_object, text};
use crate::board::{new_variant_instance, play_if_variant, popped_copy_if_variant, Board};
use crate::moves::{as_move, from_value, interned, Move as PyMove};
use pychess_core::variant::VariantBoard;
use pychess_core::{Board as CoreBoard, Game, Move, UciMove};
use pychess_pgn::parser::{read_game, resolve, resolve_variant, Visitor};
use pychess_pgn::{ErrorKind, Lines, PgnError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};

/// The visitor's bound methods that are called; `None` for those left to `BaseVisitor`.
#[derive(Default)]
struct Methods<'py> {
    begin_game: Option<Bound<'py, PyAny>>,
    begin_headers: Option<Bound<'py, PyAny>>,
    visit_header: Option<Bound<'py, PyAny>>,
    end_headers: Option<Bound<'py, PyAny>>,
    visit_board: Option<Bound<'py, PyAny>>,
    begin_parse_san: Option<Bound<'py, PyAny>>,
    parse_san: Option<Bound<'py, PyAny>>,
    visit_move: Option<Bound<'py, PyAny>>,
    visit_comment: Option<Bound<'py, PyAny>>,
    visit_nag: Option<Bound<'py, PyAny>>,
    begin_variation: Option<Bound<'py, PyAny>>,
    end_variation: Option<Bound<'py, PyAny>>,
    visit_result: Option<Bound<'py, PyAny>>,
    handle_error: Option<Bound<'py, PyAny>>,
    end_game: Option<Bound<'py, PyAny>>,
}

impl<'py> Methods<'py> {
    fn of(visitor: &Bound<'py, PyAny>, names: &Bound<'py, PyTuple>) -> PyResult<Methods<'py>> {
        let mut methods = Methods::default();
        for name in names.iter() {
            let name = name.cast_into::<PyString>()?;
            let method = Some(visitor.getattr(&name)?);
            let slot = match &*name.to_cow()? {
                "begin_game" => &mut methods.begin_game,
                "begin_headers" => &mut methods.begin_headers,
                "visit_header" => &mut methods.visit_header,
                "end_headers" => &mut methods.end_headers,
                "visit_board" => &mut methods.visit_board,
                "begin_parse_san" => &mut methods.begin_parse_san,
                "parse_san" => &mut methods.parse_san,
                "visit_move" => &mut methods.visit_move,
                "visit_comment" => &mut methods.visit_comment,
                "visit_nag" => &mut methods.visit_nag,
                "begin_variation" => &mut methods.begin_variation,
                "end_variation" => &mut methods.end_variation,
                "visit_result" => &mut methods.visit_result,
                "handle_error" => &mut methods.handle_error,
                "end_game" => &mut methods.end_game,
                other => {
                    return Err(PyValueError::new_err(format!(
                        "not a visitor method: {other:?}"
                    )))
                }
            };
            *slot = method;
        }
        Ok(methods)
    }

    /// Are boards handed to the visitor?
    fn take_boards(&self) -> bool {
        self.visit_board.is_some()
            || self.begin_parse_san.is_some()
            || self.parse_san.is_some()
            || self.visit_move.is_some()
    }
}

/// What the driver builds a `GameBuilder`'s tree with: the node class, and the `Headers`
/// class whose dictionaries take parsed tags directly (None: the builder's `visit_header`).
struct TreeSpec<'py> {
    child_class: Bound<'py, PyType>,
    headers_class: Option<Bound<'py, PyType>>,
}

/// A Python visitor as a `pychess_pgn` visitor.
struct PyVisitor<'py> {
    py: Python<'py>,
    visitor: Bound<'py, PyAny>,
    methods: Methods<'py>,
    skip: Bound<'py, PyAny>,
    /// python-chess's board stack, when the visitor is given boards.
    boards: Option<Vec<Bound<'py, Board>>>,
    tree_spec: Option<TreeSpec<'py>>,
    /// The tree being built (from the game's `begin_game` on).
    tree: Option<Tree<'py>>,
    /// The first exception a method raised; nothing is called after it.
    failed: Option<PyErr>,
    /// The move the visitor's own `parse_san` returned, for its `visit_move`.
    parsed: Option<Bound<'py, PyAny>>,
    /// The `ValueError` the visitor's own `parse_san` raised, for its `handle_error`.
    san_error: Option<PyErr>,
}

/// The Python `Move` of `uci`: the shared object, or a new one for a drop.
fn move_of(py: Python<'_>, uci: UciMove) -> PyResult<Py<PyMove>> {
    if uci.as_drop().is_some() {
        return from_value(py, uci);
    }
    Ok(interned(py, uci).clone_ref(py))
}

/// Calls `method` (when the visitor has it and nothing failed yet) with `args`.
fn call<'py, A>(
    failed: &mut Option<PyErr>,
    method: &Option<Bound<'py, PyAny>>,
    args: impl FnOnce() -> PyResult<A>,
) -> Option<Bound<'py, PyAny>>
where
    A: pyo3::call::PyCallArgs<'py>,
{
    let method = method.as_ref()?;
    if failed.is_some() {
        return None;
    }
    match args().and_then(|args| method.call1(args)) {
        Ok(answer) => Some(answer),
        Err(e) => {
            *failed = Some(e);
            None
        }
    }
}

impl<'py> PyVisitor<'py> {
    /// Records the first failure of a step of the driver's own.
    fn attempt(&mut self, step: impl FnOnce(&mut Self) -> PyResult<()>) {
        if self.failed.is_none() {
            if let Err(e) = step(self) {
                self.failed = Some(e);
            }
        }
    }

    fn is_skip(&self, answer: Option<Bound<'py, PyAny>>) -> bool {
        answer.is_some_and(|a| a.is(&self.skip))
    }

    /// The board of the current line (the visitor is given boards and one is open).
    fn board(&self) -> PyResult<Bound<'py, Board>> {
        self.boards
            .as_ref()
            .and_then(|b| b.last())
            .cloned()
            .ok_or_else(|| PyValueError::new_err("the PGN visitor driver has no board"))
    }

    fn text(&self, bytes: &[u8]) -> PyResult<Bound<'py, PyString>> {
        text(self.py, bytes)
    }

    /// Calls the visitor's own `parse_san` with the current board and `san`.
    fn call_parse_san(&self, san: &[u8]) -> Result<PyResult<Bound<'py, PyAny>>, PgnError> {
        let Some(method) = &self.methods.parse_san else {
            return Err(PgnError {
                kind: ErrorKind::IllegalMove,
                message: String::new(),
            });
        };
        Ok(self
            .board()
            .and_then(|top| method.call1((top, text(self.py, san)?))))
    }

    /// What the visitor's own `parse_san` answered, as the reader's move: `legal` finds the
    /// legal move of a UCI move in the position (whose FEN `fen` gives).
    fn accept_parsed(
        &mut self,
        answer: PyResult<Bound<'py, PyAny>>,
        legal: impl FnOnce(UciMove) -> Option<Move>,
        fen: impl FnOnce() -> String,
    ) -> Result<Move, PgnError> {
        let failure = |message: String| PgnError {
            kind: ErrorKind::IllegalMove,
            message,
        };
        match answer {
            Ok(object) => {
                let Some(m) = as_move(&object) else {
                    self.failed = Some(PyTypeError::new_err(format!(
                        "parse_san returned {}, not a Move",
                        object.get_type()
                    )));
                    return Err(failure(String::new()));
                };
                let uci = m.get().uci;
                match legal(uci) {
                    Some(played) => {
                        self.parsed = Some(object);
                        Ok(played)
                    }
                    None => Err(failure(format!(
                        "parse_san returned {uci}, not a legal move in {}",
                        fen()
                    ))),
                }
            }
            Err(e) if e.is_instance_of::<PyValueError>(self.py) => {
                self.san_error = Some(e);
                Err(failure(String::new()))
            }
            Err(e) => {
                self.failed.get_or_insert(e);
                Err(failure(String::new()))
            }
        }
    }
}

impl Visitor for PyVisitor<'_> {
    fn begin_game(&mut self) -> bool {
        let answer = call(&mut self.failed, &self.methods.begin_game, || Ok(()));
        let skip = self.is_skip(answer);
        if !skip {
            if let Some(spec) = &self.tree_spec {
                let child_class = spec.child_class.clone();
                let headers_class = spec.headers_class.clone();
                self.attempt(|d| {
                    d.tree = Some(Tree::new(&d.visitor, child_class, headers_class.as_ref())?);
                    Ok(())
                });
            }
        }
        skip || self.failed.is_some()
    }

    fn begin_headers(&mut self) {
        // The `Headers` it may return are not consulted: the starting position comes from
        // the parsed `FEN` and `Variant` tags.
        call(&mut self.failed, &self.methods.begin_headers, || Ok(()));
    }

    fn visit_header(&mut self, name: &[u8], value: &[u8]) {
        if let Some(tree) = &mut self.tree {
            match tree.visit_header(name, value) {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => {
                    self.failed.get_or_insert(e);
                    return;
                }
            }
        }
        let py = self.py;
        call(&mut self.failed, &self.methods.visit_header, || {
            Ok((text(py, name)?, text(py, value)?))
        });
    }

    fn end_headers(&mut self) -> bool {
        let answer = call(&mut self.failed, &self.methods.end_headers, || Ok(()));
        self.is_skip(answer) || self.failed.is_some()
    }

    fn visit_board(&mut self, board: &CoreBoard) {
        let Some(boards) = &mut self.boards else {
            return;
        };
        if boards.is_empty() {
            // The starting position: python-chess's `Board(fen, chess960=...)`.
            match Bound::new(self.py, Board::from_game(Game::new(board.clone()))) {
                Ok(start) => boards.push(start),
                Err(e) => {
                    self.failed.get_or_insert(e);
                    return;
                }
            }
        }
        let top = self.board();
        call(&mut self.failed, &self.methods.visit_board, || Ok((top?,)));
    }

    fn visit_variant_board(&mut self, board: &VariantBoard) {
        let Some(boards) = &mut self.boards else {
            return;
        };
        if boards.is_empty() {
            // The starting position: python-chess's `VariantBoard(fen, chess960=...)`.
            match new_variant_instance(self.py, board) {
                Ok(start) => boards.push(start),
                Err(e) => {
                    self.failed.get_or_insert(e);
                    return;
                }
            }
        }
        let top = self.board();
        call(&mut self.failed, &self.methods.visit_board, || Ok((top?,)));
    }

    fn parse_variant_san(&mut self, board: &VariantBoard, san: &[u8]) -> Result<Move, PgnError> {
        if self.methods.parse_san.is_none() {
            return resolve_variant(board, san);
        }
        let answer = self.call_parse_san(san)?;
        self.accept_parsed(answer, |uci| board.find_legal(uci), || board.fen())
    }

    fn begin_parse_san(&mut self, _board: &CoreBoard, san: &[u8]) -> bool {
        if self.failed.is_some() {
            return true;
        }
        if self.methods.begin_parse_san.is_none() {
            return false;
        }
        let top = self.board();
        let py = self.py;
        let answer = call(&mut self.failed, &self.methods.begin_parse_san, || {
            Ok((top?, text(py, san)?))
        });
        self.is_skip(answer) || self.failed.is_some()
    }

    fn parse_san(&mut self, board: &CoreBoard, san: &[u8]) -> Result<Move, PgnError> {
        if self.methods.parse_san.is_none() {
            return resolve(board, san);
        }
        let answer = self.call_parse_san(san)?;
        self.accept_parsed(answer, |uci| board.resolve_uci(uci).ok(), || board.fen())
    }

    fn visit_move(&mut self, board: &CoreBoard, m: Move) {
        let uci = if m.is_null() {
            pychess_core::UciMove::NULL
        } else {
            board.uci(m)
        };
        if let Some(tree) = &mut self.tree {
            if self.failed.is_none() {
                if let Err(e) = move_of(self.py, uci).and_then(|object| tree.visit_move(&object)) {
                    self.failed = Some(e);
                }
            }
            return;
        }
        let py = self.py;
        let parsed = self.parsed.take();
        let top = self.board();
        call(&mut self.failed, &self.methods.visit_move, || {
            let object = match parsed {
                Some(object) => object,
                None => move_of(py, uci)?.into_bound(py).into_any(),
            };
            Ok((top?, object))
        });
        if let Some(top) = self.boards.as_ref().and_then(|b| b.last()) {
            let played = play_if_variant(top, m).and_then(|variant| {
                if !variant {
                    top.try_borrow_mut()?.game_mut(py).play(m);
                }
                Ok(())
            });
            if let Err(e) = played {
                self.failed.get_or_insert(e);
            }
        }
    }

    fn visit_comment(&mut self, comment: &[u8]) {
        if let Some(tree) = &mut self.tree {
            if self.failed.is_none() {
                if let Err(e) = tree.visit_comment(comment) {
                    self.failed = Some(e);
                }
            }
            return;
        }
        let text = self.text(comment);
        call(&mut self.failed, &self.methods.visit_comment, || {
            Ok((text?,))
        });
    }

    fn visit_nag(&mut self, nag: u64) {
        if let Some(tree) = &mut self.tree {
            if self.failed.is_none() {
                if let Err(e) = tree.visit_nag(nag) {
                    self.failed = Some(e);
                }
            }
            return;
        }
        call(&mut self.failed, &self.methods.visit_nag, || Ok((nag,)));
    }

    fn begin_variation(&mut self) -> bool {
        if self.failed.is_some() {
            return true;
        }
        if let Some(tree) = &mut self.tree {
            if let Err(e) = tree.begin_variation() {
                self.failed = Some(e);
            }
            return self.failed.is_some();
        }
        let answer = call(&mut self.failed, &self.methods.begin_variation, || Ok(()));
        if self.is_skip(answer) || self.failed.is_some() {
            return true;
        }
        // python-chess's `board.copy(); board.pop()`: the line starts before the last move.
        let py = self.py;
        if let Some(boards) = &mut self.boards {
            if let Some(top) = boards.last() {
                match popped_copy_if_variant(top) {
                    Ok(Some(board)) => {
                        boards.push(board);
                        return false;
                    }
                    Ok(None) => {}
                    Err(e) => {
                        self.failed = Some(e);
                        return true;
                    }
                }
                let copy = top.try_borrow().map(|board| board.clone());
                match copy.map_err(PyErr::from).and_then(|mut copy| {
                    copy.game_mut(py).pop();
                    Bound::new(py, copy)
                }) {
                    Ok(board) => boards.push(board),
                    Err(e) => self.failed = Some(e),
                }
            }
        }
        self.failed.is_some()
    }

    fn end_variation(&mut self) {
        if let Some(tree) = &mut self.tree {
            tree.end_variation();
            return;
        }
        call(&mut self.failed, &self.methods.end_variation, || Ok(()));
        if let Some(boards) = &mut self.boards {
            boards.pop();
        }
    }

    fn end_skipped_variation(&mut self) {
        // python-chess calls `end_variation` but keeps the line's board.
        if let Some(tree) = &mut self.tree {
            tree.end_variation();
            return;
        }
        call(&mut self.failed, &self.methods.end_variation, || Ok(()));
    }

    fn visit_result(&mut self, result: &[u8]) {
        let text = self.text(result);
        call(&mut self.failed, &self.methods.visit_result, || {
            Ok((text?,))
        });
    }

    fn handle_error(&mut self, error: PgnError) {
        if self.failed.is_some() {
            return;
        }
        let exception = match self.san_error.take() {
            Some(raised) => raised.into_value(self.py).into_any(),
            None => error_object(self.py, &error),
        };
        if self.methods.handle_error.is_none() {
            // `BaseVisitor.handle_error` raises it.
            self.failed = Some(PyErr::from_value(exception.into_bound(self.py)));
            return;
        }
        call(&mut self.failed, &self.methods.handle_error, || {
            Ok((exception,))
        });
    }

    fn end_game(&mut self) {
        call(&mut self.failed, &self.methods.end_game, || Ok(()));
    }
}

/// Reads the first game of `data` (UTF-8 bytes, as `read_game_text` cuts them) into the
/// Python `visitor`, calling its methods named in `methods` (those it overrides of
/// `BaseVisitor`'s; `handle_error` when absent raises the error); `skip` is python-chess's
/// `SKIP`. With `tree=(child_class, headers_class)` the visitor is a plain `GameBuilder`
/// whose moves, comments, NAGs and variations are built into its game here (see `tree.rs`);
/// `headers_class`, when given, is the `Headers` class whose dictionaries take the tags.
/// Returns whether a game was found.
#[pyfunction]
#[pyo3(signature = (data, visitor, methods, skip, tree=None))]
pub fn visit_pgn_game<'py>(
    py: Python<'py>,
    data: &[u8],
    visitor: Bound<'py, PyAny>,
    methods: Bound<'py, PyTuple>,
    skip: Bound<'py, PyAny>,
    tree: Option<(Bound<'py, PyType>, Option<Bound<'py, PyType>>)>,
) -> PyResult<bool> {
    let methods = Methods::of(&visitor, &methods)?;
    let boards = (tree.is_none() && methods.take_boards()).then(Vec::new);
    let mut driver = PyVisitor {
        py,
        visitor,
        methods,
        skip,
        boards,
        tree_spec: tree.map(|(child_class, headers_class)| TreeSpec {
            child_class,
            headers_class,
        }),
        tree: None,
        failed: None,
        parsed: None,
        san_error: None,
    };
    let found = read_game(&mut Lines::new(data), &mut driver);
    match driver.failed {
        Some(e) => Err(e),
        None => Ok(found),
    }
}
