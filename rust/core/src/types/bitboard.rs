//! A set of squares packed in a `u64`, bit `i` standing for square `i`.

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Iterating yields squares in ascending order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// Squares like a1 (the dark ones).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);
    /// Squares like h1 (the light ones).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(!0xaa55_aa55_aa55_aa55);
    /// The first and the eighth rank.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
    /// a1, h1, a8 and h8: where standard chess's castling rooks start.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// All squares of rank `rank` (0 = first).
    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// All squares of file `file` (0 = a).
    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file)
    }

    /// Is the set empty?
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Does the set hold anything?
    #[inline]
    pub const fn nonempty(self) -> bool {
        self.0 != 0
    }

    /// Does the set hold `sq`?
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// How many squares the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Does the set hold more than one square?
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest square, if any.
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The only square of a one-square set.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.more_than_one() {
            None
        } else {
            self.first()
        }
    }

    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The set mirrored top to bottom (ranks swapped).
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// The set mirrored left to right (files swapped, a1 <-> h1).
    #[inline]
    pub const fn flip_horizontal(self) -> Bitboard {
        // Reversing all 64 bits mirrors both ways; swapping the bytes undoes the rank half.
        Bitboard(self.0.reverse_bits().swap_bytes())
    }

    /// The set mirrored about the a1-h8 diagonal (a square on file f, rank r goes to file r,
    /// rank f).
    #[inline]
    pub const fn flip_diagonal(self) -> Bitboard {
        // Three delta swaps: 4x4 blocks, then 2x2 blocks, then single squares.
        let mut x = self.0;
        let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
        Bitboard(x)
    }

    /// The set mirrored about the h1-a8 diagonal.
    #[inline]
    pub const fn flip_anti_diagonal(self) -> Bitboard {
        // The anti-diagonal mirror is the diagonal one turned by 180 degrees.
        Bitboard(self.flip_diagonal().0.reverse_bits())
    }

    /// Every square shifted one rank towards the eighth rank.
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square shifted one rank towards the first rank.
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square shifted `ranks` ranks up (positive) or down (negative) and `files` files
    /// right (positive, towards h) or left; squares pushed off the board are dropped rather
    /// than wrapped to the other edge. Steps of up to two files and ranks are what the board
    /// geometry (pawn pushes and captures, python-chess's `shift_*` helpers) needs.
    #[inline]
    pub const fn shift(self, files: i8, ranks: i8) -> Bitboard {
        let mut keep = !0u64;
        // Squares that would cross the a/h edge are masked out before the shift.
        let mut f = 0;
        while f < 8 {
            let target = f as i8 + files;
            if target < 0 || target > 7 {
                keep &= !Bitboard::file(f).0;
            }
            f += 1;
        }
        let delta = files as i32 + 8 * ranks as i32;
        let bits = self.0 & keep;
        Bitboard(if delta >= 64 || delta <= -64 {
            0
        } else if delta >= 0 {
            bits << delta
        } else {
            bits >> -delta
        })
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order() {
        let squares: Vec<usize> = Bitboard(0b1010_0001).map(|s| s.index()).collect();
        assert_eq!(squares, vec![0, 5, 7]);
        assert_eq!(Bitboard(0b1010_0001).len(), 3);
    }

    #[test]
    fn single_and_more_than_one() {
        assert_eq!(Bitboard(0b100).single(), Some(Square::new(2)));
        assert_eq!(Bitboard(0b110).single(), None);
        assert!(Bitboard(0b110).more_than_one());
        assert!(!Bitboard::EMPTY.more_than_one());
        assert_eq!(Bitboard(0b110).last(), Some(Square::new(2)));
    }

    /// The mirrors by definition, square by square.
    fn mirrored(bb: u64, map: impl Fn(u8, u8) -> (u8, u8)) -> u64 {
        Bitboard(bb)
            .map(|sq| {
                let (file, rank) = map(sq.file(), sq.rank());
                1u64 << (rank * 8 + file)
            })
            .fold(0, |acc, b| acc | b)
    }

    #[test]
    fn flips_move_every_square_where_they_should() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..500 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bb = Bitboard(state);
            assert_eq!(bb.flip_vertical().0, mirrored(state, |f, r| (f, 7 - r)));
            assert_eq!(bb.flip_horizontal().0, mirrored(state, |f, r| (7 - f, r)));
            assert_eq!(bb.flip_diagonal().0, mirrored(state, |f, r| (r, f)));
            assert_eq!(
                bb.flip_anti_diagonal().0,
                mirrored(state, |f, r| (7 - r, 7 - f))
            );
        }
        // The letter R, as python-chess's own test draws it.
        let r = Bitboard(0x1e22_2212_0e0a_1222);
        assert_eq!(r.flip_diagonal().0, 0x0000_6192_8c88_ff00);
        assert_eq!(r.flip_anti_diagonal().0, 0x00ff_1131_4986_0000);
    }

    #[test]
    fn shifts_drop_squares_off_the_edges() {
        for sq in Square::ALL {
            let bb = Bitboard::from_square(sq);
            for files in -2..=2i8 {
                for ranks in -2..=2i8 {
                    let file = sq.file() as i8 + files;
                    let rank = sq.rank() as i8 + ranks;
                    let expected = if (0..8).contains(&file) && (0..8).contains(&rank) {
                        1u64 << (rank * 8 + file)
                    } else {
                        0
                    };
                    assert_eq!(bb.shift(files, ranks).0, expected, "{sq} {files} {ranks}");
                }
            }
        }
    }

    #[test]
    fn square_colours_partition_the_board() {
        assert_eq!(
            Bitboard::DARK_SQUARES | Bitboard::LIGHT_SQUARES,
            Bitboard::FULL
        );
        assert!(Bitboard::DARK_SQUARES.contains(Square::new(0)));
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::new(7)));
    }
}
