//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
//! generator. The last ply is bulk-counted: its moves are counted, not listed or played.
//!
//! ```
//! use pychess_core::{perft, Board};
//! assert_eq!(perft(&Board::default(), 3), 8902);
//! ```
//!
//! Suites of known counts are written one position a line, `FEN ;D1 20 ;D2 400`, the format
//! of `tests/data/*.epd` (and of shakmaty's and python-chess's perft files). The format is
//! read here once, by [`parse_suite_line`], for the Rust tests and the Python tools alike.
//!
//! ```
//! use pychess_core::perft::parse_suite_line;
//! let entry = parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9").unwrap().unwrap();
//! assert_eq!(entry.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
//! assert_eq!(entry.counts, vec![(1, 3), (2, 9)]);
//! assert!(parse_suite_line("# a comment").unwrap().is_none());
//! ```

use crate::board::Board;
use crate::types::Move;

/// Leaf nodes at `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves() as u64,
        _ => board
            .legal_moves()
            .iter()
            .map(|&m| perft(&board.after(m), depth - 1))
            .sum(),
    }
}

/// Perft split by the first move ("divide"), in generation order.
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    board
        .legal_moves()
        .iter()
        .map(|&m| (m, perft(&board.after(m), depth - 1)))
        .collect()
}

/// One line of a perft suite: a position and its known node counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// Reads one suite line (`FEN ;D1 20 ;D2 400`). Blank lines and `#` comments are `Ok(None)`;
/// a count field that is not `D<depth> <nodes>` is an error quoting it.
pub fn parse_suite_line(line: &str) -> Result<Option<SuiteEntry>, String> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let mut fields = text.split(';');
    let fen = fields.next().unwrap_or_default().trim().to_string();
    let mut counts = Vec::new();
    for raw in fields {
        let field = raw.trim();
        if field.is_empty() {
            continue;
        }
        let parsed = field.split_once(' ').and_then(|(tag, nodes)| {
            let depth = tag.strip_prefix(['D', 'd'])?;
            let nodes = nodes.trim();
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            if !all_digits(depth) || !all_digits(nodes) {
                return None;
            }
            Some((depth.parse().ok()?, nodes.parse().ok()?))
        });
        counts.push(parsed.ok_or_else(|| {
            format!(
                "expected 'D<depth> <nodes>', got {}",
                crate::compat::py_repr(field)
            )
        })?);
    }
    Ok(Some(SuiteEntry { fen, counts }))
}

/// The first `take` positions of the suite `tests/data/<file>`, for the unit tests that
/// walk the suites' positions.
#[cfg(test)]
pub(crate) fn suite_positions(file: &str, chess960: bool, take: usize) -> Vec<Board> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| parse_suite_line(line).ok().flatten())
        .take(take)
        .filter_map(|entry| Board::from_fen(&entry.fen, chess960).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines() {
        let entry = parse_suite_line("  fen here ;D1 20; d2 400 ;\n")
            .unwrap()
            .unwrap();
        assert_eq!(entry.fen, "fen here");
        assert_eq!(entry.counts, vec![(1, 20), (2, 400)]);
        assert_eq!(parse_suite_line("   "), Ok(None));
        assert_eq!(parse_suite_line("  # D1 x"), Ok(None));
        for bad in [
            "fen ;D1",
            "fen ;X1 20",
            "fen ;D 20",
            "fen ;D1 2x",
            "fen ;D-1 2",
            "fen ;D1 99999999999999999999",
        ] {
            let err = parse_suite_line(bad).unwrap_err();
            assert!(
                err.starts_with("expected 'D<depth> <nodes>', got "),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let board = Board::default();
        let divided = perft_divide(&board, 3);
        assert_eq!(divided.len(), 20);
        assert_eq!(
            divided.iter().map(|(_, n)| n).sum::<u64>(),
            perft(&board, 3)
        );
        assert!(perft_divide(&board, 0).is_empty());
        assert_eq!(perft(&board, 0), 1);
    }
}
