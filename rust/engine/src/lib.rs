//! The pychess-rs engine: iterative-deepening alpha-beta search and a tapered evaluation on
//! top of `pychess-core`. No Python and no I/O: the UCI loop and the Python API live in the
//! `pychess_rs` package and reach this crate through `rust/python`.
//!
//! The public surface is the contract the bindings rely on:
//! [`Engine`] (owns the transposition table and options), [`Limits`] (what `go` asks for),
//! [`SearchControl`] (stop/ponderhit from another thread), [`SearchInfo`] (one `info` line)
//! and [`SearchResult`] (best move, ponder move, final lines), plus [`bench`] (the search's
//! node-count signature) and [`search_speed`].
//!
//! Layout: `engine` drives one search (threads, reports, stopping rules, strength limiting
//! through [`skill`]); `search` is the alpha-beta itself (iterative deepening and the root
//! in `search/mod.rs`, `negamax.rs`, `qsearch.rs`, the PV table in `pv.rs`); `movepick`
//! orders moves (SEE, MVV-LVA, the move picker) with what `history` learns (history
//! tables, countermoves); `tt` is the lockless shared transposition table; `limits` turns
//! clocks into time budgets; [`params`] holds every tunable; [`eval`] is the static
//! evaluation; [`tablebase`] plays and searches with Syzygy tables; [`variant`] is the
//! search and evaluation of the core's chess variants (`Engine::search_variant`); [`options`] declares the options front ends offer (names, ranges, defaults,
//! the check) and `searchable` the positions a search accepts ([`check_searchable`]).
//!
//! Threads: `EngineOptions::threads > 1` runs Lazy SMP: helper threads search the same root
//! with the shared table (odd helpers skipping depths), the main thread alone reports and
//! decides, and node counts add up over all threads.
#![deny(missing_docs)]

mod api;
mod bench;
mod engine;
pub mod eval;
mod history;
mod limits;
mod movepick;
pub mod nnue;
pub mod options;
pub mod params;
mod search;
mod searchable;
pub mod skill;
pub mod tablebase;
mod tt;
pub mod variant;

pub use api::{
    Bound, Clock, EngineOptions, Limits, Score, SearchControl, SearchInfo, SearchResult,
};
pub use bench::{
    bench, bench_with_network, check_bench_depth, search_speed, BenchDepthError, BenchResult,
    BENCH_DEFAULT_DEPTH, BENCH_DEPTHS, BENCH_FENS,
};
pub use engine::{Engine, MAX_THREADS};
pub use movepick::has_winning_noisy_move;
pub use options::{
    find_option, find_uci_option, find_uci_option_by_key, EngineOption, OptionError, UciOption,
    ENGINE_OPTIONS, UCI_OPTIONS,
};
pub use searchable::{check_searchable, Unsearchable};
pub use tablebase::{RootChoice, Syzygy};
