//! python-chess's module-level board geometry: square distances, rays, the bitboard flips and
//! shifts, and the attack tables behind `BB_KNIGHT_ATTACKS`, `BB_RAYS` and friends. All of it
//! is read from `pychess-core`; `pychess_rs/types.py` gives the names.

use pychess_core::{attacks, Bitboard, Color, Square};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A square argument; anything off the board (negative ones included) is a `ValueError`.
fn square_arg(value: i64, what: &str) -> PyResult<Square> {
    u32::try_from(value)
        .ok()
        .and_then(Square::try_new)
        .ok_or_else(|| PyValueError::new_err(format!("{what} out of range: {value}")))
}

/// King steps from ``a`` to ``b``.
#[pyfunction]
fn square_distance(a: i64, b: i64) -> PyResult<u8> {
    Ok(square_arg(a, "square")?.distance(square_arg(b, "square")?))
}

/// File difference plus rank difference between ``a`` and ``b``.
#[pyfunction]
fn square_manhattan_distance(a: i64, b: i64) -> PyResult<u8> {
    Ok(square_arg(a, "square")?.manhattan_distance(square_arg(b, "square")?))
}

/// The fewest knight moves from ``a`` to ``b``.
#[pyfunction]
fn square_knight_distance(a: i64, b: i64) -> PyResult<u8> {
    Ok(square_arg(a, "square")?.knight_distance(square_arg(b, "square")?))
}

/// The whole rank, file or diagonal through ``a`` and ``b`` as a mask, or 0.
#[pyfunction]
fn ray(a: i64, b: i64) -> PyResult<u64> {
    Ok(attacks::line(square_arg(a, "square")?, square_arg(b, "square")?).0)
}

/// The squares strictly between ``a`` and ``b`` on their rank, file or diagonal, or 0.
#[pyfunction]
fn between(a: i64, b: i64) -> PyResult<u64> {
    Ok(attacks::between(square_arg(a, "square")?, square_arg(b, "square")?).0)
}

/// The mask mirrored top to bottom.
#[pyfunction]
fn flip_vertical(bb: u64) -> u64 {
    Bitboard(bb).flip_vertical().0
}

/// The mask mirrored left to right.
#[pyfunction]
fn flip_horizontal(bb: u64) -> u64 {
    Bitboard(bb).flip_horizontal().0
}

/// The mask mirrored about the a1-h8 diagonal.
#[pyfunction]
fn flip_diagonal(bb: u64) -> u64 {
    Bitboard(bb).flip_diagonal().0
}

/// The mask mirrored about the h1-a8 diagonal.
#[pyfunction]
fn flip_anti_diagonal(bb: u64) -> u64 {
    Bitboard(bb).flip_anti_diagonal().0
}

/// One `#[pyfunction]` per python-chess shift helper: `(name, files, ranks)`. Squares
/// pushed off an edge are dropped, not wrapped.
macro_rules! shifts {
    ($(($name:ident, $files:expr, $ranks:expr, $doc:literal)),* $(,)?) => {
        $(
            #[doc = $doc]
            #[pyfunction]
            fn $name(bb: u64) -> u64 {
                Bitboard(bb).shift($files, $ranks).0
            }
        )*

        /// Registers the shift helpers.
        fn add_shifts(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_function(wrap_pyfunction!($name, m)?)?;)*
            Ok(())
        }
    };
}

shifts!(
    (shift_down, 0, -1, "The mask moved one rank down."),
    (shift_2_down, 0, -2, "The mask moved two ranks down."),
    (shift_up, 0, 1, "The mask moved one rank up."),
    (shift_2_up, 0, 2, "The mask moved two ranks up."),
    (shift_right, 1, 0, "The mask moved one file right."),
    (shift_2_right, 2, 0, "The mask moved two files right."),
    (shift_left, -1, 0, "The mask moved one file left."),
    (shift_2_left, -2, 0, "The mask moved two files left."),
    (
        shift_up_left,
        -1,
        1,
        "The mask moved one square up and left."
    ),
    (
        shift_up_right,
        1,
        1,
        "The mask moved one square up and right."
    ),
    (
        shift_down_left,
        -1,
        -1,
        "The mask moved one square down and left."
    ),
    (
        shift_down_right,
        1,
        -1,
        "The mask moved one square down and right."
    ),
);

