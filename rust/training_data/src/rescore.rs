//! Scoring the records of an NNUE file again with a UCI engine: each record's position is
//! searched to a depth and/or node limit by one of several engine processes and its score
//! replaced; position and result are kept, the order too.
//!
//! Why in Rust: a record costs Stockfish about 0.3 ms at depth 1, less than a Python client
//! spends writing the position and parsing the answer, so a client that holds the GIL scores
//! one core's worth whatever the number of engines. Here each engine process has its own
//! thread, and a run scales with the cores (rust/engine/TUNING.md, issue 25).
//!
//! A run can be resumed: the records already in the output (a whole number of them; a
//! partly written last record is dropped) are not scored again.

use crate::error::Error;
use crate::nnue::{open_records, NnueFormat, NNUE_RECORD_SIZE};
use crate::sample::{Stats, MATE_SCORE};
use pychess_core::{Board, Color};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long an engine may take to answer `uci` and `isready`: a command that is not a UCI
/// engine must fail the run, not hang it. Searches have no limit of their own.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// What each engine process runs: its command line and the UCI options set on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` pairs, in order (names as the engine declares them, any case).
    pub options: Vec<(String, String)>,
}

/// A search's limit: `go depth D nodes N` with the parts that are set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimit {
    /// Plies.
    pub depth: Option<u32>,
    /// Nodes.
    pub nodes: Option<u64>,
}

impl SearchLimit {
    fn go(self) -> Option<String> {
        let mut go = String::from("go");
        if let Some(depth) = self.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        (self.depth.is_some() || self.nodes.is_some()).then_some(go)
    }
}

/// One engine process spoken to over UCI; its output is read by a thread of its own so that
/// the handshake can time out.
struct UciProcess {
    name: String,
    child: Child,
    stdin: BufWriter<ChildStdin>,
    lines: Receiver<String>,
}

