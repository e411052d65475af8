//! Atomic chess: a capture explodes the capturing piece, the captured one and every piece
//! but pawns on the squares around; blowing up the enemy king wins, and kings that touch
//! cannot give each other check (python-chess's `AtomicBoard`).

use crate::attacks;
use crate::board::{Board, MoveList};
use crate::types::{Bitboard, Color, Move, Role};

/// Plays the pseudo-legal move `m` with its explosion, if it captures.
pub(super) fn play(board: &mut Board, m: Move) {
    let us = board.turn();
    let capture = m.is_en_passant() || (!m.is_castle() && board.by_color(!us).contains(m.to));
    board.play_pseudo_legal(m);
    if !capture {
        return;
    }
    let radius = attacks::king(m.to) & !board.by_role(Role::Pawn);
    let mut lost_rights = radius;
    let kings = board.by_role(Role::King) & !board.promoted() & radius;
    for (color, rank) in [(Color::White, 0), (Color::Black, 7)] {
        if (kings & board.by_color(color)).nonempty() {
            lost_rights |= Bitboard::rank(rank);
        }
    }
    board.explode(radius.with(m.to), lost_rights);
}

/// Does a white king stand next to a black one (then neither is in check)?
pub(super) fn kings_connected(board: &Board) -> bool {
    let black_kings = board.pieces(Color::Black, Role::King);
    board
        .pieces(Color::White, Role::King)
        .into_iter()
        .any(|sq| (attacks::king(sq) & black_kings).nonempty())
}

/// python-chess's `AtomicBoard.is_legal` for a pseudo-legal move: a king must remain, the
/// mover's must not explode, and unless the enemy king exploded the mover's king must not be
/// left in check.
fn is_legal(board: &Board, m: Move) -> bool {
    let us = board.turn();
    let mut after = board.clone();
    play(&mut after, m);
    let kings = after.by_role(Role::King);
    if (kings & after.by_color(us)).is_empty() {
        return false;
    }
    if (kings & after.by_color(!us)).is_empty() {
        return true;
    }
    !was_into_check(&after, us)
}

/// python-chess's `AtomicBoard.was_into_check` after `mover` played: its king (if it still
/// has one) attacked, and the kings not touching.
pub(super) fn was_into_check(after: &Board, mover: Color) -> bool {
    if kings_connected(after) {
        return false;
    }
    after
        .king(mover)
        .is_some_and(|king| after.attackers(king, !mover).nonempty())
}

/// Castling may cross or land on attacked squares next to the enemy king, which cannot take
/// there without exploding itself.
fn castling_is_safe(board: &Board, m: Move) -> bool {
    let them = !board.turn();
    let near_enemy_king = board
        .pieces(them, Role::King)
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::king(sq));
    let safe = |path: Bitboard, occupied: Bitboard| {
        (path & !near_enemy_king)
            .into_iter()
            .all(|sq| board.attackers_with(sq, them, occupied).is_empty())
    };
    let (king, rook) = (Bitboard::from_square(m.from), Bitboard::from_square(m.to));
    let king_to = m.castle_king_target();
    let rook_to = Bitboard::from_square(m.castle_rook_target());
    let occupied = board.occupied();
    safe(
        attacks::between(m.from, king_to).with(m.from),
        occupied ^ king,
    ) && safe(
        Bitboard::from_square(king_to),
        occupied ^ king ^ rook ^ rook_to,
    )
}

/// The legal moves (the caller has checked that both sides still have a king).
pub(super) fn legal_moves(board: &Board) -> MoveList {
    let mut list = MoveList::new();
    for &m in board
        .pseudo_legal_moves_masked(Bitboard::FULL, Bitboard::FULL)
        .iter()
    {
        if !m.is_castle() && is_legal(board, m) {
            list.push(m);
        }
    }
    let mut castles = MoveList::new();
    board.castling_guarded(Bitboard::FULL, Bitboard::FULL, &mut castles, false);
    for &m in castles.iter() {
        if castling_is_safe(board, m) && is_legal(board, m) {
            list.push(m);
        }
    }
    list
}

