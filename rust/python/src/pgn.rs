//! PGN from Python: the bulk reader (`PgnReader`, yielding `PgnGame` records) and the
//! event stream of one game for the python-chess-shaped `pychess_rs.pgn` (`parse_game`).
//! The reading lives in `pychess-pgn`; this is glue. Reading runs with the GIL released.

use crate::errors::{AmbiguousMoveError, IllegalMoveError, InvalidFenError, InvalidMoveError};
use pychess_core::{Board as CoreBoard, Move as CoreMove};
use pychess_pgn::parser::{read_game, Visitor};
use pychess_pgn::reader::{decompress, Chunker, GameReader, ReadOptions, Source};
use pychess_pgn::{Condition, ErrorKind, Filter, GameRecord, Lines, Op, PgnError, TimeClass};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use std::fs::File;
use std::io::{self, Read};
use std::sync::Mutex;

/// A PGN error as the exception python-chess would have recorded in `game.errors`.
fn error_object(py: Python<'_>, error: &PgnError) -> PyResult<Py<PyAny>> {
    let message = error.message.clone();
    let err = match error.kind {
        ErrorKind::InvalidMove => InvalidMoveError::new_err(message),
        ErrorKind::IllegalMove => IllegalMoveError::new_err(message),
        ErrorKind::AmbiguousMove => AmbiguousMoveError::new_err(message),
        ErrorKind::Fen => InvalidFenError::new_err(message),
        ErrorKind::UnknownVariant | ErrorKind::UnsupportedVariant => PyValueError::new_err(message),
    };
    Ok(err.into_value(py).into_any())
}

/// Reads from a Python file object (binary or text) through its `read` method.
struct PyReader {
    file: Py<PyAny>,
    pending: Vec<u8>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let data = self.file.bind(py).call_method1("read", (1usize << 16,))?;
                if let Ok(bytes) = data.cast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else if let Ok(text) = data.cast::<PyString>() {
                    Ok(text.to_cow()?.as_bytes().to_vec())
                } else {
                    Err(PyTypeError::new_err(
                        "read() returned neither bytes nor str",
                    ))
                }
            })
            .map_err(|e| io::Error::other(e.to_string()))?;
            if chunk.is_empty() {
                return Ok(0);
            }
            self.pending = chunk;
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn parse_op(op: &str) -> PyResult<Op> {
    Ok(match op {
        "==" | "=" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        "contains" => Op::Contains,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown comparison {other:?} (use ==, !=, <, <=, >, >=, contains)"
            )))
        }
    })
}

/// The bulk reader: games of a PGN file or stream as light records, in order.
#[pyclass(module = "pychess_rs._core", name = "PgnReader", frozen)]
pub struct PgnReader {
    inner: Mutex<GameReader>,
}

