//! Gaviota endgame tablebases: depth to mate (DTM) for positions of up to five pieces, read
//! from `.gtb.cp4` files, the prober behind `pychess_rs.gaviota`. No Python here; the
//! bindings live in `rust/python`.
//!
//! A [`Tablebase`] lists the tables of the directories it is given and opens a file on the
//! first probe that needs it. A table holds one byte per position and side to move, grouped
//! in blocks of 16384 that are LZMA-compressed one by one ([`file`]); a probe finds the
//! position's entry ([`Scheme`]), decompresses its block once (a cache keeps the last
//! [`CACHE_BLOCKS`]) and reads who mates in how many plies ([`Entry`]). Material of the
//! other colour order (K v KQ) is probed in the table of its mirror image (KQ v K).
//!
//! The answers are python-chess 1.11's (`chess.gaviota.PythonTablebase`): its sign
//! convention, its en-passant resolution, the positions it refuses and the errors it raises.
//!
//! ```no_run
//! use pychess_core::Board;
//! use pychess_gaviota::Tablebase;
//! let tables = Tablebase::new();
//! tables.add_directory("data/gaviota".as_ref()).unwrap();
//! // Black to move is mated by the queen in 14 plies.
//! let board = Board::from_fen("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1", false).unwrap();
//! assert_eq!(tables.probe_dtm(&board).unwrap(), -14);
//! assert_eq!(tables.probe_wdl(&board).unwrap(), -1);
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod entry;
pub mod file;
mod index;
mod squares;
mod tablebase;

pub use entry::Entry;
pub use file::{FileError, TableFile};
pub use index::Scheme;
pub use tablebase::{DirectoryError, ProbeError, Tablebase, CACHE_BLOCKS, SUFFIX};
