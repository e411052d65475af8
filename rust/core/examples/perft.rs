//! `cargo run --release --example perft -- [--variant NAME] [DEPTH] [FEN]`: native perft with
//! timing, of standard chess or of a variant (`--variant atomic`, any name
//! `pychess_core::variant::Variant::find` knows; the variant's start position by default).

use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{perft, Board};
use std::time::Instant;

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut variant = None;
    if args.first().map(String::as_str) == Some("--variant") {
        let name = args.get(1).cloned().unwrap_or_default();
        variant =
            Some(Variant::find(&name).unwrap_or_else(|| fail(format!("unknown variant {name:?}"))));
        args.drain(..2);
    }
    let mut args = args.into_iter();
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen: Vec<String> = args.collect();
    let start = Instant::now();
    let nodes = match variant {
        None => {
            let board = if fen.is_empty() {
                Board::default()
            } else {
                Board::from_fen(&fen.join(" "), false).unwrap_or_else(|e| fail(e.to_string()))
            };
            perft(&board, depth)
        }
        Some(variant) => {
            let board = if fen.is_empty() {
                VariantBoard::new(variant)
            } else {
                VariantBoard::from_fen(&fen.join(" "), variant, false)
                    .unwrap_or_else(|e| fail(e.to_string()))
            };
            board.perft(depth)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {seconds:.3} s ({:.1} Mnps)",
        nodes as f64 / seconds / 1e6
    );
}
