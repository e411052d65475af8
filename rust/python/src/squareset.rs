//! `SquareSet`: a set of squares backed by a 64-bit mask, as python-chess returns from
//! `attackers`, `checkers` and `pin`. It compares equal to its integer mask, and every
//! operation takes what python-chess's constructor takes: another set, anything with
//! `__int__` (an int mask, masked to 64 bits) or an iterable of squares.

use crate::convert::square_arg;
use pychess_core::{attacks, Bitboard};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple, PyType};

/// A set of squares (python-chess's ``SquareSet``).
#[pyclass(module = "pychess_rs", name = "SquareSet")]
#[derive(Clone, Copy)]
pub struct SquareSet {
    pub(crate) mask: u64,
}

/// The error for a square off the board: an `IndexError`, as python-chess's list lookup
/// raises, that is also a `ValueError`, as our other square arguments raise (code written
/// for either catches it).
fn off_board(py: Python<'_>, message: String) -> PyErr {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let made = TYPE.get_or_try_init(py, || -> PyResult<Py<PyType>> {
        let bases = (py.get_type::<PyIndexError>(), py.get_type::<PyValueError>());
        let namespace = PyDict::new(py);
        namespace.set_item("__module__", "pychess_rs")?;
        let class = py
            .get_type::<PyType>()
            .call1(("SquareIndexError", bases, namespace))?;
        Ok(class.cast_into::<PyType>()?.unbind())
    });
    match made {
        Ok(class) => PyErr::from_type(class.bind(py).clone(), message),
        Err(e) => e,
    }
}

/// The square a Python index names, as python-chess's `BB_SQUARES[square]` reads it: an int
/// from 0 to 63, or -64 to -1 counted from the end.
fn square_index(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    let index: i64 = value.extract().map_err(|_| {
        let name = value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("square must be an int, not {name}"))
    })?;
    let wrapped = if index < 0 { index + 64 } else { index };
    u32::try_from(wrapped)
        .ok()
        .filter(|&sq| sq < 64)
        .ok_or_else(|| off_board(value.py(), format!("square index out of range: {index}")))
}

/// The mask `SquareSet(value)` would hold.
pub(crate) fn mask_of(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(set) = value.cast::<SquareSet>() {
        return Ok(set.borrow().mask);
    }
    if let Ok(mask) = value.extract::<u64>() {
        return Ok(mask);
    }
    // Negative or wider ints and other objects with `__int__` keep their low 64 bits, two's
    // complement, as Python's `& BB_ALL` keeps them.
    if value.is_instance_of::<PyInt>() || value.hasattr("__int__")? {
        let int = value.call_method0("__int__")?;
        return int.bitand(u64::MAX)?.extract();
    }
    let mut mask = 0u64;
    for item in value.try_iter()? {
        mask |= 1u64 << square_index(&item?)?;
    }
    Ok(mask)
}

/// A shift count as Python's `<<`/`>>` take it: negative counts are an error.
fn shift_count(shift: i64) -> PyResult<u32> {
    u32::try_from(shift).map_err(|_| PyValueError::new_err("negative shift count"))
}

fn shl(mask: u64, shift: u32) -> u64 {
    mask.checked_shl(shift).unwrap_or(0)
}

fn shr(mask: u64, shift: u32) -> u64 {
    mask.checked_shr(shift).unwrap_or(0)
}

/// A Python iterator over `items`.
fn list_iter<T: for<'py> IntoPyObject<'py>>(py: Python<'_>, items: Vec<T>) -> PyResult<Py<PyAny>> {
    Ok(PyList::new(py, items)?
        .into_any()
        .try_iter()?
        .into_any()
        .unbind())
}

impl SquareSet {
    fn squares(&self) -> Vec<usize> {
        Bitboard(self.mask).map(|s| s.index()).collect()
    }
}

