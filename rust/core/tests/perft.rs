//! The perft suites of `tests/data/` (copied from the shared data set): every position, every
//! depth whose node count is under a cap that keeps the run to about 20 s in release
//! mode on two cores. `PERFT_MAX_NODES` raises the cap for deeper runs (`pychess-rs perft
//! --suite` does the same through Python).

use pychess_core::perft::parse_suite_line;
use pychess_core::{perft, Board};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

const DEFAULT_MAX_NODES: u64 = 50_000_000;

struct Entry {
    line: usize,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn load(file: &str, max_nodes: u64) -> Vec<Entry> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let parsed = parse_suite_line(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", i + 1));
        let Some(entry) = parsed else { continue };
        for &(depth, nodes) in entry.counts.iter().filter(|(_, nodes)| *nodes <= max_nodes) {
            entries.push(Entry {
                line: i + 1,
                fen: entry.fen.clone(),
                depth,
                nodes,
            });
        }
    }
    entries
}

fn run_suite(file: &str, chess960: bool) {
    let max_nodes = std::env::var("PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_NODES);
    let entries = load(file, max_nodes);
    assert!(entries.len() > 100, "{file} looks truncated");
    let next = AtomicUsize::new(0);
    let failures: Vec<String> = thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(e) = entries.get(i) else { break };
                        let board = Board::from_fen(&e.fen, chess960)
                            .unwrap_or_else(|err| panic!("{file}:{}: {err}", e.line));
                        let got = perft(&board, e.depth);
                        if got != e.nodes {
                            failures.push(format!(
                                "{file}:{} {} D{}: expected {}, got {got}",
                                e.line, e.fen, e.depth, e.nodes
                            ));
                        }
                    }
                    failures
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn standard_suite() {
    run_suite("perft.epd", false);
}

#[test]
fn chess960_suite() {
    run_suite("perft960.epd", true);
}

/// Counting without listing (perft's last ply, `legal_moves.count()`) follows the same rules
/// as listing: checked on every suite position and on every position up to two plies below.
#[test]
fn counting_agrees_with_listing() {
    let mut checked = 0;
    for (file, chess960) in [("perft.epd", false), ("perft960.epd", true)] {
        let mut fens: Vec<String> = load(file, u64::MAX).into_iter().map(|e| e.fen).collect();
        fens.dedup();
        for fen in fens {
            let root = Board::from_fen(&fen, chess960).unwrap();
            let mut frontier = vec![root];
            for _ in 0..3 {
                let mut next = Vec::new();
                for board in &frontier {
                    let listed = board.legal_moves();
                    assert_eq!(board.count_legal_moves(), listed.len(), "{}", board.fen());
                    assert_eq!(board.has_legal_moves(), !listed.is_empty());
                    checked += 1;
                    next.extend(listed.iter().map(|&m| board.after(m)));
                }
                frontier = next;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
