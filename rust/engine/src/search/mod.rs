//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, quiescence search, and Lazy SMP helper threads sharing the table.
//!
//! Scores are from the side to move's point of view (negamax). A node is a *PV node* when
//! its window is wider than one (`beta - alpha > 1`); every other node only has to prove
//! that the score is above or below a bound, which is what licenses the pruning in
//! `negamax.rs`.
//!
//! This file holds a search thread's state, iterative deepening, the aspiration windows and
//! the root; `negamax.rs` searches below the root, `qsearch.rs` at the horizon and `pv.rs`
//! keeps the principal variation. Move ordering is `crate::movepick`, fed by
//! `crate::history`.

mod negamax;
mod pv;
mod qsearch;

use crate::api::{Bound, Score, SearchControl, SearchInfo};
use crate::eval::evaluate;
use crate::history::{piece_to, ContinuationRows, History, QuietsTried};
use crate::limits::TimeManager;
use crate::movepick::{is_noisy, NodeHints};
use crate::nnue::{AccumulatorStack, Network};
use crate::params::*;
use crate::tablebase::Syzygy;
use crate::tt::{TranspositionTable, TtBound};
use pv::PvTable;
use pychess_core::{Board, Move, Role};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Marks "no static evaluation" (the side to move is in check).
const EVAL_NONE: i32 = i32::MIN / 2;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// The caller's stop/ponderhit flags.
    pub control: &'a SearchControl,
    /// Set by the main thread when the search must end (a limit, or the caller's stop).
    pub stop: AtomicBool,
    /// Nodes of each thread, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    /// The endgame tablebases, if any.
    pub syzygy: Option<&'a Syzygy>,
    /// Tablebase probes of all threads.
    pub tb_hits: AtomicU64,
    /// The evaluation network, if one is loaded (else the hand-written evaluation).
    pub network: Option<&'a Network>,
}

impl Shared<'_> {
    /// Nodes of all threads (as last published).
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with what the last iterations learnt about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the iteration in progress (`-INFINITY` when it did not raise alpha).
    pub score: i32,
    /// Its score after the previous iteration.
    pub prev_score: i32,
    /// Its principal variation, starting with `mv`.
    pub pv: Vec<Move>,
    /// Selective depth reached below it.
    pub seldepth: usize,
}

/// Per-ply search state.
#[derive(Copy, Clone)]
struct Frame {
    /// Static evaluation (`EVAL_NONE` in check).
    eval: i32,
    /// The move played from this ply (`Some(Move::NULL)` for a null move).
    played: Option<Move>,
    /// `piece * 64 + to` of the move played from this ply (continuation-history row), or
    /// `None` after a null move.
    piece_to: Option<usize>,
    /// Quiet moves that caused beta cutoffs at this ply.
    killers: [Option<Move>; 2],
}

/// Extra, search-wide limits the main thread enforces besides the clock.
#[derive(Clone, Debug, Default)]
pub(crate) struct NodeLimits {
    /// Stop after this many nodes (all threads).
    pub nodes: Option<u64>,
}

/// What the search tells its caller as it goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// The depth just completed for every MultiPV line.
    Iteration(i32),
    /// The line `pv_index` failed low (`Upper`) or high (`Lower`) and is searched again.
    AspirationFail(Bound),
}

/// One search thread.
pub(crate) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    /// Thread index; 0 is the main thread, which reports and manages time.
    id: usize,
    /// Time budgets (main thread only).
    pub time: Option<TimeManager>,
    node_limits: NodeLimits,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Nodes of the other threads when last looked at.
    others_nodes: u64,
    seldepth: usize,
    /// Set once the search must unwind; results of the iteration in progress are discarded.
    pub stopped: bool,
    /// Limits other than an explicit stop apply only once depth 1 is complete.
    limits_active: bool,
    /// Zobrist keys of the game history, then of each position on the search path.
    keys: Vec<u64>,
    /// Index in `keys` of the position after the last null move (repetitions never reach
    /// across a null move).
    null_floor: usize,
    stack: Vec<Frame>,
    /// History tables for move ordering (kept by the engine between searches for the main
    /// thread).
    pub history: Box<History>,
    /// The principal variation of each ply on the path.
    pv: PvTable,
    /// Late-move reduction table `[depth][move number]`, in plies.
    lmr: Vec<[i32; 64]>,
    /// The root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Which MultiPV line is being searched (moves before it are excluded).
    pub pv_index: usize,
    /// The depth of the iteration in progress.
    pub root_depth: i32,
    /// The network's accumulators along the search path, when a network is loaded.
    nnue: Option<AccumulatorStack<'a>>,
}

