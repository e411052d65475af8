//! Where a position stands in a table: the index schemes of the Gaviota format.
//!
//! A table is named by its pieces, white's then black's, each side king first and then by
//! kind, strongest first (`kqk`, `krpkp`, `kbbkn`). Its entries are numbered per side to
//! move by a scheme that depends only on the *shape* of that name: how many pieces each side
//! has, which of them are pawns, and which are alike. `krk` and `kqk` share the scheme
//! `KxK`; `kqrk` and `krbk` share `KabK` (two unlike pieces) while `kqqk` and `knnk` share
//! `KaaK` (two like pieces, numbered as an unordered pair).
//!
//! Pawnless schemes first bring the kings to a canonical corner by the eight symmetries of
//! the board ([`symmetry`]); schemes with pawns only mirror left-right so that a pawn stands
//! on files a-d, and number the pawn by its slice. Each scheme below says, in its own
//! words, the mixed-radix number it forms; the radices are the `*_COUNT`s of
//! [`crate::squares`] and 64 for a plain square.
//!
//! The numbering follows python-chess 1.11's `chess.gaviota` wherever that one differs
//! from a literal reading of the format (the order in which like pieces are listed, which
//! pawn of a pair is the anchor), so that both read the same entry.
//!
//! ```
//! use pychess_gaviota::Scheme;
//! assert_eq!(Scheme::for_name("krk"), Some(Scheme::KxK));
//! assert_eq!(Scheme::for_name("kbbkn"), Some(Scheme::KaaKb));
//! assert_eq!(Scheme::KxK.size(), 462 * 64);
//! ```

use crate::squares::{
    anchor_first, apply, black_pawn_slice24, mirror_files, mirror_ranks, symmetry, tables,
    white_pawn_slice24, white_pawn_slice48, Sq, AAA_COUNT, AA_COUNT, KK_COUNT, NONE, PP48_COUNT,
    PPP48_COUNT, PP_COUNT, PWPB_COUNT,
};

/// The numbering of a table's entries. `a`, `b`, `c` are pieces other than kings and pawns
/// (a repeated letter: like pieces), `p` a pawn, the letters before the second `K` white's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Scheme {
    KxK,
    KpK,
    KaKb,
    KaKp,
    KaaK,
    KabK,
    KapK,
    KppK,
    KpKp,
    KabcK,
    KaabK,
    KabbK,
    KaaaK,
    KaaKb,
    KabKc,
    KapKb,
    KppKa,
    KaaKp,
    KabKp,
    KapKp,
    KppKp,
    KaapK,
    KabpK,
    KappK,
    KpppK,
}

/// `(side's pieces after the king)`: the letters of one side of a table name, checked.
fn side_letters(side: &str) -> Option<Vec<u8>> {
    let rest = side.strip_prefix('k')?;
    let letters: Vec<u8> = rest.bytes().collect();
    let strength = |c: u8| b"pnbrq".iter().position(|&x| x == c);
    let mut last = usize::MAX;
    for &c in &letters {
        let s = strength(c)?;
        if s > last {
            return None;
        }
        last = s;
    }
    Some(letters)
}

impl Scheme {
    /// The scheme of a table name such as `"kqkr"` (lowercase, without `.gtb.cp4`), or
    /// `None` for a name that is not a Gaviota table of 3 to 5 pieces.
    pub fn for_name(name: &str) -> Option<Scheme> {
        if !name.is_ascii() || name.is_empty() {
            return None;
        }
        let second_king = name[1..].find('k')? + 1;
        let white = side_letters(&name[..second_king])?;
        let black = side_letters(&name[second_king..])?;
        let p = |c: &u8| *c == b'p';
        use Scheme::*;
        let scheme = match (white.as_slice(), black.as_slice()) {
            ([b'p'], []) => KpK,
            ([_], []) => KxK,
            ([b'p'], [b'p']) => KpKp,
            ([a], [b]) if !p(a) && p(b) => KaKp,
            ([a], [b]) if !p(a) && !p(b) => KaKb,
            ([b'p', b'p'], []) => KppK,
            ([a, b'p'], []) if !p(a) => KapK,
            ([a, b], []) if a == b => KaaK,
            ([_, _], []) => KabK,
            ([b'p', b'p', b'p'], []) => KpppK,
            ([a, b'p', b'p'], []) if !p(a) => KappK,
            ([a, b, b'p'], []) if a == b => KaapK,
            ([a, b, b'p'], []) if !p(a) && !p(b) => KabpK,
            ([a, b, c], []) if a == b && b == c => KaaaK,
            ([a, b, _], []) if a == b => KaabK,
            ([_, b, c], []) if b == c => KabbK,
            ([_, _, _], []) => KabcK,
            ([b'p', b'p'], [b'p']) => KppKp,
            ([b'p', b'p'], [_]) => KppKa,
            ([a, b'p'], [b'p']) if !p(a) => KapKp,
            ([a, b'p'], [_]) if !p(a) => KapKb,
            ([a, b], [b'p']) if a == b => KaaKp,
            ([_, _], [b'p']) => KabKp,
            ([a, b], [_]) if a == b => KaaKb,
            ([_, _], [_]) => KabKc,
            _ => return None,
        };
        Some(scheme)
    }