#[pymethods]
impl PgnReader {
    /// `source` is a path (`str`) or a file object; `conditions` are `(tag, op, value)`
    /// triples, all of which must hold; `time_classes` names allowed time-control classes;
    /// `start`/`end` select the games starting in that byte range of an uncompressed file.
    #[new]
    #[pyo3(signature = (source, *, threads=1, fens=false, conditions=Vec::new(), time_classes=Vec::new(), start=None, end=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        threads: usize,
        fens: bool,
        conditions: Vec<(String, String, String)>,
        time_classes: Vec<String>,
        start: Option<u64>,
        end: Option<u64>,
    ) -> PyResult<PgnReader> {
        let mut filter = Filter::default();
        for (tag, op, value) in conditions {
            filter.conditions.push(Condition {
                tag,
                op: parse_op(&op)?,
                value,
            });
        }
        for name in time_classes {
            filter.time_classes.push(TimeClass::parse(&name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown time-control class {name:?} (bullet, blitz, rapid, standard, unlimited, unknown)"
                ))
            })?);
        }
        let chunker = if let Ok(path) = source.extract::<std::path::PathBuf>() {
            let ranged = start.is_some() || end.is_some();
            py.detach(|| -> io::Result<Chunker> {
                if ranged {
                    if pychess_pgn::reader::is_compressed(&path)? {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            "byte ranges need an uncompressed file",
                        ));
                    }
                    Chunker::for_range(
                        File::open(&path)?,
                        start.unwrap_or(0),
                        end.unwrap_or(u64::MAX),
                    )
                } else {
                    Ok(Chunker::new(decompress(Box::new(File::open(&path)?))?))
                }
            })
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?
        } else if source.hasattr("read")? {
            if start.is_some() || end.is_some() {
                return Err(PyValueError::new_err("byte ranges need a path"));
            }
            let reader: Source = Box::new(PyReader {
                file: source.clone().unbind(),
                pending: Vec::new(),
            });
            Chunker::new(
                py.detach(|| decompress(reader))
                    .map_err(|e| PyOSError::new_err(e.to_string()))?,
            )
        } else {
            return Err(PyTypeError::new_err(
                "source must be a path or a file object",
            ));
        };
        let options = ReadOptions { filter, fens };
        Ok(PgnReader {
            inner: Mutex::new(GameReader::new(chunker, options, threads.max(1))),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PgnGame>> {
        let next = py.detach(|| match self.inner.lock() {
            Ok(mut reader) => reader.next_game(),
            Err(_) => None,
        });
        match next {
            None => Ok(None),
            Some(Ok(record)) => Ok(Some(PgnGame { record })),
            Some(Err(e)) => Err(PyOSError::new_err(e.to_string())),
        }
    }
}

/// One game from the bulk reader: tags, mainline, result and errors (no node tree).
#[pyclass(module = "pychess_rs._core", name = "PgnGame", frozen)]
pub struct PgnGame {
    record: GameRecord,
}

#[pymethods]
impl PgnGame {
    /// Byte offset of the game's first line in the (decompressed) input.
    #[getter]
    fn offset(&self) -> u64 {
        self.record.offset
    }

    /// The tags, in file order.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in self.record.headers.iter() {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// One tag, or `default`.
    #[pyo3(signature = (name, default=None))]
    fn header(&self, name: &str, default: Option<String>) -> Option<String> {
        self.record.header(name).map(str::to_string).or(default)
    }

    /// `game.headers["Result"]` as python-chess would have it.
    #[getter]
    fn result(&self) -> &str {
        self.record.result()
    }

    /// Mainline moves in UCI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.ucis()
    }

    /// Mainline moves in SAN.
    #[getter]
    fn san(&self) -> Vec<String> {
        self.record.sans()
    }

    /// Number of mainline half-moves.
    #[getter]
    fn ply_count(&self) -> usize {
        self.record.moves.len()
    }

    /// FEN of the starting position.
    #[getter]
    fn start_fen(&self) -> String {
        self.record.start.fen()
    }

    /// FEN after each ply, the start first (computed now unless the reader made them).
    #[getter]
    fn fens(&self) -> Vec<String> {
        match &self.record.fens {
            Some(fens) => fens.clone(),
            None => self.record.boards().iter().map(CoreBoard::fen).collect(),
        }
    }

    /// The errors met, as the exceptions python-chess records.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .record
            .errors
            .iter()
            .map(|e| error_object(py, e))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    fn __repr__(&self) -> String {
        format!(
            "<PgnGame at {} ({:?} vs. {:?}, {} plies, {})>",
            self.record.offset,
            self.record.header("White").unwrap_or("?"),
            self.record.header("Black").unwrap_or("?"),
            self.record.moves.len(),
            self.record.result()
        )
    }
}

/// Events of one game for the Python node tree builder, as tuples:
/// `("header", name, value)`, `("board", fen, chess960)` once at the start,
/// `("move", uci, token)`, `("comment", text)`, `("nag", n)`, `("begin",)`, `("end",)`,
/// `("end_skip",)` (the end of a variation skipped after a bad move, whose position stays),
/// `("result", text)`, `("error", exception)` for the tags and `("error", exception, token)`
/// for a move token.
struct Events<'py> {
    py: Python<'py>,
    out: Vec<Bound<'py, PyTuple>>,
    error: Option<PyErr>,
    headers_only: bool,
    started: bool,
    /// The move token being resolved, for the `move` and `error` events.
    token: String,
}

