//! The compressed value stream of one table part: reading its header and finding the value
//! at an index.
//!
//! A part's values are compressed with *pairs*: every symbol is either a value or the pair
//! of two earlier symbols, and the symbols are written with a canonical prefix code. The
//! data is cut into blocks of `2^blocksize` bytes, each a whole number of symbols; a
//! *size table* says how many values each block holds (minus one), and a sparse *index
//! table* gives, every `2^idxbits` values, the block and offset in it of that value, so a
//! lookup starts in the right block and walks at most a few blocks from there.
//!
//! Layout of the header at `ptr` (little-endian unless said):
//!
//! ```text
//! ptr+0  flags          bit 7: every value is the same (then ptr+1 is it, for WDL)
//! ptr+1  blocksize      log2 of the block size in bytes
//! ptr+2  idxbits        log2 of the index table's spacing
//! ptr+3  extra blocks   size-table entries beyond the real blocks
//! ptr+4  u32 blocks     real number of blocks
//! ptr+8  max_len, ptr+9 min_len   code lengths
//! ptr+10 u16 x h        per code length, the first symbol of that length (h = max-min+1)
//! then   u16 symbols    the number of symbols, then 3 bytes each: two 12-bit halves,
//!                       0xfff in the second meaning "a value, in the first"
//! ```

use crate::reader::{Bytes, Corrupt};
use std::sync::OnceLock;

/// Parts with at most this many blocks keep, per block, where each symbol's values start
/// (built on the block's first probe, then read without locks): a lookup is a binary search
/// instead of a walk over up to a few hundred symbols. Bounded so that large tables (whose
/// blocks number in the millions) keep no per-block state.
const INDEXED_BLOCKS: u64 = 1 << 15;

/// The symbols of one block, in order, with the index of each one's first value.
#[derive(Debug)]
struct BlockIndex {
    starts: Box<[u32]>,
    symbols: Box<[u16]>,
}

/// One part's decoder. Offsets are into the table file.
#[derive(Debug, Default)]
pub(crate) struct Pairs {
    /// The header's flags byte (DTZ tables keep more in it, see `table`).
    pub flags: u8,
    /// 0 when the part holds one value only (`min_len` is then that value).
    idx_bits: u32,
    block_size: u32,
    min_len: u32,
    /// Per code length (from `min_len`), the first symbol of that length.
    first_symbol: Vec<u16>,
    /// The symbols, read once from the file's symbol table.
    symbols: Vec<Symbol>,
    /// Per code length (from `min_len`), the smallest left-aligned code of that length.
    base: Vec<u64>,
    pub index_table: usize,
    pub size_table: usize,
    pub data: usize,
    /// Per block of a small part, its [`BlockIndex`] once built (empty for large parts).
    block_index: Box<[OnceLock<BlockIndex>]>,
}

/// One symbol: how many values it stands for, and its halves (for a value symbol, the
/// value in `left`).
#[derive(Copy, Clone, Debug, Default)]
struct Symbol {
    count: u32,
    left: u16,
    right: u16,
}

/// The sizes in bytes of a part's index table, size table and data.
pub(crate) type PartSizes = [u64; 3];

