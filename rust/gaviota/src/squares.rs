//! Square arithmetic of the Gaviota index: the board's symmetries and the numbering tables
//! the index schemes look pieces up in.
//!
//! Squares are numbered as everywhere in pychess-rs (a1 = 0, b1 = 1, ..., h8 = 63). A table
//! without pawns is normalised by the eight symmetries of the board so that the black king
//! stands in the triangle a1-d1-d4 (and, on its diagonal, the white king on or below it);
//! a table with pawns only by the left-right mirror, so that a chosen pawn stands on files
//! a-d. The tables below number the pairs and triples that remain:
//!
//! | table       | numbers                                              | count |
//! |-------------|------------------------------------------------------|-------|
//! | `kk`        | normalised (black king, white king) pairs, not touching | 462 |
//! | `aa`        | unordered pairs of distinct squares (two like pieces) | 2016 |
//! | `pp`        | two like pawns, the anchor on files a-d             | 576   |
//! | `pp48`      | unordered pairs of distinct pawn squares            | 1128  |
//! | `ppp48`     | three like pawns, up to the mirror                   | 8648  |
//!
//! They are built once, on first use, by the same loops that define them.

use std::sync::OnceLock;

/// A square index, 0..64.
pub(crate) type Sq = usize;

/// No index: the position has no place in the table (kings touching, a pawn on a back rank).
pub(crate) const NONE: i32 = -1;

/// Left-right mirror (file a <-> h).
#[inline]
pub(crate) const fn mirror_files(sq: Sq) -> Sq {
    sq ^ 7
}

/// Top-bottom mirror (rank 1 <-> 8).
#[inline]
pub(crate) const fn mirror_ranks(sq: Sq) -> Sq {
    sq ^ 56
}

/// Mirror in the a1-h8 diagonal (file <-> rank).
#[inline]
pub(crate) const fn mirror_diagonal(sq: Sq) -> Sq {
    ((sq & 7) << 3) | (sq >> 3)
}

#[inline]
const fn file(sq: Sq) -> Sq {
    sq & 7
}

#[inline]
const fn rank(sq: Sq) -> Sq {
    sq >> 3
}

/// Which mirrors bring `anchor` into the triangle a1-d1-d4, and, with `anchor` on the
/// a1-h8 diagonal, `other` on or below it: bit 0 files, bit 1 ranks, bit 2 the diagonal,
/// applied in that order.
pub(crate) fn symmetry(anchor: Sq, other: Sq) -> u8 {
    let (mut x, mut y) = (anchor, other);
    let mut flips = 0;
    if file(x) > 3 {
        x = mirror_files(x);
        y = mirror_files(y);
        flips |= 1;
    }
    if rank(x) > 3 {
        x = mirror_ranks(x);
        y = mirror_ranks(y);
        flips |= 2;
    }
    if rank(x) > file(x) || (rank(x) == file(x) && rank(y) > file(y)) {
        flips |= 4;
    }
    flips
}

/// `sq` under the mirrors `flips` names (see [`symmetry`]).
#[inline]
pub(crate) fn apply(flips: u8, mut sq: Sq) -> Sq {
    if flips & 1 != 0 {
        sq = mirror_files(sq);
    }
    if flips & 2 != 0 {
        sq = mirror_ranks(sq);
    }
    if flips & 4 != 0 {
        sq = mirror_diagonal(sq);
    }
    sq
}

/// A white pawn's slice among the 24 squares of ranks 2..7 on files a-d, counted from the
/// 7th rank down (the pawn already mirrored onto files a-d).
#[inline]
pub(crate) const fn white_pawn_slice24(pawn: Sq) -> Sq {
    black_pawn_slice24(mirror_ranks(pawn))
}

/// A black pawn's slice among the 24 squares on ranks 2..7, files a-d, from the 2nd rank up.
#[inline]
pub(crate) const fn black_pawn_slice24(pawn: Sq) -> Sq {
    let s = pawn.wrapping_sub(8);
    (s.wrapping_add(s & 3)) >> 1
}

/// A white pawn's place among the 48 squares of ranks 2..7, counted from a7.
#[inline]
pub(crate) const fn white_pawn_slice48(pawn: Sq) -> Sq {
    mirror_ranks(pawn).wrapping_sub(8)
}

