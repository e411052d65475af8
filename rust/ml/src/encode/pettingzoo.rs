//! PettingZoo `chess_v6`'s observation, byte for byte what its environment's
//! `observe(agent)["observation"]` holds after the game's moves were stepped from `reset()`.
//!
//! The game's root stands for the position after `reset()` (PettingZoo always starts from
//! the standard position; other roots are encoded the same way). `player_0` plays White,
//! `player_1` Black. The array is channels-last `(8, 8, 111)`, 0/1 bytes, flattened
//! row-major (`(row * 8 + column) * 111 + channel`). Column 0 is the a-file. For White's
//! observer row 0 is the eighth rank; for Black's the image is flipped vertically, so row 0
//! is the first rank.
//!
//! * 0..4: castling rights by rook square: for White's observer h1, a1, h8, a8 (White
//!   kingside, White queenside, Black kingside, Black queenside: PettingZoo's own
//!   documentation calls channel 0 queenside, its code tests h1); for Black's observer h8, a8,
//!   h1, a1 (its own rights first).
//! * 4: all ones for Black's observer.
//! * 5: one square set, number `halfmove_clock // 2` counted a1 = 0, b1 = 1, .. in the
//!   observer's image (PettingZoo fails past 63; here the number stops at 63).
//! * 6: all ones.
//! * 7 + 13k .. 7 + 13(k + 1), k = 0..8: the position k steps ago (k = 0: now). Its 6 piece
//!   planes of the observer's colour (pawn, knight, bishop, rook, queen, king), then the
//!   other colour's 6, then all ones if the position had occurred before (python-chess's
//!   `is_repetition(2)`). A pawn that just moved two squares is shown on its colour's first
//!   rank instead (Lc0's en-passant convention, on python-chess's `ep_square`, set after
//!   every double step). Slots older than the game's first move (the reset position itself
//!   included: PettingZoo only records positions reached by a step) are all zeros.

use super::action::{mark_moves, ACTIONS};
use super::history::{recent, Past};
use super::{expand_words, image_word, view_bits, Plane};
use pychess_core::{Board, Color, Game, Role};

/// The observation's shape: 8 rows, 8 columns, 111 channels.
pub const PETTINGZOO_SHAPE: [usize; 3] = [8, 8, 111];

const CHANNELS: usize = 111;
const H1: u64 = 1 << 7;
const A1: u64 = 1;
const H8: u64 = 1 << 63;
const A8: u64 = 1 << 56;

/// The observation of the side to move (PettingZoo's `observe(env.agent_selection)`) into
/// `out`, 0/1 bytes, row-major `(8, 8, 111)`.
///
/// # Panics
/// If `out` is not 8 * 8 * 111 long.
pub fn pettingzoo_observation(game: &Game, out: &mut [u8]) {
    pettingzoo_observation_for(game, game.board().turn(), out);
}

/// The observation PettingZoo gives the player of `observer` (White: `player_0`, Black:
/// `player_1`), whether or not it is that player's turn.
///
/// # Panics
/// If `out` is not 8 * 8 * 111 long.
pub fn pettingzoo_observation_for(game: &Game, observer: Color, out: &mut [u8]) {
    pettingzoo_observation_into(game, observer, out);
}

/// [`pettingzoo_observation_for`] as `u8` or `f32` values (0 or 1).
///
/// # Panics
/// If `out` is not 8 * 8 * 111 long.
pub fn pettingzoo_observation_into<T: Plane>(game: &Game, observer: Color, out: &mut [T]) {
    assert_eq!(
        out.len(),
        64 * CHANNELS,
        "a PettingZoo observation has 8 * 8 * 111 values"
    );
    let mut words = [0u64; CHANNELS];
    pettingzoo_words_for(game, observer, &mut words);
    expand_words(&words, &[], out);
}

/// Words of the bit-packed observation ([`pettingzoo_words_for`]): one per channel.
pub const PETTINGZOO_WORDS: usize = 111;

