//! The movetext tokenizer: the tokens of python-chess's `MOVETEXT_REGEX`, found the way
//! `re.finditer` finds them (alternatives in order, greedy optionals with backtracking,
//! unmatched characters skipped).

/// What a movetext token is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A move: SAN-like text, a drop, a null move or castling (resolved later).
    Move,
    /// `{`: a comment starts here and runs to the next `}`, across lines.
    Comment,
    /// `;`: the rest of the line is a comment.
    LineComment,
    /// `$` followed by digits.
    Nag,
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// `*`, `1-0`, `0-1` or `1/2-1/2`.
    Result,
    /// One or two of `?` and `!`.
    Suffix,
}

/// A token: its kind and byte range in the line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: TokenKind,
    /// Start offset.
    pub start: usize,
    /// End offset (exclusive).
    pub end: usize,
}

#[inline]
fn is_file(b: u8) -> bool {
    (b'a'..=b'h').contains(&b)
}

#[inline]
fn is_rank(b: u8) -> bool {
    (b'1'..=b'8').contains(&b)
}

#[inline(always)]
fn byte_at(s: &[u8], j: usize) -> u8 {
    s.get(j).copied().unwrap_or(0)
}

#[inline(always)]
fn square_at(s: &[u8], j: usize) -> bool {
    is_file(byte_at(s, j)) && is_rank(byte_at(s, j + 1))
}

/// `[\-x]?[a-h][1-8]` at `j`: its end.
#[inline(always)]
fn target_at(s: &[u8], j: usize) -> Option<usize> {
    if matches!(byte_at(s, j), b'-' | b'x') && square_at(s, j + 1) {
        Some(j + 3)
    } else if square_at(s, j) {
        Some(j + 2)
    } else {
        None
    }
}

/// `[1-8]?[\-x]?[a-h][1-8]` at `j`: its end.
#[inline(always)]
fn after_file_at(s: &[u8], j: usize) -> Option<usize> {
    if is_rank(byte_at(s, j)) {
        target_at(s, j + 1)
    } else {
        target_at(s, j)
    }
}

/// `[NBKRQ]?[a-h]?[1-8]?[\-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?` at `i`: its end, as a
/// backtracking regex finds it (each optional part tried present first, the first part
/// outermost). Most choices are forced: a piece letter, a rank or a separator can start
/// nothing else, so only an origin file (which may be the target's file) needs a second try.
#[inline]
fn san_at(s: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(byte_at(s, j), b'N' | b'B' | b'K' | b'R' | b'Q') {
        j += 1;
    }
    let end = if is_file(byte_at(s, j)) {
        after_file_at(s, j + 1).or_else(|| after_file_at(s, j))
    } else {
        after_file_at(s, j)
    }?;
    let promotion = |b: u8| {
        matches!(
            b,
            b'n' | b'b' | b'r' | b'q' | b'k' | b'N' | b'B' | b'R' | b'Q' | b'K'
        )
    };
    Some(
        if byte_at(s, end) == b'=' && promotion(byte_at(s, end + 1)) {
            end + 2
        } else if promotion(byte_at(s, end)) {
            end + 1
        } else {
            end
        },
    )
}

/// The other move spellings: `[PNBRQK]?@[a-h][1-8]`, `--`, `Z0`, `0000`, `@@@@`, castling.
fn other_move_at(s: &[u8], i: usize) -> Option<usize> {
    let rest = &s[i..];
    let at = |j: usize| rest.get(j).copied().unwrap_or(0);
    // Move numbers and other text start with none of these: one test rejects them.
    if !matches!(
        at(0),
        b'P' | b'N' | b'B' | b'R' | b'Q' | b'K' | b'@' | b'-' | b'Z' | b'0' | b'O'
    ) {
        return None;
    }
    let drop_from = |j: usize| at(j) == b'@' && is_file(at(j + 1)) && is_rank(at(j + 2));
    if matches!(at(0), b'P' | b'N' | b'B' | b'R' | b'Q' | b'K') && drop_from(1) {
        return Some(i + 4);
    }
    if drop_from(0) {
        return Some(i + 3);
    }
    for fixed in [&b"--"[..], b"Z0", b"0000", b"@@@@"] {
        if rest.starts_with(fixed) {
            return Some(i + fixed.len());
        }
    }
    for (long, short) in [(&b"O-O-O"[..], &b"O-O"[..]), (b"0-0-0", b"0-0")] {
        if rest.starts_with(long) {
            return Some(i + long.len());
        }
        if rest.starts_with(short) {
            return Some(i + short.len());
        }
    }
    None
}

