//! `Piece`: a piece type and a colour, as in python-chess.

use pychess_core::{Color, Piece as CorePiece, Role};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A piece with type and color (python-chess's ``Piece``).
#[pyclass(module = "pychess_rs", name = "Piece", frozen, eq)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The piece type, 1 (pawn) to 6 (king).
    #[pyo3(get)]
    pub piece_type: u8,
    /// True for white.
    #[pyo3(get)]
    pub color: bool,
}

impl Piece {
    pub(crate) fn from_core(piece: CorePiece) -> Piece {
        Piece {
            piece_type: piece.role as u8,
            color: piece.color.is_white(),
        }
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
    fn new(piece_type: u8, color: bool) -> PyResult<Piece> {
        if Role::from_number(piece_type).is_none() {
            return Err(PyValueError::new_err(format!(
                "invalid piece type: {piece_type}"
            )));
        }
        Ok(Piece { piece_type, color })
    }

    /// The piece for a letter like ``'N'`` (white knight) or ``'q'`` (black queen).
    ///
    /// :raises: :exc:`ValueError` if the symbol is not a piece letter.
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Piece> {
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
        Ok(Piece {
            piece_type: role as u8,
            color: c.is_uppercase(),
        })
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
        let svg = slf.py().import("pychess_rs.svg")?;
        Ok(svg.call_method1("piece", (slf, 45))?.unbind())
    }
}
