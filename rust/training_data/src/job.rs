//! A writing run: a source of games (PGN or self-play), worker threads that turn each game
//! into records, and the caller's thread writing them in the source's order.
//!
//! [`Job::advance`] hands over a number of games at a time, so that a front end can show
//! progress between calls (and release its interpreter lock during them); [`Job::finish`]
//! closes the output. Dropping a job stops its threads after the game each is on.

use crate::alphazero::{self, ALPHAZERO_COLUMNS};
use crate::error::Error;
use crate::lc0::{V6Record, LC0_PLANE_VALUES};
use crate::nnue::NnueFormat;
use crate::npy::NpyWriter;
use crate::pgn_source::{read_batch, PgnGame};
use crate::sample::{Filters, Skip, Stats};
use crate::selfplay::{self, play_game, PlayedGame, SelfPlayOptions};
use flate2::write::GzEncoder;
use flate2::Compression;
use pychess_core::Game;
use pychess_engine::{Engine, EngineOptions, Limits};
use pychess_pgn::reader::{open_path, Batch, Chunker};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where the games come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// A PGN file (plain, or gzip/bzip2/zstd by its magic bytes).
    Pgn(PathBuf),
    /// The built-in engine's self-play.
    SelfPlay(SelfPlayOptions),
}

/// What is written, and where.
#[derive(Clone, Debug)]
pub enum Output {
    /// One file of 32-byte NNUE records.
    Nnue {
        /// The layout.
        format: NnueFormat,
        /// The file.
        path: PathBuf,
        /// Append to the file (which must hold whole records) instead of replacing it.
        append: bool,
    },
    /// A directory of gzip chunks of Lc0 V6 records, `training.<n>.gz`.
    Lc0 {
        /// The directory (created if missing).
        dir: PathBuf,
        /// Games per chunk file (Lc0 writes one).
        games_per_chunk: u64,
    },
    /// A directory of `.npy` files: AlphaZero planes, legal-move masks, moves, outcomes.
    AlphaZero {
        /// The directory (created if missing).
        dir: PathBuf,
    },
}

/// A run's settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where games come from.
    pub source: Source,
    /// What is written.
    pub output: Output,
    /// Which positions are left out.
    pub filters: Filters,
    /// PGN to NNUE only: search positions that have no `[%eval]` with the built-in engine to
    /// these limits (`None`: such positions get the score 0, the result alone labels them).
    pub engine: Option<(Option<u64>, Option<u32>)>,
    /// Worker threads (at least one).
    pub threads: usize,
}

/// What one game became: bytes for each output column, and its counts.
struct GameOut {
    columns: Vec<Vec<u8>>,
    stats: Stats,
}

/// A unit of work: a batch of PGN games or one self-play game, numbered in source order.
enum Task {
    Pgn(Batch),
    SelfPlay(u64),
}

/// The outcome of a task: its games and how far into the input it reached.
type Done = (u64, Result<(Vec<GameOut>, u64), Error>);

/// A running job.
pub struct Job {
    options: Arc<Options>,
    results: Option<Receiver<Done>>,
    pending: BTreeMap<u64, Result<(Vec<GameOut>, u64), Error>>,
    next: u64,
    sink: Option<Sink>,
    stats: Stats,
    input_done: u64,
    finished: bool,
    handles: Vec<JoinHandle<()>>,
}

/// Bytes of PGN a task holds.
const BATCH_BYTES: usize = 128 << 10;

