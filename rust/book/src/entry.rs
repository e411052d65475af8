//! One book entry and its move, as the Polyglot format lays them out: 16 bytes, big-endian,
//! `key: u64, move: u16, weight: u16, learn: u32`. The move packs the target square in bits
//! 0-5, the origin square in bits 6-11 (both `8 * rank + file`, a1 = 0) and a promotion code
//! in bits 12-14 (0 none, 1 knight, 2 bishop, 3 rook, 4 queen).

use pychess_core::notation::uci::UciDrop;
use pychess_core::{Role, Square, UciMove};
use std::fmt;

/// The size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// One entry of a book: a position key, a move in Polyglot's 16 bits, a weight and a learn
/// value (python-chess's `Entry` without the decoded move).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The Polyglot Zobrist hash of the position.
    pub key: u64,
    /// The move as the book stores it (see [`RawMove`]).
    pub raw_move: u16,
    /// How often the move should be chosen, relative to the position's other entries.
    pub weight: u16,
    /// Free for the book's author; Polyglot itself keeps learning data here.
    pub learn: u32,
}

impl Entry {
    /// Reads an entry from its 16 bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, l0, l1, l2, l3] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The entry's 16 bytes, as a book file holds them.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut bytes = [0; ENTRY_SIZE];
        bytes[0..8].copy_from_slice(&self.key.to_be_bytes());
        bytes[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        bytes[10..12].copy_from_slice(&self.weight.to_be_bytes());
        bytes[12..16].copy_from_slice(&self.learn.to_be_bytes());
        bytes
    }

    /// The entry's move, decoded.
    pub fn raw(&self) -> RawMove {
        RawMove(self.raw_move)
    }

    /// Polyglot's 16 bits for a move between two squares, promoting or not (castling is
    /// written as the book wants it: Polyglot writes king-takes-rook, `e1h1`). A promotion to
    /// a pawn or a king, which Polyglot cannot write, is written without the promotion.
    pub fn encode_move(m: UciMove) -> u16 {
        let code = match m.promotion {
            Some(Role::Knight) => 1,
            Some(Role::Bishop) => 2,
            Some(Role::Rook) => 3,
            Some(Role::Queen) => 4,
            _ => 0,
        };
        (code << 12) | ((m.from.index() as u16) << 6) | m.to.index() as u16
    }
}

/// A move in Polyglot's 16 bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RawMove(pub u16);

/// A raw move whose promotion code (5 to 7) names no promotion: python-chess makes a `Move`
/// with a piece type past the king (or a king promotion) that no board plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UnknownPiece {
    /// The raw move.
    pub raw_move: u16,
}

impl fmt::Display for UnknownPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "raw move 0x{:04x}: promotion code {} names no piece type",
            self.raw_move,
            (self.raw_move >> 12) & 7
        )
    }
}

impl std::error::Error for UnknownPiece {}

impl RawMove {
    /// The origin square (bits 6-11).
    pub fn from(self) -> Square {
        Square::new(((self.0 >> 6) & 0x3f) as u8)
    }

    /// The target square (bits 0-5).
    pub fn to(self) -> Square {
        Square::new((self.0 & 0x3f) as u8)
    }

    /// The promotion code (bits 12-14): 0 none, 1 knight, 2 bishop, 3 rook, 4 queen.
    pub fn promotion_code(self) -> u8 {
        ((self.0 >> 12) & 7) as u8
    }

    /// The move python-chess's reader makes of these bits, as the core's move value: squares
    /// and promotion, or a drop of the coded piece where both squares are the same (the
    /// format's variant extension; `UciMove::from_drop`), or the two equal squares without a
    /// piece. A code of 5 gives a king promotion (never legal); 6 and 7 name no piece type at
    /// all and are an error.
    ///
    /// ```
    /// use pychess_book::RawMove;
    /// // e1h1 (4 << 6 | 7): Polyglot's way of writing White's short castling.
    /// assert_eq!(RawMove(0x0107).uci().unwrap().to_string(), "e1h1");
    /// // a7a8 promoting to a knight.
    /// assert_eq!(RawMove(1 << 12 | 48 << 6 | 56).uci().unwrap().to_string(), "a7a8n");
    /// ```
    pub fn uci(self) -> Result<UciMove, UnknownPiece> {
        let code = self.promotion_code();
        let role = match code {
            0 => None,
            1..=5 => Role::from_number(code + 1),
            _ => return Err(UnknownPiece { raw_move: self.0 }),
        };
        let (from, to) = (self.from(), self.to());
        Ok(match role {
            Some(role) if from == to => UciMove::from_drop(UciDrop { role, to }),
            promotion => UciMove {
                from,
                to,
                promotion,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_big_endian() {
        let entry = Entry {
            key: 0x463b_9618_1691_fc9c,
            raw_move: 0x031c,
            weight: 0x0102,
            learn: 0x0a0b_0c0d,
        };
        let bytes = entry.to_bytes();
        assert_eq!(
            bytes,
            [
                0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x01, 0x02, 0x0a, 0x0b,
                0x0c, 0x0d
            ]
        );
        assert_eq!(Entry::from_bytes(&bytes), entry);
    }

    #[test]
    fn every_code_decodes_as_python_chess_reads_it() {
        let sq = |name: &str| Square::parse(name).unwrap();
        let raw = |from: &str, to: &str, code: u16| {
            RawMove(code << 12 | (sq(from).index() as u16) << 6 | sq(to).index() as u16)
        };
        assert_eq!(raw("e2", "e4", 0).uci().unwrap().to_string(), "e2e4");
        for (code, text) in [
            (1, "b7b8n"),
            (2, "b7b8b"),
            (3, "b7b8r"),
            (4, "b7b8q"),
            (5, "b7b8k"),
        ] {
            assert_eq!(raw("b7", "b8", code).uci().unwrap().to_string(), text);
        }
        // Equal squares: a drop of the coded piece, or the bare square pair.
        assert_eq!(raw("e4", "e4", 1).uci().unwrap().to_string(), "N@e4");
        let bare = raw("e4", "e4", 0).uci().unwrap();
        assert_eq!(
            (bare.from, bare.to, bare.promotion),
            (sq("e4"), sq("e4"), None)
        );
        for code in [6, 7] {
            let err = raw("b7", "b8", code).uci().unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    "raw move 0x{:04x}: promotion code {code} names no piece type",
                    raw("b7", "b8", code).0
                )
            );
        }
        assert_eq!(raw("b7", "b8", 3).from(), sq("b7"));
        assert_eq!(raw("b7", "b8", 3).to(), sq("b8"));
        assert_eq!(raw("b7", "b8", 3).promotion_code(), 3);
    }

    #[test]
    fn encoding_inverts_decoding() {
        for text in ["e2e4", "e1h1", "a7a8q", "h2h1n", "g7g8r", "c2c1b"] {
            let m = UciMove::parse(text).unwrap();
            assert_eq!(RawMove(Entry::encode_move(m)).uci().unwrap(), m);
        }
        let king = UciMove::parse("b7b8k").unwrap();
        assert_eq!(
            RawMove(Entry::encode_move(king)).uci().unwrap().to_string(),
            "b7b8"
        );
    }
}
