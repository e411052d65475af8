//! Times WDL and DTZ probes of the FENs in a file (one a line) against a table directory:
//! `cargo run --release -p pychess-syzygy --example probe_speed -- TABLES FENS [ROUNDS]`.
//! A tool for profiling the prober (`perf record` around it); `tools/bench.py --only syzygy`
//! is the measurement against python-chess.

use pychess_core::Board;
use pychess_syzygy::Tablebase;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, tables, fens, ..] = &args[..] else {
        eprintln!("usage: probe_speed TABLES FENS [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(10);
    let tb = Tablebase::new();
    tb.add_directory(tables.as_ref(), true, true)
        .expect("table directory");
    let boards: Vec<Board> = std::fs::read_to_string(fens)
        .expect("FEN file")
        .lines()
        .map(|l| Board::from_fen(l, false).expect("FEN"))
        .collect();
    for (name, dtz) in [("wdl", false), ("dtz", true)] {
        let start = Instant::now();
        let mut sum = 0i64;
        for _ in 0..rounds {
            for b in &boards {
                let v = if dtz {
                    tb.probe_dtz(b)
                } else {
                    tb.probe_wdl(b)
                };
                sum += i64::from(v.unwrap_or(0));
            }
        }
        let per = start.elapsed().as_secs_f64() / (rounds * boards.len()) as f64;
        println!("{name}: {:.2} us/probe (checksum {sum})", per * 1e6);
    }
}
