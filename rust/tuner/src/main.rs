//! `pychess-tuner`: fits the evaluation weights to labelled positions.
//!
//! ```text
//! cargo run --release -p pychess-tuner -- [options] DATA...
//!   --epochs N        full-batch epochs (default 3000)
//!   --rate R          Adam's step in centipawns (default 1.0), or with --momentum the
//!                     learning rate (e.g. 1e6); a quarter of it for the last 30% of epochs
//!   --momentum        gradient descent with momentum instead of Adam
//!   --only A,B,...    tune only these tables (names as in `layout`, e.g. MATERIAL,PST)
//!   --valid-every N   every N-th position is held out for validation (default 10)
//!   --k K             use this K instead of fitting it to the starting weights
//!   --l2 L            pull towards the starting weights: + L * sum((w - w0)^2) (default 0)
//!   --blend B         aim at (1-B)*result + B*sigmoid(K*score) where a score is given (0)
//!   --out PATH        write the tuned weights there (e.g. rust/engine/src/eval/weights.rs)
//! ```

use std::process::ExitCode;

use pychess_engine::eval::layout::GROUPS;
use pychess_engine::eval::HAND_WEIGHTS;
use pychess_tuner::data::Dataset;
use pychess_tuner::emit::{today, weights_source, Provenance};
use pychess_tuner::model::{
    add_l2_gradient, error, fit_k, gradient, integer_error, params_from, weights_from, Adam,
    Momentum, Optimizer,
};

struct Options {
    epochs: usize,
    rate: f64,
    valid_every: usize,
    k: Option<f64>,
    blend: f64,
    l2: f64,
    momentum: bool,
    only: Option<Vec<String>>,
    out: Option<String>,
    files: Vec<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options {
        epochs: 3000,
        rate: 1.0,
        valid_every: 10,
        k: None,
        blend: 0.0,
        l2: 0.0,
        momentum: false,
        only: None,
        out: None,
        files: Vec::new(),
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--epochs" => o.epochs = parse(&value("--epochs")?)?,
            "--rate" => o.rate = parse(&value("--rate")?)?,
            "--valid-every" => o.valid_every = parse(&value("--valid-every")?)?,
            "--k" => o.k = Some(parse(&value("--k")?)?),
            "--blend" => o.blend = parse(&value("--blend")?)?,
            "--l2" => o.l2 = parse(&value("--l2")?)?,
            "--momentum" => o.momentum = true,
            "--only" => {
                let names: Vec<String> = value("--only")?.split(',').map(String::from).collect();
                if let Some(bad) = names.iter().find(|n| !GROUPS.iter().any(|g| g.name == *n)) {
                    return Err(format!("unknown table {bad:?}"));
                }
                o.only = Some(names);
            }
            "--out" => o.out = Some(value("--out")?),
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag:?}")),
            file => o.files.push(file.to_string()),
        }
    }
    if o.files.is_empty() {
        return Err("no data files given".into());
    }
    if !(0.0..=1.0).contains(&o.blend) {
        return Err(format!("--blend {} is not in 0..=1", o.blend));
    }
    Ok(o)
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("bad number {text:?}"))
}

