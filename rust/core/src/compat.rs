//! Python compatibility: the few places where the core reproduces CPython's or python-chess's
//! behaviour byte for byte rather than following a chess rule.
//!
//! pychess-rs promises that a FEN, EPD or move is accepted exactly when python-chess accepts
//! it, and that error messages read like python-chess's. python-chess leans on Python for
//! parts of that: it splits fields with `str.split()`, reads clocks with `int()` (which takes
//! any Unicode decimal digit and underscores between digits), quotes input with `repr()`, and
//! names outcomes by enum member. Those behaviours live here, in one module, so that the
//! notation code reads as chess and a reader sees at once what is there only for parity.
//!
//! ```
//! use pychess_core::compat::{parse_py_int, py_repr};
//! assert_eq!(py_repr("it's"), "\"it's\"");
//! assert_eq!(parse_py_int("1_000"), Ok(1000));
//! assert_eq!(parse_py_int("\u{663}"), Ok(3)); // ARABIC-INDIC DIGIT THREE
//! ```

use crate::outcome::Termination;

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

/// Whitespace as Python's `str.split()` sees it (Rust's set plus the ASCII separators).
pub fn is_py_whitespace(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' ' | '\t'..='\r' | '\x1c'..='\x1f');
    }
    c.is_whitespace()
}

/// Python's `str.split()`.
pub fn py_split(text: &str) -> Box<dyn Iterator<Item = &str> + '_> {
    if text.is_ascii() {
        // Byte-wise (no UTF-8 decoding) for the usual all-ASCII input.
        let fields = text
            .as_bytes()
            .split(|&b| matches!(b, b' ' | b'\t'..=b'\r' | 0x1c..=0x1f));
        Box::new(fields.filter(|f| !f.is_empty()).map(|f| {
            // SAFETY: `text` is ASCII, so every slice of it is ASCII and thus valid UTF-8.
            // Skipping the re-validation is a fifth of the cost of reading a FEN.
            unsafe { std::str::from_utf8_unchecked(f) }
        }))
    } else {
        Box::new(text.split(is_py_whitespace).filter(|part| !part.is_empty()))
    }
}

/// The digit zero of every run of Unicode decimal digits (category Nd, Unicode 14 as in
/// CPython 3.11): Python's `int()` reads all of them, so FEN clocks may use them too.
const DECIMAL_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66,
    0xde6, 0xe50, 0xed0, 0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90,
    0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10,
    0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0, 0x11450, 0x114d0, 0x11650,
    0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60, 0x16ac0, 0x16b50,
    0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0,
];

/// The value of a Unicode decimal digit, as Python's `int()` sees it.
fn decimal_value(c: char) -> Option<u32> {
    let code = c as u32;
    let i = DECIMAL_ZEROS.partition_point(|&zero| zero <= code);
    let zero = DECIMAL_ZEROS[i.checked_sub(1)?];
    (code - zero < 10).then_some(code - zero)
}

/// Python's `int()` on an already whitespace-free token: optional sign, decimal digits with
/// single underscores between them. Returns the value, or why it was refused.
pub fn parse_py_int(text: &str) -> Result<i128, &'static str> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return Err("is not a whole number");
    }
    let mut value: i128 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        let digit = decimal_value(c).ok_or("is not a whole number")?;
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i128::from(digit)))
            .ok_or("is too large")?;
    }
    Ok(if negative { -value } else { value })
}

impl Termination {
    /// python-chess's member name, e.g. `CHECKMATE`.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "CHECKMATE",
            Termination::Stalemate => "STALEMATE",
            Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Termination::SeventyfiveMoves => "SEVENTYFIVE_MOVES",
            Termination::FivefoldRepetition => "FIVEFOLD_REPETITION",
            Termination::FiftyMoves => "FIFTY_MOVES",
            Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
            Termination::VariantWin => "VARIANT_WIN",
            Termination::VariantLoss => "VARIANT_LOSS",
            Termination::VariantDraw => "VARIANT_DRAW",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_int() {
        assert_eq!(parse_py_int("+5"), Ok(5));
        assert_eq!(parse_py_int("-5"), Ok(-5));
        assert_eq!(parse_py_int("1_000"), Ok(1000));
        assert_eq!(parse_py_int("007"), Ok(7));
        assert_eq!(parse_py_int("\u{663}"), Ok(3));
        assert_eq!(parse_py_int("9\u{ff11}"), Ok(91));
        assert!(parse_py_int("\u{2163}").is_err());
        assert!(parse_py_int("1__0").is_err());
        assert!(parse_py_int("_1").is_err());
        assert!(parse_py_int("").is_err());
        assert!(parse_py_int("x").is_err());
        assert_eq!(parse_py_int("9".repeat(40).as_str()), Err("is too large"));
    }

    #[test]
    fn python_repr() {
        assert_eq!(py_repr("e4"), "'e4'");
        assert_eq!(py_repr("it's"), "\"it's\"");
        assert_eq!(py_repr("'\""), "'\\'\"'");
        assert_eq!(
            py_repr("a\tb\n\u{0}\u{200b}\u{1f600}"),
            "'a\\tb\\n\\x00\\u200b\u{1f600}'"
        );
    }

    #[test]
    fn python_split() {
        let fields: Vec<&str> = py_split(" a\x1cb \u{3000}c\t").collect();
        assert_eq!(fields, ["a", "b", "c"]);
        let ascii: Vec<&str> = py_split("rnbqkbnr w\x0bKQkq  -").collect();
        assert_eq!(ascii, ["rnbqkbnr", "w", "KQkq", "-"]);
    }

    #[test]
    fn termination_names_are_python_chess_members() {
        assert_eq!(Termination::Checkmate.name(), "CHECKMATE");
        assert_eq!(
            Termination::ThreefoldRepetition.name(),
            "THREEFOLD_REPETITION"
        );
    }
}
