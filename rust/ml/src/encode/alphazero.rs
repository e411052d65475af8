//! AlphaZero's chess input planes (Silver et al. 2018, table S1): 8 positions of history with
//! 14 planes each, then 7 constant planes, 119 in all.
//!
//! The array is channels-last `(8, 8, 119)` of `f32`, flattened row-major (`(row * 8 +
//! column) * 119 + channel`), seen from the side to move: column 0 is the a-file, row 0 the
//! rank farthest from the mover (the eighth for White, the first for Black: Black's view
//! is mirrored vertically, files stay).
//!
//! * 14t .. 14(t + 1), t = 0..8: the position t plies ago (t = 0: now), all in the current
//!   mover's view. 6 planes of the mover's pieces (pawn, knight, bishop, rook, queen, king),
//!   6 of the opponent's, then 1.0 everywhere if the position had occurred at least twice
//!   (this time included), then 1.0 if at least three times (python-chess's
//!   `is_repetition(2)` and `is_repetition(3)` as of then). Plies before the game's root are
//!   all zeros.
//! * 112: colour, 1.0 if Black is to move.
//! * 113: total move count, the fullmove number (FEN's sixth field).
//! * 114, 115: the mover may castle kingside, queenside (1.0 or 0.0).
//! * 116, 117: the opponent may castle kingside, queenside.
//! * 118: no-progress count, the halfmove clock (plies since the last capture or pawn move).

use super::history::recent;
use super::{expand_words, image_word, view_bits, Plane};
use pychess_core::{Color, Game, Role};

/// The planes' shape: 8 rows, 8 columns, 119 channels.
pub const ALPHAZERO_SHAPE: [usize; 3] = [8, 8, 119];

/// Words of the bit-packed planes ([`alphazero_words`]): one per channel.
pub const ALPHAZERO_WORDS: usize = 119;

/// The channels whose packed word is a number, not a bitboard: 113 (the fullmove number)
/// and 118 (the halfmove clock).
pub const ALPHAZERO_COUNTER_WORDS: [usize; 2] = [113, 118];

const CHANNELS: usize = 119;

/// AlphaZero's planes bit-packed into `out`, one `u64` per channel: bit `row * 8 + column`
/// of word `c` is cell `(row, column)` of channel `c` (so a plane that is all ones is
/// `u64::MAX`), except words 113 and 118 ([`ALPHAZERO_COUNTER_WORDS`]), which hold the
/// fullmove number and the halfmove clock themselves (their planes repeat that number in
/// every cell).
///
/// # Panics
/// If `out` is not 119 long.
pub fn alphazero_words(game: &Game, out: &mut [u64]) {
    assert_eq!(out.len(), CHANNELS, "AlphaZero planes pack into 119 words");
    out.fill(0);
    let board = game.board();
    let us = board.turn();
    let (past, count) = recent(game, 8);
    for (t, entry) in past[..count].iter().flatten().enumerate() {
        let base = 14 * t;
        for (side, color) in [us, !us].into_iter().enumerate() {
            for role in Role::ALL {
                let bits = view_bits(entry.board.pieces(color, role).0, us);
                out[base + 6 * side + role.index()] = image_word(bits);
            }
        }
        out[base + 12] = if entry.occurrences >= 2 { u64::MAX } else { 0 };
        out[base + 13] = if entry.occurrences >= 3 { u64::MAX } else { 0 };
    }
    let all = |on: bool| if on { u64::MAX } else { 0 };
    let (our_king_side, our_queen_side) = board.castling_sides(us);
    let (their_king_side, their_queen_side) = board.castling_sides(!us);
    out[112] = all(us == Color::Black);
    out[113] = board.fullmove_number();
    out[114] = all(our_king_side);
    out[115] = all(our_queen_side);
    out[116] = all(their_king_side);
    out[117] = all(their_queen_side);
    out[118] = board.halfmove_clock();
}

/// AlphaZero's input planes for the game's current position into `out`, row-major
/// `(8, 8, 119)` (see the module documentation for every plane).
///
/// # Panics
/// If `out` is not 8 * 8 * 119 long.
pub fn alphazero_planes(game: &Game, out: &mut [f32]) {
    alphazero_planes_into(game, out);
}