/// The first token at or after `pos` in `s`, or `None`.
#[inline]
pub fn next_token(s: &[u8], mut pos: usize) -> Option<Token> {
    while pos < s.len() {
        let b = s[pos];
        let token = |kind, end| {
            Some(Token {
                kind,
                start: pos,
                end,
            })
        };
        // Bytes that can start no token are the common case (spaces, move numbers' dots).
        match b {
            b' ' | b'.' | b'\t' => {
                pos += 1;
                continue;
            }
            b'{' => return token(TokenKind::Comment, pos + 1),
            b';' => return token(TokenKind::LineComment, s.len()),
            b'(' => return token(TokenKind::Open, pos + 1),
            b')' => return token(TokenKind::Close, pos + 1),
            // Move numbers: a digit other than 0 before a digit or a dot starts no token (a
            // SAN needs a file or separator after its rank, a result `-` or `/`).
            b'1'..=b'9' if matches!(s.get(pos + 1), Some(b'0'..=b'9' | b'.')) => {
                pos += 1;
                continue;
            }
            _ => {}
        }
        if let Some(end) = san_at(s, pos).or_else(|| other_move_at(s, pos)) {
            return token(TokenKind::Move, end);
        }
        match b {
            b'$' => {
                let digits = s[pos + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                if digits > 0 {
                    return token(TokenKind::Nag, pos + 1 + digits);
                }
            }
            b'*' => return token(TokenKind::Result, pos + 1),
            b'1' | b'0' => {
                let rest = &s[pos..];
                for result in [&b"1-0"[..], b"0-1", b"1/2-1/2"] {
                    if rest.starts_with(result) {
                        return token(TokenKind::Result, pos + result.len());
                    }
                }
            }
            b'?' | b'!' => {
                let two = matches!(s.get(pos + 1), Some(b'?' | b'!'));
                return token(TokenKind::Suffix, pos + 1 + usize::from(two));
            }
            _ => {}
        }
        pos += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<(TokenKind, &str)> {
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some(t) = next_token(s.as_bytes(), pos) {
            out.push((t.kind, &s[t.start..t.end]));
            pos = t.end;
        }
        out
    }

    #[test]
    fn moves_numbers_and_results() {
        use TokenKind::*;
        assert_eq!(
            tokens("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O 1-0"),
            vec![
                (Move, "e4"),
                (Move, "e5"),
                (Move, "Nf3"),
                (Move, "Nc6"),
                (Move, "Bb5"),
                (Move, "a6"),
                (Move, "O-O"),
                (Result, "1-0")
            ]
        );
        assert_eq!(
            tokens("12...exd5+ Nbd7 Ng1f3 e8=Q# bxa8N 0-0-0 1/2-1/2 *"),
            vec![
                (Move, "exd5"),
                (Move, "Nbd7"),
                (Move, "Ng1f3"),
                (Move, "e8=Q"),
                (Move, "bxa8N"),
                (Move, "0-0-0"),
                (Result, "1/2-1/2"),
                (Result, "*")
            ]
        );
    }

    #[test]
    fn comments_nags_variations_and_junk() {
        use TokenKind::*;
        assert_eq!(
            tokens("e4!? $14 (d4?) {x} ; rest {"),
            vec![
                (Move, "e4"),
                (Suffix, "!?"),
                (Nag, "$14"),
                (Open, "("),
                (Move, "d4"),
                (Suffix, "?"),
                (Close, ")"),
                (Comment, "{"),
                (LineComment, "; rest {")
            ]
        );
        // Unmatched characters are skipped; `$` needs digits; drops and nulls are moves.
        assert_eq!(
            tokens("%% $ Pe4 N@f3 -- Z0 @@@@ 0000"),
            vec![
                (Move, "e4"),
                (Move, "N@f3"),
                (Move, "--"),
                (Move, "Z0"),
                (Move, "@@@@"),
                (Move, "0000")
            ]
        );
    }

    /// The regex tried the slow way: all sixteen choices of the four optional parts, in the
    /// order a backtracking matcher tries them.
    fn san_at_by_backtracking(s: &[u8], i: usize) -> Option<usize> {
        let at = |j: usize| s.get(j).copied().unwrap_or(0);
        for mask in (0u8..16).rev() {
            let mut j = i;
            let parts: [(u8, &dyn Fn(u8) -> bool); 4] = [
                (8, &|b| b"NBKRQ".contains(&b)),
                (4, &is_file),
                (2, &is_rank),
                (1, &|b| b == b'-' || b == b'x'),
            ];
            if !parts.iter().all(|(bit, test)| {
                if mask & bit == 0 {
                    return true;
                }
                let ok = test(at(j));
                j += 1;
                ok
            }) {
                continue;
            }
            if !(is_file(at(j)) && is_rank(at(j + 1))) {
                continue;
            }
            j += 2;
            let promotion = |b: u8| b"nbrqkNBRQK".contains(&b);
            if at(j) == b'=' && promotion(at(j + 1)) {
                j += 2;
            } else if promotion(at(j)) {
                j += 1;
            }
            return Some(j);
        }
        None
    }

    #[test]
    fn san_matching_agrees_with_backtracking() {
        let alphabet = b"NBKRQabeh1258-x=qk. ";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut matched = 0;
        for _ in 0..200_000 {
            let text: Vec<u8> = (0..8)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            let want = san_at_by_backtracking(&text, 0);
            assert_eq!(
                san_at(&text, 0),
                want,
                "{:?}",
                String::from_utf8_lossy(&text)
            );
            matched += usize::from(want.is_some());
        }
        assert!(matched > 1000, "{matched}");
    }

    /// `next_token` without its shortcuts: every position tried in the regex's order.
    fn next_token_plain(s: &[u8], mut pos: usize) -> Option<Token> {
        while pos < s.len() {
            let token = |kind, end| {
                Some(Token {
                    kind,
                    start: pos,
                    end,
                })
            };
            match s[pos] {
                b'{' => return token(TokenKind::Comment, pos + 1),
                b';' => return token(TokenKind::LineComment, s.len()),
                b'(' => return token(TokenKind::Open, pos + 1),
                b')' => return token(TokenKind::Close, pos + 1),
                _ => {}
            }
            if let Some(end) = san_at_by_backtracking(s, pos).or_else(|| other_move_at(s, pos)) {
                return token(TokenKind::Move, end);
            }
            let rest = &s[pos..];
            if rest.len() > 1 && rest[0] == b'$' && rest[1].is_ascii_digit() {
                let digits = rest[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                return token(TokenKind::Nag, pos + 1 + digits);
            }
            for result in [&b"*"[..], b"1-0", b"0-1", b"1/2-1/2"] {
                if rest.starts_with(result) {
                    return token(TokenKind::Result, pos + result.len());
                }
            }
            if matches!(rest[0], b'?' | b'!') {
                let two = matches!(rest.get(1), Some(b'?' | b'!'));
                return token(TokenKind::Suffix, pos + 1 + usize::from(two));
            }
            pos += 1;
        }
        None
    }

    #[test]
    fn tokens_agree_with_the_plain_tokenizer() {
        // Single bytes and fragments of real movetext (move numbers, castling, nulls, results).
        let pieces: [&[u8]; 48] = [
            b"N", b"B", b"K", b"R", b"Q", b"O", b"Z", b"P", b"@", b"a", b"e", b"h", b"0", b"1",
            b"2", b"5", b"8", b"9", b".", b"-", b"x", b"=", b"/", b"q", b"k", b"?", b"!", b"$",
            b"*", b"{", b"}", b"(", b")", b";", b"%", b" ", b"12.", b"0000", b"0-0", b"1-0",
            b"0-1", b"1/2-1/2", b"10...", b"e4", b"Nf3", b"O-O-O", b"19.", b"0.",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            let text: Vec<u8> = (0..12)
                .flat_map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pieces[(seed % pieces.len() as u64) as usize]
                        .iter()
                        .copied()
                })
                .collect();
            let (mut a, mut b) = (0, 0);
            loop {
                let (x, y) = (next_token(&text, a), next_token_plain(&text, b));
                assert_eq!(x, y, "{:?}", String::from_utf8_lossy(&text));
                let Some(t) = x else { break };
                a = t.end;
                b = t.end;
            }
        }
    }

    #[test]
    fn backtracking_matches_the_regex() {
        // `e4` must come from backtracking past the optional file and rank.
        assert_eq!(san_at(b"e4", 0), Some(2));
        assert_eq!(san_at(b"Qh4xe1", 0), Some(6));
        assert_eq!(san_at(b"1e4", 0), Some(3));
        assert_eq!(san_at(b"1.e4", 0), None);
        assert_eq!(san_at(b"a1-b2=", 0), Some(5));
        assert_eq!(san_at(b"d7d8q", 0), Some(5));
        assert_eq!(san_at(b"Kx", 0), None);
    }
}