impl Job {
    /// Checks the options, opens the input and the output, and starts the threads.
    ///
    /// # Errors
    /// [`Error::Io`] when the input cannot be opened or the output created;
    /// [`Error::Option`] for settings out of range.
    pub fn start(options: Options) -> Result<Job, Error> {
        check(&options)?;
        let tasks: Box<dyn FnMut() -> Option<Result<Task, Error>> + Send> = match &options.source {
            Source::Pgn(path) => {
                let source = open_path(path).map_err(|e| Error::io(path, e))?;
                let mut chunker = Chunker::new(source);
                let path = path.clone();
                Box::new(move || match chunker.next_batch(BATCH_BYTES) {
                    Ok(Some(batch)) => Some(Ok(Task::Pgn(batch))),
                    Ok(None) => None,
                    Err(e) => Some(Err(Error::io(&path, e))),
                })
            }
            Source::SelfPlay(play) => {
                let (first, games) = (play.first_game, play.games);
                let mut next = 0;
                Box::new(move || {
                    (next < games).then(|| {
                        next += 1;
                        Ok(Task::SelfPlay(first + next - 1))
                    })
                })
            }
        };
        let sink = Sink::create(&options.output)?;
        let options = Arc::new(options);
        let threads = options.threads.max(1);
        let (work_tx, work_rx) = sync_channel::<(u64, Task)>(threads * 2);
        let (done_tx, done_rx) = sync_channel::<Done>(threads * 4);
        let mut handles = Vec::with_capacity(threads + 1);
        let feeder_done = done_tx.clone();
        let mut tasks = tasks;
        handles.push(std::thread::spawn(move || {
            let mut seq = 0;
            while let Some(task) = tasks() {
                match task {
                    Ok(task) => {
                        if work_tx.send((seq, task)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = feeder_done.send((seq, Err(e)));
                        return;
                    }
                }
                seq += 1;
            }
        }));
        let work_rx = Arc::new(Mutex::new(work_rx));
        for _ in 0..threads {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            let mut worker = Worker::new(Arc::clone(&options));
            handles.push(std::thread::spawn(move || loop {
                let task = match work_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => return,
                };
                let Ok((seq, task)) = task else { return };
                // A panic is a bug, but it must end the run with an error, not leave a
                // hole in the output that the ordering would wait for.
                let done = catch_unwind(AssertUnwindSafe(|| worker.run(task)))
                    .unwrap_or_else(|payload| Err(Error::Worker(panic_text(payload.as_ref()))));
                if done_tx.send((seq, done)).is_err() {
                    return;
                }
            }));
        }
        Ok(Job {
            options,
            results: Some(done_rx),
            pending: BTreeMap::new(),
            next: 0,
            sink: Some(sink),
            stats: Stats::default(),
            input_done: 0,
            finished: false,
            handles,
        })
    }

    /// Writes the next games (about `max_games`; a PGN batch is taken whole). Returns
    /// `true` once every game is written.
    ///
    /// # Errors
    /// The input's read error, or the output's write error; the job is finished then.
    pub fn advance(&mut self, max_games: u64) -> Result<bool, Error> {
        let mut games = 0;
        while !self.finished && games < max_games.max(1) {
            let Some(done) = self.next_done() else {
                self.finished = true;
                break;
            };
            let (outs, input_done) = match done {
                Ok(done) => done,
                Err(e) => {
                    self.finished = true;
                    return Err(e);
                }
            };
            self.input_done = self.input_done.max(input_done);
            let sink = self.sink.as_mut().expect("the sink lives until finish");
            for out in &outs {
                games += 1;
                let mut stats = out.stats.clone();
                stats.bytes = sink.write(out)?;
                self.stats.add(&stats);
            }
        }
        Ok(self.finished)
    }

    fn next_done(&mut self) -> Option<Result<(Vec<GameOut>, u64), Error>> {
        loop {
            if let Some(done) = self.pending.remove(&self.next) {
                self.next += 1;
                return Some(done);
            }
            match self.results.as_ref()?.recv() {
                Ok((seq, done)) => {
                    self.pending.insert(seq, done);
                }
                // Every sender is gone: all tasks are in.
                Err(_) => return None,
            }
        }
    }

    /// The counts so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// How far into the (decompressed) PGN input the written games reach, in bytes; for
    /// self-play, the games written.
    pub fn progress(&self) -> u64 {
        match self.options.source {
            Source::Pgn(_) => self.input_done,
            Source::SelfPlay(_) => self.stats.games,
        }
    }

