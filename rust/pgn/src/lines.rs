//! Lines as Python's text-mode `readline` sees them: universal newlines (`\n`, `\r\n` and a
//! lone `\r` all end a line) and `str.isspace` for blank lines.

/// One line without its terminator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The characters of the line, terminator excluded.
    pub text: &'a [u8],
    /// Whether a terminator followed (false only for the last line of the input).
    pub newline: bool,
}

impl Line<'_> {
    /// Python's `line.isspace()` on the line with its `\n`: non-empty and all whitespace.
    pub fn is_blank(&self) -> bool {
        (self.newline || !self.text.is_empty()) && is_all_space(self.text)
    }
}

/// Reads lines from a byte slice, keeping the offset of the next line.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lines<'a> {
    /// Lines of `data` from its start.
    pub fn new(data: &'a [u8]) -> Lines<'a> {
        Lines { data, pos: 0 }
    }

    /// Offset of the next line in the slice.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The next line, or `None` at the end (Python's `readline` returning `""`).
    #[inline]
    pub fn next_line(&mut self) -> Option<Line<'a>> {
        let rest = &self.data[self.pos..];
        if rest.is_empty() {
            return None;
        }
        match find_line_end(rest) {
            Some(i) => {
                let skip = if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.pos += i + skip;
                Some(Line {
                    text: &rest[..i],
                    newline: true,
                })
            }
            None => {
                self.pos = self.data.len();
                Some(Line {
                    text: rest,
                    newline: false,
                })
            }
        }
    }
}

/// The offset of the first `\n` or `\r` in `s`, looking at eight bytes at a time (lines are
/// the reader's unit: this search touches every byte of the input).
#[inline]
pub fn find_line_end(s: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // Flags the bytes of `w` that are zero; the lowest flag is always exact, as a borrow
    // only reaches bytes above a zero byte.
    let zero_bytes = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    let mut chunks = s.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let found =
            zero_bytes(w ^ (ONES * u64::from(b'\n'))) | zero_bytes(w ^ (ONES * u64::from(b'\r')));
        if found != 0 {
            return Some(offset + (found.trailing_zeros() / 8) as usize);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map(|i| offset + i)
}

/// Whether the UTF-8 text is all Python whitespace (`str.isspace` without the non-empty test).
pub fn is_all_space(text: &[u8]) -> bool {
    if text.is_ascii() {
        return text.iter().all(|&b| is_ascii_py_space(b));
    }
    String::from_utf8_lossy(text).chars().all(is_py_space)
}

/// ASCII whitespace as Python's `str.isspace` has it (it includes the separators 0x1c..0x1f).
#[inline]
pub fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f | b' ')
}

/// Python's `str.isspace` for one character.
pub fn is_py_space(c: char) -> bool {
    match c {
        '\u{0}'..='\u{7f}' => is_ascii_py_space(c as u8),
        '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}' => true,
        '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(data: &[u8]) -> Vec<(&[u8], bool)> {
        let mut lines = Lines::new(data);
        let mut out = Vec::new();
        while let Some(l) = lines.next_line() {
            out.push((l.text, l.newline));
        }
        out
    }

    #[test]
    fn universal_newlines() {
        assert_eq!(
            all(b"a\nb\r\nc\rd"),
            vec![
                (&b"a"[..], true),
                (&b"b"[..], true),
                (&b"c"[..], true),
                (&b"d"[..], false)
            ]
        );
        assert!(all(b"").is_empty());
        assert_eq!(all(b"\r\n\n"), vec![(&b""[..], true), (&b""[..], true)]);
    }

    #[test]
    fn line_ends_are_found_at_every_offset() {
        let mut data = vec![b'x'; 40];
        assert_eq!(find_line_end(&data), None);
        for at in 0..40 {
            for end in [b'\n', b'\r'] {
                data[at] = end;
                // A later terminator and bytes just above and below the terminators'.
                data[(at + 9) % 40] = b'\n';
                data[(at + 3) % 40] = 0x0b;
                assert_eq!(find_line_end(&data), Some(at.min((at + 9) % 40)));
                data.fill(b'\x0c');
                assert_eq!(find_line_end(&data), None);
                data.fill(b'x');
            }
        }
        assert_eq!(find_line_end(b"\xff\x0e\x8a\r"), Some(3));
    }

    #[test]
    fn blank_lines_follow_isspace() {
        let blank = |t: &'static [u8], newline| Line { text: t, newline }.is_blank();
        assert!(blank(b"", true));
        assert!(!blank(b"", false));
        assert!(blank(b" \t\x0c", false));
        assert!(blank("\u{a0}\u{3000}".as_bytes(), true));
        assert!(!blank(b" x ", true));
        assert!(!blank("\u{feff}".as_bytes(), true));
    }
}
