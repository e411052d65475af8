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
//! fills them. The type system thereby checks that no mutation forgets a refresh.
//!
//! # Cost
//!
//! A refresh compares each attribute's value with the one its object was made from and
//! replaces only the objects that changed: after a move that is the turn, the halfmove clock
//! and often the en-passant square and fullmove number. The common values (bools, `None`,
//! ints below 1024) are shared objects held borrowed, so a change is a pointer store with no
//! reference counting (through the stable ABI each count is a function call). Measured with
//! callgrind on `push`/recurse/`pop` perft through Python (Kiwipete, depth 3, 97,862 leaves):
//! 1,972 instructions per leaf before this module, 2,147 with it (+8.9%: about 90 per `push`
//! and 90 per `pop`); replaying random games with python-chess's game-end questions at every
//! ply, 10,860 instructions per ply before, 11,052 with it (+1.8%). In wall-clock time a
//! `push` and `pop` pair went from 160-163 ns to 162-167 ns.
//! The attribute reads it buys: `board.turn` about 11 ns instead of 30 (python-chess: 12).
//!
//! # Not shadowed
//!
//! The bitboard attributes (`occupied`, `pawns`, ...) stay Rust getters (about 40 ns against
//! python-chess's 12): a move changes several bitboards, and shadowing them would allocate a
//! big int per changed bitboard on every `push`, which legal-play loops pay for and rarely
//! read. `move_stack` stays a getter too (`move_stack.rs`). Writes such as
//! `board.turn = BLACK` go through `__setattr__` (`setattr.rs`).

use super::Board;
use pychess_core::{Board as CoreBoard, Game};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::CStr;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Mutex, PoisonError};

/// The game of a `Board`, readable everywhere but mutable only through
/// [`Board::game_mut`], so that every change refreshes the shadows.
pub(crate) struct TrackedGame(pub(super) Game);

impl Deref for TrackedGame {
    type Target = Game;

    fn deref(&self) -> &Game {
        &self.0
    }
}

/// One shadowed attribute: the Python object CPython reads and the value it was made from.
///
/// A refresh runs after every `push` and `pop`, so it does without reference counting for the
/// common values: the bools, `None` and the ints of [`SHARED_INTS`] are held borrowed, kept
/// alive by CPython (the bools and `None` are static objects) or by that table, and a change
/// of attribute is a pointer store. Only other values (castling masks, long clocks) are
/// objects the slot owns (they change rarely). Counting references through the stable ABI
/// costs a function call each: owning every object cost about 50 more instructions per
/// `push`/`pop` perft leaf (2.4%, callgrind).
struct Slot {
    /// What CPython reads; null only while the board is being built (a `Py_T_OBJECT_EX`
    /// member reading null raises `AttributeError`).
    object: *mut ffi::PyObject,
    /// Does the slot own a reference to `object` (else it is a shared value)?
    owned: bool,
    value: u64,
}

// SAFETY: `object` is read, and its reference count changed, only with the interpreter
// attached (a `Python` token, or `Python::attach` in `Drop`), which serialises every access.
unsafe impl Send for Slot {}
// SAFETY: as for `Send`.
unsafe impl Sync for Slot {}

impl Default for Slot {
    fn default() -> Slot {
        Slot {
            object: std::ptr::null_mut(),
            owned: false,
            value: 0,
        }
    }
}

/// A new value for a [`Slot`].
enum Value {
    /// A value that lives at least as long as the module (borrowed).
    Shared(*mut ffi::PyObject),
    /// A reference the slot takes over.
    Owned(Py<PyAny>),
}

impl Slot {
    /// Replaces the object if `value` changed (always when `FILL`: a new board's slots are
    /// empty); `make` builds the new one.
    #[inline]
    fn set<const FILL: bool>(
        &mut self,
        py: Python<'_>,
        value: u64,
        make: impl FnOnce(Python<'_>) -> Value,
    ) {
        if !FILL && self.value == value {
            return;
        }
        let (object, owned) = match make(py) {
            Value::Shared(object) => (object, false),
            Value::Owned(object) => (object.into_ptr(), true),
        };
        let old = std::mem::replace(&mut self.object, object);
        if std::mem::replace(&mut self.owned, owned) {
            // SAFETY: the slot owned `old` (non-null when owned) and the interpreter is
            // attached, as `py` proves.
            unsafe { ffi::Py_DECREF(old) };
        }
        self.value = value;
    }

    fn clone_ref(&self, _py: Python<'_>) -> Slot {
        if self.owned {
            // SAFETY: `object` is a live object the slot owns; the interpreter is attached.
            unsafe { ffi::Py_INCREF(self.object) };
        }
        Slot { ..*self }
    }

    /// Gives up the slot's reference, if it owns one.
    fn clear(&mut self, _py: Python<'_>) {
        if std::mem::take(&mut self.owned) {
            // SAFETY: as in `set`.
            unsafe { ffi::Py_DECREF(self.object) };
        }
        self.object = std::ptr::null_mut();
    }
}

/// How many small ints [`SHARED_INTS`] holds: clocks, squares and move numbers of nearly
/// every game.
const SHARED_INT_COUNT: usize = 1024;

/// The ints 0..[`SHARED_INT_COUNT`], created at module init ([`install_members`]) and kept
/// for the life of the module, so that slots can hold them borrowed. A plain array of
/// pointers: a refresh reads it without the initialisation check a lazy cell costs.
static SHARED_INTS: [AtomicPtr<ffi::PyObject>; SHARED_INT_COUNT] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; SHARED_INT_COUNT];

