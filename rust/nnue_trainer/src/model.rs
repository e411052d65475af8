//! The float network the trainer fits, its gradient, the optimiser, and quantisation to the
//! engine's integer network.
//!
//! All parameters live in one vector, `[feature weights (768 x N, input-major) | feature
//! biases (N) | output weights (B heads of 2N, the side to move's half first) | output
//! biases (B)]`, so that gradients, Adam's moments and the clipping are plain loops over
//! one slice. A position is scored by the head its piece count names (the engine's
//! `output_bucket`), so only that head learns from it.
//!
//! The float network's output `o` is the evaluation in units of `SCALE` centipawns; the
//! loss of a position is `(sigmoid(o) - target)^2` with
//! `target = (1 - wdl) * sigmoid(score / SCALE) + wdl * result`.

use crate::data::{mirrored, Inputs, NO_INPUT};
use pychess_engine::nnue::{
    output_bucket, Activation, Network, NetworkError, INPUTS, MAX_BUCKETS, MAX_HIDDEN, QA, QB,
    SCALE,
};
use pychess_ml::batch::SplitMix64;

/// Every weight is kept in `[-CLIP, CLIP]`: 32 inputs of 1.98 x 255 plus a bias stay below
/// 32,767, so the engine's 16-bit accumulator cannot overflow.
pub const CLIP: f32 = 1.98;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a position: its score's win probability blended with its game's
/// result.
#[inline]
pub fn target(score: f32, result: f32, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(score / SCALE as f32) + wdl * result
}

/// Where each part of the parameter vector starts, for hidden width `N` and `B` heads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `N`.
    pub hidden: usize,
    /// `B`, the output heads.
    pub buckets: usize,
}

impl Layout {
    /// The feature biases' offset.
    pub fn feature_bias(self) -> usize {
        INPUTS * self.hidden
    }
    /// The output weights' offset.
    pub fn output_weights(self) -> usize {
        self.feature_bias() + self.hidden
    }
    /// The first of head `bucket`'s `2N` output weights.
    pub fn head(self, bucket: usize) -> usize {
        self.output_weights() + 2 * self.hidden * bucket
    }
    /// The output biases' offset.
    pub fn output_bias(self) -> usize {
        self.head(self.buckets)
    }
    /// Parameters in all.
    pub fn len(self) -> usize {
        self.output_bias() + self.buckets
    }
    /// Never: a network has at least its output bias.
    pub fn is_empty(self) -> bool {
        false
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Its shape.
    pub layout: Layout,
    /// The hidden layer's activation (the engine's file version records it).
    pub activation: Activation,
    /// Every parameter, laid out as [`Layout`] says.
    pub params: Vec<f32>,
}

/// Per-position working memory for [`FloatNetwork::forward`] and the gradient.
#[derive(Clone, Debug)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
}

impl Scratch {
    /// Room for a network of width `hidden`.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
        }
    }
}

/// A standard normal number (Box-Muller).
fn normal(rng: &mut SplitMix64) -> f32 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

impl FloatNetwork {
    /// A network of width `hidden` with random weights from `rng`: feature weights of
    /// spread `1/sqrt(32)` (about 30 inputs are on), output weights `1/sqrt(2N)`, biases 0.
    pub fn new(hidden: usize, rng: &mut SplitMix64) -> FloatNetwork {
        let layout = Layout { hidden, buckets: 1 };
        let mut params = vec![0.0; layout.len()];
        let spread = 1.0 / 32f32.sqrt();
        for w in &mut params[..layout.feature_bias()] {
            *w = normal(rng) * spread;
        }
        let spread = 1.0 / (2.0 * hidden as f32).sqrt();
        for w in &mut params[layout.output_weights()..layout.output_bias()] {
            *w = normal(rng) * spread;
        }
        FloatNetwork {
            layout,
            activation: Activation::ClippedRelu,
            params,
        }
    }

