//! Boards and square sets drawn as text, the way python-chess prints them: `str(board)`,
//! `board.unicode(...)` and `str(square_set)`.
//!
//! ```
//! use pychess_core::{Bitboard, Board, DiagramStyle};
//! let board = Board::default();
//! assert!(board.to_string().starts_with("r n b q k b n r\np p p p p p p p\n"));
//! assert_eq!(Bitboard::rank(0).to_string().lines().last(), Some("1 1 1 1 1 1 1 1"));
//! let drawn = board.diagram(&DiagramStyle { borders: true, ..DiagramStyle::default() });
//! assert!(drawn.ends_with("   a b c d e f g h"));
//! ```

use super::Board;
use crate::types::{Bitboard, Square};
use std::fmt;

/// How [`Board::diagram`] draws (python-chess's `unicode()` arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramStyle {
    /// Chess figurines (`♔`) instead of letters.
    pub unicode: bool,
    /// Swap the colours of the figurines (for dark terminals).
    pub invert_color: bool,
    /// Frame the board with rank numbers and file letters.
    pub borders: bool,
    /// What an empty square shows.
    pub empty_square: String,
    /// `true`: White's view (rank 8 on top); `false`: Black's.
    pub white_view: bool,
}

impl Default for DiagramStyle {
    /// python-chess's `unicode()` defaults.
    fn default() -> DiagramStyle {
        DiagramStyle {
            unicode: true,
            invert_color: false,
            borders: false,
            empty_square: "⭘".to_string(),
            white_view: true,
        }
    }
}

/// Draws the 64 squares, one rank per line, cells separated by a space (or `|` with
/// borders); `cell` writes one square.
fn draw(white_view: bool, borders: bool, mut cell: impl FnMut(Square, &mut String)) -> String {
    let mut out = String::with_capacity(if borders { 400 } else { 128 });
    let ranks: [u8; 8] = if white_view {
        [7, 6, 5, 4, 3, 2, 1, 0]
    } else {
        [0, 1, 2, 3, 4, 5, 6, 7]
    };
    let rule = format!("  {}\n", "-".repeat(17));
    for (row, &rank) in ranks.iter().enumerate() {
        if borders {
            out.push_str(&rule);
            out.push(char::from(b'1' + rank));
            out.push(' ');
        }
        for column in 0..8u8 {
            let file = if white_view { column } else { 7 - column };
            if borders {
                out.push('|');
            } else if column > 0 {
                out.push(' ');
            }
            cell(Square::from_coords(file, rank), &mut out);
        }
        if borders {
            out.push_str("|\n");
        } else if row < 7 {
            out.push('\n');
        }
    }
    if borders {
        out.push_str(&rule);
        out.push_str(if white_view {
            "   a b c d e f g h"
        } else {
            "   h g f e d c b a"
        });
    }
    out
}

impl Board {
    /// The board drawn in the given style.
    pub fn diagram(&self, style: &DiagramStyle) -> String {
        draw(style.white_view, style.borders, |sq, out| {
            match self.piece_at(sq) {
                Some(mut piece) if style.unicode => {
                    if style.invert_color {
                        piece.color = !piece.color;
                    }
                    out.push(piece.unicode());
                }
                Some(piece) => out.push(piece.char()),
                None => out.push_str(&style.empty_square),
            }
        })
    }
}

impl fmt::Display for Board {
    /// Letters and dots, White at the bottom (python-chess's `str(board)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram(&DiagramStyle {
            unicode: false,
            empty_square: ".".to_string(),
            ..DiagramStyle::default()
        }))
    }
}

impl fmt::Display for Bitboard {
    /// `1` for a member square, `.` otherwise, rank 8 on top (python-chess's `str(SquareSet)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&draw(true, false, |sq, out| {
            out.push(if self.contains(sq) { '1' } else { '.' });
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn letters_like_python_chess() {
        let board = Board::from_fen(KIWIPETE, false).unwrap();
        assert_eq!(
            board.to_string(),
            "r . . . k . . r\np . p p q p b .\nb n . . p n p .\n. . . P N . . .\n\
             . p . . P . . .\n. . N . . Q . p\nP P P B B P P P\nR . . . K . . R"
        );
    }

    #[test]
    fn unicode_with_borders_from_blacks_side() {
        let board = Board::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1", false).unwrap();
        let style = DiagramStyle {
            borders: true,
            white_view: false,
            empty_square: "·".to_string(),
            ..DiagramStyle::default()
        };
        let drawn = board.diagram(&style);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines.len(), 18);
        assert_eq!(lines[0], "  -----------------");
        assert_eq!(lines[1], "1 |♚|·|·|·|·|·|·|♔|");
        assert_eq!(lines[17], "   h g f e d c b a");
        let inverted = board.diagram(&DiagramStyle {
            invert_color: true,
            ..DiagramStyle::default()
        });
        assert!(inverted.ends_with("♚ ⭘ ⭘ ⭘ ⭘ ⭘ ⭘ ♔"));
    }

    #[test]
    fn square_sets() {
        let drawn = Bitboard::from_square(Square::new(7)).to_string();
        assert_eq!(drawn.lines().count(), 8);
        assert_eq!(drawn.lines().last(), Some(". . . . . . . 1"));
        assert!(drawn.starts_with(". . . . . . . .\n"));
    }
}
