//! Static evaluation: a tapered sum of weighted features.
//!
//! Every term is a count (how many passed pawns on the 6th rank, how many safe knight
//! squares, ...) times a weight [`S`] with a middlegame and an endgame value. The counts are
//! summed White minus Black into `mg` and `eg`, which are blended by the game phase
//! (non-pawn material: 24 with all pieces on, 0 with none) and the endgame part is scaled
//! down in endings that are usually drawn:
//!
//! ```text
//! white = (mg * phase + (eg * scale / 64) * (24 - phase)) / 24
//! ```
//!
//! Because the evaluation is linear in the weights, the same code can report every count
//! instead of summing it ([`trace`]); the tuner (`rust/tuner`) fits the weights to game
//! results from those traces, and `weights.rs` holds the result. How the values were
//! obtained is recorded in `rust/engine/TUNING.md`.
//!
//! ```
//! use pychess_core::Board;
//! use pychess_engine::eval::evaluate;
//!
//! let start = Board::default();
//! let up_a_queen =
//!     Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
//! assert!(evaluate(&start).abs() < 50);
//! assert!(evaluate(&up_a_queen) > 700);
//! ```

mod features;
mod initial;
pub mod layout;
mod weights;

use pychess_core::{Board, Color};

use features::{Accumulator, NoTrace, Tracer};
use layout::FEATURE_COUNT;

pub use initial::HAND_WEIGHTS;
pub use weights::WEIGHTS;

/// A weight: its middlegame and endgame values in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct S {
    /// Value with all pieces on the board.
    pub mg: i32,
    /// Value with only kings and pawns left.
    pub eg: i32,
}

impl S {
    /// The weight `(mg, eg)`.
    pub const fn new(mg: i32, eg: i32) -> S {
        S { mg, eg }
    }
}

/// A full set of weights, indexed as [`layout`] describes.
pub type Weights = [S; FEATURE_COUNT];

/// The phase with every piece on the board (knight or bishop 1, rook 2, queen 4 each).
pub const PHASE_MAX: i32 = 24;

/// The endgame scale that leaves the endgame score as it is.
pub const SCALE_MAX: i32 = 64;

/// The position's value in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &WEIGHTS)
}

/// [`evaluate`] with another set of weights (the tuner compares sets with it).
pub fn evaluate_with(board: &Board, weights: &Weights) -> i32 {
    let mut tracer = NoTrace;
    let mut acc = Accumulator::new(weights, &mut tracer);
    features::extract(board, &mut acc);
    let white = taper(
        acc.mg,
        acc.eg,
        features::phase(board),
        features::endgame_scale(board),
    );
    match board.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// The blend of `mg` and `eg` (White's point of view) at `phase`, with the endgame part
/// scaled by `scale[0]` if it favours White and `scale[1]` if it favours Black.
fn taper(mg: i32, eg: i32, phase: i32, scale: [i32; 2]) -> i32 {
    let scale = if eg >= 0 { scale[0] } else { scale[1] };
    let eg = eg * scale / SCALE_MAX;
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Every feature count of one position (White's minus Black's), with what is needed to
/// recompute [`evaluate`] from any set of weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `(weight index, count)` for every non-zero count, by ascending index.
    pub terms: Vec<(usize, i32)>,
    /// The game phase, 0..=[`PHASE_MAX`].
    pub phase: i32,
    /// Endgame scale (out of [`SCALE_MAX`]) when the endgame score favours White, Black.
    pub scale: [i32; 2],
    /// The side to move, whose point of view [`evaluate`] takes.
    pub turn: Color,
}

impl Trace {
    /// The evaluation from White's point of view under `weights`: exactly what
    /// [`evaluate_with`] computes (before turning to the side to move).
    pub fn white_eval(&self, weights: &Weights) -> i32 {
        let (mut mg, mut eg) = (0, 0);
        for &(index, count) in &self.terms {
            mg += weights[index].mg * count;
            eg += weights[index].eg * count;
        }
        taper(mg, eg, self.phase, self.scale)
    }
}

struct DenseTrace(Vec<i32>);

impl Tracer for DenseTrace {
    fn add(&mut self, feature: usize, count: i32) {
        self.0[feature] += count;
    }
}

/// The feature counts of `board`, for tuning.
pub fn trace(board: &Board) -> Trace {
    let mut dense = DenseTrace(vec![0; FEATURE_COUNT]);
    let mut acc = Accumulator::new(&WEIGHTS, &mut dense);
    features::extract(board, &mut acc);
    let terms = dense
        .0
        .iter()
        .enumerate()
        .filter(|&(_, &count)| count != 0)
        .map(|(index, &count)| (index, count))
        .collect();
    Trace {
        terms,
        phase: features::phase(board),
        scale: features::endgame_scale(board),
        turn: board.turn(),
    }
}

#[cfg(test)]
mod tests;
