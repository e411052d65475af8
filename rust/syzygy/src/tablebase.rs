//! A set of tables and the probes that combine them.
//!
//! The tables store positions as if the last move had been a capture or pawn move, with no
//! en-passant right; the probes here add what the tables leave out, exactly as python-chess
//! 1.11's `chess.syzygy.Tablebase` does:
//!
//! * **Captures** (`probe_ab`): a table's value for a position with a capture is only a
//!   bound; a small alpha-beta search over the captures, probing the smaller tables, settles
//!   it.
//! * **En passant** (`probe_wdl`, `probe_dtz`): the en-passant captures are tried separately
//!   and their results merged, since the tables hold no en-passant rights.
//! * **DTZ** (`probe_dtz`): a DTZ file holds one side to move only, and may not hold positions
//!   whose best move zeroes the clock; those are answered by a search one ply ahead.
//!
//! Tables open lazily, on the first probe that needs them, and stay open: each registry entry
//! is a `OnceLock` filled once, so probing from many threads at once is safe and lock-free
//! after the first look-up. Adding directories or closing swaps in a new registry; probes in
//! flight keep the one they started with.

use crate::error::{ProbeError, TableKind};
use crate::names::{is_tablename, normalize_tablename, Material, MAX_PIECES};
use crate::table::{DtzTable, TableFile, WdlTable};
use pychess_core::{Bitboard, Board, Role};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};

/// A fast hasher for the material keys (a few bytes each; the std hasher's SipHash guards
/// against hash flooding, which a table registry does not need, at several times the cost).
#[derive(Default, Clone, Copy)]
pub(crate) struct MaterialHasher(u64);

impl std::hash::Hasher for MaterialHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
}

type Registered<T> = HashMap<Material, Arc<Lazy<T>>, BuildHasherDefault<MaterialHasher>>;

/// DTZ values of a WDL value when the clock is zeroed (index `wdl + 2`).
const WDL_TO_DTZ: [i32; 5] = [-1, -101, 0, 101, 1];

/// A table file, opened on first use.
pub(crate) struct Lazy<T> {
    path: PathBuf,
    table: OnceLock<Result<Arc<T>, ProbeError>>,
}

impl<T: TableFile> Lazy<T> {
    fn new(path: PathBuf) -> Lazy<T> {
        Lazy {
            path,
            table: OnceLock::new(),
        }
    }

    fn get(&self) -> Result<&T, ProbeError> {
        match self.table.get_or_init(|| T::open(&self.path).map(Arc::new)) {
            Ok(table) => Ok(table),
            Err(e) => Err(e.clone()),
        }
    }
}

/// The tables added so far, by material (each under its mirrored material too).
#[derive(Default, Clone)]
struct Registry {
    wdl: Registered<WdlTable>,
    dtz: Registered<DtzTable>,
}

