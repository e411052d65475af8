//! The one error type of the crate: every variant names what was wrong and where.

use std::fmt;
use std::io;

/// What went wrong while writing or reading training data.
#[derive(Debug)]
pub enum Error {
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// Bytes that are not a whole number of records of a fixed-size format.
    Length {
        /// The format's name (`bullet`, `marlin`, `lc0-v6`, ...).
        format: &'static str,
        /// How many bytes were given.
        len: usize,
        /// The format's record size.
        record_size: usize,
    },
    /// A record that no writer of its format produces.
    Record {
        /// The format's name.
        format: &'static str,
        /// The record's index in its file or buffer.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A position the format cannot hold (more than 32 pieces, a missing king, ...).
    Position {
        /// The format's name.
        format: &'static str,
        /// The position.
        fen: String,
        /// Why.
        reason: &'static str,
    },
    /// A worker thread failed (a bug: its message says where).
    Worker(String),
    /// A UCI engine that failed: it exited, stopped answering, or lacks an option.
    Engine {
        /// Its command line.
        command: String,
        /// What happened.
        reason: String,
    },
    /// An option out of its range.
    Option {
        /// The option.
        name: &'static str,
        /// Why.
        reason: String,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, source: io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{path}: {source}"),
            Error::Length {
                format,
                len,
                record_size,
            } => write!(
                f,
                "{format} data of {len} bytes is not a whole number of {record_size}-byte records"
            ),
            Error::Record {
                format,
                index,
                reason,
            } => write!(f, "{format} record {index}: {reason}"),
            Error::Position {
                format,
                fen,
                reason,
            } => write!(f, "{format} cannot hold {fen:?}: {reason}"),
            Error::Worker(message) => write!(f, "a worker thread failed: {message}"),
            Error::Engine { command, reason } => write!(f, "engine '{command}': {reason}"),
            Error::Option { name, reason } => write!(f, "{name}: {reason}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
