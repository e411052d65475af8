//! The hand-set starting point of the tuning: textbook material, zero piece-square tables,
//! mobility that grows linearly, and round numbers for the rest. The tuner starts from
//! these so that the fitted values in `weights.rs` owe nothing to another engine's tables.

use super::layout::*;
use super::{Weights, S};

const fn ramp(weights: &mut Weights, start: usize, len: usize, centre: i32, step: S) {
    let mut i = 0;
    while i < len {
        let d = i as i32 - centre;
        weights[start + i] = S::new(d * step.mg, d * step.eg);
        i += 1;
    }
}

const fn by_rank(weights: &mut Weights, start: usize, values: [i32; 8], mg_share: i32) {
    let mut i = 0;
    while i < 8 {
        weights[start + i] = S::new(values[i] * mg_share / 100, values[i]);
        i += 1;
    }
}

/// The weights before tuning.
pub const HAND_WEIGHTS: Weights = {
    let mut w = [S::new(0, 0); FEATURE_COUNT];
    w[MATERIAL] = S::new(100, 100);
    w[MATERIAL + 1] = S::new(320, 320);
    w[MATERIAL + 2] = S::new(330, 330);
    w[MATERIAL + 3] = S::new(500, 500);
    w[MATERIAL + 4] = S::new(900, 900);

    ramp(&mut w, MOBILITY_KNIGHT, 9, 4, S::new(4, 4));
    ramp(&mut w, MOBILITY_BISHOP, 14, 6, S::new(4, 4));
    ramp(&mut w, MOBILITY_ROOK, 15, 7, S::new(2, 4));
    ramp(&mut w, MOBILITY_QUEEN, 28, 13, S::new(1, 2));

    by_rank(&mut w, PASSED, [0, 5, 10, 20, 35, 60, 100, 0], 50);
    by_rank(&mut w, PASSED_FREE, [0, 0, 0, 5, 10, 20, 30, 0], 50);
    by_rank(&mut w, PASSED_OWN_KING, [0, 0, 0, -2, -4, -6, -8, 0], 0);
    by_rank(&mut w, PASSED_ENEMY_KING, [0, 0, 0, 2, 4, 6, 8, 0], 0);
    by_rank(&mut w, SUPPORTED, [0, 5, 5, 8, 12, 20, 30, 0], 100);
    by_rank(&mut w, PHALANX, [0, 3, 3, 5, 10, 15, 25, 0], 100);
    w[DOUBLED] = S::new(-10, -20);
    w[ISOLATED] = S::new(-10, -10);
    w[BACKWARD] = S::new(-5, -5);

    w[KING_ZONE_ATTACKS] = S::new(6, 0);
    w[KING_ZONE_ATTACKS + 1] = S::new(4, 0);
    w[KING_ZONE_ATTACKS + 2] = S::new(6, 0);
    w[KING_ZONE_ATTACKS + 3] = S::new(8, 0);
    w[SAFE_CHECKS] = S::new(10, 0);
    w[SAFE_CHECKS + 1] = S::new(8, 0);
    w[SAFE_CHECKS + 2] = S::new(10, 0);
    w[SAFE_CHECKS + 3] = S::new(8, 0);
    w[KING_SHIELD] = S::new(10, 0);
    w[KING_SHIELD + 1] = S::new(5, 0);
    w[KING_OPEN_FILE] = S::new(-15, 0);

    w[BISHOP_PAIR] = S::new(30, 50);
    w[ROOK_OPEN_FILE] = S::new(20, 10);
    w[ROOK_SEMI_OPEN_FILE] = S::new(10, 5);
    w[THREAT_BY_PAWN] = S::new(30, 30);
    w[THREAT_BY_MINOR] = S::new(20, 20);
    w[THREAT_BY_ROOK] = S::new(20, 20);
    w[TEMPO] = S::new(10, 5);
    w
};
