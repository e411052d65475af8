//! `cargo run --release --example perft -- [DEPTH] [FEN]`: native perft with timing.

use pychess_core::{perft, Board};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen: Vec<String> = args.collect();
    let board = if fen.is_empty() {
        Board::default()
    } else {
        match Board::from_fen(&fen.join(" "), false) {
            Ok(board) => board,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    let start = Instant::now();
    let nodes = perft(&board, depth);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {seconds:.3} s ({:.1} Mnps)",
        nodes as f64 / seconds / 1e6
    );
}
