//! Tensor encodings for `pychess_rs.encode`: glue over `pychess_ml::encode`.
//!
//! Each function takes one board or a sequence of boards and returns a `bytearray` that the
//! Python module wraps with one `numpy.frombuffer(...).reshape(...)` (writable, no copy), so
//! the extension never needs NumPy (the `numpy` crate would raise the crate's minimum Rust
//! version to 1.85 and make NumPy part of every build). The buffer is created first and
//! filled in place with the GIL released, on `threads` threads for a batch.

use crate::board::Board;
use crate::moves::{as_move, intern, Move};
use pychess_core::{Color, Game};
use pychess_ml::encode as ml;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyList, PyTuple};

/// The boards an argument holds: one `Board`, or a list/tuple/iterable of them. The borrows
/// stay alive (so no other thread can push or pop those boards) while their games are read.
fn borrow_boards<'py>(boards: &Bound<'py, PyAny>) -> PyResult<Vec<PyRef<'py, Board>>> {
    if let Ok(board) = boards.cast::<Board>() {
        return Ok(vec![board.borrow()]);
    }
    let take = |item: Bound<'py, PyAny>| -> PyResult<PyRef<'py, Board>> {
        match item.cast::<Board>() {
            Ok(board) => Ok(board.borrow()),
            Err(_) => Err(PyTypeError::new_err(format!(
                "expected pychess_rs.Board objects, got {}",
                item.get_type().name()?
            ))),
        }
    };
    if let Ok(list) = boards.cast::<PyList>() {
        return list.iter().map(take).collect();
    }
    if let Ok(tuple) = boards.cast::<PyTuple>() {
        return tuple.iter().map(take).collect();
    }
    boards
        .try_iter()
        .map_err(|_| PyTypeError::new_err("expected a pychess_rs.Board or a sequence of boards"))?
        .map(|item| take(item?))
        .collect()
}

/// Values of a plain numeric type that may be written into a byte buffer.
///
/// # Safety
/// Every bit pattern of the type's size must be a valid value.
pub(crate) unsafe trait Plain: Copy + Default + Send {}
// SAFETY: integers and floats accept every bit pattern.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above.
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}
// SAFETY: as above.
unsafe impl Plain for i16 {}
// SAFETY: as above.
unsafe impl Plain for i8 {}
// SAFETY: as above.
unsafe impl Plain for i64 {}

/// The most threads one batch is split over.
const MAX_THREADS: usize = 256;

/// A `bytearray` of `bytes` bytes, left uninitialised: every encoder writes all of its
/// output (PyO3's `new_with` would zero it first, a second pass over large batches).
pub(crate) fn uninit_bytearray(py: Python<'_>, bytes: usize) -> PyResult<Bound<'_, PyByteArray>> {
    let len =
        ffi::Py_ssize_t::try_from(bytes).map_err(|_| PyValueError::new_err("batch too large"))?;
    // SAFETY: a null source asks CPython for a new bytearray of `len` bytes, contents
    // unspecified; the result is checked for an error and is a bytearray.
    unsafe {
        let ptr = ffi::PyByteArray_FromStringAndSize(std::ptr::null(), len);
        Ok(Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked())
    }
}

/// A `bytearray` of `games.len() * per_item` values of `T`, each item filled by
/// `fill(game, item)` with the GIL released, on up to `threads` threads: `out` when given
/// (it must have exactly that size: a batch's array is refilled in place, no allocation, no
/// fresh pages to fault in), else a new one.
fn encode_into<'py, T: Plain>(
    py: Python<'py>,
    games: &[&Game],
    per_item: usize,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
    fill: impl Fn(&Game, &mut [T]) + Sync,
) -> PyResult<Bound<'py, PyByteArray>> {
    let values = games.len() * per_item;
    let bytes = values * std::mem::size_of::<T>();
    let (array, _export) = match out {
        Some(array) => {
            if array.len() != bytes {
                return Err(PyValueError::new_err(format!(
                    "out holds {} bytes, the batch needs {bytes}",
                    array.len()
                )));
            }
            // A buffer export (a memoryview) for as long as the GIL is released: CPython
            // refuses to resize a bytearray with exports, so no other thread can move the
            // memory being written.
            // SAFETY: `array` is a live bytearray; the result is checked for an error.
            let export = unsafe {
                Bound::from_owned_ptr_or_err(py, ffi::PyMemoryView_FromObject(array.as_ptr()))?
            };
            (array, Some(export))
        }
        None => (uninit_bytearray(py, bytes)?, None),
    };
    // SAFETY: a new bytearray is unseen by Python code; a given one cannot be resized while
    // `_export` lives (see above). Either way the memory stays put while it is filled.
    let buffer = unsafe { array.as_bytes_mut() };
    // SAFETY: `T` is plain (any bit pattern is a value); `align_to_mut` only yields the
    // middle part properly aligned.
    let (head, middle, tail) = unsafe { buffer.align_to_mut::<T>() };
    let run = |out: &mut [T]| {
        // A thread only pays for its spawn with enough work: about 1 MB of output each
        // (a few dozen plane stacks, thousands of compact positions). Never more threads
        // than boards, or than any machine has cores.
        let item_bytes = (per_item * std::mem::size_of::<T>()).max(1);
        let min_items = ((1 << 20) / item_bytes).max(16);
        let chunks = threads.clamp(1, (games.len() / min_items).clamp(1, MAX_THREADS));
        let per_chunk = games.len().div_ceil(chunks).max(1);
        let fill = &fill;
        let work = move |games: &[&Game], out: &mut [T]| {
            for (game, item) in games.iter().zip(out.chunks_exact_mut(per_item)) {
                fill(game, item);
            }
        };
        std::thread::scope(|scope| {
            let mut parts = games
                .chunks(per_chunk)
                .zip(out.chunks_mut(per_chunk * per_item));
            // The calling thread takes the first part itself: one spawn fewer.
            let first = parts.next();
            for (games, out) in parts {
                scope.spawn(move || work(games, out));
            }
            if let Some((games, out)) = first {
                work(games, out);
            }
        });
    };
    if head.is_empty() && tail.is_empty() {
        py.detach(|| run(middle));
    } else {
        // CPython's allocator aligns to 8 or 16 bytes, so this path is for exotic builds.
        let mut values = vec![T::default(); values];
        py.detach(|| run(&mut values));
        // SAFETY: as above, the memory stays put.
        let buffer = unsafe { array.as_bytes_mut() };
        // SAFETY: `T` is plain, so its bytes may be copied out.
        let raw = unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), bytes) };
        buffer.copy_from_slice(raw);
    }
    Ok(array)
}

