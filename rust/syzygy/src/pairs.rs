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

/// One part's decoder. Offsets are into the table file.
#[derive(Debug, Default)]
pub(crate) struct Pairs {
    /// The header's flags byte (DTZ tables keep more in it, see `table`).
    pub flags: u8,
    /// 0 when the part holds one value only (`min_len` is then that value).
    idx_bits: u32,
    block_size: u32,
    min_len: u32,
    /// Offset of the first-symbol table (one u16 per code length from `min_len`).
    offset: usize,
    /// Offset of the symbol table.
    sym_pat: usize,
    /// Per symbol, how many values it stands for, minus one.
    sym_len: Vec<u32>,
    /// Per code length (from `min_len`), the smallest left-aligned code of that length.
    base: Vec<u64>,
    pub index_table: usize,
    pub size_table: usize,
    pub data: usize,
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
        let pairs = Pairs {
            flags,
            idx_bits,
            block_size,
            min_len,
            offset,
            sym_pat,
            sym_len,
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
        let mut ptr = self.data + ((block as usize) << self.block_size);

        // Walk the block's symbols until the one holding value `lit`.
        let m = self.min_len;
        let mut code = bytes.u64_be(ptr)?;
        ptr += 8;
        let mut bits = 0u32;
        let mut sym;
        loop {
            let mut l = m;
            while code < *self.base.get((l - m) as usize).ok_or(Corrupt)? {
                l += 1;
            }
            sym = usize::from(bytes.u16_le(self.offset + 2 * (l - m) as usize)?);
            sym += ((code - self.base[(l - m) as usize]) >> (64 - l)) as usize;
            let len = i64::from(*self.sym_len.get(sym).ok_or(Corrupt)?);
            if lit < len + 1 {
                break;
            }
            lit -= len + 1;
            code <<= l;
            bits += l;
            if bits >= 32 {
                bits -= 32;
                code |= u64::from(bytes.u32_be(ptr)?) << bits;
                ptr += 4;
            }
        }
        // Unfold the pair symbol down to the value.
        while self.sym_len[sym] != 0 {
            let (left, right) = halves(bytes, self.sym_pat + 3 * sym)?;
            let left_len = i64::from(*self.sym_len.get(left).ok_or(Corrupt)?);
            if lit < left_len + 1 {
                sym = left;
            } else {
                lit -= left_len + 1;
                sym = right;
            }
            if sym >= self.sym_len.len() {
                return Err(Corrupt);
            }
        }
        let w = self.sym_pat + 3 * sym;
        Ok(if wdl {
            u16::from(bytes.u8(w)?)
        } else {
            (u16::from(bytes.u8(w + 1)? & 0x0f) << 8) | u16::from(bytes.u8(w)?)
        })
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
