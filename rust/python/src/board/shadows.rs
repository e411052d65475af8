//! `Board`'s plain attributes: `turn`, `castling_rights`, `ep_square`, `halfmove_clock`,
//! `fullmove_number` and `chess960`, read as fast as python-chess reads its own.
//!
//! # Why
//!
//! python-chess keeps these as instance attributes, and CPython 3.11 reads an instance
//! attribute in about 15 ns (`LOAD_ATTR_INSTANCE_VALUE`). Any C getter costs more: CPython
//! calls a getset descriptor through a generic path (about 26 ns even for `(5).real`), and
//! PyO3's getter adds its own bookkeeping (30 ns for `board.turn`, half python-chess's speed).
//! The one C-level attribute CPython reads as cheaply as its own is a struct member of type
//! `Py_T_OBJECT_EX` (a `PyMemberDef`, what `__slots__` are made of): the specialised
//! `LOAD_ATTR_SLOT` instruction loads the object pointer at a fixed offset from the instance,
//! without any call (about 12 ns).
//!
//! # How
//!
//! Each `Board` keeps [`Shadows`]: one Python object per attribute, next to the Rust game,
//! and the class carries read-only `Py_T_OBJECT_EX` members pointing at them
//! ([`install_members`]; each offset is measured once, at module init, from a live instance
//! rather than computed from PyO3's private layout). The objects must never be stale, so the
//! game is not reachable mutably except through [`Board::game_mut`], whose guard refreshes the
//! shadows when it is dropped, and every fresh `Board` is built by [`Board::from_game`], which
//! fills them. The type system thereby checks that no mutation forgets a refresh. A refresh
//! compares each attribute's value with the one its object was made from and replaces only
//! the objects that changed: after a move that is the turn (a bool), the halfmove clock and
//! sometimes the en-passant square and fullmove number (small ints, which CPython caches), a
//! few nanoseconds per `push`.
//!
//! Writes such as `board.turn = BLACK` (python-chess allows them) go through `__setattr__`:
//! it updates the Rust board and then the shadows, and hands every other name to CPython's
//! generic `setattr`, so subclasses keep their own attributes. The cost of that choice is that
//! attribute writes on subclass instances no longer take CPython's specialised store path.
//!
//! `move_stack` is a Python list kept in step the same way: a push appends the move's shared
//! object, a pop removes the last item, and anything else that changes the stack's length
//! or its notation rebuilds the list. As in python-chess, the list is the board's own: code
//! that modifies it (rather than a copy) makes it disagree with the board.
//!
//! The bitboard attributes (`occupied`, `pawns`, ...) stay Rust getters: a move changes
//! several bitboards, and shadowing them would allocate a big int per changed bitboard on
//! every `push`, which the legal-play loops pay for and rarely read.

use super::Board;
use crate::moves::intern;
use pychess_core::{Board as CoreBoard, Game};
use pyo3::exceptions::PyAttributeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyNone, PyString};
use std::ffi::CStr;
use std::ops::{Deref, DerefMut};

/// The game of a `Board`, readable everywhere but mutable only through
/// [`Board::game_mut`], so that every change refreshes the shadows.
pub(crate) struct TrackedGame(Game);

impl Deref for TrackedGame {
    type Target = Game;

    fn deref(&self) -> &Game {
        &self.0
    }
}

/// One shadowed attribute: the Python object CPython reads and the value it was made from.
#[derive(Default)]
struct Slot {
    /// Never `None` once the board is built: a `Py_T_OBJECT_EX` member reading a null
    /// pointer would raise `AttributeError`.
    object: Option<Py<PyAny>>,
    value: u64,
}

impl Slot {
    /// Replaces the object if `value` changed; `make` builds the new one.
    #[inline]
    fn set(&mut self, py: Python<'_>, value: u64, make: impl FnOnce(Python<'_>) -> Py<PyAny>) {
        if self.value != value || self.object.is_none() {
            self.object = Some(make(py));
            self.value = value;
        }
    }

    fn clone_ref(&self, py: Python<'_>) -> Slot {
        Slot {
            object: self.object.as_ref().map(|o| o.clone_ref(py)),
            value: self.value,
        }
    }
}

/// `move_stack`: the list, and the length and notation it was last brought up to.
#[derive(Default)]
struct StackSlot {
    /// Never `None` once the board is built (as for [`Slot`]).
    list: Option<Py<PyList>>,
    len: usize,
    chess960: bool,
}

