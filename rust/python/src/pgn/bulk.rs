//! The bulk reader: games of a file or stream as light records (`PgnReader` yielding
//! `PgnGame`), read on worker threads with the GIL released, in file order.

use super::error_object;
use pychess_pgn::reader::{decompress, Chunker, GameReader, ReadOptions, Source};
use pychess_pgn::{Condition, Filter, GameRecord, Op, TimeClass};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use std::fs::File;
use std::io::{self, Read};
use std::sync::Mutex;

/// Reads from a Python file object (binary or text) through its `read` method.
struct PyReader {
    file: Py<PyAny>,
    pending: Vec<u8>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let data = self.file.bind(py).call_method1("read", (1usize << 16,))?;
                if let Ok(bytes) = data.cast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else if let Ok(text) = data.cast::<PyString>() {
                    Ok(text.to_cow()?.as_bytes().to_vec())
                } else {
                    Err(PyTypeError::new_err(
                        "read() returned neither bytes nor str",
                    ))
                }
            })
            .map_err(|e| io::Error::other(e.to_string()))?;
            if chunk.is_empty() {
                return Ok(0);
            }
            self.pending = chunk;
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn parse_op(op: &str) -> PyResult<Op> {
    Ok(match op {
        "==" | "=" => Op::Eq,
        "!=" => Op::Ne,
        "<" => Op::Lt,
        "<=" => Op::Le,
        ">" => Op::Gt,
        ">=" => Op::Ge,
        "contains" => Op::Contains,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown comparison {other:?} (use ==, !=, <, <=, >, >=, contains)"
            )))
        }
    })
}

/// The bulk reader: games of a PGN file or stream as light records, in order.
#[pyclass(module = "pychess_rs._core", name = "PgnReader", frozen)]
pub struct PgnReader {
    inner: Mutex<GameReader>,
}

#[pymethods]
impl PgnReader {
    /// `source` is a path (`str`) or a file object; `conditions` are `(tag, op, value)`
    /// triples, all of which must hold; `time_classes` names allowed time-control classes;
    /// `start`/`end` select the games starting in that byte range of an uncompressed file.
    #[new]
    #[pyo3(signature = (source, *, threads=1, fens=false, conditions=Vec::new(), time_classes=Vec::new(), start=None, end=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        threads: usize,
        fens: bool,
        conditions: Vec<(String, String, String)>,
        time_classes: Vec<String>,
        start: Option<u64>,
        end: Option<u64>,
    ) -> PyResult<PgnReader> {
        let mut filter = Filter::default();
        for (tag, op, value) in conditions {
            filter.conditions.push(Condition {
                tag,
                op: parse_op(&op)?,
                value,
            });
        }
        for name in time_classes {
            filter.time_classes.push(TimeClass::parse(&name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "unknown time-control class {name:?} (bullet, blitz, rapid, standard, unlimited, unknown)"
                ))
            })?);
        }
        let chunker = if let Ok(path) = source.extract::<std::path::PathBuf>() {
            let ranged = start.is_some() || end.is_some();
            py.detach(|| -> io::Result<Chunker> {
                if ranged {
                    if pychess_pgn::reader::is_compressed(&path)? {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidInput,
                            "byte ranges need an uncompressed file",
                        ));
                    }
                    Chunker::for_range(
                        File::open(&path)?,
                        start.unwrap_or(0),
                        end.unwrap_or(u64::MAX),
                    )
                } else {
                    Ok(Chunker::new(decompress(Box::new(File::open(&path)?))?))
                }
            })
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?
        } else if source.hasattr("read")? {
            if start.is_some() || end.is_some() {
                return Err(PyValueError::new_err("byte ranges need a path"));
            }
            let reader: Source = Box::new(PyReader {
                file: source.clone().unbind(),
                pending: Vec::new(),
            });
            Chunker::new(
                py.detach(|| decompress(reader))
                    .map_err(|e| PyOSError::new_err(e.to_string()))?,
            )
        } else {
            return Err(PyTypeError::new_err(
                "source must be a path or a file object",
            ));
        };
        let options = ReadOptions { filter, fens };
        Ok(PgnReader {
            inner: Mutex::new(GameReader::new(chunker, options, threads.max(1))),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PgnGame>> {
        let next = py.detach(|| match self.inner.lock() {
            Ok(mut reader) => reader.next_game(),
            Err(_) => None,
        });
        match next {
            None => Ok(None),
            Some(Ok(record)) => Ok(Some(PgnGame { record })),
            Some(Err(e)) => Err(PyOSError::new_err(e.to_string())),
        }
    }
}

/// One game from the bulk reader: tags, mainline, result and errors (no node tree).
#[pyclass(module = "pychess_rs._core", name = "PgnGame", frozen)]
pub struct PgnGame {
    record: GameRecord,
}

#[pymethods]
impl PgnGame {
    /// Byte offset of the game's first line in the (decompressed) input.
    #[getter]
    fn offset(&self) -> u64 {
        self.record.offset
    }

    /// The tags, in file order.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in self.record.headers.iter() {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// One tag, or `default`.
    #[pyo3(signature = (name, default=None))]
    fn header(&self, name: &str, default: Option<String>) -> Option<String> {
        self.record.header(name).map(str::to_string).or(default)
    }

    /// `game.headers["Result"]` as python-chess would have it.
    #[getter]
    fn result(&self) -> &str {
        self.record.result()
    }

    /// Mainline moves in UCI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.ucis()
    }

    /// Mainline moves in SAN.
    #[getter]
    fn san(&self) -> Vec<String> {
        self.record.sans()
    }

    /// Number of mainline half-moves.
    #[getter]
    fn ply_count(&self) -> usize {
        self.record.moves.len()
    }

    /// FEN of the starting position (a variant game's with the variant's fields).
    #[getter]
    fn start_fen(&self) -> String {
        match &self.record.variant_start {
            Some(start) => start.fen(),
            None => self.record.start.fen(),
        }
    }

    /// The variant the game was read as, by the name its ``Variant`` tag has in
    /// python-chess's aliases (``"Atomic"``, ``"Three-check"``, ...); None for chess and
    /// Chess960.
    #[getter]
    fn variant(&self) -> Option<&'static str> {
        self.record.variant().map(|v| v.aliases()[0])
    }

    /// FEN after each ply, the start first (computed now unless the reader made them).
    #[getter]
    fn fens(&self) -> Vec<String> {
        match &self.record.fens {
            Some(fens) => fens.clone(),
            None => self.record.fen_list(),
        }
    }

    /// The errors met, as the exceptions python-chess records.
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .record
            .errors
            .iter()
            .map(|e| error_object(py, e))
            .collect::<Vec<_>>();
        PyList::new(py, items)
    }

    fn __repr__(&self) -> String {
        format!(
            "<PgnGame at {} ({:?} vs. {:?}, {} plies, {})>",
            self.record.offset,
            self.record.header("White").unwrap_or("?"),
            self.record.header("Black").unwrap_or("?"),
            self.record.moves.len(),
            self.record.result()
        )
    }
}
