//! `cargo run --release -p pychess-engine --example bench [depth]`: the bench signature.

fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(10);
    let result = pychess_engine::bench(depth);
    println!(
        "depth {depth}: {} nodes in {} ms, {} nps",
        result.nodes,
        result.elapsed.as_millis(),
        result.nps
    );
}
