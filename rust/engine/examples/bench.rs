//! `cargo run --release -p pychess-engine --example bench [depth] [network file]`: the bench
//! signature (with the hand-written evaluation), or the same searches on a network.

fn main() {
    let mut args = std::env::args().skip(1);
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(10);
    let network = args.next().map(|path| {
        std::sync::Arc::new(
            pychess_engine::nnue::Network::load(&path).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            }),
        )
    });
    let result = pychess_engine::bench_with_network(depth, network);
    println!(
        "depth {depth}: {} nodes in {} ms, {} nps",
        result.nodes,
        result.elapsed.as_millis(),
        result.nps
    );
}
