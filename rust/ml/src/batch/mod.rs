//! Many games stepped together by arrays of actions, for reinforcement learning and data
//! generation.
//!
//! A [`Batch`] holds `n` games (`pychess_core::Game`, so every rule that needs history
//! holds). [`Batch::step`] takes one action per game (the AlphaZero/PettingZoo 4,672-action
//! numbering of [`crate::encode`], in the mover's view) and writes, per game, into
//! caller-owned buffers ([`Outputs`]):
//!
//! - the observation of the position now to move, from the side to move's view
//!   ([`ObservationKind`]: PettingZoo chess_v6's 8x8x111, AlphaZero's 8x8x119 or none);
//! - its legal-action mask (4,672 bytes, 1 for a legal action; all zero for a game that is
//!   over and not reset);
//! - the rewards **per colour**, `[white, black]`: +1 to the winner, -1 to the loser, 0 for
//!   draws, truncations and moves that end nothing (chess_v6's rewards, White being its
//!   `player_0`); an illegal action under [`IllegalAction::Lose`] gives the mover -1 and the
//!   other side 0 (PettingZoo's `TerminateIllegalWrapper`);
//! - `terminated` (the game ended by the rules or an illegal action), `truncated` (stopped at
//!   [`Options::max_plies`] without ending), and the end code (see [`end`]).
//!
//! Games end under every rule: checkmate, stalemate, insufficient material, the 75-move rule
//! and fivefold repetition always; threefold repetition and the 50-move rule only with
//! [`Options::claim_draw`] (as if the side to move claimed whenever it could, python-chess's
//! `outcome(claim_draw=True)`, which is when chess_v6 ends its games).
//!
//! **Auto-reset.** With [`Options::auto_reset`], a game that terminates or truncates is
//! replaced in the same step by a new game from the start position: that step's rewards,
//! `terminated`, `truncated` and end code describe the game that ended, while its
//! observation and mask are already the new game's first ones (so the next action is
//! always chosen from a valid mask). The ended game stays readable until the next step
//! ([`Batch::finished_game`]). Without auto-reset an ended game stays as it ended: later
//! steps ignore its action (any value) and report reward 0, its `terminated`/`truncated`
//! and end code again, its final observation and an all-zero mask, until [`Batch::reset`]
//! or [`Batch::reset_game`].
//!
//! **Illegal actions.** Under [`IllegalAction::Error`] (the default) a step whose actions
//! include one that is not legal in its game (or out of range) fails with
//! [`StepError::IllegalAction`] before any game moves: the batch is unchanged.
//!
//! **Starting.** [`Batch::try_new`] checks what a batch needs before its first step (a start
//! position that has not ended, a positive `max_plies`); [`start_position`] reads the start
//! FEN and `from_name` the option names, with one [`StartError`] for every refusal.
//!
//! Games are independent, so [`Options::threads`] only changes the speed: each thread steps
//! a contiguous range of games, and every output lands at its game's index.
//!
//! ```
//! use pychess_core::{Board, Termination, UciMove};
//! use pychess_ml::batch::{end, Batch, ObservationKind, Options, OutputBuffers};
//! use pychess_ml::encode::{action_of, ACTIONS};
//!
//! let options = Options { observation: ObservationKind::PettingZoo, ..Options::default() };
//! let mut batch = Batch::new(2, Board::default(), options);
//! let mut out = OutputBuffers::new(2, options.observation);
//! batch.reset(out.outputs())?;
//! assert_eq!(out.masks[..ACTIONS].iter().filter(|&&m| m == 1).count(), 20);
//!
//! // Fool's mate in both games.
//! for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     let actions: Vec<i64> = (0..batch.len())
//!         .map(|i| {
//!             let game = batch.game(i).unwrap();
//!             let m = game.resolve_uci(UciMove::parse(uci).unwrap()).unwrap();
//!             action_of(game.board(), m) as i64
//!         })
//!         .collect();
//!     batch.step(&actions, out.outputs())?;
//! }
//! assert_eq!(out.terminated, [1, 1]);
//! assert_eq!(out.rewards, [-1.0, 1.0, -1.0, 1.0]); // [white, black] per game
//! assert_eq!(end::termination_of_code(out.ends[0]), Some(Termination::Checkmate));
//! // Auto-reset: both games start again; the ended ones stay readable until the next step.
//! assert_eq!(batch.game(0).unwrap().moves().len(), 0);
//! assert_eq!(batch.finished_game(0).unwrap().moves().len(), 4);
//! # Ok::<(), pychess_ml::batch::StepError>(())
//! ```

