//! EPD: the first four FEN fields followed by operations (`bm Nf3; id "x";`).
//!
//! Operands are read the way python-chess's `Board.set_epd` reads them: `bm`/`am` take a
//! list of SAN moves, `pv` a line of SAN moves played one after another, quoted operands
//! are strings, numbers are integers or floats, other bare words are SAN moves when they
//! resolve in the position, and an opcode with no operand is `None`.

use crate::board::Board;
use crate::error::{FenError, FenErrorKind, MoveError};
use crate::notation::fen::is_py_whitespace;
use crate::types::Move;

/// One operand of an EPD operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// No operand.
    Empty,
    /// A quoted string.
    Text(String),
    /// A whole number.
    Integer(i64),
    /// A number with a point or exponent.
    Float(f64),
    /// One move (for opcodes other than bm/am/pv).
    Move(Move),
    /// Several moves (`bm`, `am`: alternatives; `pv`: a line).
    Moves(Vec<Move>),
}

/// Why an EPD could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum EpdError {
    /// The position part is not a valid FEN.
    Fen(FenError),
    /// An operation is malformed or names an illegal move.
    Operation(String),
}

impl std::fmt::Display for EpdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdError::Fen(e) => write!(f, "{e}"),
            EpdError::Operation(why) => write!(f, "invalid epd operation: {why}"),
        }
    }
}

impl std::error::Error for EpdError {}

/// Splits off the first four whitespace-separated fields and returns them and the rest.
fn split_position(epd: &str) -> (Vec<&str>, &str) {
    let mut fields = Vec::new();
    let mut rest = epd.trim_start_matches(is_py_whitespace);
    while fields.len() < 4 && !rest.is_empty() {
        let end = rest.find(is_py_whitespace).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = rest[end..].trim_start_matches(is_py_whitespace);
    }
    (fields, rest)
}

/// Reads the operations text into (opcode, raw operand tokens, quoted?) triples.
fn tokenize_operations(text: &str) -> Result<Vec<(String, Vec<(String, bool)>)>, String> {
    let mut operations = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|&c| is_py_whitespace(c) || c == ';') {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(operations);
        }
        let mut opcode = String::new();
        while let Some(&c) = chars.peek() {
            if is_py_whitespace(c) || c == ';' {
                break;
            }
            opcode.push(c);
            chars.next();
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|&c| is_py_whitespace(c)) {
                chars.next();
            }
            match chars.peek() {
                None => return Err(format!("operation {opcode:?} is not terminated by ';'")),
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            None => return Err(format!("unterminated string in operation {opcode:?}")),
                            Some('"') => break,
                            Some('\\') => {
                                if let Some(c) = chars.next() {
                                    s.push(c);
                                }
                            }
                            Some(c) => s.push(c),
                        }
                    }
                    operands.push((s, true));
                }
                Some(_) => {
                    let mut s = String::new();
                    while let Some(&c) = chars.peek() {
                        if is_py_whitespace(c) || c == ';' {
                            break;
                        }
                        s.push(c);
                        chars.next();
                    }
                    operands.push((s, false));
                }
            }
        }
        operations.push((opcode, operands));
    }
}

fn parse_number(token: &str) -> Option<Operand> {
    if let Ok(i) = token.parse::<i64>() {
        return Some(Operand::Integer(i));
    }
    if token.chars().any(|c| c.is_ascii_digit()) && token.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c)) {
        return token.parse::<f64>().ok().map(Operand::Float);
    }
    None
}

fn move_error(e: MoveError) -> String {
    e.to_string()
}

/// Parses an EPD: the position and its operations in order of appearance.
pub fn parse_epd(epd: &str, chess960: bool) -> Result<(Board, Vec<(String, Operand)>), EpdError> {
    let (fields, rest) = split_position(epd);
    if fields.len() < 4 {
        return Err(EpdError::Fen(FenError {
            fen: epd.to_string(),
            kind: if fields.is_empty() {
                FenErrorKind::Empty
            } else {
                FenErrorKind::Placement(format!("an epd needs 4 position fields, got {}", fields.len()))
            },
        }));
    }
    let mut fen = fields.join(" ");
    let operations = tokenize_operations(rest).map_err(EpdError::Operation)?;
    // The clocks may be given as operations.
    let clock = |name: &str, default: &str| -> String {
        operations
            .iter()
            .find(|(op, args)| op == name && args.len() == 1 && !args[0].1)
            .map_or(default.to_string(), |(_, args)| args[0].0.clone())
    };
    fen.push_str(&format!(" {} {}", clock("hmvc", "0"), clock("fmvn", "1")));
    let board = Board::from_fen(&fen, chess960).map_err(EpdError::Fen)?;
    let mut parsed = Vec::with_capacity(operations.len());
    for (opcode, operands) in operations {
        let operand = match (opcode.as_str(), operands.as_slice()) {
            (_, []) => Operand::Empty,
            ("bm" | "am", list) => Operand::Moves(
                list.iter()
                    .map(|(san, _)| board.parse_san(san).map(|m| m.unwrap_or(Move::NULL)))
                    .collect::<Result<_, _>>()
                    .map_err(|e| EpdError::Operation(move_error(e)))?,
            ),
            ("pv", list) => {
                let mut line = Vec::new();
                let mut position = board.clone();
                for (san, _) in list {
                    let m = position
                        .parse_san(san)
                        .map_err(|e| EpdError::Operation(move_error(e)))?
                        .unwrap_or(Move::NULL);
                    position.play_unchecked(m);
                    line.push(m);
                }
                Operand::Moves(line)
            }
            (_, [(text, true)]) => Operand::Text(text.clone()),
            (_, [(token, false)]) => match parse_number(token) {
                Some(number) => number,
                None => match board.parse_san(token) {
                    Ok(m) => Operand::Move(m.unwrap_or(Move::NULL)),
                    Err(_) => Operand::Text(token.clone()),
                },
            },
            (_, list) => Operand::Text(list.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(" ")),
        };
        parsed.push((opcode, operand));
    }
    Ok((board, parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_operations() {
        let (board, ops) = parse_epd(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; id \"test 1\"; acd 12; ce 0.5; hmvc 3;",
            false,
        )
        .unwrap();
        assert_eq!(board.halfmove_clock(), 3);
        assert_eq!(ops[0].0, "bm");
        assert!(matches!(&ops[0].1, Operand::Moves(moves) if moves.len() == 2));
        assert_eq!(ops[1], ("id".to_string(), Operand::Text("test 1".to_string())));
        assert_eq!(ops[2], ("acd".to_string(), Operand::Integer(12)));
        assert_eq!(ops[3], ("ce".to_string(), Operand::Float(0.5)));
    }

    #[test]
    fn rejects_bad_epds() {
        assert!(parse_epd("", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w -", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kb2", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kh8;", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - id \"open;", false).is_err());
    }
}
