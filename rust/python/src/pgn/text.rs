//! Where games are in text: the lines of the next game cut from a Python text handle exactly
//! where python-chess's `read_game` stops, and game boundaries in bytes and files.

use pychess_pgn::reader::Chunker;
use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use std::fs::File;
use std::io;

/// The byte length of the first game of `data` (where python-chess's `read_game` stops),
/// or `None` when `data` holds no game.
#[pyfunction]
pub fn pgn_game_end(data: &[u8]) -> Option<usize> {
    pychess_pgn::game_end(data)
}

/// The first offset at or after `start` where a game starts in the uncompressed file
/// `path` (a tag line at the start of the file or after a blank line), or `None`.
#[pyfunction]
pub fn pgn_next_game_start(
    py: Python<'_>,
    path: std::path::PathBuf,
    start: u64,
) -> PyResult<Option<u64>> {
    py.detach(|| -> io::Result<Option<u64>> {
        let mut chunker = Chunker::for_range(File::open(&path)?, start, u64::MAX)?;
        Ok(chunker.next_batch(1)?.map(|b| b.games[0].2))
    })
    .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}

/// The lines of the next game from a text handle, read with its `readline` exactly as
/// python-chess's `read_game` consumes them (its fast path for a skipped game ends where
/// its parser ends: a blank line outside a comment), as UTF-8 bytes (lone surrogates kept
/// with `surrogatepass`), or `None` at the end of the file. Nothing past the game is read,
/// so the handle stays where python-chess would leave it.
#[pyfunction]
pub fn read_game_text<'py>(
    py: Python<'py>,
    handle: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let readline = handle.getattr(pyo3::intern!(py, "readline"))?;
    let mut text: Vec<u8> = Vec::new();
    // Appends the next line to `text`; returns its range there (empty at the end).
    let next_line = |text: &mut Vec<u8>| -> PyResult<std::ops::Range<usize>> {
        let line = readline.call0()?;
        let Ok(line) = line.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "read_game needs a text handle: readline() returned {}",
                line.get_type()
            )));
        };
        let start = text.len();
        match line.to_cow() {
            Ok(s) => text.extend_from_slice(s.as_bytes()),
            Err(_) => {
                let encoded = line.call_method1(
                    pyo3::intern!(py, "encode"),
                    (
                        pyo3::intern!(py, "utf-8"),
                        pyo3::intern!(py, "surrogatepass"),
                    ),
                )?;
                text.extend_from_slice(encoded.cast::<PyBytes>()?.as_bytes());
            }
        }
        Ok(start..text.len())
    };
    let is_comment = |line: &[u8]| matches!(line.first(), Some(b'%' | b';'));
    // `str.isspace()`: non-empty and all whitespace.
    let is_blank = |line: &[u8]| !line.is_empty() && pychess_pgn::lines::is_all_space(line);
    const BOM: &[u8] = "\u{feff}".as_bytes();

    let mut range = next_line(&mut text)?;
    // python-chess tests the first line without its BOMs (the parser strips them itself).
    let mut first = &text[range.clone()];
    while let Some(rest) = first.strip_prefix(BOM) {
        first = rest;
    }
    let mut blank_or_comment = is_blank(first) || is_comment(first);
    while blank_or_comment {
        range = next_line(&mut text)?;
        let line = &text[range.clone()];
        blank_or_comment = is_blank(line) || is_comment(line);
    }
    // The tag section: comment lines and one blank line between tags are allowed.
    let mut found = false;
    let mut empty = 0;
    loop {
        let line = if range.start == 0 {
            let mut l = &text[range.clone()];
            while let Some(rest) = l.strip_prefix(BOM) {
                l = rest;
            }
            l
        } else {
            &text[range.clone()]
        };
        if line.is_empty() {
            break;
        }
        let comment = is_comment(line);
        if comment || (empty < 1 && is_blank(line)) {
            if !comment {
                empty += 1;
            }
            range = next_line(&mut text)?;
            continue;
        }
        found = true;
        if line.first() != Some(&b'[') {
            break;
        }
        empty = 0;
        range = next_line(&mut text)?;
    }
    if !found {
        return Ok(None);
    }
    // The movetext: up to a blank line outside a comment.
    let mut in_comment = false;
    loop {
        let line = &text[range.clone()];
        if line.is_empty() {
            break;
        }
        if !in_comment {
            if is_blank(line) {
                break;
            }
            if line.first() == Some(&b'%') {
                range = next_line(&mut text)?;
                continue;
            }
        }
        for &b in line {
            match b {
                b'{' => in_comment = true,
                b';' if !in_comment => break,
                b'}' => in_comment = false,
                _ => {}
            }
        }
        range = next_line(&mut text)?;
    }
    Ok(Some(PyBytes::new(py, &text)))
}
