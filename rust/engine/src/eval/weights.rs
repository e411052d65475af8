//! The evaluation weights. Until the first tuning run these are the hand-set starting
//! values; `rust/tuner` overwrites this file with fitted ones (see `rust/engine/TUNING.md`).

use super::{Weights, HAND_WEIGHTS};

/// The weights [`super::evaluate`] uses.
pub const WEIGHTS: Weights = HAND_WEIGHTS;
