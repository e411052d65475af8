//! Lc0 training data, version 6: fixed-size `V6TrainingData` records (8,356 bytes, packed,
//! little-endian), gzip-compressed into chunk files, as Lc0's self-play writes them and its
//! trainer (`lczero-training`'s chunk parser) reads them.
//!
//! From a game's move list there is no search, so the policy is one-hot on the move played
//! (1.0; every other legal move 0.0, illegal moves -1.0 as Lc0 marks them) and every value
//! target is the game's result from the side to move: `result_q` is +1/0/-1 and `result_d`
//! 1.0 for a draw; `root_q`, `best_q` and `played_q` (and the `_d`s) repeat it, the `_m`s and
//! `plies_left` give the plies left to the game's end, the `orig_` values are NaN ("not
//! known", as in Lc0), `visits` 0, `best_idx = played_idx`, `policy_kld` 0. The input is
//! Lc0's classical 112-plane format (`input_format` 1): the 104 history planes as bitboards
//! (each byte's bits reversed, as Lc0 stores them), the castling, side-to-move and rule-50
//! bytes for the other 8. `docs/training-data.md` has the field table.

use crate::error::Error;
use crate::lc0_policy::{move_of_index, policy_index, POLICY_SIZE};
use crate::sample::Wdl;
use pychess_core::{Bitboard, Board, Color, Game, Move, Piece, Role, Setup, Square};
use pychess_ml::encode::lc0_planes;

/// Bytes in one record.
pub const V6_RECORD_SIZE: usize = 8356;
/// The `version` field.
pub const V6_VERSION: u32 = 6;
/// Values of the classical input planes ([`V6Record::from_game`]'s scratch buffer).
pub const LC0_PLANE_VALUES: usize = 112 * 64;
/// The `input_format` field: Lc0's `INPUT_CLASSICAL_112_PLANE`.
pub const INPUT_CLASSICAL_112_PLANE: u32 = 1;

const PROBABILITIES: usize = 8;
const PLANES: usize = PROBABILITIES + 4 * POLICY_SIZE; // 7440
const CASTLING: usize = PLANES + 8 * 104; // 8272
const FLOATS: usize = CASTLING + 8; // 8280: root_q .. orig_m, 15 floats
const VISITS: usize = FLOATS + 4 * 15; // 8340
const PLAYED_IDX: usize = VISITS + 4;
const BEST_IDX: usize = PLAYED_IDX + 2;
const POLICY_KLD: usize = BEST_IDX + 2;
const RESERVED: usize = POLICY_KLD + 4;

/// The 15 floats after the byte fields, in order.
pub const FLOAT_FIELDS: [&str; 15] = [
    "root_q",
    "best_q",
    "root_d",
    "best_d",
    "root_m",
    "best_m",
    "plies_left",
    "result_q",
    "result_d",
    "played_q",
    "played_d",
    "played_m",
    "orig_q",
    "orig_d",
    "orig_m",
];

/// Lc0's `ReverseBitsInBytes`: the bit order inside each byte reversed.
pub fn reverse_bits_in_bytes(v: u64) -> u64 {
    u64::from_le_bytes(v.to_le_bytes().map(u8::reverse_bits))
}

/// A decoded record's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct V6Record {
    /// `version` (6).
    pub version: u32,
    /// `input_format` (1).
    pub input_format: u32,
    /// The policy target, 1858 entries.
    pub probabilities: Vec<f32>,
    /// The 104 history planes, as stored (bits reversed in each byte).
    pub planes: [u64; 104],
    /// `castling_us_ooo`, `castling_us_oo`, `castling_them_ooo`, `castling_them_oo`.
    pub castling: [u8; 4],
    /// `side_to_move_or_enpassant`: 1 if Black is to move (classical input).
    pub side_to_move: u8,
    /// `rule50_count`.
    pub rule50_count: u8,
    /// `invariance_info`.
    pub invariance_info: u8,
    /// The floats of [`FLOAT_FIELDS`], in order.
    pub floats: [f32; 15],
    /// `visits`.
    pub visits: u32,
    /// `played_idx`.
    pub played_idx: u16,
    /// `best_idx`.
    pub best_idx: u16,
    /// `policy_kld`.
    pub policy_kld: f32,
}

