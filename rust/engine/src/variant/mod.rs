//! The variant search: iterative-deepening principal-variation alpha-beta on copies of a
//! [`VariantBoard`] (copy-make), for every variant of `pychess_core::variant`.
//!
//! It is a search of its own beside the standard one (`crate::search`), which it leaves
//! untouched (`bench` unchanged): the variants' rules live in the core's `VariantBoard`,
//! whose legal moves already are the variant's (Atomic's explosions, Antichess's forced
//! captures, Crazyhouse's drops, Racing Kings' ban on checks), and whose end-of-game
//! answers become scores: a variant win or loss scores as a mate (reported `score mate N`),
//! a variant draw, stalemate (where it is no win) and insufficient material as 0.
//!
//! What it shares with the standard engine: the transposition table (keys salted by the
//! variant and, for Three-check and Crazyhouse, by the checks left and the pockets, which
//! the Polyglot key leaves out), the time manager (`go wtime/btime/movetime/depth/nodes`,
//! `stop`, ponder), MultiPV and skill levels (same `Skill` picks among the same number of
//! lines). What it does not do: Lazy SMP (one thread), null-move pruning (a `VariantBoard`
//! has no null move, and zugzwang is common in Antichess), SEE, tablebases.
//!
//! Below the root: PVS with a check extension, reverse futility pruning and late-move
//! reductions (not in the Antichess family, where the evaluation is weakest), TT cutoffs,
//! killer and history ordering after the TT move and MVV-LVA captures. Quiescence searches
//! captures and promotions with a stand-pat, every evasion in check, every (forced)
//! capture in the Antichess family without a stand-pat, Three-check's checking moves on
//! its first ply and Racing Kings' king advances on its first two.

mod eval;

pub use eval::evaluate;

use crate::api::{Bound, Limits, SearchControl, SearchInfo, SearchResult};
use crate::engine::Engine;
use crate::limits::TimeManager;
use crate::params::*;
use crate::search::to_score;
use crate::skill::{Skill, SKILL_MULTIPV};
use crate::tt::{TranspositionTable, TtBound};
use pychess_core::variant::{Variant, VariantBoard, VariantResult};
use pychess_core::{Move, MoveKind, Role};
use std::time::Duration;

/// Salts that keep one variant's table entries from another's (and from chess's).
fn variant_salt(variant: Variant) -> u64 {
    let index = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0) as u64;
    splitmix(0x5eed_0000 + index)
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The table key of a variant position: the Polyglot key, the variant, and the state the
/// Polyglot key leaves out (Three-check's checks, Crazyhouse's pockets).
pub fn search_key(position: &VariantBoard) -> u64 {
    let mut key = position.zobrist_hash() ^ variant_salt(position.variant());
    match position.variant() {
        Variant::ThreeCheck => {
            let [w, b] = position.remaining_checks();
            key ^= splitmix(0x3c00 + (w.clamp(0, 15) as u64) * 16 + b.clamp(0, 15) as u64);
        }
        Variant::Crazyhouse => {
            for (c, pocket) in position.pockets().iter().enumerate() {
                for (r, &n) in pocket.iter().enumerate() {
                    if n > 0 {
                        key ^= splitmix(((c * 6 + r) as u64) << 8 | u64::from(n.min(255)));
                    }
                }
            }
        }
        _ => {}
    }
    key
}

/// The score of a position without legal moves (or ended by the variant), `ply` from the
/// root.
fn terminal_score(position: &VariantBoard, ply: usize) -> i32 {
    match position.variant_result() {
        Some(VariantResult::Win) => MATE - ply as i32,
        Some(VariantResult::Loss) => -MATE + ply as i32,
        Some(VariantResult::Draw) => DRAW,
        None if position.is_check() => -MATE + ply as i32,
        None => DRAW,
    }
}

/// Is `m` a capture (en passant included)?
fn is_capture(position: &VariantBoard, m: Move) -> bool {
    let board = position.board();
    match m.kind {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop(_) => false,
        _ => board.by_color(!board.turn()).contains(m.to),
    }
}

fn is_noisy(position: &VariantBoard, m: Move) -> bool {
    is_capture(position, m) || matches!(m.kind, MoveKind::Promotion(_))
}

