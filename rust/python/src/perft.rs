//! Perft suite lines for the Python tools: the core reads the format, Python gets a dict.

use pychess_core::perft::parse_suite_line;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// ``FEN ;D1 20 ;D2 400`` -> ``(fen, {1: 20, 2: 400})``; ``None`` for blank and ``#`` lines.
///
/// :raises: :exc:`ValueError` if a count field is not ``D<depth> <nodes>``.
#[pyfunction]
pub(crate) fn parse_perft_line<'py>(
    py: Python<'py>,
    line: &str,
) -> PyResult<Option<(String, Bound<'py, PyDict>)>> {
    let Some(entry) = parse_suite_line(line).map_err(PyValueError::new_err)? else {
        return Ok(None);
    };
    let counts = PyDict::new(py);
    for (depth, nodes) in entry.counts {
        counts.set_item(depth, nodes)?;
    }
    Ok(Some((entry.fen, counts)))
}
