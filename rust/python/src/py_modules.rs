//! Every Python object the bindings call into, looked up once and kept, as polars gathers
//! its Rust-to-Python imports in one `py_modules.rs`: the drawings of `pychess_rs.svg`, the
//! outcome and status classes of `pychess_rs.outcome`/`pychess_rs.types`, the board reader
//! of the tablebase probers (`pychess_rs._probe_board`), `functools.partial`
//! for pickling, and python-chess (imported on first use only: it is an optional dependency).

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// `module.attribute` (or the module itself for `None`), kept in `cell` once found; a failed
/// import is not kept, so it is tried again next time.
fn cached<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    attribute: Option<&str>,
) -> PyResult<&'py Bound<'py, PyAny>> {
    let object = cell.get_or_try_init(py, || {
        let module = py.import(module)?.into_any();
        match attribute {
            Some(name) => Ok::<_, PyErr>(module.getattr(name)?.unbind()),
            None => Ok(module.unbind()),
        }
    })?;
    Ok(object.bind(py))
}

/// The module `pychess_rs.svg`.
pub(crate) fn svg(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "pychess_rs.svg", None)
}

/// The enum `pychess_rs.outcome.Termination`.
pub(crate) fn termination(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "pychess_rs.outcome", Some("Termination"))
}

/// The class `pychess_rs.outcome.Outcome`.
pub(crate) fn outcome(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "pychess_rs.outcome", Some("Outcome"))
}

/// The flag class `pychess_rs.types.Status`.
pub(crate) fn status(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "pychess_rs.types", Some("Status"))
}

/// `functools.partial`.
pub(crate) fn partial(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "functools", Some("partial"))
}

/// `pychess_rs._probe_board.probe_board`: any board the tablebase probers accept, as a
/// pychess_rs `Board`.
pub(crate) fn probe_board(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "pychess_rs._probe_board", Some("probe_board"))
}

/// python-chess's module `chess`.
pub(crate) fn python_chess(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static CELL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    cached(py, &CELL, "chess", None)
}
