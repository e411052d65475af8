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

use crate::board::Board;
use crate::errors::move_error;
use crate::moves::{as_move, intern, Move};
use pychess_core::{Board as CoreBoard, Move as CoreMove, UciMove};
use pychess_engine::skill::{MAX_ELO, MAX_SKILL, MIN_ELO};
use pychess_engine::{
    Bound as ScoreBound, Clock, Engine, EngineOptions, Limits, Score, SearchControl as CoreControl,
    SearchInfo as CoreInfo, SearchResult as CoreResult, MAX_THREADS,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Accepted ranges of the engine options, `(name, min, max)`; Python's option tables
/// (`pychess_rs.engine`, the UCI `option` lines) read them from here through
/// `engine_option_ranges()`, so the range lives once.
const OPTION_RANGES: [(&str, u64, u64); 6] = [
    // Bounded so that a typo cannot ask for more memory than a desktop has: a failed
    // allocation aborts the process, it does not raise.
    ("hash_mb", 1, 4096),
    ("threads", 1, MAX_THREADS as u64),
    ("multipv", 1, 256),
    ("move_overhead_ms", 0, 5000),
    ("limit_elo", MIN_ELO as u64, MAX_ELO as u64),
    ("skill_level", 0, MAX_SKILL as u64),
];

fn check_range(name: &str, value: u64) -> PyResult<u64> {
    let (_, min, max) = OPTION_RANGES
        .iter()
        .copied()
        .find(|(n, _, _)| *n == name)
        .expect("every option has a range");
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{name} must be in {min}..={max}, got {value}"
        )))
    }
}

/// Seconds given by Python as a duration; negative, NaN or huge values are errors.
fn duration(name: &str, seconds: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be a non-negative number of seconds, got {seconds}"
        ))
    })
}

/// Locks a mutex even if a panicking search poisoned it: the data behind it is replaced
/// after a panic (see `Searcher::search`), so the poison carries no information.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Stop and ponderhit for one search, usable from any thread (the engine's
/// ``SearchControl``).
#[pyclass(module = "pychess_rs._core", name = "SearchControl", frozen)]
pub struct SearchControl {
    inner: Arc<CoreControl>,
}

#[pymethods]
impl SearchControl {
    #[new]
    #[pyo3(signature = (*, pondering = false))]
    fn new(pondering: bool) -> SearchControl {
        SearchControl {
            inner: Arc::new(CoreControl::new(pondering)),
        }
    }

    /// Asks the search to stop as soon as it can; it then returns its best move.
    fn stop(&self) {
        self.inner.stop();
    }

    /// The opponent played the expected move: time limits run from now on.
    fn ponderhit(&self) {
        self.inner.ponderhit();
    }

    /// Has a stop been asked for?
    #[getter]
    fn is_stopped(&self) -> bool {
        self.inner.is_stopped()
    }

    /// Is the search still pondering?
    #[getter]
    fn is_pondering(&self) -> bool {
        self.inner.is_pondering()
    }
}

/// One report of a search (one UCI ``info`` line), scores from the side to move's view.
#[pyclass(module = "pychess_rs._core", name = "SearchInfo", frozen)]
#[derive(Clone)]
pub struct SearchInfo {
    /// Completed depth in plies.
    #[pyo3(get)]
    depth: u32,
    /// Deepest ply reached.
    #[pyo3(get)]
    seldepth: u32,
    /// 1-based index among the MultiPV lines.
    #[pyo3(get)]
    multipv: u32,
    /// Centipawns, or ``None`` for a mate score.
    #[pyo3(get)]
    cp: Option<i32>,
    /// Mate in this many moves (negative: getting mated), or ``None``.
    #[pyo3(get)]
    mate: Option<i32>,
    /// The score is only an upper bound (failed low).
    #[pyo3(get)]
    upperbound: bool,
    /// The score is only a lower bound (failed high).
    #[pyo3(get)]
    lowerbound: bool,
    /// Nodes searched so far.
    #[pyo3(get)]
    nodes: u64,
    /// Nodes per second.
    #[pyo3(get)]
    nps: u64,
    /// Transposition table fill in permille.
    #[pyo3(get)]
    hashfull: u32,
    /// Milliseconds since the search started.
    #[pyo3(get)]
    time_ms: u64,
    pv: Vec<UciMove>,
}

