//! PGN from Python: glue over `pychess-pgn`, whose one reader (`read_game`, driving a
//! `Visitor`) serves every face of `pychess_rs.pgn`:
//!
//! - `visitor.rs`: python-chess's visitors driven by that reader (`visit_pgn_game`, behind
//!   `pychess_rs.pgn.read_game`): the reader calls the Python methods a visitor overrides,
//!   with python-chess's boards and `SKIP` answers;
//! - `tree.rs`: python-chess's `GameBuilder` done in Rust for that driver: the node tree is
//!   made during the parse, without a Python call per move (`node.rs` makes the nodes);
//! - `bulk.rs`: the bulk reader (`PgnReader` yielding `PgnGame` records, GIL released);
//! - `text.rs`: a game's text cut from a handle as python-chess reads it, game boundaries.

mod bulk;
mod node;
mod text;
mod tree;
mod visitor;

use crate::errors::Error;
use pychess_pgn::PgnError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Adds the PGN classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bulk::PgnReader>()?;
    m.add_class::<bulk::PgnGame>()?;
    m.add_function(wrap_pyfunction!(visitor::visit_pgn_game, m)?)?;
    m.add_function(wrap_pyfunction!(text::read_game_text, m)?)?;
    m.add_function(wrap_pyfunction!(text::pgn_game_end, m)?)?;
    m.add_function(wrap_pyfunction!(text::pgn_next_game_start, m)?)?;
    Ok(())
}

/// A PGN error as the exception python-chess would have recorded in `game.errors`.
fn error_object(py: Python<'_>, error: &PgnError) -> Py<PyAny> {
    PyErr::from(Error::from(error.clone()))
        .into_value(py)
        .into_any()
}

/// Text the reader found (tags, comments, move tokens) as a Python string. The reader's input
/// is the handle's text in UTF-8 with lone surrogates kept (`surrogatepass`), so they are
/// decoded back the same way and the string is the one python-chess would have.
fn text<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let len = pyo3::ffi::Py_ssize_t::try_from(bytes.len())
        .map_err(|_| PyValueError::new_err("text too long"))?;
    // SAFETY: the pointer and length describe `bytes`, which outlives the call; the error
    // handler name is a NUL-terminated static string; the interpreter is attached (`py`).
    let object = unsafe {
        pyo3::ffi::PyUnicode_DecodeUTF8(bytes.as_ptr().cast(), len, c"surrogatepass".as_ptr())
    };
    // SAFETY: `object` is a new reference to a `str`, or NULL with an exception set.
    unsafe { Ok(Bound::from_owned_ptr_or_err(py, object)?.cast_into_unchecked()) }
}
