//! One `.gtb.cp4` file: its block index, and blocks read and decompressed on demand.
//!
//! ```text
//! offset 0    ten little-endian u32: the 9th (byte 32) is where the block data starts
//! offset 40   u32 offsets, one per block plus one past the last: block n is the bytes
//!             offsets[n] .. offsets[n+1]
//! blocks      entries of the white-to-move side first, then black-to-move; 16384
//!             entries (bytes) per block, the last block of a side shorter
//! ```
//!
//! A block is LZMA data behind a two-byte prefix. With a first byte of 0 the prefix is
//! followed by an `.lzma` ("LZMA alone") header: properties, dictionary size, unpacked size.
//! Otherwise the 13 bytes after the prefix are not trusted and python-chess's fixed
//! properties (lc 3, lp 0, pb 2, a 4 KiB dictionary, the block's size) stand in for them.
//! Decoding is [`lzma_rust2`]'s, pure Rust.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Entries in a full block.
pub const ENTRIES_PER_BLOCK: u64 = 16 * 1024;

/// Where the block-offset list starts.
const HEADER_SIZE: u32 = 40;

/// Why a table cannot be read.
#[derive(Debug)]
pub enum FileError {
    /// Opening or reading the file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file is not laid out as a Gaviota table, or a block does not decompress.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FileError::Corrupt { path, why } => {
                write!(f, "corrupt gaviota table {}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for FileError {}

/// An open table file. Reads from several threads take turns on the file handle.
pub struct TableFile {
    path: PathBuf,
    file: Mutex<File>,
    /// Start of each block, and the end of the last.
    offsets: Vec<u32>,
}

impl TableFile {
    /// Opens `path` and reads its block index.
    pub fn open(path: &Path) -> Result<TableFile, FileError> {
        let io_error = |error| FileError::Io {
            path: path.to_path_buf(),
            error,
        };
        let corrupt = |why: String| FileError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let mut file = File::open(path).map_err(io_error)?;
        let mut header = [0u8; HEADER_SIZE as usize];
        file.read_exact(&mut header).map_err(io_error)?;
        let data_start = u32::from_le_bytes([header[32], header[33], header[34], header[35]]);
        if data_start < HEADER_SIZE + 8 || (data_start - HEADER_SIZE) % 4 != 0 {
            return Err(corrupt(format!("block data starts at {data_start}")));
        }
        let mut raw = vec![0u8; (data_start - HEADER_SIZE) as usize];
        file.read_exact(&mut raw).map_err(io_error)?;
        let offsets: Vec<u32> = raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if offsets.windows(2).any(|w| w[1] < w[0]) {
            return Err(corrupt("block offsets go backwards".to_string()));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            offsets,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of blocks in the file.
    pub fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Block `n` decompressed: its first `entries` bytes.
    pub fn block(&self, n: usize, entries: usize) -> Result<Vec<u8>, FileError> {
        let corrupt = |why: String| FileError::Corrupt {
            path: self.path.clone(),
            why,
        };
        if n >= self.blocks() {
            return Err(corrupt(format!(
                "no block {n} (the file has {})",
                self.blocks()
            )));
        }
        let (start, end) = (self.offsets[n], self.offsets[n + 1]);
        let mut packed = vec![0u8; (end - start) as usize];
        {
            let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
            file.seek(SeekFrom::Start(u64::from(start)))
                .and_then(|_| file.read_exact(&mut packed))
                .map_err(|error| FileError::Io {
                    path: self.path.clone(),
                    error,
                })?;
        }
        let mut bytes = decompress(&packed, entries)
            .map_err(|why| corrupt(format!("block {n} does not decompress: {why}")))?;
        if bytes.len() < entries {
            return Err(corrupt(format!(
                "block {n} holds {} entries, not {entries}",
                bytes.len()
            )));
        }
        bytes.truncate(entries);
        Ok(bytes)
    }
}

/// The LZMA stream of a packed block (see the module header), decompressed.
fn decompress(packed: &[u8], entries: usize) -> Result<Vec<u8>, String> {
    const PREFIX: usize = 2;
    const LZMA_HEADER: usize = 13;
    // A corrupt header must not make the decoder allocate without bound (KiB).
    const MEMORY_LIMIT_KIB: u32 = 64 * 1024;
    if packed.len() < PREFIX + LZMA_HEADER {
        return Err(format!("{} bytes", packed.len()));
    }
    let mut out = Vec::with_capacity(entries);
    let read = if packed[0] == 0 {
        lzma_rust2::LzmaReader::new_mem_limit(&packed[PREFIX..], MEMORY_LIMIT_KIB, None)
            .and_then(|mut reader| reader.read_to_end(&mut out))
    } else {
        // lc 3, lp 0, pb 2 -> (pb * 5 + lp) * 9 + lc.
        let properties: u8 = (2 * 5) * 9 + 3;
        let stream = &packed[PREFIX + LZMA_HEADER..];
        lzma_rust2::LzmaReader::new_with_props(stream, entries as u64, properties, 4096, None)
            .and_then(|mut reader| reader.read_to_end(&mut out))
    };
    read.map_err(|e| e.to_string())?;
    Ok(out)
}
