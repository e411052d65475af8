//! The [`Engine`]: options plus the transposition table that persists between searches, and
//! the driver that runs one search (threads, reports, stopping rules, the final choice).

use crate::api::{Bound, EngineOptions, Limits, SearchControl, SearchInfo, SearchResult};
use crate::history::History;
use crate::limits::TimeManager;
use crate::movepick::{is_noisy, noisy_score, TT_MOVE_SCORE};
use crate::nnue::Network;
use crate::params::{
    INFINITY, MATE, MAX_DEPTH, SCORE_DROP_THRESHOLD, SCORE_DROP_TIME_FACTOR, STABILITY_TIME_FACTORS,
};
use crate::search::{legal_prefix, Event, NodeLimits, RootMove, Searcher, Shared};
use crate::skill::{Skill, SKILL_MULTIPV};
use crate::tablebase::Syzygy;
use crate::tt::TranspositionTable;
use pychess_core::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// More threads than this are clamped (a UCI GUI may offer any number).
pub const MAX_THREADS: usize = 256;

/// The engine: options plus the transposition table that persists between searches.
#[derive(Debug)]
pub struct Engine {
    options: EngineOptions,
    tt: TranspositionTable,
    /// The main thread's history tables, carried from one search to the next.
    history: Option<Box<History>>,
    /// Endgame tablebases (UCI `SyzygyPath`), if any.
    syzygy: Option<Syzygy>,
    /// The evaluation network of full-strength standard chess (the built-in one, or UCI
    /// `EvalFile`'s); `None`: the hand-written evaluation (UCI `Use NNUE` off).
    network: Option<Arc<Network>>,
}

/// A search's result plus the node count (all threads), for `bench`.
pub(crate) struct Outcome {
    pub result: SearchResult,
    pub nodes: u64,
}

impl Engine {
    /// An engine with these options (allocates the hash table), evaluating with the
    /// built-in network ([`Network::builtin`]).
    pub fn new(options: EngineOptions) -> Engine {
        let tt = TranspositionTable::new(options.hash_mb);
        Engine {
            options,
            tt,
            history: None,
            syzygy: None,
            network: Some(Network::builtin()),
        }
    }

    /// Plays and searches with these tablebases (`None`: without).
    pub fn set_syzygy(&mut self, syzygy: Option<Syzygy>) {
        self.syzygy = syzygy;
    }

