//! Every error the core reports. Each variant carries the offending input so that messages
//! can quote it, python-chess style (`illegal san: 'Nf9' in <fen>`).

use crate::board::{Board, PositionError};
use crate::compat::py_repr;
use crate::notation::UciMove;
use crate::types::{Color, Square};
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
    /// A move `push` refuses: not even pseudo-legal (`IllegalMoveError`; python-chess would
    /// push it and corrupt its board).
    NotPseudoLegal {
        /// The move as given.
        text: String,
        /// The position, as FEN.
        fen: String,
    },
    /// A castling move whose right is written but whose rook is not on its square
    /// (`IllegalMoveError`; python-chess would castle and create a rook, or jump the king).
    NoCastlingRook {
        /// The move as given.
        text: String,
        /// The position, as FEN.
        fen: String,
        /// The side that wanted to castle.
        color: Color,
        /// The square of the right, where no rook of `color` stands.
        rook: Square,
    },
    /// No legal move goes from/to the squares asked for (python-chess's `find_move`).
    NoMatchingMove {
        /// The move asked for, promotion default applied.
        uci: UciMove,
        /// The position, as FEN.
        fen: String,
    },
    /// A move of a line is not legal where it is played (python-chess's `variation_san`).
    IllegalInLine {
        /// The move.
        uci: UciMove,
        /// The position it was to be played in, as FEN.
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
            MoveError::NotPseudoLegal { text, fen } => write!(
                f,
                "illegal move {} in {fen} (push takes pseudo-legal moves and null moves; this \
                 one is neither)",
                py_repr(text)
            ),
            MoveError::NoCastlingRook {
                text,
                fen,
                color,
                rook,
            } => write!(
                f,
                "illegal move {} in {fen}: no {} rook on {rook} to castle with",
                py_repr(text),
                if color.is_white() { "white" } else { "black" }
            ),
            MoveError::NoMatchingMove { uci, fen } => {
                write!(f, "no matching legal move for {uci} in {fen}")
            }
            MoveError::IllegalInLine { uci, fen } => {
                write!(f, "illegal move {uci} in position {fen}")
            }
            MoveError::Ambiguous { text, fen } => {
                write!(f, "ambiguous san: {} in {fen}", py_repr(text))
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl MoveError {
    /// This refusal of `uci` in `board`, or, when `uci` asks to castle with a right whose
    /// rook is not on its square ([`Board::missing_castling_rook`]), the refusal that names
    /// the missing rook. Only `Illegal` and `NotPseudoLegal` are refined; call it where the
    /// move failed, so that playing a move costs nothing more.
    pub fn naming_missing_rook(self, board: &Board, uci: UciMove) -> MoveError {
        let (MoveError::Illegal { text, fen } | MoveError::NotPseudoLegal { text, fen }) = &self
        else {
            return self;
        };
        match board.missing_castling_rook(uci) {
            Some(rook) => MoveError::NoCastlingRook {
                text: text.clone(),
                fen: fen.clone(),
                color: board.turn(),
                rook,
            },
            None => self,
        }
    }
}
