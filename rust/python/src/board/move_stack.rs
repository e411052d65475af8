//! `Board.move_stack`: one list per board, as python-chess keeps, made and brought up to
//! date when it is read rather than on every move.
//!
//! Keeping a list in step with every `push` and `pop` cost 80 more instructions per move
//! (callgrind, perft through Python); a getter costs about 65 ns per read instead. The read
//! returns the board's own list, as python-chess does: the move guard (`GameMut`) notes the
//! shortest the stack has been since the last read (a comparison per move), and the read
//! deletes the moves above that and appends the new ones. As in python-chess the list is the
//! board's own; one changed by its user is replaced by a correct one at the next read.

use super::Board;
use crate::moves::{intern, interned};
use pychess_core::Game;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::PoisonError;

/// Releases `object` at once (the caller is attached, as `_py` proves).
#[inline]
fn release<T>(_py: Python<'_>, object: Option<Py<T>>) {
    if let Some(object) = object {
        // SAFETY: the interpreter is attached and `object` is an owned reference.
        unsafe { ffi::Py_DECREF(object.into_ptr()) }
    }
}

/// `move_stack`'s list, brought up to date when it is read (see the module docs).
#[derive(Default)]
pub(crate) struct StackCache {
    list: Option<Py<PyList>>,
    /// The stack length and notation the list was last brought up to.
    len: usize,
    chess960: bool,
    /// How many of the list's first moves are still the game's: the shortest the stack has
    /// been since the list was last brought up to date (pushes and pops keep the moves below
    /// it; every other change of the moves builds a new board or empties the stack).
    kept: usize,
}

impl StackCache {
    /// Notes a change of the game (from [`GameMut`]'s drop: a few instructions per move).
    #[inline]
    pub(super) fn note(&mut self, game: &Game) {
        self.kept = self.kept.min(game.uci_moves().len());
    }

    /// The list, brought up to `game`'s moves.
    fn get(&mut self, py: Python<'_>, game: &Game) -> PyResult<Py<PyList>> {
        let len = game.uci_moves().len();
        let chess960 = game.board().is_chess960();
        let current = self
            .list
            .as_ref()
            .filter(|list| self.chess960 == chess960 && list.bind(py).len() == self.len);
        match current {
            Some(list) => {
                let list = list.bind(py);
                let kept = self.kept.min(len);
                if kept < self.len {
                    list.del_slice(kept, self.len)?;
                }
                for uci in game.uci_moves().skip(kept) {
                    list.append(interned(py, uci))?;
                }
            }
            None => {
                // New, switched to the other notation, or changed by its user: afresh.
                let moves = game.uci_moves().map(|uci| intern(py, uci));
                release(py, self.list.replace(PyList::new(py, moves)?.unbind()));
            }
        }
        self.len = len;
        self.kept = len;
        self.chess960 = chess960;
        Ok(self
            .list
            .as_ref()
            .map(|list| list.clone_ref(py))
            .unwrap_or_else(|| PyList::empty(py).unbind()))
    }
}

#[pymethods]
impl Board {
    /// The moves played, oldest first: the board's own list, as in python-chess (copy it
    /// before changing it). The same list object is returned each time, brought up to date.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        // A lock, not `&mut self`: the list can be read while the board is borrowed (from a
        // callback such as `transform`'s); the interpreter lock already serialises readers.
        let mut cache = self
            .move_stack
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        cache.get(py, &self.game)
    }
}
