//! Attack lookups for every piece, plus the `between` and `line` tables movegen uses for
//! pins and check blocks.
//!
//! ```
//! use pychess_core::{attacks, Bitboard, Square};
//! // A rook on a1 with a blocker on a4 sees a2, a3, a4 and the whole first rank.
//! let a1 = Square::parse("a1").unwrap();
//! let a4 = Bitboard::from_square(Square::parse("a4").unwrap());
//! assert_eq!(attacks::rook(a1, a4), Bitboard(0x0000_0000_0101_01fe));
//! ```

mod magic;
// `relevant_occupancy` serves build.rs and the tests only.
#[allow(dead_code)]
pub(crate) mod reference;

use crate::types::{Bitboard, Color, Role, Square};
use reference::{
    slider_attacks, step_attacks, BISHOP_DIRECTIONS, KING_STEPS, KNIGHT_JUMPS, ROOK_DIRECTIONS,
};

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = step_attacks(sq as u32, steps);
        sq += 1;
    }
    table
}

static KNIGHT_ATTACKS: [u64; 64] = step_table(&KNIGHT_JUMPS);
static KING_ATTACKS: [u64; 64] = step_table(&KING_STEPS);
static PAWN_ATTACKS: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// `LINES[a][b]`: the whole line (rank, file or diagonal, edge to edge) through a and b, or 0.
static LINES: [[u64; 64]; 64] = {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let bb = 1u64 << b;
                let rook = slider_attacks(a as u32, 0, &ROOK_DIRECTIONS);
                let bishop = slider_attacks(a as u32, 0, &BISHOP_DIRECTIONS);
                if rook & bb != 0 {
                    table[a][b] =
                        (rook & slider_attacks(b as u32, 0, &ROOK_DIRECTIONS)) | (1 << a) | bb;
                } else if bishop & bb != 0 {
                    table[a][b] =
                        (bishop & slider_attacks(b as u32, 0, &BISHOP_DIRECTIONS)) | (1 << a) | bb;
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// `BETWEEN[a][b]`: the squares strictly between a and b on a common line, or 0.
static BETWEEN: [[u64; 64]; 64] = {
    let mut table = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let bb = 1u64 << b;
                let aa = 1u64 << a;
                let rook = slider_attacks(a as u32, bb, &ROOK_DIRECTIONS);
                let bishop = slider_attacks(a as u32, bb, &BISHOP_DIRECTIONS);
                if rook & bb != 0 {
                    table[a][b] = rook & slider_attacks(b as u32, aa, &ROOK_DIRECTIONS);
                } else if bishop & bb != 0 {
                    table[a][b] = bishop & slider_attacks(b as u32, aa, &BISHOP_DIRECTIONS);
                }
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures diagonally forward).
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN_ATTACKS[color.index()][sq.index()])
}

/// Squares a rook on `sq` attacks, given `occupied`.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(magic::rook(sq.index(), occupied.0))
}

/// Squares a bishop on `sq` attacks, given `occupied`.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(magic::bishop(sq.index(), occupied.0))
}

/// Squares a queen on `sq` attacks, given `occupied`.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares a piece of `role` and `color` on `sq` attacks, given `occupied`.
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn(color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a rank, file or diagonal.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index()][b.index()])
}

/// The full line through `a` and `b` (edge to edge), or empty if they share none.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap deterministic stream of occupancies.
    fn occupancies() -> impl Iterator<Item = u64> {
        let mut state = 0x1234_5678_9abc_def1u64;
        (0..2000).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state & (state >> 3)
        })
    }

    #[test]
    fn magic_lookups_match_the_reference_slider() {
        for occ in occupancies() {
            for sq in Square::ALL {
                let i = sq.index() as u32;
                assert_eq!(
                    rook(sq, Bitboard(occ)).0,
                    slider_attacks(i, occ, &ROOK_DIRECTIONS)
                );
                assert_eq!(
                    bishop(sq, Bitboard(occ)).0,
                    slider_attacks(i, occ, &BISHOP_DIRECTIONS)
                );
            }
        }
    }

    #[test]
    fn relevant_occupancy_leaves_out_the_edges() {
        // A rook in the corner: 6 squares up the file and 6 along the rank matter.
        assert_eq!(
            reference::relevant_occupancy(0, &ROOK_DIRECTIONS).count_ones(),
            12
        );
        // A bishop in the centre: 9 squares (the four diagonals, minus edge squares).
        assert_eq!(
            reference::relevant_occupancy(27, &BISHOP_DIRECTIONS).count_ones(),
            9
        );
    }

    #[test]
    fn between_and_line() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(between(sq("a1"), sq("a4")).count(), 2);
        assert_eq!(between(sq("a1"), sq("h8")).count(), 6);
        assert!(between(sq("a1"), sq("b3")).is_empty());
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(line(sq("a1"), sq("b3")).is_empty());
    }

    #[test]
    fn step_attacks_at_the_edges() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(knight(sq("a1")).count(), 2);
        assert_eq!(knight(sq("d4")).count(), 8);
        assert_eq!(king(sq("h8")).count(), 3);
        assert_eq!(
            pawn(Color::White, sq("a2")),
            Bitboard::from_square(sq("b3"))
        );
        assert_eq!(
            pawn(Color::Black, sq("h7")),
            Bitboard::from_square(sq("g6"))
        );
    }
}
