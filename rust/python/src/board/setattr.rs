//! `Board.__setattr__`/`__delattr__`: writes such as `board.turn = BLACK` (python-chess
//! allows them) update the Rust board and then the shadows (`shadows.rs`); every other name
//! goes to CPython's generic `setattr`, so subclasses keep their own attributes. The cost of
//! that choice is that attribute writes on subclass instances no longer take CPython's
//! specialised store path.

use super::Board;
use pyo3::exceptions::PyAttributeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The names `__setattr__` handles itself.
fn is_shadowed(name: &str) -> bool {
    matches!(
        name,
        "turn"
            | "castling_rights"
            | "ep_square"
            | "halfmove_clock"
            | "fullmove_number"
            | "chess960"
    )
}

/// CPython's generic `setattr` (`value` None deletes), for every other name.
fn generic_setattr(
    slf: &Bound<'_, Board>,
    name: &Bound<'_, PyString>,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let value = value.map_or(std::ptr::null_mut(), |v| v.as_ptr());
    // SAFETY: all three are live objects (or NULL for a deletion, which CPython's generic
    // `setattr` accepts), and the interpreter is attached.
    let status = unsafe { ffi::PyObject_GenericSetAttr(slf.as_ptr(), name.as_ptr(), value) };
    if status == 0 {
        Ok(())
    } else {
        Err(PyErr::fetch(slf.py()))
    }
}

#[pymethods]
impl Board {
    /// Writes the shadowed attributes to the Rust board; other names go to CPython's generic
    /// `setattr` (class setters, or a subclass instance's own attributes).
    fn __setattr__(
        slf: &Bound<'_, Board>,
        name: &Bound<'_, PyString>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let text = name.to_cow()?;
        if !is_shadowed(&text) {
            return generic_setattr(slf, name, Some(value));
        }
        let py = slf.py();
        // Each value is converted before the board is borrowed: a conversion may run Python
        // code (`__index__`, `__bool__`) that reads the board.
        match &*text {
            "turn" => {
                let turn: bool = value.extract()?;
                slf.try_borrow_mut()?.set_turn(py, turn);
            }
            "castling_rights" => {
                let rights: u64 = value.extract()?;
                slf.try_borrow_mut()?.set_castling_rights(py, rights);
            }
            "ep_square" => {
                let square: Option<u32> = value.extract()?;
                slf.try_borrow_mut()?.set_ep_square(py, square)?;
            }
            "halfmove_clock" => {
                let clock: u64 = value.extract()?;
                slf.try_borrow_mut()?.set_halfmove_clock(py, clock);
            }
            "fullmove_number" => {
                let number: u64 = value.extract()?;
                slf.try_borrow_mut()?.set_fullmove_number(py, number);
            }
            _ => {
                let chess960: bool = value.extract()?;
                slf.try_borrow_mut()?.game_mut(py).set_chess960(chess960);
            }
        }
        Ok(())
    }

    fn __delattr__(slf: &Bound<'_, Board>, name: &Bound<'_, PyString>) -> PyResult<()> {
        let text = name.to_cow()?;
        if is_shadowed(&text) {
            return Err(PyAttributeError::new_err(format!(
                "cannot delete attribute {text:?} of Board"
            )));
        }
        generic_setattr(slf, name, None)
    }
}
