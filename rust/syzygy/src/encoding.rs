//! From squares to a table index: the Syzygy position encoding.
//!
//! A table stores one value per *index*. The pieces are listed in the order the table's
//! header gives, and the index is a mixed-radix number of their squares:
//!
//! * Without pawns, the board's symmetries (files mirrored, ranks mirrored, the a1-h8
//!   diagonal) move the first piece into the a1-d1-d4 triangle. When the table has at least
//!   three unique pieces (encoding "111") the first three are encoded together; with only
//!   the two kings unique (encoding "K2") the pair of kings takes one of 462 legal placements.
//! * With pawns, only the files mirror; the *leading* pawns (the side with fewer, see
//!   [`crate::table`]) pick one of four files (a-d) and are encoded on the 48 pawn squares,
//!   then the other side's pawns.
//! * Every further group of like pieces is a combination: `C(free squares, group size)`.
//!
//! The tables below are format facts (which square gets which number); where a table is a
//! rule ("the squares below the diagonal, in order") it is computed from the rule.

/// The a1-d1-d4 triangle: for the first piece of a pawnless table, which of its ten squares
/// the square maps to after the symmetries (b1=0, c1, d1, c2, d2, d3, a1=6, b2, c3, d4=9).
pub(crate) const TRIANGLE: [u8; 64] = [
    6, 0, 1, 2, 2, 1, 0, 6, //
    0, 7, 3, 4, 4, 3, 7, 0, //
    1, 3, 8, 5, 5, 8, 3, 1, //
    2, 4, 5, 9, 9, 5, 4, 2, //
    2, 4, 5, 9, 9, 5, 4, 2, //
    1, 3, 8, 5, 5, 8, 3, 1, //
    0, 7, 3, 4, 4, 3, 7, 0, //
    6, 0, 1, 2, 2, 1, 0, 6, //
];

/// The square of each triangle number (the inverse of [`TRIANGLE`] on a1-d1-d4).
const TRIANGLE_SQUARES: [u8; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// How many pieces of encoding "111" (three unique pieces) lead, and of "K2".
pub(crate) const UNIQUE_LEADERS: [usize; 3] = [3, 0, 2];

/// The number of placements of the leading pieces: 31332 for "111", 462 for "K2".
pub(crate) const LEADER_FACTOR: [u64; 3] = [31332, 0, 462];

/// Rank minus file: 0 on the a1-h8 diagonal, positive above it.
#[inline]
fn off_diagonal(sq: u8) -> i8 {
    (sq >> 3) as i8 - (sq & 7) as i8
}

/// The square mirrored in the a1-h8 diagonal.
#[inline]
fn flip_diagonal(sq: u8) -> u8 {
    ((sq >> 3) | (sq << 3)) & 63
}

/// Binomial coefficients `C(n, k)` for `n < 64`, `k < 8` (0 where `k > n`).
const BINOMIAL: [[u64; 64]; 8] = {
    let mut table = [[0u64; 64]; 8];
    let mut k = 0;
    while k < 8 {
        let mut n = 0;
        while n < 64 {
            // C(n, k) = n! / (k! (n-k)!), built as a product that stays exact.
            let mut value = if k <= n { 1u64 } else { 0 };
            let mut i = 0;
            while i < k && k <= n {
                value = value * (n - i) as u64 / (i + 1) as u64;
                i += 1;
            }
            table[k][n] = value;
            n += 1;
        }
        k += 1;
    }
    table
};

/// `C(n, k)`, 0 for a negative `n` or `k > n`.
#[inline]
pub(crate) fn binomial(n: i32, k: usize) -> u64 {
    if !(0..64).contains(&n) || k >= 8 {
        return 0;
    }
    BINOMIAL[k][n as usize]
}

/// The squares strictly below the a1-h8 diagonal numbered in order (0..28), the diagonal
/// 28..36, the squares above it as their mirror image below.
const LOWER: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut next = 0;
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq & 7, sq >> 3);
        if file > rank {
            table[sq] = next;
            table[(file << 3) | rank] = next;
            next += 1;
        } else if file == rank {
            table[sq] = 28 + file as u8;
        }
        sq += 1;
    }
    table
};

/// The diagonal squares: a1..h8 are 0..8, h1..a8 (the other diagonal) 8..16, the rest 0.
const DIAG: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq & 7, sq >> 3);
        if file == rank {
            table[sq] = file as u8;
        } else if file + rank == 7 {
            table[sq] = 8 + rank as u8;
        }
        sq += 1;
    }
    table
};

/// The leading pawn's number on its half of the board: `6 * file + rank - 2` counting
/// files from the nearer edge (a2 = 0, a7 = 5, b2 = 6, .., d7 = 23); 0 off the pawn ranks.
pub(crate) const FLAP: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let (file, rank) = (sq & 7, sq >> 3);
        let edge = if file < 4 { file } else { 7 - file };
        table[sq] = (6 * edge + rank - 1) as u8;
        sq += 1;
    }
    table
};

