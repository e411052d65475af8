//! Training positions as the network sees them: the active inputs of both perspectives, the
//! score and the game's result from the side to move's point of view.
//!
//! Records are decoded by `pychess_training_data` (bullet's `ChessBoard` or marlinflow's
//! `PackedBoard`) and turned into inputs by the engine's own `feature_index`, so the trainer
//! cannot disagree with the engine about what an input is.

use pychess_core::{Board, Color, Role};
use pychess_engine::nnue::{feature_index, INPUTS};
use pychess_ml::batch::parallel::for_chunks;
use pychess_training_data::{NnueFormat, NNUE_RECORD_SIZE};
use std::path::Path;

/// Input slots a position has: a record holds at most 32 pieces.
pub const SLOTS: usize = 32;

/// The filler after a position's last input (one past the last input index).
pub const NO_INPUT: u16 = INPUTS as u16;

/// The inputs of one perspective, [`NO_INPUT`] after the last.
pub type Inputs = [u16; SLOTS];

/// Positions with their inputs, scores and results, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Positions {
    us: Vec<Inputs>,
    them: Vec<Inputs>,
    score: Vec<f32>,
    result: Vec<f32>,
}

impl Positions {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.score.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.score.is_empty()
    }

    /// Adds `board` with `score` (centipawns) and `result` (0, 0.5 or 1), both from the
    /// side to move's point of view.
    pub fn push(&mut self, board: &Board, score: f32, result: f32) {
        let turn = board.turn();
        let (mut us, mut them) = ([NO_INPUT; SLOTS], [NO_INPUT; SLOTS]);
        let mut slot = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for square in board.pieces(color, role) {
                    if slot == SLOTS {
                        // A record cannot hold more; a board given directly might.
                        continue;
                    }
                    us[slot] = feature_index(turn, color, role, square.index()) as u16;
                    them[slot] = feature_index(!turn, color, role, square.index()) as u16;
                    slot += 1;
                }
            }
        }
        self.us.push(us);
        self.them.push(them);
        self.score.push(score);
        self.result.push(result);
    }

    /// The side to move's inputs of position `i`.
    pub fn us(&self, i: usize) -> &Inputs {
        &self.us[i]
    }

    /// The other side's inputs of position `i`.
    pub fn them(&self, i: usize) -> &Inputs {
        &self.them[i]
    }

    /// The score of position `i`, centipawns from the side to move's point of view.
    pub fn score(&self, i: usize) -> f32 {
        self.score[i]
    }

    /// The result of position `i`'s game for the side to move (0, 0.5 or 1).
    pub fn result(&self, i: usize) -> f32 {
        self.result[i]
    }

    /// Appends `other`'s positions after these.
    pub fn extend(&mut self, other: Positions) {
        self.us.extend(other.us);
        self.them.extend(other.them);
        self.score.extend(other.score);
        self.result.extend(other.result);
    }

    /// Splits off the last `fraction` of the positions (whole games at the file's end,
    /// since the writers write game after game) and returns it.
    ///
    /// # Errors
    /// When either part would be empty.
    pub fn split_off_validation(&mut self, fraction: f64) -> Result<Positions, String> {
        let held = (self.len() as f64 * fraction) as usize;
        if held < 1 || held >= self.len() {
            return Err(format!(
                "{} positions are too few to hold out {fraction} of them for validation",
                self.len()
            ));
        }
        let at = self.len() - held;
        Ok(Positions {
            us: self.us.split_off(at),
            them: self.them.split_off(at),
            score: self.score.split_off(at),
            result: self.result.split_off(at),
        })
    }

    /// Decodes `data`, whole 32-byte records of `format`, on `threads` threads; `name`
    /// names the data in errors.
    ///
    /// # Errors
    /// A message naming `name` for a length that is not whole records or a record no
    /// writer produces.
    pub fn decode(
        data: &[u8],
        format: NnueFormat,
        threads: usize,
        name: &str,
    ) -> Result<Positions, String> {
        if data.len() % NNUE_RECORD_SIZE != 0 {
            return Err(format!(
                "{name}: {} bytes is not a whole number of {NNUE_RECORD_SIZE}-byte records",
                data.len()
            ));
        }
        let records: Vec<&[u8]> = data.chunks_exact(NNUE_RECORD_SIZE).collect();
        let per_chunk = records.len().div_ceil(threads.max(1) * 4).max(1);
        // (first record's index, records, their positions) a piece of work.
        type Part<'a> = (usize, &'a [&'a [u8]], Result<Positions, String>);
        let mut parts: Vec<Part> = records
            .chunks(per_chunk)
            .enumerate()
            .map(|(k, chunk)| (k * per_chunk, chunk, Ok(Positions::default())))
            .collect();
        for_chunks(threads, &mut parts[..], |_, work| {
            for (first, chunk, out) in work.iter_mut() {
                *out = decode_records(chunk, format, *first, name);
            }
        });
        let mut all = Positions::default();
        for (_, _, part) in parts {
            all.extend(part?);
        }
        Ok(all)
    }

    /// Reads and decodes the record files `paths`, in order.
    ///
    /// # Errors
    /// As [`Positions::decode`], or the file cannot be read.
    pub fn read_files(
        paths: &[impl AsRef<Path>],
        format: NnueFormat,
        threads: usize,
    ) -> Result<Positions, String> {
        let mut all = Positions::default();
        for path in paths {
            let path = path.as_ref();
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            all.extend(Positions::decode(&bytes, format, threads, &name)?);
        }
        Ok(all)
    }
}

