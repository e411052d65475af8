//! Feature extraction: walks the board once and reports every term as
//! `(weight index, colour, count)` to an [`Accumulator`], which adds the weighted value and
//! hands the count to a [`Tracer`]. The fast path's tracer does nothing and is inlined away;
//! the tuner's tracer records the counts.

use pychess_core::{attacks, Bitboard, Board, Color, Role, Square};

use super::layout::*;
use super::{Weights, PHASE_MAX, SCALE_MAX};

/// Receives each term's count (White's count minus Black's) as the evaluation finds it.
pub(crate) trait Tracer {
    /// `count` more of weight `feature`, positive for White.
    fn add(&mut self, feature: usize, count: i32);
}

/// The fast path: records nothing.
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _feature: usize, _count: i32) {}
}

/// Sums the weighted terms (White minus Black) and forwards each count to the tracer.
pub(crate) struct Accumulator<'w, 't, T: Tracer> {
    weights: &'w Weights,
    /// Middlegame sum, White's point of view.
    pub mg: i32,
    /// Endgame sum, White's point of view.
    pub eg: i32,
    tracer: &'t mut T,
}

impl<'w, 't, T: Tracer> Accumulator<'w, 't, T> {
    pub(crate) fn new(weights: &'w Weights, tracer: &'t mut T) -> Self {
        Accumulator {
            weights,
            mg: 0,
            eg: 0,
            tracer,
        }
    }

    #[inline(always)]
    fn add(&mut self, feature: usize, color: Color, count: i32) {
        let signed = if color == Color::White { count } else { -count };
        let w = self.weights[feature];
        self.mg += w.mg * signed;
        self.eg += w.eg * signed;
        self.tracer.add(feature, signed);
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Squares attacked by a set of `color`'s pawns.
#[inline]
fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9),
        Color::Black => ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7),
    })
}

/// Rank of `sq` counted from `color`'s side (0 = own back rank).
#[inline]
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank() as usize,
        Color::Black => 7 - sq.rank() as usize,
    }
}

/// The piece-square table entry of `sq` for `color`: rank seen from `color`'s side, times
/// the file folded onto a..d. Folding halves the tables, which the data can then fill with
/// fewer games; left-right asymmetry matters little once castling side is free.
#[inline]
fn pst_index(color: Color, sq: Square) -> usize {
    let file = sq.file().min(7 - sq.file()) as usize;
    4 * relative_rank(color, sq) + file
}

/// Squares strictly in front of `sq` on its file, seen from `color`.
#[inline]
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = FILE_A << sq.file();
    Bitboard(match color {
        Color::White => file & (!1u64).checked_shl(sq.index() as u32 + 1).unwrap_or(0),
        Color::Black => file & ((1u64 << sq.index()) - 1),
    })
}

/// The files next to `file`.
#[inline]
fn adjacent_files(file: u8) -> Bitboard {
    let f = FILE_A << file;
    Bitboard(((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H))
}

/// Ranks `rank` and everything behind it, seen from `color`.
#[inline]
fn ranks_up_to(color: Color, sq: Square) -> Bitboard {
    let rank = sq.rank() as u32;
    Bitboard(match color {
        Color::White => u64::MAX >> (8 * (7 - rank)),
        Color::Black => u64::MAX << (8 * rank),
    })
}

/// Squares strictly in front of `sq`, seen from `color`, on all files.
#[inline]
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    !ranks_up_to(color, sq)
}

#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The king zone: the king's square, its neighbours, and the rank beyond those towards
/// the enemy (where the first attacks on a castled king land).
#[inline]
fn king_zone(color: Color, king: Square) -> Bitboard {
    let ring = attacks::king(king).with(king);
    ring | match color {
        Color::White => ring.shift_up(),
        Color::Black => ring.shift_down(),
    }
}

/// What one side's pieces do, gathered in the first pass and read in the second.
#[derive(Default, Clone, Copy)]
struct SideInfo {
    /// Squares attacked by any piece (king and pawns included).
    attacked: Bitboard,
    /// Squares attacked by pieces of each role.
    attacked_by: [Bitboard; 6],
}

