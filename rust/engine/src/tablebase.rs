//! Endgame tablebases in the search (UCI `SyzygyPath`, `SyzygyProbeDepth`,
//! `Syzygy50MoveRule`).
//!
//! Two uses, as strong engines make of Syzygy tables:
//!
//! * **At the root** of a position the tables cover, the engine does not search: every legal
//!   move is rated by the DTZ tables ([`Syzygy::root_choice`]) and the best one played. A
//!   move that keeps a win and reaches the next capture or pawn move soonest wins by
//!   DTZ-optimal play (the distance to zeroing falls with every move, so no line repeats); a
//!   drawn position is held by any move that keeps the draw, a lost one defended by the move
//!   that lasts longest.
//! * **In the search**, a node whose position the WDL tables cover, reached by a capture or
//!   pawn move (the tables assume a fresh fifty-move count) with at least
//!   `SyzygyProbeDepth` plies left to search, takes the table's result
//!   ([`Syzygy::search_value`]): a draw is exact, a win a lower bound (the search may still
//!   find a mate), a loss an upper bound. Each such probe is a `tbhit`.
//!
//! With `Syzygy50MoveRule` on (the default) a cursed win (mate only beyond the fifty-move
//! rule) counts as a draw and so does a blessed loss; off, they count as a win and a loss.

use crate::params::{MATE_BOUND, MAX_PLY};
use crate::tt::TtBound;
use pychess_core::{Board, Move};
use pychess_syzygy::Tablebase;
use std::sync::Arc;

/// The score of a table win at the root, minus the plies to it: above every evaluation,
/// below every mate score.
pub const TB_WIN: i32 = MATE_BOUND - MAX_PLY as i32 - 1;

/// The fewest plies left at which the search probes, by default (UCI `SyzygyProbeDepth`).
pub const DEFAULT_PROBE_DEPTH: u32 = 1;

/// The tables an engine plays with, and how.
#[derive(Clone)]
pub struct Syzygy {
    /// The tables.
    pub tables: Arc<Tablebase>,
    /// The fewest plies left at which the search probes (UCI `SyzygyProbeDepth`).
    pub probe_depth: u32,
    /// Does the fifty-move rule turn cursed wins and blessed losses into draws?
    pub rule50: bool,
    /// The most pieces of any table added (positions with more are not probed).
    pub max_pieces: u32,
}

impl std::fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Syzygy")
            .field("probe_depth", &self.probe_depth)
            .field("rule50", &self.rule50)
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// The engine's answer at a table position's root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootChoice {
    /// The move to play.
    pub best: Move,
    /// Its score for the side to move (centipawns: [`TB_WIN`] minus the plies to the next
    /// zeroing move for a win, 0 for a draw).
    pub score: i32,
    /// Table probes made.
    pub tb_hits: u64,
}

/// How good a move is by the tables, for ordering: the outcome class (2 win, 1 a win the
/// fifty-move rule draws, 0 draw, -1 a loss it saves, -2 loss), then the plies to the next
/// zeroing move (fewer is better when winning, more when losing).
fn rank(class: i32, dtz: i32) -> (i32, i32) {
    (class, if class > 0 { -dtz.abs() } else { dtz.abs() })
}

impl Syzygy {
    /// Tables from `tables`, probing with at least `probe_depth` plies left.
    pub fn new(tables: Arc<Tablebase>, probe_depth: u32, rule50: bool) -> Syzygy {
        let max_pieces = tables.max_pieces();
        Syzygy {
            tables,
            probe_depth,
            rule50,
            max_pieces,
        }
    }

    /// Do the tables cover `board` (no castling rights, few enough pieces)?
    pub fn covers(&self, board: &Board) -> bool {
        board.castling_rights().is_empty() && board.occupied().count() <= self.max_pieces
    }

    /// The class of a WDL value under the fifty-move setting.
    fn class(&self, wdl: i32) -> i32 {
        match wdl {
            2 => 2,
            -2 => -2,
            1 if self.rule50 => 1,
            1 => 2,
            -1 if self.rule50 => -1,
            -1 => -2,
            _ => 0,
        }
    }

    /// The best of `moves` at the root `board` by the DTZ tables, or `None` when a table
    /// is missing (the engine searches then).
    pub fn root_choice(&self, board: &Board, moves: &[Move]) -> Option<RootChoice> {
        if !self.covers(board) {
            return None;
        }
        let clock = i32::try_from(board.halfmove_clock()).unwrap_or(i32::MAX);
        let mut tb_hits = 0;
        let mut best: Option<((i32, i32), Move, i32)> = None;
        for &m in moves {
            let after = board.after(m);
            let (class, dtz) = if after.is_checkmate() {
                (3, 1)
            } else if after.halfmove_clock() == 0 {
                // A capture or pawn move: the fifty-move count starts again.
                tb_hits += 1;
                let wdl = -self.tables.probe_wdl(&after).ok()?;
                (self.class(wdl), wdl.signum())
            } else {
                tb_hits += 1;
                let theirs = self.tables.probe_dtz(&after).ok()?;
                // One ply more for us than for them, in the same direction.
                let ours = -theirs - theirs.signum();
                let mut class = match ours.signum() {
                    1 if ours > 100 => self.class(1),
                    1 => 2,
                    -1 if ours < -100 => self.class(-1),
                    -1 => -2,
                    _ => 0,
                };
                // The moves played since the last zeroing move count towards the fifty.
                if self.rule50 && class == 2 && ours.abs() + clock > 100 {
                    class = 1;
                }
                if self.rule50 && class == -2 && ours.abs() + clock > 100 {
                    class = -1;
                }
                (class, ours)
            };
            let key = rank(class, dtz);
            if best.as_ref().map_or(true, |(k, _, _)| key > *k) {
                let score = match class {
                    3 => TB_WIN,
                    2 => TB_WIN - dtz.abs().min(MAX_PLY as i32),
                    -2 => -TB_WIN + dtz.abs().min(MAX_PLY as i32),
                    c => c,
                };
                best = Some((key, m, score));
            }
        }
        let (_, best, score) = best?;
        Some(RootChoice {
            best,
            score,
            tb_hits,
        })
    }

    /// The table's value of a node `ply` plies below the root with `depth` plies left, and
    /// how far to trust it; `None` when the node is not probed (or a table is missing).
    pub(crate) fn search_value(
        &self,
        board: &Board,
        depth: i32,
        ply: usize,
    ) -> Option<(i32, TtBound)> {
        if depth < self.probe_depth as i32 || board.halfmove_clock() != 0 || !self.covers(board) {
            return None;
        }
        let wdl = self.tables.probe_wdl(board).ok()?;
        let ply = ply as i32;
        Some(match self.class(wdl) {
            2 => (TB_WIN - ply, TtBound::Lower),
            -2 => (-TB_WIN + ply, TtBound::Upper),
            // A win or loss the fifty-move rule turns into a draw: a draw, nudged its way.
            c => (c, TtBound::Exact),
        })
    }
}
