//! NNUE training records: 32 bytes a position, in the two layouts open trainers read.
//!
//! * [`NnueFormat::Bullet`]: bullet's `ChessBoard` (crate `bulletformat`), the position seen
//!   from the side to move, with score and result from that side's point of view.
//! * [`NnueFormat::Marlin`]: marlinflow's `PackedBoard` (crate `marlinformat`), the whole
//!   position (side to move, castling, en passant, clocks) with White's score and result.
//!
//! `docs/training-data.md` gives both layouts byte by byte. Shared by both: the 16-byte piece
//! array holds one 4-bit code per occupied square, in the order of the occupancy bitboard's
//! set bits from a1 (bit 0) upwards, two codes a byte, the first in the low nibble; a code is
//! `colour << 3 | piece` with pieces numbered pawn 0, knight 1, bishop 2, rook 3, queen 4,
//! king 5. Multi-byte fields are little-endian.
//!
//! ```
//! use pychess_core::Board;
//! use pychess_training_data::{NnueFormat, Wdl};
//! let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 40", false).unwrap();
//! let record = NnueFormat::Marlin.encode(&board, 150, Wdl::WhiteWin).unwrap();
//! let back = NnueFormat::Marlin.decode(&record, 0).unwrap();
//! assert!(back.board.same_position(&board));
//! assert_eq!((back.score, back.wdl), (150, Wdl::WhiteWin));
//! // bullet keeps the side to move's view: Black to move becomes White to move, mirrored.
//! let back = NnueFormat::Bullet.decode(&NnueFormat::Bullet.encode(&board, 150, Wdl::WhiteWin).unwrap(), 0).unwrap();
//! assert_eq!(back.board.fen(), "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
//! assert_eq!((back.score, back.wdl), (-150, Wdl::BlackWin));
//! ```

use crate::error::Error;
use crate::sample::Wdl;
use pychess_core::{Bitboard, Board, Color, Role, Setup, Square};
use std::fs::File;
use std::io;
use std::path::Path;

/// Bytes in one record of either format.
pub const NNUE_RECORD_SIZE: usize = 32;

/// The most pieces a record holds (16 bytes of 4-bit codes).
const MAX_PIECES: usize = 32;

/// Which 32-byte layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum NnueFormat {
    /// bullet's `ChessBoard`.
    Bullet,
    /// marlinflow's `PackedBoard`.
    Marlin,
}

/// A decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NnueRecord {
    /// The position as the record has it (bullet: always White to move, the side to move's
    /// view, no castling rights, en passant or clocks).
    pub board: Board,
    /// Centipawns from White's side of `board`.
    pub score: i16,
    /// The game's result from White's side of `board`.
    pub wdl: Wdl,
}

/// Opens `input`, a file of whole `format` records, for a run that writes `output`; the
/// file and its number of records.
///
/// # Errors
/// [`Error::Io`] for a file that cannot be read, or when `output` is `input` (creating
/// the output would truncate it); [`Error::Length`] when `input` is not whole records.
pub(crate) fn open_records(
    input: &Path,
    output: &Path,
    format: NnueFormat,
) -> Result<(File, u64), Error> {
    let file = File::open(input).map_err(|e| Error::io(input, e))?;
    let len = file.metadata().map_err(|e| Error::io(input, e))?.len();
    if len % NNUE_RECORD_SIZE as u64 != 0 {
        return Err(Error::Length {
            format: format.name(),
            len: len as usize,
            record_size: NNUE_RECORD_SIZE,
        });
    }
    if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
        if a == b {
            let same = io::Error::new(io::ErrorKind::InvalidInput, "is also the input");
            return Err(Error::io(output, same));
        }
    }
    Ok((file, len / NNUE_RECORD_SIZE as u64))
}

impl NnueFormat {
    /// Every format, as named on the command line.
    pub const ALL: [NnueFormat; 2] = [NnueFormat::Bullet, NnueFormat::Marlin];

