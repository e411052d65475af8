//! `SquareSet`: a set of squares backed by a 64-bit mask, as python-chess returns from
//! `attackers`, `checkers` and `pin`. It compares equal to its integer mask.

use crate::convert::square_arg;
use pychess_core::{Bitboard, Square};
use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyList;

/// A set of squares (python-chess's ``SquareSet``).
#[pyclass(module = "pychess_rs", name = "SquareSet")]
#[derive(Clone, Copy)]
pub struct SquareSet {
    pub(crate) mask: u64,
}

fn mask_of(value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(set) = value.cast::<SquareSet>() {
        return Ok(set.borrow().mask);
    }
    if let Ok(mask) = value.extract::<u64>() {
        return Ok(mask);
    }
    // Any iterable of squares.
    let mut mask = 0u64;
    for item in value.try_iter()? {
        let sq: u32 = item?.extract()?;
        mask |= Bitboard::from_square(square_arg(sq, "square")?).0;
    }
    Ok(mask)
}

#[pymethods]
impl SquareSet {
    #[new]
    #[pyo3(signature = (squares = None))]
    fn new(squares: Option<&Bound<'_, PyAny>>) -> PyResult<SquareSet> {
        Ok(SquareSet {
            mask: squares.map(mask_of).transpose()?.unwrap_or(0),
        })
    }

    #[getter]
    fn mask(&self) -> u64 {
        self.mask
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let squares: Vec<usize> = Bitboard(self.mask).map(|s| s.index()).collect();
        Ok(PyList::new(py, squares)?
            .into_any()
            .try_iter()?
            .into_any()
            .unbind())
    }

    fn __reversed__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut squares: Vec<usize> = Bitboard(self.mask).map(|s| s.index()).collect();
        squares.reverse();
        Ok(PyList::new(py, squares)?
            .into_any()
            .try_iter()?
            .into_any()
            .unbind())
    }

    fn __contains__(&self, sq: &Bound<'_, PyAny>) -> bool {
        sq.extract::<u32>()
            .ok()
            .and_then(Square::try_new)
            .is_some_and(|s| Bitboard(self.mask).contains(s))
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

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        mask_of(other).is_ok_and(|m| m == self.mask)
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
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

    fn __invert__(&self) -> SquareSet {
        SquareSet { mask: !self.mask }
    }

    /// Adds a square.
    fn add(&mut self, square: u32) -> PyResult<()> {
        self.mask |= Bitboard::from_square(square_arg(square, "square")?).0;
        Ok(())
    }

    /// Removes a square if present.
    fn discard(&mut self, square: u32) -> PyResult<()> {
        self.mask &= !Bitboard::from_square(square_arg(square, "square")?).0;
        Ok(())
    }

    /// Removes a square, raising :exc:`KeyError` if absent.
    fn remove(&mut self, square: u32) -> PyResult<()> {
        let bb = Bitboard::from_square(square_arg(square, "square")?).0;
        if self.mask & bb == 0 {
            return Err(PyKeyError::new_err(square));
        }
        self.mask &= !bb;
        Ok(())
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

    /// The squares as a list, ascending.
    fn tolist(&self) -> Vec<bool> {
        (0..64).map(|i| self.mask >> i & 1 == 1).collect()
    }

    fn __repr__(&self) -> String {
        format!("SquareSet({:#018x})", self.mask)
    }

    fn __str__(&self) -> String {
        Bitboard(self.mask).to_string()
    }

    fn __reduce__(&self, py: Python<'_>) -> (Py<PyAny>, (u64,)) {
        (py.get_type::<SquareSet>().into_any().unbind(), (self.mask,))
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
        let svg = py.import("pychess_rs.svg")?;
        Ok(svg.call_method("board", (), Some(&kwargs))?.unbind())
    }
}