impl<'py> Events<'py> {
    fn push<T>(&mut self, item: T)
    where
        T: pyo3::IntoPyObject<'py, Target = PyTuple, Output = Bound<'py, PyTuple>>,
        T::Error: Into<PyErr>,
    {
        if self.error.is_some() {
            return;
        }
        match item.into_pyobject(self.py) {
            Ok(t) => self.out.push(t),
            Err(e) => self.error = Some(e.into()),
        }
    }
}

impl Visitor for Events<'_> {
    fn visit_header(&mut self, name: &[u8], value: &[u8]) {
        let name = String::from_utf8_lossy(name).into_owned();
        let value = String::from_utf8_lossy(value).into_owned();
        self.push(("header", name, value));
    }
    fn end_headers(&mut self) -> bool {
        self.headers_only
    }
    fn visit_board(&mut self, board: &CoreBoard) {
        if !self.started {
            self.started = true;
            self.push(("board", board.fen(), board.is_chess960()));
        }
    }
    fn visit_move(&mut self, board: &CoreBoard, m: CoreMove) {
        let uci = if m.is_null() {
            "0000".to_string()
        } else {
            board.uci(m).to_string()
        };
        let token = std::mem::take(&mut self.token);
        self.push(("move", uci, token));
    }
    fn begin_parse_san(&mut self, _board: &CoreBoard, san: &[u8]) -> bool {
        self.token = String::from_utf8_lossy(san).into_owned();
        false
    }
    fn visit_comment(&mut self, comment: &[u8]) {
        self.push(("comment", String::from_utf8_lossy(comment).into_owned()));
    }
    fn visit_nag(&mut self, nag: u64) {
        self.push(("nag", nag));
    }
    fn begin_variation(&mut self) -> bool {
        self.push(("begin",));
        false
    }
    fn end_variation(&mut self) {
        self.push(("end",));
    }
    fn end_skipped_variation(&mut self) {
        self.push(("end_skip",));
    }
    fn visit_result(&mut self, result: &[u8]) {
        self.push(("result", String::from_utf8_lossy(result).into_owned()));
    }
    fn handle_error(&mut self, error: PgnError) {
        match error_object(self.py, &error) {
            // After the starting position, errors are about move tokens.
            Ok(obj) if self.started => {
                let token = std::mem::take(&mut self.token);
                self.push(("error", obj, token));
            }
            Ok(obj) => self.push(("error", obj)),
            Err(e) => self.error = Some(e),
        }
    }
}

/// Reads the first game of `data` (UTF-8 bytes), returning `(events, consumed)`: the event
/// tuples (see the module) and how many bytes the game took, or `None` when `data` holds no
/// game. With `headers_only` the movetext is skipped (python-chess's `read_headers`).
#[pyfunction]
#[pyo3(signature = (data, *, headers_only=false))]
pub fn parse_game<'py>(
    py: Python<'py>,
    data: &[u8],
    headers_only: bool,
) -> PyResult<Option<(Vec<Bound<'py, PyTuple>>, usize)>> {
    let mut lines = Lines::new(data);
    let mut events = Events {
        py,
        out: Vec::new(),
        error: None,
        headers_only,
        started: false,
        token: String::new(),
    };
    let found = read_game(&mut lines, &mut events);
    if let Some(e) = events.error {
        return Err(e);
    }
    Ok(found.then(|| (events.out, lines.position())))
}

/// The byte length of the first game of `data` (where python-chess's `read_game` stops),
/// or `None` when `data` holds no game.
#[pyfunction]
pub fn pgn_game_end(data: &[u8]) -> Option<usize> {
    pychess_pgn::game_end(data)
}

/// The first offset at or after `start` where a game starts in the uncompressed file
/// `path` (a tag line at the start of the file or after a blank line), or `None`.
#[pyfunction]
pub fn pgn_next_game_start(
    py: Python<'_>,
    path: std::path::PathBuf,
    start: u64,
) -> PyResult<Option<u64>> {
    py.detach(|| -> io::Result<Option<u64>> {
        let mut chunker = Chunker::for_range(File::open(&path)?, start, u64::MAX)?;
        Ok(chunker.next_batch(1)?.map(|b| b.games[0].2))
    })
    .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}