    /// Entries per side to move.
    pub fn size(self) -> u64 {
        use Scheme::*;
        let (kk, aa, aaa) = (KK_COUNT as u64, AA_COUNT as u64, AAA_COUNT as u64);
        let sq = 64u64;
        match self {
            KxK => kk * sq,
            KpK => 24 * sq * sq,
            KaKb | KabK => kk * sq * sq,
            KaKp | KapK => 24 * sq * sq * sq,
            KaaK => kk * aa,
            KppK => PP_COUNT as u64 * sq * sq,
            KpKp => PWPB_COUNT as u64 * sq * sq,
            KabcK | KabKc => kk * sq * sq * sq,
            KaabK | KabbK | KaaKb => kk * aa * sq,
            KaaaK => kk * aaa,
            KapKb | KabKp | KabpK => 24 * sq * sq * sq * sq,
            KppKa | KappK => PP_COUNT as u64 * sq * sq * sq,
            KapKp => PWPB_COUNT as u64 * sq * sq * sq,
            KaapK | KaaKp => 24 * aa * sq * sq,
            KppKp => 24 * PP48_COUNT as u64 * sq * sq,
            KpppK => PPP48_COUNT as u64 * sq * sq,
        }
    }

    /// The entry of a placement, or `None` where the placement has no entry (kings
    /// touching, two pieces on one square, a pawn on a back rank). `white` and `black` list
    /// the squares in the order of the table's name, king first, like pieces by rising
    /// square (the table's white may be the board's black, mirrored: see
    /// [`crate::Tablebase`]). Their lengths must fit the scheme.
    pub fn index(self, white: &[Sq], black: &[Sq]) -> Option<u64> {
        let i = self.raw_index(white, black);
        (i >= 0).then_some(i as u64)
    }

    fn raw_index(self, ws: &[Sq], bs: &[Sq]) -> i64 {
        use Scheme::*;
        match self {
            KxK | KabK | KaKb | KaaK | KabcK | KabbK | KaabK | KaaaK | KaaKb | KabKc => {
                pawnless(self, ws, bs)
            }
            _ => with_pawns(self, ws, bs),
        }
    }
}

/// Mixed-radix number: `digits` read with the given radices, most significant first.
fn number(digits: &[(i64, i64)]) -> i64 {
    digits.iter().fold(0, |acc, &(d, radix)| acc * radix + d)
}

