//! Magic-bitboard lookup of slider attacks. The multipliers and the table come from
//! `build.rs` (seeded search), so lookups are one multiply, one shift and one load.

/// Where one square's slice of the attack table sits and how to index it.
pub(crate) struct Magic {
    pub(crate) mask: u64,
    pub(crate) magic: u64,
    pub(crate) shift: u32,
    pub(crate) offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

#[inline]
fn lookup(entry: &Magic, occupied: u64) -> u64 {
    let index =
        entry.offset + ((occupied & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    SLIDER_ATTACKS[index]
}

/// Rook attacks from square index `square` given the occupied squares.
#[inline]
pub(crate) fn rook(square: usize, occupied: u64) -> u64 {
    lookup(&ROOK_MAGICS[square], occupied)
}

/// Bishop attacks from square index `square` given the occupied squares.
#[inline]
pub(crate) fn bishop(square: usize, occupied: u64) -> u64 {
    lookup(&BISHOP_MAGICS[square], occupied)
}
