//! `PolyglotBook`: the `pychess-book` reader seen from Python, behind
//! `pychess_rs.polyglot.MemoryMappedReader`.
//!
//! Lookups copy the board into Rust-owned data and search the book with the GIL released;
//! the book itself sits behind an `Arc`, so a lookup in flight keeps it mapped while another
//! thread closes the reader. Entries come back as the `Entry` named tuples the Python module
//! hands over (their `_make`), moves as `Move` objects.

use crate::board::Board;
use crate::errors::Error;
use crate::moves::{as_move, from_value, intern, Move};
use pychess_book::{choose_uniform, choose_weighted, Book, BookError, Entry};
use pychess_core::UciMove;
use pyo3::exceptions::{PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// A Polyglot opening book mapped into memory (the engine of
/// ``pychess_rs.polyglot.MemoryMappedReader``). Safe to share between threads.
#[pyclass(module = "pychess_rs._core", name = "PolyglotBook", frozen)]
pub struct PolyglotBook {
    /// `None` once closed.
    book: RwLock<Option<Arc<Book>>>,
    /// The `Entry` class (a named tuple) and `tuple.__new__`, which builds one from a
    /// 5-tuple (a third of the time of the class's own `_make`, a Python function).
    entry_type: Py<PyAny>,
    tuple_new: Py<PyAny>,
}

/// The answer of a lookup: entries as the book holds them, each with its move value.
type Found = Vec<(Entry, UciMove)>;

impl PolyglotBook {
    fn book(&self) -> PyResult<Arc<Book>> {
        let guard = self.book.read().unwrap_or_else(|e| e.into_inner());
        guard
            .clone()
            .ok_or_else(|| PyValueError::new_err("the opening book is closed"))
    }

    fn entry_object(&self, py: Python<'_>, entry: Entry, m: Py<PyAny>) -> PyResult<Py<PyAny>> {
        self.entry_with_key(py, entry.key.into_pyobject(py)?.into_any(), entry, m)
    }

    /// An `Entry` whose key object is given (a position's entries share one).
    fn entry_with_key(
        &self,
        py: Python<'_>,
        key: Bound<'_, PyAny>,
        entry: Entry,
        m: Py<PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let row = PyTuple::new(
            py,
            [
                key,
                entry.raw_move.into_pyobject(py)?.into_any(),
                entry.weight.into_pyobject(py)?.into_any(),
                entry.learn.into_pyobject(py)?.into_any(),
                m.into_bound(py),
            ],
        )?;
        self.tuple_new.call1(py, (&self.entry_type, row))
    }

    /// An entry read by index, its move as the book writes it.
    fn raw_entry_object(&self, py: Python<'_>, entry: Entry) -> PyResult<Py<PyAny>> {
        let m = entry.raw().uci().map_err(Error::from)?;
        self.entry_object(py, entry, from_value(py, m)?.into_any())
    }

    /// The entries of one lookup (all of one key).
    fn objects(&self, py: Python<'_>, found: Found, on_board: bool) -> PyResult<Vec<Py<PyAny>>> {
        let Some((first, _)) = found.first() else {
            return Ok(Vec::new());
        };
        let key = first.key.into_pyobject(py)?.into_any();
        found
            .into_iter()
            .map(|(entry, m)| {
                let m = if on_board {
                    // Legal moves: the shared objects.
                    intern(py, m).into_any()
                } else {
                    from_value(py, m)?.into_any()
                };
                self.entry_with_key(py, key.clone(), entry, m)
            })
            .collect()
    }

    /// The entries for a board (legal moves, python-chess's castling) or a bare key (moves as
    /// written), with the GIL released.
    fn lookup(
        &self,
        position: &Bound<'_, PyAny>,
        minimum_weight: &Bound<'_, PyAny>,
        exclude_moves: &Bound<'_, PyAny>,
    ) -> PyResult<(Found, bool)> {
        let py = position.py();
        let book = self.book()?;
        let minimum = weight_floor(minimum_weight)?;
        let exclude = excluded(exclude_moves)?;
        if let Ok(board) = position.cast::<Board>() {
            let board = board.borrow().game.board().clone();
            let found = py.detach(|| book.find_all(&board, minimum, &exclude));
            let found = found.into_iter().map(|m| (m.entry, m.uci)).collect();
            return Ok((found, true));
        }
        // A key python-chess would compare with the book's u64 keys: none matches one out of
        // that range.
        let Ok(key) = position.extract::<u64>() else {
            return Ok((Vec::new(), false));
        };
        let found = py.detach(|| book.find_key(key, minimum, &exclude));
        Ok((found.map_err(Error::from)?, false))
    }
}

/// `minimum_weight` as a bound on u16 weights: at most 65536 (which nothing reaches), at
/// least 0.
fn weight_floor(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    if let Ok(weight) = value.extract::<i64>() {
        return Ok(weight.clamp(0, 65536) as u32);
    }
    let zero = 0i32.into_pyobject(value.py())?;
    if value.le(&zero)? {
        return Ok(0);
    }
    Ok(value.extract::<u32>().map_or(65536, |w| w.min(65536)))
}

/// The moves of `exclude_moves` (python-chess compares with `in`: only `Move` objects can be
/// equal to an entry's move, so anything else is left out).
fn excluded(moves: &Bound<'_, PyAny>) -> PyResult<Vec<UciMove>> {
    if !moves.is_truthy()? {
        return Ok(Vec::new());
    }
    let mut values = Vec::new();
    for item in moves.try_iter()? {
        if let Some(m) = as_move(&item?) {
            values.push(m.get().value());
        }
    }
    Ok(values)
}

/// The `randint` to call: the object's, or the `random` module's.
fn randint_of<'py>(
    py: Python<'py>,
    random: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    match random {
        Some(random) if !random.is_none() => random.getattr("randint"),
        _ => py.import("random")?.getattr("randint"),
    }
}