impl Pairs {
    /// Reads the header at `ptr` of a part of `tb_size` values. Returns the decoder, the
    /// sizes of its three sections and where the next header starts. `wdl` says the table
    /// kind (a one-valued DTZ part has the value 0).
    pub fn read(
        bytes: Bytes<'_>,
        ptr: usize,
        tb_size: u64,
        wdl: bool,
    ) -> Result<(Pairs, PartSizes, usize), Corrupt> {
        let flags = bytes.u8(ptr)?;
        if flags & 0x80 != 0 {
            let value = if wdl { bytes.u8(ptr + 1)? } else { 0 };
            let pairs = Pairs {
                flags,
                min_len: u32::from(value),
                ..Pairs::default()
            };
            return Ok((pairs, [0; 3], ptr + 2));
        }
        let block_size = u32::from(bytes.u8(ptr + 1)?);
        let idx_bits = u32::from(bytes.u8(ptr + 2)?);
        if idx_bits == 0 || idx_bits > 40 || block_size > 31 {
            return Err(Corrupt);
        }
        let real_blocks = u64::from(bytes.u32_le(ptr + 4)?);
        let blocks = real_blocks + u64::from(bytes.u8(ptr + 3)?);
        let max_len = u32::from(bytes.u8(ptr + 8)?);
        let min_len = u32::from(bytes.u8(ptr + 9)?);
        if min_len == 0 || max_len < min_len || max_len > 63 {
            return Err(Corrupt);
        }
        let h = (max_len - min_len + 1) as usize;
        let symbols = usize::from(bytes.u16_le(ptr + 10 + 2 * h)?);
        let offset = ptr + 10;
        let sym_pat = ptr + 12 + 2 * h;
        let next = sym_pat + 3 * symbols + (symbols & 1);
        let indices = (tb_size + (1 << idx_bits) - 1) >> idx_bits;
        let sizes = [6 * indices, 2 * blocks, (1u64 << block_size) * real_blocks];

        let sym_len = symbol_lengths(bytes, sym_pat, symbols)?;
        let symbols = (0..symbols)
            .map(|s| {
                let (left, right) = halves(bytes, sym_pat + 3 * s)?;
                Ok(Symbol {
                    count: sym_len[s] + 1,
                    left: left as u16,
                    right: right as u16,
                })
            })
            .collect::<Result<Vec<Symbol>, Corrupt>>()?;
        let first_symbol = (0..h)
            .map(|i| bytes.u16_le(offset + 2 * i))
            .collect::<Result<Vec<u16>, Corrupt>>()?;

        // The canonical code: base[i] is the first code of length min_len + i, left-aligned
        // in 64 bits; the longest length starts at 0.
        let mut base = vec![0u64; h];
        for i in (0..h - 1).rev() {
            let here = u64::from(bytes.u16_le(offset + 2 * i)?);
            let next_len = u64::from(bytes.u16_le(offset + 2 * i + 2)?);
            base[i] = (base[i + 1] + here).checked_sub(next_len).ok_or(Corrupt)? / 2;
        }
        for (i, b) in base.iter_mut().enumerate() {
            *b = b.checked_shl(64 - (min_len + i as u32)).unwrap_or(0);
        }
        let indexed = if real_blocks <= INDEXED_BLOCKS {
            real_blocks as usize
        } else {
            0
        };
        let pairs = Pairs {
            block_index: (0..indexed).map(|_| OnceLock::new()).collect(),
            flags,
            idx_bits,
            block_size,
            min_len,
            first_symbol,
            symbols,
            base,
            ..Pairs::default()
        };
        Ok((pairs, sizes, next))
    }

    /// The value at `idx` (a WDL value plus two, or a DTZ table entry).
    pub fn value(&self, bytes: Bytes<'_>, idx: u64, wdl: bool) -> Result<u16, Corrupt> {
        if self.idx_bits == 0 {
            return Ok(self.min_len as u16);
        }
        let main = (idx >> self.idx_bits) as usize;
        let mut lit = (idx & ((1 << self.idx_bits) - 1)) as i64 - (1i64 << (self.idx_bits - 1));
        let entry = self.index_table + 6 * main;
        let mut block = i64::from(bytes.u32_le(entry)?);
        lit += i64::from(bytes.u16_le(entry + 4)?);
        let block_values = |block: i64| -> Result<i64, Corrupt> {
            let at = usize::try_from(block).map_err(|_| Corrupt)?;
            Ok(i64::from(bytes.u16_le(self.size_table + 2 * at)?))
        };
        if lit < 0 {
            while lit < 0 {
                block -= 1;
                lit += block_values(block)? + 1;
            }
        } else {
            loop {
                let size = block_values(block)?;
                if lit <= size {
                    break;
                }
                lit -= size + 1;
                block += 1;
            }
        }
        let block = usize::try_from(block).map_err(|_| Corrupt)?;
        let sym = match self.block_index.get(block) {
            Some(cell) => {
                let index = match cell.get() {
                    Some(index) => index,
                    None => {
                        let built = self.index_block(bytes, block)?;
                        cell.get_or_init(|| built)
                    }
                };
                let at = index.starts.partition_point(|&s| i64::from(s) <= lit);
                let at = at.checked_sub(1).ok_or(Corrupt)?;
                lit -= i64::from(index.starts[at]);
                usize::from(index.symbols[at])
            }
            None => self.walk_block(bytes, block, &mut lit)?,
        };
        let symbols = &self.symbols[..];
        // Unfold the pair symbol down to the value.
        let mut symbol = symbols[sym];
        while symbol.count > 1 {
            let left = symbols.get(usize::from(symbol.left)).ok_or(Corrupt)?;
            symbol = if lit < i64::from(left.count) {
                *left
            } else {
                lit -= i64::from(left.count);
                *symbols.get(usize::from(symbol.right)).ok_or(Corrupt)?
            };
        }
        Ok(if wdl { symbol.left & 0xff } else { symbol.left })
    }
}