impl SearchInfo {
    fn from_core(root: &CoreBoard, info: &CoreInfo) -> SearchInfo {
        let (cp, mate) = match info.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        SearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            cp,
            mate,
            upperbound: info.bound == ScoreBound::Upper,
            lowerbound: info.bound == ScoreBound::Lower,
            nodes: info.nodes,
            nps: info.nps,
            hashfull: info.hashfull,
            time_ms: info.time_ms,
            pv: line_in_uci(root, &info.pv),
        }
    }
}

/// The moves of `line` as UCI, in the root's castling notation (which depends only on the
/// Chess960 flag, so the line need not be played out; the engine checks its lines).
fn line_in_uci(root: &CoreBoard, line: &[CoreMove]) -> Vec<UciMove> {
    line.iter().map(|&m| root.uci(m)).collect()
}

#[pymethods]
impl SearchInfo {
    /// The principal variation from the root.
    #[getter]
    fn pv(&self, py: Python<'_>) -> Vec<Py<Move>> {
        self.pv.iter().map(|&m| intern(py, m)).collect()
    }

    fn __repr__(&self) -> String {
        let score = match (self.cp, self.mate) {
            (Some(cp), _) => format!("cp {cp}"),
            (_, Some(n)) => format!("mate {n}"),
            _ => String::new(),
        };
        let pv: Vec<String> = self.pv.iter().map(ToString::to_string).collect();
        format!(
            "<SearchInfo depth={} multipv={} score={score} nodes={} pv={}>",
            self.depth,
            self.multipv,
            self.nodes,
            pv.join(" ")
        )
    }
}

/// What a finished search returns: the best move, the expected reply and the final lines.
#[pyclass(module = "pychess_rs._core", name = "SearchResult", frozen)]
pub struct SearchResult {
    best: Option<UciMove>,
    ponder: Option<UciMove>,
    lines: Vec<SearchInfo>,
}

impl SearchResult {
    fn from_core(root: &CoreBoard, result: &CoreResult) -> SearchResult {
        let line: Vec<CoreMove> = result.best.into_iter().chain(result.ponder).collect();
        let uci = line_in_uci(root, &line);
        SearchResult {
            best: uci.first().copied(),
            ponder: uci.get(1).copied(),
            lines: result
                .lines
                .iter()
                .map(|info| SearchInfo::from_core(root, info))
                .collect(),
        }
    }
}

#[pymethods]
impl SearchResult {
    /// The move to play; ``None`` when the position has no legal move.
    #[getter]
    fn best(&self, py: Python<'_>) -> Option<Py<Move>> {
        self.best.map(|m| intern(py, m))
    }

    /// The expected reply, if known.
    #[getter]
    fn ponder(&self, py: Python<'_>) -> Option<Py<Move>> {
        self.ponder.map(|m| intern(py, m))
    }

    /// The last complete report of each MultiPV line, best first.
    #[getter]
    fn lines(&self) -> Vec<SearchInfo> {
        self.lines.clone()
    }

    fn __repr__(&self) -> String {
        let show = |m: Option<UciMove>| m.map_or("None".to_string(), |m| m.to_string());
        format!(
            "<SearchResult best={} ponder={} lines={}>",
            show(self.best),
            show(self.ponder),
            self.lines.len()
        )
    }
}

/// The engine with its options and transposition table; one search at a time.
///
/// The class is frozen and its engine sits behind a mutex, so a ``Searcher`` may be shared
/// between threads: a second ``search`` waits for the first (with the GIL released).
#[pyclass(module = "pychess_rs._core", name = "Searcher", frozen)]
pub struct Searcher {
    engine: Mutex<Engine>,
}

/// The options as Python passes them (keyword arguments), validated.
#[allow(clippy::too_many_arguments)]
fn engine_options(
    hash_mb: u64,
    threads: u64,
    multipv: u64,
    move_overhead_ms: u64,
    limit_elo: Option<u64>,
    skill_level: u64,
) -> PyResult<EngineOptions> {
    let to_usize = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
    Ok(EngineOptions {
        hash_mb: to_usize(check_range("hash_mb", hash_mb)?),
        threads: to_usize(check_range("threads", threads)?),
        multipv: to_usize(check_range("multipv", multipv)?),
        move_overhead_ms: check_range("move_overhead_ms", move_overhead_ms)?,
        limit_elo: match limit_elo {
            Some(elo) => Some(check_range("limit_elo", elo)? as u32),
            None => None,
        },
        skill_level: check_range("skill_level", skill_level)? as u32,
    })
}