/// Calls `randint(low, high)`; an answer that is no u64 is one no entry index equals.
fn call_randint(randint: &Bound<'_, PyAny>, low: u64, high: u64) -> PyResult<u64> {
    Ok(randint
        .call1((low, high))?
        .extract::<u64>()
        .unwrap_or(u64::MAX))
}

#[pymethods]
impl PolyglotBook {
    /// Maps the book at ``filename`` (a path as ``str``, ``bytes`` or ``os.PathLike``);
    /// entries are made instances of ``entry_type``, a named tuple of five fields.
    ///
    /// :raises: :exc:`OSError` if the file cannot be opened or its size is not a multiple of
    ///     16 bytes.
    #[new]
    fn new(filename: &Bound<'_, PyAny>, entry_type: Py<PyAny>) -> PyResult<PolyglotBook> {
        let py = filename.py();
        let path: PathBuf = py
            .import("os")?
            .call_method1("fsdecode", (filename,))?
            .extract()?;
        let book = py.detach(|| Book::open(&path)).map_err(|err| match err {
            BookError::Io(err) => PyErr::from(err),
            BookError::Size { .. } => match filename.repr() {
                Ok(name) => PyOSError::new_err(format!(
                    "invalid file size: ensure {name} is a valid polyglot opening book"
                )),
                Err(err) => err,
            },
        })?;
        Ok(PolyglotBook {
            book: RwLock::new(Some(Arc::new(book))),
            entry_type,
            tuple_new: py.get_type::<PyTuple>().getattr("__new__")?.unbind(),
        })
    }

