//! Training-data writers and readers for `pychess_rs.training_data`: glue over
//! `pychess_training_data`. A [`TrainingDataJob`] runs with the GIL released, a number of
//! games per `advance` call, so that Python can show progress in between.

use crate::errors::{Result, TrainingDataError};
use pychess_core::Board;
use pychess_training_data::job::{Job, Options, Output, Source};
use pychess_training_data::lc0::read_chunk_file;
use pychess_training_data::refilter::Children;
use pychess_training_data::{
    EngineCommand, Filters, NnueFilter, NnueFormat, NnueRescore, SearchLimit, SelfPlayOptions,
    Stats, Wdl,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

fn nnue_format(name: &str) -> PyResult<NnueFormat> {
    NnueFormat::parse(name).ok_or_else(|| {
        TrainingDataError::new_err(format!(
            "unknown NNUE format {name:?} (expected 'bullet' or 'marlin')"
        ))
    })
}

fn stats_dict<'py>(py: Python<'py>, stats: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in stats.fields() {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// A Rust run behind a Python object, advanced in steps from Python and then finished;
/// `what` names it in errors ("the filter is finished").
struct Run<T> {
    run: Mutex<Option<T>>,
    what: &'static str,
}

impl<T> Run<T> {
    fn new(run: T, what: &'static str) -> Run<T> {
        Run {
            run: Mutex::new(Some(run)),
            what,
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut T) -> R) -> PyResult<R> {
        let mut guard = self.lock()?;
        match guard.as_mut() {
            Some(run) => Ok(f(run)),
            None => Err(self.finished()),
        }
    }

    fn take(&self) -> PyResult<T> {
        self.lock()?.take().ok_or_else(|| self.finished())
    }

    fn lock(&self) -> PyResult<MutexGuard<'_, Option<T>>> {
        self.run
            .lock()
            .map_err(|_| TrainingDataError::new_err(format!("the {} failed earlier", self.what)))
    }

    fn finished(&self) -> PyErr {
        TrainingDataError::new_err(format!("the {} is finished", self.what))
    }
}

/// A running writer: games from a PGN file or self-play, records to a file or directory.
#[pyclass(module = "pychess_rs._core", name = "_TrainingDataJob")]
pub struct TrainingDataJob(Run<Job>);

#[pymethods]
impl TrainingDataJob {
    /// Starts a job. `source` is `"pgn"` (read `pgn`) or `"selfplay"`; `output` is
    /// `"bullet"`, `"marlin"`, `"lc0"` or `"alphazero"`, written to `out` (a file for the
    /// NNUE formats, a directory otherwise).
    #[new]
    #[pyo3(signature = (
        source, output, out, *, pgn = None, games = 0, first_game = 0, nodes = None, depth = None,
        random_plies = 8, seed = 0, max_plies = 400, engine_nodes = None, engine_depth = None,
        skip_plies = 0, skip_check = false, skip_noisy = false, max_score = None,
        games_per_chunk = 1, append = false, threads = 1
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        source: &str,
        output: &str,
        out: PathBuf,
        pgn: Option<PathBuf>,
        games: u64,
        first_game: u64,
        nodes: Option<u64>,
        depth: Option<u32>,
        random_plies: u32,
        seed: u64,
        max_plies: u32,
        engine_nodes: Option<u64>,
        engine_depth: Option<u32>,
        skip_plies: u32,
        skip_check: bool,
        skip_noisy: bool,
        max_score: Option<i16>,
        games_per_chunk: u64,
        append: bool,
        threads: usize,
    ) -> Result<TrainingDataJob> {
        let source = match (source, pgn) {
            ("pgn", Some(path)) => Source::Pgn(path),
            ("selfplay", None) => Source::SelfPlay(SelfPlayOptions {
                games,
                first_game,
                nodes,
                depth,
                random_plies,
                seed,
                max_plies,
            }),
            (other, _) => {
                return Err(TrainingDataError::new_err(format!(
                    "source {other:?} needs pgn= for 'pgn' and none for 'selfplay'"
                ))
                .into())
            }
        };
        let output = match output {
            "lc0" => Output::Lc0 {
                dir: out,
                games_per_chunk,
            },
            "alphazero" => Output::AlphaZero { dir: out },
            name => Output::Nnue {
                format: nnue_format(name)?,
                path: out,
                append,
            },
        };
        let engine = (engine_nodes.is_some() || engine_depth.is_some())
            .then_some((engine_nodes, engine_depth));
        let options = Options {
            source,
            output,
            filters: Filters {
                skip_plies,
                skip_check,
                skip_noisy,
                max_score,
            },
            engine,
            threads,
        };
        let job = py.detach(|| Job::start(options))?;
        Ok(TrainingDataJob(Run::new(job, "job")))
    }

    /// Writes about `max_games` more games; `True` once all are written.
    fn advance(&self, py: Python<'_>, max_games: u64) -> Result<bool> {
        Ok(py.detach(|| self.0.with(|job| job.advance(max_games)))??)
    }

    /// The counts so far, by name.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.0.with(|job| job.stats().clone())?;
        stats_dict(py, &stats)
    }

    /// Bytes of PGN consumed (PGN source) or games played (self-play).
    fn progress(&self) -> PyResult<u64> {
        self.0.with(|job| job.progress())
    }

    /// Writes the rest, closes the output; the run's counts.
    fn finish<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyDict>> {
        let job = self.0.take()?;
        let stats = py.detach(|| job.finish())?;
        Ok(stats_dict(py, &stats)?)
    }

    /// Stops the threads without finishing the output.
    fn close(&self, py: Python<'_>) {
        let job = self.0.run.lock().ok().and_then(|mut job| job.take());
        py.detach(move || drop(job));
    }
}