#[pymethods]
impl SquareSet {
    /// A set from a mask (any object with ``__int__``), another set or squares.
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: squares.map(mask_of).transpose()?.unwrap_or(0),
        })
    }

    /// The squares as a 64-bit mask (bit ``i`` is square ``i``).
    #[getter]
    fn get_mask(&self) -> u64 {
        self.mask
    }

    #[setter]
    fn set_mask(&mut self, mask: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask = mask_of(mask)?;
        Ok(())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        list_iter(py, self.squares())
    }

    fn __reversed__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut squares = self.squares();
        squares.reverse();
        list_iter(py, squares)
    }

    fn __contains__(&self, square: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask >> square_index(square)? & 1 == 1)
    }

    fn __len__(&self) -> usize {
        self.mask.count_ones() as usize
    }

    fn __bool__(&self) -> bool {
        self.mask != 0
    }

    fn __int__(&self) -> u64 {
        self.mask
    }

    fn __index__(&self) -> u64 {
        self.mask
    }

    /// Equal to anything that makes the same set (a mask, a set, squares); objects that
    /// make no set are left to Python (``NotImplemented``).
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match mask_of(other) {
            Ok(mask) => Ok(pyo3::types::PyBool::new(py, mask == self.mask)
                .to_owned()
                .into_any()
                .unbind()),
            Err(e)
                if e.is_instance_of::<PyTypeError>(py) || e.is_instance_of::<PyValueError>(py) =>
            {
                Ok(py.NotImplemented())
            }
            Err(e) => Err(e),
        }
    }

    fn __ne__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let eq = self.__eq__(py, other)?;
        match eq.extract::<bool>(py) {
            Ok(equal) => Ok(pyo3::types::PyBool::new(py, !equal)
                .to_owned()
                .into_any()
                .unbind()),
            Err(_) => Ok(eq),
        }
    }

    /// Unhashable, like python-chess's (it is mutable and equal to ints).
    #[classattr]
    fn __hash__() -> Option<Py<PyAny>> {
        None
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.mask & mask_of(other)?,
        })
    }

    fn __rand__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__and__(other)
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.mask | mask_of(other)?,
        })
    }

    fn __ror__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__or__(other)
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.mask ^ mask_of(other)?,
        })
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__xor__(other)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: self.mask & !mask_of(other)?,
        })
    }

    fn __iand__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= mask_of(other)?;
        Ok(())
    }

    fn __ior__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask |= mask_of(other)?;
        Ok(())
    }

    fn __ixor__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask ^= mask_of(other)?;
        Ok(())
    }

    fn __isub__(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= !mask_of(other)?;
        Ok(())
    }

    fn __lshift__(&self, shift: i64) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: shl(self.mask, shift_count(shift)?),
        })
    }

    fn __rshift__(&self, shift: i64) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: shr(self.mask, shift_count(shift)?),
        })
    }

    fn __ilshift__(&mut self, shift: i64) -> PyResult<()> {
        self.mask = shl(self.mask, shift_count(shift)?);
        Ok(())
    }

    fn __irshift__(&mut self, shift: i64) -> PyResult<()> {
        self.mask = shr(self.mask, shift_count(shift)?);
        Ok(())
    }

    /// The other squares of the board.
    fn __invert__(&self) -> SquareSet {
        SquareSet { mask: !self.mask }
    }

    /// The squares in the set or in ``other``.
    fn union(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__or__(other)
    }

    /// The squares in both the set and ``other``.
    fn intersection(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__and__(other)
    }

    /// The squares in the set but not in ``other``.
    fn difference(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__sub__(other)
    }

    /// The squares in exactly one of the set and ``other``.
    fn symmetric_difference(&self, other: &Bound<'_, PyAny>) -> PyResult<SquareSet> {
        self.__xor__(other)
    }

    /// A new set with the same squares.
    fn copy(&self) -> SquareSet {
        *self
    }

    /// Adds the squares of every argument.
    #[pyo3(signature = (*others))]
    fn update(&mut self, others: &Bound<'_, PyTuple>) -> PyResult<()> {
        for other in others {
            self.mask |= mask_of(&other)?;
        }
        Ok(())
    }

    /// Keeps only the squares that every argument holds.
    #[pyo3(signature = (*others))]
    fn intersection_update(&mut self, others: &Bound<'_, PyTuple>) -> PyResult<()> {
        for other in others {
            self.mask &= mask_of(&other)?;
        }
        Ok(())
    }

    /// Removes the squares of ``other``.
    fn difference_update(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.__isub__(other)
    }

    /// Keeps the squares in exactly one of the set and ``other``.
    fn symmetric_difference_update(&mut self, other: &Bound<'_, PyAny>) -> PyResult<()> {
        self.__ixor__(other)
    }

    /// Adds a square.
    fn add(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask |= 1u64 << square_index(square)?;
        Ok(())
    }

    /// Removes a square if present.
    fn discard(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        self.mask &= !(1u64 << square_index(square)?);
        Ok(())
    }

    /// Removes a square.
    ///
    /// :raises: :exc:`KeyError` if the square is not in the set.
    fn remove(&mut self, square: &Bound<'_, PyAny>) -> PyResult<()> {
        let bit = 1u64 << square_index(square)?;
        if self.mask & bit == 0 {
            return Err(PyKeyError::new_err(square.clone().unbind()));
        }
        self.mask &= !bit;
        Ok(())
    }

    /// Removes and returns the lowest square.
    ///
    /// :raises: :exc:`KeyError` if the set is empty.
    fn pop(&mut self) -> PyResult<usize> {
        let square = Bitboard(self.mask)
            .first()
            .ok_or_else(|| PyKeyError::new_err("pop from empty SquareSet"))?;
        self.mask &= self.mask - 1;
        Ok(square.index())
    }

    /// Removes all squares.
    fn clear(&mut self) {
        self.mask = 0;
    }

    /// Does the set share no square with ``other``?
    fn isdisjoint(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask & mask_of(other)? == 0)
    }

    /// Is every square of the set in ``other``?
    fn issubset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.mask & !mask_of(other)? == 0)
    }

    /// Is every square of ``other`` in the set?
    fn issuperset(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(mask_of(other)? & !self.mask == 0)
    }

    /// Every subset of the set, as int masks, the empty one first (the carry-rippler
    /// enumeration).
    fn carry_rippler(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut subsets = Vec::with_capacity(1 << self.mask.count_ones().min(20));
        let mut subset = 0u64;
        loop {
            subsets.push(subset);
            subset = subset.wrapping_sub(self.mask) & self.mask;
            if subset == 0 {
                break;
            }
        }
        list_iter(py, subsets)
    }

    /// The set mirrored top to bottom (a1 <-> a8).
    fn mirror(&self) -> SquareSet {
        SquareSet {
            mask: Bitboard(self.mask).flip_vertical().0,
        }
    }

    /// The squares as 64 bools, a1 first.
    fn tolist(&self) -> Vec<bool> {
        (0..64).map(|i| self.mask >> i & 1 == 1).collect()
    }

    /// The whole rank, file or diagonal through ``a`` and ``b``, or no square if they are
    /// not aligned.
    #[classmethod]
    fn ray<'py>(cls: &Bound<'py, PyType>, a: u32, b: u32) -> PyResult<Bound<'py, PyAny>> {
        let line = attacks::line(square_arg(a, "square")?, square_arg(b, "square")?);
        cls.call1((line.0,))
    }

    /// The squares strictly between ``a`` and ``b`` on their rank, file or diagonal, or no
    /// square if they are not aligned.
    #[classmethod]
    fn between<'py>(cls: &Bound<'py, PyType>, a: u32, b: u32) -> PyResult<Bound<'py, PyAny>> {
        let between = attacks::between(square_arg(a, "square")?, square_arg(b, "square")?);
        cls.call1((between.0,))
    }

    /// The set holding only ``square``.
    #[classmethod]
    fn from_square<'py>(cls: &Bound<'py, PyType>, square: u32) -> PyResult<Bound<'py, PyAny>> {
        cls.call1((Bitboard::from_square(square_arg(square, "square")?).0,))
    }

    /// ``SquareSet(0x0100_0000_0000_0001)``, as python-chess writes it.
    fn __repr__(&self) -> String {
        let hex = format!("{:016x}", self.mask);
        let groups: Vec<&str> = (0..4).map(|i| &hex[4 * i..4 * i + 4]).collect();
        format!("SquareSet(0x{})", groups.join("_"))
    }

    fn __str__(&self) -> String {
        Bitboard(self.mask).to_string()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u64,)) {
        (slf.get_type(), (slf.borrow().mask,))
    }
}

#[pymethods]
impl SquareSet {
    /// The squares marked on an empty board, as an SVG picture (what Jupyter shows).
    #[pyo3(name = "_repr_svg_")]
    fn repr_svg(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("squares", slf)?;
        kwargs.set_item("size", 390)?;
        let svg = crate::py_modules::svg(py)?;
        Ok(svg.call_method("board", (), Some(&kwargs))?.unbind())
    }
}