    /// Writes what remains and closes the output; the counts of the whole run.
    ///
    /// # Errors
    /// As [`Job::advance`].
    pub fn finish(mut self) -> Result<Stats, Error> {
        while !self.advance(u64::MAX)? {}
        if let Some(sink) = self.sink.take() {
            sink.finish()?;
        }
        Ok(self.stats.clone())
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // Closing the result channel makes every thread stop after its current task.
        self.results = None;
        for handle in self.handles.drain(..) {
            let _ = handle.join();
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

fn check(options: &Options) -> Result<(), Error> {
    let bad = |name, reason: &str| {
        Err(Error::Option {
            name,
            reason: reason.to_string(),
        })
    };
    if let Source::SelfPlay(play) = &options.source {
        if play.nodes.is_none() && play.depth.is_none() {
            return bad("nodes", "self-play needs a node or depth limit per move");
        }
        if play.nodes == Some(0) || play.depth == Some(0) {
            return bad("nodes", "the limit per move must be at least 1");
        }
    }
    if let Some((nodes, depth)) = options.engine {
        if nodes.is_none() && depth.is_none() || nodes == Some(0) || depth == Some(0) {
            return bad(
                "engine",
                "scoring needs a node or depth limit of at least 1",
            );
        }
    }
    if let Output::Lc0 {
        games_per_chunk: 0, ..
    } = options.output
    {
        return bad("games_per_chunk", "must be at least 1");
    }
    Ok(())
}

/// The per-thread state: an engine where searches are needed, scratch buffers.
struct Worker {
    options: Arc<Options>,
    engine: Option<Engine>,
    limits: Limits,
    planes: Vec<f32>,
}

impl Worker {
    fn new(options: Arc<Options>) -> Worker {
        let (nodes, depth) = match (&options.source, &options.output, options.engine) {
            (Source::SelfPlay(play), _, _) => (play.nodes, play.depth),
            (Source::Pgn(_), Output::Nnue { .. }, Some(limits)) => limits,
            _ => (None, None),
        };
        let engine = (nodes.is_some() || depth.is_some()).then(|| {
            Engine::new(EngineOptions {
                threads: 1,
                hash_mb: 16,
                ..EngineOptions::default()
            })
        });
        Worker {
            options,
            engine,
            limits: selfplay::limits(nodes, depth),
            // Scratch planes for Lc0's 112 x 64 values or AlphaZero's 8 x 8 x 119.
            planes: vec![0.0; alphazero::PLANE_VALUES.max(LC0_PLANE_VALUES)],
        }
    }

    fn run(&mut self, task: Task) -> Result<(Vec<GameOut>, u64), Error> {
        match task {
            Task::Pgn(batch) => {
                let end = batch.offset + batch.data.len() as u64;
                let games = read_batch(&batch);
                Ok((games.iter().map(|g| self.pgn_game(g)).collect(), end))
            }
            Task::SelfPlay(index) => {
                let Source::SelfPlay(play) = &self.options.source else {
                    unreachable!("self-play tasks come from a self-play source")
                };
                let play = play.clone();
                let engine = self.engine.as_mut().expect("self-play has an engine");
                let game = play_game(engine, &play, index);
                Ok((
                    vec![self.convert(&game, false)],
                    index + 1 - play.first_game,
                ))
            }
        }
    }

    fn pgn_game(&mut self, game: &PgnGame) -> GameOut {
        let Some(result) = game.usable_result() else {
            return GameOut {
                columns: Vec::new(),
                stats: Stats {
                    games: 1,
                    games_skipped: 1,
                    ..Stats::default()
                },
            };
        };
        // The eval after move k scores the position before move k + 1.
        let mut scores = Vec::with_capacity(game.evals.len());
        scores.push(None);
        scores.extend(game.evals.iter().take(game.evals.len().saturating_sub(1)));
        let played = PlayedGame {
            start: game.start().clone(),
            moves: game.moves().to_vec(),
            scores,
            recorded_from: 0,
            result,
        };
        self.convert(&played, true)
    }

    /// The records of a game's positions (one per move played).
    fn convert(&mut self, game: &PlayedGame, from_pgn: bool) -> GameOut {
        let options = Arc::clone(&self.options);
        let filters = &options.filters;
        let columns = match options.output {
            Output::Nnue { .. } | Output::Lc0 { .. } => 1,
            Output::AlphaZero { .. } => ALPHAZERO_COLUMNS,
        };
        let mut out = GameOut {
            columns: vec![Vec::new(); columns],
            stats: Stats {
                games: 1,
                ..Stats::default()
            },
        };
        let stats = &mut out.stats;
        if from_pgn {
            if let Some(engine) = self.engine.as_mut() {
                engine.clear();
            }
        }
        let mut history = Game::new(game.start.clone());
        let total = game.moves.len();
        for (ply, &played) in game.moves.iter().enumerate() {
            if played.is_null() {
                // A null move: the positions after it are not a game any more.
                break;
            }
            if ply < game.recorded_from {
                history.play(played);
                continue;
            }
            stats.positions += 1;
            let board = history.board().clone();
            if let Some(skip) = filters.before_search(ply as u32, &board) {
                stats.skip(skip);
                history.play(played);
                continue;
            }
            let mut score = game.scores.get(ply).copied().flatten();
            let mut best = played;
            if score.is_some() && from_pgn {
                stats.scores_from_comments += 1;
            }
            if let (None, true, Some(engine)) = (score, from_pgn, self.engine.as_mut()) {
                if let Some((m, s)) = selfplay::search(engine, &history, &self.limits) {
                    best = m;
                    score = Some(s);
                    stats.scores_from_engine += 1;
                }
            }
            if let Some(skip) = filters.after_search(&board, best, score) {
                stats.skip(skip);
                history.play(played);
                continue;
            }
            let written = match &options.output {
                Output::Nnue { format, .. } => {
                    match format.encode(&board, score.unwrap_or(0), game.result) {
                        Ok(record) => {
                            out.columns[0].extend_from_slice(&record);
                            true
                        }
                        Err(_) => false,
                    }
                }
                Output::Lc0 { .. } => {
                    let left = (total - ply) as u32;
                    let planes = &mut self.planes[..LC0_PLANE_VALUES];
                    let record = V6Record::from_game(&history, played, game.result, left, planes);
                    record.write_to(&mut out.columns[0]);
                    true
                }
                Output::AlphaZero { .. } => {
                    let planes = &mut self.planes[..alphazero::PLANE_VALUES];
                    alphazero::append(&history, played, game.result, planes, &mut out.columns);
                    true
                }
            };
            if written {
                stats.written += 1;
            } else {
                stats.skip(Skip::Unencodable);
            }
            history.play(played);
        }
        if matches!(options.output, Output::Lc0 { .. }) && !out.columns[0].is_empty() {
            out.columns[0] = gzip(&out.columns[0]);
        }
        out
    }
}

/// `data` as one gzip member, at level 1: Lc0 records shrink about 40-fold at level 1 and 75-fold
/// at level 6, which takes about twice as long.
fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(data.len() / 16), Compression::fast());
    encoder
        .write_all(data)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

/// The open output.
enum Sink {
    Nnue {
        path: PathBuf,
        file: BufWriter<File>,
    },
    Lc0 {
        dir: PathBuf,
        games_per_chunk: u64,
        current: Option<BufWriter<File>>,
        games_in_chunk: u64,
        chunks: u64,
    },
    AlphaZero(Vec<NpyWriter>),
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
}

impl Sink {
    fn create(output: &Output) -> Result<Sink, Error> {
        Ok(match output {
            Output::Nnue {
                path,
                format,
                append,
            } => {
                let file = if *append {
                    open_for_append(path, *format)?
                } else {
                    File::create(path).map_err(|e| Error::io(path, e))?
                };
                Sink::Nnue {
                    path: path.clone(),
                    file: BufWriter::with_capacity(1 << 20, file),
                }
            }
            Output::Lc0 {
                dir,
                games_per_chunk,
            } => {
                create_dir(dir)?;
                Sink::Lc0 {
                    dir: dir.clone(),
                    games_per_chunk: *games_per_chunk,
                    current: None,
                    games_in_chunk: 0,
                    chunks: 0,
                }
            }
            Output::AlphaZero { dir } => {
                create_dir(dir)?;
                Sink::AlphaZero(alphazero::create(dir)?)
            }
        })
    }

    /// Writes a game's records; the bytes written.
    fn write(&mut self, out: &GameOut) -> Result<u64, Error> {
        let bytes: u64 = out.columns.iter().map(|c| c.len() as u64).sum();
        if bytes == 0 {
            return Ok(0);
        }
        match self {
            Sink::Nnue { path, file } => {
                file.write_all(&out.columns[0])
                    .map_err(|e| Error::io(path, e))?;
            }
            Sink::Lc0 {
                dir,
                games_per_chunk,
                current,
                games_in_chunk,
                chunks,
            } => {
                let path = dir.join(format!("training.{chunks}.gz"));
                if current.is_none() {
                    let file = File::create(&path).map_err(|e| Error::io(&path, e))?;
                    *current = Some(BufWriter::new(file));
                }
                // Each game is a gzip member of its own, compressed by its worker: a chunk
                // is their concatenation, which gzip readers take as one stream.
                let file = current.as_mut().expect("opened above");
                file.write_all(&out.columns[0])
                    .map_err(|e| Error::io(&path, e))?;
                *games_in_chunk += 1;
                if *games_in_chunk == *games_per_chunk {
                    close_chunk(current.take(), &path)?;
                    *games_in_chunk = 0;
                    *chunks += 1;
                }
            }
            Sink::AlphaZero(writers) => {
                for (writer, column) in writers.iter_mut().zip(&out.columns) {
                    writer.append(column)?;
                }
            }
        }
        Ok(bytes)
    }

    fn finish(self) -> Result<(), Error> {
        match self {
            Sink::Nnue { path, mut file } => file.flush().map_err(|e| Error::io(&path, e)),
            Sink::Lc0 {
                dir,
                current,
                chunks,
                ..
            } => close_chunk(current, &dir.join(format!("training.{chunks}.gz"))),
            Sink::AlphaZero(writers) => writers.into_iter().try_for_each(NpyWriter::finish),
        }
    }
}

/// `path` opened at its end, after checking that it holds whole records.
fn open_for_append(path: &Path, format: NnueFormat) -> Result<File, Error> {
    let file = File::options()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if len % crate::NNUE_RECORD_SIZE as u64 != 0 {
        return Err(Error::Length {
            format: format.name(),
            len: len as usize,
            record_size: crate::NNUE_RECORD_SIZE,
        });
    }
    Ok(file)
}

fn close_chunk(file: Option<BufWriter<File>>, path: &Path) -> Result<(), Error> {
    match file {
        Some(mut file) => file.flush().map_err(|e| Error::io(path, e)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::NNUE_RECORD_SIZE;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "pychess-training-data-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn run(source: Source, output: Output, threads: usize) -> Stats {
        let options = Options {
            source,
            output,
            filters: Filters::default(),
            engine: None,
            threads,
        };
        Job::start(options).unwrap().finish().unwrap()
    }

    #[test]
    fn pgn_games_in_order_on_any_thread_count() {
        let dir = scratch("pgn");
        let pgn = dir.join("games.pgn");
        let mut text = String::new();
        // About 300 KB: a few batches for the workers.
        for i in 0..5000 {
            let result = ["1-0", "0-1", "1/2-1/2", "*"][i % 4];
            text.push_str(&format!(
                "[Event \"{i}\"]\n[Result \"{result}\"]\n\n1. e4 e5 2. Nf3 {{ [%eval {}.{:02}] }} Nc6 {result}\n\n",
                i / 100,
                i % 100
            ));
        }
        std::fs::write(&pgn, text).unwrap();
        let mut files = Vec::new();
        for threads in [1, 3] {
            let path = dir.join(format!("{threads}.bin"));
            let output = Output::Nnue {
                format: NnueFormat::Marlin,
                path: path.clone(),
                append: false,
            };
            let stats = run(Source::Pgn(pgn.clone()), output, threads);
            assert_eq!((stats.games, stats.games_skipped), (5000, 1250));
            assert_eq!(stats.written, 3750 * 4);
            assert_eq!(stats.scores_from_comments, 3750);
            files.push(std::fs::read(&path).unwrap());
        }
        assert_eq!(files[0], files[1]);
        let records = NnueFormat::Marlin.decode_all(&files[0]).unwrap();
        assert_eq!(records.len() * NNUE_RECORD_SIZE, files[0].len());
        // The sixth game with a result is game 6 ("0.06" after Nf3): its fourth position.
        assert_eq!(records[5 * 4 + 3].score, 6);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_input_is_an_io_error() {
        let output = Output::Nnue {
            format: NnueFormat::Bullet,
            path: std::env::temp_dir().join("never-written.bin"),
            append: false,
        };
        let options = Options {
            source: Source::Pgn(PathBuf::from("/no/such/file.pgn")),
            output,
            filters: Filters::default(),
            engine: None,
            threads: 1,
        };
        assert!(matches!(Job::start(options), Err(Error::Io { .. })));
    }
}