/// The squares of the board's edge that do not matter to a slider on `sq`: the outer ranks
/// and files, except the ones `sq` stands on.
fn edges(sq: Square) -> u64 {
    let ranks = (Bitboard::rank(0).0 | Bitboard::rank(7).0) & !Bitboard::rank(sq.rank()).0;
    let files = (Bitboard::file(0).0 | Bitboard::file(7).0) & !Bitboard::file(sq.file()).0;
    ranks | files
}

/// python-chess's per-line attack table: for each square, the relevant-occupancy mask and a
/// dict from every subset of it to the attacked squares.
fn line_table<'py>(
    py: Python<'py>,
    attacks_of: impl Fn(Square, Bitboard) -> Bitboard,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let masks = PyList::empty(py);
    let tables = PyList::empty(py);
    for sq in Square::ALL {
        let mask = attacks_of(sq, Bitboard::EMPTY).0 & !edges(sq);
        let table = PyDict::new(py);
        let mut subset = 0u64;
        loop {
            table.set_item(subset, attacks_of(sq, Bitboard(subset)).0)?;
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        masks.append(mask)?;
        tables.append(table)?;
    }
    Ok((masks, tables))
}

/// The attack tables python-chess exposes, keyed by their `BB_*` names.
#[pyfunction]
fn _attack_tables(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let tables = PyDict::new(py);
    let per_square = |f: &dyn Fn(Square) -> Bitboard| -> Vec<u64> {
        Square::ALL.iter().map(|&sq| f(sq).0).collect()
    };
    tables.set_item("BB_KNIGHT_ATTACKS", per_square(&attacks::knight))?;
    tables.set_item("BB_KING_ATTACKS", per_square(&attacks::king))?;
    // Indexed by python-chess's colour bool: [BLACK] = [0], [WHITE] = [1].
    tables.set_item(
        "BB_PAWN_ATTACKS",
        [Color::Black, Color::White].map(|c| per_square(&|sq| attacks::pawn(c, sq))),
    )?;
    let (masks, attacks) = line_table(py, attacks::bishop)?;
    tables.set_item("BB_DIAG_MASKS", masks)?;
    tables.set_item("BB_DIAG_ATTACKS", attacks)?;
    let (masks, attacks) = line_table(py, |sq, occupied| {
        attacks::rook(sq, occupied) & Bitboard::file(sq.file())
    })?;
    tables.set_item("BB_FILE_MASKS", masks)?;
    tables.set_item("BB_FILE_ATTACKS", attacks)?;
    let (masks, attacks) = line_table(py, |sq, occupied| {
        attacks::rook(sq, occupied) & Bitboard::rank(sq.rank())
    })?;
    tables.set_item("BB_RANK_MASKS", masks)?;
    tables.set_item("BB_RANK_ATTACKS", attacks)?;
    let rays: Vec<Vec<u64>> = Square::ALL
        .iter()
        .map(|&a| Square::ALL.iter().map(|&b| attacks::line(a, b).0).collect())
        .collect();
    tables.set_item("BB_RAYS", rays)?;
    Ok(tables)
}

/// Registers the functions of this module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(square_distance, m)?)?;
    m.add_function(wrap_pyfunction!(square_manhattan_distance, m)?)?;
    m.add_function(wrap_pyfunction!(square_knight_distance, m)?)?;
    m.add_function(wrap_pyfunction!(ray, m)?)?;
    m.add_function(wrap_pyfunction!(between, m)?)?;
    m.add_function(wrap_pyfunction!(flip_vertical, m)?)?;
    m.add_function(wrap_pyfunction!(flip_horizontal, m)?)?;
    m.add_function(wrap_pyfunction!(flip_diagonal, m)?)?;
    m.add_function(wrap_pyfunction!(flip_anti_diagonal, m)?)?;
    m.add_function(wrap_pyfunction!(_attack_tables, m)?)?;
    add_shifts(m)
}