impl V6Record {
    /// The record of the game's current position, `played` being the move played from it,
    /// `result` the game's and `plies_left` the plies from here to the end. `planes` is a
    /// scratch buffer of 112 * 64 values.
    ///
    /// # Panics
    /// If `played` is not a legal move of the game's position.
    pub fn from_game(
        game: &Game,
        played: Move,
        result: Wdl,
        plies_left: u32,
        planes: &mut [f32],
    ) -> V6Record {
        let board = game.board();
        let us = board.turn();
        lc0_planes(game, planes);
        let mut packed = [0u64; 104];
        for (plane, out) in planes.chunks_exact(64).zip(packed.iter_mut()) {
            let bits = plane
                .iter()
                .enumerate()
                .fold(0u64, |bits, (sq, &v)| bits | u64::from(v != 0.0) << sq);
            *out = reverse_bits_in_bytes(bits);
        }
        let mut probabilities = vec![-1.0f32; POLICY_SIZE];
        for &m in game.legal_moves() {
            probabilities[policy_index(board, m)] = 0.0;
        }
        let played_idx = policy_index(board, played);
        probabilities[played_idx] = 1.0;
        let (our_king_side, our_queen_side) = board.castling_sides(us);
        let (their_king_side, their_queen_side) = board.castling_sides(!us);
        let q = match result.for_side(us) {
            2 => 1.0,
            1 => 0.0,
            _ => -1.0,
        };
        let d = if result == Wdl::Draw { 1.0 } else { 0.0 };
        let m = plies_left as f32;
        V6Record {
            version: V6_VERSION,
            input_format: INPUT_CLASSICAL_112_PLANE,
            probabilities,
            planes: packed,
            castling: [
                our_queen_side,
                our_king_side,
                their_queen_side,
                their_king_side,
            ]
            .map(u8::from),
            side_to_move: u8::from(us == Color::Black),
            rule50_count: board.halfmove_clock().min(255) as u8,
            invariance_info: 0,
            floats: [
                q,
                q,
                d,
                d,
                m,
                m,
                m,
                q,
                d,
                q,
                d,
                m,
                f32::NAN,
                f32::NAN,
                f32::NAN,
            ],
            visits: 0,
            played_idx: played_idx as u16,
            best_idx: played_idx as u16,
            policy_kld: 0.0,
        }
    }