    /// Evaluates with this network (`None`: with the hand-written evaluation). Clears the
    /// transposition table, whose stored evaluations came from the other evaluation. The
    /// strength levels (`UCI_LimitStrength`, `Skill Level` below 20) evaluate by hand
    /// whatever is set here: they are calibrated on the hand-written evaluation.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
        self.clear();
    }

    /// The network the engine evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// The tablebases the engine plays with.
    pub fn syzygy(&self) -> Option<&Syzygy> {
        self.syzygy.as_ref()
    }

    /// The current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Changes options (resizing the table if `hash_mb` changed; clears it then, and when
    /// a strength level starts or ends, since the evaluation changes with it).
    pub fn set_options(&mut self, options: EngineOptions) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = TranspositionTable::new(options.hash_mb);
        } else if self.limits_strength() != Engine::strength_limited(&options) {
            self.clear();
        }
        self.options = options;
    }

    fn skill_of(options: &EngineOptions) -> Option<Skill> {
        Skill::from_options(options.limit_elo, options.skill_level)
    }

    /// `UCI_LimitStrength` (even at the top `UCI_Elo`, which is the hand-written
    /// evaluation's full-strength rating) or a `Skill Level` below 20.
    fn strength_limited(options: &EngineOptions) -> bool {
        options.limit_elo.is_some() || Engine::skill_of(options).is_some()
    }

    /// Whether a strength level is set: the search then evaluates by hand, the evaluation
    /// the levels' ratings were measured with.
    pub fn limits_strength(&self) -> bool {
        Engine::strength_limited(&self.options)
    }

    /// The transposition table (the variant search shares it).
    pub(crate) fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forgets everything learnt (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history = None;
    }

    /// Searches `root`. `history` holds the Zobrist hashes (`Board::zobrist_hash`) of the
    /// positions played before `root`, oldest first, so that repetitions of the game count
    /// inside the search. `on_info` is called for each report (from the searching thread).
    /// Returns when a limit is reached or `control` is stopped; while `control` is pondering
    /// (or `limits.infinite`), it does not return before a stop, even after finding a mate.
    pub fn search(
        &mut self,
        root: &Board,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.run(root, history, limits, control, on_info).result
    }

    /// The root moves (restricted to `searchmoves` when that names any legal move), TT move
    /// first, then good captures, quiet moves, bad captures.
    fn root_moves(&self, root: &Board, searchmoves: &[Move]) -> Vec<RootMove> {
        let legal = root.legal_moves();
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| searchmoves.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        let tt_move = self.tt.probe(root.zobrist_hash(), 0).and_then(|e| e.best);
        let mut scored: Vec<(i32, Move)> = moves
            .into_iter()
            .map(|m| {
                let score = if Some(m) == tt_move {
                    TT_MOVE_SCORE
                } else if is_noisy(root, m) {
                    noisy_score(root, m)
                } else {
                    0
                };
                (score, m)
            })
            .collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        scored
            .into_iter()
            .map(|(_, mv)| RootMove {
                mv,
                score: -INFINITY,
                prev_score: -INFINITY,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect()
    }

    pub(crate) fn run(
        &mut self,
        root: &Board,
        history: &[u64],
        limits: &Limits,
        control: &SearchControl,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        let root_moves = self.root_moves(root, &limits.searchmoves);
        if root_moves.is_empty() {
            return Outcome {
                result: SearchResult {
                    best: None,
                    ponder: None,
                    lines: Vec::new(),
                },
                nodes: 0,
            };
        }
        self.tt.new_search();
        // A position the tables cover is played from them, not searched (unless the search
        // must run until stopped).
        let until_stopped = limits.infinite || control.is_pondering();
        if let (Some(tb), false) = (&self.syzygy, until_stopped) {
            let moves: Vec<Move> = root_moves.iter().map(|rm| rm.mv).collect();
            if let Some(choice) = tb.root_choice(root, &moves) {
                let info = SearchInfo {
                    depth: 1,
                    seldepth: 1,
                    multipv: 1,
                    score: crate::search::to_score(choice.score),
                    bound: Bound::Exact,
                    nodes: 0,
                    nps: 0,
                    hashfull: self.tt.hashfull(),
                    time_ms: 0,
                    tbhits: choice.tb_hits,
                    pv: vec![choice.best],
                };
                on_info(&info);
                return Outcome {
                    result: SearchResult {
                        best: Some(choice.best),
                        ponder: None,
                        lines: vec![info],
                    },
                    nodes: 0,
                };
            }
        }

        let skill = Engine::skill_of(&self.options);
        let reported_lines = self.options.multipv.clamp(1, root_moves.len());
        let searched_lines = if skill.is_some() {
            reported_lines.max(SKILL_MULTIPV).min(root_moves.len())
        } else {
            reported_lines
        };
        let user_limited = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.mate.is_some()
            || limits.clock.is_some();
        // `go infinite` (or `go` with nothing) runs until stopped, ignoring other limits.
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
        let mate_limit = if limits.infinite { None } else { limits.mate };
        let time_limits = if limits.infinite {
            Limits {
                infinite: true,
                ..Limits::default()
            }
        } else {
            limits.clone()
        };
        let threads = self.options.threads.clamp(1, MAX_THREADS);
        let shared = Shared {
            tt: &self.tt,
            control,
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            syzygy: self.syzygy.as_ref(),
            // The levels were calibrated on the hand-written evaluation.
            network: self.network.as_deref().filter(|_| !self.limits_strength()),
            tb_hits: AtomicU64::new(0),
        };

        let mut completed: Vec<SearchInfo> = Vec::new();
        let mut candidates: Vec<(Move, i32)> = Vec::new();
        let mut fallback = root_moves[0].mv;
        let mut ponder_fallback = None;

        let tables = self.history.take().unwrap_or_else(History::new);
        let mut kept_tables = None;
        std::thread::scope(|scope| {
            for id in 1..threads {
                let shared = &shared;
                let moves = root_moves.clone();
                scope.spawn(move || {
                    let mut helper = Searcher::new(
                        shared,
                        id,
                        root,
                        history,
                        moves,
                        NodeLimits::default(),
                        History::new(),
                    );
                    helper.iterate(root, max_depth, 1, &mut |_, _| true);
                });
            }

            let mut main = Searcher::new(
                &shared,
                0,
                root,
                history,
                root_moves,
                NodeLimits { nodes: node_limit },
                tables,
            );
            main.time = Some(TimeManager::new(
                &time_limits,
                self.options.move_overhead_ms,
                control,
            ));
            let mut last_best: Option<Move> = None;
            let mut stable_iterations = 0u32;
            let mut last_score: Option<i32> = None;
            main.iterate(
                root,
                max_depth,
                searched_lines,
                &mut |s, event| match event {
                    Event::AspirationFail(bound) => {
                        if s.pv_index < reported_lines {
                            let score = s.root_moves[s.pv_index].score;
                            let info = s.line_info(root, s.pv_index, s.root_depth, bound, score);
                            on_info(&info);
                        }
                        true
                    }
                    Event::Iteration(depth) => {
                        completed.clear();
                        for i in 0..reported_lines {
                            let score = s.root_moves[i].score;
                            let info = s.line_info(root, i, depth, Bound::Exact, score);
                            on_info(&info);
                            completed.push(info);
                        }
                        candidates.clear();
                        candidates.extend(
                            s.root_moves[..searched_lines]
                                .iter()
                                .map(|rm| (rm.mv, rm.score)),
                        );
                        let best = s.root_moves[0].mv;
                        if last_best == Some(best) {
                            stable_iterations += 1;
                        } else {
                            stable_iterations = 0;
                        }
                        last_best = Some(best);
                        if control.is_stopped() {
                            return false;
                        }
                        if let Some(n) = mate_limit {
                            let plies = 2 * i64::from(n.max(1)) - 1;
                            if i64::from(s.root_moves[0].score) >= i64::from(MATE) - plies {
                                return false;
                            }
                        }
                        // A best move that keeps changing earns more time, a settled one less.
                        // A falling score earns more time too: the position holds a surprise.
                        let score = s.root_moves[0].score;
                        let falling =
                            last_score.is_some_and(|last| score < last - SCORE_DROP_THRESHOLD);
                        last_score = Some(score);
                        let stability = STABILITY_TIME_FACTORS
                            [(stable_iterations as usize).min(STABILITY_TIME_FACTORS.len() - 1)];
                        let scale = if falling {
                            stability * SCORE_DROP_TIME_FACTOR / 100
                        } else {
                            stability
                        };
                        let time = s.time.as_mut().expect("the main thread has a clock");
                        time.update(control);
                        !time.soft_expired(scale)
                    }
                },
            );
            main.publish_nodes();
            fallback = main.root_moves[0].mv;
            if let Some(pv) = completed.first().map(|info| info.pv.clone()) {
                if pv.len() < 2 {
                    if let Some(&first) = pv.first() {
                        ponder_fallback = main.tt_reply(root, first);
                    }
                }
            }

            // Pondering and endless searches hold their answer until told to stop; a
            // ponderhit turns a finished ponder search into an ordinary one that returns.
            let mut time = main.time.take().expect("the main thread has a clock");
            loop {
                time.update(control);
                if control.is_stopped() || (!endless && !time.is_pondering()) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            shared.stop.store(true, Ordering::Relaxed);
            kept_tables = Some(main.history);
        });
        self.history = kept_tables;

        let nodes = shared.total_nodes();
        let seed = root.zobrist_hash();
        let best = match skill {
            Some(skill) if !candidates.is_empty() => skill.pick(&candidates, seed),
            _ => None,
        }
        .or_else(|| completed.first().and_then(|info| info.pv.first().copied()))
        .unwrap_or(fallback);
        let line_of_best = completed
            .iter()
            .find(|info| info.pv.first() == Some(&best))
            .map(|info| info.pv.clone());
        let ponder = match line_of_best {
            Some(pv) if pv.len() >= 2 => Some(pv[1]),
            Some(_) => ponder_fallback.filter(|_| completed.first().map(|i| i.pv[0]) == Some(best)),
            None => {
                let child = root.after(best);
                self.tt
                    .probe(child.zobrist_hash(), 1)
                    .and_then(|e| e.best)
                    .and_then(|m| legal_prefix(&child, &[m]).first().copied())
            }
        };
        Outcome {
            result: SearchResult {
                best: Some(best),
                ponder,
                lines: completed,
            },
            nodes,
        }
    }
}
