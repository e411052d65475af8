//! The network's integer kernels: adding and subtracting weight rows on an accumulator, and
//! the output neuron's dot products (clipped ReLU, squared clipped ReLU). They are plain Rust loops over `i16`
//! slices that the compiler vectorises, compiled twice: for the baseline of the target (SSE2
//! on x86-64, what a wheel must run on) and, on x86-64, again with AVX2 enabled, twice as
//! wide; each call takes the AVX2 build where the CPU has it. Every other target runs the
//! portable build alone.
//!
//! # Why `unsafe`
//!
//! Running code compiled for AVX2 on a CPU without it is undefined behaviour, so Rust makes a
//! call of a `#[target_feature(enable = "avx2")]` function unsafe. This module's two such
//! calls are each right behind `is_x86_feature_detected!("avx2")` (the standard library
//! detects the CPU's features once and caches them, so the check is a load and a branch);
//! the functions called are safe code otherwise, the same source as the portable build.
//! No other part of the engine's evaluation uses `unsafe`.

/// Sets `acc` to `source` (or, without one, to itself) plus each row of `added` minus each
/// row of `removed`, wrapping, in one pass (each row as long as `acc`): a child's
/// accumulator is made from its parent's without copying it first.
#[inline]
pub(super) fn apply(acc: &mut [i16], source: Option<&[i16]>, added: &[&[i16]], removed: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked on the line above).
        unsafe { apply_avx2(acc, source, added, removed) };
        return;
    }
    apply_portable(acc, source, added, removed);
}

/// `sum(clamp(acc, 0, qa) * weights)` (a `qa` of `i16::MAX` or more clamps below only).
#[inline]
pub(super) fn crelu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked on the line above).
        return unsafe { crelu_dot_avx2(acc, weights, qa) };
    }
    crelu_dot_portable(acc, weights, qa)
}

/// `sum(clamp(acc, 0, qa)^2 * weights)`, for the squared clipped ReLU, where every
/// `qa * weight` fits in `i16` (what the trainer's clipped weights give; see
/// [`screlu_dot_exact`] for others): each product as `(v * w) * v`, the first factor in `i16`
/// and the second step into `i32`, the shape of `pmullw` and `pmaddwd`.
#[inline]
pub(super) fn screlu_dot(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked on the line above).
        return unsafe { screlu_dot_avx2(acc, weights, qa) };
    }
    screlu_dot_portable(acc, weights, qa)
}

