//! `Move`: from-square, to-square and promotion, as in python-chess.
//!
//! Move objects are immutable, so each distinct move is created once and shared: the
//! `intern` table makes listing legal moves and popping cost a reference-count bump
//! instead of an allocation, which is most of the per-move cost seen from Python.

use crate::convert::square_arg;
use crate::errors::move_error;
use pychess_core::{Role, UciMove};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// A move from a square to a square, possibly promoting (python-chess's ``Move``).
#[pyclass(module = "pychess_rs", name = "Move", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) uci: UciMove,
}

const PROMOTION_SLOTS: usize = 7;
const TABLE_SIZE: usize = 64 * 64 * PROMOTION_SLOTS;

static TABLE: [OnceLock<Py<Move>>; TABLE_SIZE] = [const { OnceLock::new() }; TABLE_SIZE];

/// The `Move` type object, recorded at module init so that recognising a `Move` argument is
/// one pointer comparison (PyO3's general downcast goes through its lazy type registry on
/// every call, a tenth of the cost of a `push`).
static MOVE_TYPE: AtomicPtr<ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());

/// Records the `Move` type object; called once from module init.
pub(crate) fn register_type(py: Python<'_>) {
    MOVE_TYPE.store(py.get_type::<Move>().as_type_ptr(), Ordering::Relaxed);
}

/// The move an argument holds, if it is a `Move`.
#[inline]
pub(crate) fn as_move<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, Move>> {
    let expected = MOVE_TYPE.load(Ordering::Relaxed);
    if !expected.is_null() && obj.get_type_ptr() == expected {
        // SAFETY: the object's type is exactly `Move` (a final class), so the cast is valid.
        return Some(unsafe { obj.cast_unchecked::<Move>() });
    }
    obj.cast::<Move>().ok()
}

/// The shared Python object for `uci`.
pub(crate) fn intern(py: Python<'_>, uci: UciMove) -> Py<Move> {
    let promotion = uci.promotion.map_or(0, |r| r as usize);
    let index = (uci.from.index() * 64 + uci.to.index()) * PROMOTION_SLOTS + promotion;
    TABLE[index]
        .get_or_init(|| Py::new(py, Move { uci }).expect("allocating a Move"))
        .clone_ref(py)
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        from_square: u32,
        to_square: u32,
        promotion: Option<u8>,
        drop: Option<u8>,
    ) -> PyResult<Move> {
        if drop.is_some() {
            return Err(PyValueError::new_err(
                "drops are not supported (no variants)",
            ));
        }
        let promotion = match promotion {
            Some(p) => Some(
                Role::from_number(p)
                    .ok_or_else(|| PyValueError::new_err(format!("invalid promotion: {p}")))?,
            ),
            None => None,
        };
        Ok(Move {
            uci: UciMove {
                from: square_arg(from_square, "from_square")?,
                to: square_arg(to_square, "to_square")?,
                promotion,
            },
        })
    }

    /// Parses ``e2e4``, ``e7e8q`` or ``0000``.
    ///
    /// :raises: :exc:`InvalidMoveError` if the text is not UCI.
    #[staticmethod]
    fn from_uci(py: Python<'_>, uci: &str) -> PyResult<Py<Move>> {
        let parsed = UciMove::parse(uci).map_err(move_error)?;
        Ok(intern(py, parsed))
    }

    /// The null move, ``0000``.
    #[staticmethod]
    fn null(py: Python<'_>) -> Py<Move> {
        intern(py, UciMove::NULL)
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's attribute name
    fn from_square(&self) -> usize {
        self.uci.from.index()
    }

    #[getter]
    #[allow(clippy::wrong_self_convention)] // python-chess's attribute name
    fn to_square(&self) -> usize {
        self.uci.to.index()
    }

    #[getter]
    fn promotion(&self) -> Option<u8> {
        self.uci.promotion.map(|r| r as u8)
    }

    /// Always ``None``: no drops in standard chess.
    #[getter]
    fn drop(&self) -> Option<u8> {
        None
    }

    /// The UCI text of the move.
    fn uci(&self) -> String {
        self.uci.to_string()
    }

    fn __str__(&self) -> String {
        self.uci.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.uci)
    }

    fn __bool__(&self) -> bool {
        !self.uci.is_null()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Move>().is_ok_and(|o| o.get().uci == self.uci)
    }

    fn __hash__(&self) -> u64 {
        let promotion = self.uci.promotion.map_or(0, |r| r as u64);
        ((self.uci.from.index() as u64) << 9) | ((self.uci.to.index() as u64) << 3) | promotion
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (String,))> {
        let from_uci = py.get_type::<Move>().getattr("from_uci")?.unbind();
        Ok((from_uci, (self.uci.to_string(),)))
    }

    fn __copy__(slf: Py<Move>) -> Py<Move> {
        slf
    }

    fn __deepcopy__(slf: Py<Move>, _memo: &Bound<'_, PyAny>) -> Py<Move> {
        slf
    }
}
