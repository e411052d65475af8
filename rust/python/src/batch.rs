//! `_BatchBoards` and `rollouts`: the bindings of `pychess_ml::batch`. Arrays cross as
//! bytearrays allocated here and filled with the GIL released; `pychess_rs/batch.py` wraps
//! each with one `numpy.frombuffer` (no copy), so numpy stays an optional dependency.

use crate::board::Board;
use crate::errors::Result;
use pychess_core::{Color, Game};
use pychess_ml::batch::{
    self, replay, start_position, Batch, IllegalAction, ObservationKind, Observations, Options,
    Outputs, RolloutOptions, StepError,
};
use pychess_ml::encode::{legal_action_mask, pettingzoo_observation_for, ACTIONS};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

/// A zeroed bytearray of `len` bytes.
fn zeroed(py: Python<'_>, len: usize) -> PyResult<Bound<'_, PyByteArray>> {
    PyByteArray::new_with(py, len, |_| Ok(()))
}

/// Reinterprets a fresh bytearray as floats.
fn as_f32(bytes: &mut [u8]) -> PyResult<&mut [f32]> {
    // SAFETY: every bit pattern is a valid f32, and `align_to_mut` only yields the aligned
    // middle, whose length we check.
    let (head, floats, tail) = unsafe { bytes.align_to_mut::<f32>() };
    if !head.is_empty() || !tail.is_empty() {
        return Err(PyValueError::new_err("unaligned float buffer"));
    }
    Ok(floats)
}

/// The bytearrays one step returns: observations (or None), masks, rewards (f32 pairs),
/// terminated, truncated, end codes.
type StepArrays<'py> = (
    Option<Bound<'py, PyByteArray>>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// Many games stepped by arrays of actions (wrapped by `pychess_rs.batch.BatchBoards`).
#[pyclass(module = "pychess_rs._core", name = "_BatchBoards")]
pub struct BatchBoards {
    batch: Batch,
}

impl BatchBoards {
    /// Allocates the output arrays, runs `fill` on them with the GIL released, and returns
    /// them.
    fn with_outputs<'py>(
        &mut self,
        py: Python<'py>,
        fill: impl FnOnce(&mut Batch, Outputs<'_>) -> Result<(), StepError> + Send,
    ) -> Result<StepArrays<'py>> {
        let n = self.batch.len();
        let kind = self.batch.options().observation;
        let obs = match kind {
            ObservationKind::None => None,
            ObservationKind::PettingZoo => Some(zeroed(py, n * kind.size())?),
            ObservationKind::AlphaZero => Some(zeroed(py, 4 * n * kind.size())?),
        };
        let masks = zeroed(py, n * ACTIONS)?;
        let rewards = zeroed(py, 4 * 2 * n)?;
        let terminated = zeroed(py, n)?;
        let truncated = zeroed(py, n)?;
        let ends = zeroed(py, n)?;
        // SAFETY: these bytearrays were all created above and are not yet returned to
        // Python, so nothing else can read, resize or free them while Rust writes into them,
        // with the GIL released or not; `ends` is reinterpreted as i8, of the same size and
        // validity as u8.
        let outputs = unsafe {
            let observations = match (&obs, kind) {
                (Some(b), ObservationKind::PettingZoo) => Observations::U8(b.as_bytes_mut()),
                (Some(b), _) => Observations::F32(as_f32(b.as_bytes_mut())?),
                (None, _) => Observations::None,
            };
            let ends_bytes = ends.as_bytes_mut();
            Outputs {
                observations,
                masks: masks.as_bytes_mut(),
                rewards: as_f32(rewards.as_bytes_mut())?,
                terminated: terminated.as_bytes_mut(),
                truncated: truncated.as_bytes_mut(),
                ends: std::slice::from_raw_parts_mut(
                    ends_bytes.as_mut_ptr().cast::<i8>(),
                    ends_bytes.len(),
                ),
            }
        };
        let batch = &mut self.batch;
        py.detach(move || fill(batch, outputs))?;
        Ok((obs, masks, rewards, terminated, truncated, ends))
    }

    fn game(&self, index: isize) -> PyResult<&Game> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.batch.game(i))
            .ok_or_else(|| PyIndexError::new_err(format!("no game {index} in this batch")))
    }
}

