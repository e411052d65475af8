//! `Searcher`: the engine crate seen from Python.
//!
//! A search copies the board and its game history into Rust-owned data and runs with the
//! GIL released, so other Python threads (a UCI reader answering `isready`, a GUI thread
//! pressing "stop") keep running. They reach the search through a [`SearchControl`] object
//! shared with it (an `Arc` of the engine's control, outside the engine's lock). Each
//! report re-attaches to the interpreter only for the `on_info` call.
//!
//! ```python
//! from pychess_rs import Board
//! from pychess_rs._core import Searcher, SearchControl
//! searcher = Searcher(hash_mb=16)
//! control = SearchControl()
//! result = searcher.search(Board(), depth=4, control=control, on_info=print)
//! ```

mod job;
mod options;
mod reports;
mod variant;

pub use job::bench;
pub use options::{check_uci_option, engine_option_ranges, uci_options};
pub use reports::{SearchControl, SearchInfo, SearchResult};
pub use variant::variant_position;

use crate::board::Board;
use crate::convert::move_arg_opt;
use crate::errors::Result;
use job::{lock, panic_message, Root, SearchJob};
use options::{options_dict, with_changes};
use pychess_core::{Move as CoreMove, UciMove};
use pychess_engine::nnue::Network;
use pychess_engine::options::SYZYGY_PROBE_DEPTH;
use pychess_engine::{
    check_searchable, Clock, Engine, EngineOptions, Limits, SearchControl as CoreControl, Syzygy,
};
use pychess_syzygy::Tablebase;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Seconds given by Python as a duration; negative, NaN or huge values are errors.
fn duration(name: &str, seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be a non-negative number of seconds, got {seconds}"
        ))
    })
}

/// The engine with its options and transposition table; one search at a time.
///
/// The class is frozen and its engine sits behind a mutex, so a ``Searcher`` may be shared
/// between threads: a second ``search`` waits for the first (with the GIL released).
#[pyclass(module = "pychess_rs._core", name = "Searcher", frozen)]
pub struct Searcher {
    engine: Mutex<Engine>,
}

/// Converts Python search limits to the engine's.
struct LimitArgs<'a, 'py> {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    mate: Option<u32>,
    time_left: Option<f64>,
    increment: f64,
    moves_to_go: Option<u32>,
    infinite: bool,
    searchmoves: Option<&'a Bound<'py, PyAny>>,
}

impl LimitArgs<'_, '_> {
    fn resolve(&self, board: &Board) -> Result<Limits> {
        self.resolve_with(&|uci| Ok(board.game.resolve_uci(uci)?))
    }

    /// The limits, `searchmoves` resolved by `legal` (the move a UCI value stands for).
    fn resolve_with(&self, legal: &dyn Fn(UciMove) -> Result<CoreMove>) -> Result<Limits> {
        let clock = match self.time_left {
            Some(time_left) => Some(Clock {
                time_left: duration("time_left", time_left)?,
                increment: duration("increment", self.increment)?,
                moves_to_go: self.moves_to_go,
            }),
            None => {
                duration("increment", self.increment)?;
                None
            }
        };
        let mut searchmoves = Vec::new();
        if let Some(moves) = self.searchmoves {
            for item in moves.try_iter()? {
                let item = item?;
                let Some(uci) = move_arg_opt(&item)? else {
                    return Err(PyTypeError::new_err(format!(
                        "searchmoves must hold Move objects, got {}",
                        item.repr()?
                    ))
                    .into());
                };
                let legal = legal(uci)?;
                if !searchmoves.contains(&legal) {
                    searchmoves.push(legal);
                }
            }
        }
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(|t| duration("movetime", t)).transpose()?,
            mate: self.mate,
            clock,
            infinite: self.infinite,
            searchmoves,
        })
    }
}

#[pymethods]
impl Searcher {
    /// An engine; options left out take the engine's defaults (``default_options()``).
    ///
    /// :raises: :exc:`EngineOptionError` for an unknown option or a bad value.
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> Result<Searcher> {
        let options = with_changes(&EngineOptions::default(), options)?;
        Ok(Searcher {
            engine: Mutex::new(Engine::new(options)),
        })
    }

    /// The engine's default options, as :attr:`options` shows them.
    #[staticmethod]
    fn default_options(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        options_dict(py, &EngineOptions::default())
    }

    /// Changes the options given (resizing the hash table clears it); the others stay.
    /// Waits for a running search to finish.
    ///
    /// :raises: :exc:`EngineOptionError` for an unknown option or a bad value; then no
    ///     option changes.
    #[pyo3(signature = (**options))]
    fn configure(&self, py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> Result<()> {
        let Some(changes) = options.filter(|o| !o.is_empty()) else {
            return Ok(());
        };
        let current = py.detach(|| lock(&self.engine).options().clone());
        let changed = with_changes(&current, Some(changes))?;
        py.detach(|| lock(&self.engine).set_options(changed));
        Ok(())
    }

    /// The current options as a dict (the keyword arguments of the constructor).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let options = py.detach(|| lock(&self.engine).options().clone());
        options_dict(py, &options)
    }