/// [`alphazero_planes`] as `f32` or `u8` (0/1, the two counter planes saturating at 255).
///
/// # Panics
/// If `out` is not 8 * 8 * 119 long.
pub fn alphazero_planes_into<T: Plane>(game: &Game, out: &mut [T]) {
    assert_eq!(
        out.len(),
        64 * CHANNELS,
        "AlphaZero planes have 8 * 8 * 119 values"
    );
    let mut words = [0u64; CHANNELS];
    alphazero_words(game, &mut words);
    expand_words(&words, &ALPHAZERO_COUNTER_WORDS, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{fill_image, put_image};
    use pychess_core::UciMove;

    /// The planes written square by square, as before the packed form existed: the oracle
    /// the packed path is compared with.
    fn reference_planes(game: &Game, out: &mut [f32]) {
        out.fill(0.0);
        let board = game.board();
        let us = board.turn();
        let (past, count) = recent(game, 8);
        for (t, entry) in past[..count].iter().flatten().enumerate() {
            let base = 14 * t;
            for (side, color) in [us, !us].into_iter().enumerate() {
                for role in Role::ALL {
                    let bits = view_bits(entry.board.pieces(color, role).0, us);
                    put_image(out, CHANNELS, base + 6 * side + role.index(), bits, 1.0);
                }
            }
            if entry.occurrences >= 2 {
                fill_image(out, CHANNELS, base + 12, 1.0);
            }
            if entry.occurrences >= 3 {
                fill_image(out, CHANNELS, base + 13, 1.0);
            }
        }
        let (our_king_side, our_queen_side) = board.castling_sides(us);
        let (their_king_side, their_queen_side) = board.castling_sides(!us);
        let constants = [
            f32::from(u8::from(us == Color::Black)),
            board.fullmove_number() as f32,
            f32::from(u8::from(our_king_side)),
            f32::from(u8::from(our_queen_side)),
            f32::from(u8::from(their_king_side)),
            f32::from(u8::from(their_queen_side)),
            board.halfmove_clock() as f32,
        ];
        for (k, value) in constants.into_iter().enumerate() {
            if value != 0.0 {
                fill_image(out, CHANNELS, 112 + k, value);
            }
        }
    }

    #[test]
    fn packed_and_dense_equal_the_square_by_square_planes() {
        let mut game = Game::default();
        let mut rng = crate::batch::SplitMix64::new(7);
        let mut want = vec![0f32; 64 * CHANNELS];
        let mut got = vec![0f32; 64 * CHANNELS];
        let mut bytes = vec![0u8; 64 * CHANNELS];
        for ply in 0..400 {
            reference_planes(&game, &mut want);
            alphazero_planes(&game, &mut got);
            assert_eq!(want, got, "ply {ply}");
            alphazero_planes_into(&game, &mut bytes);
            let as_bytes: Vec<u8> = want.iter().map(|&v| v.min(255.0) as u8).collect();
            assert_eq!(bytes, as_bytes, "ply {ply}");
            let moves = game.legal_moves().to_vec();
            if moves.is_empty() || game.outcome(false).is_some() {
                game = Game::default();
            } else {
                game.play(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn start_and_one_move() {
        let mut game = Game::default();
        let mut planes = vec![0f32; 64 * CHANNELS];
        alphazero_planes(&game, &mut planes);
        let at = |p: &[f32], row: usize, col: usize, c: usize| p[(row * 8 + col) * CHANNELS + c];
        assert_eq!(at(&planes, 7, 4, 5), 1.0); // our king on e1, bottom row
        assert_eq!(at(&planes, 0, 4, 11), 1.0); // their king on e8, top row
        assert_eq!(at(&planes, 3, 3, 113), 1.0);
        assert_eq!(at(&planes, 3, 3, 112), 0.0);
        assert!((14..112).all(|c| at(&planes, 0, 4, c) == 0.0));
        for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            game.push_uci(UciMove::parse(text).unwrap()).unwrap();
        }
        alphazero_planes(&game, &mut planes);
        // The start position again: a second occurrence, not a third.
        assert_eq!(at(&planes, 5, 5, 12), 1.0);
        assert_eq!(at(&planes, 5, 5, 13), 0.0);
        // Two plies ago White's knight stood on f3 (row 5, column 5), in the mover's view.
        assert_eq!(at(&planes, 5, 5, 28 + 1), 1.0);
        // One ply ago, Black's knight was on f6: opponent's knight plane of slot 1.
        assert_eq!(at(&planes, 2, 5, 14 + 7), 1.0);
        assert_eq!(at(&planes, 0, 0, 118), 4.0);
        game.push_uci(UciMove::parse("e2e4").unwrap()).unwrap();
        alphazero_planes(&game, &mut planes);
        // Black to move: Black's king (e8) is ours and sits on the bottom row.
        assert_eq!(at(&planes, 7, 4, 5), 1.0);
        assert_eq!(at(&planes, 0, 0, 112), 1.0);
    }
}
