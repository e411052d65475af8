//! One table file: its layout, read once when the file is opened, and the probe of one
//! position in it.
//!
//! A file starts with a 4-byte magic number and a flags byte (bit 0: the two sides to move
//! are stored separately; bit 1: there are four pawn files). Then, per side (and per pawn
//! file), a byte of *orders* (where the leading group sits among the radixes) and the piece
//! codes in the table's order, one nibble per side: `color << 3 | piece type` (pawn = 1 ..
//! king = 6, python-chess's numbers), colour relative to the table's strong side. Then come
//! the parts' pair headers ([`crate::pairs`]), then all index tables, all size tables and the
//! data, each part's data aligned to 64 bytes.
//!
//! DTZ files store one side to move only (bit 0 of each part's flags says which); the other
//! side's positions are answered by a search one ply ahead (`crate::tablebase`). Their values
//! may be remapped through small tables after the headers (flags bit 1; bit 4: 16-bit entries),
//! and are in moves rather than plies unless the flags say otherwise for the result at hand.

use crate::encoding::{self, LEADER_FACTOR, UNIQUE_LEADERS};
use crate::error::{ProbeError, TableKind};
use crate::names::Material;
use crate::pairs::{Pairs, PartSizes};
use crate::reader::{Bytes, Corrupt};
use pychess_core::{Board, Color, Role};
use std::fs::File;
use std::path::{Path, PathBuf};

/// The magic numbers of standard-chess tables.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// The most pieces a table holds.
const MAX: usize = crate::names::MAX_PIECES as usize;

/// Which remap table a WDL result uses (index `wdl + 2`).
const WDL_TO_MAP: [usize; 5] = [1, 3, 0, 2, 0];
/// The DTZ flag saying a result's values are already in plies (index `wdl + 2`).
const PLY_FLAGS: [u8; 5] = [8, 0, 0, 0, 4];

/// What the file name tells: the material and how the table encodes it.
#[derive(Clone, Debug)]
struct Shape {
    /// Pieces in the table.
    num: usize,
    /// Pawn counts: the leading side's (the side with fewer, if it has any), the other's.
    pawns: [usize; 2],
    /// 0 ("111") or 2 ("K2") for pawnless tables.
    enc: usize,
    symmetric: bool,
}

impl Shape {
    fn of(name: &str) -> Option<Shape> {
        let material = Material::from_name(name).ok()?;
        let (strong, weak) = name.split_once('v')?;
        let num = material.total() as usize;
        if !(2..=MAX).contains(&num) {
            return None;
        }
        let count = |side: &str, c: char| side.chars().filter(|&x| x == c).count();
        let mut pawns = [count(weak, 'P'), count(strong, 'P')];
        if pawns[1] > 0 && (pawns[0] == 0 || pawns[1] < pawns[0]) {
            pawns.swap(0, 1);
        }
        let unique = ['K', 'Q', 'R', 'B', 'N', 'P']
            .iter()
            .map(|&c| usize::from(count(strong, c) == 1) + usize::from(count(weak, c) == 1))
            .sum::<usize>();
        let has_pawns = pawns[0] > 0;
        if !has_pawns && unique < 2 {
            // Only variant tables (no unique king) encode otherwise.
            return None;
        }
        let enc = if unique >= 3 { 0 } else { 2 };
        let symmetric = material == material.mirrored();
        Some(Shape {
            num,
            pawns,
            enc,
            symmetric,
        })
    }

    fn has_pawns(&self) -> bool {
        self.pawns[0] > 0
    }
}

/// One part: a side to move (and pawn file), its pieces and index radixes, its values.
#[derive(Debug)]
struct Part {
    pieces: [u8; MAX],
    norm: [u8; MAX],
    factor: [u64; MAX],
    pairs: Pairs,
}

/// The piece order of one part and the size of its index space.
struct Order {
    pieces: [u8; MAX],
    norm: [u8; MAX],
    factor: [u64; MAX],
    size: u64,
}

/// A table file mapped into memory.
pub(crate) struct Mapped {
    path: PathBuf,
    map: memmap2::Mmap,
}