/// A collection of Syzygy tables (python-chess's `chess.syzygy.Tablebase`).
///
/// ```no_run
/// use pychess_core::Board;
/// use pychess_syzygy::Tablebase;
/// let tables = Tablebase::new();
/// tables.add_directory("data/syzygy/regular".as_ref(), true, true).unwrap();
/// let board = Board::from_fen("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", false).unwrap();
/// assert_eq!(tables.probe_wdl(&board), Ok(-2));
/// assert_eq!(tables.probe_dtz(&board), Ok(-53));
/// ```
#[derive(Default)]
pub struct Tablebase {
    registry: RwLock<Arc<Registry>>,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    fn snapshot(&self) -> Arc<Registry> {
        self.registry
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn update(&self, change: impl FnOnce(&mut Registry)) {
        let mut guard = self.registry.write().unwrap_or_else(|e| e.into_inner());
        let mut next = Registry::clone(&guard);
        change(&mut next);
        *guard = Arc::new(next);
    }

    /// Adds the tables of a directory (python-chess's `add_directory`): every file named as a
    /// table (`KQvKR.rtbw`, `KRBvK.rtbz`, ...). Returns how many were found; they open when
    /// first probed.
    pub fn add_directory(
        &self,
        directory: &Path,
        load_wdl: bool,
        load_dtz: bool,
    ) -> std::io::Result<usize> {
        let directory = if directory.is_absolute() {
            directory.to_path_buf()
        } else {
            std::env::current_dir()?.join(directory)
        };
        let mut paths = Vec::new();
        for entry in std::fs::read_dir(&directory)? {
            paths.push(directory.join(entry?.file_name()));
        }
        Ok(paths
            .iter()
            .map(|path| self.add_file(path, load_wdl, load_dtz))
            .sum())
    }

    /// Adds one table file if its name is a table's (python-chess's `add_file`); 1 if added.
    pub fn add_file(&self, path: &Path, load_wdl: bool, load_dtz: bool) -> usize {
        let (Some(name), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            return 0;
        };
        if !is_tablename(name, true, Some(MAX_PIECES), true) || !path.is_file() {
            return 0;
        }
        let keys = |mirror| {
            normalize_tablename(name, mirror)
                .ok()
                .and_then(|n| Material::from_name(&n).ok())
        };
        let (Some(key), Some(mirrored)) = (keys(false), keys(true)) else {
            return 0;
        };
        match ext {
            "rtbw" if load_wdl => {
                let table = Arc::new(Lazy::new(path.to_path_buf()));
                self.update(|r| {
                    r.wdl.insert(key, table.clone());
                    r.wdl.insert(mirrored, table);
                });
                1
            }
            "rtbz" if load_dtz => {
                let table = Arc::new(Lazy::new(path.to_path_buf()));
                self.update(|r| {
                    r.dtz.insert(key, table.clone());
                    r.dtz.insert(mirrored, table);
                });
                1
            }
            _ => 0,
        }
    }

    /// The most pieces of any WDL table added (0 without tables): positions with more are
    /// not worth probing.
    pub fn max_pieces(&self) -> u32 {
        self.snapshot()
            .wdl
            .keys()
            .map(|m| m.total())
            .max()
            .unwrap_or(0)
    }

    /// How many table files (WDL and DTZ) were added.
    pub fn table_count(&self) -> usize {
        let registry = self.snapshot();
        let distinct = |paths: Vec<&PathBuf>| {
            let mut paths = paths;
            paths.sort();
            paths.dedup();
            paths.len()
        };
        distinct(registry.wdl.values().map(|t| &t.path).collect())
            + distinct(registry.dtz.values().map(|t| &t.path).collect())
    }

    /// Forgets every table (python-chess's `close`); probes in flight finish first with the
    /// tables they hold.
    pub fn close(&self) {
        self.update(|r| *r = Registry::default());
    }

    /// Win/draw/loss for the side to move under the 50-move rule, assuming the clock was just
    /// reset (python-chess's `probe_wdl`): 2 win, 1 cursed win (a win the 50-move rule turns
    /// into a draw), 0 draw, -1 blessed loss, -2 loss.
    pub fn probe_wdl(&self, board: &Board) -> Result<i32, ProbeError> {
        Prober(&self.snapshot()).probe_wdl(board)
    }

    /// Distance to zeroing (DTZ50'' with rounding, python-chess's `probe_dtz`): positive when
    /// the side to move wins, negative when it loses, 0 for a draw; beyond ±100 when the
    /// 50-move rule saves the loser.
    pub fn probe_dtz(&self, board: &Board) -> Result<i32, ProbeError> {
        Prober(&self.snapshot()).probe_dtz(board)
    }

    /// The WDL table's value without captures or en passant (python-chess's
    /// `Tablebase.probe_wdl_table`).
    pub fn probe_wdl_table(&self, board: &Board) -> Result<i32, ProbeError> {
        Prober(&self.snapshot()).wdl_table(board)
    }

    /// [`Tablebase::probe_dtz`] without the en-passant captures (python-chess's
    /// `probe_dtz_no_ep`).
    pub fn probe_dtz_no_ep(&self, board: &Board) -> Result<i32, ProbeError> {
        Prober(&self.snapshot()).probe_dtz_no_ep(board)
    }

    /// The DTZ table's entry (python-chess's `Tablebase.probe_dtz_table`): `(entry, 1)`, or
    /// `(0, -1)` when the table holds the other side to move.
    pub fn probe_dtz_table(&self, board: &Board, wdl: i32) -> Result<(i32, i32), ProbeError> {
        Prober(&self.snapshot()).dtz_table(board, wdl)
    }

    /// python-chess's `probe_ab`: the WDL value within `alpha..beta` after captures, and 2
    /// when a capture decided it (1 otherwise).
    pub fn probe_ab(&self, board: &Board, alpha: i32, beta: i32) -> Result<(i32, i32), ProbeError> {
        Prober(&self.snapshot()).probe_ab(board, alpha, beta)
    }
}

/// The probes over one registry snapshot.
struct Prober<'a>(&'a Registry);

fn lookup<'r, T: TableFile>(map: &'r Registered<T>, board: &Board) -> Result<&'r T, ProbeError> {
    let key = Material::of(board);
    match map.get(&key) {
        Some(table) => table.get(),
        None => {
            let count = board.occupied().count();
            if T::KIND == TableKind::Wdl && count > MAX_PIECES {
                Err(ProbeError::TooManyPieces {
                    count,
                    fen: board.fen(),
                })
            } else {
                Err(ProbeError::MissingTable {
                    kind: T::KIND,
                    key: key.key(),
                })
            }
        }
    }
}

/// The DTZ of a position of WDL value `wdl` whose best move zeroes the clock (python-chess's
/// `dtz_before_zeroing`): ±1 for a win or loss, ±101 for a cursed win or blessed loss.
pub fn dtz_before_zeroing(wdl: i32) -> i32 {
    wdl.signum() * if wdl.abs() == 2 { 1 } else { 101 }
}

/// Does the side to move have only en-passant captures as legal moves?
fn only_en_passant(board: &Board) -> bool {
    board.legal_moves().iter().all(|m| m.is_en_passant())
}