/// The order the other leading pawns are counted in: 47 on a2, falling two a rank and
/// twelve a file towards the centre, the e-h files one below their mirror (e7 = 0).
const PAWN_TWIST: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut sq = 8;
    while sq < 56 {
        let (file, rank) = (sq & 7, sq >> 3);
        let edge = if file < 4 { file } else { 7 - file };
        let right = if file < 4 { 0 } else { 1 };
        table[sq] = (47 - 12 * edge - 2 * (rank - 1) - right) as u8;
        sq += 1;
    }
    table
};

/// The square of each [`FLAP`] number on the a-d files.
const fn flap_square(j: usize) -> usize {
    8 * (j % 6 + 1) + j / 6
}

/// Which of the four pawn files (a-d, mirrored) a file counts as.
const FILE_TO_FILE: [usize; 8] = [0, 1, 2, 3, 3, 2, 1, 0];

/// The 462 placements of two kings with the first in the a1-d1-d4 triangle (encoding "K2"),
/// `None` where the kings touch (or the first is on the diagonal and the second above it).
/// Placements with both kings on the diagonal come last, in order.
const KK_INDEX: [[u16; 64]; 10] = {
    const NONE: u16 = u16::MAX;
    let mut table = [[NONE; 64]; 10];
    let mut next = 0u16;
    let mut t = 0;
    while t < 10 {
        let s1 = TRIANGLE_SQUARES[t];
        let mut s2 = 0u8;
        while s2 < 64 {
            let touching = (s1 as i8 >> 3).abs_diff(s2 as i8 >> 3) <= 1
                && (s1 as i8 & 7).abs_diff(s2 as i8 & 7) <= 1;
            let d1 = (s1 >> 3) as i8 - (s1 & 7) as i8;
            let d2 = (s2 >> 3) as i8 - (s2 & 7) as i8;
            if !touching && !(d1 == 0 && d2 >= 0) {
                table[t][s2 as usize] = next;
                next += 1;
            }
            s2 += 1;
        }
        t += 1;
    }
    // Both on the diagonal: numbered after all others.
    let mut t = 0;
    while t < 10 {
        let s1 = TRIANGLE_SQUARES[t];
        let d1 = (s1 >> 3) as i8 - (s1 & 7) as i8;
        let mut s2 = 0u8;
        while s2 < 64 {
            let touching = (s1 as i8 >> 3).abs_diff(s2 as i8 >> 3) <= 1
                && (s1 as i8 & 7).abs_diff(s2 as i8 & 7) <= 1;
            let d2 = (s2 >> 3) as i8 - (s2 & 7) as i8;
            if !touching && d1 == 0 && d2 == 0 {
                table[t][s2 as usize] = next;
                next += 1;
            }
            s2 += 1;
        }
        t += 1;
    }
    table
};

/// Per number of leading pawns (1..=5) and [`FLAP`] number: where that leading pawn's
/// placements start within its file; and per file the file's placement count.
struct PawnTables {
    index: [[u64; 24]; 5],
    factor: [[u64; 4]; 5],
}

const PAWN_TABLES: PawnTables = {
    let mut index = [[0u64; 24]; 5];
    let mut factor = [[0u64; 4]; 5];
    let mut i = 0;
    while i < 5 {
        let mut file = 0;
        while file < 4 {
            let mut s = 0u64;
            let mut j = file * 6;
            while j < file * 6 + 6 {
                index[i][j] = s;
                s += if i == 0 {
                    1
                } else {
                    BINOMIAL[i][PAWN_TWIST[flap_square(j)] as usize]
                };
                j += 1;
            }
            factor[i][file] = s;
            file += 1;
        }
        i += 1;
    }
    PawnTables { index, factor }
};

/// The number of placements of `leaders` leading pawns (1..=5) on pawn file `file`.
pub(crate) fn pawn_factor(leaders: usize, file: usize) -> u64 {
    PAWN_TABLES.factor[leaders - 1][file]
}

/// Moves the leading pawn with the lowest [`FLAP`] number to the front and says which of
/// the four pawn files the table uses.
pub(crate) fn pawn_file(pos: &mut [u8], leaders: usize) -> usize {
    for i in 1..leaders {
        if FLAP[usize::from(pos[0])] > FLAP[usize::from(pos[i])] {
            pos.swap(0, i);
        }
    }
    FILE_TO_FILE[usize::from(pos[0] & 7)]
}

