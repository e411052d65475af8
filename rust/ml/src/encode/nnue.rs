//! NNUE feature indices as nnue-pytorch defines them (`halfkp.py`, `halfka_v2_hm.py`): the
//! active features of one side's perspective, in square order a1..h8 of the pieces.
//!
//! With `ksq` the perspective's king square and, for each piece on `sq`,
//! `p_idx = (piece_type - 1) * 2 + (piece colour != perspective)` (python-chess piece types,
//! pawn = 1 .. king = 6):
//!
//! * HalfKP (41,024 inputs): kings are not features. Black's perspective rotates the board
//!   by 180 degrees (`sq ^ 63`, the king's square too). Index
//!   `1 + orient(sq) + p_idx * 64 + orient(ksq) * 641`.
//! * HalfKAv2_hm (22,528 inputs): kings are features, both kings sharing plane 10. The board
//!   is mirrored vertically for Black (`sq ^ 56`) and horizontally when the perspective's king
//!   stands on files a..d (`sq ^ 7`), so that king is always on files e..h; its square then
//!   picks one of 32 buckets, `(7 - rank) * 4 + (7 - file)`. Index
//!   `orient(sq) + min(p_idx, 10) * 64 + bucket * 704`.

use pychess_core::{Board, Color, Role};
use std::fmt;

/// HalfKP's number of inputs: 64 king squares x (64 squares x 10 piece kinds + 1).
pub const HALFKP_INPUTS: usize = 41_024;

/// HalfKAv2_hm's number of inputs: 32 king buckets x 64 squares x 11 piece kinds.
pub const HALFKA_V2_HM_INPUTS: usize = 22_528;

/// The most features one perspective can have in a legal position (32 pieces).
pub const MAX_FEATURES: usize = 32;

/// Why a position has no NNUE features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NnueError {
    /// The perspective's side has no king (or more than one).
    NoKing,
    /// More pieces than the output holds.
    TooManyPieces,
}

impl fmt::Display for NnueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NnueError::NoKing => "NNUE features need exactly one king of the perspective's side",
            NnueError::TooManyPieces => "more pieces than NNUE features can hold",
        })
    }
}

impl std::error::Error for NnueError {}

fn the_king(board: &Board, perspective: Color) -> Result<usize, NnueError> {
    board
        .pieces(perspective, Role::King)
        .single()
        .map(|sq| sq.index())
        .ok_or(NnueError::NoKing)
}

/// Calls `each(sq, p_idx)` for every piece of `board` in square order.
fn for_each_piece(board: &Board, perspective: Color, mut each: impl FnMut(usize, usize)) {
    for sq in board.occupied() {
        if let (Some(role), Some(color)) = (board.role_at(sq), board.color_at(sq)) {
            each(
                sq.index(),
                role.index() * 2 + usize::from(color != perspective),
            );
        }
    }
}

/// HalfKP's active features of `perspective` into `out`; returns how many.
///
/// # Errors
/// [`NnueError::NoKing`] without exactly one king of `perspective`,
/// [`NnueError::TooManyPieces`] if `out` is too short.
pub fn halfkp_features(
    board: &Board,
    perspective: Color,
    out: &mut [u32],
) -> Result<usize, NnueError> {
    let flip = if perspective == Color::White { 0 } else { 63 };
    let king = the_king(board, perspective)? ^ flip;
    let mut count = 0;
    let mut full = false;
    for_each_piece(board, perspective, |sq, p_idx| {
        if p_idx >= 10 {
            return;
        }
        match out.get_mut(count) {
            Some(slot) => {
                *slot = (1 + (sq ^ flip) + p_idx * 64 + king * 641) as u32;
                count += 1;
            }
            None => full = true,
        }
    });
    if full {
        return Err(NnueError::TooManyPieces);
    }
    Ok(count)
}

