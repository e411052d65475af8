//! Filtering a file of NNUE records after it was written: positions in check, positions that
//! are not quiet, scores above a limit, the filters of [`crate::sample::Filters`] applied to
//! records instead of games.
//!
//! A record holds no best move, so "not quiet" cannot be the writers' test (a capture or
//! promotion as the best move). It is the engine's own test instead: the side to move has a
//! capture or promotion that wins material by static exchange
//! ([`pychess_engine::has_winning_noisy_move`]), so a static evaluation of the position
//! would miss what the next move takes. Kept records are copied byte for byte.

use crate::error::Error;
use crate::nnue::{NnueFormat, NNUE_RECORD_SIZE};
use crate::sample::{Filters, Skip, Stats};
use pychess_engine::has_winning_noisy_move;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// A filtering run from one record file to another, advanced in steps so that a caller can
/// show progress in between.
pub struct NnueFilter {
    format: NnueFormat,
    filters: Filters,
    input: BufReader<File>,
    output: BufWriter<File>,
    output_path: PathBuf,
    records: u64,
    stats: Stats,
}

impl NnueFilter {
    /// Opens `input` (a whole number of `format` records) and creates `output`. The
    /// filters' `skip_plies` does not apply (records carry no ply).
    ///
    /// # Errors
    /// [`Error::Io`] for files that cannot be read or written, or when `output` is
    /// `input`; [`Error::Length`] when `input` is not a whole number of records.
    pub fn open(
        input: &Path,
        output: &Path,
        format: NnueFormat,
        filters: Filters,
    ) -> Result<NnueFilter, Error> {
        let file = File::open(input).map_err(|e| Error::io(input, e))?;
        let len = file.metadata().map_err(|e| Error::io(input, e))?.len();
        if len % NNUE_RECORD_SIZE as u64 != 0 {
            return Err(Error::Length {
                format: format.name(),
                len: len as usize,
                record_size: NNUE_RECORD_SIZE,
            });
        }
        // Creating the output would truncate the input it is.
        if let (Ok(a), Ok(b)) = (input.canonicalize(), output.canonicalize()) {
            if a == b {
                let same = io::Error::new(io::ErrorKind::InvalidInput, "is also the input");
                return Err(Error::io(output, same));
            }
        }
        let out = File::create(output).map_err(|e| Error::io(output, e))?;
        Ok(NnueFilter {
            format,
            filters,
            input: BufReader::with_capacity(1 << 20, file),
            output: BufWriter::with_capacity(1 << 20, out),
            output_path: output.to_path_buf(),
            records: len / NNUE_RECORD_SIZE as u64,
            stats: Stats::default(),
        })
    }

    /// Records in the input.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// What the run has done so far (`positions` read, `written`, the `skipped_*` counts).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Filters up to `max_records` more records; true once every record is done.
    ///
    /// # Errors
    /// [`Error::Record`] for a record no writer produces (its index named), [`Error::Io`].
    pub fn advance(&mut self, max_records: u64) -> Result<bool, Error> {
        let mut bytes = [0u8; NNUE_RECORD_SIZE];
        for _ in 0..max_records {
            if self.stats.positions == self.records {
                break;
            }
            self.input
                .read_exact(&mut bytes)
                .map_err(|e| Error::io(&self.output_path, e))?;
            let index = self.stats.positions as usize;
            self.stats.positions += 1;
            let record = self.format.decode(&bytes, index)?;
            match self.skip(&record.board, record.score) {
                Some(why) => self.stats.skip(why),
                None => {
                    self.output
                        .write_all(&bytes)
                        .map_err(|e| Error::io(&self.output_path, e))?;
                    self.stats.written += 1;
                    self.stats.bytes += NNUE_RECORD_SIZE as u64;
                }
            }
        }
        Ok(self.stats.positions == self.records)
    }

    /// Finishes the run (the rest of the records, then the output flushed).
    ///
    /// # Errors
    /// As [`Self::advance`].
    pub fn finish(mut self) -> Result<Stats, Error> {
        while !self.advance(1 << 16)? {}
        self.output
            .flush()
            .map_err(|e| Error::io(&self.output_path, e))?;
        Ok(self.stats)
    }

    fn skip(&self, board: &pychess_core::Board, score: i16) -> Option<Skip> {
        let f = &self.filters;
        if f.skip_check && board.is_check() {
            Some(Skip::Check)
        } else if f.skip_noisy && has_winning_noisy_move(board) {
            Some(Skip::Noisy)
        } else if f
            .max_score
            .is_some_and(|limit| score.unsigned_abs() > limit.unsigned_abs())
        {
            Some(Skip::Score)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Wdl;
    use pychess_core::Board;

    fn write(path: &Path, positions: &[(&str, i16)]) {
        let mut data = Vec::new();
        for (fen, score) in positions {
            let board = Board::from_fen(fen, false).unwrap();
            data.extend(
                NnueFormat::Bullet
                    .encode(&board, *score, Wdl::Draw)
                    .unwrap(),
            );
        }
        std::fs::write(path, data).unwrap();
    }

    #[test]
    fn keeps_quiet_positions_and_counts_the_others() {
        let dir = std::env::temp_dir().join(format!("refilter-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, output) = (dir.join("in.bin"), dir.join("out.bin"));
        let quiet = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let hanging_queen = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"; // exd5 wins a queen
        let defended_pawn = "4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1"; // exd5 cxd5: even
        let in_check = "4k3/8/8/8/8/8/8/r3K3 w - - 0 1";
        let promotion = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        write(
            &input,
            &[
                (quiet, 30),
                (hanging_queen, 900),
                (defended_pawn, 10),
                (in_check, -500),
                (promotion, 800),
                (quiet, 5000),
            ],
        );
        let filters = Filters {
            skip_check: true,
            skip_noisy: true,
            max_score: Some(3000),
            ..Filters::default()
        };
        let mut run = NnueFilter::open(&input, &output, NnueFormat::Bullet, filters).unwrap();
        assert_eq!(run.records(), 6);
        assert!(!run.advance(2).unwrap());
        assert_eq!(run.stats().positions, 2);
        let stats = run.finish().unwrap();
        assert_eq!(stats.positions, 6);
        assert_eq!(stats.written, 2);
        assert_eq!(
            (
                stats.skipped_check,
                stats.skipped_noisy,
                stats.skipped_score
            ),
            (1, 2, 1)
        );
        let kept = NnueFormat::Bullet
            .decode_all(&std::fs::read(&output).unwrap())
            .unwrap();
        let fens: Vec<String> = kept.iter().map(|r| r.board.fen()).collect();
        assert_eq!(fens, [quiet, defended_pawn]);
        assert_eq!(kept[0].score, 30);
        // Refused: the output is the input, and a file cut mid-record.
        assert!(NnueFilter::open(&input, &input, NnueFormat::Bullet, Filters::default()).is_err());
        std::fs::write(&input, [0u8; 40]).unwrap();
        let err = NnueFilter::open(&input, &output, NnueFormat::Bullet, Filters::default());
        assert!(matches!(err, Err(Error::Length { len: 40, .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
