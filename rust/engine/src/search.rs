//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, quiescence search, and Lazy SMP helper threads sharing the table.
//!
//! Scores are from the side to move's point of view (negamax). A node is a *PV node* when
//! its window is wider than one (`beta - alpha > 1`); every other node only has to prove
//! that the score is above or below a bound, which is what licenses the pruning below.

use crate::api::{Bound, Score, SearchControl, SearchInfo};
use crate::eval::evaluate;
use crate::limits::TimeManager;
use crate::movepick::{captured_role, is_noisy, noisy_score, see, KILLER_SCORE, TT_MOVE_SCORE};
use crate::params::*;
use crate::tt::{TranspositionTable, TtBound};
use pychess_core::{Bitboard, Board, Move, MoveList, Role};
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

/// What move ordering learns as it searches: history tables and countermoves.
pub(crate) struct OrderingTables {
    /// Quiet-move history, `[colour][from][to]`.
    history: Vec<[[i32; 64]; 64]>,
    /// Continuation history: how good a quiet move (`piece * 64 + to`, the column) was as a
    /// reply one or two plies after another move (the row, same encoding).
    continuation: Vec<[i32; 768]>,
    /// The reply that refuted a move last time, `[from][to]` of that move.
    countermoves: Vec<[Option<Move>; 64]>,
}

impl OrderingTables {
    /// Empty tables.
    pub fn new() -> Box<OrderingTables> {
        Box::new(OrderingTables {
            history: vec![[[0; 64]; 64]; 2],
            continuation: vec![[0; 768]; 768],
            countermoves: vec![[None; 64]; 64],
        })
    }
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
    /// Move-ordering statistics (kept by the engine between searches for the main thread).
    pub tables: Box<OrderingTables>,
    /// Triangular PV table: `pv[ply][ply..pv_len[ply]]` is the line from `ply`.
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Late-move reduction table `[depth][move number]`, in plies.
    lmr: Vec<[i32; 64]>,
    /// The root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Which MultiPV line is being searched (moves before it are excluded).
    pub pv_index: usize,
    /// The depth of the iteration in progress.
    pub root_depth: i32,
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
        tables: Box<OrderingTables>,
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
            tables,
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            lmr,
            root_moves,
            pv_index: 0,
            root_depth: 0,
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