pub mod end;
mod parallel;
pub mod rollout;
mod start;

pub use rollout::{
    game_seed, replay, rollout, rollouts, ReplayError, Rollout, RolloutOptions, SplitMix64,
};
pub use start::{start_position, StartError};

use crate::encode::{self, try_action_of, ACTIONS, ALPHAZERO_SHAPE, PETTINGZOO_SHAPE};
use end::{illegal_rewards, outcome_rewards, termination_code, ILLEGAL_ACTION, ONGOING};
use parallel::Split;
use pychess_core::{Board, Game, Move};
use std::fmt;

/// Which observation `step` and `reset` write per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ObservationKind {
    /// None: only masks, rewards and flags.
    #[default]
    None,
    /// PettingZoo chess_v6's observation, `encode::pettingzoo_observation` (u8, 8x8x111).
    PettingZoo,
    /// AlphaZero's input planes, `encode::alphazero_planes` (f32, 8x8x119).
    AlphaZero,
}

impl ObservationKind {
    /// Values per game (0 for `None`).
    pub fn size(self) -> usize {
        match self {
            ObservationKind::None => 0,
            ObservationKind::PettingZoo => PETTINGZOO_SHAPE.iter().product(),
            ObservationKind::AlphaZero => ALPHAZERO_SHAPE.iter().product(),
        }
    }
}

/// What an illegal action does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IllegalAction {
    /// The step fails with `StepError::IllegalAction` and no game moves.
    #[default]
    Error,
    /// The mover loses that game (reward -1, the other side 0, end code `ILLEGAL_ACTION`).
    Lose,
}

/// How a batch plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The observation written per game.
    pub observation: ObservationKind,
    /// End games at claimable draws (threefold repetition, fifty moves) too.
    pub claim_draw: bool,
    /// Truncate a game after this many plies since its reset.
    pub max_plies: Option<u32>,
    /// Replace ended games by new ones in the step that ends them.
    pub auto_reset: bool,
    /// What an illegal action does.
    pub illegal: IllegalAction,
    /// Threads to step on (at least one is used).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            observation: ObservationKind::None,
            claim_draw: false,
            max_plies: None,
            auto_reset: true,
            illegal: IllegalAction::Error,
            threads: 1,
        }
    }
}

/// Why a step or reset was refused; the batch is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepError {
    /// An array has the wrong length for the batch.
    WrongLength {
        /// Which array.
        what: &'static str,
        /// Its length for this batch.
        expected: usize,
        /// Its length.
        got: usize,
    },
    /// The observation buffer's type is not the one the batch's observation kind writes.
    ObservationType,
    /// Game `game` has no legal move for `action` (`IllegalAction::Error`).
    IllegalAction {
        /// The game's index.
        game: usize,
        /// The action given.
        action: i64,
        /// The game's position.
        fen: String,
    },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::WrongLength {
                what,
                expected,
                got,
            } => write!(f, "{what} has length {got}, expected {expected}"),
            StepError::ObservationType => {
                write!(
                    f,
                    "the observation buffer's type does not match the observation kind"
                )
            }
            StepError::IllegalAction { game, action, fen } => write!(
                f,
                "illegal action {action} for game {game} (no legal move has that index in {fen})"
            ),
        }
    }
}

impl std::error::Error for StepError {}

/// The observation buffer of all games, of the type its kind needs.
#[derive(Debug)]
pub enum Observations<'a> {
    /// No observation.
    None,
    /// `n * 7104` bytes for `ObservationKind::PettingZoo`.
    U8(&'a mut [u8]),
    /// `n * 7616` floats for `ObservationKind::AlphaZero`.
    F32(&'a mut [f32]),
}

/// Where `step` and `reset` write, per game `i` at index `i` (row-major).
#[derive(Debug)]
pub struct Outputs<'a> {
    /// Observations, `n * kind.size()` values.
    pub observations: Observations<'a>,
    /// Legal-action masks, `n * ACTIONS` bytes.
    pub masks: &'a mut [u8],
    /// Rewards, `n * 2`: `[white, black]` per game.
    pub rewards: &'a mut [f32],
    /// 1 where the game terminated, `n` bytes.
    pub terminated: &'a mut [u8],
    /// 1 where the game was truncated, `n` bytes.
    pub truncated: &'a mut [u8],
    /// End codes (`end::ONGOING`, a termination code or `end::ILLEGAL_ACTION`), `n` values.
    pub ends: &'a mut [i8],
}