    /// The number of entries.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.book()?.len())
    }

    /// The entry at ``index`` (negative counts from the end), its move as the book writes it.
    ///
    /// :raises: :exc:`IndexError` past either end.
    fn entry(&self, py: Python<'_>, index: isize) -> PyResult<Py<PyAny>> {
        let book = self.book()?;
        let position = if index < 0 {
            index.checked_add_unsigned(book.len())
        } else {
            Some(index)
        };
        let entry = position
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| book.entry(i))
            .ok_or_else(|| PyIndexError::new_err("book index out of range"))?;
        self.raw_entry_object(py, entry)
    }

    /// The entries from ``start`` up to ``stop`` (clipped to the book), in file order.
    fn entries(&self, py: Python<'_>, start: usize, stop: usize) -> PyResult<Py<PyList>> {
        let book = self.book()?;
        let rows = (start..stop.min(book.len()))
            .filter_map(|i| book.entry(i))
            .map(|entry| self.raw_entry_object(py, entry))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyList::new(py, rows)?.unbind())
    }

    /// The index of the first entry whose key is not below ``key``.
    fn bisect_key_left(&self, key: u64) -> PyResult<usize> {
        Ok(self.book()?.bisect_key_left(key))
    }

    /// python-chess's ``find_all``, as a list: a ``Board``'s entries (legal moves only,
    /// castling as python-chess shows it) or a bare key's (moves as written).
    fn find_all(
        &self,
        position: &Bound<'_, PyAny>,
        minimum_weight: &Bound<'_, PyAny>,
        exclude_moves: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyList>> {
        let py = position.py();
        let (found, on_board) = self.lookup(position, minimum_weight, exclude_moves)?;
        Ok(PyList::new(py, self.objects(py, found, on_board)?)?.unbind())
    }

    /// python-chess's ``choice``: an entry, each equally likely, with ``random``'s
    /// ``randint`` (or the ``random`` module's) called as python-chess calls it.
    ///
    /// :raises: :exc:`IndexError` if there is no entry.
    #[pyo3(signature = (position, minimum_weight, exclude_moves, random = None))]
    fn choice(
        &self,
        position: &Bound<'_, PyAny>,
        minimum_weight: &Bound<'_, PyAny>,
        exclude_moves: &Bound<'_, PyAny>,
        random: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let py = position.py();
        let (mut found, on_board) = self.lookup(position, minimum_weight, exclude_moves)?;
        let randint = randint_of(py, random)?;
        let chosen = choose_uniform(found.len(), |low, high| call_randint(&randint, low, high))?
            .ok_or_else(|| PyIndexError::new_err("no entry in the book"))?;
        let one = found.swap_remove(chosen);
        let mut objects = self.objects(py, vec![one], on_board)?;
        Ok(objects.remove(0))
    }

    /// python-chess's ``weighted_choice``: an entry (of weight at least 1) chosen in
    /// proportion to its weight, with one ``randint(0, total - 1)`` call.
    ///
    /// :raises: :exc:`IndexError` if the weights add up to 0.
    #[pyo3(signature = (position, exclude_moves, random = None))]
    fn weighted_choice(
        &self,
        position: &Bound<'_, PyAny>,
        exclude_moves: &Bound<'_, PyAny>,
        random: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let py = position.py();
        let one = 1i32.into_pyobject(py)?;
        let (mut found, on_board) = self.lookup(position, &one, exclude_moves)?;
        let weights: Vec<u16> = found.iter().map(|(entry, _)| entry.weight).collect();
        let randint = randint_of(py, random)?;
        let chosen = choose_weighted(&weights, |low, high| call_randint(&randint, low, high))?
            .ok_or_else(|| PyIndexError::new_err("no entry in the book"))?;
        let one = found.swap_remove(chosen);
        let mut objects = self.objects(py, vec![one], on_board)?;
        Ok(objects.remove(0))
    }

    /// The engine's book move for ``board`` (``OwnBook``): chosen by weight with ``seed``
    /// mixed with the position's key, so the same position and seed give the same move;
    /// ``None`` when the book has no entry of weight 1 or more there.
    fn seeded_move(&self, board: &Bound<'_, Board>, seed: u64) -> PyResult<Option<Py<Move>>> {
        let py = board.py();
        let book = self.book()?;
        let board = board.borrow().game.board().clone();
        let found = py.detach(|| book.seeded_move(&board, seed));
        Ok(found.map(|m| intern(py, m.uci)))
    }

    /// Unmaps the book (lookups already running finish first); later calls raise
    /// :exc:`ValueError`.
    fn close(&self) {
        *self.book.write().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Is the book closed?
    #[getter]
    fn closed(&self) -> bool {
        self.book
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .is_none()
    }
}

/// A table of 781 keys laid out like Polyglot's (python-chess's ``ZobristHasher`` array),
/// converted once; :meth:`parts` hashes a board with it.
#[pyclass(module = "pychess_rs._core", name = "ZobristTable", frozen)]
pub struct ZobristTable {
    keys: Box<[u64; 781]>,
}

#[pymethods]
impl ZobristTable {
    /// The table of the first 781 numbers of ``array``.
    ///
    /// :raises: :exc:`ValueError` if it has fewer, or one is not a 64-bit unsigned integer.
    #[new]
    fn new(array: Vec<u64>) -> PyResult<ZobristTable> {
        let keys: [u64; 781] = array
            .get(..781)
            .and_then(|keys| keys.try_into().ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!("expected 781 keys, got {}", array.len()))
            })?;
        Ok(ZobristTable {
            keys: Box::new(keys),
        })
    }

    /// The key's parts for ``board``: ``(pieces, castling, en_passant, turn)``; their XOR is
    /// the key.
    fn parts(&self, board: PyRef<'_, Board>) -> (u64, u64, u64, u64) {
        let parts = board.game.board().zobrist_parts(&self.keys);
        (parts.pieces, parts.castling, parts.ep, parts.turn)
    }
}
