//! Game boundaries: where a game read from a given point ends (exactly where python-chess's
//! `read_game` would stop), and where a game starts after an arbitrary byte offset, so that a
//! file splits into byte ranges read independently.

use crate::lines::{is_ascii_py_space, Lines};
use crate::parser::{read_game, SkipVisitor};

/// The end of the first game in `data` (the offset after its last line), or `None` when
/// `data` holds no game (only blank lines and `%`/`;` comment lines).
pub fn game_end(data: &[u8]) -> Option<usize> {
    let mut lines = Lines::new(data);
    read_game(&mut lines, &mut SkipVisitor).then(|| lines.position())
}

/// Offset of the first line of the game that starts at or after `from`, skipping blank
/// lines and `%`/`;` lines as `read_game` does.
pub fn first_content_line(data: &[u8], from: usize) -> usize {
    let mut lines = Lines::new(&data[from..]);
    loop {
        let at = lines.position();
        match lines.next_line() {
            Some(l) if l.is_blank() || matches!(l.text.first(), Some(b'%' | b';')) => {}
            _ => return from + at,
        }
    }
}

/// The most whitespace a blank line may hold for [`is_game_start`] to see it: the test then
/// looks at a bounded window before the line, so every reader of a range agrees on it.
pub const LOOKBACK: usize = 256;

/// Whether a game starts at `pos`, for splitting into byte ranges: a line starting with `[`
/// at the start of the input or after a blank line. `data` must hold the bytes from
/// `pos - LOOKBACK - 2` (or from 0) onwards, `pos` relative to it, and `base` is the offset
/// of `data` in the input (so that "start of input" can be told).
pub fn is_game_start(data: &[u8], pos: usize, base: u64) -> bool {
    if data.get(pos) != Some(&b'[') {
        return false;
    }
    if base + pos as u64 == 0 {
        return true;
    }
    // The line before: a terminator right before `pos`, then only spaces back to another
    // terminator (or the start of the input).
    let mut i = pos;
    let step_terminator = |i: usize| -> Option<usize> {
        if i >= 2 && data[i - 1] == b'\n' && data[i - 2] == b'\r' {
            Some(i - 2)
        } else if i >= 1 && (data[i - 1] == b'\n' || data[i - 1] == b'\r') {
            Some(i - 1)
        } else {
            None
        }
    };
    let Some(j) = step_terminator(i) else {
        return false;
    };
    i = j;
    let mut spaces = 0;
    while i > 0 && spaces <= LOOKBACK {
        let b = data[i - 1];
        if b == b'\n' || b == b'\r' {
            return true;
        }
        if !is_ascii_py_space(b) {
            return false;
        }
        i -= 1;
        spaces += 1;
    }
    // The start of `data`: a blank line only if it is the start of the input too.
    spaces <= LOOKBACK && base == 0 && i == 0
}

/// The first game start (see [`is_game_start`]) at or after `from` in `data`.
pub fn next_game_start(data: &[u8], from: usize, base: u64) -> Option<usize> {
    let mut pos = from;
    loop {
        if is_game_start(data, pos, base) {
            return Some(pos);
        }
        let next = data[pos.min(data.len())..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')?;
        pos += next + 1;
        if pos >= data.len() {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &[u8] =
        b"[Event \"a\"]\n\n1. e4 { a\n\n[Event \"fake\"] } e5 *\n\n\n[Event \"b\"]\r\n\r\n1. d4 *";

    #[test]
    fn games_end_where_read_game_stops() {
        let end = game_end(TWO).unwrap();
        assert!(TWO[end..].starts_with(b"\n[Event \"b\"]"));
        let second = first_content_line(TWO, end);
        assert!(TWO[second..].starts_with(b"[Event \"b\"]"));
        assert_eq!(game_end(&TWO[second..]), Some(TWO.len() - second));
        assert_eq!(game_end(b"\n\n% x\n; y\n"), None);
    }

    #[test]
    fn game_starts_after_blank_lines() {
        assert!(is_game_start(TWO, 0, 0));
        assert!(!is_game_start(TWO, 0, 5));
        let b = TWO.windows(11).position(|w| w == b"[Event \"b\"]").unwrap();
        assert!(is_game_start(TWO, b, 0));
        // A tag line after a blank line inside a comment looks like a start too: the
        // documented limit of splitting into byte ranges.
        let fake = TWO
            .windows(13)
            .position(|w| w == b"[Event \"fake\"")
            .unwrap();
        assert_eq!(next_game_start(TWO, 1, 0), Some(fake));
        assert_eq!(next_game_start(TWO, fake + 1, 0), Some(b));
        assert_eq!(next_game_start(b"1. e4 *\n", 0, 7), None);
    }
}
