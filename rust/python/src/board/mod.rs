//! `Board`: the python-chess-shaped board. One class, its methods grouped by topic as
//! polars groups `PyDataFrame`'s (`#[pymethods]` blocks in several files):
//!
//! - `construction.rs`: constructors, FEN/EPD in and out, copies and pickling;
//! - `moves.rs`: playing moves, notation, legality and move properties;
//! - `rules.rs`: check, game end, outcome, repetitions, perft;
//! - `state.rs`: the position's state, pieces and attacks;
//! - `views.rs`: the legal-move views, display, equality and the python-chess conversions;
//! - `fast.rs`: `push`/`pop` with CPython's cheapest calling conventions;
//! - `shadows.rs`: the plain attributes (`turn`, clocks, ...) CPython reads without a call,
//!   and the only way to mutate the game (which keeps them current);
//! - `setattr.rs`: writing those attributes (`board.turn = BLACK`);
//! - `move_stack.rs`: the `move_stack` list, brought up to date when read;
//! - `variant.rs`: `VariantBoard`, the subclass playing a variant's rules (`pychess_rs.variant`).
//!
//! Every method converts its arguments, calls the core `Game`/`Board` and converts the
//! answer back; the rules live in `pychess-core`.

mod construction;
mod fast;
mod move_stack;
mod moves;
mod picture;
mod rules;
mod setattr;
mod shadows;
mod state;
mod variant;
mod views;
mod xboard;

pub(crate) use fast::install_fast_methods;
pub(crate) use rules::outcome_result;
pub(crate) use shadows::install_members;
pub(crate) use variant::install_fast_methods as install_variant_fast_methods;
pub(crate) use variant::{
    new_instance as new_variant_instance, play_if_variant, popped_copy_if_variant, VariantBoard,
};
pub(crate) use views::{LegalMoveGenerator, PseudoLegalMoveGenerator};

use crate::errors::Result;
use crate::moves::{intern, Move};
use pychess_core::{Board as CoreBoard, Game, Move as CoreMove};
use pyo3::prelude::*;
use pyo3::types::PyList;

/// Every square: the default of the `mask` arguments.
const BB_ALL: u64 = u64::MAX;

/// A chess board with its move stack (python-chess's ``Board``).
#[pyclass(module = "pychess_rs", name = "Board", subclass)]
pub struct Board {
    /// Mutable only through `game_mut`, which keeps `shadows` current.
    pub(crate) game: shadows::TrackedGame,
    shadows: shadows::Shadows,
    move_stack: std::sync::Mutex<move_stack::StackCache>,
    /// Set by `__new__` when it built the position of an exact `Board`, so the `__init__`
    /// CPython calls right after it does not build it again; cleared by that `__init__`.
    constructed: bool,
}

impl Board {
    fn new_game(board: CoreBoard) -> Board {
        Board::from_game(Game::new(board))
    }

    fn from_fen_str(fen: &str, chess960: bool) -> Result<Board> {
        Ok(Board::new_game(CoreBoard::from_fen(fen, chess960)?))
    }

    fn board(&self) -> &CoreBoard {
        self.game.board()
    }

    /// The shared `Move` object for a move of the current position.
    fn py_move(&self, py: Python<'_>, m: CoreMove) -> Py<Move> {
        intern(py, self.board().uci(m))
    }

    /// A Python iterator over moves of the current position.
    fn moves_iter(
        &self,
        py: Python<'_>,
        moves: impl IntoIterator<Item = CoreMove, IntoIter: ExactSizeIterator>,
    ) -> PyResult<Py<PyAny>> {
        let board = self.board();
        let objects = moves.into_iter().map(|m| intern(py, board.uci(m)));
        Ok(PyList::new(py, objects)?
            .into_any()
            .try_iter()?
            .into_any()
            .unbind())
    }
}
