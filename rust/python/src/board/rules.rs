//! `Board`: check, the ends of a game and their claims, repetitions, perft.

use super::Board;
use crate::convert::{color_arg, move_arg};
use crate::moves::Move;
use crate::py_modules;
use pychess_core::{perft, perft_divide, Color, Outcome, Termination};
use pychess_engine::check_searchable;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The Python `Termination` member of `termination`.
fn termination_member(py: Python<'_>, termination: Termination) -> PyResult<Py<PyAny>> {
    Ok(py_modules::termination(py)?
        .getattr(termination.name())?
        .unbind())
}

/// The PGN result of a game ``winner`` won (None: a draw): ``1-0``, ``0-1`` or ``1/2-1/2``
/// (the core's, for ``Outcome.result()`` and the front ends).
#[pyfunction]
pub(crate) fn outcome_result(winner: Option<bool>) -> &'static str {
    Outcome::result_for(winner.map(Color::from_white))
}

#[pymethods]
impl Board {
    fn is_check(&self) -> bool {
        self.board().is_check()
    }

    fn is_checkmate(&self) -> bool {
        self.game.is_checkmate()
    }

    fn is_stalemate(&self) -> bool {
        self.game.is_stalemate()
    }

    fn is_insufficient_material(&self) -> bool {
        self.board().is_insufficient_material()
    }

    /// Can ``color`` not possibly win (python-chess's rules, selfmates considered)?
    fn has_insufficient_material(&self, color: bool) -> bool {
        self.board().has_insufficient_material(color_arg(color))
    }

    fn is_seventyfive_moves(&self) -> bool {
        self.game.is_seventyfive_moves()
    }

    fn is_fifty_moves(&self) -> bool {
        self.game.is_fifty_moves()
    }

    fn is_fivefold_repetition(&self) -> bool {
        self.game.is_fivefold_repetition()
    }

    fn can_claim_fifty_moves(&self) -> bool {
        self.game.can_claim_fifty_moves()
    }

    fn can_claim_threefold_repetition(&self) -> bool {
        self.game.can_claim_threefold_repetition()
    }

    fn can_claim_draw(&self) -> bool {
        self.game.can_claim_draw()
    }

    /// Has the position occurred ``count`` times since the last irreversible move?
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: u32) -> bool {
        self.game.is_repetition(count)
    }

    /// Always False: no variants.
    fn is_variant_end(&self) -> bool {
        false
    }

    fn is_variant_win(&self) -> bool {
        false
    }

    fn is_variant_loss(&self) -> bool {
        false
    }

    fn is_variant_draw(&self) -> bool {
        false
    }

    /// The ``Outcome`` if the game has ended, else None.
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, py: Python<'_>, claim_draw: bool) -> PyResult<Option<Py<PyAny>>> {
        let Some(outcome) = self.game.outcome(claim_draw) else {
            return Ok(None);
        };
        let member = py_modules::termination(py)?.getattr(outcome.termination.name())?;
        let winner = outcome.winner.map(|c| c.is_white());
        Ok(Some(
            py_modules::outcome(py)?.call1((member, winner))?.unbind(),
        ))
    }

    /// The draw the side to move may claim (a ``Termination``: ``FIFTY_MOVES`` or
    /// ``THREEFOLD_REPETITION``), in the position itself or, given ``move``, by announcing
    /// that move; None when there is none (or ``move`` is not legal here).
    #[pyo3(signature = (r#move = None))]
    fn _draw_claim(
        &self,
        py: Python<'_>,
        r#move: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let claim = match r#move {
            None => self.game.draw_claim(),
            Some(m) => match self.game.find_legal(move_arg(m)?) {
                Some(m) => self.game.draw_claim_by(m),
                None => None,
            },
        };
        claim.map(|t| termination_member(py, t)).transpose()
    }

    /// The legal moves that let the side to move claim a draw by announcing them.
    fn _draw_claim_moves(&self, py: Python<'_>) -> Vec<Py<Move>> {
        let claims = self.game.draw_claim_moves();
        claims
            .into_iter()
            .map(|(m, _)| self.py_move(py, m))
            .collect()
    }

    /// Where the king lands if ``move`` castles here (the g- or c-file square, however the
    /// move spells castling), else None.
    fn _castling_king_target(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let target = self.board().castling_king_target(move_arg(r#move)?);
        Ok(target.map(|sq| sq.index()))
    }

    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.game.outcome(claim_draw).is_some()
    }

    /// ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.game.outcome(claim_draw).map_or("*", |o| o.result())
    }

    /// What is wrong with the position: a ``Status`` of python-chess's ``STATUS_*`` flags
    /// (``STATUS_VALID`` when nothing is).
    fn status(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let status = self.board().status().0;
        Ok(py_modules::status(py)?.call1((status,))?.unbind())
    }

    /// Is ``status()`` empty: kings, pawns, castling rights, en passant and checks in order?
    fn is_valid(&self) -> bool {
        self.board().is_valid()
    }

    /// Why the engine cannot search this position (no king or several, pawns on a back
    /// rank, unclean castling rights, an implausible en-passant square, the side not to move
    /// in check), or None: the engine's check, which ``position fen`` applies.
    fn _position_error(&self) -> Option<String> {
        check_searchable(self.board())
            .err()
            .map(|e| e.reason.to_string())
    }

    /// Leaf nodes of the legal-move tree ``depth`` plies deep (native; releases the GIL).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.board().clone();
        py.detach(move || perft(&board, depth))
    }

    /// Perft by first move: ``{uci: nodes}`` (native; releases the GIL).
    fn perft_divide<'py>(&self, py: Python<'py>, depth: u32) -> PyResult<Bound<'py, PyDict>> {
        let board = self.board().clone();
        let divided = py.detach(|| perft_divide(&board, depth));
        let dict = PyDict::new(py);
        for (m, nodes) in divided {
            dict.set_item(board.uci(m).to_string(), nodes)?;
        }
        Ok(dict)
    }
}