/// The game phase: PHASE_MAX with all pieces on the board, 0 with none but kings and pawns.
pub(crate) fn phase(board: &Board) -> i32 {
    let minors = (board.by_role(Role::Knight) | board.by_role(Role::Bishop)).count() as i32;
    let rooks = board.by_role(Role::Rook).count() as i32;
    let queens = board.by_role(Role::Queen).count() as i32;
    (minors + 2 * rooks + 4 * queens).min(PHASE_MAX)
}

/// How much of the endgame score survives (out of [`SCALE_MAX`]) when it favours each
/// side, for endgames that material alone calls won but that are usually drawn. Set by
/// hand, not tuned: the data has too few such endings to learn them.
pub(crate) fn endgame_scale(board: &Board) -> [i32; 2] {
    let units = |c: Color| {
        3 * (board.pieces(c, Role::Knight) | board.pieces(c, Role::Bishop)).count() as i32
            + 5 * board.pieces(c, Role::Rook).count() as i32
            + 9 * board.pieces(c, Role::Queen).count() as i32
    };
    let non_pawn = [units(Color::White), units(Color::Black)];
    let bishops = board.by_role(Role::Bishop);
    let only_bishops = non_pawn[0] == 3
        && non_pawn[1] == 3
        && (board.by_role(Role::Knight)).is_empty()
        && bishops.count() == 2;
    let opposite_bishops = only_bishops
        && (bishops & Bitboard::DARK_SQUARES).count() == 1
        && board.pieces(Color::White, Role::Bishop).count() == 1;
    let mut scale = [SCALE_MAX; 2];
    for color in Color::ALL {
        let us = color.index();
        let them = (!color).index();
        if board.pieces(color, Role::Pawn).is_empty() && non_pawn[us] - non_pawn[them] <= 3 {
            // Without pawns a side needs more than a minor piece's edge to mate.
            scale[us] = if non_pawn[us] <= 3 { 0 } else { SCALE_MAX / 4 };
        } else if opposite_bishops {
            scale[us] = SCALE_MAX / 2;
        }
    }
    scale
}

