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
//! Games are independent, so [`Options::threads`] only changes the speed: the batch's own
//! worker threads (started once, parked between steps) and the calling thread step
//! contiguous pieces of the games, and every output lands at its game's index. Random
//! actions ([`Batch::step_random`], [`Batch::random_actions`]) are drawn per game from the
//! seed and the game's index, so they do not depend on the thread count either.
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
pub mod parallel;
mod pool;
pub mod rollout;
mod start;

pub use rollout::{
    game_seed, replay, rollout, rollouts, ReplayError, Rollout, RolloutOptions, SplitMix64,
};
pub use start::{start_position, StartError};

use crate::encode::{
    self, try_action_of, ACTIONS, ALPHAZERO_SHAPE, ALPHAZERO_WORDS, PETTINGZOO_SHAPE,
    PETTINGZOO_WORDS,
};
use encode::Plane;
use end::{illegal_rewards, outcome_rewards, termination_code, ILLEGAL_ACTION, ONGOING};
use parallel::Split;
use pool::Pool;
use pychess_core::{Board, Game, Move};
use std::cell::RefCell;
use std::fmt;

/// Which observation `step` and `reset` write per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ObservationKind {
    /// None: only masks, rewards and flags.
    #[default]
    None,
    /// PettingZoo chess_v6's observation, `encode::pettingzoo_observation` (8x8x111).
    PettingZoo,
    /// AlphaZero's input planes, `encode::alphazero_planes` (8x8x119).
    AlphaZero,
}

impl ObservationKind {
    /// Dense values per game (0 for `None`).
    pub fn size(self) -> usize {
        match self {
            ObservationKind::None => 0,
            ObservationKind::PettingZoo => PETTINGZOO_SHAPE.iter().product(),
            ObservationKind::AlphaZero => ALPHAZERO_SHAPE.iter().product(),
        }
    }

    /// Bit-packed words per game, one per channel (0 for `None`).
    pub fn words(self) -> usize {
        match self {
            ObservationKind::None => 0,
            ObservationKind::PettingZoo => PETTINGZOO_WORDS,
            ObservationKind::AlphaZero => ALPHAZERO_WORDS,
        }
    }

    /// The plane type a batch writes unless asked for another: bytes for PettingZoo (its
    /// observation is 0/1), `f32` for AlphaZero (its counters are not).
    pub fn native_planes(self) -> Planes {
        match self {
            ObservationKind::AlphaZero => Planes::F32,
            _ => Planes::U8,
        }
    }
}

/// How observation planes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Planes {
    /// The kind's own: [`ObservationKind::native_planes`].
    #[default]
    Native,
    /// One byte per value, 0 or 1 (AlphaZero's two counter planes saturate at 255).
    U8,
    /// One `f32` per value.
    F32,
    /// One `u64` per channel, bit `row * 8 + column` for cell `(row, column)`
    /// (`encode::alphazero_words`, `encode::pettingzoo_words_for`).
    Packed,
}

impl Planes {
    /// `Native` replaced by the kind's own type.
    pub fn resolve(self, kind: ObservationKind) -> Planes {
        match self {
            Planes::Native => kind.native_planes(),
            other => other,
        }
    }
}

/// The width of the index form of legal-action masks ([`MaskFormat::Indices`]): more than
/// any position reachable from a start with a game's material has legal moves (218 is the
/// most known).
pub const MAX_LEGAL: usize = 256;

/// Words of the bit form of a legal-action mask: 4,672 = 73 * 64.
pub const MASK_WORDS: usize = ACTIONS / 64;

/// How legal-action masks are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MaskFormat {
    /// `ACTIONS` bytes per game, 1 where an action is legal.
    #[default]
    Bytes,
    /// [`MASK_WORDS`] `u64` per game: action `a` is bit `a % 64` of word `a / 64`.
    Bits,
    /// [`MAX_LEGAL`] `i16` per game: the legal actions in ascending order, then -1s.
    Indices,
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
    /// How its planes are stored.
    pub planes: Planes,
    /// How legal-action masks are written.
    pub mask: MaskFormat,
    /// End games at claimable draws (threefold repetition, fifty moves) too.
    pub claim_draw: bool,
    /// Truncate a game after this many plies since its reset.
    pub max_plies: Option<u32>,
    /// Replace ended games by new ones in the step that ends them.
    pub auto_reset: bool,
    /// What an illegal action does.
    pub illegal: IllegalAction,
    /// Threads to step on (at least one is used); they are started once per batch, on the
    /// first step that needs them, and parked between steps.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            observation: ObservationKind::None,
            planes: Planes::Native,
            mask: MaskFormat::Bytes,
            claim_draw: false,
            max_plies: None,
            auto_reset: true,
            illegal: IllegalAction::Error,
            threads: 1,
        }
    }
}