/// Fills [`SHARED_INTS`] (once; the references are kept for the life of the module).
fn init_shared_ints(py: Python<'_>) {
    for (n, cell) in SHARED_INTS.iter().enumerate() {
        if cell.load(Ordering::Relaxed).is_null() {
            let object = (n as u64)
                .into_pyobject(py)
                .map_or_else(|e| match e {}, |o| o.into_any().unbind());
            cell.store(object.into_ptr(), Ordering::Relaxed);
        }
    }
}

#[inline]
fn int_value(py: Python<'_>, value: u64) -> Value {
    let shared = SHARED_INTS
        .get(value as usize)
        .map_or(std::ptr::null_mut(), |cell| cell.load(Ordering::Relaxed));
    if shared.is_null() {
        owned_int(py, value)
    } else {
        Value::Shared(shared)
    }
}

#[cold]
fn owned_int(py: Python<'_>, value: u64) -> Value {
    Value::Owned(
        value
            .into_pyobject(py)
            .map_or_else(|e| match e {}, |o| o.into_any().unbind()),
    )
}

fn bool_value(value: bool) -> Value {
    // SAFETY: `True` and `False` are static objects of the interpreter.
    Value::Shared(unsafe {
        if value {
            ffi::Py_True()
        } else {
            ffi::Py_False()
        }
    })
}

fn none_value() -> Value {
    // SAFETY: `None` is a static object of the interpreter.
    Value::Shared(unsafe { ffi::Py_None() })
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
}

impl Drop for Shadows {
    /// Releases the objects under one check of the interpreter state, not one per object.
    fn drop(&mut self) {
        Python::attach(|py| {
            for slot in [
                &mut self.turn,
                &mut self.castling_rights,
                &mut self.ep_square,
                &mut self.halfmove_clock,
                &mut self.fullmove_number,
                &mut self.chess960,
            ] {
                slot.clear(py);
            }
        });
    }
}

/// The value an `Option<square>` is compared by: no square is `u64::MAX`.
const NO_SQUARE: u64 = u64::MAX;

impl Shadows {
    /// Brings every slot up to `game`'s position (`FILL`: a new board's empty slots).
    fn refresh<const FILL: bool>(&mut self, py: Python<'_>, game: &Game) {
        let board = game.board();
        let white = board.turn().is_white();
        self.turn
            .set::<FILL>(py, u64::from(white), |_| bool_value(white));
        let rights = board.castling_rights().0;
        self.castling_rights
            .set::<FILL>(py, rights, |py| int_value(py, rights));
        let ep = board.ep_square().map_or(NO_SQUARE, |sq| sq.index() as u64);
        self.ep_square.set::<FILL>(py, ep, |py| {
            if ep == NO_SQUARE {
                none_value()
            } else {
                int_value(py, ep)
            }
        });
        let clock = board.halfmove_clock();
        self.halfmove_clock
            .set::<FILL>(py, clock, |py| int_value(py, clock));
        let number = board.fullmove_number();
        self.fullmove_number
            .set::<FILL>(py, number, |py| int_value(py, number));
        let chess960 = board.is_chess960();
        self.chess960
            .set::<FILL>(py, u64::from(chess960), |_| bool_value(chess960));
    }

    fn clone_ref(&self, py: Python<'_>) -> Shadows {
        Shadows {
            turn: self.turn.clone_ref(py),
            castling_rights: self.castling_rights.clone_ref(py),
            ep_square: self.ep_square.clone_ref(py),
            halfmove_clock: self.halfmove_clock.clone_ref(py),
            fullmove_number: self.fullmove_number.clone_ref(py),
            chess960: self.chess960.clone_ref(py),
        }
    }

    /// Each attribute's name, doc and the address of the object pointer it reads.
    fn members(&self) -> [(&'static CStr, &'static CStr, usize); 6] {
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
        board.shadows.refresh::<false>(self.py, &board.game.0);
        board
            .move_stack
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .note(&board.game.0);
    }
}

impl Board {
    /// A board playing `game`, its shadows filled.
    pub(crate) fn from_game(game: Game) -> Board {
        Python::attach(|py| {
            let mut shadows = Shadows::default();
            shadows.refresh::<true>(py, &game);
            Board {
                game: TrackedGame(game),
                shadows,
                move_stack: Mutex::default(),
                constructed: false,
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
            // A list of its own, made when first read: two boards must not share one.
            move_stack: Mutex::default(),
            constructed: false,
        })
    }
}

/// Puts the read-only `Py_T_OBJECT_EX` members that read the shadows on `Board`, replacing
/// nothing (the attributes have no other descriptor).
pub(crate) fn install_members(py: Python<'_>) -> PyResult<()> {
    init_shared_ints(py);
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
