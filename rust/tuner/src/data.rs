//! Labelled positions, read from text and stored as compact evaluation traces.
//!
//! One position per line: a FEN, a `;`, the game's result for White (`1.0`, `0.5` or
//! `0.0`) and optionally a `;` and a reference engine's score for White in centipawns, as
//! `tools/texel_datagen.py` writes them:
//!
//! ```text
//! r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4;0.5;31
//! ```

use std::fmt;

use pychess_core::Board;
use pychess_engine::eval::{trace, Trace, Weights};

/// Consecutive positions that [`Dataset::split_every`] keeps together (about a dozen games).
pub const SPLIT_BLOCK: usize = 1000;

/// One position's trace, with its terms stored in [`Dataset::terms`].
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// First term in [`Dataset::terms`].
    pub start: u32,
    /// Number of terms.
    pub len: u32,
    /// Game phase, 0..=`PHASE_MAX`.
    pub phase: i32,
    /// Endgame scale when the endgame score favours White, Black.
    pub scale: [i32; 2],
    /// Game result for White: 1, 0.5 or 0.
    pub result: f64,
    /// The reference engine's score for White, if the data has one.
    pub score: Option<i32>,
    /// What the fit aims at: the result, or a blend of it with the score
    /// ([`Dataset::set_targets`]).
    pub target: f64,
}

/// Positions and their terms, packed: a trace is about 60 `(index, count)` pairs.
#[derive(Default, Debug)]
pub struct Dataset {
    /// Every position.
    pub positions: Vec<Position>,
    /// `(weight index, count)` for all positions, end to end.
    pub terms: Vec<(u16, i16)>,
}

/// A line that could not be read, with its number and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub reason: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// Reads `FEN;result[;score]` into a board, a result for White and the optional score.
pub fn parse_line(line: &str) -> Result<(Board, f64, Option<i32>), String> {
    let mut fields = line.split(';');
    let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
        return Err(format!("expected 'FEN;result[;score]', got {line:?}"));
    };
    let score = match fields.next() {
        Some(score) => Some(
            score
                .trim()
                .parse::<i32>()
                .map_err(|_| format!("bad score {score:?}"))?,
        ),
        None => None,
    };
    if fields.next().is_some() {
        return Err(format!("too many fields in {line:?}"));
    }
    let result: f64 = result
        .trim()
        .parse()
        .map_err(|_| format!("bad result {result:?}"))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} is not in 0..=1"));
    }
    let board = Board::from_fen(fen.trim(), false).map_err(|e| e.to_string())?;
    Ok((board, result, score))
}

impl Dataset {
    /// Adds one position.
    pub fn push(&mut self, trace: &Trace, result: f64, score: Option<i32>) {
        let start = self.terms.len() as u32;
        for &(index, count) in &trace.terms {
            // Counts are small (at most 64 of anything); the index fits the layout's size.
            self.terms.push((index as u16, count as i16));
        }
        self.positions.push(Position {
            start,
            len: trace.terms.len() as u32,
            phase: trace.phase,
            scale: trace.scale,
            result,
            score,
            target: result,
        });
    }

    /// Reads every line of `text`; bad lines are returned (not fatal) so that one broken
    /// line in a large file costs only itself.
    pub fn extend_from_text(&mut self, text: &str) -> Vec<LineError> {
        let mut errors = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match parse_line(line) {
                Ok((board, result, score)) => self.push(&trace(&board), result, score),
                Err(reason) => errors.push(LineError {
                    line: i + 1,
                    reason,
                }),
            }
        }
        errors
    }

    /// Aims the fit at `(1 - blend) * result + blend * sigmoid(k * score)`: with `blend > 0`
    /// every position carries its own evidence, not only its game's, which makes up for
    /// having few games. Positions without a score keep the result.
    pub fn set_targets(&mut self, k: f64, blend: f64) {
        for p in &mut self.positions {
            p.target = match p.score {
                Some(score) => {
                    (1.0 - blend) * p.result + blend * crate::model::sigmoid(k, score as f64)
                }
                None => p.result,
            };
        }
    }

    /// The terms of `position`.
    pub fn terms_of(&self, position: &Position) -> &[(u16, i16)] {
        &self.terms[position.start as usize..(position.start + position.len) as usize]
    }

    /// Splits off every `n`-th block of [`SPLIT_BLOCK`] consecutive positions as a
    /// validation set. Blocks, not single positions: a game's positions are written one
    /// after another and look alike, so holding out single positions would test the fit on
    /// near-copies of its training data.
    pub fn split_every(self, n: usize) -> (Dataset, Dataset) {
        let mut train = Dataset::default();
        let mut valid = Dataset::default();
        for (i, p) in self.positions.iter().enumerate() {
            let block = i / SPLIT_BLOCK;
            let target = if n > 0 && block % n == n - 1 {
                &mut valid
            } else {
                &mut train
            };
            let start = target.terms.len() as u32;
            target.terms.extend_from_slice(self.terms_of(p));
            target.positions.push(Position { start, ..*p });
        }
        (train, valid)
    }

    /// The engine's exact integer evaluation (White's view) of `position` under `weights`.
    pub fn integer_eval(&self, position: &Position, weights: &Weights) -> i32 {
        let trace = Trace {
            terms: self
                .terms_of(position)
                .iter()
                .map(|&(i, c)| (i as usize, c as i32))
                .collect(),
            phase: position.phase,
            scale: position.scale,
            turn: pychess_core::Color::White,
        };
        trace.white_eval(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_engine::eval::{evaluate, WEIGHTS};

    #[test]
    fn reads_lines_and_reports_bad_ones() {
        let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5\n\
                    \n\
                    not a fen;1.0\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;2.0\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;0.5;x\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;0.5;1;2\n\
                    r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4;1.0;-40\n";
        let mut data = Dataset::default();
        let errors = data.extend_from_text(text);
        assert_eq!(data.positions.len(), 2);
        assert_eq!(
            errors.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![3, 4, 5, 6, 7]
        );
        let second = data.positions[1];
        assert_eq!((second.result, second.score), (1.0, Some(-40)));
        data.set_targets(0.01, 0.5);
        assert_eq!(data.positions[0].target, 0.5);
        let blended = 0.5 + 0.5 / (1.0 + 0.4f64.exp());
        assert!((data.positions[1].target - blended).abs() < 1e-12);
        let (board, _, _) = parse_line(text.lines().last().unwrap()).unwrap();
        // Black to move: the stored trace is White's view.
        assert_eq!(data.integer_eval(&second, &WEIGHTS), -evaluate(&board));
    }

    #[test]
    fn split_keeps_every_position_once() {
        let mut data = Dataset::default();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0.5\n";
        let _ = data.extend_from_text(&fen.repeat(5 * SPLIT_BLOCK + 10));
        let terms = data.terms.len();
        let (train, valid) = data.split_every(5);
        // Blocks 0..=3 and the 10 positions of block 5 train; block 4 validates.
        assert_eq!(
            (train.positions.len(), valid.positions.len()),
            (4 * SPLIT_BLOCK + 10, SPLIT_BLOCK)
        );
        assert_eq!(train.terms.len() + valid.terms.len(), terms);
    }
}
