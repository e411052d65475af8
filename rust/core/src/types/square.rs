//! Squares, files and ranks, numbered as python-chess does: `A1 = 0`, `B1 = 1`, ..., `H8 = 63`.

use std::fmt;

/// One of the 64 squares. The index is `rank * 8 + file`.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Every square, `A1` first.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `index` (0..64).
    ///
    /// # Panics
    /// If `index >= 64`; callers validate user input first.
    #[inline]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The square with index `index`, or `None` when it is out of range.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    /// The index, 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (first) to 7 (eighth).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The same file on the opposite side of the board (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Is this a dark square (a1 is dark)?
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// The square `delta` indices away, if it stays on the board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let target = self.0 as i16 + delta as i16;
        if target >= 0 && target < 64 {
            Some(Square(target as u8))
        } else {
            None
        }
    }

    /// King steps from `self` to `other` (the larger of the file and rank differences).
    #[inline]
    pub const fn distance(self, other: Square) -> u8 {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        if files > ranks {
            files
        } else {
            ranks
        }
    }

    /// Rook-like king steps (file difference plus rank difference).
    #[inline]
    pub const fn manhattan_distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// The fewest knight moves from `self` to `other` on an empty board.
    pub const fn knight_distance(self, other: Square) -> u8 {
        let (dx, dy) = (
            self.file().abs_diff(other.file()),
            self.rank().abs_diff(other.rank()),
        );
        let (long, short) = if dx > dy { (dx, dy) } else { (dy, dx) };
        // Near the origin the board is too small for the general bound: one orthogonal step
        // takes three jumps, a 2x2 diagonal four, and a 1x1 diagonal four from a corner (the
        // knight has no room for the two-move detour there).
        if long == 1 && short == 0 {
            return 3;
        }
        if long == 2 && short == 2 {
            return 4;
        }
        if long == 1 && short == 1 && (self.is_corner() || other.is_corner()) {
            return 4;
        }
        // Each jump covers at most two squares along one axis and three in sum, and every
        // jump flips the square colour, so the count has the parity of dx + dy.
        let by_axis = long.div_ceil(2);
        let by_sum = (long + short).div_ceil(3);
        let m = if by_axis > by_sum { by_axis } else { by_sum };
        m + (m + long + short) % 2
    }

    /// Is this a1, h1, a8 or h8?
    #[inline]
    pub const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 7 | 56 | 63)
    }

    /// Parses a name like `e4`.
    pub fn parse(name: &str) -> Option<Square> {
        match name.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// The file letter, `'a'..='h'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'..='8'`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4"), Some(Square::new(28)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    /// Knight distances by breadth-first search over the board.
    fn knight_distances_from(start: Square) -> [u8; 64] {
        let mut dist = [u8::MAX; 64];
        dist[start.index()] = 0;
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(sq) = queue.pop_front() {
            for (df, dr) in crate::attacks::reference::KNIGHT_JUMPS {
                let (f, r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
                if (0..8).contains(&f) && (0..8).contains(&r) {
                    let next = Square::from_coords(f as u8, r as u8);
                    if dist[next.index()] == u8::MAX {
                        dist[next.index()] = dist[sq.index()] + 1;
                        queue.push_back(next);
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn knight_distance_agrees_with_a_search() {
        for a in Square::ALL {
            let expected = knight_distances_from(a);
            for b in Square::ALL {
                assert_eq!(a.knight_distance(b), expected[b.index()], "{a} {b}");
            }
        }
    }

    #[test]
    fn distances() {
        let sq = |name| Square::parse(name).unwrap();
        assert_eq!(sq("a1").distance(sq("h8")), 7);
        assert_eq!(sq("d4").distance(sq("e5")), 1);
        assert_eq!(sq("a1").manhattan_distance(sq("h8")), 14);
        assert_eq!(sq("d4").manhattan_distance(sq("e5")), 2);
        assert_eq!(sq("e1").knight_distance(sq("e8")), 5);
    }

    #[test]
    fn colours_and_flips() {
        assert!(Square::parse("a1").unwrap().is_dark());
        assert!(!Square::parse("h1").unwrap().is_dark());
        assert_eq!(
            Square::parse("c2").unwrap().flip_vertical(),
            Square::parse("c7").unwrap()
        );
    }
}
