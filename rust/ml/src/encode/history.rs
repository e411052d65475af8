//! The last positions of a game with how often each had occurred, for the encodings that
//! stack history planes.
//!
//! Occurrences are the game's own (`pychess_core::Game::recent_occurrences`), counted as
//! python-chess's `is_repetition` counts them: same placement, side to move, clean castling
//! rights and legal en-passant square, looking back only to the last irreversible move.

use pychess_core::{Board, Game};

/// The most history any encoding stacks.
pub(crate) const MAX_DEPTH: usize = 8;

/// One position of the game's past.
#[derive(Clone, Copy)]
pub(crate) struct Past<'a> {
    /// The position.
    pub board: &'a Board,
    /// Its index in the game: 0 for the root, `n` after `n` moves.
    pub index: usize,
    /// How often it has occurred up to then, itself included (1 = first time).
    pub occurrences: u32,
}

/// The current position and up to `depth - 1` before it, newest first (fewer when the game
/// is shorter); `depth` is at most [`MAX_DEPTH`].
pub(crate) fn recent(game: &Game, depth: usize) -> ([Option<Past<'_>>; MAX_DEPTH], usize) {
    let depth = depth.min(MAX_DEPTH);
    let mut counts = [0u32; MAX_DEPTH];
    let count = game.recent_occurrences(&mut counts[..depth]);
    let newest = game.moves().len();
    let mut out = [None; MAX_DEPTH];
    for (k, (slot, &occurrences)) in out.iter_mut().zip(&counts[..count]).enumerate() {
        let index = newest - k;
        *slot = Some(Past {
            board: game.board_before(index).unwrap_or(game.board()),
            index,
            occurrences,
        });
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::UciMove;

    #[test]
    fn counts_agree_with_the_game() {
        let mut game = Game::default();
        let moves = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 \
                     e1e2 e8e7 e2e1 e7e8 e1e2";
        for text in moves.split_whitespace() {
            game.push_uci(UciMove::parse(text).unwrap()).unwrap();
            let (past, count) = recent(&game, 8);
            assert_eq!(count, game.moves().len().min(7) + 1);
            let now = past[0].unwrap();
            assert_eq!(now.index, game.moves().len());
            for n in 1..=4 {
                assert_eq!(now.occurrences >= n, game.is_repetition(n), "after {text}");
            }
        }
        // The older entries are the earlier positions, with their counts of then.
        let (past, _) = recent(&game, 8);
        for (k, entry) in past.iter().enumerate() {
            let entry = entry.unwrap();
            let mut replay = game.clone();
            for _ in 0..k {
                replay.pop();
            }
            assert!(std::ptr::eq(
                entry.board,
                game.board_before(entry.index).unwrap_or(game.board())
            ));
            assert!(entry.board.same_position(replay.board()));
            for n in 1..=3 {
                assert_eq!(entry.occurrences >= n, replay.is_repetition(n));
            }
        }
    }
}
