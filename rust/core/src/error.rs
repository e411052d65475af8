//! Every error the core reports. Each variant carries the offending input so that messages
//! can quote it, python-chess style (`illegal san: 'Nf9' in <fen>`).

use crate::board::PositionError;
use std::fmt;

/// Why a FEN (or the FEN part of an EPD) was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// The placement field is malformed (the string says how).
    Placement(String),
    /// The side-to-move field is not `w` or `b`.
    Turn(String),
    /// The castling field is malformed.
    Castling(String),
    /// The en-passant field is not `-` or a square name.
    EpSquare(String),
    /// A clock field is not a non-negative whole number (or is absurdly large).
    Clock {
        /// Which clock: "half-move clock" or "fullmove number".
        which: &'static str,
        /// What was written.
        text: String,
        /// Why it was refused.
        why: &'static str,
    },
    /// More than six fields.
    TooManyFields(usize),
    /// Well formed, but not a legal position.
    Position(PositionError),
}

/// A rejected FEN: the text and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The FEN as given.
    pub fen: String,
    /// What is wrong with it.
    pub kind: FenErrorKind,
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenErrorKind::Empty => write!(f, "empty fen"),
            FenErrorKind::Placement(why) => write!(f, "{why}"),
            FenErrorKind::Turn(t) => write!(f, "expected 'w' or 'b' for the side to move, got {t:?}"),
            FenErrorKind::Castling(c) => write!(f, "invalid castling field {c:?}"),
            FenErrorKind::EpSquare(e) => write!(f, "invalid en-passant field {e:?}"),
            FenErrorKind::Clock { which, text, why } => write!(f, "{which} {text:?} {why}"),
            FenErrorKind::TooManyFields(n) => write!(f, "expected at most 6 fields, got {n}"),
            FenErrorKind::Position(p) => write!(f, "illegal position: {p}"),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid fen {:?}: {}", self.fen, self.kind)
    }
}

impl std::error::Error for FenError {}

/// Why a move (UCI, SAN or a from/to pair) could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the notation at all (python-chess `InvalidMoveError`).
    Invalid {
        /// The text as given.
        text: String,
        /// Which notation was expected.
        notation: &'static str,
    },
    /// A well-formed move that is not legal here (`IllegalMoveError`).
    Illegal {
        /// The move as given.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
    /// A SAN that fits more than one legal move (`AmbiguousMoveError`).
    Ambiguous {
        /// The SAN as given.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid { text, notation } => write!(f, "invalid {notation}: {text:?}"),
            MoveError::Illegal { text, fen } => write!(f, "illegal move {text:?} in {fen}"),
            MoveError::Ambiguous { text, fen } => write!(f, "ambiguous san: {text:?} in {fen}"),
        }
    }
}

impl std::error::Error for MoveError {}