impl Mapped {
    fn open(path: &Path, magic: [u8; 4]) -> Result<Mapped, ProbeError> {
        let open_error = |e: std::io::Error| ProbeError::Open {
            path: path.to_path_buf(),
            kind: e.kind(),
            message: e.to_string(),
        };
        let file = File::open(path).map_err(open_error)?;
        let len = file.metadata().map_err(open_error)?.len();
        let invalid = |what| ProbeError::Invalid {
            path: path.to_path_buf(),
            what,
        };
        if len % 64 != 16 {
            return Err(invalid("file size"));
        }
        let map = map(&file).map_err(open_error)?;
        if map.get(..4) != Some(&magic[..]) {
            return Err(invalid("magic header"));
        }
        Ok(Mapped {
            path: path.to_path_buf(),
            map,
        })
    }

    fn bytes(&self) -> Bytes<'_> {
        Bytes(&self.map)
    }

    fn corrupt(&self) -> ProbeError {
        ProbeError::Invalid {
            path: self.path.clone(),
            what: "table data",
        }
    }
}

#[allow(unsafe_code)]
fn map(file: &File) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and this process never writes the file. memmap2 cannot
    // rule out another process truncating or rewriting a table while it is mapped (reads
    // would then see other bytes, or fault past the new end); tablebases are not written
    // while they are probed, and python-chess maps them the same way. Every read is
    // bounds-checked against the map (`reader`), so a corrupt file gives an error.
    let map = unsafe { memmap2::Mmap::map(file)? };
    #[cfg(unix)]
    {
        // Advice only: a refusal changes nothing but speed.
        let _ = map.advise(memmap2::Advice::Random);
    }
    Ok(map)
}

/// The table's name from its path (`KQvKR` from `dir/KQvKR.rtbw`).
fn table_name(path: &Path) -> Result<String, ProbeError> {
    path.file_stem()
        .and_then(|s| s.to_str())
        .map(str::to_string)
        .ok_or_else(|| ProbeError::Invalid {
            path: path.to_path_buf(),
            what: "table name",
        })
}

fn shape_of(path: &Path) -> Result<(Shape, Material), ProbeError> {
    let name = table_name(path)?;
    let shape = Shape::of(&name).ok_or_else(|| ProbeError::Invalid {
        path: path.to_path_buf(),
        what: "table name",
    })?;
    let key = Material::from_name(&crate::normalize_tablename(&name, false).map_err(|_| {
        ProbeError::Invalid {
            path: path.to_path_buf(),
            what: "table name",
        }
    })?)
    .map_err(|_| ProbeError::Invalid {
        path: path.to_path_buf(),
        what: "table name",
    })?;
    Ok((shape, key))
}

/// Group sizes of a pawnless part: the leaders, then runs of like pieces.
fn norm_piece(shape: &Shape, pieces: &[u8]) -> [u8; MAX] {
    let mut norm = [0u8; MAX];
    let leaders = UNIQUE_LEADERS[shape.enc];
    norm[0] = leaders as u8;
    runs(&mut norm, pieces, leaders, shape.num);
    norm
}

/// Group sizes of a part with pawns: both sides' pawns, then runs of like pieces.
fn norm_pawn(shape: &Shape, pieces: &[u8]) -> [u8; MAX] {
    let mut norm = [0u8; MAX];
    norm[0] = shape.pawns[0] as u8;
    if shape.pawns[1] > 0 {
        norm[shape.pawns[0]] = shape.pawns[1] as u8;
    }
    runs(
        &mut norm,
        pieces,
        shape.pawns[0] + shape.pawns[1],
        shape.num,
    );
    norm
}

fn runs(norm: &mut [u8; MAX], pieces: &[u8], from: usize, num: usize) {
    let mut i = from;
    while i < num {
        let mut j = i;
        while j < num && pieces[j] == pieces[i] {
            norm[i] += 1;
            j += 1;
        }
        i += usize::from(norm[i]);
    }
}

/// Radixes of a pawnless part: the leaders' group sits at position `order`.
fn factors_piece(shape: &Shape, norm: &[u8; MAX], order: u8) -> Result<([u64; MAX], u64), Corrupt> {
    let mut factor = [0u64; MAX];
    let mut n = 64 - i32::from(norm[0]);
    let mut f = 1u64;
    let mut i = usize::from(norm[0]);
    let mut k = 0u8;
    while i < shape.num || k == order {
        if k > 16 {
            return Err(Corrupt);
        }
        if k == order {
            factor[0] = f;
            f *= LEADER_FACTOR[shape.enc];
        } else {
            factor[i] = f;
            f *= encoding::binomial(n, usize::from(norm[i]));
            n -= i32::from(norm[i]);
            i += usize::from(norm[i]);
        }
        k += 1;
    }
    Ok((factor, f))
}

