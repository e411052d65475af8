//! Tensor encodings of positions and moves.
