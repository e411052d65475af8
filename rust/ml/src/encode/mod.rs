//! Tensor encodings of positions and moves, written into caller-owned buffers.
//!
//! Every format and its conventions (orientation, plane order, whose view, value types,
//! flattening) is described in `docs/encodings.md` with a worked example; each module's
//! documentation repeats what its functions write.
//!
//! * [`action`](action_of): AlphaZero's 8x8x73 = 4,672 move index (PettingZoo `chess_v6`'s
//!   numbering), both directions, and legal-action masks.
//! * [`pettingzoo_observation`]: PettingZoo `chess_v6`'s (8, 8, 111) observation.
//! * [`alphazero_planes`]: AlphaZero's (8, 8, 119) input planes.
//! * [`alphazero_words`] and [`pettingzoo_words_for`]: the same planes bit-packed, one `u64`
//!   per plane ([`Plane`] and [`expand_words`] turn them into dense planes).
//! * [`lc0_planes`]: Lc0's classical 112-plane input.
//! * [`compact`]: the 12 piece bitboards plus side, castling, en passant and clocks.
//! * [`halfkp_features`] and [`halfka_v2_hm_features`]: NNUE feature indices as
//!   nnue-pytorch defines them.

mod action;
mod alphazero;
mod compact;
mod history;
mod lc0;
mod nnue;
mod pettingzoo;

pub use action::{
    action_of, action_of_uci, legal_action_mask, move_of, try_action_of, ACTIONS, ACTION_PLANES,
};
pub use alphazero::{
    alphazero_planes, alphazero_planes_into, alphazero_words, ALPHAZERO_COUNTER_WORDS,
    ALPHAZERO_SHAPE, ALPHAZERO_WORDS,
};
pub use compact::{compact, COMPACT_LEN, NO_SQUARE};
pub use lc0::{lc0_planes, LC0_SHAPE};
pub use nnue::{
    halfka_v2_hm_features, halfkp_features, NnueError, NnueFeatureSet, HALFKA_V2_HM_INPUTS,
    HALFKP_INPUTS, MAX_FEATURES,
};
pub use pettingzoo::{
    pettingzoo_action_mask, pettingzoo_observation, pettingzoo_observation_for,
    pettingzoo_observation_into, pettingzoo_words_for, PETTINGZOO_SHAPE, PETTINGZOO_WORDS,
};

use pychess_core::{Color, Square};

