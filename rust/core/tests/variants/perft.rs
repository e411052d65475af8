//! The variant perft tables of `tests/data/variants/` (counts from Fairy-Stockfish, see the
//! files' headers): every position, every depth under a node cap that keeps each variant to
//! a few seconds. `PERFT_MAX_NODES` raises the cap.

use pychess_core::perft::parse_suite_line;
use pychess_core::variant::{Variant, VariantBoard};
use std::path::PathBuf;

const DEFAULT_MAX_NODES: u64 = 400_000;

fn run(variant: Variant) {
    let max_nodes = std::env::var("PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_NODES);
    let file = format!("{}.epd", variant.uci_name());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/variants")
        .join(&file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let parsed = parse_suite_line(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let Some(entry) = parsed else { continue };
        let board = VariantBoard::from_fen(&entry.fen, variant, false)
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        for &(depth, nodes) in entry.counts.iter().filter(|(_, n)| *n <= max_nodes) {
            let got = board.perft(depth);
            checked += 1;
            if got != nodes {
                failures.push(format!(
                    "{file}:{} {} D{depth}: expected {nodes}, got {got}",
                    i + 1,
                    entry.fen
                ));
            }
        }
    }
    assert!(checked >= 8, "{file}: only {checked} counts checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

per_variant!(run);