/// Adds every term of `board` to `acc` (White's point of view).
pub(crate) fn extract<T: Tracer>(board: &Board, acc: &mut Accumulator<'_, '_, T>) {
    let occupied = board.occupied();
    let mut info = [SideInfo::default(); 2];
    for color in Color::ALL {
        let side = &mut info[color.index()];
        let pawns = pawn_attacks(color, board.pieces(color, Role::Pawn));
        let king = attacks::king(board.king_of(color));
        side.attacked_by[Role::Pawn.index()] = pawns;
        side.attacked_by[Role::King.index()] = king;
        side.attacked = pawns | king;
    }

    // Pass 1: material, piece-square tables, mobility and attacks on the king zone.
    for color in Color::ALL {
        let them = !color;
        let enemy_king = board.king_of(them);
        let zone = king_zone(them, enemy_king);
        let mobility_area = !(board.pieces(color, Role::Pawn)
            | board.pieces(color, Role::King)
            | info[them.index()].attacked_by[Role::Pawn.index()]);
        let mut zone_attackers = 0;
        for role in Role::ALL {
            for sq in board.pieces(color, role) {
                if role != Role::King {
                    acc.add(MATERIAL + role.index(), color, 1);
                }
                acc.add(PST + 32 * role.index() + pst_index(color, sq), color, 1);
                let (mobility, zone_index) = match role {
                    Role::Knight => (MOBILITY_KNIGHT, 0),
                    Role::Bishop => (MOBILITY_BISHOP, 1),
                    Role::Rook => (MOBILITY_ROOK, 2),
                    Role::Queen => (MOBILITY_QUEEN, 3),
                    Role::Pawn | Role::King => continue,
                };
                let targets = attacks::attacks(role, color, sq, occupied);
                let side = &mut info[color.index()];
                side.attacked_by[role.index()] |= targets;
                side.attacked |= targets;
                acc.add(
                    mobility + (targets & mobility_area).count() as usize,
                    color,
                    1,
                );
                let on_zone = (targets & zone).count() as i32;
                if on_zone > 0 {
                    zone_attackers += 1;
                    acc.add(KING_ZONE_ATTACKS + zone_index, color, on_zone);
                }
            }
        }
        acc.add(KING_ATTACKERS + zone_attackers.min(7), color, 1);
    }

    // Pass 2: terms that need both sides' attack maps.
    for color in Color::ALL {
        let them = !color;
        let us_info = info[color.index()];
        let them_info = info[them.index()];
        let own = board.by_color(color);
        let enemy = board.by_color(them);

        // Checks the enemy king cannot simply capture or block with a defended square.
        let enemy_king = board.king_of(them);
        let safe = !own & !them_info.attacked;
        let bishop_lines = attacks::bishop(enemy_king, occupied);
        let rook_lines = attacks::rook(enemy_king, occupied);
        let checks = [
            attacks::knight(enemy_king) & us_info.attacked_by[Role::Knight.index()],
            bishop_lines & us_info.attacked_by[Role::Bishop.index()],
            rook_lines & us_info.attacked_by[Role::Rook.index()],
            (bishop_lines | rook_lines) & us_info.attacked_by[Role::Queen.index()],
        ];
        for (i, squares) in checks.into_iter().enumerate() {
            let n = (squares & safe).count() as i32;
            if n > 0 {
                acc.add(SAFE_CHECKS + i, color, n);
            }
        }

        let minors_and_up = board.by_role(Role::Knight)
            | board.by_role(Role::Bishop)
            | board.by_role(Role::Rook)
            | board.by_role(Role::Queen);
        let majors = board.by_role(Role::Rook) | board.by_role(Role::Queen);
        let threats = [
            (
                THREAT_BY_PAWN,
                us_info.attacked_by[Role::Pawn.index()] & enemy & minors_and_up,
            ),
            (
                THREAT_BY_MINOR,
                (us_info.attacked_by[Role::Knight.index()]
                    | us_info.attacked_by[Role::Bishop.index()])
                    & enemy
                    & majors,
            ),
            (
                THREAT_BY_ROOK,
                us_info.attacked_by[Role::Rook.index()] & enemy & board.by_role(Role::Queen),
            ),
        ];
        for (feature, victims) in threats {
            let n = victims.count() as i32;
            if n > 0 {
                acc.add(feature, color, n);
            }
        }
    }

    pawn_structure(board, acc);

    for color in Color::ALL {
        let own_pawns = board.pieces(color, Role::Pawn);
        let enemy_pawns = board.pieces(!color, Role::Pawn);

        // King shelter: pawns just in front of the king, and open files next to it.
        let king = board.king_of(color);
        let centre = king.file().clamp(1, 6);
        let ahead = ranks_ahead(color, king);
        let mut shield = [0; 2];
        let mut open = 0;
        for file in centre - 1..=centre + 1 {
            let pawns = own_pawns & Bitboard::file(file) & ahead;
            match pawns
                .into_iter()
                .map(|p| relative_rank(color, p) as i32 - relative_rank(color, king) as i32)
                .min()
            {
                Some(1) => shield[0] += 1,
                Some(2) => shield[1] += 1,
                Some(_) => {}
                None => open += 1,
            }
        }
        for (i, n) in shield.into_iter().enumerate() {
            if n > 0 {
                acc.add(KING_SHIELD + i, color, n);
            }
        }
        if open > 0 {
            acc.add(KING_OPEN_FILE, color, open);
        }

        if board.pieces(color, Role::Bishop).more_than_one() {
            acc.add(BISHOP_PAIR, color, 1);
        }
        for rook in board.pieces(color, Role::Rook) {
            let file = Bitboard::file(rook.file());
            if (file & own_pawns).is_empty() {
                if (file & enemy_pawns).is_empty() {
                    acc.add(ROOK_OPEN_FILE, color, 1);
                } else {
                    acc.add(ROOK_SEMI_OPEN_FILE, color, 1);
                }
            }
        }
    }

    acc.add(TEMPO, board.turn(), 1);
}

