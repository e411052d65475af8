//! Texel's method: the evaluation `e` (centipawns, White's view) predicts the game result
//! (or a blend of it with a reference score, the position's target) as `sigmoid(K * e)`, and the weights minimise the mean squared error of that prediction.
//!
//! The evaluation is linear in the weights except for the endgame scale, which depends on
//! the sign of the endgame sum; so the gradient is exact almost everywhere and training is
//! plain full-batch gradient descent with Adam.

use pychess_engine::eval::layout::FEATURE_COUNT;
use pychess_engine::eval::{Weights, PHASE_MAX, S, SCALE_MAX};

use crate::data::{Dataset, Position};

/// Weights as reals: `[mg0, eg0, mg1, eg1, ...]`.
pub type Params = Vec<f64>;

/// Number of reals in [`Params`].
pub const PARAM_COUNT: usize = 2 * FEATURE_COUNT;

/// Integer weights as reals.
pub fn params_from(weights: &Weights) -> Params {
    weights
        .iter()
        .flat_map(|w| [w.mg as f64, w.eg as f64])
        .collect()
}

/// Reals rounded to the nearest integer weights.
pub fn weights_from(params: &[f64]) -> Weights {
    let mut weights = [S::default(); FEATURE_COUNT];
    for (w, pair) in weights.iter_mut().zip(params.chunks_exact(2)) {
        *w = S::new(pair[0].round() as i32, pair[1].round() as i32);
    }
    weights
}

/// The logistic curve that maps an evaluation to an expected score.
#[inline]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval).exp())
}

/// The evaluation (White's view, unrounded) and its derivatives' common factors:
/// `d eval / d mg_i = count_i * mg_factor`, `d eval / d eg_i = count_i * eg_factor`.
#[inline]
fn eval_parts(data: &Dataset, p: &Position, params: &[f64]) -> (f64, f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(index, count) in data.terms_of(p) {
        let i = 2 * index as usize;
        mg += params[i] * count as f64;
        eg += params[i + 1] * count as f64;
    }
    let scale = if eg >= 0.0 { p.scale[0] } else { p.scale[1] } as f64 / SCALE_MAX as f64;
    let phase = p.phase as f64 / PHASE_MAX as f64;
    let mg_factor = phase;
    let eg_factor = (1.0 - phase) * scale;
    (mg * mg_factor + eg * eg_factor, mg_factor, eg_factor)
}

