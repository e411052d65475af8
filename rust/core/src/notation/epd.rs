//! EPD: the first four FEN fields followed by operations (`bm Nf3; id "x";`).
//!
//! Operands are read the way python-chess's `Board.set_epd` reads them: `bm`/`am` take a
//! list of SAN moves, `pv` a line of SAN moves played one after another, quoted operands
//! are strings, numbers are integers or floats, other bare words are SAN moves when they
//! resolve in the position, and an opcode with no operand is `None`.

use crate::board::Board;
use crate::compat::is_py_whitespace;
use crate::error::{FenError, MoveError};
use crate::notation::UciMove;
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
    /// An operation is malformed or names an illegal move: the EPD and the reason.
    Operation(String, String),
}

impl std::fmt::Display for EpdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdError::Fen(e) => write!(f, "{e}"),
            EpdError::Operation(epd, why) => {
                write!(f, "invalid epd {}: {why}", crate::compat::py_repr(epd))
            }
        }
    }
}

impl std::error::Error for EpdError {}

/// Python's `str.split(None, 4)`: at most five fields, the last one the untouched rest.
fn split_fields(text: &str) -> Vec<&str> {
    let mut fields = Vec::new();
    let mut rest = text.trim_start_matches(is_py_whitespace);
    while !rest.is_empty() {
        if fields.len() == 4 {
            fields.push(rest);
            break;
        }
        let end = rest.find(is_py_whitespace).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = rest[end..].trim_start_matches(is_py_whitespace);
    }
    fields
}

/// An operand as written, before moves are resolved.
enum RawOperand {
    Empty,
    Text(String),
    Number(String),
    Moves(String),
}

fn is_epd_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn validate_opcode(opcode: &str) -> Result<(), String> {
    match opcode.chars().next() {
        Some(c) if c.is_alphabetic() => Ok(()),
        _ => Err(format!(
            "expected epd opcode to start with a letter, got {}",
            crate::compat::py_repr(opcode)
        )),
    }
}

/// python-chess's `_parse_epd_ops` state machine, operand text kept raw.
fn tokenize_operations(text: &str) -> Result<Vec<(String, RawOperand)>, String> {
    #[derive(PartialEq)]
    enum State {
        Opcode,
        AfterOpcode,
        Numeric,
        Text,
        Escape,
        San,
    }
    let mut ops: Vec<(String, RawOperand)> = Vec::new();
    let set = |ops: &mut Vec<(String, RawOperand)>, opcode: &mut String, value: RawOperand| {
        let key = std::mem::take(opcode);
        match ops.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => ops.push((key, value)),
        }
    };
    let mut state = State::Opcode;
    let mut opcode = String::new();
    let mut operand = String::new();
    for ch in text.chars().map(Some).chain([None]) {
        match state {
            State::Opcode => match ch {
                Some(c) if is_epd_space(c) => {
                    if opcode == "-" {
                        opcode.clear();
                    } else if !opcode.is_empty() {
                        validate_opcode(&opcode)?;
                        state = State::AfterOpcode;
                    }
                }
                None | Some(';') => {
                    if opcode == "-" {
                        opcode.clear();
                    } else if !opcode.is_empty() {
                        set(&mut ops, &mut opcode, RawOperand::Empty);
                    }
                }
                Some(c) => opcode.push(c),
            },
            State::AfterOpcode => match ch {
                Some(c) if is_epd_space(c) => {}
                Some('"') => state = State::Text,
                None | Some(';') => {
                    set(&mut ops, &mut opcode, RawOperand::Empty);
                    state = State::Opcode;
                }
                Some(c) => {
                    operand = c.to_string();
                    state = if "+-.0123456789".contains(c) {
                        State::Numeric
                    } else {
                        State::San
                    };
                }
            },
            State::Numeric | State::San => match ch {
                None | Some(';') => {
                    let raw = std::mem::take(&mut operand);
                    let value = if state == State::Numeric {
                        RawOperand::Number(raw)
                    } else {
                        RawOperand::Moves(raw)
                    };
                    set(&mut ops, &mut opcode, value);
                    state = State::Opcode;
                }
                Some(c) => operand.push(c),
            },
            State::Text => match ch {
                None | Some('"') => {
                    set(
                        &mut ops,
                        &mut opcode,
                        RawOperand::Text(std::mem::take(&mut operand)),
                    );
                    state = State::Opcode;
                }
                Some('\\') => state = State::Escape,
                Some(c) => operand.push(c),
            },
            State::Escape => match ch {
                None => {
                    set(
                        &mut ops,
                        &mut opcode,
                        RawOperand::Text(std::mem::take(&mut operand)),
                    );
                    state = State::Opcode;
                }
                Some(c) => {
                    operand.push(match c {
                        'r' => '\r',
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                    state = State::Text;
                }
            },
        }
    }
    Ok(ops)
}

/// Python's `float()` for an operand that starts like a number: underscores only between
/// digits, and the result must be finite.
fn parse_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            let digit_before = i > 0 && bytes[i - 1].is_ascii_digit();
            let digit_after = bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !digit_before || !digit_after {
                return None;
            }
        }
    }
    let cleaned: String = text.chars().filter(|&c| c != '_').collect();
    let lower = cleaned.to_ascii_lowercase();
    if lower.contains("inf") || lower.contains("nan") {
        return None;
    }
    cleaned.parse::<f64>().ok().filter(|f| f.is_finite())
}

