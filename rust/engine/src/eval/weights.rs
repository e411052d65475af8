//! Evaluation weights fitted by `rust/tuner` (Texel's method). Generated: do not edit
//! by hand; `rust/engine/TUNING.md` says how to regenerate it.
//!
//! - Date: 2026-11-23 (UTC).
//! - Data: 309822 training + 77000 validation quiet positions, each with its game's
//!   result and (where recorded) a reference engine's score, from:
//!   - sf4k-s1.txt (23578 positions)
//!   - sf1k-s2.txt (150816 positions)
//!   - sf1k-s3.txt (212428 positions)
//! - Method: minimise the mean squared error of sigmoid(K * eval) against the target
//!   0.25 * result + 0.75 * sigmoid(K * reference score), K = 0.006804 (fitted
//!   to the starting weights), 3000 epochs of full-batch Adam (rate 0.1; the
//!   epoch best on the validation games), starting from the hand-set `HAND_WEIGHTS`.
//! - Error against game results (train / validation): before 0.085253 / 0.088365,
//!   after 0.080476 / 0.085276.

use super::{Weights, S};

/// The weights [`super::evaluate`] uses.
#[rustfmt::skip]
pub const WEIGHTS: Weights = [
    // MATERIAL: Material of pawn, knight, bishop, rook, queen.
    S::new(81, 94), S::new(339, 343), S::new(351, 372), S::new(457, 572),
    S::new(999, 988),
    // PST: Piece-square tables, pawn..king, 32 squares each: rank from the owner's side times file
    // a..d (files e..h mirror them).
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-19, 0), S::new(4, 2), S::new(0, 15), S::new(-10, 11),
    S::new(-24, -6), S::new(-10, 5), S::new(-15, 7), S::new(-13, 3),
    S::new(-8, -3), S::new(-8, 7), S::new(10, -3), S::new(2, -19),
    S::new(2, 6), S::new(3, 10), S::new(2, 3), S::new(15, -10),
    S::new(11, 0), S::new(20, -17), S::new(9, 5), S::new(25, -21),
    S::new(-36, 21), S::new(14, -13), S::new(9, 21), S::new(17, -4),
    S::new(0, 0), S::new(0, 0), S::new(0, 0), S::new(0, 0),
    S::new(-107, 76), S::new(-12, -17), S::new(-4, 1), S::new(-12, 33),
    S::new(6, -15), S::new(1, -27), S::new(-13, 21), S::new(3, 15),
    S::new(-14, -4), S::new(4, 23), S::new(6, 26), S::new(18, 36),
    S::new(5, 7), S::new(28, 19), S::new(29, 26), S::new(20, 40),
    S::new(11, 30), S::new(18, 23), S::new(36, 22), S::new(28, 39),
    S::new(60, -37), S::new(28, 7), S::new(71, -3), S::new(65, 1),
    S::new(17, -42), S::new(-52, 34), S::new(-2, 7), S::new(15, 2),
    S::new(-101, -109), S::new(-87, 34), S::new(-118, -14), S::new(-28, 20),
    S::new(-22, 19), S::new(35, -37), S::new(-11, -6), S::new(-13, 2),
    S::new(20, 23), S::new(15, -11), S::new(19, -4), S::new(3, -12),
    S::new(13, -9), S::new(19, 8), S::new(5, 26), S::new(8, 14),
    S::new(31, -18), S::new(9, -1), S::new(5, 14), S::new(12, 21),
    S::new(4, 4), S::new(10, 11), S::new(7, 41), S::new(27, 13),
    S::new(12, 7), S::new(35, 13), S::new(37, 11), S::new(46, -6),
    S::new(-14, 13), S::new(-30, -5), S::new(12, -11), S::new(6, -10),
    S::new(-62, -7), S::new(-69, 35), S::new(-54, 17), S::new(-56, 17),
    S::new(-18, 6), S::new(-19, 14), S::new(-13, 13), S::new(7, 0),
    S::new(-35, 28), S::new(-33, 12), S::new(-33, 30), S::new(-6, 21),
    S::new(-22, 19), S::new(11, -1), S::new(2, 1), S::new(-10, 27),
    S::new(-29, 20), S::new(-28, 49), S::new(-36, 43), S::new(-21, 31),
    S::new(27, 24), S::new(50, 8), S::new(25, 12), S::new(-1, 28),
    S::new(-4, 28), S::new(59, 12), S::new(4, 16), S::new(18, 26),
    S::new(33, 32), S::new(-9, 44), S::new(43, 22), S::new(30, 36),
    S::new(24, 38), S::new(84, 45), S::new(42, 28), S::new(70, 29),
    S::new(24, 10), S::new(21, -47), S::new(36, -39), S::new(32, 5),
    S::new(32, -44), S::new(34, 16), S::new(53, -69), S::new(44, -42),
    S::new(30, -11), S::new(39, 20), S::new(24, 73), S::new(41, 20),
    S::new(30, -9), S::new(25, 50), S::new(24, 66), S::new(18, 75),
    S::new(43, -8), S::new(28, 62), S::new(10, 65), S::new(30, 51),
    S::new(7, 81), S::new(58, -11), S::new(9, 101), S::new(8, 79),
    S::new(32, 20), S::new(19, 73), S::new(39, 55), S::new(22, 104),
    S::new(34, 69), S::new(-42, 50), S::new(64, 63), S::new(18, 86),
    S::new(38, -57), S::new(31, -39), S::new(-11, -25), S::new(-14, -36),
    S::new(26, -32), S::new(17, -13), S::new(-13, -6), S::new(-59, 10),
    S::new(26, -17), S::new(-7, 1), S::new(-14, 13), S::new(-18, 9),
    S::new(-150, 23), S::new(32, 14), S::new(1, 18), S::new(-82, 35),
    S::new(-18, 37), S::new(-75, 45), S::new(-41, 39), S::new(-24, 36),
    S::new(57, 20), S::new(-59, 54), S::new(55, 48), S::new(-63, 50),
    S::new(-12, -20), S::new(19, 43), S::new(17, 3), S::new(11, -7),
    S::new(-40, -95), S::new(51, -59), S::new(5, -8), S::new(35, -54),
    // MOBILITY_KNIGHT: Knight mobility: safe squares attacked (0..=8).
    S::new(-27, 28), S::new(-28, -9), S::new(-10, 5), S::new(-1, 5),
    S::new(10, 4), S::new(12, 10), S::new(18, 8), S::new(26, -4),
    S::new(21, -15),
    // MOBILITY_BISHOP: Bishop mobility: safe squares attacked (0..=13).
    S::new(-30, -50), S::new(-24, -31), S::new(-13, 0), S::new(-4, -2),
    S::new(2, 12), S::new(11, 13), S::new(8, 24), S::new(9, 17),
    S::new(11, 22), S::new(9, 16), S::new(-9, 14), S::new(-4, 19),
    S::new(-60, 34), S::new(-84, 50),
    // MOBILITY_ROOK: Rook mobility: safe squares attacked (0..=14).
    S::new(-92, -108), S::new(-32, -8), S::new(-22, 7), S::new(-24, 26),
    S::new(-17, 27), S::new(-15, 31), S::new(-13, 46), S::new(3, 32),
    S::new(-5, 51), S::new(-1, 45), S::new(8, 45), S::new(11, 51),
    S::new(-2, 56), S::new(5, 48), S::new(84, 11),
    // MOBILITY_QUEEN: Queen mobility: safe squares attacked (0..=27).
    S::new(-13, -26), S::new(-68, -138), S::new(1, -141), S::new(-3, -4),
    S::new(13, -28), S::new(10, 51), S::new(11, 63), S::new(14, 80),
    S::new(21, 51), S::new(20, 61), S::new(22, 78), S::new(28, 77),
    S::new(26, 78), S::new(28, 75), S::new(36, 80), S::new(37, 72),
    S::new(41, 65), S::new(34, 48), S::new(44, 31), S::new(42, 43),
    S::new(39, 20), S::new(85, -21), S::new(30, 9), S::new(41, -20),
    S::new(83, -45), S::new(91, 8), S::new(45, -2), S::new(-39, -81),
    // PASSED: Passed pawn, by relative rank.
    S::new(0, 0), S::new(58, -23), S::new(-23, 28), S::new(-44, 57),
    S::new(73, 25), S::new(79, 83), S::new(44, 114), S::new(0, 0),
    // PASSED_FREE: Passed pawn whose path to promotion is empty, by relative rank.
    S::new(0, 0), S::new(-19, 18), S::new(-15, 17), S::new(-26, 27),
    S::new(-7, 30), S::new(28, 31), S::new(63, 69), S::new(0, 0),
    // PASSED_OWN_KING: Passed pawn: times the own king's distance to its stop square, by relative
    // rank.
    S::new(0, 0), S::new(-12, 5), S::new(-5, -3), S::new(23, -17),
    S::new(0, -15), S::new(-2, -20), S::new(-3, -22), S::new(0, 0),
    // PASSED_ENEMY_KING: Passed pawn: times the enemy king's distance to its stop square, by
    // relative rank.
    S::new(0, 0), S::new(-2, 2), S::new(15, -4), S::new(-13, 11),
    S::new(-13, 23), S::new(-13, 35), S::new(19, 37), S::new(0, 0),
    // SUPPORTED: Pawn defended by an own pawn, by relative rank.
    S::new(0, 0), S::new(5, 5), S::new(20, 14), S::new(14, 18),
    S::new(16, 26), S::new(46, 65), S::new(34, 115), S::new(0, 0),
    // PHALANX: Pawn with an own pawn beside it, by relative rank.
    S::new(0, 0), S::new(2, 6), S::new(7, 4), S::new(9, 14),
    S::new(20, 35), S::new(98, 46), S::new(69, 94), S::new(0, 0),
    // DOUBLED: Pawn with an own pawn in front of it on its file.
    S::new(-15, -14),
    // ISOLATED: Pawn with no own pawn on a neighbouring file.
    S::new(-9, -8),
    // BACKWARD: Pawn behind its neighbours whose stop square an enemy pawn attacks.
    S::new(-6, -3),
    // KING_ZONE_ATTACKS: Attacks on the enemy king zone, per attacked square, by knight, bishop,
    // rook, queen.
    S::new(3, 3), S::new(5, -3), S::new(6, 0), S::new(5, 17),
    // KING_ATTACKERS: Number of pieces attacking the enemy king zone (0..=7).
    S::new(4, -11), S::new(-6, -15), S::new(-5, -12), S::new(4, 20),
    S::new(20, 44), S::new(44, 50), S::new(0, 0), S::new(0, 0),
    // SAFE_CHECKS: Squares from which a knight, bishop, rook, queen could check the enemy king
    // safely.
    S::new(45, 1), S::new(7, 24), S::new(61, -4), S::new(22, 19),
    // KING_SHIELD: Own pawn one / two ranks in front of the king on its file or a neighbour.
    S::new(9, 2), S::new(2, 3),
    // KING_OPEN_FILE: File at or beside the king with no own pawn in front of it.
    S::new(-19, 6),
    // BISHOP_PAIR: Two or more bishops.
    S::new(33, 59),
    // ROOK_OPEN_FILE: Rook on a file with no pawns.
    S::new(33, -16),
    // ROOK_SEMI_OPEN_FILE: Rook on a file with enemy pawns only.
    S::new(10, 8),
    // THREAT_BY_PAWN: Enemy knight, bishop, rook or queen attacked by an own pawn.
    S::new(62, 54),
    // THREAT_BY_MINOR: Enemy rook or queen attacked by an own knight or bishop.
    S::new(57, 28),
    // THREAT_BY_ROOK: Enemy queen attacked by an own rook.
    S::new(67, 21),
    // TEMPO: Side to move.
    S::new(19, 4),
];