/// The evaluation of `p` under `params`, White's view, unrounded.
pub fn eval(data: &Dataset, p: &Position, params: &[f64]) -> f64 {
    eval_parts(data, p, params).0
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn error(data: &Dataset, params: &[f64], k: f64) -> f64 {
    if data.positions.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .positions
        .iter()
        .map(|p| {
            let d = p.target - sigmoid(k, eval(data, p, params));
            d * d
        })
        .sum();
    sum / data.positions.len() as f64
}

/// The error with the engine's own integer evaluation (what the engine will really play).
pub fn integer_error(data: &Dataset, weights: &Weights, k: f64) -> f64 {
    if data.positions.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .positions
        .iter()
        .map(|p| {
            let d = p.target - sigmoid(k, data.integer_eval(p, weights) as f64);
            d * d
        })
        .sum();
    sum / data.positions.len() as f64
}

/// The gradient of [`error`] with respect to every parameter.
pub fn gradient(data: &Dataset, params: &[f64], k: f64) -> Params {
    let mut grad = vec![0.0; params.len()];
    if data.positions.is_empty() {
        return grad;
    }
    let n = data.positions.len() as f64;
    for p in &data.positions {
        let (e, mg_factor, eg_factor) = eval_parts(data, p, params);
        let s = sigmoid(k, e);
        // d/de (t - s)^2 = -2 (t - s) s (1 - s) k
        let de = -2.0 * (p.target - s) * s * (1.0 - s) * k / n;
        for &(index, count) in data.terms_of(p) {
            let i = 2 * index as usize;
            grad[i] += de * count as f64 * mg_factor;
            grad[i + 1] += de * count as f64 * eg_factor;
        }
    }
    grad
}

/// The penalty `l2 * sum((p - start)^2)`: a pull towards the starting weights, so that a
/// weight that few positions exercise cannot chase those positions' noise.
pub fn l2_penalty(params: &[f64], start: &[f64], l2: f64) -> f64 {
    l2 * params
        .iter()
        .zip(start)
        .map(|(p, s)| (p - s) * (p - s))
        .sum::<f64>()
}

/// Adds the gradient of [`l2_penalty`] to `grad`.
pub fn add_l2_gradient(grad: &mut [f64], params: &[f64], start: &[f64], l2: f64) {
    for ((g, p), s) in grad.iter_mut().zip(params).zip(start) {
        *g += 2.0 * l2 * (p - s);
    }
}

/// The `K` that minimises [`error`] for fixed `params`: a coarse scan, then a golden-section
/// search around the best point (the error is unimodal in `K` in practice).
pub fn fit_k(data: &Dataset, params: &[f64]) -> f64 {
    let mut best = (f64::INFINITY, 0.0);
    for i in 1..=100 {
        let k = i as f64 * 0.0005;
        let e = error(data, params, k);
        if e < best.0 {
            best = (e, k);
        }
    }
    let (mut lo, mut hi) = ((best.1 - 0.0005f64).max(1e-6), best.1 + 0.0005);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(data, params, a) < error(data, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// A way to follow the gradient.
pub trait Optimizer {
    /// One step against `grad`.
    fn step(&mut self, params: &mut [f64], grad: &[f64]);
    /// Multiplies the step size by `factor`.
    fn slow_down(&mut self, factor: f64);
}

/// Gradient descent with momentum. Unlike Adam it moves each weight in proportion to its
/// gradient, so a weight that few positions exercise moves little: on small data sets
/// that generalises better than Adam's equal-sized steps.
pub struct Momentum {
    /// Learning rate (the gradient is tiny: weights are centipawns, errors are squared
    /// probabilities, so rates are in the millions).
    pub rate: f64,
    velocity: Params,
}

impl Momentum {
    const BETA: f64 = 0.9;

    /// Fresh state for `len` parameters.
    pub fn new(len: usize, rate: f64) -> Momentum {
        Momentum {
            rate,
            velocity: vec![0.0; len],
        }
    }
}

impl Optimizer for Momentum {
    fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        for ((p, v), g) in params.iter_mut().zip(&mut self.velocity).zip(grad) {
            *v = Self::BETA * *v + g;
            *p -= self.rate * *v;
        }
    }

    fn slow_down(&mut self, factor: f64) {
        self.rate *= factor;
    }
}

/// Adam's state for one parameter vector.
pub struct Adam {
    /// Step size, in centipawns.
    pub rate: f64,
    m: Params,
    v: Params,
    t: i32,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    /// Fresh state for `len` parameters.
    pub fn new(len: usize, rate: f64) -> Adam {
        Adam {
            rate,
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
        }
    }
}

impl Optimizer for Adam {
    fn slow_down(&mut self, factor: f64) {
        self.rate *= factor;
    }

    fn step(&mut self, params: &mut [f64], grad: &[f64]) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..params.len() {
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * grad[i];
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * grad[i] * grad[i];
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            params[i] -= self.rate * m / (v.sqrt() + Self::EPSILON);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_engine::eval::HAND_WEIGHTS;

    fn tiny() -> Dataset {
        let text = "\
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4;1.0
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1;0.5
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1;0.0
6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1;1.0
8/5k2/3b4/3P4/2B5/5K2/8/8 b - - 0 1;0.5
2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP4/PPPQ1PPP/R1B2RK1 b - - 3 12;0.0
";
        let mut data = Dataset::default();
        assert!(data.extend_from_text(text).is_empty());
        data
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = tiny();
        let params = params_from(&HAND_WEIGHTS);
        let k = 0.006;
        let grad = gradient(&data, &params, k);
        let mut checked = 0;
        for (i, &g) in grad.iter().enumerate() {
            let h = 1e-3;
            let mut up = params.clone();
            up[i] += h;
            let mut down = params.clone();
            down[i] -= h;
            let numeric = (error(&data, &up, k) - error(&data, &down, k)) / (2.0 * h);
            assert!(
                (numeric - g).abs() <= 1e-9 + 1e-4 * g.abs(),
                "param {i}: analytic {g}, numeric {numeric}"
            );
            if g != 0.0 {
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} parameters were exercised");
    }

    #[test]
    fn l2_gradient_matches_finite_differences() {
        let start = params_from(&HAND_WEIGHTS);
        let params: Params = start
            .iter()
            .enumerate()
            .map(|(i, p)| p + (i % 5) as f64)
            .collect();
        let mut grad = vec![0.0; params.len()];
        add_l2_gradient(&mut grad, &params, &start, 0.01);
        for i in [0, 1, 7, 100, PARAM_COUNT - 1] {
            let h = 1e-3;
            let mut up = params.clone();
            up[i] += h;
            let mut down = params.clone();
            down[i] -= h;
            let numeric =
                (l2_penalty(&up, &start, 0.01) - l2_penalty(&down, &start, 0.01)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-8,
                "{i}: {numeric} vs {}",
                grad[i]
            );
        }
        assert_eq!(l2_penalty(&start, &start, 0.01), 0.0);
    }

    #[test]
    fn real_evaluation_matches_the_engine_before_rounding() {
        let data = tiny();
        let params = params_from(&HAND_WEIGHTS);
        for p in &data.positions {
            let exact = eval(&data, p, &params);
            let engine = data.integer_eval(p, &HAND_WEIGHTS) as f64;
            // The engine truncates twice (scale, then phase).
            assert!((exact - engine).abs() < 2.0, "{exact} vs {engine}");
        }
    }

    #[test]
    fn descent_lowers_the_error_and_k_fits() {
        let data = tiny();
        let mut params = params_from(&HAND_WEIGHTS);
        let k = fit_k(&data, &params);
        assert!(k > 0.0 && k < 0.06);
        // K is a minimum: nudging it either way does not help.
        let at = error(&data, &params, k);
        assert!(at <= error(&data, &params, k * 1.1) && at <= error(&data, &params, k * 0.9));
        let start = params.clone();
        let mut adam = Adam::new(params.len(), 1.0);
        for _ in 0..50 {
            let grad = gradient(&data, &params, k);
            adam.step(&mut params, &grad);
        }
        assert!(error(&data, &params, k) < at);
        let mut params = start;
        let mut momentum = Momentum::new(params.len(), 1e5);
        for _ in 0..50 {
            let grad = gradient(&data, &params, k);
            momentum.step(&mut params, &grad);
        }
        assert!(error(&data, &params, k) < at);
        assert_eq!(weights_from(&params_from(&HAND_WEIGHTS)), HAND_WEIGHTS);
    }
}
