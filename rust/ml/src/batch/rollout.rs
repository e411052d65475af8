//! Seeded random self-play: whole games of uniformly random legal moves, for data generation
//! and benchmarks.
//!
//! Each game draws from its own generator, seeded from the caller's seed and the game's
//! index, so a game's moves depend on neither the thread count nor the other games: game `i`
//! of `rollouts(start, n, seed, ..)` is `rollout(start, game_seed(seed, i), ..)` for every
//! `n > i`.

use super::end::{termination_code, ONGOING};
use super::parallel;
use crate::encode::{action_of, move_of};
use pychess_core::{Board, Color, Game};
use std::fmt;

/// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and good enough to pick moves; also
/// the usual way to turn one seed into many.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift: no division, and a bias of
    /// at most n / 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The seed of game `index` of a batch seeded with `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    SplitMix64::new(seed ^ SplitMix64::new(index).next_u64()).next_u64()
}

/// How rollouts end games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutOptions {
    /// End games at claimable draws too (threefold repetition, fifty moves), as if the side
    /// to move always claimed; otherwise only the automatic ends count (checkmate,
    /// stalemate, insufficient material, 75 moves, fivefold repetition).
    pub claim_draw: bool,
    /// Stop a game unfinished after this many plies (`truncated` then says so).
    pub max_plies: Option<u32>,
    /// Threads to play the games on (at least one is used).
    pub threads: usize,
}

impl Default for RolloutOptions {
    fn default() -> RolloutOptions {
        RolloutOptions {
            claim_draw: false,
            max_plies: None,
            threads: 1,
        }
    }
}

/// One random game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rollout {
    /// The actions played, in order (`encode::action_of` of each move, in the mover's view).
    pub actions: Vec<u16>,
    /// How it ended: an end code of `batch::end` (`ONGOING` when truncated).
    pub end: i8,
    /// The winner, if the game was won.
    pub winner: Option<Color>,
    /// Stopped at `max_plies` before any end.
    pub truncated: bool,
}

/// Plays one random game from `start` with the generator seeded by `seed`.
pub fn rollout(start: &Board, seed: u64, options: &RolloutOptions) -> Rollout {
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(start.clone());
    let mut actions = Vec::new();
    loop {
        // Listing the moves first lets `outcome` reuse them for its mate and stalemate test.
        let legal = game.legal_moves();
        if let Some(outcome) = game.outcome(options.claim_draw) {
            return Rollout {
                actions,
                end: termination_code(outcome.termination),
                winner: outcome.winner,
                truncated: false,
            };
        }
        if options
            .max_plies
            .is_some_and(|max| actions.len() >= max as usize)
        {
            return Rollout {
                actions,
                end: ONGOING,
                winner: None,
                truncated: true,
            };
        }
        let m = legal[rng.below(legal.len())];
        actions.push(action_of(game.board(), m) as u16);
        game.play(m);
    }
}

/// Plays `games` random games from `start`, game `i` seeded with `game_seed(seed, i)`, on
/// `options.threads` threads. The result does not depend on the thread count.
pub fn rollouts(start: &Board, games: usize, seed: u64, options: &RolloutOptions) -> Vec<Rollout> {
    let mut results: Vec<Option<Rollout>> = vec![None; games];
    parallel::for_chunks(options.threads, &mut results[..], |first, chunk| {
        for (offset, slot) in chunk.iter_mut().enumerate() {
            let index = (first + offset) as u64;
            *slot = Some(rollout(start, game_seed(seed, index), options));
        }
    });
    results.into_iter().flatten().collect()
}

/// An action of a recorded game that is not a legal move where it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The action.
    pub action: u16,
    /// Its index in the game (0 for the first move).
    pub ply: usize,
    /// The position it was to be played in.
    pub fen: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} at ply {} is not legal in {}",
            self.action, self.ply, self.fen
        )
    }
}

impl std::error::Error for ReplayError {}

/// The game from `start` after `actions` (a [`Rollout`]'s, or any recorded in the same
/// numbering), or the first action that is not legal where it comes.
pub fn replay(start: Board, actions: &[u16]) -> Result<Game, ReplayError> {
    let mut game = Game::new(start);
    for (ply, &action) in actions.iter().enumerate() {
        let Some(m) = move_of(game.board(), usize::from(action)) else {
            return Err(ReplayError {
                action,
                ply,
                fen: game.board().fen(),
            });
        };
        game.play(m);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::end::termination_of_code;

    #[test]
    fn replay_names_the_first_illegal_action() {
        let r = rollout(&Board::default(), 5, &RolloutOptions::default());
        let mut actions = r.actions[..3].to_vec();
        let game = replay(Board::default(), &actions).unwrap();
        assert_eq!(game.moves().len(), 3);
        actions.push(4671);
        let error = replay(Board::default(), &actions).unwrap_err();
        assert_eq!(error.ply, 3);
        assert_eq!(
            error.to_string(),
            format!(
                "action 4671 at ply 3 is not legal in {}",
                game.board().fen()
            )
        );
    }

    #[test]
    fn rollouts_replay_to_their_outcome() {
        let start = Board::default();
        let options = RolloutOptions::default();
        for r in rollouts(&start, 12, 7, &options) {
            let game = replay(start.clone(), &r.actions).expect("legal actions");
            let outcome = game.outcome(false).expect("played to the end");
            assert_eq!(Some(outcome.termination), termination_of_code(r.end));
            assert_eq!(outcome.winner, r.winner);
            assert!(!r.truncated);
        }
    }

    #[test]
    fn rollouts_do_not_depend_on_threads_or_batch_size() {
        let start = Board::default();
        let one = RolloutOptions {
            max_plies: Some(60),
            ..RolloutOptions::default()
        };
        let two = RolloutOptions { threads: 2, ..one };
        let a = rollouts(&start, 9, 42, &one);
        assert_eq!(a, rollouts(&start, 9, 42, &two));
        assert_eq!(a[..4], rollouts(&start, 4, 42, &two)[..]);
        assert_eq!(a[3], rollout(&start, game_seed(42, 3), &one));
        assert_ne!(a, rollouts(&start, 9, 43, &one));
        assert!(a.iter().all(|r| r.actions.len() <= 60));
        assert!(a.iter().any(|r| r.truncated && r.end == ONGOING));
    }

    #[test]
    fn claimed_draws_end_games_no_later() {
        let start = Board::default();
        let claim = RolloutOptions {
            claim_draw: true,
            ..RolloutOptions::default()
        };
        for (i, r) in rollouts(&start, 8, 3, &claim).iter().enumerate() {
            let plain = rollout(&start, game_seed(3, i as u64), &RolloutOptions::default());
            // Same generator, same moves, until the claim stops the game.
            assert!(r.actions.len() <= plain.actions.len());
            assert_eq!(r.actions[..], plain.actions[..r.actions.len()]);
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(1);
        for n in 1..50 {
            assert!(rng.below(n) < n);
        }
    }
}