/// The observation of `observer` bit-packed into `out`, one `u64` per channel: bit
/// `row * 8 + column` of word `c` is cell `(row, column)` of channel `c` (every channel is
/// 0/1, so there is no exception).
///
/// # Panics
/// If `out` is not 111 long.
pub fn pettingzoo_words_for(game: &Game, observer: Color, out: &mut [u64]) {
    assert_eq!(
        out.len(),
        CHANNELS,
        "a PettingZoo observation packs into 111 words"
    );
    out.fill(0);
    let board = game.board();
    let castling = board.castling_rights().0;
    let rights = match observer {
        Color::White => [H1, A1, H8, A8],
        Color::Black => [H8, A8, H1, A1],
    };
    for (channel, rook) in rights.into_iter().enumerate() {
        if castling & rook != 0 {
            out[channel] = u64::MAX;
        }
    }
    if observer == Color::Black {
        out[4] = u64::MAX;
    }
    // The clock's square is numbered in the observer's own image, which PettingZoo flips
    // along with the board, so it is mirrored like a board square.
    let clock_square = (board.halfmove_clock() / 2).min(63);
    out[5] = image_word(view_bits(1 << clock_square, observer));
    out[6] = u64::MAX;
    let (past, count) = recent(game, 8);
    for (slot, entry) in past[..count].iter().enumerate() {
        let Some(entry) = entry else { continue };
        // The reset position was never stepped to: PettingZoo's history holds zeros there.
        if entry.index == 0 {
            continue;
        }
        write_slot(out, 7 + 13 * slot, entry, observer);
    }
}

/// The 13 words of one history slot.
fn write_slot(out: &mut [u64], base: usize, entry: &Past<'_>, observer: Color) {
    let board: &Board = entry.board;
    let mut pieces = [[0u64; 6]; 2];
    for color in Color::ALL {
        for role in Role::ALL {
            pieces[color.index()][role.index()] = board.pieces(color, role).0;
        }
    }
    // python-chess's truth test skips an en-passant square numbered 0 (no real one is).
    if let Some(ep) = board.ep_square().filter(|sq| sq.index() != 0) {
        let ep = ep.index();
        let file = ep % 8;
        if ep < 32 {
            let pawns = &mut pieces[Color::White.index()][Role::Pawn.index()];
            *pawns = (*pawns & !(1 << (ep + 8))) | 1 << file;
        } else {
            let pawns = &mut pieces[Color::Black.index()][Role::Pawn.index()];
            *pawns = (*pawns & !(1 << (ep - 8))) | 1 << (56 + file);
        }
    }
    for (side, color) in [observer, !observer].into_iter().enumerate() {
        for role in Role::ALL {
            let bits = view_bits(pieces[color.index()][role.index()], observer);
            out[base + side * 6 + role.index()] = image_word(bits);
        }
    }
    if entry.occurrences >= 2 {
        out[base + 12] = u64::MAX;
    }
}

/// PettingZoo's `observe(agent)["action_mask"]` for the player of `observer`: the legal-action
/// mask if it is that player's turn, all zeros otherwise.
///
/// # Panics
/// If `mask` is not `ACTIONS` long.
pub fn pettingzoo_action_mask(game: &Game, observer: Color, mask: &mut [u8]) {
    assert_eq!(mask.len(), ACTIONS, "an action mask has ACTIONS entries");
    mask.fill(0);
    if game.board().turn() == observer {
        // The game keeps its legal moves: no second generation.
        mark_moves(game.board(), game.legal_moves(), mask);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    fn at(obs: &[u8], row: usize, col: usize, channel: usize) -> u8 {
        obs[(row * 8 + col) * CHANNELS + channel]
    }

    #[test]
    fn reset_position_has_no_pieces_and_one_step_has_them() {
        let mut game = Game::default();
        let mut obs = vec![0u8; 64 * CHANNELS];
        pettingzoo_observation(&game, &mut obs);
        let ones =
            |obs: &[u8], c: usize| (0..64).map(|i| obs[i * CHANNELS + c] as u32).sum::<u32>();
        assert_eq!([0, 1, 2, 3, 6].map(|c| ones(&obs, c)), [64; 5]);
        assert_eq!(ones(&obs, 4), 0);
        assert_eq!(at(&obs, 7, 0, 5), 1); // clock 0: square a1, bottom-left.
        assert!((7..111).all(|c| ones(&obs, c) == 0));
        game.push_uci(UciMove::parse("e2e4").unwrap()).unwrap();
        pettingzoo_observation(&game, &mut obs);
        // Black observes: its own pieces first, its image flipped, so rank 1 is row 0.
        assert_eq!(ones(&obs, 4), 64);
        assert_eq!(at(&obs, 7, 4, 7 + 5), 1); // Black's king on e8 -> row 7.
        assert_eq!(at(&obs, 0, 4, 13 + 5), 1); // White's king on e1 -> row 0.
                                               // The e-pawn that just moved two squares shows on e1 (row 0), not on e4 (row 3).
        assert_eq!(at(&obs, 0, 4, 13), 1);
        assert_eq!(at(&obs, 3, 4, 13), 0);
        assert_eq!(ones(&obs, 13), 8);
        assert!((20..111).all(|c| ones(&obs, c) == 0));
    }
}
