//! Python arguments into core values: the checks and messages every binding shares.

use crate::errors::Result;
use crate::moves::{as_move, uci_of};
use pychess_core::notation::epd::EpdValue;
use pychess_core::{Board, Color, EpMode, Piece, Role, Square, UciMove};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;

/// A square number (0..64) given as the argument `what`.
pub(crate) fn square_arg(value: u32, what: &str) -> PyResult<Square> {
    Square::try_new(value)
        .ok_or_else(|| PyValueError::new_err(format!("{what} out of range: {value}")))
}

/// python-chess's colour boolean (`True` is White).
pub(crate) fn color_arg(white: bool) -> Color {
    Color::from_white(white)
}

/// The `en_passant` argument of `fen()`/`epd()`.
pub(crate) fn ep_mode_arg(en_passant: &str) -> PyResult<EpMode> {
    match en_passant {
        "legal" => Ok(EpMode::Legal),
        "fen" => Ok(EpMode::Always),
        "xfen" => Ok(EpMode::PseudoLegal),
        other => Err(PyValueError::new_err(format!(
            "en_passant must be 'legal', 'fen' or 'xfen', got {other:?}"
        ))),
    }
}

/// A piece type number (1..=6) or None, given as the argument `what`.
pub(crate) fn role_arg(number: Option<u8>, what: &str) -> PyResult<Option<Role>> {
    number
        .map(|n| {
            Role::from_number(n)
                .ok_or_else(|| PyValueError::new_err(format!("invalid {what}: {n}")))
        })
        .transpose()
}

/// The fields of python-chess's `Move`: from, to, promotion, drop.
pub(crate) type MoveFields = (Square, Square, Option<Role>, Option<Role>);

/// The fields of any object with python-chess's move attributes (`from_square`,
/// `to_square`, and optionally `promotion` and `drop`), such as a `chess.Move`; `None` if it
/// has no `from_square`/`to_square`.
pub(crate) fn move_like_fields(value: &Bound<'_, PyAny>) -> PyResult<Option<MoveFields>> {
    let py = value.py();
    let Some(from) = value.getattr_opt(intern!(py, "from_square"))? else {
        return Ok(None);
    };
    let Some(to) = value.getattr_opt(intern!(py, "to_square"))? else {
        return Ok(None);
    };
    let role = |name, what| -> PyResult<Option<Role>> {
        match value.getattr_opt(name)? {
            Some(number) if !number.is_none() => role_arg(Some(number.extract()?), what),
            _ => Ok(None),
        }
    };
    Ok(Some((
        square_arg(from.extract()?, "from_square")?,
        square_arg(to.extract()?, "to_square")?,
        role(intern!(py, "promotion"), "promotion")?,
        role(intern!(py, "drop"), "drop")?,
    )))
}

/// The from/to/promotion of a move argument, or `None` if it is no move: a `Move` (one type
/// check), or any object with python-chess's move attributes ([`move_like_fields`]).
#[inline]
pub(crate) fn move_arg_opt(value: &Bound<'_, PyAny>) -> PyResult<Option<UciMove>> {
    match as_move(value) {
        Some(m) => Ok(Some(m.get().uci)),
        None => Ok(move_like_fields(value)?
            .map(|(from, to, promotion, drop)| uci_of(from, to, promotion, drop))),
    }
}

/// The from/to/promotion of a move argument ([`move_arg_opt`]).
///
/// :raises: `TypeError` for an object with no move attributes.
#[inline]
pub(crate) fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<UciMove> {
    match as_move(value) {
        Some(m) => Ok(m.get().uci),
        None => foreign_move_arg(value),
    }
}

#[cold]
fn foreign_move_arg(value: &Bound<'_, PyAny>) -> PyResult<UciMove> {
    move_arg_opt(value)?.ok_or_else(|| not_a_move(value))
}

/// The `TypeError` for an argument that is no move.
pub(crate) fn not_a_move(value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "expected a Move, got {}",
        value
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    ))
}

/// A piece argument: anything with python-chess's `piece_type` and `color` attributes.
pub(crate) fn piece_arg(value: &Bound<'_, PyAny>) -> PyResult<Piece> {
    let piece_type: u8 = value.getattr("piece_type")?.extract()?;
    let white: bool = value.getattr("color")?.extract()?;
    let role = Role::from_number(piece_type)
        .ok_or_else(|| PyValueError::new_err(format!("invalid piece type: {piece_type}")))?;
    Ok(Piece {
        color: Color::from_white(white),
        role,
    })
}

/// A UCI string given to a board (drops, `N@e4`, are illegal here, not malformed).
pub(crate) fn board_uci_arg(text: &str, board: &Board) -> Result<UciMove> {
    Ok(board.parse_uci_text(text)?)
}

/// An operand of `epd(**operations)`: None, a move, a string, a number or moves.
pub(crate) fn epd_value_arg(value: &Bound<'_, PyAny>) -> PyResult<EpdValue> {
    if value.is_none() {
        return Ok(EpdValue::Empty);
    }
    if let Some(m) = as_move(value) {
        return Ok(EpdValue::Move(m.get().uci));
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(EpdValue::Text(text));
    }
    if value.extract::<i64>().is_ok() || value.extract::<f64>().is_ok() {
        // Python's own `str()` of the number, as python-chess writes it.
        return Ok(EpdValue::Number(value.str()?.to_string()));
    }
    if let Some(uci) = move_arg_opt(value)? {
        return Ok(EpdValue::Move(uci));
    }
    let moves = value
        .try_iter()?
        .map(|item| move_arg(&item?))
        .collect::<PyResult<Vec<UciMove>>>()?;
    Ok(EpdValue::Moves(moves))
}
