//! The variant evaluation: a variant-aware static score of a [`VariantBoard`] that is not
//! over, in centipawns from the side to move's point of view.
//!
//! King of the Hill, Three-check and Crazyhouse keep both kings and chess's material, so
//! they start from the standard evaluation ([`crate::eval::evaluate`]) and add their own
//! terms: the kings' distance to the centre, the checks given and the king's exposure to
//! them, the pieces in hand and the holes around a king they may be dropped into. The other
//! variants break what the standard evaluation assumes (a king each, chess's material) and
//! have a small evaluation of their own: material with the variant's values, mobility and
//! centralisation, plus Racing Kings' race, Horde's advancing pawns, Atomic's king
//! neighbours and Antichess's inverted material. Values are in [`crate::params`].

use crate::params::*;
use pychess_core::attacks;
use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{Bitboard, Board, Color, Role, Square};

const CENTRE: [Square; 4] = [
    Square::from_coords(3, 3),
    Square::from_coords(4, 3),
    Square::from_coords(3, 4),
    Square::from_coords(4, 4),
];

/// King steps from `sq` to the nearest centre square (0 on d4, e4, d5, e5).
fn centre_distance(sq: Square) -> i32 {
    CENTRE
        .iter()
        .map(|&c| i32::from(sq.distance(c)))
        .min()
        .unwrap_or(0)
}

/// `values`-weighted material of `color`.
fn material(board: &Board, color: Color, values: &[i32; 6]) -> i32 {
    Role::ALL
        .iter()
        .map(|&role| values[role.index()] * board.pieces(color, role).count() as i32)
        .sum()
}

/// Target squares of `color`'s knights, bishops, rooks and queens not held by its own
/// pieces, plus how central its minor pieces stand.
fn activity(board: &Board, color: Color) -> i32 {
    let occupied = board.occupied();
    let own = board.by_color(color);
    let mut score = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in board.pieces(color, role) {
            let targets = attacks::attacks(role, color, sq, occupied) & !own;
            score += VARIANT_MOBILITY * targets.count() as i32;
            if matches!(role, Role::Knight | Role::Bishop) {
                score -= VARIANT_CENTRE * centre_distance(sq);
            }
        }
    }
    score
}

/// Squares `color` attacks with anything (king included).
fn attacked_by(board: &Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    let mut all = Bitboard(0);
    for sq in board.by_color(color) {
        if let Some(role) = board.role_at(sq) {
            all |= attacks::attacks(role, color, sq, occupied);
        }
    }
    all
}

/// Enemy attacks (counted per attacker) on the squares around `king`.
fn attacks_near(board: &Board, king: Square, enemy: Color) -> i32 {
    attacks::king(king)
        .into_iter()
        .map(|sq| board.attackers(sq, enemy).count() as i32)
        .sum()
}

/// The standard evaluation turned to White's point of view.
fn standard_white(board: &Board) -> i32 {
    let score = crate::eval::evaluate(board);
    if board.turn() == Color::White {
        score
    } else {
        -score
    }
}

/// White's view of a chess-like position: `values` material, activity.
fn plain_white(board: &Board, values: &[i32; 6]) -> i32 {
    material(board, Color::White, values) - material(board, Color::Black, values)
        + activity(board, Color::White)
        - activity(board, Color::Black)
}

fn sign(color: Color) -> i32 {
    if color == Color::White {
        1
    } else {
        -1
    }
}

fn king_of_the_hill(board: &Board) -> i32 {
    let term = |d: i32| (6 - d).max(0).pow(2) * KOTH_STEP / 4;
    Color::ALL
        .into_iter()
        .filter_map(|c| board.king(c).map(|k| sign(c) * term(centre_distance(k))))
        .sum()
}

fn three_check(position: &VariantBoard) -> i32 {
    let board = position.board();
    let remaining = position.remaining_checks();
    let mut score = 0;
    for color in Color::ALL {
        let given = (3 - remaining[color.index()]).clamp(0, 2) as usize;
        score += sign(color) * THREE_CHECK_GIVEN[given];
        // Our king's exposure, worse the more checks the enemy has already given.
        let enemy_given = (3 - remaining[(!color).index()]).clamp(0, 2) as i32;
        if let Some(king) = board.king(color) {
            score -= sign(color)
                * attacks_near(board, king, !color)
                * THREE_CHECK_KING_ATTACK
                * (1 + enemy_given)
                / 2;
        }
    }
    score
}