/// Radixes of a part with pawns on pawn file `file`: the leading pawns at `order`, the
/// other side's pawns at `order2` (0x0f: none).
fn factors_pawn(
    shape: &Shape,
    norm: &[u8; MAX],
    order: u8,
    order2: u8,
    file: usize,
) -> Result<([u64; MAX], u64), Corrupt> {
    let mut factor = [0u64; MAX];
    let lead = usize::from(norm[0]);
    let mut i = lead;
    if order2 < 0x0f {
        i += usize::from(norm[i]);
    }
    let mut n = 64 - i as i32;
    let mut f = 1u64;
    let mut k = 0u8;
    while i < shape.num || k == order || k == order2 {
        if k > 16 {
            return Err(Corrupt);
        }
        if k == order {
            factor[0] = f;
            f *= encoding::pawn_factor(lead, file);
        } else if k == order2 {
            factor[lead] = f;
            f *= encoding::binomial(48 - lead as i32, usize::from(norm[lead]));
        } else {
            factor[i] = f;
            f *= encoding::binomial(n, usize::from(norm[i]));
            n -= i32::from(norm[i]);
            i += usize::from(norm[i]);
        }
        k += 1;
    }
    Ok((factor, f))
}

/// The order descriptor at `ptr` for `side` (0: low nibbles, 1: high nibbles).
fn read_order(
    bytes: Bytes<'_>,
    shape: &Shape,
    ptr: usize,
    side: u32,
    file: Option<usize>,
) -> Result<Order, Corrupt> {
    let nibble = |b: u8| if side == 0 { b & 0x0f } else { b >> 4 };
    let mut pieces = [0u8; MAX];
    match file {
        None => {
            for (i, p) in pieces.iter_mut().enumerate().take(shape.num) {
                *p = nibble(bytes.u8(ptr + 1 + i)?);
            }
            let norm = norm_piece(shape, &pieces);
            let (factor, size) = factors_piece(shape, &norm, nibble(bytes.u8(ptr)?))?;
            Ok(Order {
                pieces,
                norm,
                factor,
                size,
            })
        }
        Some(f) => {
            let j = 1 + usize::from(shape.pawns[1] > 0);
            for (i, p) in pieces.iter_mut().enumerate().take(shape.num) {
                *p = nibble(bytes.u8(ptr + j + i)?);
            }
            let order = nibble(bytes.u8(ptr)?);
            let order2 = if shape.pawns[1] > 0 {
                nibble(bytes.u8(ptr + 1)?)
            } else {
                0x0f
            };
            let norm = norm_pawn(shape, &pieces);
            let (factor, size) = factors_pawn(shape, &norm, order, order2, f)?;
            Ok(Order {
                pieces,
                norm,
                factor,
                size,
            })
        }
    }
}

/// Places the index, size and data sections of `parts` (in file order) from `ptr` on.
fn place_sections(parts: &mut [(&mut Pairs, PartSizes)], mut ptr: usize) {
    for (pairs, sizes) in parts.iter_mut() {
        pairs.index_table = ptr;
        ptr += sizes[0] as usize;
    }
    for (pairs, sizes) in parts.iter_mut() {
        pairs.size_table = ptr;
        ptr += sizes[1] as usize;
    }
    for (pairs, sizes) in parts.iter_mut() {
        ptr = (ptr + 0x3f) & !0x3f;
        pairs.data = ptr;
        ptr += sizes[2] as usize;
    }
}

/// How the board's colours map onto the table's: `(color xor, square xor, stored side)`.
fn orientation(board: &Board, key: Material, symmetric: bool) -> (u8, u8, usize) {
    let white = board.turn() == Color::White;
    if !symmetric {
        if Material::of(board) != key {
            (8, 0x38, usize::from(white))
        } else {
            (0, 0, usize::from(!white))
        }
    } else if white {
        (0, 0, 0)
    } else {
        (8, 0x38, 0)
    }
}

/// Fills `pos[i..num]` with the squares of the pieces `codes[i..]` name, in square order.
fn place(
    board: &Board,
    codes: &[u8],
    pos: &mut [u8; MAX],
    mut i: usize,
    num: usize,
    cmirror: u8,
    mirror: u8,
) -> Option<usize> {
    while i < num {
        let code = codes[i];
        let role = Role::from_number(code & 7)?;
        let color = if (code ^ cmirror) >> 3 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let squares = board.pieces(color, role);
        if squares.is_empty() {
            return None;
        }
        for sq in squares {
            *pos.get_mut(i)? = sq.index() as u8 ^ mirror;
            i += 1;
        }
        if i > num {
            return None;
        }
    }
    Some(i)
}

