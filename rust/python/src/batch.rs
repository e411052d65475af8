//! `_BatchBoards` and `rollouts`: the bindings of `pychess_ml::batch`. Arrays cross as
//! bytearrays filled with the GIL released: fresh ones, or the caller's own (`out`, arrays a
//! batch returned before, refilled in place); `pychess_rs/batch.py` wraps each with one
//! `numpy.frombuffer` (no copy), so numpy stays an optional dependency.

use crate::board::Board;
use crate::encode::{uninit_bytearray, Plain};
use crate::errors::Result;
use pychess_core::{Color, Game};
use pychess_ml::batch::{
    self, replay, start_position, Batch, IllegalAction, MaskFormat, Masks, ObservationKind,
    Observations, Options, Outputs, Planes, RolloutOptions, StepError, MASK_WORDS, MAX_LEGAL,
};
use pychess_ml::encode::{legal_action_mask, pettingzoo_observation_for, ACTIONS};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

/// The bytearrays of one step: observations (or None), masks, rewards (f32 pairs),
/// terminated, truncated, end codes.
type StepArrays<'py> = (
    Option<Bound<'py, PyByteArray>>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

/// `bytes` viewed as values of `T`.
fn typed<T: Plain>(bytes: &mut [u8]) -> PyResult<&mut [T]> {
    // SAFETY: `T` is plain (every bit pattern is a value), and `align_to_mut` only yields
    // the aligned middle, which must be all of it.
    let (head, values, tail) = unsafe { bytes.align_to_mut::<T>() };
    if !head.is_empty() || !tail.is_empty() {
        return Err(PyValueError::new_err("unaligned output buffer"));
    }
    Ok(values)
}

/// A memoryview of `array`, held while Rust writes into it with the GIL released: CPython
/// refuses to resize a bytearray with exports, so its memory stays put.
fn pin<'py>(array: &Bound<'py, PyByteArray>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `array` is a live bytearray; the result is checked for an error.
    unsafe {
        Bound::from_owned_ptr_or_err(array.py(), ffi::PyMemoryView_FromObject(array.as_ptr()))
    }
}

/// Many games stepped by arrays of actions (wrapped by `pychess_rs.batch.BatchBoards`).
#[pyclass(module = "pychess_rs._core", name = "_BatchBoards")]
pub struct BatchBoards {
    batch: Batch,
}

impl BatchBoards {
    /// Bytes of each output array for this batch: observations (None without), masks,
    /// rewards, terminated, truncated, ends.
    fn sizes(&self) -> (Option<usize>, [usize; 5]) {
        let n = self.batch.len();
        let options = self.batch.options();
        let kind = options.observation;
        let obs = options.plane_type().map(|planes| match planes {
            Planes::F32 => 4 * n * kind.size(),
            Planes::Packed => 8 * n * kind.words(),
            _ => n * kind.size(),
        });
        let masks = match options.mask {
            MaskFormat::Bytes => n * ACTIONS,
            MaskFormat::Bits => 8 * n * MASK_WORDS,
            MaskFormat::Indices => 2 * n * MAX_LEGAL,
        };
        (obs, [masks, 4 * 2 * n, n, n, n])
    }

