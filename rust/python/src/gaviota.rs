//! `GaviotaTablebase`: the `pychess-gaviota` prober seen from Python, behind
//! `pychess_rs.gaviota`'s `PythonTablebase` and `NativeTablebase`.
//!
//! Probes copy the board into Rust-owned data and run with the GIL released; the prober is
//! shared between threads as it is (its tables and block cache sit behind locks).

use crate::errors::Result;
use pychess_gaviota::{ProbeError, Tablebase};
use pyo3::prelude::*;
use std::path::PathBuf;

/// Gaviota tables, opened lazily, with a cache of decompressed blocks. Safe to share
/// between threads.
#[pyclass(module = "pychess_rs._core", name = "GaviotaTablebase", frozen)]
pub struct GaviotaTablebase {
    tables: Tablebase,
}

/// A probe of the Rust tablebase.
type Probe = fn(&Tablebase, &pychess_core::Board) -> std::result::Result<i32, ProbeError>;

impl GaviotaTablebase {
    /// Runs `probe` on a copy of the board with the GIL released (a board of another kind,
    /// python-chess's, read as the Syzygy prober reads it).
    fn probe(&self, board: &Bound<'_, PyAny>, probe: Probe) -> Result<i32> {
        let py = board.py();
        let position = crate::syzygy::position(board)?;
        let tables = &self.tables;
        Ok(py.detach(|| probe(tables, &position))?)
    }
}

#[pymethods]
impl GaviotaTablebase {
    /// No tables yet: see :meth:`add_directory`.
    #[new]
    fn new() -> GaviotaTablebase {
        GaviotaTablebase {
            tables: Tablebase::new(),
        }
    }

    /// Adds the ``*.gtb.cp4`` files of ``directory``; returns how many there are.
    ///
    /// :raises: :exc:`OSError` if ``directory`` is not a directory or cannot be listed.
    fn add_directory(&self, py: Python<'_>, directory: PathBuf) -> Result<usize> {
        let tables = &self.tables;
        Ok(py.detach(|| tables.add_directory(&directory))?)
    }

    /// The tables known: name (``"kqk"``) to path.
    fn available_tables(&self) -> Vec<(String, String)> {
        self.tables
            .available_tables()
            .into_iter()
            .map(|(name, path)| (name, path.to_string_lossy().into_owned()))
            .collect()
    }

    /// Depth to mate in plies, python-chess's sign convention. ``board`` is a pychess_rs
    /// ``Board`` or any board ``pychess_rs.gaviota`` reads (python-chess's).
    ///
    /// :raises: :exc:`KeyError` (``MissingTableError`` for missing material) if the position
    ///     cannot be probed; :exc:`OSError` if a table cannot be read.
    fn probe_dtm(&self, board: &Bound<'_, PyAny>) -> Result<i32> {
        self.probe(board, Tablebase::probe_dtm)
    }

    /// 1, 0 or -1: the side to move wins, draws or loses.
    ///
    /// :raises: as :meth:`probe_dtm`.
    fn probe_wdl(&self, board: &Bound<'_, PyAny>) -> Result<i32> {
        self.probe(board, Tablebase::probe_wdl)
    }

    /// Forgets every table and cached block.
    fn close(&self) {
        self.tables.close();
    }
}
