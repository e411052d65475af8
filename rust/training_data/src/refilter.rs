//! Filtering a file of NNUE records after it was written: positions in check, positions that
//! are not quiet, scores above a limit, the filters of [`crate::sample::Filters`] applied to
//! records instead of games.
//!
//! A record holds no best move, so "not quiet" cannot be the writers' test (a capture or
//! promotion as the best move). It is the engine's own test instead: the side to move has a
//! capture or promotion that wins material by static exchange
//! ([`pychess_engine::has_winning_noisy_move`]), so a static evaluation of the position
//! would miss what the next move takes. Kept records are copied byte for byte.
//!
//! With [`Children`], a run writes positions one random move on from each record instead of
//! the record itself: the positions a search visits beside the line a game took, which a
//! network evaluating for that search has to know too. Their score is 0 (a child has not
//! been searched: `rescore` gives it one) and their result the parent's.

use crate::error::Error;
use crate::nnue::{open_records, NnueFormat, NnueRecord, NNUE_RECORD_SIZE};
use crate::sample::{Filters, Skip, Stats};
use pychess_core::Board;
use pychess_engine::has_winning_noisy_move;
use pychess_ml::batch::{game_seed, SplitMix64};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Children in place of the records: up to `per_position` distinct legal moves of each
/// record's position, drawn by a generator seeded from `seed` and the record's index (a
/// record's children do not depend on how the run is cut into steps).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Children {
    /// Children a record gives at most (fewer where it has fewer legal moves).
    pub per_position: usize,
    /// The run's seed.
    pub seed: u64,
}

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
    children: Option<Children>,
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
        let (file, records) = open_records(input, output, format)?;
        let out = File::create(output).map_err(|e| Error::io(output, e))?;
        Ok(NnueFilter {
            format,
            filters,
            input: BufReader::with_capacity(1 << 20, file),
            output: BufWriter::with_capacity(1 << 20, out),
            output_path: output.to_path_buf(),
            records,
            stats: Stats::default(),
            children: None,
        })
    }

    /// Writes children instead of the records: the filters' `max_score` still applies to
    /// the record (a lost position's children are lost too), the check and noisy filters to
    /// each child. A child where the game is over (checkmate, stalemate, insufficient
    /// material) is not written: it has nothing to score.
    #[must_use]
    pub fn with_children(mut self, children: Children) -> NnueFilter {
        self.children = Some(children);
        self
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
            if let Some(children) = self.children {
                if self.score_too_high(record.score) {
                    self.stats.skip(Skip::Score);
                } else {
                    self.write_children(&record, index as u64, children)?;
                }
                continue;
            }
            match self.skip(&record.board, record.score) {
                Some(why) => self.stats.skip(why),
                None => self.write(&bytes)?,
            }
        }
        Ok(self.stats.positions == self.records)
    }

    fn write_children(
        &mut self,
        record: &NnueRecord,
        index: u64,
        children: Children,
    ) -> Result<(), Error> {
        let mut rng = SplitMix64::new(game_seed(children.seed, index));
        let mut moves = record.board.legal_moves();
        let moves = moves.as_mut_slice();
        // A partial Fisher-Yates shuffle: the first `per_position` moves, drawn without
        // repetition.
        for i in 0..children.per_position.min(moves.len()) {
            let j = i + rng.below(moves.len() - i);
            moves.swap(i, j);
            let child = record.board.after(moves[i]);
            if !child.has_legal_moves() || child.is_insufficient_material() {
                continue;
            }
            match self.skip(&child, 0) {
                Some(why) => self.stats.skip(why),
                None => {
                    let bytes = self.format.encode(&child, 0, record.wdl)?;
                    self.write(&bytes)?;
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8; NNUE_RECORD_SIZE]) -> Result<(), Error> {
        self.output
            .write_all(bytes)
            .map_err(|e| Error::io(&self.output_path, e))?;
        self.stats.written += 1;
        self.stats.bytes += NNUE_RECORD_SIZE as u64;
        Ok(())
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

    fn skip(&self, board: &Board, score: i16) -> Option<Skip> {
        let f = &self.filters;
        if f.skip_check && board.is_check() {
            Some(Skip::Check)
        } else if f.skip_noisy && has_winning_noisy_move(board) {
            Some(Skip::Noisy)
        } else if self.score_too_high(score) {
            Some(Skip::Score)
        } else {
            None
        }
    }

    fn score_too_high(&self, score: i16) -> bool {
        self.filters
            .max_score
            .is_some_and(|limit| score.unsigned_abs() > limit.unsigned_abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::Wdl;

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

    fn records(path: &Path) -> Vec<[u8; NNUE_RECORD_SIZE]> {
        std::fs::read(path)
            .unwrap()
            .chunks(NNUE_RECORD_SIZE)
            .map(|r| r.try_into().unwrap())
            .collect()
    }

    #[test]
    fn children_are_one_legal_move_on_seeded_and_filtered() {
        let dir = std::env::temp_dir().join(format!("children-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, output) = (dir.join("in.bin"), dir.join("out.bin"));
        let pawn_ending = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"; // e3, e4 and four king moves
        let back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"; // Ra8 mates: no child
        let last_pawn = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"; // Kxd2 leaves two kings: no child
        let rook = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"; // Ra8 checks
        let lost = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        write(
            &input,
            &[
                (pawn_ending, 40),
                (back_rank, 300),
                (last_pawn, -90),
                (rook, 500),
                (lost, 5000),
            ],
        );
        let format = NnueFormat::Bullet;
        let parents = format.decode_all(&std::fs::read(&input).unwrap()).unwrap();
        let run_with = |per_position: usize, seed: u64, filters: &Filters, step: u64| {
            let children = Children { per_position, seed };
            let mut run = NnueFilter::open(&input, &output, format, filters.clone())
                .unwrap()
                .with_children(children);
            while !run.advance(step).unwrap() {}
            let stats = run.finish().unwrap();
            (stats, records(&output))
        };
        let limit = Filters {
            max_score: Some(3000),
            ..Filters::default()
        };
        // Every child: each legal move of the first four parents but the mate and the
        // capture of the last pawn; the fifth parent's score is over the limit.
        let (stats, all) = run_with(100, 1, &limit, 1);
        let mut expected = Vec::new();
        for parent in &parents[..4] {
            for &m in parent.board.legal_moves().as_slice() {
                let child = parent.board.after(m);
                if child.has_legal_moves() && !child.is_insufficient_material() {
                    expected.push(format.encode(&child, 0, parent.wdl).unwrap());
                }
            }
        }
        let counts: Vec<usize> = parents[..4]
            .iter()
            .map(|p| p.board.legal_moves().len())
            .collect();
        assert_eq!(counts, [6, 17, 5, 15]);
        assert_eq!(expected.len(), 6 + 16 + 4 + 15);
        let (mut got, mut want) = (all.clone(), expected.clone());
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want);
        assert_eq!((stats.positions, stats.written), (5, 41));
        assert_eq!(stats.skipped_score, 1);
        for child in format.decode_all(&std::fs::read(&output).unwrap()).unwrap() {
            assert_eq!((child.score, child.wdl), (0, Wdl::Draw));
        }
        // Two a parent, drawn without repetition; the same seed gives the same children
        // however the run is cut into steps, another seed others.
        let (stats, two) = run_with(2, 7, &limit, 1);
        assert!((6..=8).contains(&stats.written));
        assert!(two.iter().all(|r| expected.contains(r)));
        let mut distinct = two.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), two.len());
        assert_eq!(run_with(2, 7, &limit, 1000).1, two);
        let others: Vec<_> = (8..12).map(|seed| run_with(2, seed, &limit, 3).1).collect();
        assert!(others.iter().any(|o| *o != two));
        // The check filter applies to the children (Ra8+ of the fourth parent), not to the
        // records.
        let checks = Filters {
            skip_check: true,
            ..limit.clone()
        };
        let (stats, quiet) = run_with(100, 1, &checks, 1);
        assert_eq!((stats.written, stats.skipped_check), (40, 1));
        assert!(quiet.iter().all(|r| expected.contains(r)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
