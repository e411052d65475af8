//! Value types: squares, bitboards, colours, pieces and moves.

mod bitboard;
mod chess_move;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use chess_move::{Move, MoveKind};
pub use piece::{Color, Piece, Role};
pub use square::Square;
