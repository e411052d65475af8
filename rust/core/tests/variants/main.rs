//! The variants' integration tests, one binary (one link in CI): perft tables from
//! Fairy-Stockfish and python-chess (`perft`), and random python-chess games compared move by
//! move (`playouts`). `cargo test -p pychess-core --test variants`.

mod perft;
mod playouts;