/// MVV-LVA, promotions first among equals.
fn capture_score(position: &VariantBoard, m: Move) -> i32 {
    let board = position.board();
    let victim = if m.kind == MoveKind::EnPassant {
        Role::Pawn
    } else {
        board.role_at(m.to).unwrap_or(Role::Pawn)
    };
    let attacker = board.role_at(m.from).unwrap_or(Role::Pawn);
    let promotion = match m.kind {
        MoveKind::Promotion(role) => VARIANT_VALUES[role.index()],
        _ => 0,
    };
    let victim_value = if is_capture(position, m) {
        10 * (victim.index() as i32 + 1)
    } else {
        0
    };
    victim_value - attacker.index() as i32 + promotion
}

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    seldepth: usize,
}

/// One variant search (one thread).
struct VariantSearcher<'a> {
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    time: TimeManager,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    limits_active: bool,
    /// Keys of the game before the root, then of each position on the search path.
    keys: Vec<u64>,
    killers: Vec<[Option<Move>; 2]>,
    /// `[color][from][to]` quiet-move history (a drop's from is its target).
    history: Vec<[[i32; 64]; 64]>,
    pv: Vec<Vec<Move>>,
    root_moves: Vec<RootMove>,
}

impl VariantSearcher<'_> {
    #[inline]
    fn count_node_and_check(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if let Some(limit) = self.node_limit {
            // Before depth 1 is complete, only a gross overrun stops the search (the first
            // legal move in the order is the answer then).
            let limit = if self.limits_active {
                limit
            } else {
                limit.saturating_mul(16)
            };
            if self.nodes >= limit {
                self.stopped = true;
                return true;
            }
        }
        if self.nodes & CLOCK_CHECK_MASK == 0 {
            if self.control.is_stopped() {
                self.stopped = true;
                return true;
            }
            self.time.update(self.control);
            if self.time.hard_expired() {
                self.stopped = true;
                return true;
            }
        }
        false
    }

    /// A repetition on the path or in the game, or the fifty-move rule (not Crazyhouse's:
    /// python-chess plays it without one).
    fn is_draw(&self, position: &VariantBoard) -> bool {
        let halfmoves = position.board().halfmove_clock() as usize;
        let crazyhouse = position.variant() == Variant::Crazyhouse;
        if halfmoves >= 100 && !crazyhouse {
            return true;
        }
        let last = self.keys.len() - 1;
        let key = self.keys[last];
        let reach = if crazyhouse {
            last.min(100)
        } else {
            halfmoves.min(last)
        };
        let mut back = 4;
        while back <= reach {
            if self.keys[last - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    fn ordered(&self, position: &VariantBoard, ply: usize, tt_move: Option<Move>) -> Vec<Move> {
        let us = position.board().turn().index();
        let killers = self.killers[ply];
        let mut scored: Vec<(i32, Move)> = position
            .legal_moves()
            .iter()
            .map(|&m| {
                let score = if Some(m) == tt_move {
                    1 << 30
                } else if is_noisy(position, m) {
                    (1 << 24) + capture_score(position, m)
                } else if killers[0] == Some(m) {
                    1 << 23
                } else if killers[1] == Some(m) {
                    (1 << 23) - 1
                } else {
                    self.history[us][m.from.index()][m.to.index()]
                };
                (score, m)
            })
            .collect();
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        scored.into_iter().map(|(_, m)| m).collect()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        position: &VariantBoard,
        key: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if ply + 1 < self.pv.len() {
            self.pv[ply + 1].clear();
        }
        if depth <= 0 || ply >= MAX_PLY - 2 {
            return self.qsearch(position, alpha, beta, ply, 0);
        }
        if self.count_node_and_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if self.is_draw(position) {
            return DRAW;
        }
        let moves = position.legal_moves();
        if moves.is_empty() {
            return terminal_score(position, ply);
        }
        if position.board().occupied().count() <= 6 && position.is_insufficient_material() {
            return DRAW;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.best);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth && e.cuts_off(alpha, beta) {
                return e.score;
            }
        }
        let in_check = position.is_check();
        let antichess = position.variant().is_antichess();
        let eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| evaluate(position), |e| e.eval)
        };
        // Reverse futility pruning.
        if !pv_node
            && !in_check
            && !antichess
            && depth <= 4
            && eval.abs() < MATE_BOUND
            && eval - 110 * depth >= beta
        {
            return eval;
        }
        let ordered = self.ordered(position, ply, tt_move);
        let us = position.board().turn().index();
        let old_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets: Vec<Move> = Vec::new();
        for (i, &m) in ordered.iter().enumerate() {
            let noisy = is_noisy(position, m);
            let child = position.after(m);
            let child_key = search_key(&child);
            let gives_check = child.is_check();
            let extension = i32::from(gives_check && ply < 2 * depth as usize + 8);
            let new_depth = depth - 1 + extension;
            self.keys.push(child_key);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, child_key, -beta, -alpha, new_depth, ply + 1);
            } else {
                let reduction =
                    if depth >= 3 && i >= 3 && !noisy && !in_check && !gives_check && !antichess {
                        1 + i32::from(i >= 8 && depth >= 5) + i32::from(!pv_node && i >= 16)
                    } else {
                        0
                    };
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
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let bonus = depth * depth;
                            let h = &mut self.history[us];
                            h[m.from.index()][m.to.index()] =
                                (h[m.from.index()][m.to.index()] + bonus).min(HISTORY_LIMIT);
                            for q in &quiets {
                                let v = &mut h[q.from.index()][q.to.index()];
                                *v = (*v - bonus).max(-HISTORY_LIMIT);
                            }
                        }
                        break;
                    }
                }
            }
            if !noisy {
                quiets.push(m);
            }
        }
        let bound = TtBound::of(best, old_alpha, beta);
        let stored_eval = if in_check { 0 } else { eval };
        self.tt
            .store(key, ply, best_move, best, stored_eval, depth, bound);
        best
    }

    fn qsearch(
        &mut self,
        position: &VariantBoard,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
    ) -> i32 {
        if self.count_node_and_check() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let moves = position.legal_moves();
        if moves.is_empty() {
            return terminal_score(position, ply);
        }
        if ply >= MAX_PLY - 2 || qply >= VARIANT_QS_LIMIT {
            return evaluate(position);
        }
        let variant = position.variant();
        let in_check = position.is_check();
        // Antichess captures are forced: no stand-pat while they last, but only for a few
        // plies (the branching of capture chains grows fast; the table is not used here).
        let forced = variant.is_antichess()
            && qply < VARIANT_FORCED_QS_LIMIT
            && moves.iter().any(|&m| is_capture(position, m));
        let mut best = -INFINITY;
        if !in_check && !forced {
            let stand = evaluate(position);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut candidates: Vec<(i32, Move)> = moves
            .iter()
            .copied()
            .filter(|&m| {
                in_check
                    || forced
                    || is_noisy(position, m)
                    || (variant == Variant::ThreeCheck && qply == 0)
                    || (variant == Variant::RacingKings && qply < 2 && king_advance(position, m))
            })
            .map(|m| (capture_score(position, m), m))
            .collect();
        candidates.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (_, m) in candidates {
            let child = position.after(m);
            // Three-check's extra candidates are its checking moves only.
            if variant == Variant::ThreeCheck
                && !in_check
                && !is_noisy(position, m)
                && !child.board().is_check()
            {
                continue;
            }
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn root_search(&mut self, root: &VariantBoard, first: usize, depth: i32) {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        self.nodes += 1;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = root.after(m);
            let key = search_key(&child);
            let new_depth = depth - 1 + i32::from(child.is_check());
            self.keys.push(key);
            self.seldepth = 0;
            let mut score;
            if i == first {
                score = -self.negamax(&child, key, -beta, -alpha, new_depth, 1);
            } else {
                score = -self.negamax(&child, key, -alpha - 1, -alpha, new_depth, 1);
                if score > alpha && !self.stopped {
                    score = -self.negamax(&child, key, -beta, -alpha, new_depth, 1);
                }
            }
            self.keys.pop();
            if self.stopped {
                return;
            }
            let rm = &mut self.root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
                alpha = alpha.max(score);
            } else {
                rm.score = -INFINITY;
            }
        }
    }

    fn info(&self, index: usize, depth: i32) -> SearchInfo {
        let time = self.time.elapsed().as_millis() as u64;
        let rm = &self.root_moves[index];
        SearchInfo {
            depth: depth.max(1) as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: index as u32 + 1,
            score: to_score(rm.score),
            bound: Bound::Exact,
            nodes: self.nodes,
            nps: self.nodes * 1000 / time.max(1),
            hashfull: self.tt.hashfull(),
            time_ms: time,
            tbhits: 0,
            pv: rm.pv.clone(),
        }
    }
}