/// A running filter of an NNUE record file (see `pychess_training_data::refilter`), a
/// number of records per `advance` call so that Python can show progress in between.
#[pyclass(module = "pychess_rs._core", name = "_NnueFilter")]
pub struct NnueFilterRun(Run<NnueFilter>);

#[pymethods]
impl NnueFilterRun {
    /// Opens `input` (records in `format`) and creates `output`.
    #[new]
    #[pyo3(signature = (input, output, format, *, skip_check = false, skip_noisy = false,
        max_score = None, children = 0, seed = 0))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        py: Python<'_>,
        input: PathBuf,
        output: PathBuf,
        format: &str,
        skip_check: bool,
        skip_noisy: bool,
        max_score: Option<i16>,
        children: usize,
        seed: u64,
    ) -> Result<Self> {
        let format = nnue_format(format)?;
        let filters = Filters {
            skip_check,
            skip_noisy,
            max_score,
            ..Filters::default()
        };
        let run = py.detach(|| {
            let run = NnueFilter::open(&input, &output, format, filters)?;
            Ok::<_, pychess_training_data::Error>(match children {
                0 => run,
                per_position => run.with_children(Children { per_position, seed }),
            })
        })?;
        Ok(NnueFilterRun(Run::new(run, "filter")))
    }

    /// Records in the input.
    fn records(&self) -> PyResult<u64> {
        self.0.with(|run| run.records())
    }

    /// Filters up to `max_records` more records; true once all are done.
    fn advance(&self, py: Python<'_>, max_records: u64) -> Result<bool> {
        Ok(py.detach(|| self.0.with(|run| run.advance(max_records)))??)
    }

    /// The counts so far, by name.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.0.with(|run| run.stats().clone())?;
        stats_dict(py, &stats)
    }

    /// Filters the rest and flushes the output; the run's counts.
    fn finish<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyDict>> {
        let run = self.0.take()?;
        let stats = py.detach(|| run.finish())?;
        Ok(stats_dict(py, &stats)?)
    }
}

/// A running rescore of an NNUE record file by UCI engine processes (see
/// `pychess_training_data::rescore`), advanced in steps like the filter.
#[pyclass(module = "pychess_rs._core", name = "_NnueRescore")]
pub struct NnueRescoreRun(Run<NnueRescore>);

#[pymethods]
impl NnueRescoreRun {
    /// Opens `input` (records in `format`), starts `processes` engines running `command`
    /// with `options` set, and creates `output` (or goes on with it, `resume`).
    #[new]
    #[pyo3(signature = (input, output, format, command, *, options = Vec::new(), depth = None,
        nodes = None, processes = 1, resume = false))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments
    fn new(
        py: Python<'_>,
        input: PathBuf,
        output: PathBuf,
        format: &str,
        command: Vec<String>,
        options: Vec<(String, String)>,
        depth: Option<u32>,
        nodes: Option<u64>,
        processes: usize,
        resume: bool,
    ) -> Result<Self> {
        let format = nnue_format(format)?;
        let engine = EngineCommand { command, options };
        let limit = SearchLimit { depth, nodes };
        let run = py.detach(|| {
            NnueRescore::open(&input, &output, format, &engine, limit, processes, resume)
        })?;
        Ok(NnueRescoreRun(Run::new(run, "rescore")))
    }

    /// Records in the input.
    fn records(&self) -> PyResult<u64> {
        self.0.with(|run| run.records())
    }

    /// Records an earlier run had scored (0 unless resumed).
    fn resumed(&self) -> PyResult<u64> {
        self.0.with(|run| run.resumed())
    }

    /// Scores up to `max_records` more records; true once all are done.
    fn advance(&self, py: Python<'_>, max_records: u64) -> Result<bool> {
        Ok(py.detach(|| self.0.with(|run| run.advance(max_records)))??)
    }

    /// This run's counts so far, by name.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let stats = self.0.with(|run| run.stats().clone())?;
        stats_dict(py, &stats)
    }

    /// Scores the rest, flushes the output and stops the engines; this run's counts.
    fn finish<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyDict>> {
        let run = self.0.take()?;
        let stats = py.detach(|| run.finish())?;
        Ok(stats_dict(py, &stats)?)
    }
}

