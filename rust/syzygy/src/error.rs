//! Why a probe gave no answer.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// WDL or DTZ: which kind of table was missing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// Win/draw/loss tables (`.rtbw`).
    Wdl,
    /// Distance-to-zeroing tables (`.rtbz`).
    Dtz,
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TableKind::Wdl => "wdl",
            TableKind::Dtz => "dtz",
        })
    }
}

/// A probe without an answer. The messages are python-chess's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// No table of this material was added (python-chess's `MissingTableError`).
    MissingTable {
        /// The kind of table looked for.
        kind: TableKind,
        /// The material, White first (`"KQvKR"`).
        key: String,
    },
    /// More pieces than any table holds (python-chess's plain `KeyError`).
    TooManyPieces {
        /// The pieces on the board.
        count: u32,
        /// The position.
        fen: String,
    },
    /// A position with castling rights, which no table holds (python-chess's `KeyError`).
    CastlingRights {
        /// The position.
        fen: String,
    },
    /// The table file could not be opened or mapped (python-chess's `OSError`).
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        kind: io::ErrorKind,
        /// Its message.
        message: String,
    },
    /// The file is not a Syzygy table of its kind: wrong size or magic number, or data that
    /// points outside the file (python-chess's `OSError`, or undefined behaviour there).
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: &'static str,
    },
    /// A table probed directly with a board of other material.
    WrongMaterial {
        /// The table's material.
        table: String,
        /// The board's.
        board: String,
    },
    /// A WDL value outside -2..=2 handed to a DTZ table.
    WdlOutOfRange(i32),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::MissingTable { kind, key } => write!(f, "did not find {kind} table {key}"),
            ProbeError::TooManyPieces { count, fen } => write!(
                f,
                "syzygy tables support up to {} pieces, not {count}: {fen}",
                crate::MAX_PIECES
            ),
            ProbeError::CastlingRights { fen } => write!(
                f,
                "syzygy tables do not contain positions with castling rights: {fen}"
            ),
            ProbeError::Open { path, message, .. } => {
                write!(f, "{message}: {:?}", path.display().to_string())
            }
            ProbeError::Invalid { path, what } => write!(
                f,
                "invalid {what}: ensure {:?} is a valid syzygy tablebase file",
                path.display().to_string()
            ),
            ProbeError::WrongMaterial { table, board } => {
                write!(f, "table {table} probed with a board of {board}")
            }
            ProbeError::WdlOutOfRange(wdl) => write!(f, "wdl must be in -2..=2, not {wdl}"),
        }
    }
}

impl std::error::Error for ProbeError {}
