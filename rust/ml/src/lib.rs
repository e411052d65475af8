//! Chess for machine learning: positions and moves as tensors (`encode`), and many games
//! stepped together by arrays of actions (`batch`). Everything writes into caller-owned
//! buffers, so the bindings can hand NumPy arrays to Python without a per-square Python step.
#![deny(missing_docs)]

pub mod batch;
pub mod encode;