fn decode_records(
    records: &[&[u8]],
    format: NnueFormat,
    first: usize,
    name: &str,
) -> Result<Positions, String> {
    let mut out = Positions::default();
    for (i, bytes) in records.iter().enumerate() {
        let bytes: &[u8; NNUE_RECORD_SIZE] = (*bytes).try_into().expect("whole records");
        let record = format
            .decode(bytes, first + i)
            .map_err(|e| format!("{name}: {e}"))?;
        // Records keep White's side of their board; the network wants the side to move's.
        let white_result = f32::from(record.wdl.value()) / 2.0;
        let (score, result) = match record.board.turn() {
            Color::White => (f32::from(record.score), white_result),
            Color::Black => (-f32::from(record.score), 1.0 - white_result),
        };
        out.push(&record.board, score, result);
    }
    Ok(out)
}

/// Input `input` of a position mirrored a<->h (files swapped): the network's inputs hold no
/// castling rights, so a mirror image is as good a training position, and chess is nearly
/// symmetric under it.
#[inline]
pub fn mirrored(input: u16) -> u16 {
    if input == NO_INPUT {
        input
    } else {
        input ^ 7
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_engine::nnue::Network;
    use pychess_training_data::Wdl;

    const FENS: [&str; 3] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    fn records(format: NnueFormat) -> Vec<u8> {
        let mut data = Vec::new();
        for (fen, (score, wdl)) in
            FENS.iter()
                .zip([(120, Wdl::WhiteWin), (-40, Wdl::WhiteWin), (0, Wdl::Draw)])
        {
            let board = Board::from_fen(fen, false).unwrap();
            data.extend_from_slice(&format.encode(&board, score, wdl).unwrap());
        }
        data
    }

    #[test]
    fn both_formats_give_the_side_to_moves_view() {
        for format in NnueFormat::ALL {
            let positions = Positions::decode(&records(format), format, 2, "test").unwrap();
            assert_eq!(positions.len(), 3);
            // Black to move in the second: White's +40... seen from Black, and White won.
            assert_eq!((positions.score(0), positions.result(0)), (120.0, 1.0));
            assert_eq!((positions.score(1), positions.result(1)), (40.0, 0.0));
            assert_eq!((positions.score(2), positions.result(2)), (0.0, 0.5));
        }
        // The same inputs (bullet's mirrored board lists them in another order).
        let bullet = Positions::decode(&records(NnueFormat::Bullet), NnueFormat::Bullet, 1, "t");
        let marlin = Positions::decode(&records(NnueFormat::Marlin), NnueFormat::Marlin, 3, "t");
        let (bullet, marlin) = (bullet.unwrap(), marlin.unwrap());
        let sorted = |inputs: &Inputs| {
            let mut v = inputs.to_vec();
            v.sort_unstable();
            v
        };
        for i in 0..3 {
            assert_eq!(sorted(bullet.us(i)), sorted(marlin.us(i)));
            assert_eq!(sorted(bullet.them(i)), sorted(marlin.them(i)));
        }
    }

    #[test]
    fn the_inputs_are_the_engines() {
        // A one-input network per input: the engine's evaluation of the position says which
        // of its inputs are on; the trainer's lists must name the same ones.
        let board = Board::from_fen(FENS[1], false).unwrap();
        let mut positions = Positions::default();
        positions.push(&board, 0.0, 0.5);
        let listed: Vec<u16> = positions
            .us(0)
            .iter()
            .copied()
            .filter(|&i| i != NO_INPUT)
            .collect();
        assert_eq!(listed.len(), 4);
        for input in 0..INPUTS {
            let mut weights = vec![0i16; INPUTS];
            weights[input] = 255;
            let net = Network::from_weights(1, weights, vec![0], vec![64, 0], 0).unwrap();
            let on = net.evaluate(&board) != 0;
            assert_eq!(on, listed.contains(&(input as u16)), "input {input}");
        }
        // The other side's view is the same position seen from Black's first rank.
        let them: Vec<u16> = positions
            .them(0)
            .iter()
            .copied()
            .filter(|&i| i != NO_INPUT)
            .collect();
        let mut expected: Vec<u16> = listed
            .iter()
            .map(|&i| (((i as usize + 384) % 768) ^ 56) as u16)
            .collect();
        expected.sort_unstable();
        let mut sorted = them.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, expected);
    }

    #[test]
    fn bad_data_is_named_in_the_error() {
        let err = Positions::decode(&[0u8; 33], NnueFormat::Bullet, 1, "x.bin").unwrap_err();
        assert_eq!(
            err,
            "x.bin: 33 bytes is not a whole number of 32-byte records"
        );
        let mut data = records(NnueFormat::Bullet);
        data[26] = 9; // a result byte no writer produces
        let err = Positions::decode(&data, NnueFormat::Bullet, 1, "x.bin").unwrap_err();
        assert!(err.starts_with("x.bin: bullet record 0: "), "{err}");
    }

    #[test]
    fn validation_is_the_end_of_the_data() {
        let mut positions =
            Positions::decode(&records(NnueFormat::Bullet), NnueFormat::Bullet, 1, "t").unwrap();
        let held = positions.split_off_validation(0.34).unwrap();
        assert_eq!((positions.len(), held.len()), (2, 1));
        assert_eq!(held.score(0), 0.0);
        assert!(positions.clone().split_off_validation(0.01).is_err());
    }

    #[test]
    fn mirroring_swaps_files() {
        // e2 (12) for the side to move's pawn becomes d2 (11).
        assert_eq!(mirrored(12), 11);
        assert_eq!(mirrored(384 + 64 * 5 + 63), 384 + 64 * 5 + 56);
        assert_eq!(mirrored(NO_INPUT), NO_INPUT);
    }
}
