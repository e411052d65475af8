//! Games from PGN for the writers: the bulk reader's game records, plus the `[%eval]` of the
//! comment after each mainline move.

use crate::sample::{clamp_cp, mate_score, Wdl};
use pychess_core::{Board, Move};
use pychess_pgn::annotations::{eval_annotation, Eval};
use pychess_pgn::parser::PgnError;
use pychess_pgn::reader::Batch;
use pychess_pgn::{read_game, Filter, GameRecord, Lines, RecordBuilder, Visitor};

/// A game read from PGN, ready for the writers.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// The bulk reader's record (tags, start, mainline, result, errors).
    pub record: GameRecord,
    /// For each mainline move, the `[%eval]` of the comment after it (the evaluation of the
    /// position it leads to), from White's side, as a record's score.
    pub evals: Vec<Option<i16>>,
}

impl PgnGame {
    /// The game's result, if it has one and was read without errors.
    pub fn usable_result(&self) -> Option<Wdl> {
        if !self.record.errors.is_empty() {
            return None;
        }
        Wdl::from_pgn(self.record.result())
    }

    /// The start position.
    pub fn start(&self) -> &Board {
        &self.record.start
    }

    /// The mainline.
    pub fn moves(&self) -> &[Move] {
        &self.record.moves
    }
}

/// The record builder plus the evaluations of the mainline's comments.
struct Annotator<'f> {
    builder: RecordBuilder<'f>,
    depth: usize,
    evals: Vec<Option<i16>>,
}

fn score_of(eval: Eval) -> i16 {
    match eval {
        Eval::Centipawns(cp) => clamp_cp(cp),
        Eval::Mate(moves) => mate_score(moves),
    }
}

impl Visitor for Annotator<'_> {
    fn begin_game(&mut self) -> bool {
        self.builder.begin_game()
    }
    fn begin_headers(&mut self) {
        self.builder.begin_headers();
    }
    fn visit_header(&mut self, name: &[u8], value: &[u8]) {
        self.builder.visit_header(name, value);
    }
    fn end_headers(&mut self) -> bool {
        self.builder.end_headers()
    }
    fn visit_board(&mut self, board: &Board) {
        self.builder.visit_board(board);
    }
    fn begin_parse_san(&mut self, board: &Board, san: &[u8]) -> bool {
        self.builder.begin_parse_san(board, san)
    }
    fn parse_san(&mut self, board: &Board, san: &[u8]) -> Result<Move, PgnError> {
        self.builder.parse_san(board, san)
    }
    fn visit_move(&mut self, board: &Board, m: Move) {
        if self.depth == 0 {
            self.evals.push(None);
        }
        self.builder.visit_move(board, m);
    }
    fn visit_comment(&mut self, comment: &[u8]) {
        // python-chess's `eval()` reads the first `[%eval]` of a move's comments.
        if let (0, Some(slot @ None)) = (self.depth, self.evals.last_mut()) {
            *slot = eval_annotation(comment).map(score_of);
        }
        self.builder.visit_comment(comment);
    }
    fn visit_nag(&mut self, nag: u64) {
        self.builder.visit_nag(nag);
    }
    fn begin_variation(&mut self) -> bool {
        self.depth += 1;
        self.builder.begin_variation()
    }
    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.builder.end_variation();
    }
    fn end_skipped_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.builder.end_skipped_variation();
    }
    fn visit_result(&mut self, result: &[u8]) {
        self.builder.visit_result(result);
    }
    fn handle_error(&mut self, error: PgnError) {
        self.builder.handle_error(error);
    }
    fn end_game(&mut self) {
        self.builder.end_game();
    }
}

/// The games of one batch of the bulk reader's chunker.
pub fn read_batch(batch: &Batch) -> Vec<PgnGame> {
    let filter = Filter::default();
    let mut games = Vec::with_capacity(batch.games.len());
    for &(start, end, offset) in &batch.games {
        let mut annotator = Annotator {
            builder: RecordBuilder::new(&filter),
            depth: 0,
            evals: Vec::with_capacity(160),
        };
        if !read_game(&mut Lines::new(&batch.data[start..end]), &mut annotator) {
            continue;
        }
        let mut record = annotator.builder.record;
        record.offset = offset;
        let mut evals = annotator.evals;
        evals.resize(record.moves.len(), None);
        games.push(PgnGame { record, evals });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mainline_evals_only() {
        let pgn = b"[Result \"1-0\"]\n\n1. e4 { [%eval 0.3] } e5 (1... c5 { [%eval 0.5] }) { [%eval #-2] } 2. Nf3 { [%clk 0:01:00] } 1-0\n\n";
        let batch = Batch {
            seq: 0,
            offset: 0,
            data: pgn.to_vec(),
            games: vec![(0, pgn.len(), 0)],
        };
        let games = read_batch(&batch);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].evals, [Some(30), Some(-32000), None]);
        assert_eq!(games[0].usable_result(), Some(Wdl::WhiteWin));
    }
}