impl StackSlot {
    fn sync(&mut self, py: Python<'_>, game: &Game) -> PyResult<()> {
        let len = game.uci_moves().len();
        let chess960 = game.board().is_chess960();
        if let Some(list) = self.list.as_ref().filter(|_| chess960 == self.chess960) {
            let list = list.bind(py);
            if len == self.len {
                return Ok(());
            }
            // A push or a pop: the other moves are the same (every other change of the stack
            // builds a new board, or empties the stack).
            if len == self.len + 1 && list.len() == self.len {
                if let Some(last) = game.uci_moves().next_back() {
                    list.append(intern(py, last))?;
                    self.len = len;
                    return Ok(());
                }
            }
            if len + 1 == self.len && list.len() == self.len {
                list.del_item(len)?;
                self.len = len;
                return Ok(());
            }
        }
        let moves = game.uci_moves().map(|uci| intern(py, uci));
        self.list = Some(PyList::new(py, moves)?.unbind());
        self.len = len;
        self.chess960 = chess960;
        Ok(())
    }

    /// A copy with a list of its own (two boards must not share one).
    fn copy(&self, py: Python<'_>) -> StackSlot {
        StackSlot {
            list: self
                .list
                .as_ref()
                .map(|l| l.bind(py).get_slice(0, l.bind(py).len()).unbind()),
            len: self.len,
            chess960: self.chess960,
        }
    }
}

/// The Python objects of the attributes python-chess keeps as plain values.
#[derive(Default)]
pub(crate) struct Shadows {
    turn: Slot,
    castling_rights: Slot,
    ep_square: Slot,
    halfmove_clock: Slot,
    fullmove_number: Slot,
    chess960: Slot,
    move_stack: StackSlot,
}

/// The value an `Option<square>` is compared by: no square is `u64::MAX`.
const NO_SQUARE: u64 = u64::MAX;

fn int_object(py: Python<'_>, value: u64) -> Py<PyAny> {
    value
        .into_pyobject(py)
        .map_or_else(|e| match e {}, |o| o.into_any().unbind())
}

fn bool_object(py: Python<'_>, value: bool) -> Py<PyAny> {
    PyBool::new(py, value).to_owned().into_any().unbind()
}

impl Shadows {
    fn refresh(&mut self, py: Python<'_>, game: &Game) {
        if let Err(error) = self.move_stack.sync(py, game) {
            // Only a failed allocation gets here: start the list afresh next time.
            error.write_unraisable(py, None);
            self.move_stack = StackSlot::default();
            self.move_stack.list = Some(PyList::empty(py).unbind());
            self.move_stack.len = usize::MAX;
        }
        let board = game.board();
        let white = board.turn().is_white();
        self.turn
            .set(py, u64::from(white), |py| bool_object(py, white));
        let rights = board.castling_rights().0;
        self.castling_rights
            .set(py, rights, |py| int_object(py, rights));
        let ep = board.ep_square().map_or(NO_SQUARE, |sq| sq.index() as u64);
        self.ep_square.set(py, ep, |py| {
            if ep == NO_SQUARE {
                PyNone::get(py).to_owned().into_any().unbind()
            } else {
                int_object(py, ep)
            }
        });
        let clock = board.halfmove_clock();
        self.halfmove_clock
            .set(py, clock, |py| int_object(py, clock));
        let number = board.fullmove_number();
        self.fullmove_number
            .set(py, number, |py| int_object(py, number));
        let chess960 = board.is_chess960();
        self.chess960
            .set(py, u64::from(chess960), |py| bool_object(py, chess960));
    }

    fn clone_ref(&self, py: Python<'_>) -> Shadows {
        Shadows {
            turn: self.turn.clone_ref(py),
            castling_rights: self.castling_rights.clone_ref(py),
            ep_square: self.ep_square.clone_ref(py),
            halfmove_clock: self.halfmove_clock.clone_ref(py),
            fullmove_number: self.fullmove_number.clone_ref(py),
            chess960: self.chess960.clone_ref(py),
            move_stack: self.move_stack.copy(py),
        }
    }

