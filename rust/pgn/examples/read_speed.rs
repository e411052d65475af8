//! Times the bulk reader on a PGN file: `cargo run --release -p pychess-pgn --example
//! read_speed -- FILE [THREADS]`. Prints games, plies, seconds, games/s and MB/s, once for
//! cutting the input into games only and once for reading them fully.

use pychess_pgn::reader::{open_path, Chunker, GameReader, ReadOptions};
use std::time::Instant;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: read_speed FILE [THREADS]");
    let threads: usize = args
        .next()
        .map_or(1, |t| t.parse().expect("THREADS is a number"));
    let size = std::fs::metadata(&path)?.len() as f64;

    let start = Instant::now();
    let mut chunker = Chunker::new(open_path(path.as_ref())?);
    let mut games = 0usize;
    while let Some(batch) = chunker.next_batch(256 << 10)? {
        games += batch.games.len();
    }
    let split = start.elapsed().as_secs_f64();
    println!(
        "split: {games} games in {split:.3} s, {:.1} MB/s",
        size / 1e6 / split
    );

    let start = Instant::now();
    let reader = GameReader::new(
        Chunker::new(open_path(path.as_ref())?),
        ReadOptions::default(),
        threads,
    );
    let (mut games, mut plies) = (0usize, 0usize);
    for record in reader {
        games += 1;
        plies += record?.moves.len();
    }
    let read = start.elapsed().as_secs_f64();
    println!(
        "read:  {games} games, {plies} plies in {read:.3} s: {:.0} games/s, {:.1} MB/s, {:.0} ns/ply",
        games as f64 / read,
        size / 1e6 / read,
        read * 1e9 / plies as f64
    );
    Ok(())
}
