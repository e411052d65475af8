//! Choosing a book move at random, calling the random source exactly as python-chess's
//! `choice` and `weighted_choice` do, so that the same seeded source gives the same move;
//! and a small seeded source of our own for the engine.

/// python-chess's `choice`: each of `count` entries equally likely, chosen as a reservoir
/// sample of one. `randint(0, i)` (both ends included) is called for `i` from 1 to
/// `count - 1`, and entry `i` replaces the choice when it returns `i`. `None` when `count` is
/// 0.
///
/// # Errors
/// The first error `randint` returns.
///
/// ```
/// use pychess_book::choose_uniform;
/// // A source that always answers its upper end picks the last entry.
/// let last = choose_uniform(3, |_, high| Ok::<u64, ()>(high));
/// assert_eq!(last, Ok(Some(2)));
/// ```
pub fn choose_uniform<E>(
    count: usize,
    mut randint: impl FnMut(u64, u64) -> Result<u64, E>,
) -> Result<Option<usize>, E> {
    let mut chosen = None;
    for i in 0..count {
        if chosen.is_none() || randint(0, i as u64)? == i as u64 {
            chosen = Some(i);
        }
    }
    Ok(chosen)
}

/// python-chess's `weighted_choice`: entry `i` chosen with probability `weights[i] / total`.
/// One call, `randint(0, total - 1)`, picks the first entry whose running sum of weights
/// passes the answer. `None` when the weights add up to 0 (no call then) or the answer is
/// not below the total.
///
/// # Errors
/// The error `randint` returns.
///
/// ```
/// use pychess_book::choose_weighted;
/// let weights = [1, 0, 3];
/// assert_eq!(choose_weighted(&weights, |_, _| Ok::<u64, ()>(0)), Ok(Some(0)));
/// assert_eq!(choose_weighted(&weights, |_, _| Ok::<u64, ()>(1)), Ok(Some(2)));
/// ```
pub fn choose_weighted<E>(
    weights: &[u16],
    mut randint: impl FnMut(u64, u64) -> Result<u64, E>,
) -> Result<Option<usize>, E> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return Ok(None);
    }
    let choice = randint(0, total - 1)?;
    let mut sum = 0;
    for (i, &weight) in weights.iter().enumerate() {
        sum += u64::from(weight);
        if sum > choice {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// A small seeded random source (SplitMix64): the same seed gives the same book moves, so
/// engine matches with a book can be replayed.
#[derive(Clone, Debug)]
pub struct SeededRandom {
    state: u64,
}

impl SeededRandom {
    /// A source that starts from `seed`.
    pub fn new(seed: u64) -> SeededRandom {
        SeededRandom { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number from `low` to `high`, both included, every one equally likely (`low` when
    /// `high` is below it).
    pub fn randint(&mut self, low: u64, high: u64) -> u64 {
        let Some(span) = high.checked_sub(low).and_then(|d| d.checked_add(1)) else {
            // The whole range of u64, or an empty range.
            return if high < low { low } else { self.next_u64() };
        };
        // Rejection sampling: drop the top values that would make some answers likelier.
        let zone = u64::MAX - u64::MAX % span;
        loop {
            let bits = self.next_u64();
            if bits < zone {
                return low + bits % span;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_calls_randint_as_python_chess_does() {
        let mut calls = Vec::new();
        let chosen = choose_uniform(4, |low, high| {
            calls.push((low, high));
            Ok::<u64, ()>(if high == 2 { 2 } else { 0 })
        });
        assert_eq!(chosen, Ok(Some(2)));
        assert_eq!(calls, [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(choose_uniform(0, |_, _| Err("called")), Ok(None));
        assert_eq!(choose_uniform(1, |_, _| Err("called")), Ok(Some(0)));
        assert_eq!(choose_uniform(3, |_, _| Err("failed")), Err("failed"));
    }

    #[test]
    fn weighted_picks_by_running_sum() {
        let weights = [2, 0, 5, 1];
        let pick = |answer: u64| {
            let mut calls = Vec::new();
            let chosen = choose_weighted(&weights, |low, high| {
                calls.push((low, high));
                Ok::<u64, ()>(answer)
            });
            assert_eq!(calls, [(0, 7)]);
            chosen.unwrap()
        };
        assert_eq!(pick(0), Some(0));
        assert_eq!(pick(1), Some(0));
        assert_eq!(pick(2), Some(2));
        assert_eq!(pick(6), Some(2));
        assert_eq!(pick(7), Some(3));
        assert_eq!(pick(8), None);
        assert_eq!(choose_weighted(&[0, 0], |_, _| Err("called")), Ok(None));
    }

    #[test]
    fn seeded_source_repeats_and_stays_in_range() {
        let mut a = SeededRandom::new(7);
        let mut b = SeededRandom::new(7);
        let mut counts = [0u32; 3];
        for _ in 0..3000 {
            let x = a.randint(4, 6);
            assert_eq!(x, b.randint(4, 6));
            counts[(x - 4) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| c > 850), "{counts:?}");
        assert_eq!(a.randint(5, 5), 5);
        assert_eq!(a.randint(9, 3), 9);
        let _ = a.randint(0, u64::MAX);
        assert_ne!(
            SeededRandom::new(1).next_u64(),
            SeededRandom::new(2).next_u64()
        );
    }
}