#[pymethods]
impl BatchBoards {
    #[new]
    #[pyo3(signature = (n, *, fen=None, observation=None, claim_draw=false, max_plies=None,
        auto_reset=true, illegal="error", threads=1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        n: usize,
        fen: Option<&str>,
        observation: Option<&str>,
        claim_draw: bool,
        max_plies: Option<u32>,
        auto_reset: bool,
        illegal: &str,
        threads: usize,
    ) -> Result<BatchBoards> {
        let options = Options {
            observation: ObservationKind::from_name(observation)?,
            claim_draw,
            max_plies,
            auto_reset,
            illegal: IllegalAction::from_name(illegal)?,
            threads,
        };
        Ok(BatchBoards {
            batch: Batch::try_new(n, start_position(fen)?, options)?,
        })
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// Restarts every game; returns the step arrays (first observations and masks).
    fn reset<'py>(&mut self, py: Python<'py>) -> Result<StepArrays<'py>> {
        self.with_outputs(py, |batch, out| batch.reset(out))
    }

    /// The step arrays of the current positions, without moving.
    fn observe<'py>(&mut self, py: Python<'py>) -> Result<StepArrays<'py>> {
        self.with_outputs(py, |batch, out| batch.observe(out))
    }

    /// Plays one action per game; `actions` holds native-endian int64s.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyBytes>,
    ) -> Result<StepArrays<'py>> {
        let bytes = actions.as_bytes();
        if bytes.len() % 8 != 0 {
            return Err(PyValueError::new_err("actions must be int64 bytes").into());
        }
        let actions: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|b| i64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect();
        self.with_outputs(py, move |batch, out| batch.step(&actions, out))
    }

    /// A random legal action per game (int64 bytes; -1 for games that are over).
    fn random_actions<'py>(&self, py: Python<'py>, seed: u64) -> Result<Bound<'py, PyBytes>> {
        let mut actions = vec![0i64; self.batch.len()];
        self.batch.random_actions(seed, &mut actions)?;
        let bytes: Vec<u8> = actions.iter().flat_map(|a| a.to_ne_bytes()).collect();
        Ok(PyBytes::new(py, &bytes))
    }

    /// Restarts game `index` alone.
    fn reset_game(&mut self, index: isize) -> PyResult<()> {
        self.game(index)?;
        self.batch.reset_game(index as usize);
        Ok(())
    }

    /// Game `index` as a `Board` (a copy with its move stack).
    fn board(&self, index: isize) -> PyResult<Board> {
        Ok(Board::from_game(self.game(index)?.clone()))
    }

    /// The game that ended at `index` in the last step and was replaced by auto-reset.
    fn final_board(&self, index: isize) -> PyResult<Option<Board>> {
        self.game(index)?;
        Ok(self
            .batch
            .finished_game(index as usize)
            .map(|game| Board::from_game(game.clone())))
    }

    /// Plies played in game `index` since its reset.
    fn plies(&self, index: isize) -> PyResult<u32> {
        self.game(index)?;
        Ok(self.batch.plies(index as usize).unwrap_or(0))
    }

    /// PettingZoo chess_v6's `observe(agent)` parts of game `index` for the player of
    /// `white` (`player_0`) or Black (`player_1`): the observation bytes, and the legal-action
    /// mask of the side to move, whether or not the game is over (chess_v6 gives it to the
    /// agent selected, which after an illegal action is not the side to move; the caller
    /// zeroes it for the others).
    fn pettingzoo_view<'py>(
        &self,
        py: Python<'py>,
        index: isize,
        white: bool,
    ) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyByteArray>)> {
        let game = self.game(index)?;
        let observer = if white { Color::White } else { Color::Black };
        let size = ObservationKind::PettingZoo.size();
        let obs = PyByteArray::new_with(py, size, |out| {
            pettingzoo_observation_for(game, observer, out);
            Ok(())
        })?;
        let mask = PyByteArray::new_with(py, ACTIONS, |out| {
            legal_action_mask(game.board(), out);
            Ok(())
        })?;
        Ok((obs, mask))
    }

    /// Is game `index` over and waiting for a reset (only without auto-reset)?
    fn is_over(&self, index: isize) -> PyResult<bool> {
        self.game(index)?;
        Ok(self.batch.is_over(index as usize))
    }
}

/// The arrays of `rollouts`: actions (u16), offsets (i64, games + 1), end codes (i8),
/// winners (i8: 1 White, -1 Black, 0 none), truncated (u8).
type RolloutArrays<'py> = (
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
);

/// Random self-play games (see `pychess_ml::batch::rollout`), played with the GIL released.
#[pyfunction]
#[pyo3(signature = (games, seed=0, *, fen=None, claim_draw=false, max_plies=None, threads=1))]
pub fn rollouts<'py>(
    py: Python<'py>,
    games: usize,
    seed: u64,
    fen: Option<&str>,
    claim_draw: bool,
    max_plies: Option<u32>,
    threads: usize,
) -> Result<RolloutArrays<'py>> {
    let start = start_position(fen)?;
    let options = RolloutOptions {
        claim_draw,
        max_plies,
        threads,
    };
    let (actions, offsets, ends, winners, truncated) = py.detach(|| {
        let played = batch::rollouts(&start, games, seed, &options);
        let total: usize = played.iter().map(|r| r.actions.len()).sum();
        let mut actions = Vec::with_capacity(2 * total);
        let mut offsets = Vec::with_capacity(8 * (games + 1));
        offsets.extend(0i64.to_ne_bytes());
        let mut count = 0i64;
        for r in &played {
            actions.extend(r.actions.iter().flat_map(|a| a.to_ne_bytes()));
            count += r.actions.len() as i64;
            offsets.extend(count.to_ne_bytes());
        }
        let ends: Vec<u8> = played.iter().map(|r| r.end as u8).collect();
        let winners: Vec<u8> = played
            .iter()
            .map(|r| match r.winner {
                Some(Color::White) => 1,
                Some(Color::Black) => -1i8 as u8,
                None => 0,
            })
            .collect();
        let truncated: Vec<u8> = played.iter().map(|r| u8::from(r.truncated)).collect();
        (actions, offsets, ends, winners, truncated)
    });
    Ok((
        PyBytes::new(py, &actions),
        PyBytes::new(py, &offsets),
        PyBytes::new(py, &ends),
        PyBytes::new(py, &winners),
        PyBytes::new(py, &truncated),
    ))
}

/// The game from `fen` (or the start) after `actions` (native-endian uint16s), as a `Board`.
#[pyfunction]
#[pyo3(signature = (actions, fen=None))]
pub fn board_from_actions(actions: &Bound<'_, PyBytes>, fen: Option<&str>) -> Result<Board> {
    let bytes = actions.as_bytes();
    if bytes.len() % 2 != 0 {
        return Err(PyValueError::new_err("actions must be uint16").into());
    }
    let actions: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_ne_bytes([pair[0], pair[1]]))
        .collect();
    Ok(Board::from_game(replay(start_position(fen)?, &actions)?))
}
