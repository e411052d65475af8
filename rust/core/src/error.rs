//! Every error the core reports. Each variant carries the offending input so that messages
//! can quote it, python-chess style (`illegal san: 'Nf9' in <fen>`).

use crate::board::PositionError;
use std::fmt;

/// Is `c` printable in Python's sense (`str.isprintable`)? Approximated: controls, format
/// characters that are known to be invisible, private use, and separators other than the
/// plain space are not.
fn is_py_printable(c: char) -> bool {
    let code = c as u32;
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(code, 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x180e | 0x200b..=0x200f
            | 0x202a..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0xfff9..=0xfffb
            | 0xe000..=0xf8ff | 0xf0000..)
        || (0xfdd0..=0xfdef).contains(&code)
        || code & 0xfffe == 0xfffe)
}

/// `repr()` of a Python string, so messages quote input exactly as python-chess's do.
pub fn py_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_py_printable(c) => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

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
            FenErrorKind::Turn(t) => write!(
                f,
                "expected 'w' or 'b' for the side to move, got {}",
                py_repr(t)
            ),
            FenErrorKind::Castling(c) => write!(f, "invalid castling field {}", py_repr(c)),
            FenErrorKind::EpSquare(e) => write!(f, "invalid en-passant field {}", py_repr(e)),
            FenErrorKind::Clock { which, text, why } => {
                write!(f, "{which} {} {why}", py_repr(text))
            }
            FenErrorKind::TooManyFields(n) => write!(f, "expected at most 6 fields, got {n}"),
            FenErrorKind::Position(p) => write!(f, "illegal position: {p}"),
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid fen {}: {}", py_repr(&self.fen), self.kind)
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
            MoveError::Invalid { text, notation } => {
                write!(f, "invalid {notation}: {}", py_repr(text))
            }
            MoveError::Illegal { text, fen } => {
                write!(f, "illegal move {} in {fen}", py_repr(text))
            }
            MoveError::Ambiguous { text, fen } => {
                write!(f, "ambiguous san: {} in {fen}", py_repr(text))
            }
        }
    }
}

impl std::error::Error for MoveError {}