fn crazyhouse(position: &VariantBoard) -> i32 {
    let board = position.board();
    let pockets = position.pockets();
    let mut score = 0;
    for color in Color::ALL {
        let in_hand: i32 = (0..6)
            .map(|i| POCKET_VALUES[i] * pockets[color.index()][i] as i32)
            .sum();
        score += sign(color) * in_hand;
        let Some(king) = board.king(color) else {
            continue;
        };
        let enemy_hand: u32 = pockets[(!color).index()].iter().sum();
        let defended = attacked_by(board, color) & !attacks::king(king);
        let holes = (attacks::king(king) & !board.occupied() & !defended).count() as i32;
        let danger = attacks_near(board, king, !color) * ZH_KING_ATTACK
            + holes * ZH_KING_HOLE * enemy_hand.min(4) as i32 / 2;
        score -= sign(color) * danger;
    }
    score
}

fn racing_kings(board: &Board) -> i32 {
    let mut score = plain_white(board, &VARIANT_VALUES);
    for color in Color::ALL {
        let Some(king) = board.king(color) else {
            continue;
        };
        let rank = i32::from(king.rank());
        // The squares ahead the enemy covers slow the king down.
        let ahead = if rank < 7 {
            attacks::king(king) & Bitboard::rank(king.rank() + 1)
        } else {
            Bitboard(0)
        };
        let blocked = ahead
            .into_iter()
            .filter(|&sq| board.attackers(sq, !color).nonempty())
            .count() as i32;
        score += sign(color) * (RACE_RANK * rank + rank * rank * 8 - RACE_BLOCKED * blocked);
    }
    score
}

fn horde(board: &Board) -> i32 {
    let mut score = plain_white(board, &VARIANT_VALUES);
    for sq in board.pieces(Color::White, Role::Pawn) {
        score += HORDE_PAWN_RANK * i32::from(sq.rank());
    }
    score
}

fn atomic(board: &Board) -> i32 {
    let mut score = plain_white(board, &ATOMIC_VALUES);
    let kings_touch = match (board.king(Color::White), board.king(Color::Black)) {
        (Some(w), Some(b)) => w.distance(b) == 1,
        _ => false,
    };
    for color in Color::ALL {
        let Some(king) = board.king(color) else {
            continue;
        };
        if kings_touch {
            score += sign(color) * ATOMIC_KINGS_TOUCH;
            continue;
        }
        // A capture on any of these squares explodes the king (kings cannot capture).
        let attackers = board.by_color(!color) & !board.by_role(Role::King);
        let exposed = (attacks::king(king) & board.by_color(color))
            .into_iter()
            .filter(|&sq| (board.attackers(sq, !color) & attackers).nonempty())
            .count() as i32;
        score -= sign(color) * exposed * ATOMIC_KING_NEIGHBOUR_ATTACKED;
    }
    score
}

/// Antichess, from the side to move's point of view: material counts against its owner,
/// and mobility (choice among moves) for the side to move.
fn antichess(board: &Board) -> i32 {
    let us = board.turn();
    let mut score =
        material(board, !us, &ANTICHESS_VALUES) - material(board, us, &ANTICHESS_VALUES);
    let occupied = board.occupied();
    for color in Color::ALL {
        let mut targets = 0;
        for sq in board.by_color(color) & !board.by_role(Role::Pawn) {
            if let Some(role) = board.role_at(sq) {
                targets += (attacks::attacks(role, color, sq, occupied) & !occupied).count();
            }
        }
        let term = ANTICHESS_MOBILITY * targets.min(20) as i32 / 2;
        score += if color == us { term } else { -term };
    }
    score
}

/// The static value of `position` (a position the variant's rules have not ended), from
/// the side to move's point of view, kept below mate scores.
pub fn evaluate(position: &VariantBoard) -> i32 {
    let board = position.board();
    if position.variant().is_antichess() {
        return antichess(board).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
    }
    let white = match position.variant() {
        Variant::KingOfTheHill => standard_white(board) + king_of_the_hill(board),
        Variant::ThreeCheck => standard_white(board) + three_check(position),
        Variant::Crazyhouse => standard_white(board) + crazyhouse(position),
        Variant::RacingKings => racing_kings(board),
        Variant::Horde => horde(board),
        Variant::Atomic => atomic(board),
        Variant::Antichess | Variant::Giveaway | Variant::Suicide => 0,
    };
    let score = if board.turn() == Color::White {
        white
    } else {
        -white
    };
    score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
}