/// python-chess's `GameBuilder`, for the plain builder (`read_game`'s default): the node tree
/// is made here, during the parse, instead of from event tuples in Python. Each move becomes a
/// `ChildNode` with the fields its `__init__` sets (made through `object.__new__`, so no
/// Python frame runs per move); headers, the result and errors still go through the builder's
/// own methods, in the order python-chess calls them.
struct TreeBuilder<'py> {
    py: Python<'py>,
    builder: Bound<'py, PyAny>,
    child_class: Bound<'py, PyType>,
    object_new: Bound<'py, PyAny>,
    /// The builder's variation stack: the node each open line continues from, whether it is
    /// the game (the root, whose `parent` is None), and its `variations` list.
    stack: Vec<StackEntry<'py>>,
    starting_comment: String,
    in_variation: bool,
    error: Option<PyErr>,
    /// The game's `Headers` dictionaries (Seven Tag Roster, others), when they may be
    /// filled directly: parsed tag names and values always pass `Headers`'s checks.
    tags: Option<(Bound<'py, PyDict>, Bound<'py, PyDict>)>,
}

/// python-chess's `TAG_ROSTER`.
const TAG_ROSTER: [&[u8]; 7] = [
    b"Event", b"Site", b"Date", b"Round", b"White", b"Black", b"Result",
];

struct StackEntry<'py> {
    node: Bound<'py, PyAny>,
    is_root: bool,
    variations: Bound<'py, PyList>,
}

impl<'py> TreeBuilder<'py> {
    fn attempt(&mut self, step: impl FnOnce(&mut Self) -> PyResult<()>) {
        if self.error.is_none() {
            if let Err(e) = step(self) {
                self.error = Some(e);
            }
        }
    }

    /// The node the current line continues from.
    fn top_entry(&self) -> PyResult<&StackEntry<'py>> {
        // The parser pairs every end of a variation with its start, so the game stays.
        self.stack
            .last()
            .ok_or_else(|| PyValueError::new_err("the PGN tree builder lost its variation stack"))
    }

    fn top(&self) -> PyResult<&Bound<'py, PyAny>> {
        Ok(&self.top_entry()?.node)
    }

    fn add_child(&mut self, m: Py<crate::moves::Move>) -> PyResult<()> {
        let py = self.py;
        let node = self.object_new.call1((&self.child_class,))?;
        let starting = std::mem::take(&mut self.starting_comment);
        let top = self.top_entry()?;
        let variations = PyList::empty(py);
        node.setattr(pyo3::intern!(py, "parent"), &top.node)?;
        node.setattr(pyo3::intern!(py, "move"), m)?;
        node.setattr(pyo3::intern!(py, "variations"), &variations)?;
        // Empty comments and `nags` stay unset: the node class reads them as "" and gives a
        // node its NAG set when first asked.
        if !starting.is_empty() {
            node.setattr(pyo3::intern!(py, "starting_comment"), starting)?;
        }
        top.variations.append(&node)?;
        if let Some(last) = self.stack.last_mut() {
            *last = StackEntry {
                node,
                is_root: false,
                variations,
            };
        }
        self.in_variation = true;
        Ok(())
    }

    fn add_comment(&mut self, comment: &str) -> PyResult<()> {
        let py = self.py;
        let top = self.top_entry()?;
        let at_end = top.is_root && top.variations.is_empty();
        if self.in_variation || at_end {
            let old: String = top.node.getattr(pyo3::intern!(py, "comment"))?.extract()?;
            top.node
                .setattr(pyo3::intern!(py, "comment"), join_comments(&old, comment))?;
        } else {
            self.starting_comment = join_comments(&self.starting_comment, comment);
        }
        Ok(())
    }
}

/// The `variations` list of a node.
fn variations_of<'py>(node: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    Ok(node
        .getattr(pyo3::intern!(node.py(), "variations"))?
        .cast_into::<PyList>()?)
}