fn wrong_material(table: Material, board: &Board) -> ProbeError {
    ProbeError::WrongMaterial {
        table: table.key(),
        board: Material::of(board).key(),
    }
}

/// A WDL table (`.rtbw`), opened and read.
pub struct WdlTable {
    file: Mapped,
    shape: Shape,
    /// The material as the table stores it, White its first side.
    key: Material,
    /// Per pawn file (one for pawnless tables), per side to move.
    parts: Vec<[Option<Part>; 2]>,
}

impl WdlTable {
    /// Opens and reads the table at `path` (its name says the material).
    pub fn open(path: &Path) -> Result<WdlTable, ProbeError> {
        let (shape, key) = shape_of(path)?;
        let file = Mapped::open(path, WDL_MAGIC)?;
        let (key, parts) = Self::layout(file.bytes(), &shape, key).map_err(|_| file.corrupt())?;
        Ok(WdlTable {
            file,
            shape,
            key,
            parts,
        })
    }

    #[allow(clippy::type_complexity)]
    fn layout(
        bytes: Bytes<'_>,
        shape: &Shape,
        key: Material,
    ) -> Result<(Material, Vec<[Option<Part>; 2]>), Corrupt> {
        let head = bytes.u8(4)?;
        let split = head & 1 != 0;
        let sides = if split { 2 } else { 1 };
        let mut ptr = 5;
        let (orders, files): (Vec<[Order; 2]>, usize) = if !shape.has_pawns() {
            let orders = [
                read_order(bytes, shape, ptr, 0, None)?,
                read_order(bytes, shape, ptr, 1, None)?,
            ];
            ptr += shape.num + 1;
            (vec![orders], 1)
        } else {
            let step = shape.num + 1 + usize::from(shape.pawns[1] > 0);
            let mut all = Vec::new();
            for f in 0..4 {
                all.push([
                    read_order(bytes, shape, ptr, 0, Some(f))?,
                    read_order(bytes, shape, ptr, 1, Some(f))?,
                ]);
                ptr += step;
            }
            (all, if head & 2 != 0 { 4 } else { 1 })
        };
        ptr += ptr & 1;
        let mut headers: Vec<[Option<(Pairs, PartSizes)>; 2]> = Vec::new();
        for order in orders.iter().take(files) {
            let mut both = [None, None];
            for (side, slot) in both.iter_mut().enumerate().take(sides) {
                let (pairs, sizes, next) = Pairs::read(bytes, ptr, order[side].size, true)?;
                *slot = Some((pairs, sizes));
                ptr = next;
            }
            headers.push(both);
        }
        {
            let mut sections: Vec<(&mut Pairs, PartSizes)> = headers
                .iter_mut()
                .flat_map(|both| both.iter_mut().flatten())
                .map(|(pairs, sizes)| (pairs, *sizes))
                .collect();
            place_sections(&mut sections, ptr);
        }
        let key = if shape.has_pawns() {
            key
        } else {
            Material::from_codes(&orders[0][0].pieces[..shape.num])
        };
        let parts = headers
            .into_iter()
            .zip(orders)
            .map(|(both, orders)| {
                let [o0, o1] = orders;
                let mut out = [None, None];
                for ((slot, header), order) in out.iter_mut().zip(both).zip([o0, o1]) {
                    *slot = header.map(|(pairs, _)| Part {
                        pieces: order.pieces,
                        norm: order.norm,
                        factor: order.factor,
                        pairs,
                    });
                }
                out
            })
            .collect();
        Ok((key, parts))
    }

