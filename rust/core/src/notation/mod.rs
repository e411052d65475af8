//! Text forms of positions and moves: FEN/EPD, UCI and SAN/LAN.

pub mod epd;
pub mod explain;
pub mod fen;
pub mod san;
pub mod uci;

pub use fen::{parse_castling_field, parse_fen, EpMode};
pub use san::San;
pub use uci::UciMove;