/// python-chess's `AtomicBoard.has_insufficient_material`.
pub(super) fn has_insufficient_material(board: &Board, color: Color) -> bool {
    let kings = board.by_role(Role::King);
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    if (theirs & kings).is_empty() {
        // Their king is gone already: nothing left to win.
        return false;
    }
    if (ours & !kings).is_empty() {
        return true;
    }
    if (theirs & !kings).nonempty() {
        // Their own pieces may explode next to their king, unless only bishops that can
        // never meet remain.
        let bishops = board.by_role(Role::Bishop);
        if board.occupied() == bishops | kings {
            let white = bishops & board.by_color(Color::White);
            let black = bishops & board.by_color(Color::Black);
            if (white & Bitboard::DARK_SQUARES).is_empty() {
                return (black & Bitboard::LIGHT_SQUARES).is_empty();
            }
            if (white & Bitboard::LIGHT_SQUARES).is_empty() {
                return (black & Bitboard::DARK_SQUARES).is_empty();
            }
        }
        return false;
    }
    if (board.by_role(Role::Queen) | board.by_role(Role::Pawn)).nonempty() {
        return false;
    }
    let minors_and_rooks =
        board.by_role(Role::Knight) | board.by_role(Role::Bishop) | board.by_role(Role::Rook);
    if minors_and_rooks.count() == 1 {
        return true;
    }
    if board.occupied() == board.by_role(Role::Knight) | kings {
        return board.by_role(Role::Knight).count() <= 2;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::variant::{Variant, VariantBoard};
    use crate::{Color, UciMove};

    fn board(fen: &str) -> VariantBoard {
        VariantBoard::from_fen(fen, Variant::Atomic, false).unwrap()
    }

    #[test]
    fn captures_explode() {
        // Nxd5 blows up the knight and the pawn on d5, and the queen on e6 next to it; the
        // pawn on c6 stays.
        let b = board("4k3/8/2p1q3/3p4/8/4N3/8/4K3 w - - 0 1");
        let m = b.find_legal(UciMove::parse("e3d5").unwrap()).unwrap();
        let after = b.after(m);
        assert_eq!(after.board().board_fen(), "4k3/8/2p5/8/8/8/8/4K3");
        // Taking next to the enemy king wins.
        let b = board("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1");
        let m = b.find_legal(UciMove::parse("d1d8").unwrap()).unwrap();
        assert_eq!(b.san(m), "Rxd8#");
        let outcome = b.after(m).outcome().unwrap();
        assert_eq!(outcome.winner, Some(Color::White));
        // A capture next to one's own king is illegal.
        let b = board("8/8/8/8/8/8/3q4/3K3k w - - 0 1");
        assert!(b.find_legal(UciMove::parse("d1d2").unwrap()).is_none());
    }

    #[test]
    fn connected_kings_are_never_in_check() {
        // The rook on d1 attacks the king on d4, which touches White's.
        let b = board("8/8/8/8/3kK3/8/8/3R4 b - - 0 1");
        assert!(!b.is_check());
        let b = board("8/8/8/8/3k4/8/8/3RK3 b - - 0 1");
        assert!(b.is_check());
    }

    /// Answers of python-chess 1.11.2's AtomicBoard, (White, Black).
    #[test]
    fn insufficient_material_like_python_chess() {
        for (fen, white, black) in [
            ("8/8/8/8/8/8/8/4K2k w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/4KQ1k w - - 0 1", false, true),
            ("8/8/8/8/8/8/8/4KB1k w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/3NKN1k w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/3BKB1k w - - 0 1", false, true),
            ("8/8/8/8/8/8/6b1/3BK2k w - - 0 1", false, false),
            ("8/8/8/8/8/8/7b/3BK2k w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/4K1nk w - - 0 1", true, true),
        ] {
            let b = board(fen);
            assert_eq!(b.has_insufficient_material(Color::White), white, "{fen}");
            assert_eq!(b.has_insufficient_material(Color::Black), black, "{fen}");
        }
    }
}