impl Options {
    /// The plane type observations are written in (`None` without observations).
    pub fn plane_type(&self) -> Option<Planes> {
        match self.observation {
            ObservationKind::None => None,
            kind => Some(self.planes.resolve(kind)),
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
    /// The observation buffer's type is not the one the batch's options write.
    ObservationType,
    /// The mask buffer's form is not the one the batch's options write.
    MaskType,
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
                    "the observation buffer's type does not match the batch's observations"
                )
            }
            StepError::MaskType => {
                write!(f, "the mask buffer's form does not match the batch's masks")
            }
            StepError::IllegalAction { game, action, fen } => write!(
                f,
                "illegal action {action} for game {game} (no legal move has that index in {fen})"
            ),
        }
    }
}

impl std::error::Error for StepError {}

/// The observation buffer of all games, of the type the batch's options write.
#[derive(Debug)]
pub enum Observations<'a> {
    /// No observation.
    None,
    /// `n * kind.size()` bytes ([`Planes::U8`]).
    U8(&'a mut [u8]),
    /// `n * kind.size()` floats ([`Planes::F32`]).
    F32(&'a mut [f32]),
    /// `n * kind.words()` words ([`Planes::Packed`]).
    Packed(&'a mut [u64]),
}

impl<'a> Observations<'a> {
    fn split_at(self, at: usize, kind: ObservationKind) -> (Self, Self) {
        match self {
            Observations::None => (Observations::None, Observations::None),
            Observations::U8(b) => {
                let (x, y) = b.split_at_mut(at * kind.size());
                (Observations::U8(x), Observations::U8(y))
            }
            Observations::F32(b) => {
                let (x, y) = b.split_at_mut(at * kind.size());
                (Observations::F32(x), Observations::F32(y))
            }
            Observations::Packed(b) => {
                let (x, y) = b.split_at_mut(at * kind.words());
                (Observations::Packed(x), Observations::Packed(y))
            }
        }
    }

    /// Writes game `i`'s observation.
    fn write(&mut self, i: usize, kind: ObservationKind, game: &Game) {
        let us = game.board().turn();
        let size = kind.size();
        let words = kind.words();
        match (self, kind) {
            (Observations::None, _) | (_, ObservationKind::None) => {}
            (Observations::U8(b), kind) => SCRATCH_U8.with(|scratch| {
                write_dense(scratch, kind, game, &mut b[i * size..(i + 1) * size]);
            }),
            (Observations::F32(b), kind) => SCRATCH_F32.with(|scratch| {
                write_dense(scratch, kind, game, &mut b[i * size..(i + 1) * size]);
            }),
            (Observations::Packed(b), ObservationKind::PettingZoo) => {
                encode::pettingzoo_words_for(game, us, &mut b[i * words..(i + 1) * words]);
            }
            (Observations::Packed(b), ObservationKind::AlphaZero) => {
                encode::alphazero_words(game, &mut b[i * words..(i + 1) * words]);
            }
        }
    }
}

thread_local! {
    /// One position's dense planes, built in cache and then streamed to the output.
    static SCRATCH_U8: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The same for `f32` planes.
    static SCRATCH_F32: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// Writes `game`'s dense observation of `kind` into `out` through `scratch`.
fn write_dense<T: Plane>(
    scratch: &RefCell<Vec<T>>,
    kind: ObservationKind,
    game: &Game,
    out: &mut [T],
) {
    let mut planes = scratch.borrow_mut();
    planes.resize(out.len(), T::from_bit(0));
    match kind {
        ObservationKind::None => return,
        ObservationKind::PettingZoo => {
            encode::pettingzoo_observation_into(game, game.board().turn(), &mut planes)
        }
        ObservationKind::AlphaZero => encode::alphazero_planes_into(game, &mut planes),
    }
    encode::stream_copy(&planes, out);
}

/// The legal-action masks of all games, in the form the batch's options write.
#[derive(Debug)]
pub enum Masks<'a> {
    /// `n * ACTIONS` bytes ([`MaskFormat::Bytes`]).
    Bytes(&'a mut [u8]),
    /// `n * MASK_WORDS` words ([`MaskFormat::Bits`]).
    Bits(&'a mut [u64]),
    /// `n * MAX_LEGAL` indices ([`MaskFormat::Indices`]).
    Indices(&'a mut [i16]),
}

impl<'a> Masks<'a> {
    fn format_and_len(&self) -> (MaskFormat, usize, usize) {
        match self {
            Masks::Bytes(b) => (MaskFormat::Bytes, b.len(), ACTIONS),
            Masks::Bits(b) => (MaskFormat::Bits, b.len(), MASK_WORDS),
            Masks::Indices(b) => (MaskFormat::Indices, b.len(), MAX_LEGAL),
        }
    }

    fn split_at(self, at: usize) -> (Self, Self) {
        match self {
            Masks::Bytes(b) => {
                let (x, y) = b.split_at_mut(at * ACTIONS);
                (Masks::Bytes(x), Masks::Bytes(y))
            }
            Masks::Bits(b) => {
                let (x, y) = b.split_at_mut(at * MASK_WORDS);
                (Masks::Bits(x), Masks::Bits(y))
            }
            Masks::Indices(b) => {
                let (x, y) = b.split_at_mut(at * MAX_LEGAL);
                (Masks::Indices(x), Masks::Indices(y))
            }
        }
    }

    /// Writes game `i`'s mask of `legal` (all zero / empty when `legal` is).
    fn write(&mut self, i: usize, legal: &[(u16, Move)]) {
        match self {
            Masks::Bytes(b) => SCRATCH_U8.with(|scratch| {
                // Built in cache and streamed out, as the dense planes are.
                let mut mask = scratch.borrow_mut();
                mask.clear();
                mask.resize(ACTIONS, 0);
                for &(action, _) in legal {
                    mask[usize::from(action)] = 1;
                }
                encode::stream_copy(&mask, &mut b[i * ACTIONS..(i + 1) * ACTIONS]);
            }),
            Masks::Bits(b) => {
                let mask = &mut b[i * MASK_WORDS..(i + 1) * MASK_WORDS];
                mask.fill(0);
                for &(action, _) in legal {
                    mask[usize::from(action) / 64] |= 1 << (action % 64);
                }
            }
            Masks::Indices(b) => {
                let row = &mut b[i * MAX_LEGAL..(i + 1) * MAX_LEGAL];
                // `Batch::try_new` refuses start positions whose games could pass MAX_LEGAL.
                let listed = legal.len().min(MAX_LEGAL);
                for (cell, &(action, _)) in row.iter_mut().zip(legal) {
                    *cell = action as i16;
                }
                row[..listed].sort_unstable();
                row[listed..].fill(-1);
            }
        }
    }
}

/// Where `step` and `reset` write, per game `i` at index `i` (row-major).
#[derive(Debug)]
pub struct Outputs<'a> {
    /// Observations, `n * kind.size()` values or `n * kind.words()` words.
    pub observations: Observations<'a>,
    /// Legal-action masks.
    pub masks: Masks<'a>,
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
    fn check(&self, games: usize, options: &Options) -> Result<(), StepError> {
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
        let kind = options.observation;
        let (planes, len) = match &self.observations {
            Observations::None => (None, 0),
            Observations::U8(b) => (Some(Planes::U8), b.len()),
            Observations::F32(b) => (Some(Planes::F32), b.len()),
            Observations::Packed(b) => (Some(Planes::Packed), b.len()),
        };
        if planes != options.plane_type() {
            return Err(StepError::ObservationType);
        }
        let per_game = if planes == Some(Planes::Packed) {
            kind.words()
        } else {
            kind.size()
        };
        want("observations", games * per_game, len)?;
        let (format, len, per_game) = self.masks.format_and_len();
        if format != options.mask {
            return Err(StepError::MaskType);
        }
        want("masks", games * per_game, len)?;
        want("rewards", games * 2, self.rewards.len())?;
        want("terminated", games, self.terminated.len())?;
        want("truncated", games, self.truncated.len())?;
        want("ends", games, self.ends.len())
    }

    fn split_at(self, at: usize, kind: ObservationKind) -> (Self, Self) {
        let (oa, ob) = self.observations.split_at(at, kind);
        let (ma, mb) = self.masks.split_at(at);
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
    fn write_position(&mut self, i: usize, slot: &Slot, kind: ObservationKind) {
        self.observations.write(i, kind, &slot.game);
        self.masks.write(i, &slot.legal);
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
    /// The plane type (resolved: never `Native`).
    pub planes: Planes,
    /// The mask form.
    pub mask_format: MaskFormat,
    /// Observations as bytes (empty for other plane types).
    pub observations_u8: Vec<u8>,
    /// Observations as floats (empty for other plane types).
    pub observations_f32: Vec<f32>,
    /// Bit-packed observations (empty for other plane types).
    pub observations_packed: Vec<u64>,
    /// Legal-action masks as bytes, `n * ACTIONS` ([`MaskFormat::Bytes`]; else empty).
    pub masks: Vec<u8>,
    /// Legal-action masks as bits, `n * MASK_WORDS` ([`MaskFormat::Bits`]; else empty).
    pub mask_bits: Vec<u64>,
    /// Legal actions as indices, `n * MAX_LEGAL` ([`MaskFormat::Indices`]; else empty).
    pub mask_indices: Vec<i16>,
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
    /// Zeroed buffers for `games` games and observations of `kind` in its native type, masks
    /// as bytes.
    pub fn new(games: usize, kind: ObservationKind) -> OutputBuffers {
        OutputBuffers::for_options(
            games,
            &Options {
                observation: kind,
                ..Options::default()
            },
        )
    }

    /// Zeroed buffers for `games` games of a batch with `options`.
    pub fn for_options(games: usize, options: &Options) -> OutputBuffers {
        let kind = options.observation;
        let planes = options.planes.resolve(kind);
        let sized = |p| if planes == p { games * kind.size() } else { 0 };
        let masks = |f, per| if options.mask == f { games * per } else { 0 };
        OutputBuffers {
            kind,
            planes,
            mask_format: options.mask,
            observations_u8: vec![0; sized(Planes::U8)],
            observations_f32: vec![0.0; sized(Planes::F32)],
            observations_packed: vec![
                0;
                if planes == Planes::Packed {
                    games * kind.words()
                } else {
                    0
                }
            ],
            masks: vec![0; masks(MaskFormat::Bytes, ACTIONS)],
            mask_bits: vec![0; masks(MaskFormat::Bits, MASK_WORDS)],
            mask_indices: vec![0; masks(MaskFormat::Indices, MAX_LEGAL)],
            rewards: vec![0.0; 2 * games],
            terminated: vec![0; games],
            truncated: vec![0; games],
            ends: vec![0; games],
        }
    }

    /// The buffers lent to `Batch::reset`, `Batch::step` or `Batch::observe`.
    pub fn outputs(&mut self) -> Outputs<'_> {
        Outputs {
            observations: match (self.kind, self.planes) {
                (ObservationKind::None, _) => Observations::None,
                (_, Planes::F32) => Observations::F32(&mut self.observations_f32),
                (_, Planes::Packed) => Observations::Packed(&mut self.observations_packed),
                _ => Observations::U8(&mut self.observations_u8),
            },
            masks: match self.mask_format {
                MaskFormat::Bytes => Masks::Bytes(&mut self.masks),
                MaskFormat::Bits => Masks::Bits(&mut self.mask_bits),
                MaskFormat::Indices => Masks::Indices(&mut self.mask_indices),
            },
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            ends: &mut self.ends,
        }
    }

    /// Game `i`'s mask (bytes form).
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

/// The actions of a step.
enum Actions<'s> {
    /// None (a reset).
    None,
    /// Given by the caller, one per game.
    Given(&'s [i64]),
    /// Drawn per game from a generator seeded by `seed` and the game's index, and written
    /// into `played` (-1 for a game that is over).
    Random { seed: u64, played: &'s mut [i64] },
}

impl Actions<'_> {
    fn split(self, at: usize) -> (Self, Self) {
        match self {
            Actions::None => (Actions::None, Actions::None),
            Actions::Given(a) => {
                let (x, y) = a.split_at(at);
                (Actions::Given(x), Actions::Given(y))
            }
            Actions::Random { seed, played } => {
                let (x, y) = played.split_at_mut(at);
                (
                    Actions::Random { seed, played: x },
                    Actions::Random { seed, played: y },
                )
            }
        }
    }
}

/// A uniformly random legal action of `slot` (-1 if it has none) for game `index`.
fn random_action(slot: &Slot, seed: u64, index: usize) -> i64 {
    if slot.legal.is_empty() {
        -1
    } else {
        let mut rng = SplitMix64::new(game_seed(seed, index as u64));
        i64::from(slot.legal[rng.below(slot.legal.len())].0)
    }
}

/// One thread's share of a step: its games, their actions and their outputs.
struct Chunk<'s, 'o> {
    slots: &'s mut [Slot],
    actions: Actions<'s>,
    out: Outputs<'o>,
    kind: ObservationKind,
}

impl Split for Chunk<'_, '_> {
    fn games(&self) -> usize {
        self.slots.len()
    }
    fn split(self, at: usize) -> (Self, Self) {
        let (sa, sb) = self.slots.split_at_mut(at);
        let (aa, ab) = self.actions.split(at);
        let (oa, ob) = self.out.split_at(at, self.kind);
        (
            Chunk {
                slots: sa,
                actions: aa,
                out: oa,
                kind: self.kind,
            },
            Chunk {
                slots: sb,
                actions: ab,
                out: ob,
                kind: self.kind,
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
    /// The batch's own worker threads (a clone starts its own).
    pool: Pool,
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
            pool: Pool::new(),
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

    /// Worker threads started so far (at most `threads - 1`: the calling thread steps a
    /// share too); they stay parked between steps and end with the batch.
    pub fn threads_started(&self) -> usize {
        self.pool.started()
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
        out.check(self.len(), &self.options)?;
        let start = &self.start;
        let chunk = Chunk {
            slots: &mut self.slots,
            actions: Actions::None,
            out,
            kind: self.options.observation,
        };
        self.pool
            .for_chunks(self.options.threads, chunk, |_, mut c| {
                for (i, slot) in c.slots.iter_mut().enumerate() {
                    slot.reset(start);
                    c.out.write_position(i, slot, c.kind);
                    c.out.write_result(i, &StepResult::default());
                }
                encode::stream_fence();
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
        out.check(self.len(), &self.options)?;
        let mut out = out;
        let kind = self.options.observation;
        for (i, slot) in self.slots.iter().enumerate() {
            out.write_position(i, slot, kind);
            let state = slot.over.map_or(StepResult::default(), |over| StepResult {
                rewards: [0.0; 2],
                ..over
            });
            out.write_result(i, &state);
        }
        encode::stream_fence();
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
        out.check(self.len(), &self.options)?;
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
        self.run_step(Actions::Given(actions), out);
        Ok(())
    }

    /// Plays a uniformly random legal action in every game, drawn as
    /// [`Batch::random_actions`] draws them for `seed` (so the same games whatever the
    /// thread count), writes the actions played into `played` (-1 for games that are over)
    /// and the outputs as [`Batch::step`] does. The draws happen on the stepping threads.
    pub fn step_random(
        &mut self,
        seed: u64,
        played: &mut [i64],
        out: Outputs<'_>,
    ) -> Result<(), StepError> {
        if played.len() != self.len() {
            return Err(StepError::WrongLength {
                what: "actions",
                expected: self.len(),
                got: played.len(),
            });
        }
        out.check(self.len(), &self.options)?;
        self.run_step(Actions::Random { seed, played }, out);
        Ok(())
    }

    fn run_step(&mut self, actions: Actions<'_>, out: Outputs<'_>) {
        let start = &self.start;
        let options = &self.options;
        let chunk = Chunk {
            slots: &mut self.slots,
            actions,
            out,
            kind: options.observation,
        };
        self.pool
            .for_chunks(options.threads, chunk, |first, mut c| {
                for (i, slot) in c.slots.iter_mut().enumerate() {
                    let action = match &mut c.actions {
                        Actions::None => -1,
                        Actions::Given(actions) => actions[i],
                        Actions::Random { seed, played } => {
                            played[i] = random_action(slot, *seed, first + i);
                            played[i]
                        }
                    };
                    let result = slot.step(action, start, options);
                    c.out.write_position(i, slot, c.kind);
                    c.out.write_result(i, &result);
                }
                encode::stream_fence();
            });
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
            *action = random_action(slot, seed, i);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