/// Is the position a dead draw by material (no pawns, rooks or queens; at most one minor)?
fn insufficient_material(board: &Board) -> bool {
    let heavy = board.by_role(Role::Pawn) | board.by_role(Role::Rook) | board.by_role(Role::Queen);
    heavy.is_empty() && !(board.by_role(Role::Knight) | board.by_role(Role::Bishop)).more_than_one()
}

/// Does the side to move have a piece other than pawns and king (zugzwang is rare then)?
fn has_non_pawn_material(board: &Board) -> bool {
    let us = board.by_color(board.turn());
    (us & !(board.by_role(Role::Pawn) | board.by_role(Role::King))).nonempty()
}

/// The score as reported: centipawns, or mate in moves.
pub(crate) fn to_score(score: i32) -> Score {
    if score >= MATE_BOUND {
        Score::Mate((MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        Score::Mate(-(MATE + score) / 2)
    } else {
        Score::Cp(score)
    }
}

/// The legal prefix of `line` from `board`.
pub(crate) fn legal_prefix(board: &Board, line: &[Move]) -> Vec<Move> {
    let mut board = board.clone();
    let mut legal = Vec::with_capacity(line.len());
    for &m in line {
        if !board.legal_moves().contains(&m) {
            break;
        }
        board.play_unchecked(m);
        legal.push(m);
    }
    legal
}

impl<'a> Searcher<'a> {
    /// A thread for `shared`, with the game `history` (oldest first) before `root`.
    pub fn new(
        shared: &'a Shared<'a>,
        id: usize,
        root: &Board,
        history: &[u64],
        root_moves: Vec<RootMove>,
        node_limits: NodeLimits,
        tables: Box<History>,
    ) -> Searcher<'a> {
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 8);
        keys.extend_from_slice(history);
        keys.push(root.zobrist_hash());
        let mut lmr = vec![[0; 64]; 64];
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (depth as f64).ln() * (count as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        Searcher {
            shared,
            id,
            time: None,
            node_limits,
            nodes: 0,
            others_nodes: 0,
            seldepth: 0,
            stopped: false,
            limits_active: false,
            keys,
            null_floor: 0,
            stack: vec![
                Frame {
                    eval: EVAL_NONE,
                    played: None,
                    piece_to: None,
                    killers: [None; 2],
                };
                MAX_PLY + 4
            ],
            history: tables,
            pv: PvTable::new(),
            lmr,
            root_moves,
            pv_index: 0,
            root_depth: 0,
            nnue: shared
                .network
                .map(|net| AccumulatorStack::new(net, MAX_PLY + 4)),
        }
    }

    /// Called at every node: counts it and says whether to unwind.
    #[inline]
    fn count_node_and_check(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if self.id == 0 && self.limits_active {
            if let Some(limit) = self.node_limits.nodes {
                if self.nodes + self.others_nodes >= limit {
                    self.stop_all();
                    return true;
                }
            }
        }
        if self.nodes & CLOCK_CHECK_MASK == 0 {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            if self.id == 0 {
                self.others_nodes = self.shared.total_nodes() - self.nodes;
                if self.shared.control.is_stopped() {
                    self.stop_all();
                    return true;
                }
                if let Some(time) = self.time.as_mut() {
                    time.update(self.shared.control);
                    if self.limits_active && time.hard_expired() {
                        self.stop_all();
                        return true;
                    }
                }
            }
        }
        false
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Is the current position (the last key) a repetition, a fifty-move draw or dead?
    fn is_draw(&self, board: &Board) -> bool {
        if insufficient_material(board) {
            return true;
        }
        if board.halfmove_clock() >= 100 {
            // Checkmate on the hundredth ply still counts as mate.
            return !board.is_check() || board.has_legal_moves();
        }
        let last = self.keys.len() - 1;
        let key = self.keys[last];
        let reach = (board.halfmove_clock() as usize).min(last - self.null_floor.min(last));
        let mut back = 4;
        while back <= reach {
            if self.keys[last - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The static evaluation of `board` at `ply`, clamped below mate scores: the network's
    /// when one is loaded (its accumulator at `ply` is up to date, see [`Self::enter`]),
    /// else the hand-written evaluation.
    #[inline]
    fn static_eval(&self, board: &Board, ply: usize) -> i32 {
        let eval = match &self.nnue {
            Some(nnue) => nnue.evaluate(ply, board.turn()),
            None => evaluate(board),
        };
        eval.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Called once a node is past its early returns (before its first evaluation or
    /// child): brings the network's accumulator at `ply` up to date with `board` (from
    /// scratch at the root, else from the parent's at `ply - 1`, which depth-first search
    /// leaves in place: a parent calls this before it searches a child). Without a
    /// network, one branch.
    #[inline]
    fn enter(&mut self, board: &Board, ply: usize) {
        if let Some(nnue) = self.nnue.as_mut() {
            if ply == 0 {
                nnue.refresh(0, board);
            } else {
                nnue.update(ply, board);
            }
        }
    }

    /// The move played just before `ply` (`None` at the root and after a null move).
    #[inline]
    fn previous_move(&self, ply: usize) -> Option<Move> {
        if ply == 0 {
            return None;
        }
        self.stack[ply - 1].played.filter(|prev| !prev.is_null())
    }

    /// The continuation-history rows of the moves one and two plies before `ply`.
    #[inline]
    fn continuation_rows(&self, ply: usize) -> ContinuationRows {
        let row = |back: usize| {
            if ply >= back {
                self.stack[ply - back].piece_to
            } else {
                None
            }
        };
        [row(1), row(2)]
    }

    /// What orders the moves of the node at `ply`, whose table move is `tt_move`.
    #[inline]
    fn hints(&self, ply: usize, tt_move: Option<Move>) -> NodeHints {
        NodeHints {
            tt_move,
            killers: self.stack[ply].killers,
            counter: self.history.countermove(self.previous_move(ply)),
            rows: self.continuation_rows(ply),
        }
    }

    /// Takes `score`, what move `m` scored at the node at `ply`, into the node's `best`;
    /// one above `alpha` raises it, becomes the `best_move` and, at a PV node, heads the
    /// principal variation. Returns whether `m` raised alpha (the caller checks beta).
    /// Negamax and quiescence keep their best move by this one rule.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn take_score(
        &mut self,
        ply: usize,
        pv_node: bool,
        m: Move,
        score: i32,
        best: &mut i32,
        best_move: &mut Option<Move>,
        alpha: &mut i32,
    ) -> bool {
        if score <= *best {
            return false;
        }
        *best = score;
        if score <= *alpha {
            return false;
        }
        *best_move = Some(m);
        *alpha = score;
        if pv_node {
            self.pv.update(ply, m);
        }
        true
    }

    /// The root search over `root_moves[pv_index..]`; sets each move's score (`-INFINITY`
    /// for moves that did not raise alpha) and PV.
    fn root_search(&mut self, board: &Board, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.nodes += 1;
        self.pv.clear(0);
        let key = self.keys[self.keys.len() - 1];
        let mut best = -INFINITY;
        let mut best_move = None;
        let old_alpha = alpha;
        let mut quiets_tried = QuietsTried::new();
        self.enter(board, 0);
        self.stack[0].eval = if board.is_check() {
            EVAL_NONE
        } else {
            self.static_eval(board, 0)
        };
        self.stack[1].killers = [None; 2];
        for i in self.pv_index..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let move_count = i - self.pv_index + 1;
            let quiet = !is_noisy(board, m);
            let child = board.after(m);
            let child_key = child.zobrist_hash();
            let gives_check = child.is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            self.stack[0].played = Some(m);
            self.stack[0].piece_to = Some(piece_to(board, m));
            self.keys.push(child_key);
            self.seldepth = 0;
            let mut score;
            if move_count == 1 {
                score = -self.negamax(&child, child_key, -beta, -alpha, new_depth, 1);
            } else {
                let mut reduction = 0;
                if depth >= LMR_LOWER_LIMIT
                    && move_count > ROOT_LMR_MOVE_THRESHOLD
                    && quiet
                    && !gives_check
                {
                    reduction = (self.lmr[(depth as usize).min(63)][move_count.min(63)]
                        - ROOT_LMR_RELIEF)
                        .clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(
                    &child,
                    child_key,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    1,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, child_key, -alpha - 1, -alpha, new_depth, 1);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, child_key, -beta, -alpha, new_depth, 1);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            let root_move = &mut self.root_moves[i];
            if move_count == 1 || score > alpha {
                root_move.score = score;
                root_move.seldepth = self.seldepth;
                root_move.pv.clear();
                root_move.pv.push(m);
                root_move.pv.extend_from_slice(self.pv.line(1));
            } else {
                root_move.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if score >= beta {
                        self.beta_cutoff(board, m, quiet, 0, depth, &quiets_tried);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        if self.pv_index == 0 {
            let bound = TtBound::of(best, old_alpha, beta);
            let eval = if self.stack[0].eval == EVAL_NONE {
                0
            } else {
                self.stack[0].eval
            };
            self.shared
                .tt
                .store(key, 0, best_move, best, eval, depth, bound);
        }
        best
    }

    /// Searches one MultiPV line at `depth` with an aspiration window around its previous
    /// score. Fail lows and highs are reported through `report` (main thread).
    fn aspiration(
        &mut self,
        board: &Board,
        depth: i32,
        report: &mut dyn FnMut(&mut Searcher<'a>, Event) -> bool,
    ) -> i32 {
        let prev = self.root_moves[self.pv_index].prev_score;
        let mut delta = ASPIRATION_MARGIN;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_LOWER_LIMIT && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            for rm in &mut self.root_moves[self.pv_index..] {
                rm.score = -INFINITY;
            }
            let score = self.root_search(board, alpha, beta, depth);
            // Stable: moves that did not raise alpha keep the previous iteration's order.
            self.root_moves[self.pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return score;
            }
            if score <= alpha {
                // Fail low: the line is worse than hoped; widen downwards and pull beta in.
                report(self, Event::AspirationFail(Bound::Upper));
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                // Fail high: better than hoped; widen upwards.
                report(self, Event::AspirationFail(Bound::Lower));
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta * ASPIRATION_WIDEN_FACTOR / 16;
        }
    }

    /// Iterative deepening. `events` hears of each completed depth (and returns whether to
    /// go on) and of each aspiration fail.
    pub fn iterate(
        &mut self,
        board: &Board,
        max_depth: i32,
        multipv: usize,
        events: &mut dyn FnMut(&mut Searcher<'a>, Event) -> bool,
    ) {
        let lines = multipv.clamp(1, self.root_moves.len().max(1));
        let mut depth = 1;
        while depth <= max_depth {
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                break;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                self.aspiration(board, depth, events);
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.stopped {
                break;
            }
            self.limits_active = true;
            if !events(self, Event::Iteration(depth)) {
                break;
            }
            // Helper threads spread over depths so they do not all duplicate the main thread.
            depth += if self.id % 2 == 1 && depth >= HELPER_SKIP_LOWER_LIMIT {
                2
            } else {
                1
            };
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// The TT move of the position after `m` (a ponder move when the PV is one move long).
    pub fn tt_reply(&self, board: &Board, m: Move) -> Option<Move> {
        let child = board.after(m);
        let reply = self.shared.tt.probe(child.zobrist_hash(), 1)?.best?;
        child.legal_moves().contains(&reply).then_some(reply)
    }

    /// The info for MultiPV line `index` of the root moves.
    pub fn line_info(
        &self,
        board: &Board,
        index: usize,
        depth: i32,
        bound: Bound,
        score: i32,
    ) -> SearchInfo {
        let time = self
            .time
            .as_ref()
            .map_or(0, |t| t.elapsed().as_millis() as u64);
        let nodes = self
            .shared
            .total_nodes()
            .max(self.nodes + self.others_nodes);
        let rm = &self.root_moves[index];
        SearchInfo {
            depth: depth.max(1) as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: index as u32 + 1,
            score: to_score(score),
            bound,
            nodes,
            nps: nodes * 1000 / time.max(1),
            hashfull: self.shared.tt.hashfull(),
            time_ms: time,
            tbhits: self.shared.tb_hits.load(Ordering::Relaxed),
            pv: legal_prefix(board, &rm.pv),
        }
    }

    /// The whole-search statistics the caller publishes before the final results.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }
}