/// `" ".join(filter(None, [a, b]))`: the two comments, a space between when both are there.
fn join_comments(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

impl Visitor for TreeBuilder<'_> {
    fn visit_header(&mut self, name: &[u8], value: &[u8]) {
        let roster = TAG_ROSTER.contains(&name);
        let name = String::from_utf8_lossy(name).into_owned();
        let value = String::from_utf8_lossy(value).into_owned();
        if let Some((roster_tags, other_tags)) = &self.tags {
            let dict = if roster { roster_tags } else { other_tags };
            if let Err(e) = dict.set_item(name, value) {
                self.error.get_or_insert(e);
            }
            return;
        }
        self.attempt(|b| {
            b.builder
                .call_method1(pyo3::intern!(b.py, "visit_header"), (name, value))
                .map(drop)
        });
    }
    fn visit_move(&mut self, board: &CoreBoard, m: CoreMove) {
        let uci = if m.is_null() {
            pychess_core::UciMove::NULL
        } else {
            board.uci(m)
        };
        let m = crate::moves::intern(self.py, uci);
        self.attempt(|b| b.add_child(m));
    }
    fn visit_comment(&mut self, comment: &[u8]) {
        let comment = String::from_utf8_lossy(comment).into_owned();
        self.attempt(|b| b.add_comment(&comment));
    }
    fn visit_nag(&mut self, nag: u64) {
        self.attempt(|b| {
            b.top()?
                .getattr(pyo3::intern!(b.py, "nags"))?
                .call_method1(pyo3::intern!(b.py, "add"), (nag,))
                .map(drop)
        });
    }
    fn begin_variation(&mut self) -> bool {
        self.attempt(|b| {
            let parent = b.top()?.getattr(pyo3::intern!(b.py, "parent"))?;
            if parent.is_none() {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "begin_variation called, but root node on top of stack",
                ));
            }
            let is_root = parent.getattr(pyo3::intern!(b.py, "parent"))?.is_none();
            let variations = variations_of(&parent)?;
            b.stack.push(StackEntry {
                node: parent,
                is_root,
                variations,
            });
            b.in_variation = false;
            Ok(())
        });
        false
    }
    fn end_variation(&mut self) {
        self.stack.pop();
    }
    fn end_skipped_variation(&mut self) {
        self.stack.pop();
    }
    fn visit_result(&mut self, result: &[u8]) {
        let result = String::from_utf8_lossy(result).into_owned();
        self.attempt(|b| {
            b.builder
                .call_method1(pyo3::intern!(b.py, "visit_result"), (result,))
                .map(drop)
        });
    }
    fn handle_error(&mut self, error: PgnError) {
        self.attempt(|b| {
            let obj = error_object(b.py, &error)?;
            b.builder
                .call_method1(pyo3::intern!(b.py, "handle_error"), (obj,))
                .map(drop)
        });
    }
}

/// Reads the first game of `data` (UTF-8 bytes) into `builder`, a plain python-chess-shaped
/// `GameBuilder` whose `begin_game` has run: its game gets the headers, the node tree (nodes
/// of `child_class`), the result and the errors. `tags`, when given, are the game's `Headers`
/// dictionaries (Seven Tag Roster, others), filled directly instead of through the builder.
/// Returns how many bytes the game took, or `None` when `data` holds no game.
#[pyfunction]
#[pyo3(signature = (data, builder, child_class, tags=None))]
pub fn build_game_tree<'py>(
    py: Python<'py>,
    data: &[u8],
    builder: Bound<'py, PyAny>,
    child_class: Bound<'py, PyType>,
    tags: Option<(Bound<'py, PyDict>, Bound<'py, PyDict>)>,
) -> PyResult<Option<usize>> {
    let game = builder.getattr(pyo3::intern!(py, "game"))?;
    let object_new = py
        .get_type::<pyo3::types::PyAny>()
        .getattr(pyo3::intern!(py, "__new__"))?;
    let variations = variations_of(&game)?;
    let mut tree = TreeBuilder {
        py,
        builder,
        child_class,
        object_new,
        stack: vec![StackEntry {
            node: game,
            is_root: true,
            variations,
        }],
        starting_comment: String::new(),
        in_variation: false,
        error: None,
        tags,
    };
    let mut lines = Lines::new(data);
    let found = read_game(&mut lines, &mut tree);
    if let Some(e) = tree.error {
        return Err(e);
    }
    Ok(found.then(|| lines.position()))
}

