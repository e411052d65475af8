//! Perft: the number of leaf nodes of the legal-move tree, the standard check of a move
//! generator. The last ply is bulk-counted: its moves are counted, not listed or played.
//!
//! ```
//! use pychess_core::{perft, Board};
//! assert_eq!(perft(&Board::default(), 3), 8902);
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

#[cfg(test)]
mod tests {
    use super::*;

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