    /// Fresh output arrays (left uninitialised: every step, reset and observe writes all of
    /// them), or the caller's `out` after checking their sizes.
    fn arrays<'py>(
        &self,
        py: Python<'py>,
        out: Option<StepArrays<'py>>,
    ) -> PyResult<StepArrays<'py>> {
        let (obs_size, sizes) = self.sizes();
        let Some(out) = out else {
            let obs = obs_size.map(|b| uninit_bytearray(py, b)).transpose()?;
            return Ok((
                obs,
                uninit_bytearray(py, sizes[0])?,
                uninit_bytearray(py, sizes[1])?,
                uninit_bytearray(py, sizes[2])?,
                uninit_bytearray(py, sizes[3])?,
                uninit_bytearray(py, sizes[4])?,
            ));
        };
        let names = ["masks", "rewards", "terminated", "truncated", "ends"];
        let given = [&out.1, &out.2, &out.3, &out.4, &out.5];
        match (&out.0, obs_size) {
            (None, None) => {}
            (Some(obs), Some(bytes)) if obs.len() == bytes => {}
            _ => {
                return Err(PyValueError::new_err(
                    "out's observations do not fit this batch (an array it returned is needed)",
                ))
            }
        }
        let mut seen: Vec<*mut ffi::PyObject> = given.iter().map(|a| a.as_ptr()).collect();
        seen.extend(out.0.as_ref().map(|a| a.as_ptr()));
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != 5 + usize::from(out.0.is_some()) {
            return Err(PyValueError::new_err("out holds one array twice"));
        }
        for ((name, array), bytes) in names.iter().zip(given).zip(sizes) {
            if array.len() != bytes {
                return Err(PyValueError::new_err(format!(
                    "out's {name} hold {} bytes, this batch needs {bytes}",
                    array.len()
                )));
            }
        }
        Ok(out)
    }

    /// Runs `fill` on the output arrays (fresh or `out`) with the GIL released, and returns
    /// them.
    fn with_outputs<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<StepArrays<'py>>,
        fill: impl FnOnce(&mut Batch, Outputs<'_>) -> Result<(), StepError> + Send,
    ) -> Result<StepArrays<'py>> {
        let arrays = self.arrays(py, out)?;
        let (obs, masks, rewards, terminated, truncated, ends) = &arrays;
        let _pins = [masks, rewards, terminated, truncated, ends]
            .into_iter()
            .chain(obs.as_ref())
            .map(pin)
            .collect::<PyResult<Vec<_>>>()?;
        let options = *self.batch.options();
        // SAFETY: the bytearrays are fresh (unseen by Python) or pinned above, so their
        // memory stays put while Rust writes, and they are distinct objects (`arrays` checks
        // that), so the slices do not alias.
        let outputs = unsafe {
            let observations = match (obs, options.plane_type()) {
                (Some(b), Some(Planes::F32)) => Observations::F32(typed(b.as_bytes_mut())?),
                (Some(b), Some(Planes::Packed)) => Observations::Packed(typed(b.as_bytes_mut())?),
                (Some(b), Some(_)) => Observations::U8(b.as_bytes_mut()),
                _ => Observations::None,
            };
            let masks = match options.mask {
                MaskFormat::Bytes => Masks::Bytes(masks.as_bytes_mut()),
                MaskFormat::Bits => Masks::Bits(typed(masks.as_bytes_mut())?),
                MaskFormat::Indices => Masks::Indices(typed(masks.as_bytes_mut())?),
            };
            Outputs {
                observations,
                masks,
                rewards: typed(rewards.as_bytes_mut())?,
                terminated: terminated.as_bytes_mut(),
                truncated: truncated.as_bytes_mut(),
                ends: typed(ends.as_bytes_mut())?,
            }
        };
        let batch = &mut self.batch;
        py.detach(move || fill(batch, outputs))?;
        Ok(arrays)
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
        auto_reset=true, illegal="error", threads=1, dtype=None, mask="int8"))]
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
        dtype: Option<&str>,
        mask: &str,
    ) -> Result<BatchBoards> {
        let kind = ObservationKind::from_name(observation)?;
        let options = Options {
            observation: kind,
            planes: Planes::from_name(dtype, kind)?,
            mask: MaskFormat::from_name(mask)?,
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

    /// Worker threads started so far (they persist between steps).
    fn threads_started(&self) -> usize {
        self.batch.threads_started()
    }

    /// Fresh output arrays for this batch, to pass as `out`.
    fn new_outputs<'py>(&self, py: Python<'py>) -> PyResult<StepArrays<'py>> {
        let arrays = self.arrays(py, None)?;
        // Zeroed, so that arrays no step has filled yet read as nothing.
        let (obs, masks, rewards, terminated, truncated, ends) = &arrays;
        for array in [masks, rewards, terminated, truncated, ends]
            .into_iter()
            .chain(obs.as_ref())
        {
            // SAFETY: fresh bytearrays, unseen by Python code.
            unsafe { array.as_bytes_mut() }.fill(0);
        }
        Ok(arrays)
    }

    /// Restarts every game; returns the step arrays (first observations and masks).
    #[pyo3(signature = (out=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<StepArrays<'py>>,
    ) -> Result<StepArrays<'py>> {
        self.with_outputs(py, out, |batch, out| batch.reset(out))
    }

    /// The step arrays of the current positions, without moving.
    #[pyo3(signature = (out=None))]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<StepArrays<'py>>,
    ) -> Result<StepArrays<'py>> {
        self.with_outputs(py, out, |batch, out| batch.observe(out))
    }

    /// Plays one action per game; `actions` holds native-endian int64s.
    #[pyo3(signature = (actions, out=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyBytes>,
        out: Option<StepArrays<'py>>,
    ) -> Result<StepArrays<'py>> {
        let bytes = actions.as_bytes();
        if bytes.len() % 8 != 0 {
            return Err(PyValueError::new_err("actions must be int64 bytes").into());
        }
        let actions: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|b| i64::from_ne_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
            .collect();
        self.with_outputs(py, out, move |batch, out| batch.step(&actions, out))
    }

    /// Plays a random legal action per game, drawn in Rust from `seed` and each game's
    /// index; writes the actions played into `played` (int64 bytes, -1 for games over).
    #[pyo3(signature = (seed, played, out=None))]
    fn step_random<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
        played: &Bound<'py, PyByteArray>,
        out: Option<StepArrays<'py>>,
    ) -> Result<StepArrays<'py>> {
        if played.len() != 8 * self.batch.len() {
            return Err(PyValueError::new_err(format!(
                "played holds {} bytes, this batch needs {}",
                played.len(),
                8 * self.batch.len()
            ))
            .into());
        }
        if let Some(out) = &out {
            let arrays = [&out.1, &out.2, &out.3, &out.4, &out.5];
            if arrays
                .into_iter()
                .chain(out.0.as_ref())
                .any(|a| a.is(played))
            {
                return Err(PyValueError::new_err("played is one of the out arrays").into());
            }
        }
        let _pin = pin(played)?;
        // SAFETY: pinned above (its memory stays put), and not one of the output arrays
        // (checked above; fresh ones are new objects).
        let played = typed::<i64>(unsafe { played.as_bytes_mut() })?;
        self.with_outputs(py, out, move |batch, out| {
            batch.step_random(seed, played, out)
        })
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
