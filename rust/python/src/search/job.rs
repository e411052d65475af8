//! One search run with the GIL released: on a thread of its own (so this one can watch for
//! Ctrl-C), reporting to Python only for the `on_info` call, and surviving an engine panic
//! (the engine is rebuilt); plus `bench`, the search's node-count signature.

use super::reports::SearchInfo;
use crate::errors::Result;
use pychess_core::variant::VariantBoard;
use pychess_core::Board as CoreBoard;
use pychess_engine::{
    Engine, Limits, SearchControl as CoreControl, SearchInfo as CoreInfo,
    SearchResult as CoreResult,
};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Locks a mutex even if a panicking search poisoned it: the data behind it is replaced
/// after a panic (see `Searcher::search`), so the poison carries no information.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// How often a search started from Python looks for Ctrl-C (Python only sees signals when
/// some thread runs Python code, and the search runs none).
const SIGNAL_POLL: Duration = Duration::from_millis(50);
/// Stack of the thread a search runs on (the engine's helper threads use Rust's default).
const SEARCH_STACK_BYTES: usize = 8 << 20;

pub(super) type Caught<T> = std::thread::Result<T>;

/// What a search starts from: a chess position, or a variant's (searched by the engine's
/// variant search).
#[derive(Clone, Copy)]
pub(super) enum Root<'a> {
    Chess(&'a CoreBoard),
    Variant(&'a VariantBoard),
}

impl<'a> Root<'a> {
    /// The board whose notation the reports use (a variant's board writes drops too).
    pub(super) fn board(self) -> &'a CoreBoard {
        match self {
            Root::Chess(board) => board,
            Root::Variant(position) => position.board(),
        }
    }
}

/// One search with everything it borrows, run with the GIL released.
pub(super) struct SearchJob<'a> {
    pub(super) engine: &'a Mutex<Engine>,
    pub(super) root: Root<'a>,
    pub(super) history: &'a [u64],
    pub(super) limits: &'a Limits,
    pub(super) control: &'a CoreControl,
    pub(super) on_info: Option<&'a Py<PyAny>>,
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
            let info = SearchInfo::from_core(self.root.board(), info);
            Python::attach(|py| {
                if let Err(e) = callback.call1(py, (info,)) {
                    callback_error = Some(e);
                    self.control.stop();
                }
            });
        };
        let result = catch_unwind(AssertUnwindSafe(|| match self.root {
            Root::Chess(root) => {
                engine.search(root, self.history, self.limits, self.control, &mut report)
            }
            Root::Variant(root) => {
                engine.search_variant(root, self.history, self.limits, self.control, &mut report)
            }
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
    pub(super) fn run_interruptibly(&self) -> (Caught<CoreResult>, Option<PyErr>, Option<PyErr>) {
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

// The signature's literal default is the engine's (stubs and __text_signature__ show it).
const _: () = assert!(pychess_engine::BENCH_DEFAULT_DEPTH == 8);

/// Searches the engine's fixed bench positions to ``depth`` plies; returns
/// ``(nodes, seconds, nodes_per_second)``. The node count is the search's signature: the same
/// on every run of one build. Releases the GIL.
///
/// :raises: :exc:`ValueError` if ``depth`` is outside the engine's bench depths (1..30),
///     :exc:`RuntimeError` if the engine failed.
#[pyfunction]
#[pyo3(signature = (depth = 8))]
pub fn bench(py: Python<'_>, depth: i64) -> Result<(u64, f64, u64)> {
    let depth = pychess_engine::check_bench_depth(depth)?;
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