/// `sq` as the side `mover` sees it: mirrored vertically for Black (files stay).
#[inline]
pub(crate) fn view_square(sq: Square, mover: Color) -> Square {
    match mover {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// A bitboard as the side `mover` sees it (mirrored vertically for Black).
#[inline]
pub(crate) fn view_bits(bits: u64, mover: Color) -> u64 {
    match mover {
        Color::White => bits,
        Color::Black => bits.swap_bytes(),
    }
}

mod sealed {
    /// Only the plain types below are planes (the streaming copy moves their bytes).
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for f32 {}
}

/// A dense plane value: `u8` (0/1, counters saturating at 255) or `f32`.
pub trait Plane: sealed::Sealed + Copy + Send + Sync + 'static {
    /// 0 or 1 from a bit (`bit` is 0 or 1).
    fn from_bit(bit: u64) -> Self;
    /// A counter plane's value.
    fn from_count(count: u64) -> Self;
}

impl Plane for u8 {
    #[inline]
    fn from_bit(bit: u64) -> u8 {
        bit as u8
    }
    #[inline]
    fn from_count(count: u64) -> u8 {
        count.min(255) as u8
    }
}

impl Plane for f32 {
    #[inline]
    fn from_bit(bit: u64) -> f32 {
        bit as f32
    }
    #[inline]
    fn from_count(count: u64) -> f32 {
        count as f32
    }
}

/// Copies `src` into `dst` with non-temporal stores on x86-64: a batch's dense planes are
/// written once and read by the caller (or a device copy) much later, so bringing each
/// output line into the cache first (the usual write-allocate) only costs memory traffic.
/// Call [`stream_fence`] before another thread reads `dst`.
///
/// # Panics
/// If the lengths differ.
#[inline]
pub(crate) fn stream_copy<T: Plane>(src: &[T], dst: &mut [T]) {
    assert_eq!(src.len(), dst.len(), "a streaming copy needs equal lengths");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let bytes = std::mem::size_of_val(src);
        let from = src.as_ptr().cast::<u8>();
        let to = dst.as_mut_ptr().cast::<u8>();
        let head = to.align_offset(16).min(bytes);
        // SAFETY: `src` and `dst` are distinct slices of `bytes` bytes each (a shared and a
        // mutable borrow cannot overlap) of a sealed plain type (u8 or f32: no padding, any
        // bit pattern valid). Every access below is inside `0..bytes`: the head up to the
        // first 16-byte boundary of `dst`, whole 16-byte blocks there (aligned, as
        // `_mm_stream_si128` requires; the loads are unaligned), and the tail. SSE2, which
        // both intrinsics need, is part of every x86-64 target. Measured: about a third off
        // the time to write a batch's uint8/float32 planes.
        unsafe {
            std::ptr::copy_nonoverlapping(from, to, head);
            let mut at = head;
            while at + 16 <= bytes {
                let block = _mm_loadu_si128(from.add(at).cast::<__m128i>());
                _mm_stream_si128(to.add(at).cast::<__m128i>(), block);
                at += 16;
            }
            std::ptr::copy_nonoverlapping(from.add(at), to.add(at), bytes - at);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    dst.copy_from_slice(src);
}

/// Orders the non-temporal stores of [`stream_copy`] before the stores that follow it (the
/// worker's "done" under the pool's lock), so whoever reads the output sees them.
#[inline]
pub(crate) fn stream_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE, which `sfence` needs, is part of every x86-64 target.
    unsafe {
        std::arch::x86_64::_mm_sfence();
    }
}

/// A bitboard (bit `i` = square `i`, a1 first) as an image word: bit `row * 8 + column`,
/// row 0 the eighth rank, the board as a diagram shows it from White's side. Callers mirror
/// the bitboard first for other views ([`view_bits`]).
#[inline]
pub(crate) fn image_word(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// Expands bit-packed planes into a channels-last `(8, 8, words.len())` image: channel `c` of
/// cell `p` (`p = row * 8 + column`) is bit `p` of `words[c]`, except the channels listed in
/// `counters`, whose word is a number written into every cell of that channel.
///
/// # Panics
/// If `out` is not `64 * words.len()` long.
#[inline]
pub fn expand_words<T: Plane>(words: &[u64], counters: &[usize], out: &mut [T]) {
    let channels = words.len();
    assert_eq!(
        out.len(),
        64 * channels,
        "an image has 64 cells of every channel"
    );
    // Zeros first, then the set cells: most planes are sparse (a few pieces), and writing
    // cell by cell would touch every value with a shift and a mask.
    let one = T::from_bit(1);
    out.fill(T::from_bit(0));
    for (channel, &word) in words.iter().enumerate() {
        if counters.contains(&channel) {
            if word != 0 {
                fill_image(out, channels, channel, T::from_count(word));
            }
        } else if word == u64::MAX {
            fill_image(out, channels, channel, one);
        } else {
            let mut rest = word;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out[cell * channels + channel] = one;
            }
        }
    }
}

/// Writes `value` into `channel` of a channels-last `(8, 8, channels)` image at every square
/// of `bits`, where image row 0 is the *eighth* rank of `bits` and column 0 the a-file (the
/// board as a diagram shows it from White's side; callers mirror `bits` for other views).
#[cfg(test)]
#[inline]
pub(crate) fn put_image<T: Copy>(
    out: &mut [T],
    channels: usize,
    channel: usize,
    bits: u64,
    value: T,
) {
    let mut rest = bits;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let row = 7 - sq / 8;
        out[(row * 8 + sq % 8) * channels + channel] = value;
    }
}

/// Writes `value` into every square of `channel` of a channels-last `(8, 8, channels)` image.
#[inline]
pub(crate) fn fill_image<T: Copy>(out: &mut [T], channels: usize, channel: usize, value: T) {
    for cell in out.chunks_exact_mut(channels) {
        cell[channel] = value;
    }
}
