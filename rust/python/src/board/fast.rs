//! `Board.push` and `Board.pop` with CPython's cheapest calling conventions (see
//! `crate::fast_methods` for why, and for the measurements).

use super::Board;
use crate::fast_methods::{self, no_arg_method, one_arg_method};
use pyo3::prelude::*;

/// The body of `push`.
///
/// # Safety
/// `slf` must be a `Board` (or an instance of a subclass). CPython guarantees that when it
/// calls the method through the descriptor `install_fast_methods` puts on `Board`.
unsafe fn push_body<'py>(
    slf: Borrowed<'_, 'py, PyAny>,
    r#move: Borrowed<'_, 'py, PyAny>,
) -> PyResult<Py<PyAny>> {
    // SAFETY: the caller guarantees that `slf` is a `Board`.
    let board = unsafe { slf.cast_unchecked::<Board>() };
    board.try_borrow_mut()?.push_move(&r#move)?;
    Ok(slf.py().None())
}

/// The body of `pop`.
///
/// # Safety
/// As for [`push_body`]: `slf` must be a `Board`.
unsafe fn pop_body(slf: Borrowed<'_, '_, PyAny>) -> PyResult<Py<PyAny>> {
    // SAFETY: the caller guarantees that `slf` is a `Board`.
    let board = unsafe { slf.cast_unchecked::<Board>() };
    let popped = board.try_borrow_mut()?.pop_move(slf.py())?;
    Ok(popped.into_any())
}

one_arg_method!(PUSH => push_body);
no_arg_method!(POP => pop_body);

/// Replaces PyO3's wrappers of the methods a search loop calls most.
pub(crate) fn install_fast_methods(py: Python<'_>) -> PyResult<()> {
    let class = py.get_type::<Board>();
    // SAFETY: `PUSH` and `POP` cast `self` to `Board`, and they are installed on `Board`
    // itself, whose method descriptors let CPython call them only with a `Board` (or a
    // subclass instance) as `self`.
    unsafe {
        fast_methods::install(
            &class,
            c"push",
            c"push($self, move, /)\n--\n\nPlays a move, as python-chess's ``push``: a legal or \
pseudo-legal move (``was_into_check()`` then tells whether the mover left its king attacked), \
or ``Move.null()``. Castling may be given as ``e1g1`` or ``e1h1``.\n\n:raises: \
:exc:`IllegalMoveError` if the move is not even pseudo-legal (or is a drop); the board is \
unchanged.",
            PUSH,
        )?;
        fast_methods::install(
            &class,
            c"pop",
            c"pop($self, /)\n--\n\nTakes back the last move and returns it.\n\n\
:raises: :exc:`IndexError` if no move was played.",
            POP,
        )?;
    }
    Ok(())
}