impl Pairs {
    /// The symbols of `block` from its start: calls `visit(symbol)` for each until it
    /// returns false.
    fn for_symbols(
        &self,
        bytes: Bytes<'_>,
        block: usize,
        mut visit: impl FnMut(usize, u32) -> bool,
    ) -> Result<(), Corrupt> {
        let mut ptr = self.data + (block << self.block_size);
        let m = self.min_len;
        let mut code = bytes.u64_be(ptr)?;
        ptr += 8;
        let mut bits = 0u32;
        let base = &self.base[..];
        loop {
            // base's last entry is 0, so the search stops within it.
            let l = base.iter().position(|&b| code >= b).ok_or(Corrupt)?;
            let len = m + l as u32;
            let sym = usize::from(self.first_symbol[l]) + ((code - base[l]) >> (64 - len)) as usize;
            let count = self.symbols.get(sym).ok_or(Corrupt)?.count;
            if !visit(sym, count) {
                return Ok(());
            }
            code <<= len;
            bits += len;
            if bits >= 32 {
                bits -= 32;
                code |= u64::from(bytes.u32_be(ptr)?) << bits;
                ptr += 4;
            }
        }
    }

    /// Every symbol of `block` with the index of its first value.
    fn index_block(&self, bytes: Bytes<'_>, block: usize) -> Result<BlockIndex, Corrupt> {
        let values = u64::from(bytes.u16_le(self.size_table + 2 * block)?) + 1;
        let (mut starts, mut symbols) = (Vec::new(), Vec::new());
        let mut start = 0u64;
        self.for_symbols(bytes, block, |sym, count| {
            starts.push(start as u32);
            symbols.push(sym as u16);
            start += u64::from(count);
            start < values
        })?;
        Ok(BlockIndex {
            starts: starts.into(),
            symbols: symbols.into(),
        })
    }

    /// Walks `block` to the symbol holding value `lit`, leaving `lit` relative to it.
    fn walk_block(&self, bytes: Bytes<'_>, block: usize, lit: &mut i64) -> Result<usize, Corrupt> {
        let mut found = 0;
        self.for_symbols(bytes, block, |sym, count| {
            if *lit < i64::from(count) {
                found = sym;
                false
            } else {
                *lit -= i64::from(count);
                true
            }
        })?;
        Ok(found)
    }
}

/// The two 12-bit halves of the symbol at `w`.
fn halves(bytes: Bytes<'_>, w: usize) -> Result<(usize, usize), Corrupt> {
    let (b0, b1, b2) = (bytes.u8(w)?, bytes.u8(w + 1)?, bytes.u8(w + 2)?);
    let left = (usize::from(b1 & 0x0f) << 8) | usize::from(b0);
    let right = (usize::from(b2) << 4) | usize::from(b1 >> 4);
    Ok((left, right))
}

/// How many values each symbol stands for, minus one: a value symbol 0, a pair one more
/// than its halves together. Computed depth-first without recursion; a cycle (a corrupt
/// file) is an error.
fn symbol_lengths(bytes: Bytes<'_>, sym_pat: usize, symbols: usize) -> Result<Vec<u32>, Corrupt> {
    let mut len = vec![0u32; symbols];
    let mut done = vec![false; symbols];
    for start in 0..symbols {
        if done[start] {
            continue;
        }
        // Depth-first without recursion: a stack of symbols whose halves are pending.
        let mut stack = vec![start];
        while let Some(&s) = stack.last() {
            if stack.len() > symbols + 1 {
                return Err(Corrupt);
            }
            let (left, right) = halves(bytes, sym_pat + 3 * s)?;
            if right == 0x0fff {
                len[s] = 0;
                done[s] = true;
                stack.pop();
                continue;
            }
            if left >= symbols || right >= symbols {
                return Err(Corrupt);
            }
            if !done[left] {
                stack.push(left);
                continue;
            }
            if !done[right] {
                stack.push(right);
                continue;
            }
            len[s] = len[left] + len[right] + 1;
            done[s] = true;
            stack.pop();
        }
    }
    Ok(len)
}
