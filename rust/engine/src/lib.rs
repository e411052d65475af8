//! The pychess-rs engine: iterative-deepening alpha-beta search and a tapered evaluation on
//! top of `pychess-core`. No Python and no I/O: the UCI loop and the Python API live in the
//! `pychess_rs` package and reach this crate through `rust/python`.
//!
//! The public surface is the contract the bindings rely on:
//! [`Engine`] (owns the transposition table and options), [`Limits`] (what `go` asks for),
//! [`SearchControl`] (stop/ponderhit from another thread), [`SearchInfo`] (one `info` line)
//! and [`SearchResult`] (best move, ponder move, final lines).
#![deny(missing_docs)]

mod api;
mod bench;
mod engine;
pub mod eval;
mod limits;
mod movepick;
pub mod params;
mod search;
pub mod skill;
mod tt;

pub use api::{
    Bound, Clock, EngineOptions, Limits, Score, SearchControl, SearchInfo, SearchResult,
};
pub use bench::{bench, search_speed, BenchResult, BENCH_FENS};
pub use engine::{Engine, MAX_THREADS};
