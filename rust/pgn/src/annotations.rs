//! Machine-readable annotations inside PGN comments, read as python-chess reads them.
//!
//! `[%eval 0.31]`, `[%eval -1.5,22]` and `[%eval #-3]` give an evaluation of the position after
//! the move the comment follows, from White's side: pawns with at most two decimals, or a
//! mate in n moves (negative: Black mates). python-chess's `GameNode.eval()` accepts exactly
//! this syntax (one whitespace after `%eval`, an optional `,depth`), and so does
//! [`eval_annotation`].
//!
//! ```
//! use pychess_pgn::annotations::{eval_annotation, Eval};
//! assert_eq!(eval_annotation(b"book [%eval 0.31]"), Some(Eval::Centipawns(31)));
//! assert_eq!(eval_annotation(b"[%eval -1.5,22] ok"), Some(Eval::Centipawns(-150)));
//! assert_eq!(eval_annotation(b"[%eval #-3]"), Some(Eval::Mate(-3)));
//! assert_eq!(eval_annotation(b"[%eval 0.315]"), None);
//! ```

/// An evaluation from White's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (the comment's pawns times 100, rounded to the nearest integer).
    Centipawns(i64),
    /// Mate in this many moves; negative when Black mates.
    Mate(i64),
}

/// The first `[%eval ...]` of a comment that python-chess would accept, if any.
pub fn eval_annotation(comment: &[u8]) -> Option<Eval> {
    const TAG: &[u8] = b"[%eval";
    let mut from = 0;
    while let Some(at) = find(&comment[from..], TAG) {
        let start = from + at + TAG.len();
        if let Some(eval) = parse_after_tag(&comment[start..]) {
            return Some(eval);
        }
        from = start;
    }
    None
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Parses `\s(#[+-]?\d+ | [+-]?(\d{0,10}\.\d{1,2} | \d{1,10}\.?))(,\d+)?\]`.
fn parse_after_tag(text: &[u8]) -> Option<Eval> {
    let (&space, mut rest) = text.split_first()?;
    if !crate::lines::is_ascii_py_space(space) {
        return None;
    }
    let eval = if let Some(mate) = rest.strip_prefix(b"#") {
        let (negative, digits) = sign(mate);
        let (value, after) = digits_of(digits, 1, 18)?;
        rest = after;
        Eval::Mate(if negative { -value } else { value })
    } else {
        let (negative, body) = sign(rest);
        let (whole, after, whole_len) = match digits_of(body, 1, 10) {
            Some((value, after)) => (value, after, body.len() - after.len()),
            None => (0, body, 0),
        };
        let (hundredths, after) = match after.strip_prefix(b".") {
            Some(fraction) => match digits_of(fraction, 1, 2) {
                Some((value, after)) => {
                    let len = fraction.len() - after.len();
                    (if len == 1 { value * 10 } else { value }, after)
                }
                // `12.` is accepted, `.` alone is not.
                None if whole_len > 0 => (0, fraction),
                None => return None,
            },
            None if whole_len > 0 => (0, after),
            None => return None,
        };
        rest = after;
        let cp = whole * 100 + hundredths;
        Eval::Centipawns(if negative { -cp } else { cp })
    };
    if let Some(depth) = rest.strip_prefix(b",") {
        rest = digits_of(depth, 1, 18)?.1;
    }
    rest.starts_with(b"]").then_some(eval)
}

fn sign(text: &[u8]) -> (bool, &[u8]) {
    match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// Between `min` and `max` ASCII digits: their value and the rest. More than `max` digits
/// fail, as the regular expression cannot match them.
fn digits_of(text: &[u8], min: usize, max: usize) -> Option<(i64, &[u8])> {
    let len = text.iter().take_while(|b| b.is_ascii_digit()).count();
    if len < min || len > max {
        return None;
    }
    let value = text[..len]
        .iter()
        .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
    Some((value, &text[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_chess_syntax() {
        let e = |s: &str| eval_annotation(s.as_bytes());
        assert_eq!(e("[%eval 2]"), Some(Eval::Centipawns(200)));
        assert_eq!(e("[%eval 2.]"), Some(Eval::Centipawns(200)));
        assert_eq!(e("[%eval .5]"), Some(Eval::Centipawns(50)));
        assert_eq!(e("[%eval +0.05,30]"), Some(Eval::Centipawns(5)));
        assert_eq!(e("[%eval #7]"), Some(Eval::Mate(7)));
        assert_eq!(e("[%eval #+2]"), Some(Eval::Mate(2)));
        assert_eq!(e("[%eval .]"), None);
        assert_eq!(e("[%eval]"), None);
        assert_eq!(e("[%eval  1]"), None);
        assert_eq!(e("[%eval 1.234]"), None);
        assert_eq!(e("[%eval 1,]"), None);
        assert_eq!(
            e("[%clk 0:01:00] [%eval -0.4]"),
            Some(Eval::Centipawns(-40))
        );
        assert_eq!(e("[%eval x] [%eval 1]"), Some(Eval::Centipawns(100)));
    }
}