/// The options as Python sees them: the constructor's keyword arguments.
fn options_dict<'py>(py: Python<'py>, options: &EngineOptions) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("hash_mb", options.hash_mb)?;
    dict.set_item("threads", options.threads)?;
    dict.set_item("multipv", options.multipv)?;
    dict.set_item("move_overhead_ms", options.move_overhead_ms)?;
    dict.set_item("limit_elo", options.limit_elo)?;
    dict.set_item("skill_level", options.skill_level)?;
    Ok(dict)
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
    fn resolve(&self, board: &Board) -> PyResult<Limits> {
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
                let Some(m) = as_move(&item) else {
                    return Err(PyTypeError::new_err(format!(
                        "searchmoves must hold Move objects, got {}",
                        item.repr()?
                    )));
                };
                let legal = board.game.resolve_uci(m.get().uci).map_err(move_error)?;
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
    /// :raises: :exc:`ValueError` if a value is out of range.
    #[new]
    #[pyo3(signature = (
        *, hash_mb = None, threads = None, multipv = None, move_overhead_ms = None,
        limit_elo = None, skill_level = None
    ))]
    fn new(
        hash_mb: Option<u64>,
        threads: Option<u64>,
        multipv: Option<u64>,
        move_overhead_ms: Option<u64>,
        limit_elo: Option<u64>,
        skill_level: Option<u64>,
    ) -> PyResult<Searcher> {
        let default = EngineOptions::default();
        let options = engine_options(
            hash_mb.unwrap_or(default.hash_mb as u64),
            threads.unwrap_or(default.threads as u64),
            multipv.unwrap_or(default.multipv as u64),
            move_overhead_ms.unwrap_or(default.move_overhead_ms),
            limit_elo.or(default.limit_elo.map(u64::from)),
            skill_level.unwrap_or(u64::from(default.skill_level)),
        )?;
        Ok(Searcher {
            engine: Mutex::new(Engine::new(options)),
        })
    }

    /// The engine's default options, as :attr:`options` shows them.
    #[staticmethod]
    fn default_options(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        options_dict(py, &EngineOptions::default())
    }

    /// Replaces every option (resizing the hash table clears it). Waits for a running
    /// search to finish.
    ///
    /// :raises: :exc:`ValueError` if a value is out of range.
    #[pyo3(signature = (
        *, hash_mb, threads, multipv, move_overhead_ms, limit_elo, skill_level
    ))]
    #[allow(clippy::too_many_arguments)]
    fn configure(
        &self,
        py: Python<'_>,
        hash_mb: u64,
        threads: u64,
        multipv: u64,
        move_overhead_ms: u64,
        limit_elo: Option<u64>,
        skill_level: u64,
    ) -> PyResult<()> {
        let options = engine_options(
            hash_mb,
            threads,
            multipv,
            move_overhead_ms,
            limit_elo,
            skill_level,
        )?;
        py.detach(|| lock(&self.engine).set_options(options));
        Ok(())
    }

    /// The current options as a dict (the keyword arguments of the constructor).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let options = py.detach(|| lock(&self.engine).options().clone());
        options_dict(py, &options)
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
    ) -> PyResult<SearchResult> {
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
        // Null moves can leave the side not to move in check; the search assumes a legal
        // position, so the core's validation vets it first.
        if let Err(e) = CoreBoard::from_setup(&root.to_setup(), root.is_chess960()) {
            return Err(PyValueError::new_err(format!(
                "cannot search an invalid position ({e}): {}",
                root.fen()
            )));
        }
        let history = board.game.history_hashes();
        drop(board);
        let control = match control {
            Some(c) => Arc::clone(&c.inner),
            None => Arc::new(CoreControl::new(false)),
        };
        let job = SearchJob {
            engine: &self.engine,
            root: &root,
            history: &history,
            limits: &limits,
            control: &control,
            on_info: on_info.as_ref(),
        };
        let (outcome, callback_error, interrupt) = py.detach(|| job.run_interruptibly());
        if let Some(e) = interrupt {
            return Err(e);
        }
        if let Some(e) = callback_error {
            return Err(e);
        }
        match outcome {
            Ok(result) => Ok(SearchResult::from_core(&root, &result)),
            Err(payload) => Err(PyRuntimeError::new_err(format!(
                "the engine failed: {}",
                panic_message(payload.as_ref())
            ))),
        }
    }
}

