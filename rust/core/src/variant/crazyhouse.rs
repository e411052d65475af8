//! Crazyhouse: a captured piece goes to the capturer's pocket (a promoted one as a pawn), and
//! instead of moving, a side may drop a piece from its pocket onto an empty square (pawns not
//! on the first or last rank) as long as its king is not left in check.

use crate::attacks;
use crate::board::{Board, MoveList};
use crate::compat::py_repr;
use crate::error::FenErrorKind;
use crate::types::{Bitboard, Color, Move, Role};

/// The pieces in hand, counted by role (python-chess's `CrazyhousePocket`), `[white, black]`.
pub type Pockets = [[u32; 6]; 2];

/// Splits python-chess's Crazyhouse FEN (`...RNBQKBNR[Qn] w ...` or a ninth rank
/// `...RNBQKBNR/Qn w ...`) into the FEN without pockets and the pockets.
pub(super) fn split_fen(fen: &str) -> Result<(String, Pockets), FenErrorKind> {
    let trimmed = fen.trim_start();
    let Some(split) = trimmed.find(char::is_whitespace) else {
        return Err(FenErrorKind::Placement(format!(
            "expected a position and its fields in zh fen: {}",
            py_repr(fen)
        )));
    };
    let (position, info) = trimmed.split_at(split);
    let mut position = position.to_string();
    if position.ends_with(']') {
        if position.matches('/').count() != 7 {
            return Err(FenErrorKind::Placement(format!(
                "expected 8 rows in position part of zh fen: {}",
                py_repr(fen)
            )));
        }
        position.pop();
        position = position.replacen('[', "/", 1);
    }
    let mut pocket_part = String::new();
    if position.matches('/').count() == 8 {
        if let Some((board, pocket)) = position.clone().rsplit_once('/') {
            pocket_part = pocket.to_string();
            position = board.to_string();
        }
    }
    let mut pockets = [[0; 6]; 2];
    for c in pocket_part.chars() {
        let role = Role::from_char(c.to_ascii_lowercase()).ok_or_else(|| {
            FenErrorKind::Placement(format!(
                "invalid piece in pocket: {}",
                py_repr(&c.to_string())
            ))
        })?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        pockets[color.index()][role.index()] += 1;
    }
    Ok((format!("{position}{info}"), pockets))
}

/// The pockets as a FEN writes them: `[QRBNPqrbnp]`, strongest first, White's first.
pub(super) fn pockets_fen(pockets: &Pockets) -> String {
    let mut text = String::from("[");
    for color in [Color::White, Color::Black] {
        for role in Role::ALL.into_iter().rev() {
            let letter = if color == Color::White {
                role.upper_char()
            } else {
                role.char()
            };
            for _ in 0..pockets[color.index()][role.index()] {
                text.push(letter);
            }
        }
    }
    text.push(']');
    text
}

/// The squares the side to move may drop on (python-chess's `legal_drop_squares_mask`): any
/// empty square, the squares between the king and a single checker, none in double check.
pub fn legal_drop_squares(board: &Board) -> Bitboard {
    let empty = !board.occupied();
    let Some(king) = board.king(board.turn()) else {
        return empty;
    };
    let checkers = board.attackers(king, !board.turn());
    match checkers.last() {
        None => empty,
        Some(checker) if !checkers.more_than_one() => attacks::between(king, checker) & empty,
        Some(_) => Bitboard::EMPTY,
    }
}

/// Appends the legal drops of the side to move.
pub(super) fn add_drops(board: &Board, pockets: &Pockets, list: &mut MoveList) {
    let squares = legal_drop_squares(board);
    if squares.is_empty() {
        return;
    }
    let pocket = pockets[board.turn().index()];
    for role in Role::ALL {
        if pocket[role.index()] == 0 {
            continue;
        }
        let targets = if role == Role::Pawn {
            squares & !Bitboard::BACKRANKS
        } else {
            squares
        };
        for to in targets {
            list.push(Move::drop(role, to));
        }
    }
}