/// Of two pawns of one side, the one that numbers the pair (`anchor`) and the other: the
/// more advanced (higher rank), on one rank the one nearer an edge file, and between two
/// files equally near an edge the lower square.
pub(crate) fn anchor_first(a: Sq, b: Sq) -> (Sq, Sq) {
    let edge_nearness = |sq: Sq| file(sq).max(7 - file(sq));
    if rank(b) > rank(a) {
        (b, a)
    } else if rank(b) < rank(a) {
        (a, b)
    } else if edge_nearness(b) != edge_nearness(a) {
        if edge_nearness(b) > edge_nearness(a) {
            (b, a)
        } else {
            (a, b)
        }
    } else {
        (a.min(b), a.max(b))
    }
}

/// The numbering tables (see the module header).
pub(crate) struct Tables {
    /// `[black king][white king]`, both normalised.
    pub kk: Box<[[i32; 64]; 64]>,
    /// `[a][b]` for a != b, symmetric.
    pub aa: Box<[[i32; 64]; 64]>,
    /// Where the triples of `c` start: `aaa_base[c]`.
    pub aaa_base: [i32; 64],
    /// `[anchor slice24][other slice48]`.
    pub pp: Box<[[i32; 48]; 24]>,
    /// `[i][j]`, symmetric, over pawn places 0..48.
    pub pp48: Box<[[i32; 48]; 48]>,
    /// `[i][j][k]`, symmetric in its three places, over pawn places 0..48.
    pub ppp48: Vec<i32>,
}

/// Size of the numbering of pawn-free two-king placements.
pub(crate) const KK_COUNT: usize = 462;
/// Unordered pairs of distinct squares.
pub(crate) const AA_COUNT: usize = 2016;
/// Unordered triples of distinct squares, as the table numbers them (64 * 21 * 31).
pub(crate) const AAA_COUNT: usize = 64 * 21 * 31;
/// Pairs of like pawns.
pub(crate) const PP_COUNT: usize = 576;
/// A white pawn and a black pawn (24 * 48).
pub(crate) const PWPB_COUNT: usize = 24 * 48;
/// Unordered pairs of pawn places.
pub(crate) const PP48_COUNT: usize = 1128;
/// Triples of like pawns.
pub(crate) const PPP48_COUNT: usize = 8648;

/// The tables, built on first use.
pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

/// The 48 pawn squares in the order the three-pawn numbering walks them: files h-e from
/// rank 7 down to rank 2, then files d-a the same way.
fn pawn_walk() -> [Sq; 48] {
    let mut squares = [0; 48];
    let mut n = 0;
    for files in [[7, 6, 5, 4], [3, 2, 1, 0]] {
        for r in (1..=6).rev() {
            for f in files {
                squares[n] = r * 8 + f;
                n += 1;
            }
        }
    }
    squares
}

fn ppp48_at(i: usize, j: usize, k: usize) -> usize {
    (i * 48 + j) * 48 + k
}

