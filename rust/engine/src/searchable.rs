//! Which positions the engine can search: the strict position rules of the core (one king
//! each, no pawn on a back rank, clean castling rights, a plausible en-passant square, the
//! side not to move not in check). A board that python-chess lets a user set up, or that
//! null moves lead to, can break them; the search assumes they hold, so every front end (the
//! Python `Searcher`, the UCI loop's `position fen`) asks [`check_searchable`] first.
//!
//! ```
//! use pychess_core::Board;
//! use pychess_engine::check_searchable;
//!
//! assert!(check_searchable(&Board::default()).is_ok());
//! let kingless = Board::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1", false).unwrap();
//! let error = check_searchable(&kingless).unwrap_err();
//! assert_eq!(error.reason.to_string(), "there is no white king");
//! assert_eq!(
//!     error.to_string(),
//!     "cannot search an invalid position (there is no white king): 4k3/8/8/8/8/8/8/8 w - - 0 1"
//! );
//! ```

use pychess_core::{Board, PositionError};
use std::fmt;

/// A position the engine refuses to search, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsearchable {
    /// The first rule the position breaks.
    pub reason: PositionError,
    /// The position.
    pub fen: String,
}

impl fmt::Display for Unsearchable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot search an invalid position ({}): {}",
            self.reason, self.fen
        )
    }
}

impl std::error::Error for Unsearchable {}

/// `Ok` if the engine can search `board`, else the first rule it breaks.
pub fn check_searchable(board: &Board) -> Result<(), Unsearchable> {
    match Board::from_setup(&board.to_setup(), board.is_chess960()) {
        Ok(_) => Ok(()),
        Err(reason) => Err(Unsearchable {
            reason,
            fen: board.fen(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::check_searchable;
    use pychess_core::{Board, Game, PositionError, UciMove};

    #[test]
    fn a_null_move_out_of_check_makes_the_position_unsearchable() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).expect("legal");
        assert!(check_searchable(&board).is_ok());
        let mut game = Game::new(board);
        game.push_uci(UciMove::NULL).expect("the null move");
        let board = game.board();
        let error = check_searchable(board).unwrap_err();
        assert_eq!(error.reason, PositionError::OppositeCheck);
        assert_eq!(error.fen, board.fen());
    }
}
