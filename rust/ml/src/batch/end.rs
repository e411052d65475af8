//! How a step ends a game: the end codes `step` reports and the rewards each colour gets.

use pychess_core::{Color, Outcome, Termination};

/// End code of a game still running (and of a truncated one: truncation is not an end by
/// the rules, `truncated` says it).
pub const ONGOING: i8 = 0;

/// End code of a game lost by an illegal action (`IllegalAction::Lose`).
pub const ILLEGAL_ACTION: i8 = -1;

/// The end code of a rules termination: python-chess's `Termination` value (the core's
/// [`Termination::value`]), so that Python can turn it into the enum.
pub fn termination_code(termination: Termination) -> i8 {
    // The values are 1 to 10: they fit.
    termination.value() as i8
}

/// The termination an end code stands for (`None` for `ONGOING`, `ILLEGAL_ACTION` and
/// anything else).
pub fn termination_of_code(code: i8) -> Option<Termination> {
    u8::try_from(code).ok().and_then(Termination::from_value)
}

/// Index of a colour in the per-colour arrays: White 0, Black 1 (PettingZoo's `player_0`
/// and `player_1`).
#[inline]
pub fn colour_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The rewards `[white, black]` of a finished game: +1 to the winner and -1 to the loser,
/// 0 to both for a draw (PettingZoo chess_v6's rewards).
pub fn outcome_rewards(outcome: Outcome) -> [f32; 2] {
    match outcome.winner {
        Some(Color::White) => [1.0, -1.0],
        Some(Color::Black) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// The rewards `[white, black]` when `mover` played an illegal action: -1 to the mover and 0
/// to the other side (PettingZoo's `TerminateIllegalWrapper`, which chess_v6 uses).
pub fn illegal_rewards(mover: Color) -> [f32; 2] {
    let mut rewards = [0.0; 2];
    rewards[colour_index(mover)] = -1.0;
    rewards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for t in Termination::ALL {
            assert!(termination_code(t) > 0);
            assert_eq!(termination_of_code(termination_code(t)), Some(t));
        }
        assert_eq!(termination_of_code(ONGOING), None);
        assert_eq!(termination_of_code(ILLEGAL_ACTION), None);
    }

    #[test]
    fn rewards_are_zero_sum_but_for_illegal_actions() {
        let mate = |winner| Outcome {
            termination: Termination::Checkmate,
            winner,
        };
        assert_eq!(outcome_rewards(mate(Some(Color::White))), [1.0, -1.0]);
        assert_eq!(outcome_rewards(mate(Some(Color::Black))), [-1.0, 1.0]);
        assert_eq!(outcome_rewards(mate(None)), [0.0, 0.0]);
        assert_eq!(illegal_rewards(Color::Black), [0.0, -1.0]);
    }
}
