//! AlphaZero tensors on disk: one `.npy` file per array in a directory, one row per position.
//!
//! | file | dtype | shape | what |
//! |---|---|---|---|
//! | `planes.npy` | `<f4` | (N, 8, 8, 119) | `pychess_ml`'s AlphaZero input planes |
//! | `legal_mask.npy` | `\|b1` | (N, 4672) | legal moves, AlphaZero's 8x8x73 move index |
//! | `action.npy` | `<i2` | (N,) | the move played, same index |
//! | `outcome.npy` | `\|i1` | (N,) | the game's result for the side to move: 1, 0, -1 |

use crate::error::Error;
use crate::npy::NpyWriter;
use crate::sample::Wdl;
use pychess_core::{Game, Move};
use pychess_ml::encode::{action_of, alphazero_planes, legal_action_mask, ACTIONS};
use std::path::Path;

/// The arrays, in column order: file name, dtype, element bytes, item shape.
pub const ALPHAZERO_FILES: [(&str, &str, usize, &[usize]); 4] = [
    ("planes.npy", "<f4", 4, &[8, 8, 119]),
    ("legal_mask.npy", "|b1", 1, &[ACTIONS]),
    ("action.npy", "<i2", 2, &[]),
    ("outcome.npy", "|i1", 1, &[]),
];

/// How many arrays.
pub const ALPHAZERO_COLUMNS: usize = ALPHAZERO_FILES.len();

/// Creates the arrays' files in `dir`.
pub fn create(dir: &Path) -> Result<Vec<NpyWriter>, Error> {
    ALPHAZERO_FILES
        .iter()
        .map(|&(name, descr, elem, shape)| NpyWriter::create(&dir.join(name), descr, elem, shape))
        .collect()
}

/// Values in one position's planes.
pub const PLANE_VALUES: usize = 8 * 8 * 119;

/// Appends the game's current position (planes, mask), the move `played` and the result to
/// the columns; `planes` is a scratch buffer of [`PLANE_VALUES`] values.
pub fn append(game: &Game, played: Move, result: Wdl, planes: &mut [f32], columns: &mut [Vec<u8>]) {
    let board = game.board();
    alphazero_planes(game, planes);
    let column = &mut columns[0];
    column.reserve(planes.len() * 4);
    for value in planes.iter() {
        column.extend_from_slice(&value.to_le_bytes());
    }
    let start = columns[1].len();
    columns[1].resize(start + ACTIONS, 0);
    legal_action_mask(board, &mut columns[1][start..]);
    let action = action_of(board, played) as i16;
    columns[2].extend_from_slice(&action.to_le_bytes());
    let outcome = result.for_side(board.turn()) as i8 - 1;
    columns[3].push(outcome as u8);
}
