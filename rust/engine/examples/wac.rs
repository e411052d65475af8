//! `cargo run --release -p pychess-engine --example wac -- [ms per position] [nodes]`:
//! counts the Win At Chess positions whose best move (`bm`) the engine finds, searching each
//! for a fixed time (default 1000 ms) or, when a node count is given, for that many nodes.
//! Avoid moves (`am`) count as solved when the engine plays anything else.

use pychess_core::notation::epd::{parse_epd, Operand};
use pychess_engine::{Engine, EngineOptions, Limits, SearchControl};
use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let nodes: Option<u64> = args.next().and_then(|a| a.parse().ok());
    let path = ["/work/main/tests/data/wac.epd", "/work/shared/data/wac.epd"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(path) = path else {
        eprintln!("wac.epd not found");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 64,
        ..EngineOptions::default()
    });
    let (mut solved, mut total) = (0, 0);
    let mut failed = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok((board, ops)) = parse_epd(line, false) else {
            eprintln!("skipping unreadable line: {line}");
            continue;
        };
        let moves = |opcode: &str| -> Vec<pychess_core::Move> {
            ops.iter()
                .filter(|(op, _)| op == opcode)
                .flat_map(|(_, operand)| match operand {
                    Operand::Moves(moves) => moves.clone(),
                    Operand::Move(m) => vec![*m],
                    _ => Vec::new(),
                })
                .collect()
        };
        let (best, avoid) = (moves("bm"), moves("am"));
        if best.is_empty() && avoid.is_empty() {
            continue;
        }
        let id = ops
            .iter()
            .find(|(op, _)| op == "id")
            .map_or(String::new(), |(_, operand)| match operand {
                Operand::Text(t) => t.clone(),
                _ => String::new(),
            });
        let limits = match nodes {
            Some(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(Duration::from_millis(ms)),
                ..Limits::default()
            },
        };
        engine.clear();
        let result = engine.search(
            &board,
            &[],
            &limits,
            &SearchControl::new(false),
            &mut |_| {},
        );
        let played = result.best;
        let ok =
            played.is_some_and(|m| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m));
        total += 1;
        if ok {
            solved += 1;
        } else {
            failed.push(id);
        }
    }
    println!("failed: {}", failed.join(" "));
    match nodes {
        Some(n) => println!("WAC: {solved}/{total} solved at {n} nodes per position"),
        None => println!("WAC: {solved}/{total} solved at {ms} ms per position"),
    }
}