impl UciProcess {
    fn spawn(engine: &EngineCommand) -> Result<UciProcess, Error> {
        let (program, args) = engine.command.split_first().ok_or_else(|| Error::Option {
            name: "engine",
            reason: "the command is empty".into(),
        })?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::io(Path::new(program), e))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = BufWriter::new(child.stdin.take().expect("stdin is piped"));
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = UciProcess {
            name: engine.command.join(" "),
            child,
            stdin,
            lines,
        };
        process.handshake(&engine.options)?;
        Ok(process)
    }

    fn handshake(&mut self, options: &[(String, String)]) -> Result<(), Error> {
        self.send("uci")?;
        let mut declared = Vec::new();
        loop {
            let line = self.receive(Some(HANDSHAKE))?;
            if line.trim() == "uciok" {
                break;
            }
            if let Some(name) = option_name(&line) {
                declared.push(name);
            }
        }
        for (name, value) in options {
            let Some(declared_name) = declared.iter().find(|d| d.eq_ignore_ascii_case(name)) else {
                return Err(self.failure(format!(
                    "no option '{name}' (it has: {})",
                    declared.join(", ")
                )));
            };
            self.send(&format!("setoption name {declared_name} value {value}"))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        while self.receive(Some(HANDSHAKE))?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's score of `board` (centipawns, its side to move's view; a mate at any
    /// distance is `MATE_SCORE`), after a search with `go`. No score at all counts as 0.
    fn score(&mut self, board: &Board, go: &str) -> Result<i32, Error> {
        self.send(&format!("position fen {}", board.fen()))?;
        self.send(go)?;
        let mut score = 0;
        loop {
            let line = self.receive(None)?;
            let mut words = line.split_ascii_whitespace();
            match words.next() {
                Some("bestmove") => return Ok(score),
                Some("info") => {
                    if let Some(found) = info_score(words) {
                        score = found;
                    }
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Error> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.failure(format!("exited or closed its input ({e})")))
    }

    fn receive(&mut self, timeout: Option<Duration>) -> Result<String, Error> {
        let received = match timeout {
            Some(timeout) => self.lines.recv_timeout(timeout),
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        received.map_err(|e| {
            self.failure(match e {
                RecvTimeoutError::Timeout => format!("no answer in {} s", timeout_secs(timeout)),
                RecvTimeoutError::Disconnected => "exited".into(),
            })
        })
    }

    fn failure(&self, reason: String) -> Error {
        Error::Engine {
            command: self.name.clone(),
            reason,
        }
    }
}

fn timeout_secs(timeout: Option<Duration>) -> u64 {
    timeout.map_or(0, |t| t.as_secs())
}

impl Drop for UciProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        // An engine that ignores `quit` is not left behind.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The name in `option name NAME type ...` (a name may hold spaces).
fn option_name(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// The score of an `info` line (after `info`): `cp X` as is, `mate N` as `MATE_SCORE` with
/// the sign of who mates (`mate 0`: the side to move is mated). Lines of a second or later
/// principal variation and `info string` say nothing about the score.
fn info_score<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<i32> {
    let mut score = None;
    while let Some(word) = words.next() {
        match word {
            "string" => return None,
            "multipv" if words.next().is_some_and(|k| k != "1") => return None,
            "score" => {
                let kind = words.next()?;
                let value: i32 = words.next()?.parse().ok()?;
                score = match kind {
                    "cp" => Some(value),
                    "mate" if value > 0 => Some(i32::from(MATE_SCORE)),
                    "mate" => Some(-i32::from(MATE_SCORE)),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    score
}

/// A record's score as the writers store it: White's side, clamped, any mate `MATE_SCORE`.
fn record_score(engine_score: i32, turn: Color) -> i16 {
    let mate = i32::from(MATE_SCORE);
    let score = if engine_score.abs() > mate - 1000 {
        mate * engine_score.signum()
    } else {
        engine_score
    };
    let white = if turn == Color::White { score } else { -score };
    white as i16 // within +-MATE_SCORE
}

/// A rescoring run from one record file to another, advanced in steps so that a caller can
/// show progress in between.
pub struct NnueRescore {
    format: NnueFormat,
    input: BufReader<File>,
    input_path: PathBuf,
    output: BufWriter<File>,
    output_path: PathBuf,
    records: u64,
    resumed: u64,
    engines: Vec<UciProcess>,
    go: String,
    stats: Stats,
}

impl NnueRescore {
    /// Opens `input` (a whole number of `format` records), starts `processes` engines
    /// (`engine`, its options set on each) and creates `output`, or with `resume` goes on
    /// after the whole records an earlier run left in it.
    ///
    /// # Errors
    /// [`Error::Io`] for files (`output` being `input` too) or an engine that cannot be
    /// started; [`Error::Length`] when `input` is not whole records; [`Error::Option`] for
    /// no limit or no process; [`Error::Engine`] for an engine that fails its handshake or
    /// lacks an option.
    pub fn open(
        input: &Path,
        output: &Path,
        format: NnueFormat,
        engine: &EngineCommand,
        limit: SearchLimit,
        processes: usize,
        resume: bool,
    ) -> Result<NnueRescore, Error> {
        let go = limit.go().ok_or_else(|| Error::Option {
            name: "limit",
            reason: "rescoring needs a limit: depth, nodes or both".into(),
        })?;
        if processes == 0 {
            return Err(Error::Option {
                name: "processes",
                reason: "at least one engine process is needed".into(),
            });
        }
        let (mut file, records) = open_records(input, output, format)?;
        let (out, resumed) = if resume {
            open_to_resume(output, records)?
        } else {
            (File::create(output).map_err(|e| Error::io(output, e))?, 0)
        };
        file.seek(SeekFrom::Start(resumed * NNUE_RECORD_SIZE as u64))
            .map_err(|e| Error::io(input, e))?;
        let engines = (0..processes.min((records - resumed).max(1) as usize))
            .map(|_| UciProcess::spawn(engine))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(NnueRescore {
            format,
            input: BufReader::with_capacity(1 << 20, file),
            input_path: input.to_path_buf(),
            output: BufWriter::with_capacity(1 << 20, out),
            output_path: output.to_path_buf(),
            records,
            resumed,
            engines,
            go,
            stats: Stats::default(),
        })
    }

    /// Records in the input.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Records an earlier run had scored (0 unless resumed).
    pub fn resumed(&self) -> u64 {
        self.resumed
    }

    /// What this run has done so far (`positions` read, `written`, `scores_from_engine`).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Scores up to `max_records` more records, split into one contiguous block per engine;
    /// true once every record is done.
    ///
    /// # Errors
    /// [`Error::Record`] for a record no writer produces (its index named),
    /// [`Error::Engine`] for an engine that exits or stops answering, [`Error::Io`].
    pub fn advance(&mut self, max_records: u64) -> Result<bool, Error> {
        let first = self.resumed + self.stats.positions;
        let count = max_records.min(self.records - first) as usize;
        let mut data = vec![0u8; count * NNUE_RECORD_SIZE];
        self.input
            .read_exact(&mut data)
            .map_err(|e| Error::io(&self.input_path, e))?;
        let mut boards = Vec::with_capacity(count);
        for (i, chunk) in data.chunks_exact(NNUE_RECORD_SIZE).enumerate() {
            let bytes: &[u8; NNUE_RECORD_SIZE] = chunk.try_into().expect("32-byte chunks");
            boards.push(self.format.decode(bytes, first as usize + i)?);
        }
        let per_engine = count.div_ceil(self.engines.len()).max(1);
        let (format, go) = (self.format, self.go.as_str());
        let blocks: Vec<Result<Vec<u8>, Error>> = std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .engines
                .iter_mut()
                .zip(boards.chunks(per_engine))
                .map(|(engine, block)| {
                    scope.spawn(move || {
                        let mut out = Vec::with_capacity(block.len() * NNUE_RECORD_SIZE);
                        for record in block {
                            let score = engine.score(&record.board, go)?;
                            let score = record_score(score, record.board.turn());
                            out.extend(format.encode(&record.board, score, record.wdl)?);
                        }
                        Ok(out)
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|_| Err(worker_panic())))
                .collect()
        });
        for block in blocks {
            self.output
                .write_all(&block?)
                .map_err(|e| Error::io(&self.output_path, e))?;
        }
        let n = count as u64;
        self.stats.positions += n;
        self.stats.written += n;
        self.stats.scores_from_engine += n;
        self.stats.bytes += n * NNUE_RECORD_SIZE as u64;
        Ok(self.resumed + self.stats.positions == self.records)
    }

    /// Finishes the run (the rest of the records, then the output flushed, the engines
    /// told to quit).
    ///
    /// # Errors
    /// As [`Self::advance`].
    pub fn finish(mut self) -> Result<Stats, Error> {
        while !self.advance(1 << 12)? {}
        self.output
            .flush()
            .map_err(|e| Error::io(&self.output_path, e))?;
        Ok(self.stats)
    }
}

fn worker_panic() -> Error {
    Error::Worker("a rescoring thread panicked".into())
}

/// The output to append to and the whole records already in it, a partly written last
/// record cut off.
fn open_to_resume(output: &Path, records: u64) -> Result<(File, u64), Error> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(output)
        .map_err(|e| Error::io(output, e))?;
    let len = file.metadata().map_err(|e| Error::io(output, e))?.len();
    let done = len / NNUE_RECORD_SIZE as u64;
    if done > records {
        let longer = io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("holds {done} records, more than the input's {records}: not its output"),
        );
        return Err(Error::io(output, longer));
    }
    file.set_len(done * NNUE_RECORD_SIZE as u64)
        .map_err(|e| Error::io(output, e))?;
    Ok((file, done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_the_last_score_of_the_first_variation() {
        let score = |line: &str| info_score(line.split_ascii_whitespace().skip(1));
        assert_eq!(
            score("info depth 1 seldepth 1 score cp 23 nodes 20 pv e2e4"),
            Some(23)
        );
        assert_eq!(
            score("info depth 3 score cp -40 lowerbound nodes 9"),
            Some(-40)
        );
        assert_eq!(
            score("info depth 5 multipv 1 score mate 3 pv a1a8"),
            Some(32000)
        );
        assert_eq!(score("info depth 5 multipv 2 score cp 10 pv a1a8"), None);
        assert_eq!(score("info depth 0 score mate 0"), Some(-32000));
        assert_eq!(score("info depth 4 score mate -2"), Some(-32000));
        assert_eq!(score("info string score cp 100 is a comment"), None);
        assert_eq!(score("info nodes 100 nps 1000"), None);
    }

    #[test]
    fn scores_go_to_whites_side_and_mates_to_the_mate_score() {
        assert_eq!(record_score(55, Color::White), 55);
        assert_eq!(record_score(55, Color::Black), -55);
        assert_eq!(record_score(31_500, Color::White), 32_000);
        assert_eq!(record_score(-32_000, Color::Black), 32_000);
    }

    #[test]
    fn option_names_may_hold_spaces() {
        let line = "option name Move Overhead type spin default 10 min 0 max 5000";
        assert_eq!(option_name(line).as_deref(), Some("Move Overhead"));
        assert_eq!(option_name("id name Stockfish"), None);
    }

    #[test]
    fn a_limit_is_needed() {
        assert_eq!(SearchLimit::default().go(), None);
        let limit = SearchLimit {
            depth: Some(1),
            nodes: Some(500),
        };
        assert_eq!(limit.go().as_deref(), Some("go depth 1 nodes 500"));
    }
}

#[cfg(all(test, unix))]
mod engine_tests {
    use super::*;
    use crate::nnue::NnueRecord;
    use crate::sample::Wdl;

    /// A UCI engine in a few lines of shell: one option, and every search scores the
    /// position's piece count in centipawns (so that the expected scores are known), or a
    /// mate for positions with a queen.
    const FAKE_ENGINE: &str = r#"
while read -r line; do
  case "$line" in
    uci) echo "id name fake"; echo "option name Move Overhead type spin default 10 min 0 max 100"; echo uciok ;;
    isready) echo readyok ;;
    "position fen "*) set -- $line; placement=$3; turn=$4 ;;
    go*) n=$(printf %s "$placement" | tr -cd 'a-zA-Z' | wc -c)
         echo "info string thinking"
         echo "info depth 1 score cp 1"
         case "$placement" in *[Qq]*) echo "info depth 2 score mate 2 pv a1a2" ;;
                                    *) echo "info depth 2 score cp $((n * 10))" ;; esac
         echo "bestmove 0000" ;;
    quit) exit 0 ;;
  esac
done
"#;

    fn fake(options: &[(&str, &str)]) -> EngineCommand {
        EngineCommand {
            command: vec!["sh".into(), "-c".into(), FAKE_ENGINE.into()],
            options: options
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rescore-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const FENS: [&str; 5] = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
        "4k3/8/8/3q4/8/8/8/4K3 w - - 0 1",
        "r3k3/8/8/8/8/8/8/4K2R b - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ];

    fn write_records(path: &Path, format: NnueFormat, copies: usize) -> Vec<NnueRecord> {
        let mut data = Vec::new();
        for i in 0..copies {
            for fen in FENS {
                let board = Board::from_fen(fen, false).unwrap();
                data.extend(format.encode(&board, i as i16, Wdl::Draw).unwrap());
            }
        }
        std::fs::write(path, &data).unwrap();
        format.decode_all(&data).unwrap()
    }

    fn expected(record: &NnueRecord) -> i16 {
        let board = &record.board;
        let placement = board.fen();
        let placement = placement.split(' ').next().unwrap();
        let engine = if placement.contains(['q', 'Q']) {
            32_000
        } else {
            10 * board.occupied().count() as i32
        };
        record_score(engine, board.turn())
    }

    #[test]
    fn scores_every_record_in_order_on_several_engines() {
        for format in NnueFormat::ALL {
            let dir = dir(format.name());
            let (input, output) = (dir.join("in.bin"), dir.join("out.bin"));
            let before = write_records(&input, format, 7);
            let limit = SearchLimit {
                depth: Some(2),
                nodes: None,
            };
            let engine = fake(&[("move overhead", "20")]);
            let mut run =
                NnueRescore::open(&input, &output, format, &engine, limit, 3, false).unwrap();
            assert_eq!(run.records(), 35);
            assert!(!run.advance(10).unwrap());
            assert_eq!(run.stats().written, 10);
            let stats = run.finish().unwrap();
            assert_eq!((stats.positions, stats.written), (35, 35));
            let after = format.decode_all(&std::fs::read(&output).unwrap()).unwrap();
            assert_eq!(after.len(), before.len());
            for (a, b) in after.iter().zip(&before) {
                assert_eq!((&a.board, a.wdl), (&b.board, b.wdl));
                assert_eq!(a.score, expected(b), "{}", b.board.fen());
            }
            // A second run picks up where a cut-off one stopped.
            let whole = std::fs::read(&output).unwrap();
            std::fs::write(&output, &whole[..12 * NNUE_RECORD_SIZE + 5]).unwrap();
            let run = NnueRescore::open(&input, &output, format, &engine, limit, 2, true).unwrap();
            assert_eq!(run.resumed(), 12);
            assert_eq!(run.finish().unwrap().written, 23);
            assert_eq!(std::fs::read(&output).unwrap(), whole);
        }
    }

    #[test]
    fn refuses_what_it_cannot_do() {
        let dir = dir("errors");
        let (input, output) = (dir.join("in.bin"), dir.join("out.bin"));
        write_records(&input, NnueFormat::Bullet, 1);
        let depth = SearchLimit {
            depth: Some(1),
            nodes: None,
        };
        let open = |engine: &EngineCommand, limit, resume| {
            NnueRescore::open(
                &input,
                &output,
                NnueFormat::Bullet,
                engine,
                limit,
                1,
                resume,
            )
            .err()
            .expect("an error")
            .to_string()
        };
        assert!(open(&fake(&[("Hash", "1")]), depth, false).contains("no option 'Hash'"));
        assert!(open(&fake(&[]), SearchLimit::default(), false).contains("needs a limit"));
        let missing = EngineCommand {
            command: vec![dir.join("no-such-engine").display().to_string()],
            options: vec![],
        };
        assert!(open(&missing, depth, false).contains("no-such-engine"));
        let silent = EngineCommand {
            command: vec!["sh".into(), "-c".into(), "exit 0".into()],
            options: vec![],
        };
        assert!(open(&silent, depth, false).contains("exited"));
        std::fs::write(&output, vec![0u8; 6 * NNUE_RECORD_SIZE]).unwrap();
        assert!(open(&fake(&[]), depth, true).contains("more than the input's 5"));
        let same = NnueRescore::open(
            &input,
            &input,
            NnueFormat::Bullet,
            &fake(&[]),
            depth,
            1,
            false,
        );
        assert!(same
            .err()
            .unwrap()
            .to_string()
            .contains("is also the input"));
    }
}
