//! Epochs of shuffled mini-batches: each batch is split over threads, each thread adds its
//! positions' gradients into its own buffer, and the Adam step sums the buffers and updates
//! disjoint parts of the parameters on the same threads.
//!
//! Reproducible: the seed gives the initial weights and every epoch's order, and the
//! buffers are summed in thread order, so a seed and a thread count give the same network
//! bit for bit (another thread count adds in another order: the same network up to
//! rounding).

use crate::data::Positions;
use crate::model::{adam_update, sigmoid, target, FloatNetwork, Scratch};
use pychess_engine::nnue::{Activation, MAX_BUCKETS};
use pychess_ml::batch::parallel::for_chunks;
use pychess_ml::batch::SplitMix64;
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `N`, the hidden width per perspective.
    pub hidden: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Output heads, chosen by piece count (clamped to `1..=MAX_BUCKETS`; the command
    /// line refuses a count outside).
    pub buckets: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Adam's learning rate at the first epoch.
    pub lr: f32,
    /// The learning rate is multiplied by this after every epoch.
    pub lr_decay: f32,
    /// The game result's weight in the target (`lambda`).
    pub wdl: f32,
    /// Also train on every training position mirrored a<->h.
    pub mirror: bool,
    /// Initial weights and batch order.
    pub seed: u64,
    /// Threads (at least one is used).
    pub threads: usize,
    /// Train on from this network instead of random weights (its width, activation and
    /// heads override `hidden`, `activation` and `buckets`).
    pub init: Option<FloatNetwork>,
    /// After every step each weight moves `anchor * lr` of its distance back towards its
    /// starting value (0: off). Training on from `init` with new data alone, this keeps the
    /// network near what it learned before instead of letting the new data replace it.
    pub anchor: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hidden: 128,
            activation: Activation::ClippedRelu,
            buckets: 1,
            epochs: 10,
            batch: 1024,
            lr: 0.001,
            lr_decay: 1.0,
            wdl: 0.25,
            mirror: false,
            seed: 0,
            threads: 1,
            init: None,
            anchor: 0.0,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Epoch {
    /// From 1; epoch 0 is the untrained network.
    pub epoch: usize,
    /// Mean loss over the epoch's batches as they were trained (epoch 0: over the
    /// training positions).
    pub train_loss: f64,
    /// Mean loss over the held-out positions after the epoch.
    pub validation_loss: f64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// What [`train`] reports as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Before the first epoch.
    Start {
        /// Training samples an epoch (mirror images included).
        samples: usize,
        /// Held-out positions.
        validation: usize,
        /// The untrained network's figures.
        before: Epoch,
    },
    /// Part of an epoch done.
    Progress {
        /// The epoch.
        epoch: usize,
        /// Samples trained so far this epoch.
        done: usize,
        /// Samples an epoch.
        samples: usize,
    },
    /// An epoch finished.
    Finished(Epoch),
}

/// Mean loss of `net` over `positions` (no mirror images), on `threads` threads.
pub fn mean_loss(net: &FloatNetwork, positions: &Positions, wdl: f32, threads: usize) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let per = positions.len().div_ceil(threads.max(1) * 4);
    let mut parts: Vec<(usize, f64)> = (0..positions.len())
        .step_by(per)
        .map(|s| (s, 0.0))
        .collect();
    for_chunks(threads, &mut parts[..], |_, chunk| {
        let mut scratch = Scratch::new(net.layout.hidden);
        for (start, total) in chunk.iter_mut() {
            for i in *start..(*start + per).min(positions.len()) {
                let o = net.forward(positions.us(i), positions.them(i), false, &mut scratch);
                let goal = target(positions.score(i), positions.result(i), wdl);
                *total += f64::from((sigmoid(o) - goal).powi(2));
            }
        }
    });
    parts.iter().map(|(_, total)| total).sum::<f64>() / positions.len() as f64
}

/// A range of the parameters for one thread's Adam step: its first index, the parameters
/// and their two moments.
type ParameterPart<'a> = (usize, &'a mut [f32], &'a mut [f32], &'a mut [f32]);

/// A thread's gradient buffer and working memory.
struct Worker {
    grad: Vec<f32>,
    scratch: Scratch,
    loss: f64,
}

/// Fisher-Yates with `rng`.
fn shuffle(order: &mut [u32], rng: &mut SplitMix64) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

