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
