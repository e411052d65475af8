//! Search behaviour: mates, draws, limits, pondering, MultiPV, searchmoves, bench.

use pychess_core::{Board, Move, UciMove};
use pychess_engine::{
    Bound, Engine, EngineOptions, Limits, Score, SearchControl, SearchInfo, SearchResult,
};
use std::time::{Duration, Instant};

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).expect("valid test FEN")
}

fn mv(board: &Board, uci: &str) -> Move {
    board
        .find_legal(UciMove::parse(uci).expect("UCI text"))
        .expect("legal move")
}

fn engine() -> Engine {
    Engine::new(EngineOptions::default())
}

fn search_with(
    engine: &mut Engine,
    board: &Board,
    history: &[u64],
    limits: &Limits,
) -> (SearchResult, Vec<SearchInfo>) {
    let control = SearchControl::new(false);
    let mut infos = Vec::new();
    let result = engine.search(board, history, limits, &control, &mut |info| {
        infos.push(info.clone())
    });
    (result, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn assert_pv_legal(board: &Board, pv: &[Move]) {
    let mut b = board.clone();
    for m in pv {
        assert!(b.legal_moves().contains(m), "illegal PV move {m:?}");
        b.play_unchecked(*m);
    }
}

#[test]
fn finds_mate_in_one() {
    let b = board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let (result, infos) = search_with(&mut engine(), &b, &[], &depth(4));
    assert_eq!(result.best, Some(mv(&b, "d1d8")));
    assert_eq!(result.lines[0].score, Score::Mate(1));
    for info in &infos {
        assert_pv_legal(&b, &info.pv);
    }
}

#[test]
fn finds_mate_in_two_and_three() {
    // Mate in 2: 1. Rd8+ Rxd8 2. Qxd8#.
    let b = board("2r3k1/5ppp/8/8/8/8/3R1PPP/3Q2K1 w - - 0 1");
    let (result, _) = search_with(&mut engine(), &b, &[], &depth(6));
    assert_eq!(result.lines[0].score, Score::Mate(2));
    assert_eq!(result.best, Some(mv(&b, "d2d8")));
    // Mate in 3 (king and rook against king, from a near-final position).
    let b = board("7k/8/5K2/8/8/8/8/R7 w - - 0 1");
    let (result, infos) = search_with(&mut engine(), &b, &[], &depth(8));
    assert!(
        matches!(result.lines[0].score, Score::Mate(n) if (1..=3).contains(&n)),
        "{:?}",
        result.lines[0].score
    );
    for info in &infos {
        assert_pv_legal(&b, &info.pv);
    }
}

#[test]
fn mate_in_three_exactly() {
    // 1. Qxh7+ Kxh7 2. Rh3+ Kg8 3. Rh8# style: a known three-mover.
    let b = board("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    let (result, _) = search_with(&mut engine(), &b, &[], &depth(8));
    assert_eq!(result.lines[0].score, Score::Mate(3));
}

#[test]
fn being_mated_scores_negative_mate() {
    // Black's only move Kb8 walks into Rh8#.
    let b = board("k7/8/1K6/8/8/8/8/7R b - - 0 1");
    let (result, _) = search_with(&mut engine(), &b, &[], &depth(5));
    assert_eq!(result.lines[0].score, Score::Mate(-1));
    assert_eq!(
        result.ponder,
        Some(mv(&b.after(result.best.unwrap()), "h1h8"))
    );
}

#[test]
fn no_legal_move_returns_none_at_once() {
    let stalemate = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let mated = board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    for b in [stalemate, mated] {
        let control = SearchControl::new(false);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let result = engine().search(&b, &[], &limits, &control, &mut |_| {});
        assert_eq!(result.best, None);
        assert!(result.lines.is_empty());
    }
}

#[test]
fn stalemate_is_a_draw_in_the_search() {
    // White queen takes on g7 stalemates... only if careless: Qxg7 is not stalemate-free.
    // Black to move: the only legal non-losing idea is to offer stalemate; the score of a
    // position where White must avoid stalemate stays decisive but not a mate to nowhere.
    let b = board("k7/8/1Q6/8/8/8/8/6K1 w - - 0 1");
    let (result, _) = search_with(&mut engine(), &b, &[], &depth(6));
    // Qb6-b7?? and similar moves would stalemate at once; the engine must not choose them.
    let best = result.best.unwrap();
    let after = b.after(best);
    assert!(
        after.has_legal_moves() || after.is_check(),
        "stalemated with {best:?}"
    );
}

#[test]
fn repetition_is_a_draw() {
    // Black is a knight and two pawns down but checks perpetually (Qh4+ Kg1 Qe1+ Kh2 Qh4+):
    // the repetition inside the search tree is the best line and scores as a draw.
    let b = board("7k/6pp/8/8/3q4/P7/PP4PK/RRN5 b - - 0 1");
    // Material alone (the hand-written evaluation at depth 1) says Black is lost; the
    // network sees the checks coming and says about equal, so the draw is shown by hand.
    let mut by_hand = engine();
    by_hand.set_network(None);
    let (shallow, _) = search_with(&mut by_hand, &b, &[], &depth(1));
    let shallow = shallow.lines[0].score;
    assert!(matches!(shallow, Score::Cp(cp) if cp < -200), "{shallow:?}");
    for mut engine in [by_hand, engine()] {
        let (result, _) = search_with(&mut engine, &b, &[], &depth(10));
        assert_eq!(result.lines[0].score, Score::Cp(0), "{:?}", result.lines[0]);
        // Any of the queen's checks starts the perpetual (Qh4+, Qe5+, Qd6+: which one
        // depends on the evaluation); a quiet move would let White consolidate.
        let best = result.best.expect("a best move");
        let mut after = b.clone();
        after.play_unchecked(best);
        assert!(after.is_check(), "{best:?} does not check");
    }
}

#[test]
fn game_history_repetitions_count() {
    // White is a rook up; after Kg1-h1 Kg8-h8 Kh1-g1 Kh8-g8 the position repeated. With that
    // history, the search must see that repeating again (a draw) is not its best plan; and
    // from Black's side (down a rook), steering into the repetition is a draw.
    let start = board("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
    let mut history = Vec::new();
    let mut b = start.clone();
    for uci in ["g1h1", "g8h8", "h1g1", "h8g8"] {
        history.push(b.zobrist_hash());
        let m = mv(&b, uci);
        b.play_unchecked(m);
    }
    assert_eq!(b.zobrist_hash(), start.zobrist_hash());
    let (result, _) = search_with(&mut engine(), &b, &history, &depth(6));
    assert_ne!(result.best, Some(mv(&b, "g1h1")));
    // Black to move after Kg1-h1 would repeat with Kg8-h8: a draw, the best Black can do.
    let mut b2 = b.clone();
    history.push(b2.zobrist_hash());
    b2.play_unchecked(mv(&b2, "g1h1"));
    let (result, _) = search_with(&mut engine(), &b2, &history, &depth(6));
    assert_eq!(result.best, Some(mv(&b2, "g8h8")));
    assert_eq!(result.lines[0].score, Score::Cp(0), "{:?}", result.lines[0]);
}

#[test]
fn halfmove_clock_limits_history_repetitions() {
    // Same as above, but the root says a pawn move just happened (halfmove clock 0):
    // older history cannot repeat, so Kg8-h8 is no draw and Black, a rook down, scores badly.
    let mut history = Vec::new();
    let mut b = board("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
    for uci in ["g1h1", "g8h8", "h1g1", "h8g8", "g1h1"] {
        history.push(b.zobrist_hash());
        let m = mv(&b, uci);
        b.play_unchecked(m);
    }
    let fen_zero_clock = "6kk/8/8/8/8/8/8/R6K b - - 0 3".replace("6kk", "6k1");
    let fresh = board(&fen_zero_clock);
    assert_eq!(fresh.zobrist_hash(), b.zobrist_hash());
    let (result, _) = search_with(&mut engine(), &fresh, &history, &depth(6));
    let Score::Cp(cp) = result.lines[0].score else {
        panic!("{:?}", result.lines[0].score)
    };
    assert!(cp < -200, "{cp}");
}

#[test]
fn movetime_is_respected() {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    // The table is allocated before the clock starts, as a UCI engine does at startup.
    let mut e = engine();
    let start = Instant::now();
    let (result, _) = search_with(&mut e, &b, &[], &limits);
    let elapsed = start.elapsed();
    assert!(result.best.is_some());
    assert!(elapsed < Duration::from_millis(150), "{elapsed:?}");
    assert!(elapsed >= Duration::from_millis(50), "{elapsed:?}");
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let b = Board::default();
    let control = SearchControl::new(false);
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut e = engine();
    let (elapsed_after_stop, result) = std::thread::scope(|s| {
        let handle = s.spawn(|| {
            let result = e.search(&b, &[], &limits, &control, &mut |_| {});
            (Instant::now(), result)
        });
        std::thread::sleep(Duration::from_millis(200));
        let stopped_at = Instant::now();
        control.stop();
        let (returned_at, result) = handle.join().unwrap();
        (returned_at.duration_since(stopped_at), result)
    });
    assert!(result.best.is_some());
    assert!(
        elapsed_after_stop < Duration::from_millis(50),
        "{elapsed_after_stop:?}"
    );
}

#[test]
fn pondering_and_endless_searches_wait_for_stop() {
    // A mate in one is found at once, but a pondering search must still wait.
    let b = board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    for (pondering, limits) in [
        (true, depth(3)),
        (false, Limits::default()),
        (
            false,
            Limits {
                infinite: true,
                ..Limits::default()
            },
        ),
    ] {
        let control = SearchControl::new(pondering);
        let mut e = engine();
        let start = Instant::now();
        let result = std::thread::scope(|s| {
            let handle = s.spawn(|| e.search(&b, &[], &limits, &control, &mut |_| {}));
            std::thread::sleep(Duration::from_millis(150));
            assert!(!handle.is_finished(), "returned before stop");
            control.stop();
            handle.join().unwrap()
        });
        assert!(start.elapsed() >= Duration::from_millis(150));
        assert_eq!(result.best, Some(mv(&b, "d1d8")));
    }
}

#[test]
fn ponderhit_starts_the_clock() {
    let b = Board::default();
    let control = SearchControl::new(true);
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let mut e = engine();
    std::thread::scope(|s| {
        let handle = s.spawn(|| e.search(&b, &[], &limits, &control, &mut |_| {}));
        std::thread::sleep(Duration::from_millis(200));
        assert!(!handle.is_finished(), "pondering ignored the time limit");
        let hit = Instant::now();
        control.ponderhit();
        let result = handle.join().unwrap();
        let after = hit.elapsed();
        assert!(result.best.is_some());
        assert!(after >= Duration::from_millis(60), "{after:?}");
        assert!(after < Duration::from_millis(160), "{after:?}");
    });
}

#[test]
fn bench_is_deterministic() {
    let first = pychess_engine::bench(5);
    let second = pychess_engine::bench(5);
    assert_eq!(first.nodes, second.nodes);
    assert!(first.nodes > 1000);
}

#[test]
fn searchmoves_restrict_the_root() {
    let b = Board::default();
    let only = vec![mv(&b, "a2a3"), mv(&b, "h2h4")];
    let limits = Limits {
        depth: Some(5),
        searchmoves: only.clone(),
        ..Limits::default()
    };
    let (result, infos) = search_with(&mut engine(), &b, &[], &limits);
    assert!(only.contains(&result.best.unwrap()));
    for info in &infos {
        assert!(only.contains(&info.pv[0]));
    }
}

#[test]
fn multipv_reports_distinct_root_moves() {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut e = Engine::new(EngineOptions {
        multipv: 4,
        ..EngineOptions::default()
    });
    let (result, infos) = search_with(&mut e, &b, &[], &depth(6));
    assert_eq!(result.lines.len(), 4);
    let firsts: std::collections::HashSet<_> = result.lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(firsts.len(), 4);
    for (i, line) in result.lines.iter().enumerate() {
        assert_eq!(line.multipv as usize, i + 1);
        assert_eq!(line.bound, Bound::Exact);
    }
    let score = |s: Score| match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) => 100_000 * n.signum(),
    };
    for pair in result.lines.windows(2) {
        assert!(score(pair[0].score) >= score(pair[1].score));
    }
    assert_eq!(result.best, Some(result.lines[0].pv[0]));
    for info in &infos {
        assert_pv_legal(&b, &info.pv);
    }
    // More lines than legal moves: one line per move.
    let b = board("7k/8/8/8/8/8/8/K7 w - - 0 1");
    let mut e = Engine::new(EngineOptions {
        multipv: 10,
        ..EngineOptions::default()
    });
    let (result, _) = search_with(&mut e, &b, &[], &depth(3));
    assert_eq!(result.lines.len(), 3);
}

#[test]
fn every_reported_pv_is_legal_and_infos_are_sane() {
    let mut e = engine();
    for (fen, chess960) in pychess_engine::BENCH_FENS.iter().step_by(4) {
        let b = Board::from_fen(fen, *chess960).unwrap();
        let (result, infos) = search_with(&mut e, &b, &[], &depth(7));
        assert!(!infos.is_empty());
        for info in &infos {
            assert_pv_legal(&b, &info.pv);
            assert!(!info.pv.is_empty());
            assert!(info.hashfull <= 1000);
            assert!(info.seldepth >= 1);
        }
        let best = result.best.unwrap();
        assert!(b.legal_moves().contains(&best));
        if let Some(ponder) = result.ponder {
            assert!(b.after(best).legal_moves().contains(&ponder));
        }
    }
}

#[test]
fn tiny_limits_still_return_a_legal_move() {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    for limits in [
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        Limits {
            movetime: Some(Duration::from_millis(1)),
            ..Limits::default()
        },
        Limits {
            clock: Some(pychess_engine::Clock {
                time_left: Duration::from_millis(5),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        },
    ] {
        let (result, _) = search_with(&mut engine(), &b, &[], &limits);
        assert!(b.legal_moves().contains(&result.best.unwrap()));
    }
    // Stopped before the search even starts.
    let control = SearchControl::new(false);
    control.stop();
    let result = engine().search(&b, &[], &Limits::default(), &control, &mut |_| {});
    assert!(b.legal_moves().contains(&result.best.unwrap()));
}

#[test]
fn mate_limit_stops_the_search() {
    let b = board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let limits = Limits {
        mate: Some(1),
        ..Limits::default()
    };
    let start = Instant::now();
    let (result, _) = search_with(&mut engine(), &b, &[], &limits);
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(result.lines[0].score, Score::Mate(1));
}

#[test]
fn node_limit_is_respected() {
    let b = Board::default();
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let (result, infos) = search_with(&mut engine(), &b, &[], &limits);
    assert!(result.best.is_some());
    assert!(infos.iter().all(|i| i.nodes <= 20_000));
}

#[test]
fn threads_and_skill_levels_give_legal_moves() {
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let mut e = Engine::new(EngineOptions {
        threads: 2,
        ..EngineOptions::default()
    });
    let (result, infos) = search_with(&mut e, &b, &[], &depth(8));
    assert!(b.legal_moves().contains(&result.best.unwrap()));
    assert_eq!(infos.last().unwrap().depth, 8);
    for level in [0, 5, 10, 19] {
        let mut e = Engine::new(EngineOptions {
            skill_level: level,
            ..EngineOptions::default()
        });
        let limits = Limits {
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        };
        let (first, _) = search_with(&mut e, &b, &[], &limits);
        assert!(b.legal_moves().contains(&first.best.unwrap()));
    }
    let mut e = Engine::new(EngineOptions {
        limit_elo: Some(1500),
        ..EngineOptions::default()
    });
    let (weak, _) = search_with(&mut e, &b, &[], &depth(20));
    assert!(b.legal_moves().contains(&weak.best.unwrap()));
}

#[test]
fn absurd_inputs_do_not_panic() {
    let b = Board::default();
    let mut e = Engine::new(EngineOptions {
        hash_mb: 0,
        threads: 0,
        multipv: 0,
        ..EngineOptions::default()
    });
    let huge = Limits {
        depth: Some(u32::MAX),
        movetime: Some(Duration::from_millis(30)),
        clock: Some(pychess_engine::Clock {
            time_left: Duration::MAX,
            increment: Duration::MAX,
            moves_to_go: Some(0),
        }),
        ..Limits::default()
    };
    let (result, _) = search_with(&mut e, &b, &[], &huge);
    assert!(result.best.is_some());
    let zero = Limits {
        depth: Some(0),
        ..Limits::default()
    };
    let (result, _) = search_with(&mut e, &b, &[], &zero);
    assert!(result.best.is_some());
    // A clock near zero with a huge increment and a history longer than the clock.
    let clock = Limits {
        clock: Some(pychess_engine::Clock {
            time_left: Duration::ZERO,
            increment: Duration::from_secs(1_000_000_000),
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let history = vec![0x1234u64; 500];
    let start = Instant::now();
    let (result, _) = search_with(&mut e, &b, &history, &clock);
    assert!(result.best.is_some());
    assert!(start.elapsed() < Duration::from_secs(2));
}

/// The scores and node counts of a depth-limited search, which depend on the evaluation.
fn fingerprint(engine: &mut Engine, board: &Board) -> Vec<(Score, u64)> {
    let (_, infos) = search_with(engine, board, &[], &depth(5));
    infos.iter().map(|i| (i.score, i.nodes)).collect()
}

#[test]
fn the_default_evaluation_is_the_builtin_network_and_use_nnue_off_evaluates_by_hand() {
    let kiwipete = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut default = engine();
    assert!(std::sync::Arc::ptr_eq(
        default.network().unwrap(),
        &pychess_engine::nnue::Network::builtin()
    ));
    let by_network = fingerprint(&mut default, &kiwipete);
    let mut by_hand = engine();
    by_hand.set_network(None);
    assert_ne!(by_network, fingerprint(&mut by_hand, &kiwipete));
}

/// The strength levels were calibrated on the hand-written evaluation: with a level set,
/// the search is the same whatever network is loaded.
#[test]
fn strength_levels_evaluate_by_hand() {
    let kiwipete = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPPP/R3K2R w KQkq - 0 1");
    let leveled = EngineOptions {
        skill_level: 12,
        ..EngineOptions::default()
    };
    let mut with_network = Engine::new(leveled.clone());
    assert!(with_network.limits_strength());
    let mut by_hand = Engine::new(leveled.clone());
    by_hand.set_network(None);
    assert_eq!(
        fingerprint(&mut with_network, &kiwipete),
        fingerprint(&mut by_hand, &kiwipete)
    );
    // `UCI_LimitStrength` at the top `UCI_Elo` searches at full strength, by hand: that
    // rating was measured on the hand-written evaluation.
    let top_elo = EngineOptions {
        limit_elo: Some(pychess_engine::skill::MAX_ELO),
        ..EngineOptions::default()
    };
    let mut at_the_top = Engine::new(top_elo);
    assert!(at_the_top.limits_strength());
    let mut full_by_hand = engine();
    full_by_hand.set_network(None);
    assert_eq!(
        fingerprint(&mut at_the_top, &kiwipete),
        fingerprint(&mut full_by_hand, &kiwipete)
    );
    // Back at full strength the network evaluates again (and the table, filled by the
    // other evaluation, is cleared).
    with_network.set_options(EngineOptions::default());
    assert!(!with_network.limits_strength());
    let mut fresh = engine();
    assert_eq!(
        fingerprint(&mut with_network, &kiwipete),
        fingerprint(&mut fresh, &kiwipete)
    );
}