/// Trains a network on `training`, measuring it on `validation` after every epoch; reports
/// through `on_event`. Returns the network and every epoch's figures.
pub fn train(
    training: &Positions,
    validation: &Positions,
    settings: &Settings,
    mut on_event: impl FnMut(&Event),
) -> (FloatNetwork, Vec<Epoch>) {
    let threads = settings.threads.max(1);
    let mut rng = SplitMix64::new(settings.seed);
    let mut net = match &settings.init {
        Some(init) => init.clone(),
        None => FloatNetwork::new(settings.hidden, &mut rng)
            .with_activation(settings.activation)
            .with_buckets(settings.buckets.clamp(1, MAX_BUCKETS))
            .expect("a count within 1..=MAX_BUCKETS"),
    };
    let len = net.layout.len();
    // The weights the anchor pulls towards, kept only when it is on.
    let origin = (settings.anchor > 0.0).then(|| net.params.clone());
    let goals: Vec<f32> = (0..training.len())
        .map(|i| target(training.score(i), training.result(i), settings.wdl))
        .collect();
    // Samples 0..M are the positions, M..2M their mirror images.
    let positions = training.len();
    let samples = if settings.mirror {
        2 * positions
    } else {
        positions
    };
    let mut order: Vec<u32> = (0..samples as u32).collect();
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker {
            grad: vec![0.0; len],
            scratch: Scratch::new(net.layout.hidden),
            loss: 0.0,
        })
        .collect();
    let (mut m, mut v) = (vec![0.0f32; len], vec![0.0f32; len]);
    let mut step = 0;
    let mut lr = settings.lr;
    let started = Instant::now();
    on_event(&Event::Start {
        samples,
        validation: validation.len(),
        before: Epoch {
            epoch: 0,
            train_loss: mean_loss(&net, training, settings.wdl, threads),
            validation_loss: mean_loss(&net, validation, settings.wdl, threads),
            seconds: started.elapsed().as_secs_f64(),
        },
    });
    let batch_size = settings.batch.max(1);
    let mut epochs = Vec::with_capacity(settings.epochs);
    for epoch in 1..=settings.epochs {
        let started = Instant::now();
        shuffle(&mut order, &mut rng);
        let mut epoch_loss = 0.0;
        for (b, batch) in order.chunks(batch_size).enumerate() {
            let weight = 1.0 / batch.len() as f32;
            let per = batch.len().div_ceil(threads);
            let net_ref = &net;
            for_chunks(threads, &mut workers[..], |first, chunk| {
                for (k, worker) in chunk.iter_mut().enumerate() {
                    worker.grad.fill(0.0);
                    worker.loss = 0.0;
                    let from = ((first + k) * per).min(batch.len());
                    let to = (from + per).min(batch.len());
                    for &sample in &batch[from..to] {
                        let sample = sample as usize;
                        let (i, mirror) = (sample % positions, sample >= positions);
                        let inputs = (training.us(i), training.them(i), mirror);
                        worker.loss += f64::from(net_ref.add_gradient(
                            inputs,
                            goals[i],
                            weight,
                            &mut worker.grad,
                            &mut worker.scratch,
                        ));
                    }
                }
            });
            epoch_loss += workers.iter().map(|w| w.loss).sum::<f64>();
            step += 1;
            let part = len.div_ceil(threads);
            let mut parts: Vec<ParameterPart> = net
                .params
                .chunks_mut(part)
                .zip(m.chunks_mut(part))
                .zip(v.chunks_mut(part))
                .enumerate()
                .map(|(k, ((p, m), v))| (k * part, p, m, v))
                .collect();
            let workers = &workers;
            let (origin, pull) = (origin.as_deref(), (settings.anchor * lr).min(1.0));
            for_chunks(threads, &mut parts[..], |_, chunk| {
                for (start, p, m, v) in chunk.iter_mut() {
                    let start = *start;
                    let grad = (start..start + p.len())
                        .map(|j| workers.iter().map(|w| w.grad[j]).sum::<f32>());
                    adam_update(p, m, v, grad, step, lr);
                    if let Some(origin) = origin {
                        for (p, o) in p.iter_mut().zip(&origin[start..]) {
                            *p -= pull * (*p - o);
                        }
                    }
                }
            });
            if b % 256 == 255 {
                on_event(&Event::Progress {
                    epoch,
                    done: ((b + 1) * batch_size).min(samples),
                    samples,
                });
            }
        }
        lr *= settings.lr_decay;
        let figures = Epoch {
            epoch,
            train_loss: epoch_loss / samples.max(1) as f64,
            validation_loss: mean_loss(&net, validation, settings.wdl, threads),
            seconds: started.elapsed().as_secs_f64(),
        };
        on_event(&Event::Finished(figures.clone()));
        epochs.push(figures);
    }
    (net, epochs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::Board;

    /// Positions from random games, scored by material (pawn 100, minor 300, rook 500,
    /// queen 900) from the side to move's view: a target a 768-input network can fit.
    fn material_positions(games: u64, seed: u64) -> Positions {
        scaled_material_positions(games, seed, 1.0)
    }

    /// The same with every score multiplied by `scale`.
    fn scaled_material_positions(games: u64, seed: u64, scale: f32) -> Positions {
        let mut positions = Positions::default();
        let values = [100.0, 300.0, 300.0, 500.0, 900.0, 0.0];
        for game in 0..games {
            let mut rng = SplitMix64::new(seed * 1000 + game);
            let mut board = Board::default();
            for _ in 0..80 {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board = board.after(moves[rng.below(moves.len())]);
                let material = |color| {
                    pychess_core::Role::ALL
                        .iter()
                        .map(|&r| board.pieces(color, r).count() as f32 * values[r.index()])
                        .sum::<f32>()
                };
                let score = material(board.turn()) - material(!board.turn());
                positions.push(&board, scale * score, 0.5);
            }
        }
        positions
    }

    fn settings(threads: usize) -> Settings {
        Settings {
            hidden: 16,
            epochs: 6,
            batch: 128,
            lr: 0.01,
            wdl: 0.0,
            mirror: true,
            seed: 3,
            threads,
            ..Settings::default()
        }
    }

    #[test]
    fn training_learns_material_and_is_reproducible() {
        let training = material_positions(300, 1);
        let validation = material_positions(40, 2);
        let mut events = 0;
        let (net, epochs) = train(&training, &validation, &settings(2), |_| events += 1);
        assert_eq!(epochs.len(), 6);
        assert!(events >= 5);
        let before = mean_loss(
            &FloatNetwork::new(16, &mut SplitMix64::new(3)),
            &validation,
            0.0,
            1,
        );
        let after = epochs[5].validation_loss;
        assert!(after < before / 10.0, "validation loss {before} -> {after}");
        // A queen up is worth most of a queen to the network.
        let board = Board::from_fen("3qk3/8/8/8/8/8/8/3QK2Q w - - 0 1", false).unwrap();
        let mut one = Positions::default();
        one.push(&board, 0.0, 0.5);
        let eval = net.evaluate(one.us(0), one.them(0), &mut Scratch::new(16));
        assert!(eval > 300.0, "a queen up evaluates as {eval}");
        // Same seed and threads: the same bits. Another thread count adds in another order:
        // another network, as good.
        let (again, _) = train(&training, &validation, &settings(2), |_| {});
        assert_eq!(again, net);
        let (_, one_thread) = train(&training, &validation, &settings(1), |_| {});
        let alone = one_thread[5].validation_loss;
        assert!(
            alone < before / 10.0,
            "one thread: validation loss {before} -> {alone}"
        );
    }

    #[test]
    fn training_goes_on_from_an_initial_network() {
        let training = material_positions(300, 1);
        let validation = material_positions(40, 2);
        let short = Settings {
            epochs: 2,
            ..settings(2)
        };
        let (first, epochs) = train(&training, &validation, &short, |_| {});
        // Start where the first run ended, at a tenth of its rate, a width the settings
        // do not say: the start is the given network and training improves on it.
        let on = Settings {
            hidden: 64,
            lr: 0.001,
            init: Some(first.clone()),
            ..short
        };
        let mut start = None;
        let (next, more) = train(&training, &validation, &on, |event| {
            if let Event::Start { before, .. } = event {
                start = Some(before.validation_loss);
            }
        });
        assert_eq!(start, Some(mean_loss(&first, &validation, 0.0, 2)));
        assert_eq!(next.layout, first.layout);
        assert!(
            more[1].validation_loss < epochs[1].validation_loss,
            "{} then {}",
            epochs[1].validation_loss,
            more[1].validation_loss
        );
    }

    #[test]
    fn an_anchor_keeps_training_near_its_start() {
        let training = material_positions(300, 1);
        let validation = material_positions(40, 2);
        let (first, _) = train(&training, &validation, &settings(2), |_| {});
        // New data with another target (material doubled): free training follows it; an
        // anchored run moves less far from where it started, and still moves.
        let doubled = scaled_material_positions(300, 5, 2.0);
        let on = |anchor| Settings {
            epochs: 2,
            lr: 0.001,
            init: Some(first.clone()),
            anchor,
            ..settings(2)
        };
        let distance = |net: &FloatNetwork| {
            net.params
                .iter()
                .zip(&first.params)
                .map(|(a, b)| f64::from(a - b).powi(2))
                .sum::<f64>()
        };
        let (free, _) = train(&doubled, &validation, &on(0.0), |_| {});
        let (held, _) = train(&doubled, &validation, &on(50.0), |_| {});
        let (free, held) = (distance(&free), distance(&held));
        assert!(held > 0.0, "the anchored network did not move");
        assert!(held < free / 2.0, "anchored {held}, free {free}");
    }
}
