//! `SyzygyTablebase`, `SyzygyWdlTable`, `SyzygyDtzTable` and the table-name functions: the
//! `pychess-syzygy` prober seen from Python, behind `pychess_rs.syzygy`.
//!
//! Probes copy the board into Rust-owned data and run with the GIL released; the tablebase is
//! safe to share between threads (its tables open once, in `OnceLock`s). Errors become
//! python-chess's classes through [`Error`].

use crate::board::Board;
use crate::errors::Result;
use crate::py_modules;
use pychess_syzygy::{DtzTable, Material, Tablebase, WdlTable};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};

/// The position of a board, owned: a pychess_rs ``Board`` as it is, any other board through
/// ``pychess_rs._probe_board.probe_board`` (python-chess boards by their FEN; variants
/// refused there). Both tablebase probers read their boards here.
pub(crate) fn position(board: &Bound<'_, PyAny>) -> PyResult<pychess_core::Board> {
    if let Ok(ours) = board.cast::<Board>() {
        return Ok(ours.borrow().game.board().clone());
    }
    let converted = py_modules::probe_board(board.py())?.call1((board,))?;
    let ours = converted.cast::<Board>()?;
    let position = ours.borrow().game.board().clone();
    Ok(position)
}

/// A set of Syzygy tables: the base class of ``pychess_rs.syzygy.Tablebase``, whose probes
/// are these methods (no Python frame between the caller and the prober).
#[pyclass(
    module = "pychess_rs._core",
    name = "SyzygyTablebase",
    frozen,
    subclass
)]
pub struct SyzygyTablebase {
    tables: Tablebase,
}

#[pymethods]
impl SyzygyTablebase {
    /// An empty tablebase (the arguments are the subclass's, read by its ``__init__``).
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn new(
        _args: &Bound<'_, pyo3::types::PyTuple>,
        _kwargs: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> SyzygyTablebase {
        SyzygyTablebase {
            tables: Tablebase::new(),
        }
    }

    /// Adds the table files of ``directory``; returns how many were found.
    ///
    /// :raises: :exc:`OSError` if the directory cannot be listed.
    #[pyo3(name = "_add_directory")]
    fn add_directory(
        &self,
        py: Python<'_>,
        directory: PathBuf,
        load_wdl: bool,
        load_dtz: bool,
    ) -> Result<usize> {
        Ok(py
            .detach(|| self.tables.add_directory(&directory, load_wdl, load_dtz))
            .map_err(PyErr::from)?)
    }

    /// Adds one table file if it is named as a table; 1 if added, else 0.
    #[pyo3(name = "_add_file")]
    fn add_file(&self, path: PathBuf, load_wdl: bool, load_dtz: bool) -> usize {
        self.tables.add_file(&path, load_wdl, load_dtz)
    }

    /// Win/draw/loss under the 50-move rule (python-chess's ``probe_wdl``).
    fn probe_wdl(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> Result<i32> {
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_wdl(&board))?)
    }

    /// Distance to zeroing, DTZ50'' with rounding (python-chess's ``probe_dtz``).
    fn probe_dtz(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> Result<i32> {
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_dtz(&board))?)
    }

    /// The WDL table's own value, no captures or en passant (``probe_wdl_table``).
    fn probe_wdl_table(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> Result<i32> {
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_wdl_table(&board))?)
    }

    /// ``probe_dtz`` without en passant (``probe_dtz_no_ep``).
    fn probe_dtz_no_ep(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> Result<i32> {
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_dtz_no_ep(&board))?)
    }

    /// The DTZ table's entry: ``(entry, 1)``, or ``(0, -1)`` for the side it does not store.
    fn probe_dtz_table(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        wdl: i32,
    ) -> Result<(i32, i32)> {
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_dtz_table(&board, wdl))?)
    }

    /// The WDL value within ``alpha..beta`` after captures, and 2 if a capture decided it
    /// (``threats`` matters for variants only).
    #[pyo3(signature = (board, alpha, beta, threats = false))]
    fn probe_ab(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        alpha: i32,
        beta: i32,
        threats: bool,
    ) -> Result<(i32, i32)> {
        let _ = threats;
        let board = position(board)?;
        Ok(py.detach(|| self.tables.probe_ab(&board, alpha, beta))?)
    }

    /// Forgets every table.
    fn close(&self) {
        self.tables.close();
    }
}

/// One table file, opened on first use and after ``close`` again.
struct OneTable<T> {
    path: PathBuf,
    table: RwLock<Option<Arc<T>>>,
}

impl<T> OneTable<T> {
    fn new(path: PathBuf) -> OneTable<T> {
        OneTable {
            path,
            table: RwLock::new(None),
        }
    }

