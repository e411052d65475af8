//! Training data for chess networks, written from PGN games or the built-in engine's
//! self-play, with readers that give the positions back.
//!
//! * [`nnue`]: 32-byte NNUE records, bullet's `ChessBoard` or marlinflow's `PackedBoard`
//!   (position, score, result).
//! * [`lc0`] and [`lc0_policy`]: Lc0's V6 training records (gzip chunks) and its 1858-move
//!   policy index.
//! * [`alphazero`] and [`npy`]: AlphaZero planes, legal-move masks, moves and outcomes as
//!   `.npy` files NumPy memory-maps.
//! * [`refilter`]: NNUE record files filtered after the fact (check, quiet, score).
//! * [`rescore`]: NNUE record files scored again by UCI engine processes, one thread each.
//! * [`job`]: a run from a source ([`pgn_source`], [`selfplay`]) to an output on worker
//!   threads, in the source's order, with the position filters of [`sample`].
//!
//! `docs/training-data.md` documents every layout byte by byte and where it is specified.
#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod alphazero;
pub mod error;
pub mod job;
pub mod lc0;
pub mod lc0_policy;
pub mod nnue;
pub mod npy;
pub mod pgn_source;
pub mod refilter;
pub mod rescore;
pub mod sample;
pub mod selfplay;

pub use error::Error;
pub use job::{Job, Options, Output, Source};
pub use nnue::{NnueFormat, NnueRecord, NNUE_RECORD_SIZE};
pub use refilter::NnueFilter;
pub use rescore::{EngineCommand, NnueRescore, SearchLimit};
pub use sample::{Filters, Stats, Wdl, MATE_SCORE};
pub use selfplay::SelfPlayOptions;
