//! The Antichess family's moves (Antichess, Giveaway, Suicide): the king is an ordinary piece
//! (it may be taken, may castle through attacked squares, and a pawn may promote to one), and
//! a side that can capture must.

use crate::board::{Board, MoveList};
use crate::types::{Bitboard, Color, Move, MoveKind, Role};

/// The pseudo-legal moves with the king as an ordinary piece: the standard generator's (en
/// passant included), castling without safe squares, and promotions to a king too.
fn pseudo_legal(board: &Board, list: &mut MoveList) {
    board.any_pseudo_legal(Bitboard::FULL, Bitboard::FULL, list);
    // Castling and promotions are rare: the list is rebuilt only when one is there.
    if list
        .iter()
        .any(|m| m.is_castle() || m.promotion() == Some(Role::Queen))
    {
        let generated = std::mem::take(list);
        for &m in generated.iter() {
            if m.is_castle() {
                continue;
            }
            if m.promotion() == Some(Role::Queen) {
                list.push(Move::new(m.from, m.to, MoveKind::Promotion(Role::King)));
            }
            list.push(m);
        }
    }
    if board.by_role(Role::King).nonempty() {
        board.castling_guarded(Bitboard::FULL, Bitboard::FULL, list, false);
    }
}

/// The legal moves: the captures if there are any, else every other move.
pub(super) fn legal_moves(board: &Board) -> MoveList {
    // One pass over the pieces, then the captures kept if there are any: most positions
    // have none, and generating captures and quiet moves apart walked the pieces twice.
    let theirs = board.by_color(!board.turn());
    let is_capture = |m: &Move| theirs.contains(m.to) || m.is_en_passant();
    let mut list = MoveList::new();
    pseudo_legal(board, &mut list);
    if list.iter().any(is_capture) {
        list.retain(is_capture);
    }
    list
}

/// python-chess's `SuicideBoard.has_insufficient_material`: `color` cannot lose all its
/// pieces when only bishops stand on the board that can never meet the opponent's (all of
/// ours on one square colour, all of theirs on the other), or in some knight endings.
pub(super) fn has_insufficient_material(board: &Board, color: Color) -> bool {
    let ours = board.by_color(color);
    let theirs = board.by_color(!color);
    if ours.is_empty() {
        return false;
    }
    if theirs.is_empty() {
        return true;
    }
    let occupied = board.occupied();
    if occupied == board.by_role(Role::Bishop) {
        let light = Bitboard::LIGHT_SQUARES;
        let dark = Bitboard::DARK_SQUARES;
        let we_on_light = (ours & light).nonempty();
        let we_on_dark = (ours & dark).nonempty();
        let they_all_dark = (theirs & light).is_empty();
        let they_all_light = (theirs & dark).is_empty();
        return (we_on_light && they_all_dark) || (we_on_dark && they_all_light);
    }
    if occupied == board.by_role(Role::Knight) && occupied.count() == 2 {
        let white_on_light = (board.by_color(Color::White) & Bitboard::LIGHT_SQUARES).nonempty();
        let black_on_dark = (board.by_color(Color::Black) & Bitboard::DARK_SQUARES).nonempty();
        return (board.turn() == color) ^ white_on_light ^ black_on_dark;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::variant::{Variant, VariantBoard};

    fn ucis(fen: &str, variant: Variant) -> Vec<String> {
        let b = VariantBoard::from_fen(fen, variant, false).unwrap();
        let mut moves: Vec<String> = b
            .legal_moves()
            .iter()
            .map(|m| b.board().uci(*m).to_string())
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn captures_are_compulsory_and_kings_are_ordinary() {
        // The king may be taken, and taking is the only choice.
        assert_eq!(
            ucis("8/8/8/8/8/8/3k4/3QK3 b - - 0 1", Variant::Antichess),
            ["d2d1", "d2e1"]
        );
        // A pawn promotes to a king as well.
        assert_eq!(
            ucis("8/P7/8/8/8/8/8/7k w - - 0 1", Variant::Antichess),
            ["a7a8b", "a7a8k", "a7a8n", "a7a8q", "a7a8r"]
        );
        // Castling through an attacked square (Giveaway keeps castling rights).
        let moves = ucis("2r1k3/8/8/8/8/8/7p/R3K3 w Q - 0 1", Variant::Giveaway);
        assert!(moves.contains(&"e1c1".to_string()), "{moves:?}");
    }

    #[test]
    fn insufficient_material_like_python_chess() {
        for (fen, white, black) in [
            // Answers of python-chess 1.11.2's AntichessBoard.
            ("8/8/8/8/8/8/8/1B5b w - - 0 1", false, false),
            ("8/8/8/8/8/8/8/B6b w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/6Nn w - - 0 1", true, false),
            ("8/8/8/8/8/8/8/5Nn1 b - - 0 1", false, true),
            ("8/8/8/8/8/8/8/7K w - - 0 1", true, false),
        ] {
            let b = VariantBoard::from_fen(fen, Variant::Antichess, false).unwrap();
            assert_eq!(
                b.has_insufficient_material(crate::Color::White),
                white,
                "{fen}"
            );
            assert_eq!(
                b.has_insufficient_material(crate::Color::Black),
                black,
                "{fen}"
            );
        }
    }
}