fn run(o: Options) -> Result<(), String> {
    let mut data = Dataset::default();
    let mut sources = Vec::new();
    for file in &o.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let before = data.positions.len();
        let errors = data.extend_from_text(&text);
        for e in errors.iter().take(5) {
            eprintln!("{file}: skipped {e}");
        }
        let read = data.positions.len() - before;
        eprintln!("{file}: {read} positions, {} lines skipped", errors.len());
        let name = std::path::Path::new(file)
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        sources.push(format!("{name} ({read} positions)"));
    }
    let (mut train, mut valid) = data.split_every(o.valid_every);
    if train.positions.is_empty() {
        return Err("no training positions".into());
    }

    // K and the before/after figures are measured against game results alone.
    let mut params = params_from(&HAND_WEIGHTS);
    let k = o.k.unwrap_or_else(|| fit_k(&train, &params));
    let before = (
        integer_error(&train, &HAND_WEIGHTS, k),
        integer_error(&valid, &HAND_WEIGHTS, k),
    );
    eprintln!(
        "{} train / {} validation positions, K = {k:.6}, error before {:.6} / {:.6}",
        train.positions.len(),
        valid.positions.len(),
        before.0,
        before.1
    );
    train.set_targets(k, o.blend);
    valid.set_targets(k, o.blend);

    // Early stopping: keep the parameters that did best on the held-out games.
    let start = params.clone();
    // 1 for every parameter that may move, 0 for frozen ones.
    let mut free = vec![1.0; params.len()];
    if let Some(only) = &o.only {
        free.fill(0.0);
        for g in GROUPS.iter().filter(|g| only.iter().any(|n| n == g.name)) {
            free[2 * g.start..2 * (g.start + g.len)].fill(1.0);
        }
    }
    let mut best = (error(&valid, &params, k), 0, params.clone());
    eprintln!(
        "epoch 0: train {:.6} validation {:.6}",
        error(&train, &params, k),
        best.0
    );
    let mut optimizer: Box<dyn Optimizer> = if o.momentum {
        Box::new(Momentum::new(params.len(), o.rate))
    } else {
        Box::new(Adam::new(params.len(), o.rate))
    };
    let slow_from = o.epochs * 7 / 10;
    for epoch in 1..=o.epochs {
        if epoch == slow_from {
            optimizer.slow_down(0.25);
        }
        let mut grad = gradient(&train, &params, k);
        add_l2_gradient(&mut grad, &params, &start, o.l2);
        for (g, f) in grad.iter_mut().zip(&free) {
            *g *= f;
        }
        optimizer.step(&mut params, &grad);
        if epoch % 50 == 0 || epoch == o.epochs {
            let valid_error = error(&valid, &params, k);
            if valid_error < best.0 || valid.positions.is_empty() {
                best = (valid_error, epoch, params.clone());
            }
            if epoch % 100 == 0 || epoch == o.epochs {
                eprintln!(
                    "epoch {epoch}: train {:.6} validation {valid_error:.6} (best at {})",
                    error(&train, &params, k),
                    best.1
                );
            }
        }
    }

    let (_, best_epoch, best_params) = best;
    let tuned = weights_from(&best_params);
    train.set_targets(k, 0.0);
    valid.set_targets(k, 0.0);
    let after = (
        integer_error(&train, &tuned, k),
        integer_error(&valid, &tuned, k),
    );
    println!(
        "positions {} + {}, K {k:.6}, blend {}, best epoch {best_epoch}, \
         error before {:.6} / {:.6}, after {:.6} / {:.6}",
        train.positions.len(),
        valid.positions.len(),
        o.blend,
        before.0,
        before.1,
        after.0,
        after.1
    );
    if let Some(out) = &o.out {
        let how = Provenance {
            data: sources,
            positions: (train.positions.len(), valid.positions.len()),
            k,
            epochs: best_epoch,
            optimizer: if o.momentum {
                "gradient descent with momentum"
            } else {
                "Adam"
            },
            rate: o.rate,
            blend: o.blend,
            before,
            after,
            date: today(),
        };
        std::fs::write(out, weights_source(&tuned, &how)).map_err(|e| format!("{out}: {e}"))?;
        eprintln!("wrote {out}");
    }
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("pychess-tuner: {why}");
            }
            eprintln!(
                "usage: pychess-tuner [--epochs N] [--rate R] [--valid-every N] [--k K] \
                 [--blend B] [--l2 L] [--momentum] [--only A,B] [--out weights.rs] DATA..."
            );
            return ExitCode::from(2);
        }
    };
    match run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("pychess-tuner: {why}");
            ExitCode::FAILURE
        }
    }
}