    /// Scores `moves` for ordering into `scores`.
    fn score_moves(
        &self,
        board: &Board,
        moves: &MoveList,
        tt_move: Option<Move>,
        ply: usize,
        scores: &mut [i32],
    ) {
        let frame = &self.stack[ply];
        let counter = if ply > 0 {
            match self.stack[ply - 1].played {
                Some(prev) if !prev.is_null() => {
                    self.tables.countermoves[prev.from.index()][prev.to.index()]
                }
                _ => None,
            }
        } else {
            None
        };
        let colour = board.turn().index();
        let rows = self.continuation_rows(ply);
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            *score = if Some(m) == tt_move {
                TT_MOVE_SCORE
            } else if is_noisy(board, m) {
                noisy_score(board, m)
            } else if Some(m) == frame.killers[0] {
                KILLER_SCORE
            } else if Some(m) == frame.killers[1] {
                KILLER_SCORE - 1
            } else if Some(m) == counter {
                KILLER_SCORE - 2
            } else {
                self.quiet_history(board, colour, rows, m)
            };
        }
    }

    /// The continuation-history rows of the moves one and two plies before `ply`.
    #[inline]
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        let row = |back: usize| {
            if ply >= back {
                self.stack[ply - back].piece_to
            } else {
                None
            }
        };
        [row(1), row(2)]
    }

    /// `piece * 64 + to` of `m` in `board`.
    #[inline]
    fn piece_to(board: &Board, m: Move) -> usize {
        let role = board.role_at(m.from).map_or(0, |r| r.index());
        (board.turn().index() * 6 + role) * 64 + m.to.index()
    }

    /// The history score of a quiet move: butterfly plus both continuation histories.
    #[inline]
    fn quiet_history(
        &self,
        board: &Board,
        colour: usize,
        rows: [Option<usize>; 2],
        m: Move,
    ) -> i32 {
        let column = Self::piece_to(board, m);
        let mut score = self.tables.history[colour][m.from.index()][m.to.index()];
        for row in rows.into_iter().flatten() {
            score += self.tables.continuation[row][column];
        }
        score
    }

    /// Moves the best-scored move of `moves[start..]` to `start` and returns it.
    #[inline]
    fn pick(moves: &mut [Move], scores: &mut [i32], start: usize) -> (Move, i32) {
        let mut best = start;
        for i in start + 1..moves.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        moves.swap(start, best);
        scores.swap(start, best);
        (moves[start], scores[start])
    }

    /// Sorts `moves` by descending `scores` (insertion sort: short, mostly small lists).
    fn sort_rest(moves: &mut [Move], scores: &mut [i32]) {
        for i in 1..moves.len() {
            let (m, score) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = score;
        }
    }

    /// Gravity: the entry moves toward +-HISTORY_LIMIT ever more slowly, so it stays bounded.
    #[inline]
    fn apply_bonus(entry: &mut i32, bonus: i32) {
        *entry += bonus - *entry * bonus.abs() / HISTORY_LIMIT;
    }

    fn update_history(&mut self, board: &Board, rows: [Option<usize>; 2], m: Move, bonus: i32) {
        let colour = board.turn().index();
        Self::apply_bonus(
            &mut self.tables.history[colour][m.from.index()][m.to.index()],
            bonus,
        );
        let column = Self::piece_to(board, m);
        for row in rows.into_iter().flatten() {
            Self::apply_bonus(&mut self.tables.continuation[row][column], bonus);
        }
    }

    /// A quiet move caused a beta cutoff: reward it, punish the quiets tried before it.
    fn update_quiet_stats(
        &mut self,
        board: &Board,
        m: Move,
        ply: usize,
        depth: i32,
        tried: &[Move],
    ) {
        let frame = &mut self.stack[ply];
        if frame.killers[0] != Some(m) {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = Some(m);
        }
        if ply > 0 {
            if let Some(prev) = self.stack[ply - 1].played {
                if !prev.is_null() {
                    self.tables.countermoves[prev.from.index()][prev.to.index()] = Some(m);
                }
            }
        }
        let bonus = (HISTORY_BONUS_FACTOR * depth * depth).min(HISTORY_BONUS_LIMIT);
        let rows = self.continuation_rows(ply);
        self.update_history(board, rows, m, bonus);
        for &other in tried {
            if other != m {
                self.update_history(board, rows, other, -bonus);
            }
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The static evaluation, clamped below mate scores.
    #[inline]
    fn static_eval(board: &Board) -> i32 {
        evaluate(board).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Quiescence search: only captures and queen promotions (all evasions in check),
    /// standing pat on the static evaluation otherwise.
    fn qsearch(&mut self, board: &Board, key: u64, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.count_node_and_check() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if insufficient_material(board) {
            return DRAW;
        }
        let in_check = board.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                Self::static_eval(board)
            };
        }
        let pv_node = beta - alpha > 1;
        let entry = self.shared.tt.probe(key, ply);
        if let Some(e) = entry {
            if !pv_node
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => e.score >= beta,
                    TtBound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
        }
        let mut best;
        let stand_pat;
        if in_check {
            stand_pat = EVAL_NONE;
            best = -MATE + ply as i32;
        } else {
            stand_pat = match entry {
                Some(e) => e.eval,
                None => Self::static_eval(board),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            best = stand_pat;
            alpha = alpha.max(stand_pat);
        }
        let old_alpha = alpha;
        let mut moves = if in_check {
            board.legal_moves()
        } else {
            let us = board.turn();
            let mut targets = board.by_color(!us);
            if let Some(ep) = board.ep_square() {
                targets = targets.with(ep);
            }
            let seventh = Bitboard::rank(if us.is_white() { 6 } else { 1 });
            let promoting = board.pieces(us, Role::Pawn) & seventh;
            if promoting.nonempty() {
                let ahead = if us.is_white() {
                    promoting.shift_up()
                } else {
                    promoting.shift_down()
                };
                targets = targets | ahead | Bitboard::rank(if us.is_white() { 7 } else { 0 });
            }
            board.legal_moves_masked(Bitboard::FULL, targets)
        };
        let len = moves.len();
        let mut scores = [0i32; 256];
        let tt_move = entry.and_then(|e| e.best);
        self.score_moves(board, &moves, tt_move, ply, &mut scores[..len]);
        let mut list = [Move::NULL; 256];
        list[..len].copy_from_slice(&moves);
        let _ = &mut moves;
        let mut best_move = None;
        for i in 0..len {
            let (m, _) = Self::pick(&mut list[..len], &mut scores[..len], i);
            if !in_check {
                if !is_noisy(board, m) || m.promotion().is_some_and(|r| r != Role::Queen) {
                    continue;
                }
                if m.promotion().is_none() {
                    let victim = captured_role(board, m).map_or(0, |r| SEE_VALUES[r.index()]);
                    if stand_pat + victim + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
                if !see(board, m, 0) {
                    continue;
                }
            }
            let child = board.after(m);
            let child_key = child.zobrist_hash();
            self.shared.tt.prefetch(child_key);
            let score = -self.qsearch(&child, child_key, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if alpha > old_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let eval = if in_check { 0 } else { stand_pat };
        self.shared
            .tt
            .store(key, ply, best_move, best, eval, 0, bound);
        best
    }

    /// The main alpha-beta search below the root.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        board: &Board,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(board, key, alpha, beta, ply);
        }
        if self.count_node_and_check() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if self.is_draw(board) {
            return DRAW;
        }
        let in_check = board.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                DRAW
            } else {
                Self::static_eval(board)
            };
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let entry = self.shared.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.best);
        if let Some(e) = entry {
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => e.score >= beta,
                    TtBound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
        }

        let static_eval = if in_check {
            EVAL_NONE
        } else {
            match entry {
                Some(e) => e.eval,
                None => Self::static_eval(board),
            }
        };
        // The table's score, when its bound points the right way, is a better estimate.
        let eval = match entry {
            Some(e)
                if !in_check
                    && e.score.abs() < MATE_BOUND
                    && match e.bound {
                        TtBound::Exact => true,
                        TtBound::Lower => e.score > static_eval,
                        TtBound::Upper => e.score < static_eval,
                    } =>
            {
                e.score
            }
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        self.stack[ply + 1].killers = [None; 2];
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].eval != EVAL_NONE
            && static_eval > self.stack[ply - 2].eval;

        if !pv_node && !in_check {
            // Reverse futility pruning: far above beta with little depth left, assume it holds.
            if depth <= RFP_UPPER_LIMIT
                && eval.abs() < MATE_BOUND
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null-move pruning: if passing still fails high, a real move will too.
            let after_null = ply > 0 && self.stack[ply - 1].played == Some(Move::NULL);
            if depth >= NMP_LOWER_LIMIT
                && eval >= beta
                && !after_null
                && beta.abs() < MATE_BOUND
                && has_non_pawn_material(board)
            {
                let reduction = NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / NMP_EVAL_DIVISOR).min(3);
                let child = board.after(Move::NULL);
                let child_key = child.zobrist_hash();
                self.stack[ply].played = Some(Move::NULL);
                self.stack[ply].piece_to = None;
                let saved_floor = self.null_floor;
                self.null_floor = self.keys.len();
                self.keys.push(child_key);
                let score = -self.negamax(
                    &child,
                    child_key,
                    -beta,
                    -beta + 1,
                    depth - 1 - reduction,
                    ply + 1,
                );
                self.keys.pop();
                self.null_floor = saved_floor;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: without a table move this node is likely not critical.
        if tt_move.is_none() && depth >= IIR_LOWER_LIMIT {
            depth -= 1;
        }

        let moves = board.legal_moves();
        let len = moves.len();
        if len == 0 {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let mut scores = [0i32; 256];
        self.score_moves(board, &moves, tt_move, ply, &mut scores[..len]);
        let mut list = [Move::NULL; 256];
        list[..len].copy_from_slice(&moves);

        let mut quiets_tried = [Move::NULL; 64];
        let mut quiet_count = 0;
        let mut best = -INFINITY;
        let mut best_move = None;
        let old_alpha = alpha;
        let mut move_count = 0;
        for i in 0..len {
            // The first moves usually decide a cutoff: pick them one at a time; if none did,
            // this is likely an all-node, and sorting the rest once is cheaper.
            if i == PICK_ONE_BY_ONE {
                Self::sort_rest(&mut list[i..len], &mut scores[i..len]);
            }
            let (m, order_score) = if i < PICK_ONE_BY_ONE {
                Self::pick(&mut list[..len], &mut scores[..len], i)
            } else {
                (list[i], scores[i])
            };
            let quiet = !is_noisy(board, m);
            move_count += 1;

            // Copy-make first: whether the move gives check decides what may be pruned.
            let child = board.after(m);
            let gives_check = child.is_check();
            if best > -MATE_BOUND && !gives_check {
                if quiet {
                    // Late-move pruning: enough quiet moves tried at low depth.
                    let lmp_limit =
                        (LMP_BASE + (depth * depth) as usize) / (2 - usize::from(improving));
                    if depth <= LMP_UPPER_LIMIT && move_count > lmp_limit && !in_check {
                        continue;
                    }
                    // Futility pruning: a quiet move will not lift a hopeless eval to alpha.
                    if depth <= FP_UPPER_LIMIT
                        && !in_check
                        && static_eval + FP_BASE + FP_MARGIN * depth <= alpha
                    {
                        continue;
                    }
                    if depth <= SEE_PRUNE_UPPER_LIMIT && !see(board, m, -SEE_QUIET_MARGIN * depth) {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_UPPER_LIMIT
                    && order_score < TT_MOVE_SCORE
                    && !see(board, m, -SEE_CAPTURE_MARGIN * depth * depth)
                {
                    continue;
                }
            }

            let child_key = child.zobrist_hash();
            self.shared.tt.prefetch(child_key);
            let extension = i32::from(gives_check && ply < 2 * self.root_depth as usize);
            let new_depth = depth - 1 + extension;
            self.stack[ply].played = Some(m);
            self.stack[ply].piece_to = Some(Self::piece_to(board, m));
            self.keys.push(child_key);

            let mut score;
            if move_count == 1 {
                score = -self.negamax(&child, child_key, -beta, -alpha, new_depth, ply + 1);
            } else {
                let mut reduction = 0;
                if depth >= LMR_LOWER_LIMIT
                    && move_count > LMR_MOVE_THRESHOLD + usize::from(pv_node)
                    && (quiet || order_score < 0)
                {
                    reduction = self.lmr[(depth as usize).min(63)][move_count.min(63)];
                    reduction -= i32::from(pv_node);
                    reduction += i32::from(!improving);
                    reduction -= i32::from(gives_check);
                    if quiet {
                        if order_score >= KILLER_SCORE - 2 {
                            reduction -= 1;
                        } else {
                            reduction -= order_score / LMR_HISTORY_DIVISOR;
                        }
                    }
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                score = -self.negamax(
                    &child,
                    child_key,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                );
                if score > alpha && reduction > 0 {
                    score =
                        -self.negamax(&child, child_key, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, child_key, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(
                                board,
                                m,
                                ply,
                                depth,
                                &quiets_tried[..quiet_count],
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if alpha > old_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let eval_to_store = if in_check { 0 } else { static_eval };
        self.shared
            .tt
            .store(key, ply, best_move, best, eval_to_store, depth, bound);
        best
    }

    /// The root search over `root_moves[pv_index..]`; sets each move's score (`-INFINITY`
    /// for moves that did not raise alpha) and PV.
    fn root_search(&mut self, board: &Board, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        self.nodes += 1;
        self.pv_len[0] = 0;
        let key = self.keys[self.keys.len() - 1];
        let mut best = -INFINITY;
        let mut best_move = None;
        let old_alpha = alpha;
        let mut quiets_tried = [Move::NULL; 64];
        let mut quiet_count = 0;
        self.stack[0].eval = if board.is_check() {
            EVAL_NONE
        } else {
            Self::static_eval(board)
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
            self.stack[0].piece_to = Some(Self::piece_to(board, m));
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
                let len = self.pv_len[1].max(1);
                root_move.pv.extend_from_slice(&self.pv[1][1..len]);
            } else {
                root_move.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if score >= beta {
                        if quiet {
                            self.update_quiet_stats(
                                board,
                                m,
                                0,
                                depth,
                                &quiets_tried[..quiet_count],
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }
        if self.pv_index == 0 {
            let bound = if best >= beta {
                TtBound::Lower
            } else if alpha > old_alpha {
                TtBound::Exact
            } else {
                TtBound::Upper
            };
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
            pv: legal_prefix(board, &rm.pv),
        }
    }

    /// The whole-search statistics the caller publishes before the final results.
    pub fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }
}
