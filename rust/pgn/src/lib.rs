//! PGN for pychess-rs, with python-chess 1.11.2's reading semantics and no Python:
//!
//! - [`annotations`]: `[%eval]` comments as python-chess reads them;
//! - [`parser`]: `read_game` driving a [`Visitor`] (tags, movetext, comments, NAGs,
//!   variations, results, `%` and `;` lines, BOM, CRLF, lenient recovery with errors
//!   recorded), moves resolved by pychess-core's SAN reader;
//! - [`record`]: light game records (tags, mainline, result, errors, FENs) and tag filters;
//! - [`split`]: where a game ends, and where one starts after any byte offset;
//! - [`reader`]: decompression (gzip, bzip2, zstd), cutting a stream into games, and a
//!   parallel reader that keeps the input order.
//!
//! ```
//! use pychess_pgn::{read_game, Lines, RecordBuilder, Filter};
//! let pgn = b"[White \"A\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let filter = Filter::default();
//! let mut builder = RecordBuilder::new(&filter);
//! assert!(read_game(&mut Lines::new(pgn), &mut builder));
//! assert_eq!(builder.record.sans().last().unwrap(), "Qxf7#");
//! assert_eq!(builder.record.result(), "1-0");
//! ```
#![deny(missing_docs)]

pub mod annotations;
pub mod lines;
pub mod parser;
pub mod reader;
pub mod record;
pub mod split;
pub mod tokens;

pub use lines::{Line, Lines};
pub use parser::{read_game, ErrorKind, PgnError, SkipVisitor, Visitor};
pub use reader::{decompress, open_path, Chunker, GameReader, ReadOptions};
pub use record::{Condition, Filter, GameRecord, Op, RecordBuilder, Tags, TimeClass};
pub use split::{game_end, next_game_start};