fn resolve_operand(opcode: &str, raw: RawOperand, board: &Board) -> Result<Operand, String> {
    let san = |position: &Board, token: &str| -> Result<Move, String> {
        position
            .parse_san(token)
            .map(|m| m.unwrap_or(Move::NULL))
            .map_err(|e: MoveError| format!("operation {}: {e}", crate::compat::py_repr(opcode)))
    };
    Ok(match raw {
        RawOperand::Empty if matches!(opcode, "pv" | "am" | "bm") => Operand::Moves(Vec::new()),
        RawOperand::Empty => Operand::Empty,
        RawOperand::Text(text) => Operand::Text(text),
        RawOperand::Number(text) => {
            let invalid = || {
                format!(
                    "invalid numeric operand for epd operation {}: {}",
                    crate::compat::py_repr(opcode),
                    crate::compat::py_repr(&text)
                )
            };
            if text.contains(['.', 'e', 'E']) {
                Operand::Float(parse_float(&text).ok_or_else(invalid)?)
            } else {
                Operand::Integer(
                    i64::try_from(crate::compat::parse_py_int(&text).map_err(|_| invalid())?)
                        .map_err(|_| invalid())?,
                )
            }
        }
        RawOperand::Moves(text) => match opcode {
            "pv" => {
                let mut position = board.clone();
                let mut line = Vec::new();
                for token in crate::compat::py_split(&text) {
                    let m = san(&position, token)?;
                    position.play_unchecked(m);
                    line.push(m);
                }
                Operand::Moves(line)
            }
            "bm" | "am" => Operand::Moves(
                crate::compat::py_split(&text)
                    .map(|t| san(board, t))
                    .collect::<Result<_, _>>()?,
            ),
            _ => Operand::Move(san(board, &text)?),
        },
    })
}

/// An operand to write (the values python-chess's `epd(**operations)` takes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdValue {
    /// No operand (`None`): `opcode;`.
    Empty,
    /// A string, written quoted with `\` and `"` escaped.
    Text(String),
    /// A number, already written out (Python's `str()` of an int or float).
    Number(String),
    /// One move, written in SAN (the null move as `--`).
    Move(UciMove),
    /// Several moves in SAN: a `pv` line is played out move by move, other opcodes (`bm`,
    /// `am`) list alternatives from this position.
    Moves(Vec<UciMove>),
}

impl Board {
    /// One operation as python-chess's `epd()` writes it, `opcode operand;`.
    pub fn epd_operation(&self, opcode: &str, value: &EpdValue) -> Result<String, MoveError> {
        Ok(match value {
            EpdValue::Empty => format!("{opcode};"),
            EpdValue::Text(text) => {
                let escaped = text.replace('\\', "\\\\").replace('"', "\\\"");
                format!("{opcode} \"{escaped}\";")
            }
            EpdValue::Number(number) => format!("{opcode} {number};"),
            EpdValue::Move(uci) if uci.is_null() => format!("{opcode} --;"),
            EpdValue::Move(uci) => format!("{opcode} {};", self.san(self.resolve_uci(*uci)?)),
            EpdValue::Moves(moves) => {
                let mut position = self.clone();
                let mut sans = Vec::with_capacity(moves.len());
                for &uci in moves {
                    let m = position.resolve_uci(uci)?;
                    sans.push(position.san(m));
                    if opcode == "pv" {
                        position.play_unchecked(m);
                    }
                }
                // python-chess writes best and avoided moves as a sorted set.
                if opcode == "am" || opcode == "bm" {
                    sans.sort();
                }
                format!("{opcode} {};", sans.join(" "))
            }
        })
    }
}

/// The text of a clock operand as python-chess's `str()` would write it.
fn clock_text(operand: Option<&Operand>, default: &str) -> String {
    match operand {
        None => default.to_string(),
        Some(Operand::Integer(i)) => i.to_string(),
        Some(Operand::Text(t)) => t.clone(),
        Some(Operand::Float(f)) => format!("{f:?}"),
        Some(_) => "None".to_string(),
    }
}