    /// Each attribute's name, doc and the address of the object pointer it reads.
    fn members(&self) -> [(&'static CStr, &'static CStr, usize); 7] {
        let at = |slot: &Slot| std::ptr::addr_of!(slot.object) as usize;
        [
            (
                c"turn",
                c"``True`` (white) or ``False`` (black) to move. Writable (the move stack stays).",
                at(&self.turn),
            ),
            (
                c"castling_rights",
                c"Bitmask of the rooks that keep castling rights, as set (see \
``clean_castling_rights()``). Writable (the move stack stays).",
                at(&self.castling_rights),
            ),
            (
                c"ep_square",
                c"The en-passant square after a double step (even if no capture is possible), \
or None. Writable (the move stack stays).",
                at(&self.ep_square),
            ),
            (
                c"halfmove_clock",
                c"Half-moves since the last capture or pawn move. Writable.",
                at(&self.halfmove_clock),
            ),
            (
                c"fullmove_number",
                c"The move number, starting at 1 and incremented after Black's move. Writable.",
                at(&self.fullmove_number),
            ),
            (
                c"chess960",
                c"Chess960 castling notation. Writable: the position and the history stay.",
                at(&self.chess960),
            ),
            (
                c"move_stack",
                c"The moves played, oldest first: the board's own list, as in python-chess (copy \
it before changing it).",
                std::ptr::addr_of!(self.move_stack.list) as usize,
            ),
        ]
    }
}

/// The mutable game of a board; refreshes the board's shadows when dropped.
pub(crate) struct GameMut<'a, 'py> {
    board: &'a mut Board,
    py: Python<'py>,
}

impl Deref for GameMut<'_, '_> {
    type Target = Game;

    fn deref(&self) -> &Game {
        &self.board.game.0
    }
}

impl DerefMut for GameMut<'_, '_> {
    fn deref_mut(&mut self) -> &mut Game {
        &mut self.board.game.0
    }
}

impl Drop for GameMut<'_, '_> {
    fn drop(&mut self) {
        let board = &mut *self.board;
        board.shadows.refresh(self.py, &board.game.0);
    }
}

impl Board {
    /// A board playing `game`, its shadows filled.
    pub(crate) fn from_game(game: Game) -> Board {
        Python::attach(|py| {
            let mut shadows = Shadows::default();
            shadows.refresh(py, &game);
            Board {
                game: TrackedGame(game),
                shadows,
            }
        })
    }

    /// The game, mutably; the attributes CPython reads directly are refreshed when the
    /// returned guard is dropped.
    pub(crate) fn game_mut<'a, 'py>(&'a mut self, py: Python<'py>) -> GameMut<'a, 'py> {
        GameMut { board: self, py }
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Python::attach(|py| Board {
            game: TrackedGame(self.game.0.clone()),
            shadows: self.shadows.clone_ref(py),
        })
    }
}

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

/// Puts the read-only `Py_T_OBJECT_EX` members that read the shadows on `Board`, replacing
/// nothing (the attributes have no other descriptor).
pub(crate) fn install_members(py: Python<'_>) -> PyResult<()> {
    let class = py.get_type::<Board>();
    let basicsize: usize = class.getattr("__basicsize__")?.extract()?;
    let probe = Bound::new(py, Board::from_game(Game::new(CoreBoard::empty(false))))?;
    let start = probe.as_ptr() as usize;
    let probe_ref = probe.borrow();
    for (name, doc, field) in probe_ref.shadows.members() {
        let offset = field
            .checked_sub(start)
            .filter(|&o| o + std::mem::size_of::<usize>() <= basicsize)
            .ok_or_else(|| {
                pyo3::exceptions::PySystemError::new_err("Board's layout is not as expected")
            })?;
        // The member descriptor keeps a pointer to its definition for the life of the class
        // (the interpreter's): one small record per attribute is leaked on purpose.
        let definition = Box::leak(Box::new(ffi::PyMemberDef {
            name: name.as_ptr(),
            type_code: ffi::Py_T_OBJECT_EX,
            offset: offset as ffi::Py_ssize_t,
            flags: ffi::Py_READONLY,
            doc: doc.as_ptr(),
        }));
        // SAFETY: `class` is a live type object, `definition` outlives it, and the offset
        // points at an `Option<Py<..>>` (a nullable object pointer) inside every instance
        // of `Board` and of its subclasses, which share the base layout.
        let descriptor = unsafe {
            let raw = ffi::PyDescr_NewMember(class.as_type_ptr(), definition);
            Bound::from_owned_ptr_or_err(py, raw)?
        };
        class.setattr(
            name.to_str().expect("attribute names are ASCII"),
            descriptor,
        )?;
    }
    Ok(())
}
