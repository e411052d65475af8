//! `Piece`: a piece type and a colour, as in python-chess.
//!
//! `piece_type` and `color` are read as python-chess reads them, from plain attributes: each
//! is a `Py` field of this frozen class, which PyO3 exposes as a CPython struct member
//! (`Py_T_OBJECT_EX`) that CPython 3.11+ reads without calling into Rust (see
//! `crate::board::shadows` for the figures). The twelve pieces a board hands out are
//! created once and shared, as `Move` objects are.

use pychess_core::{Color, Piece as CorePiece, Role};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyBool;

/// A piece with type and color (python-chess's ``Piece``).
#[pyclass(module = "pychess_rs", name = "Piece", frozen)]
pub struct Piece {
    /// The piece type, 1 (pawn) to 6 (king).
    pub piece_type: u8,
    /// True for white.
    pub color: bool,
    /// ``piece_type`` as a Python int, read by CPython directly.
    #[pyo3(get, name = "piece_type")]
    piece_type_object: Py<PyAny>,
    /// ``color`` as a Python bool, read by CPython directly.
    #[pyo3(get, name = "color")]
    color_object: Py<PyAny>,
}

/// The shared piece objects, indexed as python-chess hashes pieces (white pawn 0 .. black
/// king 11).
static SHARED: PyOnceLock<Vec<Py<Piece>>> = PyOnceLock::new();

impl Piece {
    fn build(py: Python<'_>, piece_type: u8, color: bool) -> Piece {
        Piece {
            piece_type,
            color,
            piece_type_object: piece_type
                .into_pyobject(py)
                .map_or_else(|e| match e {}, |o| o.into_any().unbind()),
            color_object: PyBool::new(py, color).to_owned().into_any().unbind(),
        }
    }

    /// The shared Python object for `piece`.
    pub(crate) fn shared(py: Python<'_>, piece: CorePiece) -> Py<Piece> {
        let table = SHARED.get_or_init(py, || {
            let mut table = Vec::with_capacity(12);
            for color in [true, false] {
                for role in Role::ALL {
                    let piece = Piece::build(py, role as u8, color);
                    table.push(Py::new(py, piece).expect("allocating a Piece"));
                }
            }
            table
        });
        let index = usize::from(piece.role as u8) - 1 + if piece.color.is_white() { 0 } else { 6 };
        table[index].clone_ref(py)
    }

    fn core(&self) -> CorePiece {
        CorePiece {
            color: Color::from_white(self.color),
            role: Role::from_number(self.piece_type).unwrap_or(Role::Pawn),
        }
    }
}

#[pymethods]
impl Piece {
    #[new]
    fn new(py: Python<'_>, piece_type: u8, color: bool) -> PyResult<Piece> {
        if Role::from_number(piece_type).is_none() {
            return Err(PyValueError::new_err(format!(
                "invalid piece type: {piece_type}"
            )));
        }
        Ok(Piece::build(py, piece_type, color))
    }

    /// The piece for a letter like ``'N'`` (white knight) or ``'q'`` (black queen).
    ///
    /// :raises: :exc:`ValueError` if the symbol is not a piece letter.
    #[staticmethod]
    fn from_symbol(py: Python<'_>, symbol: &str) -> PyResult<Py<Piece>> {
        let invalid = || PyValueError::new_err(format!("invalid piece symbol: {symbol:?}"));
        let mut chars = symbol.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(invalid());
        };
        // Python's `lower()`/`isupper()`, which python-chess reads the letter with: the
        // Kelvin sign (U+212A) is an uppercase K.
        let mut lower = c.to_lowercase();
        let role = match (lower.next(), lower.next()) {
            (Some(l), None) => Role::from_char(l).ok_or_else(invalid)?,
            _ => return Err(invalid()),
        };
        let color = Color::from_white(c.is_uppercase());
        Ok(Piece::shared(py, CorePiece { color, role }))
    }

    /// The letter: uppercase for white.
    fn symbol(&self) -> String {
        self.core().char().to_string()
    }

    /// The chess figurine, e.g. ``'♞'``.
    #[pyo3(signature = (*, invert_color = false))]
    fn unicode_symbol(&self, invert_color: bool) -> String {
        let mut piece = self.core();
        if invert_color {
            piece.color = !piece.color;
        }
        piece.unicode().to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Piece>()
            .is_ok_and(|o| (o.get().piece_type, o.get().color) == (self.piece_type, self.color))
    }

    /// 0 to 11, one per piece, as python-chess numbers them (white pawn 0 .. black king 11).
    fn __hash__(&self) -> u64 {
        u64::from(self.piece_type) + if self.color { 0 } else { 6 } - 1
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.symbol())
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, (u8, bool))> {
        let cls = py.get_type::<Piece>().into_any().unbind();
        Ok((cls, (self.piece_type, self.color)))
    }
}

#[pymethods]
impl Piece {
    /// The piece as an SVG picture (what Jupyter shows), drawn by ``pychess_rs.svg``.
    #[pyo3(name = "_repr_svg_")]
    fn repr_svg(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let svg = crate::py_modules::svg(slf.py())?;
        Ok(svg.call_method1("piece", (slf, 45))?.unbind())
    }
}