/// Racing Kings: a king move to a higher rank.
fn king_advance(position: &VariantBoard, m: Move) -> bool {
    position.board().role_at(m.from) == Some(Role::King) && m.to.rank() > m.from.rank()
}

/// The legal prefix of `line` from `root`.
fn legal_prefix(root: &VariantBoard, line: &[Move]) -> Vec<Move> {
    let mut position = root.clone();
    let mut legal = Vec::new();
    for &m in line {
        if !position.legal_moves().contains(&m) {
            break;
        }
        position.play_unchecked(m);
        legal.push(m);
    }
    legal
}

impl Engine {
    /// Searches a variant position. `history` holds the [`search_key`]s of the positions
    /// played before `root`, oldest first (repetitions). Limits, options (MultiPV, skill
    /// levels, move overhead) and the control work as for [`Engine::search`]; the search
    /// runs on one thread whatever `threads` says, and without tablebases.
    pub fn search_variant(
        &mut self,
        root: &VariantBoard,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let legal = root.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        if moves.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                lines: Vec::new(),
            };
        }
        let options = self.options().clone();
        let tt = self.table();
        tt.new_search();
        let root_key = search_key(root);
        let tt_move = tt.probe(root_key, 0).and_then(|e| e.best);
        if let Some(i) = moves.iter().position(|&m| Some(m) == tt_move) {
            moves[..=i].rotate_right(1);
        }
        let skill = Skill::from_options(options.limit_elo, options.skill_level);
        let reported = options.multipv.clamp(1, moves.len());
        let searched = if skill.is_some() {
            reported.max(SKILL_MULTIPV).min(moves.len())
        } else {
            reported
        };
        let user_limited = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.mate.is_some()
            || limits.clock.is_some();
        let endless = limits.infinite || !user_limited;
        let mut max_depth = if limits.infinite {
            MAX_DEPTH
        } else {
            limits
                .depth
                .map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH as u32) as i32)
        };
        let mut node_limit = if limits.infinite { None } else { limits.nodes };
        if let Some(skill) = skill {
            max_depth = max_depth.min(skill.max_depth());
            node_limit = Some(node_limit.map_or(skill.max_nodes(), |n| n.min(skill.max_nodes())));
        }
        let time_limits = if limits.infinite {
            Limits {
                infinite: true,
                ..Limits::default()
            }
        } else {
            limits.clone()
        };
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 2);
        keys.extend_from_slice(history);
        keys.push(root_key);
        let mut s = VariantSearcher {
            tt,
            control,
            time: TimeManager::new(&time_limits, options.move_overhead_ms, control),
            node_limit,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            limits_active: false,
            keys,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![[[0; 64]; 64]; 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_moves: moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INFINITY,
                    pv: vec![mv],
                    seldepth: 0,
                })
                .collect(),
        };
        let mut completed: Vec<SearchInfo> = Vec::new();
        let mut candidates: Vec<(Move, i32)> = Vec::new();
        for depth in 1..=max_depth {
            for line in 0..searched {
                s.root_search(root, line, depth);
                if s.stopped {
                    break;
                }
                s.root_moves[line..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if s.stopped {
                break;
            }
            s.limits_active = true;
            completed = (0..reported).map(|i| s.info(i, depth)).collect();
            for info in &completed {
                on_info(info);
            }
            candidates = s.root_moves[..searched]
                .iter()
                .map(|rm| (rm.mv, rm.score))
                .collect();
            if control.is_stopped() {
                break;
            }
            if let Some(n) = limits.mate.filter(|_| !limits.infinite) {
                let plies = 2 * i64::from(n.max(1)) - 1;
                if i64::from(s.root_moves[0].score) >= i64::from(MATE) - plies {
                    break;
                }
            }
            // A won or lost position needs no deeper look (unless the caller waits anyway).
            if s.root_moves[0].score.abs() >= MATE_BOUND && !endless && skill.is_none() {
                let plies = MATE - s.root_moves[0].score.abs();
                if depth > plies + 2 {
                    break;
                }
            }
            s.time.update(control);
            if s.time.soft_expired(100) {
                break;
            }
        }
        // Pondering and endless searches hold their answer until told to stop.
        loop {
            s.time.update(control);
            if control.is_stopped() || (!endless && !s.time.is_pondering()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let fallback = s.root_moves[0].mv;
        let best = match skill {
            Some(skill) if !candidates.is_empty() => skill.pick(&candidates, root_key),
            _ => None,
        }
        .or_else(|| completed.first().and_then(|i| i.pv.first().copied()))
        .unwrap_or(fallback);
        for info in &mut completed {
            info.pv = legal_prefix(root, &info.pv);
        }
        let ponder = completed
            .iter()
            .find(|i| i.pv.first() == Some(&best))
            .and_then(|i| i.pv.get(1).copied());
        SearchResult {
            best: Some(best),
            ponder,
            lines: completed,
        }
    }
}

#[cfg(test)]
mod tests;
