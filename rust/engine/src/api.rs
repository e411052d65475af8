//! The engine's public types: what the bindings pass in and get back.

use pychess_core::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (not plies); negative when the side to move is mated.
    Mate(i32),
}

/// Whether a reported score is exact or a bound (aspiration-window fail low/high).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at most this (`upperbound`).
    Upper,
    /// The true score is at least this (`lowerbound`).
    Lower,
}

/// The clock of the side to move, as `go wtime/btime/winc/binc/movestogo` give it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time_left: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What a search may spend; every field `None`/`false`/empty means "no such limit".
/// With no limit at all (and not `infinite`), the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Exact time to think.
    pub movetime: Option<Duration>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped (`go infinite`); other limits are ignored.
    pub infinite: bool,
    /// Only these root moves (`go searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
}

/// Options that shape searches (set between searches). Their names, ranges and defaults
/// are declared in [`crate::options`], whose [`EngineOptions::set`] checks a value.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication delays.
    pub move_overhead_ms: u64,
    /// Playing strength limit as an Elo rating (`UCI_LimitStrength` + `UCI_Elo`), if any.
    pub limit_elo: Option<u32>,
    /// `Skill Level`, 0..=20 (20 is full strength).
    pub skill_level: u32,
}

impl Default for EngineOptions {
    /// The defaults of the option table ([`crate::options`]).
    fn default() -> EngineOptions {
        use crate::options::{HASH_MB, LIMIT_ELO, MOVE_OVERHEAD_MS, MULTIPV, SKILL_LEVEL, THREADS};
        EngineOptions {
            hash_mb: HASH_MB.uci_default() as usize,
            threads: THREADS.uci_default() as usize,
            multipv: MULTIPV.uci_default() as usize,
            move_overhead_ms: MOVE_OVERHEAD_MS.uci_default(),
            limit_elo: LIMIT_ELO.default.map(|elo| elo as u32),
            skill_level: SKILL_LEVEL.uci_default() as u32,
        }
    }
}

/// Shared between the searching thread and the thread that reads commands.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// A control for a search that starts pondering or not.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
        }
    }
    /// Asks the search to stop as soon as it can (a few milliseconds at most).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Has a stop been asked for?
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: time limits apply from now on.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
    }
    /// Is the search still pondering (time limits not yet running)?
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// One report of the search (one UCI `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line among the MultiPV lines.
    pub multipv: u32,
    /// The line's score.
    pub score: Score,
    /// Exact, or a bound after an aspiration fail.
    pub bound: Bound,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Tablebase probes so far (all threads).
    pub tbhits: u64,
    /// The principal variation, legal from the root.
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The last complete report of each MultiPV line (best first).
    pub lines: Vec<SearchInfo>,
}
