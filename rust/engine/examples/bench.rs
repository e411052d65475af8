//! `cargo run --release -p pychess-engine --example bench [depth] [network file | hce]`: the
//! bench signature (with the built-in network), or the same searches on another network or
//! with the hand-written evaluation (`hce`).

use pychess_engine::nnue::Network;
use std::sync::Arc;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(10);
    let network = match args.next().as_deref() {
        None => Some(Network::builtin()),
        Some("hce") => None,
        Some(path) => Some(Arc::new(Network::load(path).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }))),
    };
    let result = pychess_engine::bench_with_network(depth, network);
    println!(
        "depth {depth}: {} nodes in {} ms, {} nps",
        result.nodes,
        result.elapsed.as_millis(),
        result.nps
    );
}
