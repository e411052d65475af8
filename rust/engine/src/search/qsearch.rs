//! Quiescence search: at the horizon, play out captures and queen promotions until the
//! position is quiet, so that the static evaluation is never taken in the middle of an
//! exchange.
//!
//! The side to move may *stand pat* (take the static evaluation) instead of capturing,
//! except in check, where every evasion is searched and having none is mate. Captures
//! that cannot reach alpha even winning the victim plus [`DELTA_MARGIN`] (delta pruning) or
//! that lose material by SEE are skipped.

use super::{Searcher, EVAL_NONE};
use crate::movepick::{captured_role, is_noisy, see, MovePicker};
use crate::params::*;
use crate::tt::TtBound;
use pychess_core::{Bitboard, Board, Role};

impl Searcher<'_> {
    /// Quiescence search: only captures and queen promotions (all evasions in check),
    /// standing pat on the static evaluation otherwise.
    pub(super) fn qsearch(
        &mut self,
        board: &Board,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.count_node_and_check() {
            return 0;
        }
        self.pv.clear(ply);
        self.seldepth = self.seldepth.max(ply);
        if super::insufficient_material(board) {
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
        let pv_node = beta - alpha > 1;
        let entry = self.shared.tt.probe(key, ply);
        if let Some(e) = entry {
            if !pv_node && e.cuts_off(alpha, beta) {
                return e.score;
            }
        }
        // Past the early returns (see `negamax`): their nodes never read the accumulator.
        self.enter(board, ply);
        let mut best;
        let stand_pat;
        if in_check {
            stand_pat = EVAL_NONE;
            best = -MATE + ply as i32;
        } else {
            stand_pat = match entry {
                Some(e) => e.eval,
                None => self.static_eval(board, ply),
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
        let hints = self.hints(ply, entry.and_then(|e| e.best));
        let mut picker = MovePicker::new(
            board,
            &mut moves,
            &hints,
            &self.history,
            MovePicker::NEVER_SORT,
        );
        let mut best_move = None;
        while let Some((m, _)) = picker.next() {
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
                break;
            }
        }
        let eval = if in_check { 0 } else { stand_pat };
        let bound = TtBound::of(best, old_alpha, beta);
        self.shared
            .tt
            .store(key, ply, best_move, best, eval, 0, bound);
        best
    }
}