/// How often a search started from Python looks for Ctrl-C (Python only sees signals when
/// some thread runs Python code, and the search runs none).
const SIGNAL_POLL: Duration = Duration::from_millis(50);
/// Stack of the thread a search runs on (the engine's helper threads use Rust's default).
const SEARCH_STACK_BYTES: usize = 8 << 20;

type Caught<T> = std::thread::Result<T>;

/// One search with everything it borrows, run with the GIL released.
struct SearchJob<'a> {
    engine: &'a Mutex<Engine>,
    root: &'a CoreBoard,
    history: &'a [u64],
    limits: &'a Limits,
    control: &'a CoreControl,
    on_info: Option<&'a Py<PyAny>>,
}

impl SearchJob<'_> {
    /// Runs the search, catching a panic (the engine is then rebuilt); also returns the
    /// error the `on_info` callback raised, which stopped the search.
    fn run(&self) -> (Caught<CoreResult>, Option<PyErr>) {
        let mut engine = lock(self.engine);
        let mut callback_error: Option<PyErr> = None;
        let mut report = |info: &CoreInfo| {
            let Some(callback) = self.on_info else {
                return;
            };
            if callback_error.is_some() {
                return;
            }
            let info = SearchInfo::from_core(self.root, info);
            Python::attach(|py| {
                if let Err(e) = callback.call1(py, (info,)) {
                    callback_error = Some(e);
                    self.control.stop();
                }
            });
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            engine.search(
                self.root,
                self.history,
                self.limits,
                self.control,
                &mut report,
            )
        }));
        if result.is_err() {
            // The tables may be half-written: start afresh with the same options.
            let options = engine.options().clone();
            *engine = Engine::new(options);
        }
        (result, callback_error)
    }

    /// [`SearchJob::run`] on a thread of its own while this one polls for signals: Ctrl-C
    /// (or any exception a signal handler raises) stops the search and is returned third.
    fn run_interruptibly(&self) -> (Caught<CoreResult>, Option<PyErr>, Option<PyErr>) {
        let (done, finished) = mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("pychess-search".to_string())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let _done = done; // dropped when the search ends, however it ends
                    self.run()
                });
            let Ok(worker) = worker else {
                // No thread to be had: search here, without the Ctrl-C check.
                let (result, callback_error) = self.run();
                return (result, callback_error, None);
            };
            let mut interrupt = None;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                if interrupt.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        interrupt = Some(e);
                        self.control.stop();
                    }
                }
            }
            match worker.join() {
                Ok((result, callback_error)) => (result, callback_error, interrupt),
                Err(payload) => (Err(payload), None, interrupt),
            }
        })
    }
}

/// ``{option: (min, max)}``: the accepted ranges of the :class:`Searcher` options.
#[pyfunction]
pub fn engine_option_ranges(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    for (name, min, max) in OPTION_RANGES {
        dict.set_item(name, (min, max))?;
    }
    Ok(dict)
}

/// Searches the engine's fixed bench positions to ``depth`` plies; returns
/// ``(nodes, seconds, nodes_per_second)``. The node count is the search's signature: the same
/// on every run of one build. Releases the GIL.
///
/// :raises: :exc:`ValueError` if ``depth`` is not in 1..=64, :exc:`RuntimeError` if the engine
///     failed.
#[pyfunction]
#[pyo3(signature = (depth = 8))]
pub fn bench(py: Python<'_>, depth: u32) -> PyResult<(u64, f64, u64)> {
    if !(1..=64).contains(&depth) {
        return Err(PyValueError::new_err(format!(
            "bench depth must be in 1..=64, got {depth}"
        )));
    }
    let result = py
        .detach(|| catch_unwind(|| pychess_engine::bench(depth)))
        .map_err(|payload| {
            PyRuntimeError::new_err(format!(
                "the engine failed: {}",
                panic_message(payload.as_ref())
            ))
        })?;
    Ok((result.nodes, result.elapsed.as_secs_f64(), result.nps))
}
