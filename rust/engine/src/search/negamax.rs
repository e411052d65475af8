//! The alpha-beta search below the root (principal variation search).
//!
//! Each node, in order: draw and mate-distance checks, the transposition table, pruning
//! of the whole node (reverse futility, razoring, null move), internal iterative
//! reduction, then the move loop: moves come best first from the [`MovePicker`]; late
//! quiet moves are pruned (late-move, futility, SEE pruning), the first move gets the full
//! window, later moves a null window at a depth reduced by the late-move-reduction table
//! and are searched again in full only when they beat alpha. A beta cutoff teaches the
//! killers and the history ([`Searcher::beta_cutoff`]); every node ends by storing its
//! result in the table.

use super::{has_non_pawn_material, Searcher, EVAL_NONE};
use crate::history::{piece_to, QuietsTried};
use crate::movepick::{is_noisy, see, MovePicker, KILLER_SCORE, TT_MOVE_SCORE};
use crate::params::*;
use crate::tt::TtBound;
use pychess_core::{Board, Move};

impl Searcher<'_> {
    /// The main alpha-beta search below the root.
    pub(super) fn negamax(
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
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if self.is_draw(board) {
            return DRAW;
        }
        let in_check = board.is_check();
        if ply >= MAX_PLY - 1 {
            if in_check {
                return DRAW;
            }
            self.enter(board, ply);
            return self.static_eval(board, ply);
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
            if !pv_node && e.depth >= depth && e.cuts_off(alpha, beta) {
                return e.score;
            }
        }
        // The endgame tables' verdict, where it settles the node (see `crate::tablebase`).
        if let Some((score, bound)) = self
            .shared
            .syzygy
            .and_then(|tb| tb.search_value(board, depth, ply))
        {
            self.shared
                .tb_hits
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let settled = match bound {
                TtBound::Exact => true,
                TtBound::Lower => score >= beta,
                TtBound::Upper => score <= alpha,
            };
            if settled {
                return score;
            }
        }
        // Only now, past every early return: a node that ends before this evaluates
        // nothing and has no children, so its accumulator is never read.
        self.enter(board, ply);

        let static_eval = if in_check {
            EVAL_NONE
        } else {
            match entry {
                Some(e) => e.eval,
                None => self.static_eval(board, ply),
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
            // Razoring: so far below alpha with little depth left that only a capture can
            // help; when the quiescence search agrees, trust it.
            if depth <= RAZOR_UPPER_LIMIT
                && alpha.abs() < MATE_BOUND
                && eval + RAZOR_MARGIN * depth <= alpha
            {
                let score = self.qsearch(board, key, alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if score <= alpha {
                    return score;
                }
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

        let mut moves = board.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        let hints = self.hints(ply, tt_move);
        let mut picker = MovePicker::new(board, &mut moves, &hints, &self.history, PICK_ONE_BY_ONE);

        let mut quiets_tried = QuietsTried::new();
        let mut best = -INFINITY;
        let mut best_move = None;
        let old_alpha = alpha;
        let mut move_count = 0;
        while let Some((m, order_score)) = picker.next() {
            let quiet = !is_noisy(board, m);
            move_count += 1;

            // Whether the move gives check decides what may be pruned; most pruned moves
            // are never played, so this is asked of the board before the move.
            let gives_check = board.gives_check(m);
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

            let child = board.after(m);
            let child_key = child.zobrist_hash();
            self.shared.tt.prefetch(child_key);
            // A check that loses material by exchange is seldom the point: only the others
            // are worth a ply more.
            let extension =
                i32::from(gives_check && ply < 2 * self.root_depth as usize && see(board, m, 0));
            let new_depth = depth - 1 + extension;
            self.stack[ply].played = Some(m);
            self.stack[ply].piece_to = Some(piece_to(board, m));
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

            if self.take_score(
                ply,
                pv_node,
                m,
                score,
                &mut best,
                &mut best_move,
                &mut alpha,
            ) && score >= beta
            {
                self.beta_cutoff(board, m, quiet, ply, depth, &quiets_tried);
                break;
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        let eval = if in_check { 0 } else { static_eval };
        let bound = TtBound::of(best, old_alpha, beta);
        self.shared
            .tt
            .store(key, ply, best_move, best, eval, depth, bound);
        best
    }

    /// `m` failed high at `ply`. A quiet move becomes the first killer of the ply and the
    /// countermove of the move before, and earns a history bonus; the quiet moves `tried`
    /// before it pay the same as a malus. A capture or promotion teaches nothing: its order
    /// comes from what it wins, not from history.
    pub(super) fn beta_cutoff(
        &mut self,
        board: &Board,
        m: Move,
        quiet: bool,
        ply: usize,
        depth: i32,
        tried: &QuietsTried,
    ) {
        if !quiet {
            return;
        }
        let frame = &mut self.stack[ply];
        if frame.killers[0] != Some(m) {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = Some(m);
        }
        let previous = self.previous_move(ply);
        let rows = self.continuation_rows(ply);
        self.history
            .reward_cutoff(board, rows, previous, m, depth, tried.as_slice());
    }
}