    /// The table's value for `board` (python-chess's `WdlTable.probe_wdl_table`): -2 loss,
    /// -1 blessed loss, 0 draw, 1 cursed win, 2 win for the side to move, as stored (no
    /// captures or en passant considered).
    pub fn probe(&self, board: &Board) -> Result<i32, ProbeError> {
        let shape = &self.shape;
        let (cmirror, mirror, side) = orientation(board, self.key, shape.symmetric);
        let mut pos = [0u8; MAX];
        let bytes = self.file.bytes();
        let wrong = || wrong_material(self.key, board);
        let value = if !shape.has_pawns() {
            let part = self.parts[0][side]
                .as_ref()
                .ok_or_else(|| self.file.corrupt())?;
            place(board, &part.pieces, &mut pos, 0, shape.num, cmirror, 0).ok_or_else(wrong)?;
            let idx =
                encoding::encode_piece(&mut pos[..shape.num], &part.norm, &part.factor, shape.enc);
            part.pairs.value(bytes, idx, true)
        } else {
            let lead = self.parts[0][0]
                .as_ref()
                .ok_or_else(|| self.file.corrupt())?;
            let i = place_leaders(board, lead.pieces[0], &mut pos, cmirror, mirror)
                .ok_or_else(wrong)?;
            let f = encoding::pawn_file(&mut pos, shape.pawns[0]);
            let part = self
                .parts
                .get(f)
                .and_then(|p| p[side].as_ref())
                .ok_or_else(|| self.file.corrupt())?;
            place(board, &part.pieces, &mut pos, i, shape.num, cmirror, mirror)
                .ok_or_else(wrong)?;
            let idx = encoding::encode_pawn(
                &mut pos[..shape.num],
                &part.norm,
                &part.factor,
                shape.pawns[0],
                shape.pawns[1],
            );
            part.pairs.value(bytes, idx, true)
        };
        let value = value.map_err(|_| self.file.corrupt())?;
        Ok(i32::from(value) - 2)
    }
}

/// Places the leading pawns (the piece code `code`, before colour mirroring) at the front.
fn place_leaders(
    board: &Board,
    code: u8,
    pos: &mut [u8; MAX],
    cmirror: u8,
    mirror: u8,
) -> Option<usize> {
    let code = code ^ cmirror;
    let role = Role::from_number(code & 7)?;
    let color = if code >> 3 & 1 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut i = 0;
    for sq in board.pieces(color, role) {
        *pos.get_mut(i)? = sq.index() as u8 ^ mirror;
        i += 1;
    }
    (i > 0).then_some(i)
}

/// A DTZ part with its value remapping.
#[derive(Debug)]
struct DtzPart {
    part: Part,
    /// Where each of the four remap tables starts (in entries from the map area).
    map_idx: [usize; 4],
}

/// A DTZ table (`.rtbz`), opened and read.
pub struct DtzTable {
    file: Mapped,
    shape: Shape,
    key: Material,
    /// Per pawn file (one for pawnless tables): the side stored.
    parts: Vec<DtzPart>,
    /// Where the remap tables start.
    map: usize,
}

impl DtzTable {
    /// Opens and reads the table at `path` (its name says the material).
    pub fn open(path: &Path) -> Result<DtzTable, ProbeError> {
        let (shape, key) = shape_of(path)?;
        let file = Mapped::open(path, DTZ_MAGIC)?;
        let (key, parts, map) =
            Self::layout(file.bytes(), &shape, key).map_err(|_| file.corrupt())?;
        Ok(DtzTable {
            file,
            shape,
            key,
            parts,
            map,
        })
    }

    fn layout(
        bytes: Bytes<'_>,
        shape: &Shape,
        key: Material,
    ) -> Result<(Material, Vec<DtzPart>, usize), Corrupt> {
        let head = bytes.u8(4)?;
        let mut ptr = 5;
        let (orders, files) = if !shape.has_pawns() {
            let order = read_order(bytes, shape, ptr, 0, None)?;
            ptr += shape.num + 1;
            (vec![order], 1)
        } else {
            let step = shape.num + 1 + usize::from(shape.pawns[1] > 0);
            let mut all = Vec::new();
            for f in 0..4 {
                all.push(read_order(bytes, shape, ptr, 0, Some(f))?);
                ptr += step;
            }
            (all, if head & 2 != 0 { 4 } else { 1 })
        };
        ptr += ptr & 1;
        let mut headers = Vec::new();
        for order in orders.iter().take(files) {
            let (pairs, sizes, next) = Pairs::read(bytes, ptr, order.size, false)?;
            headers.push((pairs, sizes));
            ptr = next;
        }
        let map = ptr;
        let mut map_idx = vec![[0usize; 4]; files];
        for (f, (pairs, _)) in headers.iter().enumerate() {
            if pairs.flags & 2 == 0 {
                continue;
            }
            if pairs.flags & 16 == 0 {
                for slot in map_idx[f].iter_mut() {
                    *slot = ptr + 1 - map;
                    ptr += 1 + usize::from(bytes.u8(ptr)?);
                }
            } else {
                if shape.has_pawns() {
                    ptr += ptr & 1;
                }
                for slot in map_idx[f].iter_mut() {
                    *slot = (ptr + 2 - map) / 2;
                    ptr += 2 + 2 * usize::from(bytes.u16_le(ptr)?);
                }
            }
        }
        ptr += ptr & 1;
        {
            let mut sections: Vec<(&mut Pairs, PartSizes)> = headers
                .iter_mut()
                .map(|(pairs, sizes)| (pairs, *sizes))
                .collect();
            place_sections(&mut sections, ptr);
        }
        let key = if shape.has_pawns() {
            key
        } else {
            Material::from_codes(&orders[0].pieces[..shape.num])
        };
        let parts = headers
            .into_iter()
            .zip(orders)
            .zip(map_idx)
            .map(|(((pairs, _), order), map_idx)| DtzPart {
                part: Part {
                    pieces: order.pieces,
                    norm: order.norm,
                    factor: order.factor,
                    pairs,
                },
                map_idx,
            })
            .collect();
        Ok((key, parts, map))
    }