impl Outputs<'_> {
    fn check(&self, games: usize, kind: ObservationKind) -> Result<(), StepError> {
        let want = |what, expected: usize, got: usize| {
            if expected == got {
                Ok(())
            } else {
                Err(StepError::WrongLength {
                    what,
                    expected,
                    got,
                })
            }
        };
        let observations = match (&self.observations, kind) {
            (Observations::None, ObservationKind::None) => 0,
            (Observations::U8(b), ObservationKind::PettingZoo) => b.len(),
            (Observations::F32(b), ObservationKind::AlphaZero) => b.len(),
            _ => return Err(StepError::ObservationType),
        };
        want("observations", games * kind.size(), observations)?;
        want("masks", games * ACTIONS, self.masks.len())?;
        want("rewards", games * 2, self.rewards.len())?;
        want("terminated", games, self.terminated.len())?;
        want("truncated", games, self.truncated.len())?;
        want("ends", games, self.ends.len())
    }

    fn split_at(self, at: usize) -> (Self, Self) {
        let (oa, ob) = match self.observations {
            Observations::None => (Observations::None, Observations::None),
            Observations::U8(b) => {
                let (x, y) = b.split_at_mut(at * ObservationKind::PettingZoo.size());
                (Observations::U8(x), Observations::U8(y))
            }
            Observations::F32(b) => {
                let (x, y) = b.split_at_mut(at * ObservationKind::AlphaZero.size());
                (Observations::F32(x), Observations::F32(y))
            }
        };
        let (ma, mb) = self.masks.split_at_mut(at * ACTIONS);
        let (ra, rb) = self.rewards.split_at_mut(at * 2);
        let (ta, tb) = self.terminated.split_at_mut(at);
        let (ua, ub) = self.truncated.split_at_mut(at);
        let (ea, eb) = self.ends.split_at_mut(at);
        (
            Outputs {
                observations: oa,
                masks: ma,
                rewards: ra,
                terminated: ta,
                truncated: ua,
                ends: ea,
            },
            Outputs {
                observations: ob,
                masks: mb,
                rewards: rb,
                terminated: tb,
                truncated: ub,
                ends: eb,
            },
        )
    }

    /// Writes game `i`'s observation and mask (the slot's current position).
    fn write_position(&mut self, i: usize, slot: &Slot) {
        match &mut self.observations {
            Observations::None => {}
            Observations::U8(b) => {
                let size = ObservationKind::PettingZoo.size();
                encode::pettingzoo_observation(&slot.game, &mut b[i * size..(i + 1) * size]);
            }
            Observations::F32(b) => {
                let size = ObservationKind::AlphaZero.size();
                encode::alphazero_planes(&slot.game, &mut b[i * size..(i + 1) * size]);
            }
        }
        let mask = &mut self.masks[i * ACTIONS..(i + 1) * ACTIONS];
        mask.fill(0);
        for &(action, _) in &slot.legal {
            mask[usize::from(action)] = 1;
        }
    }

    fn write_result(&mut self, i: usize, result: &StepResult) {
        self.rewards[2 * i..2 * i + 2].copy_from_slice(&result.rewards);
        self.terminated[i] = u8::from(result.terminated);
        self.truncated[i] = u8::from(result.truncated);
        self.ends[i] = result.end;
    }
}

/// Owned output buffers for `n` games, for Rust callers (the Python bindings lend NumPy-owned
/// memory instead). Fields are public so that results can be read after each step.
#[derive(Clone, Debug, PartialEq)]
pub struct OutputBuffers {
    /// The observation kind the buffers are sized for.
    pub kind: ObservationKind,
    /// PettingZoo observations (empty for other kinds).
    pub observations_u8: Vec<u8>,
    /// AlphaZero observations (empty for other kinds).
    pub observations_f32: Vec<f32>,
    /// Legal-action masks, `n * ACTIONS`.
    pub masks: Vec<u8>,
    /// Rewards, `[white, black]` per game.
    pub rewards: Vec<f32>,
    /// 1 where the game terminated.
    pub terminated: Vec<u8>,
    /// 1 where the game was truncated.
    pub truncated: Vec<u8>,
    /// End codes.
    pub ends: Vec<i8>,
}

impl OutputBuffers {
    /// Zeroed buffers for `games` games and observations of `kind`.
    pub fn new(games: usize, kind: ObservationKind) -> OutputBuffers {
        let size = games * kind.size();
        let sized = |k| if kind == k { size } else { 0 };
        OutputBuffers {
            kind,
            observations_u8: vec![0; sized(ObservationKind::PettingZoo)],
            observations_f32: vec![0.0; sized(ObservationKind::AlphaZero)],
            masks: vec![0; games * ACTIONS],
            rewards: vec![0.0; 2 * games],
            terminated: vec![0; games],
            truncated: vec![0; games],
            ends: vec![0; games],
        }
    }

