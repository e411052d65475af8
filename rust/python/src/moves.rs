//! `Move`: from-square, to-square, promotion and drop, as in python-chess.
//!
//! Move objects are immutable, so each distinct move is created once and shared: the
//! `intern` table makes listing legal moves and popping cost a reference-count bump
//! instead of an allocation, which is most of the per-move cost seen from Python.
//!
//! `from_square`, `to_square`, `promotion` and `drop` are plain attributes, as in
//! python-chess: `Py` fields of this frozen class, which PyO3 exposes as CPython struct
//! members (`Py_T_OBJECT_EX`) that CPython 3.11+ reads without calling into Rust (see
//! `crate::board::shadows` for why and for the figures). A Rust getter would cost twice
//! python-chess's attribute read.

use crate::convert::{move_like_fields, not_a_move, role_arg, square_arg};
use crate::errors::Result;
use pychess_core::notation::uci::UciDrop;
use pychess_core::{MoveError, Role, Square, UciMove};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyNone, PyString};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// A move from a square to a square, possibly promoting, or a drop (python-chess's ``Move``).
///
/// `uci` is what boards read. It is the move itself for the null move and for moves between
/// two different squares, and the core's drop value for a drop (which every board finds
/// illegal and names as the drop). A move python-chess allows from a square to itself (other
/// than the null move) means nothing on a board either: `uci` holds [`UNPLAYABLE`] there,
/// neither legal nor pseudo-legal, and never taken for the null move.
#[pyclass(module = "pychess_rs", name = "Move", frozen)]
pub struct Move {
    pub(crate) uci: UciMove,
    from: Square,
    to: Square,
    promotion: Option<Role>,
    drop: Option<Role>,
    /// The square the move starts from (the target square for a drop).
    #[pyo3(get, name = "from_square")]
    from_object: Py<PyAny>,
    /// The square the move goes to.
    #[pyo3(get, name = "to_square")]
    to_object: Py<PyAny>,
    /// The piece type promoted to, or ``None``.
    #[pyo3(get, name = "promotion")]
    promotion_object: Py<PyAny>,
    /// The piece type dropped (``P@e4``), or ``None``. No standard board accepts a drop.
    #[pyo3(get, name = "drop")]
    drop_object: Py<PyAny>,
    /// The UCI text, made once: most moves are shared objects asked for it many times.
    text_object: Py<PyString>,
}

/// A move no standard board generates: a king promotion.
const UNPLAYABLE: UciMove = UciMove {
    from: Square::new(0),
    to: Square::new(1),
    promotion: Some(Role::King),
};

/// What boards read for python-chess's `Move(from_square, to_square, promotion, drop)`
/// (see [`Move`]).
pub(crate) fn uci_of(
    from: Square,
    to: Square,
    promotion: Option<Role>,
    drop: Option<Role>,
) -> UciMove {
    let is_null = from.index() == 0 && to.index() == 0 && promotion.is_none();
    match drop {
        Some(role) => UciMove::from_drop(UciDrop { role, to }),
        None if from != to || is_null => UciMove {
            from,
            to,
            promotion,
        },
        None => UNPLAYABLE,
    }
}

impl Move {
    /// The move python-chess's `Move(from_square, to_square, promotion, drop)` makes.
    fn build(
        py: Python<'_>,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        drop: Option<Role>,
    ) -> Move {
        let uci = uci_of(from, to, promotion, drop);
        let int = |n: usize| {
            n.into_pyobject(py)
                .map_or_else(|e| match e {}, |o| o.into_any().unbind())
        };
        let role = |r: Option<Role>| match r {
            Some(r) => int(r as usize),
            None => PyNone::get(py).to_owned().into_any().unbind(),
        };
        let mut m = Move {
            uci,
            from,
            to,
            promotion,
            drop,
            text_object: PyString::intern(py, "").unbind(),
            from_object: int(from.index()),
            to_object: int(to.index()),
            promotion_object: role(promotion),
            drop_object: role(drop),
        };
        m.text_object = PyString::new(py, &m.text()).unbind();
        m
    }

    /// The move as the core's move value, drops included (`UciMove::from_drop`); a move
    /// from a square to itself keeps its squares. What a book's moves are compared with.
    pub(crate) fn value(&self) -> UciMove {
        match self.drop {
            Some(role) => UciMove::from_drop(UciDrop { role, to: self.to }),
            None => UciMove {
                from: self.from,
                to: self.to,
                promotion: self.promotion,
            },
        }
    }

    /// What identifies the move: python-chess compares and hashes these four fields.
    fn key(&self) -> (Square, Square, Option<Role>, Option<Role>) {
        (self.from, self.to, self.promotion, self.drop)
    }

    /// python-chess's truth value: everything but the null move is true.
    fn is_nonzero(&self) -> bool {
        self.from.index() != 0
            || self.to.index() != 0
            || self.promotion.is_some()
            || self.drop.is_some()
    }

    /// The move a board can read, unless it is the null move or one no board plays (a drop,
    /// or from == to).
    pub(crate) fn playable(&self) -> Option<UciMove> {
        let real = self.drop.is_none() && self.uci.from == self.from && self.uci.to == self.to;
        (real && self.is_nonzero()).then_some(self.uci)
    }

    /// The XBoard text: UCI, but `@@@@` for the null move.
    pub(crate) fn xboard(&self) -> String {
        if self.is_nonzero() {
            self.text()
        } else {
            "@@@@".to_string()
        }
    }