/// The 32-byte record of a position (`fen`), its score (centipawns, White's side) and the
/// game's result (`wdl`: 0 Black won, 1 draw, 2 White won).
#[pyfunction]
#[pyo3(signature = (fen, score, wdl, format, chess960 = false))]
fn training_data_encode_nnue<'py>(
    py: Python<'py>,
    fen: &str,
    score: i16,
    wdl: u8,
    format: &str,
    chess960: bool,
) -> Result<Bound<'py, PyBytes>> {
    let format = nnue_format(format)?;
    let board = Board::from_fen(fen, chess960)?;
    let wdl = Wdl::from_value(wdl)
        .ok_or_else(|| TrainingDataError::new_err(format!("wdl {wdl} is not 0, 1 or 2")))?;
    let record = format.encode(&board, score, wdl)?;
    Ok(PyBytes::new(py, &record))
}

/// Every record of `data` as `(fen, chess960, score, wdl)`, White's side of each record's
/// board.
#[pyfunction]
fn training_data_decode_nnue(
    py: Python<'_>,
    data: &[u8],
    format: &str,
) -> Result<Vec<(String, bool, i16, u8)>> {
    let format = nnue_format(format)?;
    let records = py.detach(|| format.decode_all(data))?;
    Ok(records
        .into_iter()
        .map(|r| (r.board.fen(), r.board.is_chess960(), r.score, r.wdl.value()))
        .collect())
}

/// Every record of an Lc0 chunk file as `(fen, uci, wdl, plies_left, policy)`: the position
/// (no en-passant square, move number 1), the move played (`None` if not legal there), the
/// result (0 Black won, 1 draw, 2 White won), and the 1858 policy values as float32 bytes.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn training_data_read_lc0<'py>(
    py: Python<'py>,
    path: PathBuf,
) -> Result<Vec<(String, Option<String>, Option<u8>, f32, Bound<'py, PyBytes>)>> {
    let records = py.detach(|| read_chunk_file(&path))?;
    Ok(records
        .iter()
        .map(|record| {
            let board = record.board();
            let played = record.played_move(&board).map(|m| board.uci(m).to_string());
            let policy: Vec<u8> = record
                .probabilities
                .iter()
                .flat_map(|p| p.to_le_bytes())
                .collect();
            (
                board.fen(),
                played,
                record.result().map(Wdl::value),
                record.float("plies_left").unwrap_or(f32::NAN),
                PyBytes::new(py, &policy),
            )
        })
        .collect())
}

/// The Lc0 policy index of the legal move `uci` in `fen`.
#[pyfunction]
#[pyo3(signature = (fen, uci, chess960 = false))]
fn training_data_lc0_policy_index(fen: &str, uci: &str, chess960: bool) -> Result<usize> {
    let game = pychess_core::Game::new(Board::from_fen(fen, chess960)?);
    let m = game.resolve_uci(pychess_core::UciMove::parse(uci)?)?;
    Ok(pychess_training_data::lc0_policy::policy_index(
        game.board(),
        m,
    ))
}

/// Adds the class and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TrainingDataJob>()?;
    m.add_class::<NnueFilterRun>()?;
    m.add_class::<NnueRescoreRun>()?;
    m.add_function(wrap_pyfunction!(training_data_encode_nnue, m)?)?;
    m.add_function(wrap_pyfunction!(training_data_decode_nnue, m)?)?;
    m.add_function(wrap_pyfunction!(training_data_read_lc0, m)?)?;
    m.add_function(wrap_pyfunction!(training_data_lc0_policy_index, m)?)?;
    m.add("TrainingDataError", m.py().get_type::<TrainingDataError>())?;
    Ok(())
}