    /// The format's name (`bullet`, `marlin`).
    pub fn name(self) -> &'static str {
        match self {
            NnueFormat::Bullet => "bullet",
            NnueFormat::Marlin => "marlin",
        }
    }

    /// The format named `name`.
    pub fn parse(name: &str) -> Option<NnueFormat> {
        NnueFormat::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The record of `board` with `score` (centipawns, White's side) and the game's result.
    ///
    /// # Errors
    /// [`Error::Position`] for more than 32 pieces, or (bullet) not exactly one king a side.
    pub fn encode(self, board: &Board, score: i16, wdl: Wdl) -> Result<[u8; 32], Error> {
        if board.occupied().count() as usize > MAX_PIECES {
            return Err(self.position_error(board, "more than 32 pieces"));
        }
        match self {
            NnueFormat::Bullet => encode_bullet(board, score, wdl),
            NnueFormat::Marlin => Ok(encode_marlin(board, score, wdl)),
        }
    }

    /// The record at `bytes`; `index` only names it in errors.
    ///
    /// # Errors
    /// [`Error::Record`] for bytes no writer produces (an unknown piece code, a result
    /// above 2, an en-passant square off its rank, ...).
    pub fn decode(self, bytes: &[u8; 32], index: usize) -> Result<NnueRecord, Error> {
        let record = |reason: String| Error::Record {
            format: self.name(),
            index,
            reason,
        };
        match self {
            NnueFormat::Bullet => decode_bullet(bytes).map_err(record),
            NnueFormat::Marlin => decode_marlin(bytes).map_err(record),
        }
    }

    /// Every record of `data` (a whole number of records).
    ///
    /// # Errors
    /// [`Error::Length`] when `data` is not a multiple of 32 bytes; else as [`Self::decode`].
    pub fn decode_all(self, data: &[u8]) -> Result<Vec<NnueRecord>, Error> {
        if data.len() % NNUE_RECORD_SIZE != 0 {
            return Err(Error::Length {
                format: self.name(),
                len: data.len(),
                record_size: NNUE_RECORD_SIZE,
            });
        }
        data.chunks_exact(NNUE_RECORD_SIZE)
            .enumerate()
            .map(|(i, chunk)| {
                let bytes: &[u8; 32] = chunk.try_into().expect("chunks of 32 bytes");
                self.decode(bytes, i)
            })
            .collect()
    }

    fn position_error(self, board: &Board, reason: &'static str) -> Error {
        Error::Position {
            format: self.name(),
            fen: board.fen(),
            reason,
        }
    }
}

/// `(square, code)` of every piece in square order, each square mapped by `square` and
/// each piece coded by `code`.
fn coded_pieces(
    board: &Board,
    square: impl Fn(Square) -> Square,
    code: impl Fn(Square, Color, Role) -> u8,
) -> Vec<(Square, u8)> {
    let mut pieces = Vec::with_capacity(MAX_PIECES);
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in board.pieces(color, role) {
                pieces.push((square(sq), code(sq, color, role)));
            }
        }
    }
    pieces.sort_unstable_by_key(|&(sq, _)| sq.index());
    pieces
}

/// Occupancy and nibble array of at most 32 `(square, code)` pairs in square order.
fn pack(pieces: &[(Square, u8)], out: &mut [u8; 32]) {
    let mut occupied = 0u64;
    for (i, &(sq, code)) in pieces.iter().enumerate() {
        occupied |= 1 << sq.index();
        out[8 + i / 2] |= code << (4 * (i % 2));
    }
    out[..8].copy_from_slice(&occupied.to_le_bytes());
}