    /// The UCI text, as python-chess's `Move.uci()` writes it.
    fn text(&self) -> String {
        if let Some(role) = self.drop {
            UciDrop { role, to: self.to }.to_string()
        } else if let Some(role) = self.promotion {
            format!("{}{}{}", self.from, self.to, role.char())
        } else if self.is_nonzero() {
            format!("{}{}", self.from, self.to)
        } else {
            "0000".to_string()
        }
    }
}

/// `Move(...)`'s arguments, for pickling.
type MoveArgs = (usize, usize, Option<u8>, Option<u8>);

/// A move argument as our `Move`: itself, or one built from an object with python-chess's
/// move attributes (such as a `chess.Move`).
///
/// :raises: `TypeError` for an object with no move attributes.
pub(crate) fn move_object<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Move>> {
    if let Some(m) = as_move(value) {
        return Ok(m.clone());
    }
    let (from, to, promotion, drop) = move_like_fields(value)?.ok_or_else(|| not_a_move(value))?;
    Bound::new(
        value.py(),
        Move::build(value.py(), from, to, promotion, drop),
    )
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
    interned(py, uci).clone_ref(py)
}

/// The shared Python object for `uci`, borrowed from the table that keeps it for the life of
/// the module.
pub(crate) fn interned(py: Python<'_>, uci: UciMove) -> &'static Py<Move> {
    let promotion = uci.promotion.map_or(0, |r| r as usize);
    let index = (uci.from.index() * 64 + uci.to.index()) * PROMOTION_SLOTS + promotion;
    TABLE[index].get_or_init(|| {
        // The slots of moves from a square to itself with a piece are the drops' (no board
        // move has them): a played drop comes back as python-chess's drop `Move`.
        let m = match uci.as_drop() {
            Some(drop) => Move::build(py, drop.to, drop.to, None, Some(drop.role)),
            None => Move::build(py, uci.from, uci.to, uci.promotion, None),
        };
        Py::new(py, m).expect("allocating a Move")
    })
}

/// The `Move` for a move value that may also be a drop (`UciMove::from_drop`) or a move
/// from a square to itself, as a Polyglot book may hold (python-chess reads those too).
pub(crate) fn from_value(py: Python<'_>, uci: UciMove) -> PyResult<Py<Move>> {
    if let Some(drop) = uci.as_drop() {
        return Py::new(py, Move::build(py, drop.to, drop.to, None, Some(drop.role)));
    }
    if uci.from == uci.to && uci.from.index() != 0 {
        return Py::new(py, Move::build(py, uci.from, uci.to, None, None));
    }
    Ok(intern(py, uci))
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        py: Python<'_>,
        from_square: u32,
        to_square: u32,
        promotion: Option<u8>,
        drop: Option<u8>,
    ) -> PyResult<Move> {
        Ok(Move::build(
            py,
            square_arg(from_square, "from_square")?,
            square_arg(to_square, "to_square")?,
            role_arg(promotion, "promotion")?,
            role_arg(drop, "drop")?,
        ))
    }

    /// Parses ``e2e4``, ``e7e8q``, ``0000`` or a drop like ``N@f3``.
    ///
    /// :raises: :exc:`InvalidMoveError` if the text is not UCI.
    #[staticmethod]
    fn from_uci(py: Python<'_>, uci: &str) -> Result<Py<Move>> {
        // python-chess reads a drop only from exactly four characters: `Q@e4`.
        if uci.chars().nth(1) == Some('@') && uci.chars().count() == 4 {
            let drop = UciDrop::parse(uci).ok_or_else(|| MoveError::Invalid {
                text: uci.to_string(),
                notation: "uci",
            })?;
            return Ok(Py::new(
                py,
                Move::build(py, drop.to, drop.to, None, Some(drop.role)),
            )?);
        }
        Ok(intern(py, UciMove::parse(uci)?))
    }

    /// The null move, ``0000``: it passes the turn and is false in a boolean context.
    #[staticmethod]
    fn null(py: Python<'_>) -> Py<Move> {
        intern(py, UciMove::NULL)
    }

    /// The UCI text of the move (``P@e4`` for a drop, ``0000`` for the null move).
    fn uci(&self, py: Python<'_>) -> Py<PyString> {
        self.text_object.clone_ref(py)
    }

    /// The move for XBoard: as UCI, but ``@@@@`` for the null move.
    #[pyo3(name = "xboard")]
    fn py_xboard(&self) -> String {
        self.xboard()
    }

    fn __str__(&self, py: Python<'_>) -> Py<PyString> {
        self.text_object.clone_ref(py)
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.text())
    }

    fn __bool__(&self) -> bool {
        self.is_nonzero()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Move>()
            .is_ok_and(|o| o.get().key() == self.key())
    }

    fn __hash__(&self) -> u64 {
        let role = |r: Option<Role>| r.map_or(0, |r| r as u64);
        ((self.from.index() as u64) << 12)
            | ((self.to.index() as u64) << 6)
            | (role(self.promotion) << 3)
            | role(self.drop)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, MoveArgs)> {
        let cls = py.get_type::<Move>().into_any().unbind();
        Ok((
            cls,
            (
                self.from.index(),
                self.to.index(),
                self.promotion.map(|r| r as u8),
                self.drop.map(|r| r as u8),
            ),
        ))
    }

    fn __copy__(slf: Py<Move>) -> Py<Move> {
        slf
    }

    fn __deepcopy__(slf: Py<Move>, _memo: &Bound<'_, PyAny>) -> Py<Move> {
        slf
    }
}