fn pawnless(scheme: Scheme, ws: &[Sq], bs: &[Sq]) -> i64 {
    use Scheme::*;
    let t = tables();
    let flips = symmetry(bs[0], ws[0]);
    let w: Vec<Sq> = ws.iter().map(|&s| apply(flips, s)).collect();
    let b: Vec<Sq> = bs.iter().map(|&s| apply(flips, s)).collect();
    let kk = t.kk[b[0]][w[0]] as i64;
    if kk == NONE as i64 {
        return NONE as i64;
    }
    let sq = |s: Sq| (s as i64, 64);
    let aa = |x: Sq, y: Sq| t.aa[x][y] as i64;
    let kk = (kk, KK_COUNT as i64);
    match scheme {
        KxK => number(&[kk, sq(w[1])]),
        KabK => number(&[kk, sq(w[1]), sq(w[2])]),
        KaKb => number(&[kk, sq(w[1]), sq(b[1])]),
        KabcK => number(&[kk, sq(w[1]), sq(w[2]), sq(w[3])]),
        KabKc => number(&[kk, sq(w[1]), sq(w[2]), sq(b[1])]),
        KaaK | KaabK | KabbK | KaaKb => {
            let (pair, single) = match scheme {
                KaaK => ((w[1], w[2]), None),
                KaabK => ((w[1], w[2]), Some(w[3])),
                KabbK => ((w[2], w[3]), Some(w[1])),
                _ => ((w[1], w[2]), Some(b[1])),
            };
            let pair = aa(pair.0, pair.1);
            if pair == NONE as i64 {
                return NONE as i64;
            }
            match single {
                None => number(&[kk, (pair, AA_COUNT as i64)]),
                Some(s) => number(&[kk, (pair, AA_COUNT as i64), sq(s)]),
            }
        }
        KaaaK => {
            let mut three = [w[1], w[2], w[3]];
            three.sort_unstable();
            if three[0] == three[1] || three[1] == three[2] {
                return NONE as i64;
            }
            let triple = t.aaa(three[0], three[1], three[2]) as i64;
            number(&[kk, (triple, AAA_COUNT as i64)])
        }
        _ => unreachable!("pawnless schemes only"),
    }
}

fn on_pawn_ranks(sq: Sq) -> bool {
    (8..56).contains(&sq)
}

fn with_pawns(scheme: Scheme, ws: &[Sq], bs: &[Sq]) -> i64 {
    use Scheme::*;
    let t = tables();
    let pawns: Vec<Sq> = match scheme {
        KpK | KapK | KabpK | KaapK | KapKb => vec![ws[ws.len() - 1]],
        KaKp | KabKp | KaaKp => vec![bs[1]],
        KppK | KppKa | KappK => vec![ws[ws.len() - 2], ws[ws.len() - 1]],
        KpKp | KapKp => vec![ws[ws.len() - 1], bs[1]],
        KppKp => vec![ws[1], ws[2], bs[1]],
        KpppK => vec![ws[1], ws[2], ws[3]],
        _ => unreachable!("schemes with pawns only"),
    };
    if !pawns.iter().all(|&p| on_pawn_ranks(p)) {
        return NONE as i64;
    }
    let sq = |s: Sq| (s as i64, 64);
    if scheme == KpppK {
        return three_pawns(ws, bs);
    }
    // The pawn whose file decides the left-right mirror: the anchor of two like pawns, the
    // black pawn against two white ones, else the (first) white pawn.
    let decider = match scheme {
        KppK | KppKa | KappK => anchor_first(pawns[0], pawns[1]).0,
        KppKp => pawns[2],
        _ => pawns[0],
    };
    let mirrored = decider & 7 > 3;
    let m = |s: Sq| if mirrored { mirror_files(s) } else { s };
    let pawn = match scheme {
        KpK | KapK | KabpK | KaapK | KapKb => white_pawn_slice24(m(pawns[0])) as i64,
        KaKp | KabKp | KaaKp => black_pawn_slice24(m(pawns[0])) as i64,
        KpKp | KapKp => (white_pawn_slice24(m(pawns[0])) * 48 + (m(pawns[1]) - 8)) as i64,
        KppK | KppKa | KappK => {
            let (anchor, other) = anchor_first(pawns[0], pawns[1]);
            t.pp[white_pawn_slice24(m(anchor))][white_pawn_slice48(m(other))] as i64
        }
        _ => {
            // KppKp: the black pawn's slice, then the white pair as places seen from a7.
            let place = |s: Sq| mirror_files(mirror_ranks(m(s))) - 8;
            let pair = t.pp48[place(pawns[0])][place(pawns[1])] as i64;
            if pair == NONE as i64 {
                return NONE as i64;
            }
            black_pawn_slice24(m(pawns[2])) as i64 * PP48_COUNT as i64 + pair
        }
    };
    if pawn == NONE as i64 {
        return NONE as i64;
    }
    let (wk, bk) = (sq(m(ws[0])), sq(m(bs[0])));
    match scheme {
        KpK => number(&[(pawn, 24), wk, bk]),
        KapK | KaKp => number(&[(pawn, 24), wk, bk, sq(m(ws[1]))]),
        KapKb => number(&[(pawn, 24), wk, bk, sq(m(ws[1])), sq(m(bs[1]))]),
        KabpK | KabKp => number(&[(pawn, 24), wk, bk, sq(m(ws[1])), sq(m(ws[2]))]),
        KaapK | KaaKp => {
            let pair = t.aa[m(ws[1])][m(ws[2])] as i64;
            if pair == NONE as i64 {
                return NONE as i64;
            }
            number(&[(pawn, 24), wk, bk, (pair, AA_COUNT as i64)])
        }
        KpKp => number(&[(pawn, PWPB_COUNT as i64), wk, bk]),
        KapKp => number(&[(pawn, PWPB_COUNT as i64), wk, bk, sq(m(ws[1]))]),
        KppK => number(&[(pawn, PP_COUNT as i64), wk, bk]),
        KappK => number(&[(pawn, PP_COUNT as i64), wk, bk, sq(m(ws[1]))]),
        KppKa => number(&[(pawn, PP_COUNT as i64), wk, bk, sq(m(bs[1]))]),
        KppKp => number(&[(pawn, 24 * PP48_COUNT as i64), wk, bk]),
        _ => unreachable!("handled above"),
    }
}

