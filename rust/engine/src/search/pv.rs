//! The triangular principal-variation table.
//!
//! Row `ply` holds the best line found so far from the node at `ply`, in columns
//! `ply..len[ply]`. A node empties its row on entry; when a move raises alpha at a PV node,
//! the row becomes that move followed by the child's row, so the root's line is built from
//! the leaves up without allocating.
//!
//! ```text
//! ply 0:  e2e4 e7e5 g1f3 b8c6      row 0 = e2e4 + row 1
//! ply 1:       e7e5 g1f3 b8c6      row 1 = e7e5 + row 2
//! ply 2:            g1f3 b8c6      ...
//! ```

use crate::params::MAX_PLY;
use pychess_core::Move;

/// Best lines from each ply of the current search path.
pub(super) struct PvTable {
    lines: Vec<[Move; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl PvTable {
    /// An empty table.
    pub fn new() -> PvTable {
        PvTable {
            lines: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }

    /// Empties the line of the node at `ply` (on entering it).
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply] = ply;
    }

    /// `m` raised alpha at `ply`: the line from `ply` is `m` and then the child's line.
    #[inline]
    pub fn update(&mut self, ply: usize, m: Move) {
        let child_len = self.len[ply + 1].max(ply + 1);
        self.lines[ply][ply] = m;
        for i in ply + 1..child_len {
            self.lines[ply][i] = self.lines[ply + 1][i];
        }
        self.len[ply] = child_len;
    }

    /// The line from the node at `ply`.
    #[inline]
    pub fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][ply..self.len[ply].max(ply)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::{Board, UciMove};

    #[test]
    fn lines_grow_from_the_leaves() {
        let mut board = Board::default();
        let mut moves = Vec::new();
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let m = board.find_legal(UciMove::parse(uci).unwrap()).unwrap();
            board.play_unchecked(m);
            moves.push(m);
        }
        let mut pv = PvTable::new();
        for ply in 0..4 {
            pv.clear(ply);
        }
        // The leaf at ply 3 found nothing; ply 2 down to 0 each raise alpha.
        for ply in (0..3).rev() {
            pv.update(ply, moves[ply]);
        }
        assert_eq!(pv.line(0), &moves[..]);
        assert_eq!(pv.line(1), &moves[1..]);
        assert!(pv.line(3).is_empty());
        // Re-entering ply 1 empties its line but not the root's.
        pv.clear(1);
        assert!(pv.line(1).is_empty());
        assert_eq!(pv.line(0), &moves[..]);
    }
}