/// Passed, doubled, isolated, backward, supported and phalanx pawns.
fn pawn_structure<T: Tracer>(board: &Board, acc: &mut Accumulator<'_, '_, T>) {
    let occupied = board.occupied();
    for color in Color::ALL {
        let them = !color;
        let own = board.pieces(color, Role::Pawn);
        let enemy = board.pieces(them, Role::Pawn);
        let enemy_attacks = pawn_attacks(them, enemy);
        let own_king = board.king_of(color);
        let enemy_king = board.king_of(them);
        for sq in own {
            let rank = relative_rank(color, sq);
            let front = front_span(color, sq);
            let neighbours = adjacent_files(sq.file());
            let ahead = ranks_ahead(color, sq);
            let beside = neighbours & Bitboard::rank(sq.rank());

            if (front & own).nonempty() {
                acc.add(DOUBLED, color, 1);
            }
            if (own & neighbours).is_empty() {
                acc.add(ISOLATED, color, 1);
            } else if let Some(stop) = sq.offset(color.forward()) {
                let behind_or_level = own & neighbours & ranks_up_to(color, sq);
                if behind_or_level.is_empty() && enemy_attacks.contains(stop) {
                    acc.add(BACKWARD, color, 1);
                }
            }
            if (attacks::pawn(them, sq) & own).nonempty() {
                acc.add(SUPPORTED + rank, color, 1);
            }
            if (beside & own).nonempty() {
                acc.add(PHALANX + rank, color, 1);
            }

            let passed =
                (enemy & (front | (neighbours & ahead))).is_empty() && (front & own).is_empty();
            if passed {
                acc.add(PASSED + rank, color, 1);
                if (front & occupied).is_empty() {
                    acc.add(PASSED_FREE + rank, color, 1);
                }
                if let Some(stop) = sq.offset(color.forward()) {
                    acc.add(PASSED_OWN_KING + rank, color, distance(own_king, stop));
                    acc.add(PASSED_ENEMY_KING + rank, color, distance(enemy_king, stop));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn masks() {
        assert_eq!(
            front_span(Color::White, sq("e4")),
            Bitboard::from_square(sq("e5"))
                .with(sq("e6"))
                .with(sq("e7"))
                .with(sq("e8"))
        );
        assert_eq!(
            front_span(Color::Black, sq("b3")),
            Bitboard::from_square(sq("b2")).with(sq("b1"))
        );
        assert!(front_span(Color::White, sq("h8")).is_empty());
        assert_eq!(adjacent_files(0), Bitboard::file(1));
        assert_eq!(adjacent_files(7), Bitboard::file(6));
        assert_eq!(ranks_up_to(Color::White, sq("a2")), Bitboard(0xffff));
        assert_eq!(ranks_up_to(Color::Black, sq("a7")), Bitboard(0xffff << 48));
        assert_eq!(ranks_ahead(Color::White, sq("c8")), Bitboard::EMPTY);
        assert_eq!(
            pawn_attacks(Color::White, Bitboard::from_square(sq("a2"))),
            Bitboard::from_square(sq("b3"))
        );
        assert_eq!(
            pawn_attacks(Color::Black, Bitboard::from_square(sq("h7"))),
            Bitboard::from_square(sq("g6"))
        );
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert_eq!(distance(sq("e4"), sq("f6")), 2);
        assert_eq!(pst_index(Color::White, sq("a1")), 0);
        assert_eq!(pst_index(Color::White, sq("h1")), 0);
        assert_eq!(pst_index(Color::White, sq("e2")), 4 + 3);
        assert_eq!(pst_index(Color::Black, sq("d7")), 4 + 3);
        assert_eq!(pst_index(Color::Black, sq("g8")), 1);
    }
}
