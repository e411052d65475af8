//! What one byte of a table says: who mates, in how many plies.
//!
//! Each entry is one byte, `store << 2 | info`. `info` 0 is a draw and 3 a position that
//! cannot arise (the side not to move in check), both when `store` is 0. Otherwise `info`
//! 1 says white mates and 2 black mates, in `store`-derived moves: the side to move needs
//! an odd number of plies to mate and the other side an even number, so the store counts
//! moves, and distances beyond 63 moves reuse the draw and impossible codes with a non-zero
//! store. One code is special: the side to move being black, `store` 63 with `info` 0 is a
//! white mate in 254 plies.
//!
//! ```text
//!   white to move           black to move
//!   info 1: W mates 2s+1    info 2: B mates 2s+1
//!   info 2: B mates 2s      info 1: W mates 2s
//!   info 0: W mates 2s+127  info 0: B mates 2s+127 (s = 63: W mates 254)
//!   info 3: B mates 2s+126  info 3: W mates 2s+126
//! ```

/// An entry, read for a side to move, in the table's own colours.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A draw, or a position that cannot arise (both read as a draw).
    Draw,
    /// The table's white mates in this many plies (0: its black is mated now).
    WhiteMates(u32),
    /// The table's black mates in this many plies.
    BlackMates(u32),
}

impl Entry {
    /// Reads `byte` with the table's white (`true`) or black to move.
    pub fn decode(white_to_move: bool, byte: u8) -> Entry {
        if byte == 0 || byte == 3 {
            return Entry::Draw;
        }
        let store = u32::from(byte >> 2);
        let info = byte & 3;
        // (mover mates, plies), read for the side to move.
        let (mover_mates, plies) = match info {
            // The side-to-move's own code, the other side's, then the long distances.
            1 if white_to_move => (true, 2 * store + 1),
            2 if !white_to_move => (true, 2 * store + 1),
            1 | 2 => (false, 2 * store),
            0 if !white_to_move && store == 63 => (false, 254),
            0 => (true, 2 * store + 127),
            _ => (false, 2 * store + 126),
        };
        if mover_mates == white_to_move {
            Entry::WhiteMates(plies)
        } else {
            Entry::BlackMates(plies)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Entry::{self, *};

    #[test]
    fn short_and_long_distances() {
        let byte = |store: u8, info: u8| store << 2 | info;
        assert_eq!(Entry::decode(true, byte(0, 0)), Draw);
        assert_eq!(Entry::decode(false, byte(0, 3)), Draw);
        assert_eq!(Entry::decode(true, byte(4, 1)), WhiteMates(9));
        assert_eq!(Entry::decode(true, byte(4, 2)), BlackMates(8));
        assert_eq!(Entry::decode(false, byte(4, 2)), BlackMates(9));
        assert_eq!(Entry::decode(false, byte(4, 1)), WhiteMates(8));
        // Checkmated now: the other side "mates in 0".
        assert_eq!(Entry::decode(true, byte(0, 2)), BlackMates(0));
        assert_eq!(Entry::decode(true, byte(1, 0)), WhiteMates(129));
        assert_eq!(Entry::decode(true, byte(1, 3)), BlackMates(128));
        assert_eq!(Entry::decode(false, byte(1, 0)), BlackMates(129));
        assert_eq!(Entry::decode(false, byte(1, 3)), WhiteMates(128));
        assert_eq!(Entry::decode(false, byte(63, 0)), WhiteMates(254));
    }
}