    /// Plays and searches with the Syzygy tables of ``path`` (directories separated as the
    /// system separates paths, ``:`` on Unix); ``None`` or ``""`` plays without tables.
    /// ``probe_depth``: the fewest plies left at which the search probes; ``rule50``: cursed
    /// wins and blessed losses count as draws. Returns the number of table files found.
    /// Waits for a running search to finish.
    ///
    /// :raises: :exc:`OSError` if a directory cannot be listed (the tables stay as they
    ///     were), :exc:`EngineOptionError` for a ``probe_depth`` out of range.
    #[pyo3(signature = (path, probe_depth = 1, rule50 = true))]
    fn set_syzygy(
        &self,
        py: Python<'_>,
        path: Option<PathBuf>,
        probe_depth: i128,
        rule50: bool,
    ) -> Result<usize> {
        let probe_depth = SYZYGY_PROBE_DEPTH.check_spin("syzygy_probe_depth", probe_depth)?;
        let path = path.filter(|p| !p.as_os_str().is_empty());
        let syzygy = match path {
            None => None,
            Some(path) => {
                let tables = Tablebase::new();
                py.detach(|| {
                    std::env::split_paths(&path)
                        .filter(|dir| !dir.as_os_str().is_empty())
                        .try_for_each(|dir| tables.add_directory(&dir, true, true).map(|_| ()))
                })
                .map_err(PyErr::from)?;
                Some(Syzygy::new(Arc::new(tables), probe_depth as u32, rule50))
            }
        };
        let found = syzygy.as_ref().map_or(0, |s| s.tables.table_count());
        py.detach(|| lock(&self.engine).set_syzygy(syzygy));
        Ok(found)
    }

    /// Evaluates with the network in the file ``path`` (the engine's ``PCNN`` format, see
    /// ``rust/engine/src/nnue/mod.rs``); ``None`` or ``""``: with the built-in network.
    /// ``use_nnue=False`` evaluates by hand instead (``path`` is then not read). Returns the
    /// network's shape, such as ``"768->256x2->1"`` (``""`` when evaluating by hand). Clears the hash table. Waits for
    /// a running search to finish. Standard chess at full strength only: the variants and
    /// the strength levels evaluate by hand.
    ///
    /// :raises: :exc:`EngineOptionError` for a file that cannot be read or is not a
    ///     network (the evaluation stays as it was).
    #[pyo3(signature = (path = None, *, use_nnue = true))]
    fn set_eval_file(
        &self,
        py: Python<'_>,
        path: Option<PathBuf>,
        use_nnue: bool,
    ) -> PyResult<String> {
        let path = path.filter(|p| !p.as_os_str().is_empty());
        let network = match path {
            _ if !use_nnue => None,
            None => Some(Network::builtin()),
            Some(path) => Some(Arc::new(py.detach(|| Network::load(&path)).map_err(
                |e| crate::errors::EngineOptionError::new_err(format!("eval_file: {e}")),
            )?)),
        };
        let shape = network.as_ref().map_or_else(String::new, |n| n.shape());
        py.detach(|| lock(&self.engine).set_network(network));
        Ok(shape)
    }