impl Prober<'_> {
    fn wdl_table(&self, board: &Board) -> Result<i32, ProbeError> {
        if board.by_role(Role::King) == board.occupied() {
            return Ok(0);
        }
        lookup(&self.0.wdl, board)?.probe(board)
    }

    fn dtz_table(&self, board: &Board, wdl: i32) -> Result<(i32, i32), ProbeError> {
        lookup(&self.0.dtz, board)?.probe(board, wdl)
    }

    fn probe_ab(&self, board: &Board, mut alpha: i32, beta: i32) -> Result<(i32, i32), ProbeError> {
        if board.castling_rights().nonempty() {
            return Err(ProbeError::CastlingRights { fen: board.fen() });
        }
        // Captures resolve to smaller tables; one piece over the largest table is allowed.
        let count = board.occupied().count();
        if count > MAX_PIECES + 1 {
            return Err(ProbeError::TooManyPieces {
                count,
                fen: board.fen(),
            });
        }
        let theirs = board.by_color(!board.turn());
        for &m in board.legal_moves_masked(Bitboard::FULL, theirs).iter() {
            let (v, _) = self.probe_ab(&board.after(m), -beta, -alpha)?;
            let v = -v;
            if v > alpha {
                if v >= beta {
                    return Ok((v, 2));
                }
                alpha = v;
            }
        }
        let v = self.wdl_table(board)?;
        Ok(if alpha >= v {
            (alpha, 1 + i32::from(alpha > 0))
        } else {
            (v, 1)
        })
    }

    /// The best WDL value of the legal en-passant captures, -3 when there is none.
    fn best_en_passant(&self, board: &Board) -> Result<i32, ProbeError> {
        let mut best = -3;
        for &m in board.legal_ep_moves(Bitboard::FULL, Bitboard::FULL).iter() {
            let (v, _) = self.probe_ab(&board.after(m), -2, 2)?;
            best = best.max(-v);
        }
        Ok(best)
    }

    fn probe_wdl(&self, board: &Board) -> Result<i32, ProbeError> {
        let (mut v, _) = self.probe_ab(board, -2, 2)?;
        if board.ep_square().is_none() {
            return Ok(v);
        }
        let v1 = self.best_en_passant(board)?;
        if v1 > -3 {
            if v1 >= v {
                v = v1;
            } else if v == 0 && only_en_passant(board) {
                // The en-passant capture is forced, though it loses.
                v = v1;
            }
        }
        Ok(v)
    }

    fn probe_dtz_no_ep(&self, board: &Board) -> Result<i32, ProbeError> {
        let (wdl, success) = self.probe_ab(board, -2, 2)?;
        if wdl == 0 {
            return Ok(0);
        }
        let pieces = board.by_color(board.turn()) & !board.by_role(Role::Pawn);
        if success == 2 || pieces.is_empty() {
            return Ok(dtz_before_zeroing(wdl));
        }
        if wdl > 0 {
            // A pawn push that keeps the win zeroes the clock at once.
            let pawns = board.pieces(board.turn(), Role::Pawn);
            for &m in board.legal_moves_masked(pawns, !board.occupied()).iter() {
                if m.is_en_passant() {
                    continue;
                }
                let v = -self.probe_wdl(&board.after(m))?;
                if v == wdl {
                    return Ok(if v == 2 { 1 } else { 101 });
                }
            }
        }
        let (dtz, success) = self.dtz_table(board, wdl)?;
        if success >= 0 {
            return Ok(dtz_before_zeroing(wdl) + if wdl > 0 { dtz } else { -dtz });
        }
        // The table stores the other side to move: search one ply.
        if wdl > 0 {
            let mut best = 0xffff;
            let movers = !board.by_role(Role::Pawn);
            for &m in board.legal_moves_masked(movers, !board.occupied()).iter() {
                let after = board.after(m);
                let v = -self.probe_dtz(&after)?;
                if v == 1 && after.is_checkmate() {
                    best = 1;
                } else if v > 0 && v + 1 < best {
                    best = v + 1;
                }
            }
            Ok(best)
        } else {
            let mut best = -1;
            for &m in board.legal_moves().iter() {
                let after = board.after(m);
                let v = if after.halfmove_clock() == 0 {
                    if wdl == -2 {
                        -1
                    } else {
                        let (v, _) = self.probe_ab(&after, 1, 2)?;
                        if v == 2 {
                            0
                        } else {
                            -101
                        }
                    }
                } else {
                    -self.probe_dtz(&after)? - 1
                };
                best = best.min(v);
            }
            Ok(best)
        }
    }

    fn probe_dtz(&self, board: &Board) -> Result<i32, ProbeError> {
        let mut v = self.probe_dtz_no_ep(board)?;
        if board.ep_square().is_none() {
            return Ok(v);
        }
        let v1 = self.best_en_passant(board)?;
        if v1 > -3 {
            let v1 = WDL_TO_DTZ[(v1 + 2) as usize];
            let take = if v < -100 {
                v1 >= 0
            } else if v < 0 {
                !(-100..0).contains(&v1)
            } else if v > 100 {
                v1 > 0
            } else if v > 0 {
                v1 == 1
            } else {
                v1 >= 0 || only_en_passant(board)
            };
            if take {
                v = v1;
            }
        }
        Ok(v)
    }
}