/// Parses an EPD the way python-chess's `Board.set_epd` does: the position and its
/// operations in order of first appearance (a repeated opcode keeps its last operand).
pub fn parse_epd(epd: &str, chess960: bool) -> Result<(Board, Vec<(String, Operand)>), EpdError> {
    let trimmed = epd.trim_matches(is_py_whitespace).trim_end_matches(';');
    let mut fields = split_fields(trimmed);
    if fields.len() <= 4 {
        let board = Board::from_fen(epd, chess960).map_err(EpdError::Fen)?;
        return Ok((board, Vec::new()));
    }
    let operations = fields.pop().unwrap_or_default();
    let operation_error = |why| EpdError::Operation(epd.to_string(), why);
    let raw = tokenize_operations(operations).map_err(operation_error)?;
    let position = fields.join(" ");
    let mut parsed = Vec::with_capacity(raw.len());
    let mut board: Option<Board> = None;
    for (opcode, operand) in raw {
        if matches!(operand, RawOperand::Moves(_)) && board.is_none() {
            let fen = format!("{position} 0 1");
            board = Some(Board::from_fen(&fen, chess960).map_err(EpdError::Fen)?);
        }
        let value = match (&board, operand) {
            (Some(b), operand) => resolve_operand(&opcode, operand, b),
            (None, RawOperand::Moves(_)) => unreachable!("a board is made for move operands"),
            (None, operand) => resolve_operand(&opcode, operand, &Board::default()),
        }
        .map_err(operation_error)?;
        parsed.push((opcode, value));
    }
    let find = |name: &str| parsed.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let fen = format!(
        "{position} {} {}",
        clock_text(find("hmvc"), "0"),
        clock_text(find("fmvn"), "1")
    );
    let board = Board::from_fen(&fen, chess960).map_err(EpdError::Fen)?;
    Ok((board, parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_operations_like_python_chess() {
        let board = Board::default();
        let uci = |text| UciMove::parse(text).unwrap();
        let write = |opcode, value| board.epd_operation(opcode, &value).unwrap();
        assert_eq!(write("noop", EpdValue::Empty), "noop;");
        assert_eq!(
            write("id", EpdValue::Text(r#"say "hi" \ bye"#.to_string())),
            r#"id "say \"hi\" \\ bye";"#
        );
        assert_eq!(write("acd", EpdValue::Number("12".to_string())), "acd 12;");
        assert_eq!(write("bm", EpdValue::Move(uci("g1f3"))), "bm Nf3;");
        assert_eq!(write("bm", EpdValue::Move(UciMove::NULL)), "bm --;");
        let line = vec![uci("e2e4"), uci("e7e5"), uci("g1f3")];
        assert_eq!(write("pv", EpdValue::Moves(line)), "pv e4 e5 Nf3;");
        let alternatives = vec![uci("e2e4"), uci("d2d4")];
        // python-chess sorts the SANs of `am`/`bm` lists.
        assert_eq!(write("bm", EpdValue::Moves(alternatives)), "bm d4 e4;");
        let illegal = board.epd_operation("pv", &EpdValue::Moves(vec![uci("e2e4"), uci("e2e4")]));
        assert!(matches!(illegal, Err(MoveError::Illegal { .. })));
    }

    #[test]
    fn written_operations_read_back() {
        let board = Board::default();
        let pv = EpdValue::Moves(vec![
            UciMove::parse("d2d4").unwrap(),
            UciMove::parse("d7d5").unwrap(),
        ]);
        let epd = format!(
            "{} {}",
            board.epd_with(false, crate::EpMode::Legal),
            board.epd_operation("pv", &pv).unwrap()
        );
        let (_, ops) = parse_epd(&epd, false).unwrap();
        assert!(matches!(&ops[0].1, Operand::Moves(moves) if moves.len() == 2));
    }

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
        assert_eq!(
            ops[1],
            ("id".to_string(), Operand::Text("test 1".to_string()))
        );
        assert_eq!(ops[2], ("acd".to_string(), Operand::Integer(12)));
        assert_eq!(ops[3], ("ce".to_string(), Operand::Float(0.5)));
    }

    #[test]
    fn rejects_bad_epds() {
        assert!(parse_epd("", false).is_err());
        // Fewer than five fields is read as a FEN, missing fields defaulted, like python-chess.
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w -", false).is_ok());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - 1x 0;", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kb2", false).is_err());
        assert!(parse_epd("8/8/8/8/8/8/8/K1k5 w - - bm Kh8;", false).is_err());
        // An unterminated string runs to the end, as in python-chess.
        let (_, ops) = parse_epd("8/8/8/8/8/8/8/K1k5 w - - id \"open;", false).unwrap();
        assert_eq!(ops[0].1, Operand::Text("open".to_string()));
    }
}