/// KpppK: the three pawns number themselves as they stand, or else mirrored.
fn three_pawns(ws: &[Sq], bs: &[Sq]) -> i64 {
    let t = tables();
    let place = |s: Sq| s - 8;
    let mut mirrored = false;
    let mut triple = t.ppp48(place(ws[1]), place(ws[2]), place(ws[3]));
    if triple == NONE {
        mirrored = true;
        let p = |s: Sq| place(mirror_files(s));
        triple = t.ppp48(p(ws[1]), p(ws[2]), p(ws[3]));
    }
    if triple == NONE {
        return NONE as i64;
    }
    let m = |s: Sq| (if mirrored { mirror_files(s) } else { s }) as i64;
    number(&[
        (triple as i64, PPP48_COUNT as i64),
        (m(ws[0]), 64),
        (m(bs[0]), 64),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_to_schemes() {
        use Scheme::*;
        let cases = [
            ("kqk", KxK),
            ("kpk", KpK),
            ("krkn", KaKb),
            ("kqkp", KaKp),
            ("kpkp", KpKp),
            ("kbbk", KaaK),
            ("kbnk", KabK),
            ("krpk", KapK),
            ("kppk", KppK),
            ("kqqqk", KaaaK),
            ("kqqrk", KaabK),
            ("kbbnk", KaabK),
            ("kqrrk", KabbK),
            ("krbnk", KabcK),
            ("knnkb", KaaKb),
            ("kqrkq", KabKc),
            ("kbpkn", KapKb),
            ("kppkr", KppKa),
            ("krrkp", KaaKp),
            ("kqnkp", KabKp),
            ("kqpkp", KapKp),
            ("kppkp", KppKp),
            ("kqqpk", KaapK),
            ("kqbpk", KabpK),
            ("knppk", KappK),
            ("kpppk", KpppK),
        ];
        for (name, scheme) in cases {
            assert_eq!(Scheme::for_name(name), Some(scheme), "{name}");
        }
        for bad in [
            "", "k", "kk", "kkq", "kqrkbn", "kpqk", "kxk", "qkk", "kqkqkq",
        ] {
            assert_eq!(Scheme::for_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_legal_kxk_placement_has_a_distinct_entry_up_to_symmetry() {
        // K+Q v K: the 8 symmetric images of a placement share one entry, within range.
        let size = Scheme::KxK.size();
        let wk = 1; // b1
        let q = 20; // e3
        let bk = 42; // c6
        let i = Scheme::KxK.index(&[wk, q], &[bk]).unwrap();
        assert!(i < size);
        let mirrored = Scheme::KxK
            .index(&[mirror_files(wk), mirror_files(q)], &[mirror_files(bk)])
            .unwrap();
        assert_eq!(i, mirrored);
        // Kings touching: no entry.
        assert_eq!(Scheme::KxK.index(&[0, 20], &[9]), None);
    }

    #[test]
    fn pawns_on_back_ranks_have_no_entry() {
        assert_eq!(Scheme::KpK.index(&[0, 60], &[40]), None);
        assert!(Scheme::KpK.index(&[0, 52], &[40]).is_some());
    }
}