    /// The table's entry for `board`, whose WDL value is `wdl` (python-chess's
    /// `DtzTable.probe_dtz_table`): `(entry, 1)`, or `(0, -1)` when the table stores the
    /// other side to move.
    pub fn probe(&self, board: &Board, wdl: i32) -> Result<(i32, i32), ProbeError> {
        if !(-2..=2).contains(&wdl) {
            return Err(ProbeError::WdlOutOfRange(wdl));
        }
        let shape = &self.shape;
        let (cmirror, mirror, side) = orientation(board, self.key, shape.symmetric);
        let mut pos = [0u8; MAX];
        let bytes = self.file.bytes();
        let wrong = || wrong_material(self.key, board);
        let corrupt = || self.file.corrupt();
        let (dtz, idx) = if !shape.has_pawns() {
            let dtz = &self.parts[0];
            if usize::from(dtz.part.pairs.flags & 1) != side && !shape.symmetric {
                return Ok((0, -1));
            }
            place(board, &dtz.part.pieces, &mut pos, 0, shape.num, cmirror, 0).ok_or_else(wrong)?;
            let idx = encoding::encode_piece(
                &mut pos[..shape.num],
                &dtz.part.norm,
                &dtz.part.factor,
                shape.enc,
            );
            (dtz, idx)
        } else {
            let lead = self.parts[0].part.pieces[0];
            let i = place_leaders(board, lead, &mut pos, cmirror, mirror).ok_or_else(wrong)?;
            let f = encoding::pawn_file(&mut pos, shape.pawns[0]);
            let dtz = self.parts.get(f).ok_or_else(corrupt)?;
            if usize::from(dtz.part.pairs.flags & 1) != side {
                return Ok((0, -1));
            }
            place(
                board,
                &dtz.part.pieces,
                &mut pos,
                i,
                shape.num,
                cmirror,
                mirror,
            )
            .ok_or_else(wrong)?;
            let idx = encoding::encode_pawn(
                &mut pos[..shape.num],
                &dtz.part.norm,
                &dtz.part.factor,
                shape.pawns[0],
                shape.pawns[1],
            );
            (dtz, idx)
        };
        let flags = dtz.part.pairs.flags;
        let mut value = usize::from(
            dtz.part
                .pairs
                .value(bytes, idx, false)
                .map_err(|_| corrupt())?,
        );
        let result = (wdl + 2) as usize;
        if flags & 2 != 0 {
            let start = dtz.map_idx[WDL_TO_MAP[result]];
            value = if flags & 16 == 0 {
                usize::from(bytes.u8(self.map + start + value).map_err(|_| corrupt())?)
            } else {
                usize::from(
                    bytes
                        .u16_le(self.map + 2 * (start + value))
                        .map_err(|_| corrupt())?,
                )
            };
        }
        let mut value = value as i32;
        if flags & PLY_FLAGS[result] == 0 || wdl & 1 != 0 {
            value *= 2;
        }
        Ok((value, 1))
    }
}

/// A table's kind, for [`crate::Tablebase`]'s registry.
pub(crate) trait TableFile: Sized + Send + Sync {
    const KIND: TableKind;
    fn open(path: &Path) -> Result<Self, ProbeError>;
}

impl TableFile for WdlTable {
    const KIND: TableKind = TableKind::Wdl;
    fn open(path: &Path) -> Result<Self, ProbeError> {
        WdlTable::open(path)
    }
}

impl TableFile for DtzTable {
    const KIND: TableKind = TableKind::Dtz;
    fn open(path: &Path) -> Result<Self, ProbeError> {
        DtzTable::open(path)
    }
}