/// [`screlu_dot`] for any weights: `(v * w)` in `i32`, the rest in `i64` (a file whose
/// weights are too large for the fast kernel is evaluated right, more slowly).
pub(super) fn screlu_dot_exact(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&v, &w)| {
            let v = v.clamp(0, qa);
            i64::from(i32::from(v) * i32::from(w)) * i64::from(v)
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    screlu_dot_portable(acc, weights, qa)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn apply_avx2(
    acc: &mut [i16],
    source: Option<&[i16]>,
    added: &[&[i16]],
    removed: &[&[i16]],
) {
    apply_portable(acc, source, added, removed);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn crelu_dot_avx2(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    crelu_dot_portable(acc, weights, qa)
}

/// How many values [`apply_portable`] keeps in registers at a time: four AVX2 vectors.
const CHUNK: usize = 64;

/// The kernels' one source: inlined into each build, and vectorised with its features.
/// Chunk by chunk, so that each value is loaded and stored once whatever the number of rows
/// (row after row over the whole accumulator would load and store it once a row).
#[inline(always)]
fn apply_portable(acc: &mut [i16], source: Option<&[i16]>, added: &[&[i16]], removed: &[&[i16]]) {
    let whole = acc.len() / CHUNK * CHUNK;
    for start in (0..whole).step_by(CHUNK) {
        let span = start..start + CHUNK;
        let mut values: [i16; CHUNK] = source.unwrap_or(acc)[span.clone()]
            .try_into()
            .expect("a whole chunk");
        for row in added {
            let row: &[i16; CHUNK] = row[span.clone()].try_into().expect("a whole chunk");
            for (v, w) in values.iter_mut().zip(row) {
                *v = v.wrapping_add(*w);
            }
        }
        for row in removed {
            let row: &[i16; CHUNK] = row[span.clone()].try_into().expect("a whole chunk");
            for (v, w) in values.iter_mut().zip(row) {
                *v = v.wrapping_sub(*w);
            }
        }
        acc[span].copy_from_slice(&values);
    }
    for i in whole..acc.len() {
        let mut v = source.map_or(acc[i], |source| source[i]);
        for row in added {
            v = v.wrapping_add(row[i]);
        }
        for row in removed {
            v = v.wrapping_sub(row[i]);
        }
        acc[i] = v;
    }
}

/// Clamped in `i16` and multiplied into `i32` (the shape of `pmaddwd`), summed in `i32` over
/// blocks short enough that no block's sum can overflow (256 products for the usual `QA` of
/// 255: each at most 255 * 32,768), the blocks in `i64`.
#[inline(always)]
fn crelu_dot_portable(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    blocked_dot(acc, weights, qa, |v, w| i32::from(v) * i32::from(w))
}

/// As [`crelu_dot_portable`], with `v * w` (wrapping: exact where it fits in `i16`) in place
/// of `w`: each `i32` product is again at most `qa * 32,768`.
#[inline(always)]
fn screlu_dot_portable(acc: &[i16], weights: &[i16], qa: i16) -> i64 {
    blocked_dot(acc, weights, qa, |v, w| {
        i32::from(v.wrapping_mul(w)) * i32::from(v)
    })
}

/// The sum of `product(acc clamped to 0..=qa, weight)` over the rows, in `i32` blocks whose
/// sum cannot overflow given that each product is at most `qa * 32,768` in size.
#[inline(always)]
fn blocked_dot(
    acc: &[i16],
    weights: &[i16],
    qa: i16,
    product: impl Fn(i16, i16) -> i32 + Copy,
) -> i64 {
    let largest = i64::from(qa.max(1)) * 32_768;
    let block = (i64::from(i32::MAX) / largest).clamp(1, 256) as usize;
    let mut total = 0i64;
    for (a, w) in acc.chunks(block).zip(weights.chunks(block)) {
        let sum: i32 = a
            .iter()
            .zip(w)
            .map(|(&v, &w)| product(v.clamp(0, qa), w))
            .sum();
        total += i64::from(sum);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatched kernels (AVX2 where this CPU has it) answer as the portable ones, on
    /// random rows with values near the `i16` limits (wrapping) and widths that are not a
    /// multiple of the vector width.
    #[test]
    fn dispatched_kernels_equal_the_portable_ones() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as i16
        };
        for width in [1, 7, 16, 33, 128, 256, 300, 1024] {
            let rows: Vec<Vec<i16>> = (0..6)
                .map(|_| (0..width).map(|_| next()).collect())
                .collect();
            let start: Vec<i16> = (0..width).map(|_| next()).collect();
            let (added, removed): (Vec<&[i16]>, Vec<&[i16]>) = (
                rows[..4].iter().map(Vec::as_slice).collect(),
                rows[4..].iter().map(Vec::as_slice).collect(),
            );
            let mut fast = start.clone();
            apply(&mut fast, None, &added, &removed);
            let mut slow = start.clone();
            apply_portable(&mut slow, None, &added, &removed);
            assert_eq!(fast, slow, "apply, width {width}");
            let mut fused = vec![0; width];
            apply(&mut fused, Some(&start), &added, &removed);
            assert_eq!(fast, fused, "apply from a source, width {width}");
            let mut by_hand = start.clone();
            for (i, v) in by_hand.iter_mut().enumerate() {
                for row in &added {
                    *v = v.wrapping_add(row[i]);
                }
                for row in &removed {
                    *v = v.wrapping_sub(row[i]);
                }
            }
            assert_eq!(fast, by_hand, "apply by hand, width {width}");
            for qa in [1, 127, 255, i16::MAX] {
                let expected: i64 = start
                    .iter()
                    .zip(&rows[0])
                    .map(|(&v, &w)| i64::from(v.clamp(0, qa)) * i64::from(w))
                    .sum();
                assert_eq!(
                    crelu_dot(&start, &rows[0], qa),
                    expected,
                    "width {width} qa {qa}"
                );
                assert_eq!(crelu_dot_portable(&start, &rows[0], qa), expected);
                let exact: i64 = start
                    .iter()
                    .zip(&rows[0])
                    .map(|(&v, &w)| i64::from(v.clamp(0, qa)).pow(2) * i64::from(w))
                    .sum();
                assert_eq!(screlu_dot_exact(&start, &rows[0], qa), exact);
                // The fast kernel where `qa * w` fits in i16: weights cut down to that range.
                let bound = i16::MAX / qa.max(1);
                let small: Vec<i16> = rows[0].iter().map(|w| w % bound).collect();
                let exact = screlu_dot_exact(&start, &small, qa);
                assert_eq!(
                    screlu_dot(&start, &small, qa),
                    exact,
                    "width {width} qa {qa}"
                );
                assert_eq!(screlu_dot_portable(&start, &small, qa), exact);
            }
        }
    }
}
