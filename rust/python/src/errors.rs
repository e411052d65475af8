//! The Python exception classes and the one place core errors become them.

use pychess_core::{FenError, MoveError};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    _core,
    InvalidFenError,
    PyValueError,
    "A FEN or EPD that is malformed or describes an illegal position."
);
create_exception!(
    _core,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move in the expected notation (UCI or SAN)."
);
create_exception!(
    _core,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position."
);
create_exception!(
    _core,
    AmbiguousMoveError,
    PyValueError,
    "A SAN that fits more than one legal move."
);

/// Core errors converted to their Python classes.
pub(crate) fn fen_error(e: FenError) -> PyErr {
    InvalidFenError::new_err(e.to_string())
}

/// Move errors converted to their Python classes.
pub(crate) fn move_error(e: MoveError) -> PyErr {
    let message = e.to_string();
    match e {
        MoveError::Invalid { .. } => InvalidMoveError::new_err(message),
        MoveError::Illegal { .. }
        | MoveError::NotPseudoLegal { .. }
        | MoveError::NoCastlingRook { .. }
        | MoveError::NoMatchingMove { .. }
        | MoveError::IllegalInLine { .. } => IllegalMoveError::new_err(message),
        MoveError::Ambiguous { .. } => AmbiguousMoveError::new_err(message),
    }
}
