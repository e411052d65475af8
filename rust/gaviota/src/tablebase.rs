//! The tablebase: the tables found in directories, opened on first probe, a cache of
//! decompressed blocks, and the probes with python-chess's answers.

use crate::entry::Entry;
use crate::file::{FileError, TableFile, ENTRIES_PER_BLOCK};
use crate::index::Scheme;
use pychess_core::compat::py_repr;
use pychess_core::{Bitboard, Board, Color, Role};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// Decompressed blocks kept (16 KiB each: 16 MiB in all).
pub const CACHE_BLOCKS: usize = 1024;

/// The file name ending of a table.
pub const SUFFIX: &str = ".gtb.cp4";

/// Why a probe has no answer.
#[derive(Debug)]
pub enum ProbeError {
    /// The position has castling rights (the tables have none): python-chess's `KeyError`.
    CastlingRights {
        /// The position (python-chess's `fen()`).
        fen: String,
    },
    /// More than five pieces: `KeyError`.
    TooManyPieces {
        /// Pieces on the board.
        count: u32,
        /// The position.
        fen: String,
    },
    /// No table for the material (in either colour order): `MissingTableError`.
    MissingTable {
        /// White's pieces, `"KQ"`.
        white: String,
        /// Black's pieces.
        black: String,
    },
    /// A table whose name is no Gaviota material (say `kkq.gtb.cp4`): `KeyError`.
    UnknownTable {
        /// The name, without `.gtb.cp4`.
        name: String,
    },
    /// The position has no entry in its table (kings touching, a pawn on a back rank):
    /// `KeyError`.
    NoEntry {
        /// The table.
        name: String,
        /// The position.
        fen: String,
    },
    /// The table file cannot be read, or is not a Gaviota table.
    File(FileError),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::CastlingRights { fen } => write!(
                f,
                "gaviota tables do not contain positions with castling rights: {fen}"
            ),
            ProbeError::TooManyPieces { count, fen } => write!(
                f,
                "gaviota tables support up to 5 pieces, not {count}: {fen}"
            ),
            ProbeError::MissingTable { white, black } => {
                write!(f, "no gaviota table available for: {white}v{black}")
            }
            ProbeError::UnknownTable { name } => {
                write!(f, "not a gaviota table name: {name:?}")
            }
            ProbeError::NoEntry { name, fen } => {
                write!(f, "gaviota table {name} has no entry for {fen}")
            }
            ProbeError::File(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProbeError {}

impl From<FileError> for ProbeError {
    fn from(e: FileError) -> ProbeError {
        ProbeError::File(e)
    }
}

/// Why a directory cannot be added.
#[derive(Debug)]
pub enum DirectoryError {
    /// The path is not a directory: python-chess's `IOError`, quoting the path as Python
    /// writes a string.
    NotADirectory {
        /// The path as given.
        path: PathBuf,
    },
    /// Listing the directory failed.
    Io(std::io::Error),
}

impl fmt::Display for DirectoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectoryError::NotADirectory { path } => {
                write!(f, "not a directory: {}", py_repr(&path.to_string_lossy()))
            }
            DirectoryError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DirectoryError {}

impl From<std::io::Error> for DirectoryError {
    fn from(e: std::io::Error) -> DirectoryError {
        DirectoryError::Io(e)
    }
}

/// One table: where it is, and the file once opened.
struct Table {
    path: PathBuf,
    scheme: Option<Scheme>,
    file: Option<Arc<TableFile>>,
    /// Numbers this table's blocks in the cache, unique over the tablebase's life.
    id: u32,
}

impl Table {
    /// Scheme, file and id, once the file is open.
    fn opened(&self) -> Option<(Scheme, Arc<TableFile>, u32)> {
        Some((self.scheme?, self.file.clone()?, self.id))
    }
}

#[derive(Default)]
struct Tables {
    by_name: HashMap<String, Table>,
    next_id: u32,
}

/// A cached block's key: (table id, block number).
type BlockKey = (u32, usize);

/// Blocks with the clock reading of their last use, least recently used evicted first.
#[derive(Default)]
struct BlockCache {
    blocks: HashMap<BlockKey, (Arc<[u8]>, u64)>,
    clock: u64,
}

impl BlockCache {
    fn get(&mut self, key: BlockKey) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let clock = self.clock;
        self.blocks.get_mut(&key).map(|(block, used)| {
            *used = clock;
            block.clone()
        })
    }

    fn insert(&mut self, key: BlockKey, block: Arc<[u8]>) {
        if self.blocks.len() >= CACHE_BLOCKS && !self.blocks.contains_key(&key) {
            if let Some(oldest) = self.blocks.iter().min_by_key(|(_, (_, used))| *used) {
                let oldest = *oldest.0;
                self.blocks.remove(&oldest);
            }
        }
        self.clock += 1;
        self.blocks.insert(key, (block, self.clock));
    }
}

/// Gaviota tables for probing: directories are listed when added, files opened on the
/// first probe that needs them, blocks decompressed once and cached. Safe to share between
/// threads (`&self` everywhere).
///
/// ```no_run
/// use pychess_gaviota::Tablebase;
/// use pychess_core::Board;
/// let tables = Tablebase::new();
/// tables.add_directory("data/gaviota".as_ref()).unwrap();
/// let board = Board::from_fen("8/8/8/8/8/8/8/K2kr3 w - - 0 1", false).unwrap();
/// assert_eq!(tables.probe_dtm(&board).unwrap(), -10);
/// ```
#[derive(Default)]
pub struct Tablebase {
    tables: RwLock<Tables>,
    cache: Mutex<BlockCache>,
}

/// Most pieces a table has.
const MAX_PIECES: usize = 5;

/// One side's pieces, king first, then by kind strongest first, like pieces by rising
/// square: their letters (`"kq"`) and squares. Kept on the stack: a probe allocates nothing.
#[derive(Copy, Clone, Default)]
struct Side {
    letters: [u8; MAX_PIECES],
    squares: [usize; MAX_PIECES],
    len: usize,
}

impl Side {
    /// `color`'s pieces on a board of at most [`MAX_PIECES`] pieces.
    fn of(board: &Board, color: Color) -> Side {
        let mut side = Side::default();
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            for sq in board.pieces(color, role) {
                if side.len == MAX_PIECES {
                    // Not a table's material (the caller counted the pieces).
                    break;
                }
                side.letters[side.len] = role.char() as u8;
                side.squares[side.len] = sq.index();
                side.len += 1;
            }
        }
        side
    }

