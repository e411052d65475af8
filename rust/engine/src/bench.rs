//! `bench`: a fixed-depth search of fixed positions whose node count is the search's
//! signature (any change that alters the search changes it), and a speed measurement.

use crate::api::{EngineOptions, Limits, SearchControl};
use crate::engine::Engine;
use pychess_core::Board;
use std::time::{Duration, Instant};

/// The bench positions: openings, middlegames, endgames and (last) a Chess960 start.
/// Each entry is (FEN, is Chess960).
pub const BENCH_FENS: [(&str, bool); 40] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        false,
    ),
    (
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        false,
    ),
    (
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
        false,
    ),
    (
        "rnbqk2r/ppp1ppbp/3p1np1/8/2PPP3/2N5/PP3PPP/R1BQKBNR w KQkq - 1 5",
        false,
    ),
    (
        "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR b KQkq - 3 4",
        false,
    ),
    (
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2P2N2/PP1P1PPP/RNBQK2R w KQkq - 3 5",
        false,
    ),
    (
        "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
        false,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        false,
    ),
    (
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 2 10",
        false,
    ),
    (
        "r1bq1rk1/pp3ppp/2nbpn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 8",
        false,
    ),
    (
        "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 2 11",
        false,
    ),
    (
        "r1b2rk1/2q1bppp/p2ppn2/1p6/3QP3/1BN1B3/PPP2PPP/R4RK1 w - - 0 12",
        false,
    ),
    (
        "2r3k1/pp3ppp/2n1b3/3pP3/3P4/P1r2N2/5PPP/R3R1K1 w - - 0 22",
        false,
    ),
    (
        "r1bqr1k1/ppp2pbp/2np1np1/4p3/2PPP3/2N1BP2/PP2N1PP/R2QKB1R w KQ - 3 9",
        false,
    ),
    (
        "3r1rk1/p4ppp/1qp1b3/4P3/2Q5/2N5/PP3PPP/R4RK1 w - - 0 18",
        false,
    ),
    (
        "r2qr1k1/1p1nbppp/p1pp1n2/4p3/P2PP1b1/2N1BN2/1PP1BPPP/R2Q1RK1 w - - 4 11",
        false,
    ),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", false),
    ("8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1", false),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    ("8/8/1p1k4/p2p4/P2P4/1P2K3/8/8 w - - 0 1", false),
    ("8/5pk1/6p1/7p/3R3P/6P1/r4PK1/8 w - - 0 40", false),
    ("8/8/3k4/8/8/3K4/3P4/8 w - - 0 1", false),
    ("8/4kp2/6p1/3P4/4K3/8/6PP/8 w - - 0 1", false),
    ("3k4/8/8/8/8/8/2Q5/K7 w - - 0 1", false),
    ("8/8/8/8/5k2/8/1R6/4K3 w - - 0 1", false),
    ("6k1/8/6K1/6P1/8/8/8/8 w - - 0 1", false),
    (
        "r1bq1rk1/pppp1ppp/2n2n2/4p3/1bB1P3/2NP1N2/PPP2PPP/R1BQK2R w KQ - 3 6",
        false,
    ),
    (
        "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 6 8",
        false,
    ),
    (
        "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
        false,
    ),
    (
        "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
        false,
    ),
    (
        "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
        false,
    ),
    ("6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1", false),
    (
        "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
        false,
    ),
    ("2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 4", false),
    ("8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1", false),
    ("7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1", false),
    (
        "r3k2r/pp3ppp/2n1b3/q1pp4/8/P1P1PN2/1P2BPPP/R2QK2R w KQkq - 0 12",
        false,
    ),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
];

/// What a bench run measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions (deterministic for a given build and depth).
    pub nodes: u64,
    /// Wall time of the searches.
    pub elapsed: Duration,
    /// Nodes per second.
    pub nps: u64,
}

fn bench_engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 16,
        threads: 1,
        ..EngineOptions::default()
    })
}

/// The depths a bench may be asked for (every front end checks through [`check_bench_depth`]).
pub const BENCH_DEPTHS: std::ops::RangeInclusive<u32> = 1..=30;

/// The bench's default depth: the one whose node count is the search's signature.
pub const BENCH_DEFAULT_DEPTH: u32 = 8;

/// A bench depth outside [`BENCH_DEPTHS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchDepthError(pub i64);

impl std::fmt::Display for BenchDepthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "depth must be in {}..{}, got {}",
            BENCH_DEPTHS.start(),
            BENCH_DEPTHS.end(),
            self.0
        )
    }
}

impl std::error::Error for BenchDepthError {}

/// `depth` if a bench may search to it.
///
/// ```
/// use pychess_engine::check_bench_depth;
/// assert_eq!(check_bench_depth(8), Ok(8));
/// assert_eq!(check_bench_depth(0).unwrap_err().to_string(), "depth must be in 1..30, got 0");
/// ```
pub fn check_bench_depth(depth: i64) -> Result<u32, BenchDepthError> {
    u32::try_from(depth)
        .ok()
        .filter(|d| BENCH_DEPTHS.contains(d))
        .ok_or(BenchDepthError(depth))
}

/// Searches every [`BENCH_FENS`] position to `depth` plies with a fresh single-threaded
/// engine (table cleared between positions), so the node count is the same on every run:
/// the signature, with the default evaluation (the built-in network).
pub fn bench(depth: u32) -> BenchResult {
    bench_with_network(depth, Some(crate::nnue::Network::builtin()))
}

/// [`bench`] evaluating with `network` (`None`: the hand-written evaluation).
pub fn bench_with_network(
    depth: u32,
    network: Option<std::sync::Arc<crate::nnue::Network>>,
) -> BenchResult {
    let mut engine = bench_engine();
    engine.set_network(network);
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    timed_searches(&mut engine, BENCH_FENS.iter(), &limits)
}

/// Nodes per second of `threads` threads searching the first few bench positions for
/// `per_position` each (a throughput figure, not deterministic).
pub fn search_speed(per_position: Duration, threads: usize) -> BenchResult {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 64,
        threads: threads.max(1),
        ..EngineOptions::default()
    });
    let limits = Limits {
        movetime: Some(per_position),
        ..Limits::default()
    };
    timed_searches(&mut engine, BENCH_FENS.iter().step_by(5), &limits)
}

/// Searches each position with a cleared table and adds up the nodes and the time.
fn timed_searches<'a>(
    engine: &mut Engine,
    positions: impl Iterator<Item = &'a (&'a str, bool)>,
    limits: &Limits,
) -> BenchResult {
    let mut nodes = 0;
    let start = Instant::now();
    for &(fen, chess960) in positions {
        let Ok(board) = Board::from_fen_strict(fen, chess960) else {
            continue;
        };
        engine.clear();
        let control = SearchControl::new(false);
        nodes += engine.run(&board, &[], limits, &control, &mut |_| {}).nodes;
    }
    let elapsed = start.elapsed();
    BenchResult {
        nodes,
        elapsed,
        nps: (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_position_is_valid() {
        for (fen, chess960) in BENCH_FENS {
            let board =
                Board::from_fen_strict(fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(board.has_legal_moves(), "{fen}");
        }
    }
}
