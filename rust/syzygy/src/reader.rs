//! Bounds-checked reads from a mapped table: a corrupt or truncated file is an error, never
//! a read out of the map.

/// A table file's bytes were not what the format says (truncated, or an offset out of range).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Corrupt;

/// A view of a table file.
#[derive(Copy, Clone)]
pub(crate) struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    #[inline]
    fn array<const N: usize>(self, at: usize) -> Result<[u8; N], Corrupt> {
        let end = at.checked_add(N).ok_or(Corrupt)?;
        let slice = self.0.get(at..end).ok_or(Corrupt)?;
        slice.try_into().map_err(|_| Corrupt)
    }

    #[inline]
    pub fn u8(self, at: usize) -> Result<u8, Corrupt> {
        self.0.get(at).copied().ok_or(Corrupt)
    }

    #[inline]
    pub fn u16_le(self, at: usize) -> Result<u16, Corrupt> {
        self.array(at).map(u16::from_le_bytes)
    }

    #[inline]
    pub fn u32_le(self, at: usize) -> Result<u32, Corrupt> {
        self.array(at).map(u32::from_le_bytes)
    }

    #[inline]
    pub fn u32_be(self, at: usize) -> Result<u32, Corrupt> {
        self.array(at).map(u32::from_be_bytes)
    }

    #[inline]
    pub fn u64_be(self, at: usize) -> Result<u64, Corrupt> {
        self.array(at).map(u64::from_be_bytes)
    }
}
