//! Variant positions for the engine's front ends: a game of a variant read from its FEN and
//! UCI moves by the core's `VariantBoard` (drops `P@e4` included), as the UCI loop, the
//! engine API and the match runner need it; the search of one is `Searcher.search_variant`.
//!
//! ```python
//! from pychess_rs._core import variant_position
//! state = variant_position("crazyhouse", None, ["e2e4", "d7d5", "e4d5"])
//! state["legal_moves"]  # includes drops once a pocket holds a piece
//! ```

use crate::errors::Result;
use pychess_core::notation::uci::UciDrop;
use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{Color, Move, UciMove};
use pychess_engine::variant::search_key;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The variant a UCI or python-chess name stands for (``None`` for standard chess).
pub(super) fn find_variant(name: &str) -> PyResult<Option<Variant>> {
    if ["chess", "standard", "normal"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    {
        return Ok(None);
    }
    Variant::find(name).map(Some).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.uci_name()).collect();
        PyValueError::new_err(format!(
            "unknown variant {name:?} (expected chess or one of {})",
            known.join(", ")
        ))
    })
}

/// The legal move of `board` the UCI `text` stands for (drops as `N@f3`).
pub(super) fn find_legal(board: &VariantBoard, text: &str) -> Option<Move> {
    let uci = match UciDrop::parse(text) {
        Some(drop) => UciMove::from_drop(drop),
        None => UciMove::parse(text).ok()?,
    };
    board.find_legal(uci)
}

/// A variant game: the position after `moves` from `fen` (the variant's start when
/// `None`), the search keys of the positions before it (oldest first), and the SAN of each
/// move.
pub(super) struct VariantGame {
    pub root: VariantBoard,
    pub history: Vec<u64>,
    pub san: Vec<String>,
}

pub(super) fn replay(variant: Variant, fen: Option<&str>, moves: &[String]) -> Result<VariantGame> {
    let mut board = match fen {
        Some(fen) => VariantBoard::from_fen(fen, variant, false)?,
        None => VariantBoard::new(variant),
    };
    let mut history = Vec::with_capacity(moves.len());
    let mut san = Vec::with_capacity(moves.len());
    for (number, text) in moves.iter().enumerate() {
        let Some(m) = find_legal(&board, text) else {
            return Err(PyValueError::new_err(format!(
                "move {} {text:?} is not legal in {} at {}",
                number + 1,
                variant.uci_name(),
                board.fen()
            ))
            .into());
        };
        history.push(search_key(&board));
        san.push(board.san(m));
        board.play_unchecked(m);
    }
    Ok(VariantGame {
        root: board,
        history,
        san,
    })
}

/// The game of ``variant`` (a UCI name such as ``"atomic"``, or a python-chess alias) from
/// ``fen`` (its start position when ``None``) after the UCI ``moves``, as a dict:
/// ``variant`` (its UCI name), ``fen``, ``turn`` (``True`` for White), ``legal_moves`` (UCI,
/// drops as ``N@f3``), ``legal_san`` (the same moves in SAN), ``san`` (each move played, in SAN), ``is_check``, ``outcome``
/// (``None`` while the game goes on, else ``(result, termination)``, e.g. ``("1-0",
/// "VariantWin")``; repetitions are not looked at) and ``repetitions`` (how often the
/// position has stood with the same side to move, itself included).
///
/// :raises: :exc:`ValueError` for an unknown variant, a bad FEN or a move that is not
///     legal (its number, text and position in the message).
#[pyfunction]
#[pyo3(signature = (variant, fen = None, moves = Vec::new()))]
pub fn variant_position<'py>(
    py: Python<'py>,
    variant: &str,
    fen: Option<&str>,
    moves: Vec<String>,
) -> Result<Bound<'py, PyDict>> {
    let Some(variant) = find_variant(variant)? else {
        return Err(PyValueError::new_err("variant_position takes a variant, not chess").into());
    };
    let game = replay(variant, fen, &moves)?;
    let root = &game.root;
    let key = search_key(root);
    let repetitions = 1 + game
        .history
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == key)
        .count();
    let moves = root.legal_moves();
    let legal: Vec<String> = moves.iter().map(|&m| root.uci(m).to_string()).collect();
    let legal_san: Vec<String> = moves.iter().map(|&m| root.san(m)).collect();
    let outcome = root
        .outcome()
        .map(|o| (o.result(), format!("{:?}", o.termination)));
    let dict = PyDict::new(py);
    dict.set_item("variant", variant.uci_name())?;
    dict.set_item("fen", root.fen())?;
    dict.set_item("turn", root.board().turn() == Color::White)?;
    dict.set_item("legal_moves", legal)?;
    dict.set_item("legal_san", legal_san)?;
    dict.set_item("san", game.san)?;
    dict.set_item("is_check", root.is_check())?;
    dict.set_item("outcome", outcome)?;
    dict.set_item("repetitions", repetitions)?;
    Ok(dict)
}
