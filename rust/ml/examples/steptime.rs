use pychess_core::{Board, Game};
use pychess_ml::batch::*;
use pychess_ml::encode::*;
use std::time::Instant;

fn main() {
    let n = 1024;
    for (obs, planes, mask) in [
        (ObservationKind::None, Planes::Native, MaskFormat::Bytes),
        (ObservationKind::None, Planes::Native, MaskFormat::Bits),
        (ObservationKind::AlphaZero, Planes::Packed, MaskFormat::Bits),
        (ObservationKind::AlphaZero, Planes::U8, MaskFormat::Bits),
        (ObservationKind::AlphaZero, Planes::F32, MaskFormat::Bits),
        (ObservationKind::PettingZoo, Planes::U8, MaskFormat::Bits),
    ] {
        let options = Options {
            observation: obs,
            planes,
            mask,
            ..Options::default()
        };
        let mut batch = Batch::new(n, Board::default(), options);
        let mut out = OutputBuffers::for_options(n, &options);
        batch.reset(out.outputs()).unwrap();
        let mut played = vec![0i64; n];
        for s in 0..20 {
            batch.step_random(s, &mut played, out.outputs()).unwrap();
        }
        let t = Instant::now();
        let steps = 100;
        for s in 0..steps {
            batch.step_random(s, &mut played, out.outputs()).unwrap();
        }
        let dt = t.elapsed().as_secs_f64();
        println!(
            "{obs:?} {planes:?} {mask:?}: {:.0} k plies/s ({:.2} us/ply)",
            (n as f64 * steps as f64) / dt / 1e3,
            dt / (n as f64 * steps as f64) * 1e6
        );
    }
    // Components on a set of midgame positions.
    let mut games = Vec::new();
    let mut rng = SplitMix64::new(3);
    let mut g = Game::default();
    while games.len() < 2000 {
        let moves = g.legal_moves().to_vec();
        if moves.is_empty() || g.outcome(false).is_some() {
            g = Game::default();
            continue;
        }
        g.play(moves[rng.below(moves.len())]);
        games.push(g.clone());
    }
    let mut words = [0u64; 119];
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..5 {
            for g in &games {
                alphazero_words(g, &mut words);
                std::hint::black_box(&words);
            }
        }
        println!(
            "alphazero_words: {:.3} us",
            t.elapsed().as_secs_f64() / 10000.0 * 1e6
        );
        let mut planes = vec![0u8; 7616];
        let t = Instant::now();
        for _ in 0..5 {
            for g in &games {
                alphazero_planes_into(g, &mut planes);
                std::hint::black_box(&planes);
            }
        }
        println!(
            "alphazero u8: {:.3} us",
            t.elapsed().as_secs_f64() / 10000.0 * 1e6
        );
        let mut planes = vec![0f32; 7616];
        let t = Instant::now();
        for _ in 0..5 {
            for g in &games {
                alphazero_planes_into(g, &mut planes);
                std::hint::black_box(&planes);
            }
        }
        println!(
            "alphazero f32: {:.3} us",
            t.elapsed().as_secs_f64() / 10000.0 * 1e6
        );
    }
    let mut best = f64::MAX;
    for _ in 0..10 {
        let t = Instant::now();
        let mut k = 0usize;
        for g in &games {
            let b = g.board();
            for &m in g.legal_moves() {
                k += try_action_of(b, m).unwrap_or(0);
            }
        }
        std::hint::black_box(k);
        best = best.min(t.elapsed().as_secs_f64() / games.len() as f64 * 1e6);
    }
    println!("index (min of 10): {best:.3} us/position");
    // The parts of a step, on one game played at random.
    let (mut t_play, mut t_legal, mut t_index, mut t_outcome) = (0.0, 0.0, 0.0, 0.0);
    let mut g = Game::default();
    let mut plies = 0;
    let mut legal: Vec<(u16, pychess_core::Move)> = Vec::new();
    for _ in 0..200000 {
        let moves = g.legal_moves();
        let m = moves[rng.below(moves.len())];
        let t = Instant::now();
        g.play(m);
        let t1 = Instant::now();
        let n = g.legal_moves().len();
        let t2 = Instant::now();
        legal.clear();
        let board = g.board();
        legal.extend(
            g.legal_moves()
                .iter()
                .filter_map(|&m| Some((try_action_of(board, m)? as u16, m))),
        );
        let t3 = Instant::now();
        let over = g.outcome(false).is_some();
        let t4 = Instant::now();
        t_play += (t1 - t).as_secs_f64();
        t_legal += (t2 - t1).as_secs_f64();
        t_index += (t3 - t2).as_secs_f64();
        t_outcome += (t4 - t3).as_secs_f64();
        plies += 1;
        if over || n == 0 {
            g = Game::default();
        }
    }
    let us = |x: f64| x / plies as f64 * 1e6;
    println!(
        "play {:.3} legal {:.3} index {:.3} outcome {:.3} us/ply",
        us(t_play),
        us(t_legal),
        us(t_index),
        us(t_outcome)
    );
}