/// HalfKAv2_hm's active features of `perspective` into `out`; returns how many.
///
/// # Errors
/// [`NnueError::NoKing`] without exactly one king of `perspective`,
/// [`NnueError::TooManyPieces`] if `out` is too short.
pub fn halfka_v2_hm_features(
    board: &Board,
    perspective: Color,
    out: &mut [u32],
) -> Result<usize, NnueError> {
    let king = the_king(board, perspective)?;
    let orient =
        (if king % 8 < 4 { 7 } else { 0 }) ^ (if perspective == Color::White { 0 } else { 56 });
    let oriented_king = king ^ orient;
    let bucket = (7 - oriented_king / 8) * 4 + (7 - oriented_king % 8);
    let mut count = 0;
    let mut full = false;
    for_each_piece(board, perspective, |sq, p_idx| match out.get_mut(count) {
        Some(slot) => {
            *slot = ((sq ^ orient) + p_idx.min(10) * 64 + bucket * 704) as u32;
            count += 1;
        }
        None => full = true,
    });
    if full {
        return Err(NnueError::TooManyPieces);
    }
    Ok(count)
}

/// An NNUE feature set, for callers that pick one at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NnueFeatureSet {
    /// HalfKP ([`halfkp_features`]).
    HalfKp,
    /// HalfKAv2_hm ([`halfka_v2_hm_features`]).
    HalfKaV2Hm,
}

impl NnueFeatureSet {
    /// Whether `board` has features of this set for both perspectives, told from counts
    /// alone (no features computed): exactly one king a side, and at most [`MAX_FEATURES`]
    /// pieces that are features (HalfKP leaves the kings out).
    ///
    /// # Errors
    /// The [`NnueError`] the feature functions would return for one of the perspectives.
    pub fn check(self, board: &Board) -> Result<(), NnueError> {
        for color in Color::ALL {
            the_king(board, color)?;
        }
        let kings = match self {
            NnueFeatureSet::HalfKp => 2,
            NnueFeatureSet::HalfKaV2Hm => 0,
        };
        if board.occupied().count() as usize - kings > MAX_FEATURES {
            return Err(NnueError::TooManyPieces);
        }
        Ok(())
    }

    /// This set's active features of `perspective` into `out`; returns how many.
    ///
    /// # Errors
    /// As [`halfkp_features`] and [`halfka_v2_hm_features`].
    pub fn features(
        self,
        board: &Board,
        perspective: Color,
        out: &mut [u32],
    ) -> Result<usize, NnueError> {
        match self {
            NnueFeatureSet::HalfKp => halfkp_features(board, perspective, out),
            NnueFeatureSet::HalfKaV2Hm => halfka_v2_hm_features(board, perspective, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_features() {
        let board = Board::default();
        let mut out = [0u32; MAX_FEATURES];
        assert_eq!(halfkp_features(&board, Color::White, &mut out), Ok(30));
        // White pawn a2 (sq 8), white king e1 (4): 1 + 8 + 0 + 4 * 641.
        assert!(out[..30].contains(&(1 + 8 + 4 * 641)));
        assert_eq!(halfkp_features(&board, Color::Black, &mut out), Ok(30));
        // Black's view: its king e8 (60) ^ 63 = 3; its pawn a7 (48) ^ 63 = 15, p_idx 0.
        assert!(out[..30].contains(&(1 + 15 + 3 * 641)));
        assert_eq!(
            halfka_v2_hm_features(&board, Color::White, &mut out),
            Ok(32)
        );
        // King e1 stays (file e), bucket (7 - 0) * 4 + (7 - 4) = 31; own king plane 10.
        assert!(out[..32].contains(&(4 + 10 * 64 + 31 * 704)));
        // Their king e8 (60) shares plane 10.
        assert!(out[..32].contains(&(60 + 10 * 64 + 31 * 704)));
        assert!(out.iter().all(|&i| (i as usize) < HALFKA_V2_HM_INPUTS));
        let mut short = [0u32; 4];
        assert_eq!(
            halfkp_features(&board, Color::White, &mut short),
            Err(NnueError::TooManyPieces)
        );
        let kingless = Board::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(
            halfkp_features(&kingless, Color::Black, &mut out),
            Err(NnueError::NoKing)
        );
    }
}
