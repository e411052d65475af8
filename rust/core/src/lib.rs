//! The chess rules core of pychess-rs: bitboards, strictly legal move generation (standard
//! and Chess960), FEN/EPD, SAN/LAN/UCI, the Polyglot Zobrist hash, every rule that ends a
//! game, and perft; the variants python-chess and lichess play in [`variant`]. No Python and
//! no I/O here; the bindings live in `rust/python`.
//!
//! ```
//! use pychess_core::{Game, UciMove, Termination};
//! let mut game = Game::default();
//! for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     game.push_uci(UciMove::parse(m).unwrap()).unwrap();
//! }
//! assert_eq!(game.outcome(false).unwrap().termination, Termination::Checkmate);
//! ```
#![deny(missing_docs)]

pub mod attacks;
mod board;
pub mod compat;
mod error;
mod game;
pub mod notation;
mod outcome;
pub mod perft;
mod types;
pub mod variant;

pub use board::{
    Board, DiagramStyle, MoveList, PositionError, Setup, Status, ZobristParts, POLYGLOT_KEYS,
};
pub use error::{FenError, FenErrorKind, MoveError};
pub use game::{Game, Segments};
pub use notation::{parse_fen, EpMode, San, UciMove};
pub use outcome::{Outcome, Termination};
pub use perft::{perft, perft_divide};
pub use types::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};