    fn letters(&self) -> &str {
        std::str::from_utf8(&self.letters[..self.len]).unwrap_or_default()
    }

    fn squares(&self) -> &[usize] {
        &self.squares[..self.len]
    }

    /// The side seen from the other end of the board (ranks mirrored).
    fn upside_down(mut self) -> Side {
        for sq in &mut self.squares[..self.len] {
            *sq ^= 56;
        }
        self
    }
}

/// A table name: two sides' letters one after the other.
fn table_name<'a>(buffer: &'a mut [u8; 2 * MAX_PIECES], white: &Side, black: &Side) -> &'a str {
    let (w, b) = (white.letters().as_bytes(), black.letters().as_bytes());
    buffer[..w.len()].copy_from_slice(w);
    buffer[w.len()..w.len() + b.len()].copy_from_slice(b);
    std::str::from_utf8(&buffer[..w.len() + b.len()]).unwrap_or_default()
}

/// A probe's material as its table sees it.
struct Request {
    /// The table's white and black: the board's, or the board's black and white upside down.
    white: Side,
    black: Side,
    /// The table's white to move.
    white_to_move: bool,
    /// The table.
    scheme: Scheme,
    file: Arc<TableFile>,
    id: u32,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Adds the `*.gtb.cp4` files of `directory` (a table found again replaces the one
    /// known); returns how many were found. Nothing is opened yet.
    pub fn add_directory(&self, directory: &Path) -> Result<usize, DirectoryError> {
        if !directory.is_dir() {
            return Err(DirectoryError::NotADirectory {
                path: directory.to_path_buf(),
            });
        }
        let mut found = Vec::new();
        for entry in std::fs::read_dir(directory)? {
            let entry = entry?;
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else {
                continue;
            };
            if let Some(name) = file_name.strip_suffix(SUFFIX) {
                found.push((name.to_string(), directory.join(file_name)));
            }
        }
        let count = found.len();
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        for (name, path) in found {
            let id = tables.next_id;
            tables.next_id += 1;
            let scheme = Scheme::for_name(&name);
            tables.by_name.insert(
                name,
                Table {
                    path,
                    scheme,
                    file: None,
                    id,
                },
            );
        }
        Ok(count)
    }

    /// The tables known, by name (`"kqk"`), with their paths.
    pub fn available_tables(&self) -> Vec<(String, PathBuf)> {
        let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
        let mut list: Vec<_> = tables
            .by_name
            .iter()
            .map(|(name, t)| (name.clone(), t.path.clone()))
            .collect();
        list.sort();
        list
    }

    /// Forgets every table and cached block (files close once no probe uses them).
    pub fn close(&self) {
        self.tables
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .by_name
            .clear();
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        *cache = BlockCache::default();
    }

    /// Depth to mate in plies: positive when the side to move mates, negative when it is
    /// mated, 0 for a draw or a side to move already mated. An en-passant capture the board
    /// allows counts as a move (the tables hold no en-passant rights). Answers as
    /// python-chess 1.11's pure-Python `PythonTablebase.probe_dtm`.
    pub fn probe_dtm(&self, board: &Board) -> Result<i32, ProbeError> {
        if board.castling_rights().nonempty() {
            return Err(ProbeError::CastlingRights { fen: board.fen() });
        }
        let count = board.occupied().count();
        if count > 5 {
            return Err(ProbeError::TooManyPieces {
                count,
                fen: board.fen(),
            });
        }
        if board.occupied() == board.by_role(Role::King) {
            return Ok(0);
        }
        let mut dtm = self.probe_ignoring_ep(board)?;
        for &m in board.legal_ep_moves(Bitboard::FULL, Bitboard::FULL).iter() {
            let child = board.after(m);
            let after = if child.is_checkmate() {
                1
            } else {
                // The child's distance, seen from here one ply earlier.
                let d = -self.probe_ignoring_ep(&child)?;
                d + d.signum()
            };
            dtm = if dtm * after > 0 {
                dtm.min(after)
            } else {
                dtm.max(after)
            };
        }
        Ok(dtm)
    }

    /// Win (1), draw (0) or loss (-1) for the side to move, from [`Tablebase::probe_dtm`]:
    /// a DTM of 0 is a loss when the side to move is checkmated.
    pub fn probe_wdl(&self, board: &Board) -> Result<i32, ProbeError> {
        let dtm = self.probe_dtm(board)?;
        Ok(match dtm {
            0 if board.is_checkmate() => -1,
            d => d.signum(),
        })
    }

    /// The board's material as a table names it, the board's colours or swapped.
    fn request(&self, board: &Board) -> Result<Request, ProbeError> {
        let (white, black) = (Side::of(board, Color::White), Side::of(board, Color::Black));
        let white_to_move = board.turn() == Color::White;
        let (mut straight, mut swapped) = ([0; 2 * MAX_PIECES], [0; 2 * MAX_PIECES]);
        let straight = table_name(&mut straight, &white, &black);
        let swapped = table_name(&mut swapped, &black, &white);
        let (name, request) = {
            let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
            if let Some(table) = tables.by_name.get(straight) {
                (
                    straight,
                    table.opened().map(|t| (white, black, white_to_move, t)),
                )
            } else if let Some(table) = tables.by_name.get(swapped) {
                // Black's pieces play white's part, the board turned upside down.
                let (w, b) = (black.upside_down(), white.upside_down());
                (swapped, table.opened().map(|t| (w, b, !white_to_move, t)))
            } else {
                return Err(ProbeError::MissingTable {
                    white: white.letters().to_uppercase(),
                    black: black.letters().to_uppercase(),
                });
            }
        };
        let (white, black, white_to_move, (scheme, file, id)) = match request {
            Some(request) => request,
            // Not opened yet (or no Gaviota name): open it now.
            None if name == straight => (white, black, white_to_move, self.open(name)?),
            None => (
                black.upside_down(),
                white.upside_down(),
                !white_to_move,
                self.open(name)?,
            ),
        };
        Ok(Request {
            white,
            black,
            white_to_move,
            scheme,
            file,
            id,
        })
    }

    /// The table `name`'s scheme, file (opened now if need be) and cache id.
    fn open(&self, name: &str) -> Result<(Scheme, Arc<TableFile>, u32), ProbeError> {
        let unknown = || ProbeError::UnknownTable {
            name: name.to_string(),
        };
        {
            let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
            let table = tables.by_name.get(name).ok_or_else(unknown)?;
            let scheme = table.scheme.ok_or_else(unknown)?;
            if let Some(file) = &table.file {
                return Ok((scheme, file.clone(), table.id));
            }
        }
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        let table = tables.by_name.get_mut(name).ok_or_else(unknown)?;
        let scheme = table.scheme.ok_or_else(unknown)?;
        let file = match &table.file {
            Some(file) => file.clone(),
            None => {
                let file = Arc::new(TableFile::open(&table.path)?);
                table.file = Some(file.clone());
                file
            }
        };
        Ok((scheme, file, table.id))
    }

    /// The DTM of the position as it stands, en-passant rights ignored.
    fn probe_ignoring_ep(&self, board: &Board) -> Result<i32, ProbeError> {
        let request = self.request(board)?;
        let scheme = request.scheme;
        let no_entry = || ProbeError::NoEntry {
            name: format!("{}{}", request.white.letters(), request.black.letters()),
            fen: board.fen(),
        };
        let size = scheme.size();
        let index = scheme
            .index(request.white.squares(), request.black.squares())
            .filter(|&i| i < size)
            .ok_or_else(no_entry)?;
        let blocks_per_side = size.div_ceil(ENTRIES_PER_BLOCK);
        let block_in_side = index / ENTRIES_PER_BLOCK;
        let side = u64::from(!request.white_to_move);
        let block = (side * blocks_per_side + block_in_side) as usize;
        let entries = (size - block_in_side * ENTRIES_PER_BLOCK).min(ENTRIES_PER_BLOCK) as usize;
        let bytes = self.block(request.id, &request.file, block, entries)?;
        let byte = *bytes
            .get((index % ENTRIES_PER_BLOCK) as usize)
            .ok_or_else(no_entry)?;
        // Positive when the side to move (the table's white or black) is the one that mates.
        let mover_is_white = request.white_to_move;
        Ok(match Entry::decode(mover_is_white, byte) {
            Entry::Draw => 0,
            Entry::WhiteMates(plies) if mover_is_white => plies as i32,
            Entry::BlackMates(plies) if !mover_is_white => plies as i32,
            Entry::WhiteMates(plies) | Entry::BlackMates(plies) => -(plies as i32),
        })
    }

    /// Block `n` of a table, from the cache or decompressed now.
    fn block(
        &self,
        id: u32,
        file: &TableFile,
        n: usize,
        entries: usize,
    ) -> Result<Arc<[u8]>, ProbeError> {
        let key = (id, n);
        if let Some(block) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
        {
            return Ok(block);
        }
        let block: Arc<[u8]> = file.block(n, entries)?.into();
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, block.clone());
        Ok(block)
    }
}