/// The index of a pawnless position. `pos` holds the squares in the table's piece order;
/// `norm` the group sizes, `factor` the radix of each group, `enc` 0 ("111") or 2 ("K2").
pub(crate) fn encode_piece(pos: &mut [u8], norm: &[u8], factor: &[u64], enc: usize) -> u64 {
    let n = pos.len();
    if pos[0] & 0x04 != 0 {
        pos.iter_mut().for_each(|s| *s ^= 0x07);
    }
    if pos[0] & 0x20 != 0 {
        pos.iter_mut().for_each(|s| *s ^= 0x38);
    }
    // Mirror in the diagonal when the first piece off it (among the leaders) is above it.
    if let Some(first_off) = pos.iter().position(|&s| off_diagonal(s) != 0) {
        if first_off < UNIQUE_LEADERS[enc] && off_diagonal(pos[first_off]) > 0 {
            pos.iter_mut().for_each(|s| *s = flip_diagonal(*s));
        }
    }
    let (mut idx, mut i) = if enc == 0 {
        let (p0, p1, p2) = (u64::from(pos[0]), u64::from(pos[1]), u64::from(pos[2]));
        let i = u64::from(p1 > p0);
        let j = u64::from(p2 > p0) + u64::from(p2 > p1);
        let (s0, s1, s2) = (
            usize::from(pos[0]),
            usize::from(pos[1]),
            usize::from(pos[2]),
        );
        let idx = if off_diagonal(pos[0]) != 0 {
            u64::from(TRIANGLE[s0]) * 63 * 62 + (p1 - i) * 62 + (p2 - j)
        } else if off_diagonal(pos[1]) != 0 {
            6 * 63 * 62 + u64::from(DIAG[s0]) * 28 * 62 + u64::from(LOWER[s1]) * 62 + p2 - j
        } else if off_diagonal(pos[2]) != 0 {
            6 * 63 * 62
                + 4 * 28 * 62
                + u64::from(DIAG[s0]) * 7 * 28
                + (u64::from(DIAG[s1]) - i) * 28
                + u64::from(LOWER[s2])
        } else {
            6 * 63 * 62
                + 4 * 28 * 62
                + 4 * 7 * 28
                + u64::from(DIAG[s0]) * 7 * 6
                + (u64::from(DIAG[s1]) - i) * 6
                + (u64::from(DIAG[s2]) - j)
        };
        (idx, 3)
    } else {
        let t = usize::from(TRIANGLE[usize::from(pos[0])]);
        (u64::from(KK_INDEX[t][usize::from(pos[1])]), 2)
    };
    idx *= factor[0];
    while i < n {
        let t = usize::from(norm[i]);
        idx += group_index(pos, i, t, 0) * factor[i];
        i += t;
    }
    idx
}

/// The combination number of the like pieces `pos[i..i + t]` on the squares the pieces
/// before them leave free (`shift` more squares off for pawns, which never stand on rank 1).
fn group_index(pos: &mut [u8], i: usize, t: usize, shift: i32) -> u64 {
    pos[i..i + t].sort_unstable();
    let mut s = 0;
    for m in i..i + t {
        let p = pos[m];
        let below = pos[..i].iter().filter(|&&q| p > q).count() as i32;
        s += binomial(i32::from(p) - below - shift, m - i + 1);
    }
    s
}

/// The index of a position with pawns. `pos` holds the squares in the table's order (the
/// leading pawns first, already flipped so that the table's side is White), `leaders` and
/// `others` the two sides' pawn counts.
pub(crate) fn encode_pawn(
    pos: &mut [u8],
    norm: &[u8],
    factor: &[u64],
    leaders: usize,
    others: usize,
) -> u64 {
    let n = pos.len();
    if pos[0] & 0x04 != 0 {
        pos.iter_mut().for_each(|s| *s ^= 0x07);
    }
    pos[1..leaders].sort_unstable_by_key(|&s| std::cmp::Reverse(PAWN_TWIST[usize::from(s)]));
    let t = leaders - 1;
    let mut idx = PAWN_TABLES.index[t][usize::from(FLAP[usize::from(pos[0])])];
    for i in (1..=t).rev() {
        idx += binomial(i32::from(PAWN_TWIST[usize::from(pos[i])]), t - i + 1);
    }
    idx *= factor[0];
    let mut i = leaders;
    if others > 0 {
        idx += group_index(pos, i, others, 8) * factor[i];
        i += others;
    }
    while i < n {
        let t = usize::from(norm[i]);
        idx += group_index(pos, i, t, 0) * factor[i];
        i += t;
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_format_sizes() {
        let kk = KK_INDEX
            .iter()
            .flatten()
            .filter(|&&v| v != u16::MAX)
            .count();
        assert_eq!(kk, 462);
        // A few entries of the published table.
        assert_eq!(KK_INDEX[0][3], 0);
        assert_eq!(KK_INDEX[6][18], 441);
        assert_eq!(KK_INDEX[8][0], 452);
        assert_eq!(KK_INDEX[9][63], 461);
        assert_eq!(LOWER[1], 0);
        assert_eq!(LOWER[8], 0);
        assert_eq!(LOWER[62], 27);
        assert_eq!(LOWER[63], 35);
        assert_eq!(DIAG[28], 11);
        assert_eq!(FLAP[12], 18);
        assert_eq!(PAWN_TWIST[8], 47);
        assert_eq!(PAWN_TWIST[52], 0);
        assert_eq!(PAWN_TWIST[21], 22 - 2);
        assert_eq!(binomial(63, 3), 39711);
        assert_eq!(binomial(2, 3), 0);
        assert_eq!(binomial(-1, 1), 0);
        assert_eq!(pawn_factor(1, 0), 6);
    }
}
