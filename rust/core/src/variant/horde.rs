//! Horde's one rule of its own: when White (the horde, without a king) can no longer mate.
//! The moves are chess's (the board's general rules already serve a side without a king and
//! pawns that step twice from the first rank); the game ends when a side has no pieces.

use crate::board::Board;
use crate::types::{Bitboard, Color, Role};

/// The material counts the rule looks at.
#[derive(Clone, Copy)]
struct Material {
    pawns: u32,
    knights: u32,
    bishops: u32,
    rooks: u32,
    queens: u32,
    dark_bishops: u32,
    light_bishops: u32,
}

impl Material {
    fn of(board: &Board, color: Color) -> Material {
        let ours = board.by_color(color);
        let count = |role| (ours & board.by_role(role)).count();
        let bishops = ours & board.by_role(Role::Bishop);
        Material {
            pawns: count(Role::Pawn),
            knights: count(Role::Knight),
            bishops: count(Role::Bishop),
            rooks: count(Role::Rook),
            queens: count(Role::Queen),
            dark_bishops: (bishops & Bitboard::DARK_SQUARES).count(),
            light_bishops: (bishops & Bitboard::LIGHT_SQUARES).count(),
        }
    }
}

/// Can `color` not possibly win (python-chess's `HordeBoard.has_insufficient_material`, whose
/// case analysis comes from github.com/stevepapazis/horde-insufficient-material-tests)? Black,
/// with the king, can always take the whole horde.
pub(super) fn has_insufficient_material(board: &Board, color: Color) -> bool {
    if color == Color::Black {
        return false;
    }
    let black = Material::of(board, Color::Black);
    let black_count = board.by_color(Color::Black).count();
    white_cannot_mate(Material::of(board, Color::White), black, black_count)
}

