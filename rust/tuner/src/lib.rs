//! Texel tuning of the pychess-rs evaluation (a developer tool; not shipped).
//!
//! [`data`] reads `FEN;result` lines into packed evaluation traces, [`model`] fits the
//! sigmoid's `K` and minimises the prediction error by gradient descent, and [`emit`] writes
//! the result as `rust/engine/src/eval/weights.rs`. `rust/engine/TUNING.md` has the recipe.
#![deny(missing_docs)]

pub mod data;
pub mod emit;
pub mod model;
