//! Lc0's 1858-move policy index (the flat policy head of its classical networks).
//!
//! The moves are listed in the mover's view (Black's moves mirrored vertically, so every
//! pawn moves up): first, for each origin square a1, b1, ..., h8, every square a queen or a
//! knight could reach from it, in square order (a1, b1, ..., h8): 1,792 moves. Then the 66
//! promotions from the seventh rank, by origin, then destination, each to queen, rook and
//! bishop in that order. A promotion to a knight has no entry of its own: it takes the index
//! of the plain pawn move (`a7a8` is `a7a8n`), as in Lc0. Castling, which the core writes as
//! "king takes rook", takes the index of `e1h1` (kingside) or `e1a1` (queenside) whatever the
//! king's file, as Lc0's `as_nn_index` does.
//!
//! ```
//! use pychess_core::Board;
//! use pychess_training_data::lc0_policy::{move_of_index, policy_index};
//! let board = Board::default();
//! let e4 = *board.legal_moves().iter().find(|&&m| board.uci(m).to_string() == "e2e4").unwrap();
//! assert_eq!(move_of_index(&board, policy_index(&board, e4)), Some(e4));
//! ```

use pychess_core::{Board, Color, Move, Role, Square};
use std::sync::OnceLock;

/// Entries of the policy.
pub const POLICY_SIZE: usize = 1858;

/// One entry: origin and destination in the mover's view, and the promotion (`None` also
/// for a knight promotion).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PolicyMove {
    /// Origin, mover's view.
    pub from: Square,
    /// Destination, mover's view.
    pub to: Square,
    /// Queen, rook or bishop for the promotions listed at the end.
    pub promotion: Option<Role>,
}

struct Table {
    moves: Vec<PolicyMove>,
    /// Index by `promotion_code * 4096 + from * 64 + to`; `u16::MAX` where there is none.
    index: Vec<u16>,
}

/// 0 for no promotion (or a knight), 1 queen, 2 rook, 3 bishop.
fn promotion_code(promotion: Option<Role>) -> usize {
    match promotion {
        Some(Role::Queen) => 1,
        Some(Role::Rook) => 2,
        Some(Role::Bishop) => 3,
        _ => 0,
    }
}

fn reaches(from: Square, to: Square) -> bool {
    let df = from.file().abs_diff(to.file());
    let dr = from.rank().abs_diff(to.rank());
    let queen = (df == 0) != (dr == 0) || (df == dr && df != 0);
    let knight = (df == 1 && dr == 2) || (df == 2 && dr == 1);
    queen || knight
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut moves = Vec::with_capacity(POLICY_SIZE);
        for from in Square::ALL {
            for to in Square::ALL {
                if reaches(from, to) {
                    moves.push(PolicyMove {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        for file in 0..8u8 {
            let from = Square::from_coords(file, 6);
            for to_file in file.saturating_sub(1)..=(file + 1).min(7) {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop] {
                    moves.push(PolicyMove {
                        from,
                        to: Square::from_coords(to_file, 7),
                        promotion: Some(promotion),
                    });
                }
            }
        }
        let mut index = vec![u16::MAX; 4 * 4096];
        for (i, m) in moves.iter().enumerate() {
            index[promotion_code(m.promotion) * 4096 + m.from.index() * 64 + m.to.index()] =
                i as u16;
        }
        Table { moves, index }
    })
}

/// The entry at `index` (mover's view), if `index < POLICY_SIZE`.
pub fn policy_move(index: usize) -> Option<PolicyMove> {
    table().moves.get(index).copied()
}

/// The index of the mover's-view move `from`-`to` with `promotion`, if it has one.
pub fn index_of(from: Square, to: Square, promotion: Option<Role>) -> Option<usize> {
    let i = table().index[promotion_code(promotion) * 4096 + from.index() * 64 + to.index()];
    (i != u16::MAX).then_some(usize::from(i))
}

/// The policy index of the legal move `m` of `board`.
///
/// # Panics
/// If `m` is not a move of `board` (a null move, say).
pub fn policy_index(board: &Board, m: Move) -> usize {
    if m.is_castle() {
        let rook_file = if m.to.file() > m.from.file() { 7 } else { 0 };
        return index_of(
            Square::from_coords(4, 0),
            Square::from_coords(rook_file, 0),
            None,
        )
        .expect("e1h1 and e1a1 are listed");
    }
    let view = |sq: Square| match board.turn() {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    index_of(view(m.from), view(m.to), m.promotion())
        .unwrap_or_else(|| panic!("{} has no Lc0 policy index", board.uci(m)))
}

/// The legal move of `board` whose policy index is `index`, if any. (Only in Chess960 can two
/// legal moves share an index: castling and a plain move onto e1/h1 or e1/a1; castling wins.)
pub fn move_of_index(board: &Board, index: usize) -> Option<Move> {
    let mut found = None;
    for &m in board.legal_moves().iter() {
        if policy_index(board, m) == index && (found.is_none() || m.is_castle()) {
            found = Some(m);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(m: PolicyMove) -> String {
        let mut s = format!("{}{}", square_name(m.from), square_name(m.to));
        if let Some(r) = m.promotion {
            s.push(match r {
                Role::Queen => 'q',
                Role::Rook => 'r',
                _ => 'b',
            });
        }
        s
    }

    fn square_name(sq: Square) -> String {
        format!("{}{}", sq.file_char(), sq.rank_char())
    }

    #[test]
    fn the_list_as_lc0_has_it() {
        assert_eq!(table().moves.len(), POLICY_SIZE);
        let names: Vec<String> = (0..POLICY_SIZE)
            .map(|i| name(policy_move(i).unwrap()))
            .collect();
        assert_eq!(&names[..3], ["a1b1", "a1c1", "a1d1"]);
        assert_eq!(names[22], "a1h8");
        assert_eq!(names[23], "b1a1");
        // Spot checks against Lc0's listing (eight entries a line in its source).
        assert_eq!(names[47], "c1a1");
        assert_eq!(names[72], "d1a1");
        assert_eq!(names[96], "d1d8");
        assert_eq!(names[97], "e1a1");
        assert_eq!(names[103], "e1h1");
        assert_eq!(names[1791], "h8g8");
        assert_eq!(&names[1792..1795], ["a7a8q", "a7a8r", "a7a8b"]);
        assert_eq!(names[1857], "h7h8b");
        assert!(policy_move(POLICY_SIZE).is_none());
    }

    #[test]
    fn moves_round_trip_in_both_colours() {
        for fen in [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PpPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PpPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            let mut seen = std::collections::HashSet::new();
            for &m in board.legal_moves().iter() {
                let i = policy_index(&board, m);
                assert!(seen.insert(i), "{} shares index {i}", board.uci(m));
                assert_eq!(move_of_index(&board, i), Some(m));
            }
        }
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false).unwrap();
        let castle = *board
            .legal_moves()
            .iter()
            .find(|&&m| board.uci(m).to_string() == "e8g8")
            .unwrap();
        assert_eq!(
            name(policy_move(policy_index(&board, castle)).unwrap()),
            "e1h1"
        );
    }
}