fn white_cannot_mate(white: Material, black: Material, black_count: u32) -> bool {
    // Two bishops of one square colour cover what more of them would.
    let horde_num = white.pawns
        + white.knights
        + white.rooks
        + white.queens
        + white.dark_bishops.min(2)
        + white.light_bishops.min(2);
    // The square colour of White's bishops (light if any is on a light square).
    let bishops_light = white.light_bishops >= 1;
    let black_opposite_bishops = if bishops_light {
        black.dark_bishops
    } else {
        black.light_bishops
    };
    let black_same_bishops = if bishops_light {
        black.light_bishops
    } else {
        black.dark_bishops
    };
    let white_bishop_pair = white.light_bishops >= 1 && white.dark_bishops >= 1;
    let black_bishop_pair = black.light_bishops >= 1 && black.dark_bishops >= 1;

    if horde_num == 0 {
        return true;
    }
    if horde_num >= 4 {
        return false;
    }
    if (white.pawns >= 1 || white.queens >= 1) && horde_num >= 2 {
        return false;
    }
    if white.rooks >= 1
        && horde_num >= 2
        && !(horde_num == 2
            && white.rooks == 1
            && white.bishops == 1
            && black_count - black_same_bishops == 1)
    {
        return false;
    }
    match horde_num {
        1 => {
            if black_count == 1 {
                true
            } else if white.queens == 1 {
                !(black.pawns >= 1
                    || black.rooks >= 1
                    || black.light_bishops >= 2
                    || black.dark_bishops >= 2)
            } else if white.pawns == 1 {
                // The pawn promotes: to a queen or a knight.
                let promoted = |queens, knights| Material {
                    pawns: 0,
                    queens,
                    knights,
                    ..white
                };
                white_cannot_mate(
                    promoted(white.queens + 1, white.knights),
                    black,
                    black_count,
                ) && white_cannot_mate(
                    promoted(white.queens, white.knights + 1),
                    black,
                    black_count,
                )
            } else if white.rooks == 1 {
                !(black.pawns >= 2
                    || (black.rooks >= 1 && black.pawns >= 1)
                    || (black.rooks >= 1 && black.knights >= 1)
                    || (black.pawns >= 1 && black.knights >= 1))
            } else if white.bishops == 1 {
                !(black_opposite_bishops >= 2
                    || (black_opposite_bishops >= 1 && black.pawns >= 1)
                    || black.pawns >= 2)
            } else if white.knights == 1 {
                !(black_count >= 4
                    && (black.knights >= 2
                        || black.pawns >= 2
                        || (black.rooks >= 1 && black.knights >= 1)
                        || (black.rooks >= 1 && black.bishops >= 1)
                        || (black.knights >= 1 && black.bishops >= 1)
                        || (black.rooks >= 1 && black.pawns >= 1)
                        || (black.knights >= 1 && black.pawns >= 1)
                        || (black.bishops >= 1 && black.pawns >= 1)
                        || (black_bishop_pair && black.pawns >= 1))
                    && (black.dark_bishops < 2 || black_count - black.dark_bishops >= 3)
                    && (black.light_bishops < 2 || black_count - black.light_bishops >= 3))
            } else {
                true
            }
        }
        2 => {
            if black_count == 1 {
                true
            } else if white.knights == 2 {
                black.pawns + black.bishops + black.knights == 0
            } else if white_bishop_pair {
                !(black.pawns >= 1
                    || black.bishops >= 1
                    || (black.knights >= 1 && black.rooks + black.queens >= 1))
            } else if white.bishops >= 1 && white.knights >= 1 {
                !(black.pawns >= 1
                    || black_opposite_bishops >= 1
                    || black_count - black_same_bishops >= 3)
            } else {
                // Two of (pawn, opposite bishop, knight) obstruct enough, any two.
                let obstructers =
                    black.pawns.min(2) + black_opposite_bishops.min(2) + black.knights.min(2);
                obstructers < 2
            }
        }
        3 => {
            if (white.knights == 2 && white.bishops == 1) || white.knights == 3 || white_bishop_pair
            {
                false
            } else {
                black_count == 1
            }
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::variant::{Variant, VariantBoard};
    use crate::Color;

    /// White's answers of python-chess 1.11.2's HordeBoard (Black's are always no), a
    /// position or two for each branch of the rule.
    #[test]
    fn insufficient_material_like_python_chess() {
        for (fen, expected) in [
            (
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
                false,
            ),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/Q7 w - - 0 1", true),
            ("4k3/p7/8/8/8/8/8/Q7 w - - 0 1", false),
            ("4k3/p7/8/8/8/8/8/P7 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/P7 w - - 0 1", true),
            ("4k3/pp6/8/8/8/8/8/R7 w - - 0 1", false),
            ("4k3/p7/8/8/8/8/8/R7 w - - 0 1", true),
            ("4k3/pp6/8/8/8/8/8/B7 w - - 0 1", false),
            ("4k3/pb6/8/8/8/8/8/1B6 w - - 0 1", true),
            ("4k3/ppnr4/8/8/8/8/8/N7 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/RB6 w - - 0 1", true),
            ("4k3/8/8/8/8/8/8/R1B5 w - - 0 1", true),
            ("4k3/p7/8/8/8/8/8/NN6 w - - 0 1", false),
            ("4k3/r7/8/8/8/8/8/NN6 w - - 0 1", true),
            ("4k3/n7/8/8/8/8/8/BB6 w - - 0 1", true),
            ("4k3/nr6/8/8/8/8/8/BB6 w - - 0 1", false),
            ("4k3/b7/8/8/8/8/8/BN6 w - - 0 1", true),
            ("4k3/1b6/8/8/8/8/8/BN6 w - - 0 1", false),
            ("4k3/pn6/8/8/8/8/8/B1B5 w - - 0 1", false),
            ("4k3/r7/8/8/8/8/8/B1B5 w - - 0 1", true),
            ("4k3/r7/8/8/8/8/8/NNB5 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/B1B1N3 w - - 0 1", true),
            ("4k3/r7/8/8/8/8/8/B1B1N3 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/PP6 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/NNNN4 w - - 0 1", false),
            ("4k3/8/8/8/8/8/8/B1B1B1B1 w - - 0 1", true),
        ] {
            let b = VariantBoard::from_fen(fen, Variant::Horde, false).unwrap();
            assert_eq!(b.has_insufficient_material(Color::White), expected, "{fen}");
            assert!(!b.has_insufficient_material(Color::Black));
        }
    }
}
