//! Time management: turns `Limits` and the move overhead into a soft budget (do not start
//! another iteration after it) and a hard budget (abort the iteration in progress).
//!
//! Budgets count from the start of the search, or from `ponderhit` when the search began
//! pondering: while the control says pondering, no time limit applies at all.

use crate::api::{Limits, SearchControl};
use crate::params::{
    DEFAULT_MOVES_TO_GO, HARD_BUDGET_FACTOR, HARD_BUDGET_SHARE, INCREMENT_SHARE,
    MOVES_TO_GO_UPPER_LIMIT, RESERVE_LOWER_LIMIT_MS, RESERVE_SHARE, RESERVE_UPPER_LIMIT_MS,
};
use std::time::{Duration, Instant};

/// The budgets of one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    /// When the search started (for `info time` and nps).
    pub start: Instant,
    /// When the budgets started running (the start, or the ponderhit).
    clock_start: Instant,
    /// Still pondering as far as this manager has seen.
    pondering: bool,
    /// Stop after an iteration once this much time has gone (scaled by stability).
    soft: Option<Duration>,
    /// Abort the search once this much time has gone.
    hard: Option<Duration>,
}

/// The soft and hard budgets for a clock, in milliseconds.
pub(crate) fn clock_budgets(
    time_left: Duration,
    increment: Duration,
    moves_to_go: Option<u32>,
    overhead_ms: u64,
) -> (u64, u64) {
    // A year is more than any clock; the cap keeps the arithmetic below from overflowing.
    const CAP_MS: u128 = 365 * 24 * 3600 * 1000;
    let left = time_left.as_millis().min(CAP_MS) as u64;
    let inc = increment.as_millis().min(CAP_MS) as u64;
    // Low on time, a scheduling hiccup is a larger share of what is left: keep a third
    // (up to RESERVE_LOWER_LIMIT_MS) back whatever the percentage says.
    let reserve = (left * u64::from(RESERVE_SHARE) / 100)
        .min(RESERVE_UPPER_LIMIT_MS)
        .max((left / 3).min(RESERVE_LOWER_LIMIT_MS));
    let usable = left.saturating_sub(overhead_ms + reserve).max(1);
    let mtg = u64::from(
        moves_to_go
            .unwrap_or(DEFAULT_MOVES_TO_GO)
            .clamp(1, MOVES_TO_GO_UPPER_LIMIT),
    );
    let soft = usable / mtg + inc * u64::from(INCREMENT_SHARE) / 100;
    let hard = if mtg == 1 {
        usable
    } else {
        (soft * u64::from(HARD_BUDGET_FACTOR)).min(usable * u64::from(HARD_BUDGET_SHARE) / 100)
    }
    .max(1);
    (soft.min(hard).max(1), hard)
}

impl TimeManager {
    /// Budgets for `limits` (infinite searches get none).
    pub fn new(limits: &Limits, overhead_ms: u64, control: &SearchControl) -> TimeManager {
        let now = Instant::now();
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            let budget = movetime
                .saturating_sub(Duration::from_millis(overhead_ms))
                .max(Duration::from_millis(1));
            (None, Some(budget))
        } else if let Some(clock) = limits.clock {
            let (soft, hard) = clock_budgets(
                clock.time_left,
                clock.increment,
                clock.moves_to_go,
                overhead_ms,
            );
            (
                Some(Duration::from_millis(soft)),
                Some(Duration::from_millis(hard)),
            )
        } else {
            (None, None)
        };
        TimeManager {
            start: now,
            clock_start: now,
            pondering: control.is_pondering(),
            soft,
            hard,
        }
    }

    /// Notices a ponderhit: the budgets start running from now.
    pub fn update(&mut self, control: &SearchControl) {
        if self.pondering && !control.is_pondering() {
            self.pondering = false;
            self.clock_start = Instant::now();
        }
    }

    /// Is the search still pondering?
    pub fn is_pondering(&self) -> bool {
        self.pondering
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Has the hard budget run out?
    pub fn hard_expired(&self) -> bool {
        !self.pondering
            && self
                .hard
                .is_some_and(|hard| self.clock_start.elapsed() >= hard)
    }

    /// Should no new iteration start? `scale_percent` stretches the soft budget (unstable
    /// best move) or shrinks it (a long-stable one).
    pub fn soft_expired(&self, scale_percent: u32) -> bool {
        if self.pondering {
            return false;
        }
        if let Some(soft) = self.soft {
            let scaled = soft.checked_mul(scale_percent).map_or(soft, |d| d / 100);
            if self.clock_start.elapsed() >= scaled {
                return true;
            }
        }
        self.hard_expired()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullet_budgets_keep_a_reserve() {
        let (soft, hard) =
            clock_budgets(Duration::from_secs(1), Duration::from_millis(10), None, 10);
        assert!((20..=60).contains(&soft), "{soft}");
        assert!(hard <= 350 && hard >= soft, "{hard}");
        // Nearly flagging: still a positive budget, far below what is left.
        let (soft, hard) = clock_budgets(Duration::from_millis(30), Duration::ZERO, None, 10);
        assert!(soft >= 1 && hard <= 20, "{soft} {hard}");
        // The last move before the control may use most of the usable time.
        let (_, hard) = clock_budgets(Duration::from_secs(10), Duration::ZERO, Some(1), 10);
        assert!(hard > 8_000 && hard < 10_000, "{hard}");
    }
}