    /// The buffers lent to `Batch::reset`, `Batch::step` or `Batch::observe`.
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            observations: match self.kind {
                ObservationKind::None => Observations::None,
                ObservationKind::PettingZoo => Observations::U8(&mut self.observations_u8),
                ObservationKind::AlphaZero => Observations::F32(&mut self.observations_f32),
            },
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            ends: &mut self.ends,
        }
    }

    /// Game `i`'s mask.
    pub fn mask(&self, i: usize) -> &[u8] {
        &self.masks[i * ACTIONS..(i + 1) * ACTIONS]
    }
}

/// The per-game part of a step's outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct StepResult {
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
    end: i8,
}

/// One game of the batch.
#[derive(Clone, Debug)]
struct Slot {
    game: Game,
    /// Plies since the game's reset (what truncation counts).
    plies: u32,
    /// The legal moves with their actions (empty once the game is over); the mask and the
    /// action lookup both read it, so each position's moves are indexed once.
    legal: Vec<(u16, Move)>,
    /// How the game ended, kept while it stays over (no auto-reset).
    over: Option<StepResult>,
    /// The game that ended in the last step, when auto-reset replaced it.
    finished: Option<Game>,
}

impl Slot {
    fn new(start: &Board) -> Slot {
        let mut slot = Slot {
            game: Game::new(start.clone()),
            plies: 0,
            legal: Vec::new(),
            over: None,
            finished: None,
        };
        slot.index_moves();
        slot
    }

    fn index_moves(&mut self) {
        let board = self.game.board();
        self.legal.clear();
        // Every legal chess move has an action; a move that had none (no shape of the 73)
        // could only be left out of the mask, never index past it.
        self.legal.extend(
            self.game
                .legal_moves()
                .iter()
                .filter_map(|&m| Some((try_action_of(board, m)? as u16, m))),
        );
    }

    fn find(&self, action: i64) -> Option<Move> {
        let action = u16::try_from(action).ok()?;
        self.legal
            .iter()
            .find(|&&(a, _)| a == action)
            .map(|&(_, m)| m)
    }

    fn reset(&mut self, start: &Board) {
        *self = Slot::new(start);
    }

    fn step(&mut self, action: i64, start: &Board, options: &Options) -> StepResult {
        self.finished = None;
        if let Some(over) = self.over {
            return StepResult {
                rewards: [0.0; 2],
                ..over
            };
        }
        let mover = self.game.board().turn();
        let mut result = StepResult::default();
        match self.find(action) {
            None => {
                result.rewards = illegal_rewards(mover);
                result.terminated = true;
                result.end = ILLEGAL_ACTION;
            }
            Some(m) => {
                self.game.play(m);
                self.plies += 1;
                // Lists the new position's moves, which `outcome` then reuses.
                self.index_moves();
                if let Some(outcome) = self.game.outcome(options.claim_draw) {
                    result.rewards = outcome_rewards(outcome);
                    result.terminated = true;
                    result.end = termination_code(outcome.termination);
                } else if options.max_plies.is_some_and(|max| self.plies >= max) {
                    result.truncated = true;
                    result.end = ONGOING;
                }
            }
        }
        if result.terminated || result.truncated {
            if options.auto_reset {
                let ended = std::mem::replace(&mut self.game, Game::new(start.clone()));
                self.plies = 0;
                self.index_moves();
                self.finished = Some(ended);
            } else {
                self.legal.clear();
                self.over = Some(result);
            }
        }
        result
    }
}

/// One thread's share of a step: its games, their actions and their outputs.
struct Chunk<'s, 'o> {
    slots: &'s mut [Slot],
    actions: &'s [i64],
    out: Outputs<'o>,
}

impl Split for Chunk<'_, '_> {
    fn games(&self) -> usize {
        self.slots.len()
    }
    fn split(self, at: usize) -> (Self, Self) {
        let (sa, sb) = self.slots.split_at_mut(at);
        let (aa, ab) = self.actions.split_at(at.min(self.actions.len()));
        let (oa, ob) = self.out.split_at(at);
        (
            Chunk {
                slots: sa,
                actions: aa,
                out: oa,
            },
            Chunk {
                slots: sb,
                actions: ab,
                out: ob,
            },
        )
    }
}

/// `n` games stepped together (see the module documentation).
#[derive(Clone, Debug)]
pub struct Batch {
    start: Board,
    slots: Vec<Slot>,
    options: Options,
}