fn games<'a>(boards: &'a [PyRef<'_, Board>]) -> Vec<&'a Game> {
    boards.iter().map(|b| &*b.game).collect()
}

/// The compact encoding (17 `uint64` per board).
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_compact<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    encode_into(
        py,
        &games(&boards),
        ml::COMPACT_LEN,
        threads,
        out,
        |game, item| {
            ml::compact(game.board(), item);
        },
    )
}

/// AlphaZero's (8, 8, 119) `float32` planes per board.
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_alphazero<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    encode_into(
        py,
        &games(&boards),
        64 * 119,
        threads,
        out,
        ml::alphazero_planes,
    )
}

/// Lc0's (112, 8, 8) `float32` planes per board.
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_lc0<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    encode_into(py, &games(&boards), 112 * 64, threads, out, ml::lc0_planes)
}

/// PettingZoo `chess_v6`'s (8, 8, 111) 0/1 observation per board, for `observer` (True:
/// White, False: Black, None: the side to move).
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, observer = None, out = None))]
pub(crate) fn encode_pettingzoo<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    observer: Option<bool>,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    let observer = observer.map(Color::from_white);
    encode_into(py, &games(&boards), 64 * 111, threads, out, |game, item| {
        let who = observer.unwrap_or(game.board().turn());
        ml::pettingzoo_observation_for(game, who, item);
    })
}

/// AlphaZero's planes bit-packed, 119 `uint64` per board (`ml::alphazero_words`).
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_alphazero_packed<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    encode_into(
        py,
        &games(&boards),
        ml::ALPHAZERO_WORDS,
        threads,
        out,
        ml::alphazero_words,
    )
}

/// PettingZoo's observation bit-packed, 111 `uint64` per board, for `observer` (White
/// True, Black False) or the side to move.
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, observer = None, out = None))]
pub(crate) fn encode_pettingzoo_packed<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    observer: Option<bool>,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    let observer = observer.map(Color::from_white);
    encode_into(
        py,
        &games(&boards),
        ml::PETTINGZOO_WORDS,
        threads,
        out,
        |game, item| {
            let who = observer.unwrap_or(game.board().turn());
            ml::pettingzoo_words_for(game, who, item);
        },
    )
}

/// The legal-action mask (4,672 0/1 bytes) per board; with `observer` given, PettingZoo's
/// mask for that player (all zeros when it is not that player's turn).
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, observer = None, out = None))]
pub(crate) fn encode_action_mask<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    observer: Option<bool>,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    let observer = observer.map(Color::from_white);
    encode_into(
        py,
        &games(&boards),
        ml::ACTIONS,
        threads,
        out,
        |game, item| {
            let who = observer.unwrap_or(game.board().turn());
            ml::pettingzoo_action_mask(game, who, item);
        },
    )
}

fn encode_nnue<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
    kind: ml::NnueFeatureSet,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    let games = games(&boards);
    // Positions without one king of each side or with too many pieces have no features:
    // refuse them before any work (a given `out` stays as it was), naming the first. Only
    // counts are needed for that, not the features.
    for (index, game) in games.iter().enumerate() {
        if let Err(error) = kind.check(game.board()) {
            return Err(PyValueError::new_err(format!(
                "board {index} ({}): {error}",
                game.board().fen()
            )));
        }
    }
    encode_into(
        py,
        &games,
        2 * ml::MAX_FEATURES,
        threads,
        out,
        |game, item: &mut [i32]| {
            item.fill(-1);
            for (color, row) in Color::ALL
                .into_iter()
                .zip(item.chunks_exact_mut(ml::MAX_FEATURES))
            {
                let mut features = [0u32; ml::MAX_FEATURES];
                let count = kind
                    .features(game.board(), color, &mut features)
                    .unwrap_or(0);
                for (slot, &feature) in row.iter_mut().zip(&features[..count]) {
                    *slot = feature as i32;
                }
            }
        },
    )
}