/// The lines of the next game from a text handle, read with its `readline` exactly as
/// python-chess's `read_game` consumes them (its fast path for a skipped game ends where
/// its parser ends: a blank line outside a comment), as UTF-8 bytes (lone surrogates kept
/// with `surrogatepass`), or `None` at the end of the file. Nothing past the game is read,
/// so the handle stays where python-chess would leave it.
#[pyfunction]
pub fn read_game_text<'py>(
    py: Python<'py>,
    handle: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let readline = handle.getattr(pyo3::intern!(py, "readline"))?;
    let mut text: Vec<u8> = Vec::new();
    // Appends the next line to `text`; returns its range there (empty at the end).
    let next_line = |text: &mut Vec<u8>| -> PyResult<std::ops::Range<usize>> {
        let line = readline.call0()?;
        let Ok(line) = line.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "read_game needs a text handle: readline() returned {}",
                line.get_type()
            )));
        };
        let start = text.len();
        match line.to_cow() {
            Ok(s) => text.extend_from_slice(s.as_bytes()),
            Err(_) => {
                let encoded = line.call_method1(
                    pyo3::intern!(py, "encode"),
                    (
                        pyo3::intern!(py, "utf-8"),
                        pyo3::intern!(py, "surrogatepass"),
                    ),
                )?;
                text.extend_from_slice(encoded.cast::<PyBytes>()?.as_bytes());
            }
        }
        Ok(start..text.len())
    };
    let is_comment = |line: &[u8]| matches!(line.first(), Some(b'%' | b';'));
    // `str.isspace()`: non-empty and all whitespace.
    let is_blank = |line: &[u8]| !line.is_empty() && pychess_pgn::lines::is_all_space(line);
    const BOM: &[u8] = "\u{feff}".as_bytes();

    let mut range = next_line(&mut text)?;
    // python-chess tests the first line without its BOMs (the parser strips them itself).
    let mut first = &text[range.clone()];
    while let Some(rest) = first.strip_prefix(BOM) {
        first = rest;
    }
    let mut blank_or_comment = is_blank(first) || is_comment(first);
    while blank_or_comment {
        range = next_line(&mut text)?;
        let line = &text[range.clone()];
        blank_or_comment = is_blank(line) || is_comment(line);
    }
    // The tag section: comment lines and one blank line between tags are allowed.
    let mut found = false;
    let mut empty = 0;
    loop {
        let line = if range.start == 0 {
            let mut l = &text[range.clone()];
            while let Some(rest) = l.strip_prefix(BOM) {
                l = rest;
            }
            l
        } else {
            &text[range.clone()]
        };
        if line.is_empty() {
            break;
        }
        let comment = is_comment(line);
        if comment || (empty < 1 && is_blank(line)) {
            if !comment {
                empty += 1;
            }
            range = next_line(&mut text)?;
            continue;
        }
        found = true;
        if line.first() != Some(&b'[') {
            break;
        }
        empty = 0;
        range = next_line(&mut text)?;
    }
    if !found {
        return Ok(None);
    }
    // The movetext: up to a blank line outside a comment.
    let mut in_comment = false;
    loop {
        let line = &text[range.clone()];
        if line.is_empty() {
            break;
        }
        if !in_comment {
            if is_blank(line) {
                break;
            }
            if line.first() == Some(&b'%') {
                range = next_line(&mut text)?;
                continue;
            }
        }
        for &b in line {
            match b {
                b'{' => in_comment = true,
                b';' if !in_comment => break,
                b'}' => in_comment = false,
                _ => {}
            }
        }
        range = next_line(&mut text)?;
    }
    Ok(Some(PyBytes::new(py, &text)))
}