    /// Forgets everything learnt (the hash table); for a new game.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| lock(&self.engine).clear());
    }

    /// Searches ``board`` (its move stack counts for repetitions) and returns a
    /// :class:`SearchResult`. Times are in seconds. With no limit at all, or ``infinite``, or
    /// while ``control`` is pondering, the search only returns after ``control.stop()``.
    /// ``on_info(SearchInfo)`` is called for each report, from the searching thread; if it
    /// raises, the search stops and the exception propagates. Ctrl-C (``KeyboardInterrupt``)
    /// stops the search too when it was started from the main thread.
    ///
    /// :raises: :exc:`ValueError` for negative times or an invalid position (the side not to
    ///     move in check after a null move), :exc:`IllegalMoveError` for a ``searchmoves``
    ///     entry that is not legal, :exc:`RuntimeError` if the engine failed.
    #[pyo3(signature = (
        board, *, depth = None, nodes = None, movetime = None, mate = None,
        time_left = None, increment = 0.0, moves_to_go = None, infinite = false,
        searchmoves = None, control = None, on_info = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        mate: Option<u32>,
        time_left: Option<f64>,
        increment: f64,
        moves_to_go: Option<u32>,
        infinite: bool,
        searchmoves: Option<Bound<'_, PyAny>>,
        control: Option<PyRef<'_, SearchControl>>,
        on_info: Option<Py<PyAny>>,
    ) -> Result<SearchResult> {
        let limits = LimitArgs {
            depth,
            nodes,
            movetime,
            mate,
            time_left,
            increment,
            moves_to_go,
            infinite,
            searchmoves: searchmoves.as_ref(),
        }
        .resolve(&board)?;
        let root = board.game.board().clone();
        // Null moves and edits can break rules the search assumes; the engine vets it.
        check_searchable(&root)?;
        let history = board.game.history_hashes();
        drop(board);
        let control = match control {
            Some(c) => Arc::clone(&c.inner),
            None => Arc::new(CoreControl::new(false)),
        };
        let job = SearchJob {
            engine: &self.engine,
            root: Root::Chess(&root),
            history: &history,
            limits: &limits,
            control: &control,
            on_info: on_info.as_ref(),
        };
        let (outcome, callback_error, interrupt) = py.detach(|| job.run_interruptibly());
        if let Some(e) = interrupt.or(callback_error) {
            return Err(e.into());
        }
        match outcome {
            Ok(result) => Ok(SearchResult::from_core(&root, &result)),
            Err(payload) => Err(PyRuntimeError::new_err(format!(
                "the engine failed: {}",
                panic_message(payload.as_ref())
            ))
            .into()),
        }
    }
    /// Searches a variant's position: ``variant`` (a UCI name such as ``"crazyhouse"`` or a
    /// python-chess alias), ``fen`` (its start position when ``None``) and the UCI
    /// ``moves`` played from it (drops as ``N@f3``; they count for repetitions). Limits,
    /// ``control`` and ``on_info`` work as for :meth:`search`; the search runs on one
    /// thread and without tablebases; a variant's win or loss is reported as a mate.
    /// ``searchmoves`` holds UCI strings or :class:`Move` values.
    ///
    /// :raises: :exc:`ValueError` for an unknown variant, a bad FEN, an illegal move or
    ///     negative times, :exc:`RuntimeError` if the engine failed.
    #[pyo3(signature = (
        variant, fen = None, moves = Vec::new(), *, depth = None, nodes = None,
        movetime = None, mate = None, time_left = None, increment = 0.0, moves_to_go = None,
        infinite = false, searchmoves = None, control = None, on_info = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search_variant(
        &self,
        py: Python<'_>,
        variant: &str,
        fen: Option<&str>,
        moves: Vec<String>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        mate: Option<u32>,
        time_left: Option<f64>,
        increment: f64,
        moves_to_go: Option<u32>,
        infinite: bool,
        searchmoves: Option<Bound<'_, PyAny>>,
        control: Option<PyRef<'_, SearchControl>>,
        on_info: Option<Py<PyAny>>,
    ) -> Result<SearchResult> {
        let Some(kind) = variant::find_variant(variant)? else {
            return Err(PyValueError::new_err(
                "search_variant takes a variant; search chess with search()",
            )
            .into());
        };
        let game = variant::replay(kind, fen, &moves)?;
        let root = game.root;
        let searchmoves = match searchmoves {
            Some(items)
                if items.is_instance_of::<pyo3::types::PyList>()
                    || items.is_instance_of::<pyo3::types::PyTuple>() =>
            {
                let mut values = Vec::new();
                for item in items.try_iter()? {
                    let item = item?;
                    let text: String = match item.extract::<String>() {
                        Ok(text) => text,
                        Err(_) => item.call_method0("uci")?.extract()?,
                    };
                    values.push(text);
                }
                values
            }
            Some(other) => {
                return Err(PyTypeError::new_err(format!(
                    "searchmoves must be a list of moves, got {}",
                    other.repr()?
                ))
                .into())
            }
            None => Vec::new(),
        };
        let mut chosen = Vec::new();
        for text in &searchmoves {
            let legal = variant::find_legal(&root, text);
            match legal {
                Some(m) => chosen.push(m),
                None => {
                    return Err(PyValueError::new_err(format!(
                        "searchmoves: {text:?} is not legal here"
                    ))
                    .into())
                }
            }
        }
        let mut limits = LimitArgs {
            depth,
            nodes,
            movetime,
            mate,
            time_left,
            increment,
            moves_to_go,
            infinite,
            searchmoves: None,
        }
        .resolve_with(&|_| unreachable!("no searchmoves"))?;
        limits.searchmoves = chosen;
        let control = match control {
            Some(c) => Arc::clone(&c.inner),
            None => Arc::new(CoreControl::new(false)),
        };
        let job = SearchJob {
            engine: &self.engine,
            root: Root::Variant(&root),
            history: &game.history,
            limits: &limits,
            control: &control,
            on_info: on_info.as_ref(),
        };
        let (outcome, callback_error, interrupt) = py.detach(|| job.run_interruptibly());
        if let Some(e) = interrupt.or(callback_error) {
            return Err(e.into());
        }
        match outcome {
            Ok(result) => Ok(SearchResult::from_core(root.board(), &result)),
            Err(payload) => Err(PyRuntimeError::new_err(format!(
                "the engine failed: {}",
                panic_message(payload.as_ref())
            ))
            .into()),
        }
    }
}
