//! NumPy `.npy` files written as a stream: the header (format version 1.0) is written with
//! room for any length, the items follow, and the header is rewritten with the final count
//! when the file is finished. `numpy.load(path, mmap_mode="r")` maps the result.

use crate::error::Error;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Bytes of every header this writer produces (magic, version, length, dictionary, padding).
pub const HEADER_LEN: usize = 128;

/// The header of an array of `count` items of `item_shape`, type `descr` (`<f4`, `|b1`, ...).
pub fn header(descr: &str, count: u64, item_shape: &[usize]) -> Vec<u8> {
    let mut shape = count.to_string();
    for dim in item_shape {
        shape.push_str(&format!(", {dim}"));
    }
    if item_shape.is_empty() {
        shape.push(',');
    }
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({shape}), }}");
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    let len = (HEADER_LEN - 10) as u16;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    assert!(out.len() < HEADER_LEN, "npy header too long: {dict}");
    out.resize(HEADER_LEN - 1, b' ');
    out.push(b'\n');
    out
}

/// One `.npy` file being written.
pub struct NpyWriter {
    path: PathBuf,
    file: BufWriter<File>,
    descr: &'static str,
    item_shape: Vec<usize>,
    item_bytes: usize,
    count: u64,
}

impl NpyWriter {
    /// Creates `path` for items of `item_shape` whose elements are `descr`, `elem_bytes` each.
    pub fn create(
        path: &Path,
        descr: &'static str,
        elem_bytes: usize,
        item_shape: &[usize],
    ) -> Result<NpyWriter, Error> {
        let file = File::create(path).map_err(|e| Error::io(path, e))?;
        let mut writer = NpyWriter {
            path: path.to_path_buf(),
            file: BufWriter::with_capacity(1 << 20, file),
            descr,
            item_shape: item_shape.to_vec(),
            item_bytes: elem_bytes * item_shape.iter().product::<usize>(),
            count: 0,
        };
        let head = header(descr, 0, item_shape);
        writer.write_raw(&head)?;
        Ok(writer)
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.file
            .write_all(bytes)
            .map_err(|e| Error::io(&self.path, e))
    }

    /// Appends whole items (little-endian element bytes).
    pub fn append(&mut self, bytes: &[u8]) -> Result<(), Error> {
        debug_assert_eq!(bytes.len() % self.item_bytes, 0);
        self.write_raw(bytes)?;
        self.count += (bytes.len() / self.item_bytes) as u64;
        Ok(())
    }

    /// Items written so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes the final header and closes the file.
    pub fn finish(mut self) -> Result<(), Error> {
        let head = header(self.descr, self.count, &self.item_shape);
        let path = self.path.clone();
        let io = |e| Error::io(&path, e);
        self.file.flush().map_err(io)?;
        let mut file = self.file.into_inner().map_err(|e| io(e.into_error()))?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&head).map_err(io)?;
        file.sync_data().map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        let h = header("<f4", 12, &[8, 8, 119]);
        assert_eq!(h.len(), HEADER_LEN);
        let text = String::from_utf8_lossy(&h[10..]);
        assert!(text
            .starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (12, 8, 8, 119), }"));
        assert!(String::from_utf8_lossy(&header("|i1", u64::MAX, &[]))
            .contains("(18446744073709551615,)"));
    }
}