    fn get(
        &self,
        open: impl FnOnce(&std::path::Path) -> pychess_syzygy::Result<T>,
    ) -> pychess_syzygy::Result<Arc<T>> {
        if let Some(table) = self
            .table
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            return Ok(table.clone());
        }
        let mut slot = self.table.write().unwrap_or_else(|e| e.into_inner());
        if let Some(table) = slot.as_ref() {
            return Ok(table.clone());
        }
        let table = Arc::new(open(&self.path)?);
        *slot = Some(table.clone());
        Ok(table)
    }

    fn close(&self) {
        *self.table.write().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// One WDL file (the engine of ``pychess_rs.syzygy.WdlTable``).
#[pyclass(module = "pychess_rs._core", name = "SyzygyWdlTable", frozen)]
pub struct SyzygyWdlTable {
    table: OneTable<WdlTable>,
}

#[pymethods]
impl SyzygyWdlTable {
    /// The table at ``path`` (not opened yet).
    #[new]
    fn new(path: PathBuf) -> SyzygyWdlTable {
        SyzygyWdlTable {
            table: OneTable::new(path),
        }
    }

    /// Opens and reads the file.
    ///
    /// :raises: :exc:`OSError` if it cannot be opened or is not a WDL table.
    fn init(&self, py: Python<'_>) -> Result<()> {
        py.detach(|| self.table.get(WdlTable::open))?;
        Ok(())
    }

    /// The stored value for ``board``.
    fn probe(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> Result<i32> {
        let board = position(board)?;
        Ok(py.detach(|| self.table.get(WdlTable::open)?.probe(&board))?)
    }

    /// Unmaps the file (a later probe maps it again).
    fn close(&self) {
        self.table.close();
    }
}

/// One DTZ file (the engine of ``pychess_rs.syzygy.DtzTable``).
#[pyclass(module = "pychess_rs._core", name = "SyzygyDtzTable", frozen)]
pub struct SyzygyDtzTable {
    table: OneTable<DtzTable>,
}

#[pymethods]
impl SyzygyDtzTable {
    /// The table at ``path`` (not opened yet).
    #[new]
    fn new(path: PathBuf) -> SyzygyDtzTable {
        SyzygyDtzTable {
            table: OneTable::new(path),
        }
    }

    /// Opens and reads the file.
    ///
    /// :raises: :exc:`OSError` if it cannot be opened or is not a DTZ table.
    fn init(&self, py: Python<'_>) -> Result<()> {
        py.detach(|| self.table.get(DtzTable::open))?;
        Ok(())
    }

    /// The stored entry for ``board`` of WDL value ``wdl``: ``(entry, 1)`` or ``(0, -1)``.
    fn probe(&self, py: Python<'_>, board: &Bound<'_, PyAny>, wdl: i32) -> Result<(i32, i32)> {
        let board = position(board)?;
        Ok(py.detach(|| self.table.get(DtzTable::open)?.probe(&board, wdl))?)
    }

    /// Unmaps the file (a later probe maps it again).
    fn close(&self) {
        self.table.close();
    }
}

/// python-chess's ``calc_key``: the board's material, White first (``"KBNvK"``).
#[pyfunction]
#[pyo3(signature = (board, mirror = false))]
pub fn syzygy_calc_key(board: &Bound<'_, Board>, mirror: bool) -> String {
    let material = Material::of(board.borrow().game.board());
    if mirror {
        material.mirrored().key()
    } else {
        material.key()
    }
}

/// python-chess's ``normalize_tablename``.
#[pyfunction]
#[pyo3(signature = (name, mirror = false))]
pub fn syzygy_normalize_tablename(name: &str, mirror: bool) -> Result<String> {
    Ok(pychess_syzygy::normalize_tablename(name, mirror)?)
}

/// python-chess's ``is_tablename``.
#[pyfunction]
pub fn syzygy_is_tablename(
    name: &str,
    one_king: bool,
    piece_count: Option<u32>,
    normalized: bool,
) -> bool {
    pychess_syzygy::is_tablename(name, one_king, piece_count, normalized)
}

/// python-chess's ``tablenames``.
#[pyfunction]
pub fn syzygy_tablenames(one_king: bool, piece_count: u32) -> Vec<String> {
    pychess_syzygy::tablenames(one_king, piece_count)
}

/// python-chess's ``dependencies``.
#[pyfunction]
pub fn syzygy_dependencies(target: &str, one_king: bool) -> Result<Vec<String>> {
    Ok(pychess_syzygy::dependencies(target, one_king)?)
}

/// python-chess's ``all_dependencies``.
#[pyfunction]
pub fn syzygy_all_dependencies(targets: Vec<String>, one_king: bool) -> Result<Vec<String>> {
    Ok(pychess_syzygy::all_dependencies(&targets, one_king)?)
}

/// python-chess's ``dtz_before_zeroing``.
#[pyfunction]
pub fn syzygy_dtz_before_zeroing(wdl: i32) -> i32 {
    pychess_syzygy::dtz_before_zeroing(wdl)
}

/// Adds the classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<SyzygyTablebase>()?;
    m.add_class::<SyzygyWdlTable>()?;
    m.add_class::<SyzygyDtzTable>()?;
    m.add_function(wrap_pyfunction!(syzygy_calc_key, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_normalize_tablename, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_is_tablename, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_tablenames, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_dependencies, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_all_dependencies, m)?)?;
    m.add_function(wrap_pyfunction!(syzygy_dtz_before_zeroing, m)?)?;
    m.add(
        "SyzygyMissingTableError",
        py.get_type::<crate::errors::syzygy::MissingTableError>(),
    )?;
    Ok(())
}