/// HalfKP feature indices, (2, 32) `int32` per board (White's then Black's perspective),
/// padded with -1.
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_halfkp<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    encode_nnue(py, boards, threads, out, ml::NnueFeatureSet::HalfKp)
}

/// HalfKAv2_hm feature indices, as `encode_halfkp` lays them out.
#[pyfunction]
#[pyo3(signature = (boards, threads = 1, out = None))]
pub(crate) fn encode_halfka_v2_hm<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    threads: usize,
    out: Option<Bound<'py, PyByteArray>>,
) -> PyResult<Bound<'py, PyByteArray>> {
    encode_nnue(py, boards, threads, out, ml::NnueFeatureSet::HalfKaV2Hm)
}

/// The action of the legal move `m` of `game`'s position.
fn action_in(game: &Game, m: &Bound<'_, PyAny>) -> PyResult<usize> {
    let Some(m) = as_move(m) else {
        return Err(PyTypeError::new_err(format!(
            "expected a pychess_rs.Move, got {}",
            m.get_type().name()?
        )));
    };
    let uci = m.get().uci;
    game.find_legal(uci)
        .and_then(|legal| ml::try_action_of(game.board(), legal))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{uci} is not a legal move in {}",
                game.board().fen()
            ))
        })
}

/// The action of a legal move of `board`.
#[pyfunction]
pub(crate) fn encode_action_of(board: PyRef<'_, Board>, m: &Bound<'_, PyAny>) -> PyResult<usize> {
    action_in(&board.game, m)
}

/// The legal move of `board` that `action` stands for, or None.
#[pyfunction]
pub(crate) fn encode_move_of(
    py: Python<'_>,
    board: PyRef<'_, Board>,
    action: i64,
) -> Option<Py<Move>> {
    let action = usize::try_from(action).ok()?;
    let board = board.game.board();
    ml::move_of(board, action).map(|m| intern(py, board.uci(m)))
}

/// The action of each move of `moves` in the matching board of `boards` (`int64` each).
#[pyfunction]
pub(crate) fn encode_actions_of<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    moves: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyByteArray>> {
    let boards = borrow_boards(boards)?;
    let moves: Vec<Bound<'py, PyAny>> = moves.try_iter()?.collect::<PyResult<_>>()?;
    if moves.len() != boards.len() {
        return Err(PyValueError::new_err(format!(
            "{} boards but {} moves",
            boards.len(),
            moves.len()
        )));
    }
    let mut bytes = Vec::with_capacity(8 * boards.len());
    for (board, m) in boards.iter().zip(&moves) {
        bytes.extend_from_slice(&(action_in(&board.game, m)? as i64).to_ne_bytes());
    }
    Ok(PyByteArray::new(py, &bytes))
}

/// The legal move each action stands for in the matching board, or None.
#[pyfunction]
pub(crate) fn encode_moves_of<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    actions: Vec<i64>,
) -> PyResult<Vec<Option<Py<Move>>>> {
    let boards = borrow_boards(boards)?;
    if actions.len() != boards.len() {
        return Err(PyValueError::new_err(format!(
            "{} boards but {} actions",
            boards.len(),
            actions.len()
        )));
    }
    Ok(boards
        .iter()
        .zip(actions)
        .map(|(board, action)| {
            let board = board.game.board();
            let action = usize::try_from(action).ok()?;
            ml::move_of(board, action).map(|m| intern(py, board.uci(m)))
        })
        .collect())
}

/// Adds the `encode_*` functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(encode_compact, m)?)?;
    m.add_function(wrap_pyfunction!(encode_alphazero, m)?)?;
    m.add_function(wrap_pyfunction!(encode_lc0, m)?)?;
    m.add_function(wrap_pyfunction!(encode_pettingzoo, m)?)?;
    m.add_function(wrap_pyfunction!(encode_alphazero_packed, m)?)?;
    m.add_function(wrap_pyfunction!(encode_pettingzoo_packed, m)?)?;
    m.add_function(wrap_pyfunction!(encode_action_mask, m)?)?;
    m.add_function(wrap_pyfunction!(encode_halfkp, m)?)?;
    m.add_function(wrap_pyfunction!(encode_halfka_v2_hm, m)?)?;
    m.add_function(wrap_pyfunction!(encode_action_of, m)?)?;
    m.add_function(wrap_pyfunction!(encode_actions_of, m)?)?;
    m.add_function(wrap_pyfunction!(encode_move_of, m)?)?;
    m.add_function(wrap_pyfunction!(encode_moves_of, m)?)?;
    Ok(())
}