    /// The record's 8,356 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(V6_RECORD_SIZE);
        self.write_to(&mut out);
        out
    }

    /// Appends the record's 8,356 bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&self.input_format.to_le_bytes());
        for p in &self.probabilities {
            out.extend_from_slice(&p.to_le_bytes());
        }
        for plane in &self.planes {
            out.extend_from_slice(&plane.to_le_bytes());
        }
        out.extend_from_slice(&self.castling);
        out.extend_from_slice(&[
            self.side_to_move,
            self.rule50_count,
            self.invariance_info,
            0,
        ]);
        for f in &self.floats {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&self.visits.to_le_bytes());
        out.extend_from_slice(&self.played_idx.to_le_bytes());
        out.extend_from_slice(&self.best_idx.to_le_bytes());
        out.extend_from_slice(&self.policy_kld.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        debug_assert_eq!(out.len() - start, V6_RECORD_SIZE);
    }

    /// The record at `bytes` (exactly 8,356 of them); `index` only names it in errors.
    ///
    /// # Errors
    /// [`Error::Length`] for another size, [`Error::Record`] for a version other than 6 or
    /// an input format other than the classical one, or a policy index out of range.
    pub fn from_bytes(bytes: &[u8], index: usize) -> Result<V6Record, Error> {
        if bytes.len() != V6_RECORD_SIZE {
            return Err(Error::Length {
                format: "lc0-v6",
                len: bytes.len(),
                record_size: V6_RECORD_SIZE,
            });
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().expect("2"));
        let bad = |reason: String| Error::Record {
            format: "lc0-v6",
            index,
            reason,
        };
        let version = u32_at(0);
        if version != V6_VERSION {
            return Err(bad(format!("version {version}, expected 6")));
        }
        let input_format = u32_at(4);
        if input_format != INPUT_CLASSICAL_112_PLANE {
            return Err(bad(format!(
                "input format {input_format}, only the classical format (1) is read"
            )));
        }
        let mut planes = [0u64; 104];
        for (i, plane) in planes.iter_mut().enumerate() {
            let at = PLANES + 8 * i;
            *plane = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        }
        let record = V6Record {
            version,
            input_format,
            probabilities: (0..POLICY_SIZE)
                .map(|i| f32_at(PROBABILITIES + 4 * i))
                .collect(),
            planes,
            castling: bytes[CASTLING..CASTLING + 4].try_into().expect("4"),
            side_to_move: bytes[CASTLING + 4],
            rule50_count: bytes[CASTLING + 5],
            invariance_info: bytes[CASTLING + 6],
            floats: std::array::from_fn(|i| f32_at(FLOATS + 4 * i)),
            visits: u32_at(VISITS),
            played_idx: u16_at(PLAYED_IDX),
            best_idx: u16_at(BEST_IDX),
            policy_kld: f32_at(POLICY_KLD),
        };
        debug_assert_eq!(RESERVED + 4, V6_RECORD_SIZE);
        if usize::from(record.played_idx) >= POLICY_SIZE {
            return Err(bad(format!("played_idx {}", record.played_idx)));
        }
        if record.side_to_move > 1 {
            return Err(bad(format!("side to move {}", record.side_to_move)));
        }
        Ok(record)
    }

    /// The value of the float field `name` (one of [`FLOAT_FIELDS`]).
    pub fn float(&self, name: &str) -> Option<f32> {
        FLOAT_FIELDS
            .iter()
            .position(|&n| n == name)
            .map(|i| self.floats[i])
    }

    /// The history plane of `role` pieces of side `side` (0 the side to move, 1 the
    /// opponent) `slot` plies ago, in the side to move's view.
    fn plane(&self, slot: usize, side: usize, role: Role) -> Bitboard {
        Bitboard(reverse_bits_in_bytes(
            self.planes[13 * slot + 6 * side + role.index()],
        ))
    }

    /// The en-passant square in the side to move's view, when the history planes show the
    /// opponent's last move as a pawn's double step (one of their pawns gone from its
    /// second rank, one arrived two squares ahead on the same file, the square between
    /// empty). Lc0 fills a game's missing history with its first position, the double step
    /// undone, so this holds for a game started from a FEN too.
    fn ep_square_in_view(&self) -> Option<Square> {
        let before = self.plane(1, 1, Role::Pawn);
        let now = self.plane(0, 1, Role::Pawn);
        let from = (before & !now).single()?;
        let to = (now & !before).single()?;
        let occupied = (0..2)
            .flat_map(|side| Role::ALL.map(|role| self.plane(0, side, role)))
            .fold(Bitboard::EMPTY, |all, bits| Bitboard(all.0 | bits.0));
        let between = Square::from_coords(from.file(), 5);
        (from.rank() == 6 && to.rank() == 4 && from.file() == to.file())
            .then_some(between)
            .filter(|&sq| !occupied.contains(sq))
    }

    /// The position the record describes, as far as the classical input keeps it: placement,
    /// side to move, castling rights (rooks in the corners), the rule-50 count, and the
    /// en-passant square the history planes show ([`Self::ep_square_in_view`]). The move
    /// number is not in the record (1).
    pub fn board(&self) -> Board {
        let us = Color::from_white(self.side_to_move == 0);
        let view = |sq: Square| match us {
            Color::White => sq,
            Color::Black => sq.flip_vertical(),
        };
        let mut setup = Setup::empty();
        setup.turn = us;
        for (side, color) in [us, !us].into_iter().enumerate() {
            for role in Role::ALL {
                for sq in self.plane(0, side, role) {
                    setup.put(view(sq), Piece { color, role });
                }
            }
        }
        setup.ep_square = self.ep_square_in_view().map(view);
        let corners = [(us, 0, 0), (us, 7, 1), (!us, 0, 2), (!us, 7, 3)];
        for (color, file, byte) in corners {
            if self.castling[byte] != 0 {
                let rook = Square::from_coords(file, color.back_rank());
                setup.castling = setup.castling.with(rook);
            }
        }
        setup.halfmove_clock = u64::from(self.rule50_count);
        Board::from_setup_unchecked(&setup, false)
    }

    /// The move played, resolved against [`Self::board`].
    pub fn played_move(&self, board: &Board) -> Option<Move> {
        move_of_index(board, usize::from(self.played_idx))
    }

    /// The game's result from White's side (from `result_q`, `result_d`).
    pub fn result(&self) -> Option<Wdl> {
        let us = Color::from_white(self.side_to_move == 0);
        let (q, d) = (self.floats[7], self.floats[8]);
        let value = if d >= 0.5 {
            1
        } else if q > 0.0 {
            2
        } else {
            0
        };
        Wdl::from_side(value, us)
    }
}