fn build() -> Tables {
    let mut kk = Box::new([[NONE; 64]; 64]);
    let mut n = 0;
    for x in 0..64 {
        for y in 0..64 {
            let touching = pychess_core::attacks::king(pychess_core::Square::new(x as u8))
                .contains(pychess_core::Square::new(y as u8));
            if x == y || touching {
                continue;
            }
            let flips = symmetry(x, y);
            let (i, j) = (apply(flips, x), apply(flips, y));
            if kk[i][j] == NONE {
                kk[i][j] = n;
                n += 1;
            }
        }
    }
    debug_assert_eq!(n as usize, KK_COUNT);

    let mut aa = Box::new([[NONE; 64]; 64]);
    let mut n = 0;
    for x in 0..64 {
        for y in x + 1..64 {
            aa[x][y] = n;
            aa[y][x] = n;
            n += 1;
        }
    }
    debug_assert_eq!(n as usize, AA_COUNT);

    let mut aaa_base = [0; 64];
    for c in 1..64 {
        let prev = (c - 1) as i32;
        aaa_base[c] = aaa_base[c - 1] + prev * (prev - 1) / 2;
    }

    let mut pp = Box::new([[NONE; 48]; 24]);
    let mut n = 0;
    for a in (8..56).rev() {
        if file(a) < 4 {
            continue;
        }
        for b in (8..a).rev() {
            let (mut anchor, mut other) = anchor_first(a, b);
            if file(anchor) > 3 {
                anchor = mirror_files(anchor);
                other = mirror_files(other);
            }
            let (i, j) = (white_pawn_slice24(anchor), white_pawn_slice48(other));
            if pp[i][j] == NONE {
                pp[i][j] = n;
                n += 1;
            }
        }
    }
    debug_assert_eq!(n as usize, PP_COUNT);

    let mut pp48 = Box::new([[NONE; 48]; 48]);
    let mut n = 0;
    for a in (8..56).rev() {
        for b in (8..a).rev() {
            let i = mirror_files(mirror_ranks(a)) - 8;
            let j = mirror_files(mirror_ranks(b)) - 8;
            if pp48[i][j] == NONE {
                pp48[i][j] = n;
                pp48[j][i] = n;
                n += 1;
            }
        }
    }
    debug_assert_eq!(n as usize, PP48_COUNT);

    let walk = pawn_walk();
    let mut ppp48 = vec![NONE; 48 * 48 * 48];
    let mut n = 0;
    for x in 0..48 {
        for y in x + 1..48 {
            for z in y + 1..48 {
                let (a, b, c) = (walk[x], walk[y], walk[z]);
                if file(b) > 3 || file(c) > 3 {
                    continue;
                }
                let (i, j, k) = (a - 8, b - 8, c - 8);
                if ppp48[ppp48_at(i, j, k)] == NONE {
                    for (p, q, r) in [
                        (i, j, k),
                        (i, k, j),
                        (j, i, k),
                        (j, k, i),
                        (k, i, j),
                        (k, j, i),
                    ] {
                        ppp48[ppp48_at(p, q, r)] = n;
                    }
                    n += 1;
                }
            }
        }
    }
    debug_assert_eq!(n as usize, PPP48_COUNT);

    Tables {
        kk,
        aa,
        aaa_base,
        pp,
        pp48,
        ppp48,
    }
}

impl Tables {
    /// The three-pawn number of pawn places `i`, `j`, `k` (each 0..48), or [`NONE`].
    pub(crate) fn ppp48(&self, i: usize, j: usize, k: usize) -> i32 {
        if i < 48 && j < 48 && k < 48 {
            self.ppp48[ppp48_at(i, j, k)]
        } else {
            NONE
        }
    }

    /// The number of a triple of distinct squares `x < y < z` among all such triples.
    pub(crate) fn aaa(&self, x: Sq, y: Sq, z: Sq) -> i32 {
        x as i32 + (y as i32 - 1) * y as i32 / 2 + self.aaa_base[z]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_format() {
        let t = tables();
        fn max<'a>(rows: impl IntoIterator<Item = &'a i32>) -> i32 {
            rows.into_iter().copied().max().unwrap_or(NONE)
        }
        assert_eq!(max(t.kk.iter().flatten()) + 1, KK_COUNT as i32);
        assert_eq!(max(t.aa.iter().flatten()) + 1, AA_COUNT as i32);
        assert_eq!(max(t.pp.iter().flatten()) + 1, PP_COUNT as i32);
        assert_eq!(max(t.pp48.iter().flatten()) + 1, PP48_COUNT as i32);
        assert_eq!(max(&t.ppp48) + 1, PPP48_COUNT as i32);
        // The last triple (61, 62, 63) takes the last number.
        assert_eq!(t.aaa(61, 62, 63) + 1, 64 * 63 * 62 / 6);
    }

    #[test]
    fn symmetry_lands_in_the_triangle() {
        for x in 0..64 {
            for y in 0..64 {
                let f = symmetry(x, y);
                let (i, j) = (apply(f, x), apply(f, y));
                assert!(file(i) <= 3 && rank(i) <= file(i), "{x} {y} -> {i}");
                if rank(i) == file(i) {
                    assert!(rank(j) <= file(j), "{x} {y} -> {i} {j}");
                }
            }
        }
    }

    #[test]
    fn anchor_is_the_more_advanced_pawn() {
        // b5 (33) is ahead of g4 (30); on one rank the edge file wins; c and f tie: lower.
        assert_eq!(anchor_first(30, 33), (33, 30));
        assert_eq!(anchor_first(26, 24), (24, 26));
        assert_eq!(anchor_first(29, 26), (26, 29));
    }
}
