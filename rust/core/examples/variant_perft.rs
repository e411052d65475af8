//! `cargo run --release --example variant_perft -- VARIANT [DEPTH] [FEN]`: native perft of a
//! chess variant with timing (`atomic`, `3check`, any name
//! `pychess_core::variant::Variant::find` knows; the variant's start position by default).
//! Standard chess has its own example, `perft`: in one binary with the variants, the standard
//! perft measured about 2.5% slower (code layout), which would blur its timings.

use pychess_core::variant::{Variant, VariantBoard};
use std::time::Instant;

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_default();
    let variant = Variant::find(&name).unwrap_or_else(|| fail(format!("unknown variant {name:?}")));
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(4);
    let fen: Vec<String> = args.collect();
    let board = if fen.is_empty() {
        VariantBoard::new(variant)
    } else {
        VariantBoard::from_fen(&fen.join(" "), variant, false)
            .unwrap_or_else(|e| fail(e.to_string()))
    };
    let start = Instant::now();
    let nodes = board.perft(depth);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {seconds:.3} s ({:.1} Mnps)",
        nodes as f64 / seconds / 1e6
    );
}
