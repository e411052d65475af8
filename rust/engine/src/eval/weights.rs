//! Evaluation weights fitted by `rust/tuner` (Texel's method). Generated: do not edit
//! by hand; `rust/engine/TUNING.md` says how to regenerate it.
//!
//! - Date: 2026-11-23 (UTC).
//! - Data: 88000 training + 21864 validation quiet positions, each with its game's
//!   result and (where recorded) a reference engine's score, from:
//!   - sf1k-s2-first110k.txt (109864 positions)
//! - Method: minimise the mean squared error of sigmoid(K * eval) against the target
//!   0.00 * result + 1.00 * sigmoid(K * reference score), K = 0.006058 (fitted
//!   to the starting weights), 400 epochs of full-batch Adam (rate 0.1; the
//!   epoch best on the validation games), starting from the hand-set `HAND_WEIGHTS`.
//! - Error against game results (train / validation): before 0.088502 / 0.084508,
//!   after 0.084670 / 0.082178.

use super::{Weights, S};

/// The weights [`super::evaluate`] uses.
#[rustfmt::skip]
pub const WEIGHTS: Weights = [
    // MATERIAL: Material of pawn, knight, bishop, rook, queen.
    S::new(85, 98), S::new(334, 309), S::new(347, 333), S::new(477, 513),
    S::new(926, 924),
    // PST: Piece-square tables, pawn..king, 32 squares each: rank from the owner's side times file
    // a..d (files e..h mirror them).
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-17, 4), S::new(2, 3), S::new(3, 0), S::new(-15, 14),
    S::new(-16, -13), S::new(-3, 3), S::new(-6, -1), S::new(-6, -1),
    S::new(-17, -1), S::new(-18, 17), S::new(4, -9), S::new(7, -21),
    S::new(-9, 1), S::new(-3, 22), S::new(-5, -1), S::new(10, 5),
    S::new(23, -3), S::new(-5, 10), S::new(20, 15), S::new(24, 17),
    S::new(-17, 4), S::new(-6, 13), S::new(16, 17), S::new(23, 4),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(16, 28), S::new(-12, -17), S::new(-11, -16), S::new(-14, -2),
    S::new(-14, -1), S::new(4, 17), S::new(-12, 5), S::new(4, -17),
    S::new(-10, -16), S::new(1, -4), S::new(8, -5), S::new(12, 20),
    S::new(5, 1), S::new(-9, 20), S::new(17, -1), S::new(6, 16),
    S::new(21, 7), S::new(10, 19), S::new(14, 8), S::new(10, 7),
    S::new(24, -13), S::new(23, 11), S::new(26, -13), S::new(23, 10),
    S::new(-23, -19), S::new(-18, 14), S::new(-13, 9), S::new(-21, 16),
    S::new(-27, -27), S::new(-23, 3), S::new(-26, -6), S::new(12, -17),
    S::new(22, -22), S::new(-19, -16), S::new(-10, -8), S::new(-13, -8),
    S::new(1, 24), S::new(16, 2), S::new(5, -7), S::new(-8, 0),
    S::new(4, 3), S::new(22, -18), S::new(12, -6), S::new(2, 3),
    S::new(14, -3), S::new(-19, 9), S::new(1, 16), S::new(18, 15),
    S::new(-6, -1), S::new(2, -5), S::new(17, 19), S::new(-1, 22),
    S::new(21, -10), S::new(21, -5), S::new(21, 13), S::new(18, 12),
    S::new(-24, -20), S::new(-17, -23), S::new(14, -5), S::new(-3, -1),
    S::new(-25, -17), S::new(-14, 22), S::new(-25, -25), S::new(11, -7),
    S::new(-13, -11), S::new(-11, 2), S::new(1, -5), S::new(9, -8),
    S::new(-18, 1), S::new(-21, -11), S::new(-19, 0), S::new(-18, 4),
    S::new(-16, 19), S::new(-4, 4), S::new(-3, -12), S::new(7, 9),
    S::new(-16, 0), S::new(-25, 8), S::new(-2, 13), S::new(-17, 5),
    S::new(13, 15), S::new(-7, 8), S::new(23, 6), S::new(9, 14),
    S::new(16, 12), S::new(21, 12), S::new(24, 8), S::new(25, -3),
    S::new(17, 18), S::new(19, 6), S::new(22, 9), S::new(15, -4),
    S::new(21, 23), S::new(23, 24), S::new(21, 7), S::new(14, 24),
    S::new(6, -11), S::new(-19, -23), S::new(14, -22), S::new(8, -10),
    S::new(-15, 25), S::new(9, -26), S::new(18, -29), S::new(10, -21),
    S::new(4, -6), S::new(3, -6), S::new(7, 17), S::new(8, 16),
    S::new(1, 18), S::new(-12, 26), S::new(-11, 26), S::new(-3, 23),
    S::new(-6, 0), S::new(-9, 27), S::new(-7, 22), S::new(24, 23),
    S::new(-2, 28), S::new(24, 22), S::new(9, 16), S::new(15, 15),
    S::new(22, 18), S::new(19, 21), S::new(24, 23), S::new(26, 25),
    S::new(23, 24), S::new(-21, -15), S::new(21, 19), S::new(22, 23),
    S::new(-13, -18), S::new(10, -14), S::new(-11, -10), S::new(-11, -17),
    S::new(15, -21), S::new(13, -1), S::new(-12, -5), S::new(-25, 16),
    S::new(27, -19), S::new(16, -2), S::new(19, 10), S::new(-28, 13),
    S::new(-20, -19), S::new(22, 16), S::new(14, 10), S::new(10, 17),
    S::new(21, -9), S::new(18, 4), S::new(13, 17), S::new(5, 17),
    S::new(11, -10), S::new(16, 20), S::new(13, 19), S::new(23, 24),
    S::new(14, -27), S::new(14, 22), S::new(18, 22), S::new(12, 8),
    S::new(11, 17), S::new(12, -14), S::new(18, 19), S::new(19, 24),
    // MOBILITY_KNIGHT: Knight mobility: safe squares attacked (0..=8).
    S::new(-24, -28), S::new(-27, -32), S::new(-9, -10), S::new(0, -5),
    S::new(5, 1), S::new(11, 18), S::new(14, 14), S::new(22, 8),
    S::new(13, -4),
    // MOBILITY_BISHOP: Bishop mobility: safe squares attacked (0..=13).
    S::new(-39, -39), S::new(-29, -31), S::new(-11, -30), S::new(-7, -4),
    S::new(-3, -4), S::new(11, 5), S::new(11, 13), S::new(10, 3),
    S::new(6, 18), S::new(7, 4), S::new(7, -2), S::new(-1, 12),
    S::new(5, 5), S::new(4, 8),
    // MOBILITY_ROOK: Rook mobility: safe squares attacked (0..=14).
    S::new(-41, -53), S::new(-27, -40), S::new(-16, -31), S::new(-15, -23),
    S::new(-9, -11), S::new(-10, 2), S::new(-9, 21), S::new(1, 15),
    S::new(-2, 21), S::new(14, 16), S::new(17, 16), S::new(2, 25),
    S::new(-8, 33), S::new(8, 20), S::new(-1, 29),
    // MOBILITY_QUEEN: Queen mobility: safe squares attacked (0..=27).
    S::new(-13, -26), S::new(-29, -28), S::new(-27, -36), S::new(-24, -40),
    S::new(-10, -37), S::new(-8, -9), S::new(-10, -26), S::new(-3, 2),
    S::new(4, -7), S::new(4, 16), S::new(9, 18), S::new(9, 14),
    S::new(8, 21), S::new(12, 10), S::new(21, 26), S::new(11, 28),
    S::new(26, 26), S::new(4, 26), S::new(0, 24), S::new(-13, 25),
    S::new(-13, 11), S::new(27, -7), S::new(3, 4), S::new(10, -8),
    S::new(21, 14), S::new(10, 10), S::new(24, 28), S::new(3, 9),
    // PASSED: Passed pawn, by relative rank.
    S::new(0, 0), S::new(13, 16), S::new(-2, 11), S::new(11, 36),
    S::new(36, 45), S::new(50, 75), S::new(59, 112), S::new(0, 0),
    // PASSED_FREE: Passed pawn whose path to promotion is empty, by relative rank.
    S::new(0, 0), S::new(-8, 3), S::new(2, 14), S::new(-9, 14),
    S::new(-17, 20), S::new(23, 33), S::new(37, 51), S::new(0, 0),
    // PASSED_OWN_KING: Passed pawn: times the own king's distance to its stop square, by relative
    // rank.
    S::new(0, 0), S::new(-10, 0), S::new(-6, -7), S::new(-3, -9),
    S::new(3, -17), S::new(-7, -16), S::new(-12, -15), S::new(0, 0),
    // PASSED_ENEMY_KING: Passed pawn: times the enemy king's distance to its stop square, by
    // relative rank.
    S::new(0, 0), S::new(4, -4), S::new(2, 2), S::new(-4, 8),
    S::new(-8, 19), S::new(3, 22), S::new(24, 29), S::new(0, 0),
    // SUPPORTED: Pawn defended by an own pawn, by relative rank.
    S::new(0, 0), S::new(5, 5), S::new(7, 24), S::new(12, 11),
    S::new(20, 10), S::new(45, 43), S::new(52, 50), S::new(0, 0),
    // PHALANX: Pawn with an own pawn beside it, by relative rank.
    S::new(0, 0), S::new(0, 8), S::new(0, 7), S::new(9, 11),
    S::new(21, 25), S::new(28, 31), S::new(35, 39), S::new(0, 0),
    // DOUBLED: Pawn with an own pawn in front of it on its file.
    S::new(-22, -28),
    // ISOLATED: Pawn with no own pawn on a neighbouring file.
    S::new(-5, -1),
    // BACKWARD: Pawn behind its neighbours whose stop square an enemy pawn attacks.
    S::new(-5, -12),
    // KING_ZONE_ATTACKS: Attacks on the enemy king zone, per attacked square, by knight, bishop,
    // rook, queen.
    S::new(15, 0), S::new(10, -4), S::new(9, 2), S::new(7, 18),
    // KING_ATTACKERS: Number of pieces attacking the enemy king zone (0..=7).
    S::new(5, -2), S::new(-9, -10), S::new(-4, 0), S::new(11, 17),
    S::new(17, 21), S::new(11, 5), S::new(0, 0), S::new(0, 0),
    // SAFE_CHECKS: Squares from which a knight, bishop, rook, queen could check the enemy king
    // safely.
    S::new(32, 12), S::new(9, 17), S::new(29, 17), S::new(27, 18),
    // KING_SHIELD: Own pawn one / two ranks in front of the king on its file or a neighbour.
    S::new(15, 0), S::new(6, 3),
    // KING_OPEN_FILE: File at or beside the king with no own pawn in front of it.
    S::new(-20, 14),
    // BISHOP_PAIR: Two or more bishops.
    S::new(36, 62),
    // ROOK_OPEN_FILE: Rook on a file with no pawns.
    S::new(29, -4),
    // ROOK_SEMI_OPEN_FILE: Rook on a file with enemy pawns only.
    S::new(15, 17),
    // THREAT_BY_PAWN: Enemy knight, bishop, rook or queen attacked by an own pawn.
    S::new(56, 51),
    // THREAT_BY_MINOR: Enemy rook or queen attacked by an own knight or bishop.
    S::new(44, 43),
    // THREAT_BY_ROOK: Enemy queen attacked by an own rook.
    S::new(44, 39),
    // TEMPO: Side to move.
    S::new(18, 4),
];
