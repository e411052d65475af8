//! The last positions of a game with how often each had occurred, for the encodings that
//! stack history planes.
//!
//! Occurrences are counted as python-chess's `is_repetition` counts them (and as
//! `pychess_core::Game` does for the current position): same placement, side to move, clean
//! castling rights and legal en-passant square, looking back only to the last irreversible
//! move (a capture or pawn move, a loss of castling rights, or a move out of a legal
//! en-passant chance).

use pychess_core::{Board, Color, Game, Role};

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

/// The position after `index` moves.
fn position(game: &Game, index: usize) -> &Board {
    game.board_before(index).unwrap_or(game.board())
}

/// Did the move leading to position `index` (>= 1) start a new reversible segment?
fn irreversible(game: &Game, index: usize) -> bool {
    let before = position(game, index - 1);
    let after = position(game, index);
    // A null move leaves the placement as it was; every other move changes it.
    let null = before.by_color(Color::White) == after.by_color(Color::White)
        && before.by_color(Color::Black) == after.by_color(Color::Black)
        && Role::ALL
            .iter()
            .all(|&r| before.by_role(r) == after.by_role(r));
    (!null && after.halfmove_clock() == 0)
        || after.castling_rights() != before.clean_castling_rights()
        || before.legal_ep_square().is_some()
}

/// The current position and up to `depth - 1` before it, newest first (fewer when the game
/// is shorter); `depth` is at most [`MAX_DEPTH`].
pub(crate) fn recent(game: &Game, depth: usize) -> ([Option<Past<'_>>; MAX_DEPTH], usize) {
    let depth = depth.min(MAX_DEPTH);
    let newest = game.moves().len();
    let oldest = newest.saturating_sub(depth.saturating_sub(1));
    // Positions from the start of the oldest one's segment up to the newest, oldest first.
    let mut start = oldest;
    while start > 0 && !irreversible(game, start) {
        start -= 1;
    }
    let span = newest + 1 - start;
    // Piece keys first: only positions with equal placement and turn need a full key.
    let mut piece_keys = Vec::with_capacity(span);
    let mut segment_of = Vec::with_capacity(span);
    let mut segment = start;
    for index in start..=newest {
        if index > start && irreversible(game, index) {
            segment = index;
        }
        piece_keys.push(position(game, index).piece_key());
        segment_of.push(segment);
    }
    let mut out = [None; MAX_DEPTH];
    let mut count = 0;
    for index in (oldest..=newest).rev() {
        let at = index - start;
        let board = position(game, index);
        let mut occurrences = 1;
        let mut full_key = None;
        for earlier in segment_of[at] - start..at {
            if piece_keys[earlier] == piece_keys[at] {
                let key = *full_key.get_or_insert_with(|| board.repetition_key());
                if position(game, earlier + start).repetition_key() == key {
                    occurrences += 1;
                }
            }
        }
        out[count] = Some(Past {
            board,
            index,
            occurrences,
        });
        count += 1;
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