/// Every record of a decompressed chunk.
///
/// # Errors
/// [`Error::Length`] if `data` is not a whole number of records; else as
/// [`V6Record::from_bytes`].
pub fn decode_chunk(data: &[u8]) -> Result<Vec<V6Record>, Error> {
    if data.len() % V6_RECORD_SIZE != 0 {
        return Err(Error::Length {
            format: "lc0-v6",
            len: data.len(),
            record_size: V6_RECORD_SIZE,
        });
    }
    data.chunks_exact(V6_RECORD_SIZE)
        .enumerate()
        .map(|(i, bytes)| V6Record::from_bytes(bytes, i))
        .collect()
}

/// Every record of a chunk file (gzip, as Lc0 and [`crate::job`] write them, or plain).
///
/// # Errors
/// [`Error::Io`] when the file cannot be read or is damaged gzip; else as [`decode_chunk`].
pub fn read_chunk_file(path: &std::path::Path) -> Result<Vec<V6Record>, Error> {
    use std::io::Read;
    let raw = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let data = if raw.starts_with(&[0x1f, 0x8b]) {
        let mut data = Vec::new();
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut data)
            .map_err(|e| Error::io(path, e))?;
        data
    } else {
        raw
    };
    decode_chunk(&data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    #[test]
    fn bit_reversal() {
        assert_eq!(reverse_bits_in_bytes(1), 0x80);
        assert_eq!(reverse_bits_in_bytes(0x0100), 0x8000);
        assert_eq!(reverse_bits_in_bytes(0x80 << 56), 1 << 56);
    }

    #[test]
    fn a_game_round_trips() {
        let mut game = Game::default();
        let mut planes = vec![0.0; 112 * 64];
        let moves = [
            "e2e4", "c7c5", "g1f3", "d7d6", "f1b5", "c8d7", "e1g1", "d7b5",
        ];
        for (ply, uci) in moves.iter().enumerate() {
            let m = game.resolve_uci(UciMove::parse(uci).unwrap()).unwrap();
            let left = (moves.len() - ply) as u32;
            let record = V6Record::from_game(&game, m, Wdl::BlackWin, left, &mut planes);
            let bytes = record.to_bytes();
            assert_eq!(bytes.len(), V6_RECORD_SIZE);
            let back = V6Record::from_bytes(&bytes, 0).unwrap();
            assert_eq!(back.probabilities, record.probabilities);
            assert_eq!(back.floats[..12], record.floats[..12]);
            assert!(back.floats[12].is_nan());
            let board = back.board();
            let now = game.board();
            assert_eq!(board.board_fen(), now.board_fen(), "{uci}");
            assert_eq!(board.turn(), now.turn());
            assert_eq!(board.clean_castling_rights(), now.clean_castling_rights());
            assert_eq!(board.legal_ep_square(), now.legal_ep_square());
            assert_eq!(back.played_move(&board), Some(m));
            assert_eq!(back.result(), Some(Wdl::BlackWin));
            assert_eq!(back.float("plies_left"), Some(left as f32));
            assert_eq!(
                back.probabilities.iter().filter(|&&p| p >= 0.0).count(),
                game.legal_moves().len()
            );
            game.play(m);
        }
        assert!(matches!(
            V6Record::from_bytes(&[0; 10], 3),
            Err(Error::Length { .. })
        ));
        let mut bytes = V6Record::from_game(
            &Game::default(),
            Game::default().legal_moves()[0],
            Wdl::Draw,
            1,
            &mut planes,
        )
        .to_bytes();
        bytes[0] = 5;
        assert!(V6Record::from_bytes(&bytes, 2)
            .unwrap_err()
            .to_string()
            .contains("record 2: version 5"));
    }
}