/// What `m` puts into the mover's pocket, if it captures: the captured role, or a pawn for
/// a promoted piece.
pub(super) fn captured_for_pocket(board: &Board, m: Move) -> Option<Role> {
    if m.is_en_passant() {
        return Some(Role::Pawn);
    }
    if m.is_castle() || m.is_drop() || !board.by_color(!board.turn()).contains(m.to) {
        return None;
    }
    if board.promoted().contains(m.to) {
        return Some(Role::Pawn);
    }
    board.role_at(m.to)
}

/// python-chess's `CrazyhouseBoard.has_insufficient_material` (the same for both sides): at
/// most three pieces on the board and in hand together, none promoted, and no pawn, rook or
/// queen anywhere.
pub(super) fn has_insufficient_material(board: &Board, pockets: &Pockets) -> bool {
    let in_hand: u32 = pockets.iter().flatten().sum();
    let heavy =
        |role: Role| board.by_role(role).nonempty() || pockets.iter().any(|p| p[role.index()] > 0);
    board.occupied().count() + in_hand <= 3
        && board.promoted().is_empty()
        && !heavy(Role::Pawn)
        && !heavy(Role::Rook)
        && !heavy(Role::Queen)
}

#[cfg(test)]
mod tests {
    use crate::variant::{Variant, VariantBoard};
    use crate::Color;

    fn board(fen: &str) -> VariantBoard {
        VariantBoard::from_fen(fen, Variant::Crazyhouse, false).unwrap()
    }

    /// FENs, SANs and answers of python-chess 1.11.2's CrazyhouseBoard.
    #[test]
    fn pockets_and_drops_like_python_chess() {
        // A ninth rank for the pockets reads too; pockets are written strongest first.
        let b = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/nQpPB w KQkq - 0 1");
        assert_eq!(
            b.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QBPnp] w KQkq - 0 1"
        );
        assert_eq!(b.pockets()[Color::White.index()], [1, 0, 1, 0, 1, 0]);
        // Promoted pieces keep their mark.
        let fen = "r~1bqkbnr/8/8/8/8/8/8/4K3[Qpp] b - - 0 1";
        assert_eq!(board(fen).fen(), fen);
        let err = VariantBoard::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP[Q] w - - 0 1",
            Variant::Crazyhouse,
            false,
        )
        .unwrap_err();
        assert!(err.to_string().contains("expected 8 rows"), "{err}");

        let b = board("4k3/8/8/8/8/8/8/4K3[Nb] w - - 0 1");
        assert_eq!(b.legal_moves().len(), 67);
        let m = b.parse_san("N@f6").unwrap().unwrap();
        assert_eq!(b.san(m), "N@f6+");
        assert_eq!(b.uci(m).to_string(), "N@f6");
        assert!(!b.is_insufficient_material());
        let after = b.after(m);
        assert_eq!(after.pockets()[Color::White.index()], [0; 6]);
        assert_eq!(after.fen(), "4k3/8/5N2/8/8/8/8/4K3[b] b - - 1 1");

        // A pawn drop is written without its letter; pawns never land on a back rank.
        let b = board("4k3/8/8/8/8/8/8/4K3[Pb] w - - 0 1");
        let m = b.parse_san("@e3").unwrap().unwrap();
        assert_eq!(b.uci(m).to_string(), "P@e3");
        assert_eq!(b.san(m), "@e3");
        assert!(b.parse_san("P@e8").is_err());
        assert!(b.parse_san("K@e4").is_err());
    }

    #[test]
    fn a_promoted_piece_taken_is_a_pawn_in_hand() {
        let b = board("4k3/3Q~4/8/8/8/8/8/4K3[n] b - - 0 1");
        let m = b.parse_san("Kxd7").unwrap().unwrap();
        let after = b.after(m);
        assert_eq!(after.pockets()[Color::Black.index()], [1, 1, 0, 0, 0, 0]);
        assert_eq!(after.fen(), "8/3k4/8/8/8/8/8/4K3[np] w - - 0 2");
    }
}
