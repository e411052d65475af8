//! Syzygy endgame tablebases: the prober behind `pychess_rs.syzygy`, and the tables the
//! engine plays endgames from. No Python here; the bindings live in `rust/python`.
//!
//! Syzygy tables hold, for every position of a material (up to 7 pieces), whether the side
//! to move wins, draws or loses under the 50-move rule (WDL, `.rtbw` files) and how many
//! plies it takes to the next capture or pawn move on the best line (DTZ, `.rtbz` files).
//! The modules follow the format's layers:
//!
//! * [`names`](normalize_tablename): table names and [`Material`] keys;
//! * `encoding`: squares to a table index (symmetries, combinations);
//! * `pairs`: the compressed values of one table part;
//! * `table`: a file's layout, and one position's value in it ([`WdlTable`], [`DtzTable`]);
//! * `tablebase`: a set of tables and the probes that add captures, en passant and the side
//!   to move a DTZ file leaves out ([`Tablebase`]), as python-chess 1.11 answers them.
//!
//! ```no_run
//! use pychess_core::Board;
//! use pychess_syzygy::{ProbeError, Tablebase, TableKind};
//! let tables = Tablebase::new();
//! tables.add_directory("tables".as_ref(), true, true).unwrap();
//! let board = Board::from_fen("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1", false).unwrap();
//! assert_eq!(tables.probe_wdl(&board), Ok(2));
//! let start = Board::default();
//! assert!(matches!(tables.probe_wdl(&start), Err(ProbeError::CastlingRights { .. })));
//! ```
#![deny(missing_docs)]

mod encoding;
mod error;
mod names;
mod pairs;
mod reader;
mod table;
mod tablebase;

pub use error::{ProbeError, TableKind};
pub use names::{
    all_dependencies, dependencies, is_tablename, normalize_tablename, tablenames, Material,
    NameError, MAX_PIECES,
};
pub use table::{DtzTable, WdlTable};
pub use tablebase::{dtz_before_zeroing, Tablebase};

/// What probes return.
pub type Result<T, E = ProbeError> = std::result::Result<T, E>;
