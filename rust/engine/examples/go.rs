//! `cargo run --release -p pychess-engine --example go -- "<fen>" [depth] [threads]`: searches
//! one position and prints each report, for looking at the search by hand.

use pychess_core::Board;
use pychess_engine::{Engine, EngineOptions, Limits, SearchControl};

fn main() {
    let mut args = std::env::args().skip(1);
    let fen = args
        .next()
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into());
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(12);
    let threads = args.next().and_then(|t| t.parse().ok()).unwrap_or(1);
    let board = match Board::from_fen(&fen, false) {
        Ok(board) => board,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut engine = Engine::new(EngineOptions {
        threads,
        hash_mb: 64,
        ..EngineOptions::default()
    });
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = SearchControl::new(false);
    let result = engine.search(&board, &[], &limits, &control, &mut |info| {
        let pv = uci_line(&board, &info.pv);
        println!(
            "depth {} seldepth {} score {:?} {:?} nodes {} nps {} time {} hashfull {} pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.bound,
            info.nodes,
            info.nps,
            info.time_ms,
            info.hashfull,
            pv
        );
    });
    let best = result.best.map(|m| board.uci(m).to_string());
    let ponder = result
        .best
        .zip(result.ponder)
        .map(|(best, ponder)| board.after(best).uci(ponder).to_string());
    println!("bestmove {best:?} ponder {ponder:?}");
}

/// The line in UCI notation, each move written in the position it is played from.
fn uci_line(board: &Board, line: &[pychess_core::Move]) -> String {
    let mut board = board.clone();
    let mut words = Vec::new();
    for &m in line {
        words.push(board.uci(m).to_string());
        board.play_unchecked(m);
    }
    words.join(" ")
}
