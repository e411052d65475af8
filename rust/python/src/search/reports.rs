//! What a search reports to Python: the stop/ponderhit handle shared with a running search
//! ([`SearchControl`]), one report per `info` line ([`SearchInfo`]) and the final answer
//! ([`SearchResult`]), each converted from the engine's types with moves in the root's UCI.

use crate::moves::{from_value, Move};
use pychess_core::{Board as CoreBoard, Move as CoreMove, UciMove};
use pychess_engine::{
    Bound as ScoreBound, Score, SearchControl as CoreControl, SearchInfo as CoreInfo,
    SearchResult as CoreResult,
};
use pyo3::prelude::*;
use std::sync::Arc;

/// Stop and ponderhit for one search, usable from any thread (the engine's
/// ``SearchControl``).
#[pyclass(module = "pychess_rs._core", name = "SearchControl", frozen)]
pub struct SearchControl {
    pub(super) inner: Arc<CoreControl>,
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
    /// Tablebase probes so far.
    #[pyo3(get)]
    tbhits: u64,
    pv: Vec<UciMove>,
}

impl SearchInfo {
    pub(super) fn from_core(root: &CoreBoard, info: &CoreInfo) -> SearchInfo {
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
            tbhits: info.tbhits,
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
    fn pv(&self, py: Python<'_>) -> PyResult<Vec<Py<Move>>> {
        self.pv.iter().map(|&m| from_value(py, m)).collect()
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
    pub(super) fn from_core(root: &CoreBoard, result: &CoreResult) -> SearchResult {
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
    fn best(&self, py: Python<'_>) -> PyResult<Option<Py<Move>>> {
        self.best.map(|m| from_value(py, m)).transpose()
    }

    /// The expected reply, if known.
    #[getter]
    fn ponder(&self, py: Python<'_>) -> PyResult<Option<Py<Move>>> {
        self.ponder.map(|m| from_value(py, m)).transpose()
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
