//! Python arguments into core values: the checks and messages every binding shares.

use crate::errors::move_error;
use crate::moves::as_move;
use pychess_core::notation::epd::EpdValue;
use pychess_core::notation::uci::is_drop;
use pychess_core::{Board, Color, EpMode, MoveError, Piece, Role, Square, UciMove};
use pyo3::exceptions::{PyTypeError, PyValueError};
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

/// The from/to/promotion of a `Move` argument.
pub(crate) fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<UciMove> {
    match as_move(value) {
        Some(m) => Ok(m.get().uci),
        None => Err(PyTypeError::new_err(format!(
            "expected a Move, got {}",
            value
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))),
    }
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

/// A UCI string given to a board: drops (`N@e4`) are illegal here, not malformed.
pub(crate) fn board_uci_arg(text: &str, board: &Board) -> PyResult<UciMove> {
    UciMove::parse(text).map_err(|e| {
        if is_drop(text) {
            move_error(MoveError::Illegal {
                text: text.to_string(),
                fen: board.fen(),
            })
        } else {
            move_error(e)
        }
    })
}

/// An operand of `epd(**operations)`: None, a Move, a string, a number or moves.
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
    let moves = value
        .try_iter()?
        .map(|item| move_arg(&item?))
        .collect::<PyResult<Vec<UciMove>>>()?;
    Ok(EpdValue::Moves(moves))
}