/// `(square, code)` of every piece of a record, in square order.
fn unpack(bytes: &[u8; 32]) -> Result<Vec<(Square, u8)>, String> {
    let occupied = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    if occupied.count_ones() as usize > MAX_PIECES {
        return Err(format!("{} occupied squares", occupied.count_ones()));
    }
    Ok(Bitboard(occupied)
        .enumerate()
        .map(|(i, sq)| (sq, (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf))
        .collect())
}

fn role_of(index: u8) -> Option<Role> {
    Role::ALL.get(usize::from(index)).copied()
}

fn encode_bullet(board: &Board, score: i16, wdl: Wdl) -> Result<[u8; 32], Error> {
    let us = board.turn();
    let view = |sq: Square| match us {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    };
    let kings = |color| board.pieces(color, Role::King).single();
    let (Some(ours), Some(theirs)) = (kings(us), kings(!us)) else {
        return Err(NnueFormat::Bullet.position_error(board, "not exactly one king a side"));
    };
    let pieces = coded_pieces(board, view, |_, color, role| {
        u8::from(color != us) << 3 | role.index() as u8
    });
    let mut out = [0u8; 32];
    pack(&pieces, &mut out);
    let score = if us == Color::White {
        score
    } else {
        score.saturating_neg()
    };
    out[24..26].copy_from_slice(&score.to_le_bytes());
    out[26] = wdl.for_side(us);
    out[27] = view(ours).index() as u8;
    // The opponent's king from the opponent's own side: mirrored once more.
    out[28] = view(theirs).flip_vertical().index() as u8;
    Ok(out)
}

fn decode_bullet(bytes: &[u8; 32]) -> Result<NnueRecord, String> {
    let mut setup = Setup::empty();
    for (sq, code) in unpack(bytes)? {
        let role = role_of(code & 7).ok_or_else(|| format!("piece code {code} on {sq:?}"))?;
        let color = Color::from_white(code & 8 == 0);
        setup.put(sq, pychess_core::Piece { color, role });
    }
    let score = i16::from_le_bytes([bytes[24], bytes[25]]);
    let wdl = Wdl::from_value(bytes[26]).ok_or_else(|| format!("result {}", bytes[26]))?;
    let king = |color| setup.squares_of(color, Role::King).single();
    let expected = (
        king(Color::White).map(|sq| sq.index()),
        king(Color::Black).map(|sq| sq.flip_vertical().index()),
    );
    if expected != (Some(usize::from(bytes[27])), Some(usize::from(bytes[28]))) {
        return Err(format!(
            "king squares {} and {} do not match the pieces",
            bytes[27], bytes[28]
        ));
    }
    Ok(NnueRecord {
        board: Board::from_setup_unchecked(&setup, false),
        score,
        wdl,
    })
}

/// marlinflow's piece code for a rook that keeps a castling right.
const UNMOVED_ROOK: u8 = 6;
/// marlinflow's en-passant field when there is none.
const NO_EP: u8 = 64;

fn encode_marlin(board: &Board, score: i16, wdl: Wdl) -> [u8; 32] {
    let rights = board.clean_castling_rights();
    let pieces = coded_pieces(
        board,
        |sq| sq,
        |sq, color, role| {
            let code = if role == Role::Rook && rights.contains(sq) {
                UNMOVED_ROOK
            } else {
                role.index() as u8
            };
            (color.index() as u8) << 3 | code
        },
    );
    let mut out = [0u8; 32];
    pack(&pieces, &mut out);
    let ep = board.legal_ep_square().map_or(NO_EP, |sq| sq.index() as u8);
    out[24] = u8::from(board.turn() == Color::Black) << 7 | ep;
    out[25] = board.halfmove_clock().min(255) as u8;
    let fullmove = board.fullmove_number().min(u64::from(u16::MAX)) as u16;
    out[26..28].copy_from_slice(&fullmove.to_le_bytes());
    out[28..30].copy_from_slice(&score.to_le_bytes());
    out[30] = wdl.value();
    out
}

fn decode_marlin(bytes: &[u8; 32]) -> Result<NnueRecord, String> {
    let mut setup = Setup::empty();
    for (sq, code) in unpack(bytes)? {
        let (role, castling) = match code & 7 {
            UNMOVED_ROOK => (Role::Rook, true),
            index => (
                role_of(index).ok_or_else(|| format!("piece code {code} on {sq:?}"))?,
                false,
            ),
        };
        let color = Color::from_white(code & 8 == 0);
        setup.put(sq, pychess_core::Piece { color, role });
        if castling {
            setup.castling = setup.castling.with(sq);
        }
    }
    setup.turn = Color::from_white(bytes[24] >> 7 == 0);
    setup.ep_square = match bytes[24] & 0x7f {
        NO_EP => None,
        ep if ep < 64 && [2, 5].contains(&(ep / 8)) => Some(Square::new(ep)),
        ep => return Err(format!("en-passant square {ep}")),
    };
    setup.halfmove_clock = u64::from(bytes[25]);
    setup.fullmove_number = u64::from(u16::from_le_bytes([bytes[26], bytes[27]])).max(1);
    let score = i16::from_le_bytes([bytes[28], bytes[29]]);
    let wdl = Wdl::from_value(bytes[30]).ok_or_else(|| format!("result {}", bytes[30]))?;
    let mut board = Board::from_setup_unchecked(&setup, false);
    if board.has_chess960_castling_rights() {
        board = Board::from_setup_unchecked(&setup, true);
    }
    Ok(NnueRecord { board, score, wdl })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 99 300",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
        "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
    ];

    #[test]
    fn marlin_keeps_the_whole_position() {
        for (i, fen) in FENS.iter().enumerate() {
            let board = Board::from_fen(fen, i == 5).unwrap();
            let record = NnueFormat::Marlin.encode(&board, -37, Wdl::Draw).unwrap();
            let back = NnueFormat::Marlin.decode(&record, 0).unwrap();
            assert!(
                back.board.same_position(&board),
                "{fen} -> {}",
                back.board.fen()
            );
            assert_eq!(back.board.is_chess960(), i == 5);
            assert_eq!((back.score, back.wdl), (-37, Wdl::Draw));
        }
    }

    #[test]
    fn bullet_layout_by_hand() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", false).unwrap();
        let r = NnueFormat::Bullet
            .encode(&board, 100, Wdl::WhiteWin)
            .unwrap();
        // Black to move: mirrored, colours swapped. Black's king e8 -> e1 (4, "ours"), White's
        // pawn e2 -> e7 (52, "theirs": code 8), White's king e1 -> e8 (60, code 13).
        assert_eq!(
            u64::from_le_bytes(r[..8].try_into().unwrap()),
            1 << 4 | 1 << 52 | 1 << 60
        );
        assert_eq!(r[8], 5 | 8 << 4);
        assert_eq!(r[9], 13);
        assert_eq!(i16::from_le_bytes([r[24], r[25]]), -100);
        assert_eq!(r[26], 0);
        assert_eq!((r[27], r[28]), (4, 4));
        assert_eq!(&r[29..], &[0, 0, 0]);
    }

    #[test]
    fn bad_records_are_refused() {
        let board = Board::default();
        let mut r = NnueFormat::Marlin.encode(&board, 0, Wdl::Draw).unwrap();
        r[30] = 3;
        assert!(NnueFormat::Marlin
            .decode(&r, 7)
            .unwrap_err()
            .to_string()
            .contains("record 7: result 3"));
        let mut r = NnueFormat::Bullet.encode(&board, 0, Wdl::Draw).unwrap();
        r[8] = 0x77;
        assert!(NnueFormat::Bullet.decode(&r, 0).is_err());
        assert!(matches!(
            NnueFormat::Bullet.decode_all(&[0; 33]),
            Err(Error::Length { len: 33, .. })
        ));
        let crowded = Board::from_fen(
            "qqqqkqqq/qqqqqqqq/8/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1",
            false,
        )
        .unwrap();
        assert!(NnueFormat::Marlin.encode(&crowded, 0, Wdl::Draw).is_ok());
        let more = Board::from_fen(
            "qqqqkqqq/qqqqqqqq/q7/8/8/8/QQQQQQQQ/QQQQKQQQ w - - 0 1",
            false,
        )
        .unwrap();
        assert!(matches!(
            NnueFormat::Bullet.encode(&more, 0, Wdl::Draw),
            Err(Error::Position { .. })
        ));
    }
}
