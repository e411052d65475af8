//! Trains the engine's evaluation network (`pychess_engine::nnue`: `768 -> N x 2 -> 1`,
//! clipped ReLU, one output) on the 32-byte records of `pychess-rs training-data nnue`.
//!
//! The same network, loss, optimiser, clipping and quantisation as `tools/nnue_train.py`
//! (its numpy and PyTorch paths), written for this machine's CPU: a position has about 30
//! of its 768 inputs on, so a step touches 30 weight rows a perspective where the numpy path
//! multiplies the whole one-hot matrix, and the batch is split over threads. On two cores
//! that is the difference between minutes and hours an epoch for tens of millions of
//! positions.
//!
//! * [`data`]: records to input lists and targets; the held-out part; mirror images.
//! * [`model`]: the float network, its gradient and Adam; quantisation to the engine's file.
//! * [`train`]: epochs of shuffled mini-batches over threads, reproducible from a seed.
//! * [`curve`]: the loss curve as CSV and as an SVG plot.

pub mod curve;
pub mod data;
pub mod model;
pub mod train;