    /// The float network an engine network was quantised from, up to rounding: the
    /// inverse of [`FloatNetwork::quantised`], so that training can go on from a shipped
    /// network.
    ///
    /// # Errors
    /// For a network whose scales are not the trainer's ([`QA`], [`QB`], [`SCALE`]).
    pub fn from_network(net: &Network) -> Result<FloatNetwork, String> {
        if net.scales() != (QA, QB, SCALE) {
            return Err(format!(
                "the network's scales (QA, QB, SCALE) are {:?}, not the trainer's {:?}",
                net.scales(),
                (QA, QB, SCALE)
            ));
        }
        let (feature_weights, feature_bias, output_weights, output_bias) = net.weights();
        fn scaled(values: &[i16], scale: i32) -> impl Iterator<Item = f32> + '_ {
            values.iter().map(move |&v| f32::from(v) / scale as f32)
        }
        let params = scaled(feature_weights, QA)
            .chain(scaled(feature_bias, QA))
            .chain(scaled(output_weights, QB))
            .chain(output_bias.iter().map(|&b| b as f32 / (QA * QB) as f32))
            .collect();
        Ok(FloatNetwork {
            layout: Layout {
                hidden: net.hidden(),
                buckets: net.buckets(),
            },
            activation: net.activation(),
            params,
        })
    }

    /// The same network with another activation.
    #[must_use]
    pub fn with_activation(mut self, activation: Activation) -> FloatNetwork {
        self.activation = activation;
        self
    }

    /// The same network with `buckets` output heads, each a copy of its one head (so that
    /// it evaluates as before and training then lets the heads part ways).
    ///
    /// # Errors
    /// For a count outside `1..=MAX_BUCKETS`, or a network that already has several heads
    /// and not that many.
    pub fn with_buckets(self, buckets: usize) -> Result<FloatNetwork, String> {
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!("output buckets must be in 1..={MAX_BUCKETS}"));
        }
        let l = self.layout;
        if l.buckets == buckets {
            return Ok(self);
        }
        if l.buckets != 1 {
            return Err(format!(
                "the network has {} output buckets, not {buckets}",
                l.buckets
            ));
        }
        let layout = Layout { buckets, ..l };
        let mut params = self.params[..l.output_weights()].to_vec();
        for _ in 0..buckets {
            params.extend_from_slice(&self.params[l.head(0)..l.output_bias()]);
        }
        params.resize(params.len() + buckets, self.params[l.output_bias()]);
        Ok(FloatNetwork {
            layout,
            params,
            ..self
        })
    }

    /// The same network `hidden` wide: its own neurons first, then new ones with random
    /// feature weights (drawn as [`FloatNetwork::new`] draws them), zero biases and zero
    /// output weights. It evaluates exactly as before; training then gives the new
    /// neurons their say (their output weights' gradients are not zero), so a network can
    /// grow without losing what it knows.
    ///
    /// # Errors
    /// For a width above `MAX_HIDDEN` or below the network's own.
    pub fn with_hidden(self, hidden: usize, rng: &mut SplitMix64) -> Result<FloatNetwork, String> {
        let l = self.layout;
        if hidden > MAX_HIDDEN {
            return Err(format!("the hidden width must be at most {MAX_HIDDEN}"));
        }
        if hidden < l.hidden {
            return Err(format!(
                "the network is {} wide; it can grow, not shrink to {hidden}",
                l.hidden
            ));
        }
        let layout = Layout { hidden, ..l };
        let added = hidden - l.hidden;
        let spread = 1.0 / 32f32.sqrt();
        let mut params = Vec::with_capacity(layout.len());
        for row in self.params[..l.feature_bias()].chunks_exact(l.hidden) {
            params.extend_from_slice(row);
            params.extend((0..added).map(|_| normal(rng) * spread));
        }
        params.extend_from_slice(&self.params[l.feature_bias()..l.output_weights()]);
        params.resize(params.len() + added, 0.0);
        for half in self.params[l.output_weights()..l.output_bias()].chunks_exact(l.hidden) {
            params.extend_from_slice(half);
            params.resize(params.len() + added, 0.0);
        }
        params.extend_from_slice(&self.params[l.output_bias()..]);
        debug_assert_eq!(params.len(), layout.len());
        Ok(FloatNetwork {
            layout,
            params,
            ..self
        })
    }

    /// The head a position with these inputs (one per piece) is scored by.
    #[inline]
    pub fn bucket(&self, us: &Inputs) -> usize {
        let pieces = us.iter().take_while(|&&i| i != NO_INPUT).count();
        output_bucket(pieces, self.layout.buckets)
    }

    /// The activation of an accumulator value `a`, and its derivative.
    #[inline]
    fn activate(&self, a: f32) -> (f32, f32) {
        let inside = a > 0.0 && a < 1.0;
        let c = a.clamp(0.0, 1.0);
        match self.activation {
            Activation::ClippedRelu => (c, if inside { 1.0 } else { 0.0 }),
            Activation::SquaredClippedRelu => (c * c, if inside { 2.0 * c } else { 0.0 }),
        }
    }

    /// The accumulators of both perspectives into `scratch` (mirrored a<->h if `mirror`),
    /// and the output `o`.
    pub fn forward(&self, us: &Inputs, them: &Inputs, mirror: bool, scratch: &mut Scratch) -> f32 {
        let l = self.layout;
        let n = l.hidden;
        let bias = &self.params[l.feature_bias()..l.output_weights()];
        for (acc, inputs) in [(&mut scratch.us, us), (&mut scratch.them, them)] {
            acc.copy_from_slice(bias);
            for &input in inputs.iter().take_while(|&&i| i != NO_INPUT) {
                let input = usize::from(if mirror { mirrored(input) } else { input });
                let row = &self.params[input * n..(input + 1) * n];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
        }
        let bucket = self.bucket(us);
        let out = &self.params[l.head(bucket)..l.head(bucket + 1)];
        let dot = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter()
                .zip(w)
                .map(|(&a, w)| self.activate(a).0 * w)
                .sum::<f32>()
        };
        dot(&scratch.us, &out[..n])
            + dot(&scratch.them, &out[n..])
            + self.params[l.output_bias() + bucket]
    }

    /// The evaluation in centipawns from the side to move's point of view.
    pub fn evaluate(&self, us: &Inputs, them: &Inputs, scratch: &mut Scratch) -> f32 {
        self.forward(us, them, false, scratch) * SCALE as f32
    }

    /// Adds `weight` times the gradient of the position's loss `(sigmoid(o) - goal)^2` to
    /// `grad` (a parameter-shaped vector); returns the loss.
    pub fn add_gradient(
        &self,
        (us, them, mirror): (&Inputs, &Inputs, bool),
        goal: f32,
        weight: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let l = self.layout;
        let n = l.hidden;
        let o = self.forward(us, them, mirror, scratch);
        let s = sigmoid(o);
        let err = s - goal;
        let d_out = weight * 2.0 * err * s * (1.0 - s);
        let bucket = self.bucket(us);
        let head = l.head(bucket);
        let out = &self.params[head..head + 2 * n];
        grad[l.output_bias() + bucket] += d_out;
        // Each perspective: the output weights' gradient, then the accumulator's (zero where
        // the activation is flat), which flows into the bias and each active input's row.
        for (half, acc, inputs) in [(0, &mut scratch.us, us), (1, &mut scratch.them, them)] {
            let w = &out[half * n..(half + 1) * n];
            let g_out = &mut grad[head + half * n..head + (half + 1) * n];
            for ((g, a), w) in g_out.iter_mut().zip(acc.iter_mut()).zip(w) {
                let (value, slope) = self.activate(*a);
                *g += d_out * value;
                // Reuse the accumulator's memory for its gradient.
                *a = d_out * w * slope;
            }
            let g_bias = &mut grad[l.feature_bias()..l.output_weights()];
            g_bias.iter_mut().zip(acc.iter()).for_each(|(g, d)| *g += d);
            for &input in inputs.iter().take_while(|&&i| i != NO_INPUT) {
                let input = usize::from(if mirror { mirrored(input) } else { input });
                let row = &mut grad[input * n..(input + 1) * n];
                row.iter_mut().zip(acc.iter()).for_each(|(g, d)| *g += d);
            }
        }
        err * err
    }

    /// The engine's integer network: feature weights and biases times `QA`, output weights
    /// times `QB`, the output biases times `QA * QB`, rounded; the same activation and heads.
    ///
    /// # Errors
    /// Only for a width the engine refuses (above `MAX_HIDDEN`).
    pub fn quantised(&self) -> Result<Network, NetworkError> {
        let l = self.layout;
        let q = |values: &[f32], scale: i32| -> Vec<i16> {
            values
                .iter()
                .map(|v| (v * scale as f32).round().clamp(-32768.0, 32767.0) as i16)
                .collect()
        };
        Network::from_bucketed_weights(
            l.hidden,
            l.buckets,
            q(&self.params[..l.feature_bias()], QA),
            q(&self.params[l.feature_bias()..l.output_weights()], QA),
            q(&self.params[l.output_weights()..l.output_bias()], QB),
            self.params[l.output_bias()..]
                .iter()
                .map(|b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        )
        .map(|net| net.with_activation(self.activation))
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// One step of Adam (Kingma and Ba, 2015; the usual betas) on `params` with gradient `grad`
/// and the moments `m`, `v` of the same parameters, at step number `t` (from 1), learning
/// rate `lr`; then every weight is clipped to `[-CLIP, CLIP]`. Called on disjoint parts of
/// the parameters from several threads.
pub fn adam_update(
    params: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    grad: impl Iterator<Item = f32>,
    t: i32,
    lr: f32,
) {
    let correct1 = 1.0 - BETA1.powi(t);
    let correct2 = 1.0 - BETA2.powi(t);
    for (((p, m), v), g) in params.iter_mut().zip(m).zip(v).zip(grad) {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        let step = lr * (*m / correct1) / ((*v / correct2).sqrt() + EPSILON);
        *p = (*p - step).clamp(-CLIP, CLIP);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Positions;
    use pychess_core::Board;

    const FENS: [&str; 4] = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ];

    fn positions() -> Positions {
        let mut positions = Positions::default();
        for (fen, score) in FENS.iter().zip([30.0, -20.0, 250.0, 0.0]) {
            positions.push(&Board::from_fen(fen, false).unwrap(), score, 0.5);
        }
        positions
    }

    fn loss(net: &FloatNetwork, positions: &Positions, mirror: bool) -> f64 {
        let mut scratch = Scratch::new(net.layout.hidden);
        (0..positions.len())
            .map(|i| {
                let o = net.forward(positions.us(i), positions.them(i), mirror, &mut scratch);
                let goal = target(positions.score(i), positions.result(i), 0.3);
                f64::from((sigmoid(o) - goal).powi(2))
            })
            .sum()
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        for activation in Activation::ALL {
            for buckets in [1, 4] {
                gradient_matches_finite_differences(activation, buckets);
            }
        }
    }

    fn gradient_matches_finite_differences(activation: Activation, buckets: usize) {
        let positions = positions();
        let mut net = FloatNetwork::new(8, &mut SplitMix64::new(5))
            .with_activation(activation)
            .with_buckets(buckets)
            .unwrap();
        // Biases that put some accumulators inside the activation's slope.
        let l = net.layout;
        net.params[l.feature_bias()..l.output_weights()].fill(0.4);
        for mirror in [false, true] {
            let mut grad = vec![0.0; l.len()];
            let mut scratch = Scratch::new(8);
            for i in 0..positions.len() {
                let goal = target(positions.score(i), positions.result(i), 0.3);
                let inputs = (positions.us(i), positions.them(i), mirror);
                net.add_gradient(inputs, goal, 1.0, &mut grad, &mut scratch);
            }
            // Every output weight, every bias and the rows of a few active inputs.
            let first = usize::from(if mirror {
                mirrored(positions.us(0)[0])
            } else {
                positions.us(0)[0]
            });
            let mut checked = 0;
            let indices = (first * 8..first * 8 + 8).chain(l.feature_bias()..l.len());
            for k in indices {
                let h = 1e-3f32;
                let mut plus = net.clone();
                plus.params[k] += h;
                let mut minus = net.clone();
                minus.params[k] -= h;
                let numeric = (loss(&plus, &positions, mirror) - loss(&minus, &positions, mirror))
                    / (2.0 * f64::from(h));
                let analytic = f64::from(grad[k]);
                assert!(
                    (numeric - analytic).abs() <= 2e-3 * numeric.abs().max(analytic.abs()) + 2e-5,
                    "{activation:?} {buckets} heads, parameter {k} (mirror {mirror}): numeric \
                     {numeric}, analytic {analytic}"
                );
                checked += usize::from(analytic != 0.0);
            }
            assert!(checked > 8, "too few non-zero gradients checked: {checked}");
        }
    }

    #[test]
    fn the_quantised_network_evaluates_like_the_float_one() {
        let positions = positions();
        for (activation, buckets) in Activation::ALL.into_iter().zip([1, 8]) {
            let mut net = FloatNetwork::new(32, &mut SplitMix64::new(11))
                .with_activation(activation)
                .with_buckets(buckets)
                .unwrap();
            let l = net.layout;
            net.params[l.feature_bias()..l.output_weights()].fill(0.3);
            // Heads that differ, so that choosing the wrong one shows.
            let mut rng = SplitMix64::new(12);
            for w in &mut net.params[l.head(1)..l.output_bias()] {
                *w += 0.05 * normal(&mut rng);
            }
            for (b, bias) in net.params[l.output_bias()..].iter_mut().enumerate() {
                *bias = 0.05 + 0.1 * b as f32;
            }
            let engine = net.quantised().unwrap();
            assert_eq!(engine.buckets(), buckets);
            assert_eq!(engine.activation(), activation);
            let mut scratch = Scratch::new(32);
            for (i, fen) in FENS.iter().enumerate() {
                let float = net.evaluate(positions.us(i), positions.them(i), &mut scratch);
                let integer = engine.evaluate(&Board::from_fen(fen, false).unwrap()) as f32;
                // Squaring doubles the accumulators' rounding error where they are near 1.
                let tolerance = match activation {
                    Activation::ClippedRelu => 6.0,
                    Activation::SquaredClippedRelu => 10.0,
                };
                assert!(
                    (float - integer).abs() <= tolerance && float.abs() > 20.0,
                    "{activation:?} {fen}: float {float}, engine {integer}"
                );
            }
        }
    }

    #[test]
    fn a_network_read_back_quantises_to_itself() {
        for (activation, buckets) in Activation::ALL.into_iter().zip([1, 8]) {
            let net = FloatNetwork::new(16, &mut SplitMix64::new(3))
                .with_activation(activation)
                .with_buckets(buckets)
                .unwrap();
            let engine = net.quantised().unwrap();
            let back = FloatNetwork::from_network(&engine).unwrap();
            assert_eq!(back.activation, activation);
            assert_eq!(back.layout, net.layout);
            let worst = net
                .params
                .iter()
                .zip(&back.params)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            // Half a quantisation step of the coarsest scale, QB.
            assert!(worst <= 0.5 / QB as f32 + 1e-6, "{worst}");
            assert_eq!(back.quantised().unwrap(), engine);
        }
        let mut other = FloatNetwork::new(4, &mut SplitMix64::new(3))
            .quantised()
            .unwrap()
            .to_bytes();
        other[16] = 32; // QB
        let other = Network::from_bytes(&other).unwrap();
        assert!(FloatNetwork::from_network(&other)
            .unwrap_err()
            .contains("scales"));
    }

    #[test]
    fn spreading_one_head_over_several_keeps_the_evaluation() {
        let positions = positions();
        let one = FloatNetwork::new(8, &mut SplitMix64::new(7));
        let eight = one.clone().with_buckets(8).unwrap();
        assert_eq!(eight.layout.buckets, 8);
        assert_eq!(eight.params.len(), eight.layout.len());
        let mut scratch = Scratch::new(8);
        let heads: Vec<usize> = (0..positions.len())
            .map(|i| eight.bucket(positions.us(i)))
            .collect();
        assert_eq!(heads, [7, 0, 2, 7]);
        for i in 0..positions.len() {
            let (us, them) = (positions.us(i), positions.them(i));
            assert_eq!(
                one.forward(us, them, false, &mut scratch),
                eight.forward(us, them, false, &mut scratch)
            );
        }
        assert_eq!(eight.clone().with_buckets(8).unwrap(), eight);
        assert!(eight
            .clone()
            .with_buckets(4)
            .unwrap_err()
            .contains("8 output buckets"));
        assert!(one.with_buckets(17).is_err());
    }

    #[test]
    fn growing_the_hidden_layer_keeps_the_evaluation() {
        let positions = positions();
        for (activation, buckets) in [
            (Activation::ClippedRelu, 1),
            (Activation::SquaredClippedRelu, 3),
        ] {
            let narrow = FloatNetwork::new(8, &mut SplitMix64::new(7))
                .with_activation(activation)
                .with_buckets(buckets)
                .unwrap();
            let wide = narrow
                .clone()
                .with_hidden(12, &mut SplitMix64::new(8))
                .unwrap();
            assert_eq!(wide.layout.hidden, 12);
            assert_eq!(wide.params.len(), wide.layout.len());
            // The new neurons have weights of their own, so they are not dead.
            assert!(wide.params[8..12].iter().all(|&w| w != 0.0));
            let (mut narrow_scratch, mut wide_scratch) = (Scratch::new(8), Scratch::new(12));
            for i in 0..positions.len() {
                let (us, them) = (positions.us(i), positions.them(i));
                for mirror in [false, true] {
                    let before = narrow.forward(us, them, mirror, &mut narrow_scratch);
                    let after = wide.forward(us, them, mirror, &mut wide_scratch);
                    assert!((before - after).abs() < 1e-5, "{before} against {after}");
                }
            }
            // And so does the engine's integer network made from it.
            let (small, big) = (narrow.quantised().unwrap(), wide.quantised().unwrap());
            assert_eq!(big.hidden(), 12);
            for fen in FENS {
                let board = Board::from_fen(fen, false).unwrap();
                assert_eq!(small.evaluate(&board), big.evaluate(&board));
            }
        }
        let net = FloatNetwork::new(8, &mut SplitMix64::new(7));
        assert_eq!(
            net.clone().with_hidden(8, &mut SplitMix64::new(1)).unwrap(),
            net
        );
        assert!(net
            .clone()
            .with_hidden(4, &mut SplitMix64::new(1))
            .unwrap_err()
            .contains("8 wide"));
        assert!(net
            .with_hidden(MAX_HIDDEN + 1, &mut SplitMix64::new(1))
            .is_err());
    }

    #[test]
    fn adam_moves_against_the_gradient_and_clips() {
        let mut params = vec![0.0, 1.98, -1.0];
        let (mut m, mut v) = (vec![0.0; 3], vec![0.0; 3]);
        adam_update(
            &mut params,
            &mut m,
            &mut v,
            [1.0, -1.0, 0.0].into_iter(),
            1,
            0.01,
        );
        // The first step of Adam is lr * sign(g).
        assert!((params[0] + 0.01).abs() < 1e-6, "{params:?}");
        assert_eq!(params[1], CLIP);
        assert_eq!(params[2], -1.0);
    }
}