impl Batch {
    /// `games` games at `start`, not yet observed: call [`Batch::reset`] for the first
    /// observations and masks.
    pub fn new(games: usize, start: Board, options: Options) -> Batch {
        let slot = Slot::new(&start);
        Batch {
            slots: vec![slot; games],
            start,
            options,
        }
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Is the batch empty?
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// How the batch plays.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The position each game starts (and restarts) from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Game `index` as it stands.
    pub fn game(&self, index: usize) -> Option<&Game> {
        self.slots.get(index).map(|s| &s.game)
    }

    /// The game that ended in the last step at `index` and was replaced by auto-reset.
    pub fn finished_game(&self, index: usize) -> Option<&Game> {
        self.slots.get(index)?.finished.as_ref()
    }

    /// Plies played in game `index` since its reset.
    pub fn plies(&self, index: usize) -> Option<u32> {
        self.slots.get(index).map(|s| s.plies)
    }

    /// Is game `index` over and waiting for a reset (only without auto-reset)?
    pub fn is_over(&self, index: usize) -> bool {
        self.slots.get(index).is_some_and(|s| s.over.is_some())
    }

    /// Restarts every game and writes the first observations and masks (rewards, flags and
    /// end codes zero).
    pub fn reset(&mut self, out: Outputs<'_>) -> Result<(), StepError> {
        out.check(self.len(), self.options.observation)?;
        let start = &self.start;
        let chunk = Chunk {
            slots: &mut self.slots,
            actions: &[],
            out,
        };
        parallel::for_chunks(self.options.threads, chunk, |_, mut c| {
            for (i, slot) in c.slots.iter_mut().enumerate() {
                slot.reset(start);
                c.out.write_position(i, slot);
                c.out.write_result(i, &StepResult::default());
            }
        });
        Ok(())
    }

    /// Restarts game `index` alone (returns false if there is no such game); its next
    /// observation comes with the next step or [`Batch::observe`].
    pub fn reset_game(&mut self, index: usize) -> bool {
        let start = &self.start;
        self.slots.get_mut(index).map(|s| s.reset(start)).is_some()
    }

    /// Writes every game's current observation and mask and zero rewards, without moving;
    /// `terminated`/`truncated`/end codes tell which games are over.
    pub fn observe(&self, out: Outputs<'_>) -> Result<(), StepError> {
        out.check(self.len(), self.options.observation)?;
        let mut out = out;
        for (i, slot) in self.slots.iter().enumerate() {
            out.write_position(i, slot);
            let state = slot.over.map_or(StepResult::default(), |over| StepResult {
                rewards: [0.0; 2],
                ..over
            });
            out.write_result(i, &state);
        }
        Ok(())
    }

    /// Plays `actions[i]` in game `i` for every game and writes the outputs (see the module
    /// documentation for rewards, ends and auto-reset).
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), StepError> {
        if actions.len() != self.len() {
            return Err(StepError::WrongLength {
                what: "actions",
                expected: self.len(),
                got: actions.len(),
            });
        }
        out.check(self.len(), self.options.observation)?;
        if self.options.illegal == IllegalAction::Error {
            // All checked before any game moves, so that a refused step changes nothing.
            for (game, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
                if slot.over.is_none() && slot.find(action).is_none() {
                    return Err(StepError::IllegalAction {
                        game,
                        action,
                        fen: slot.game.board().fen(),
                    });
                }
            }
        }
        let start = &self.start;
        let options = &self.options;
        let chunk = Chunk {
            slots: &mut self.slots,
            actions,
            out,
        };
        parallel::for_chunks(options.threads, chunk, |_, mut c| {
            for (i, slot) in c.slots.iter_mut().enumerate() {
                let result = slot.step(c.actions[i], start, options);
                c.out.write_position(i, slot);
                c.out.write_result(i, &result);
            }
        });
        Ok(())
    }

    /// A uniformly random legal action per game into `out` (-1 for a game that is over),
    /// from a generator seeded by `seed` and the game's index.
    pub fn random_actions(&self, seed: u64, out: &mut [i64]) -> Result<(), StepError> {
        if out.len() != self.len() {
            return Err(StepError::WrongLength {
                what: "actions",
                expected: self.len(),
                got: out.len(),
            });
        }
        for (i, (slot, action)) in self.slots.iter().zip(out.iter_mut()).enumerate() {
            *action = if slot.legal.is_empty() {
                -1
            } else {
                let mut rng = SplitMix64::new(game_seed(seed, i as u64));
                i64::from(slot.legal[rng.below(slot.legal.len())].0)
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
