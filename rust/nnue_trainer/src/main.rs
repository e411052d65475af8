//! `pychess-nnue-train`: trains the engine's evaluation network on NNUE training records.
//!
//! ```text
//! cargo run --release -p pychess-nnue-trainer -- [options] DATA... --out NET
//!   --out PATH        the network file to write (the engine's format; EvalFile loads it)
//!   --format F        bullet (default) or marlin: the records' layout
//!   --hidden N        hidden width per perspective (default 128)
//!   --init NET        train on from this network file (its width and activation); with
//!                     a wider --hidden, its neurons and new ones beside them
//!   --activation A    crelu (default: clamp(x, 0, 1)) or screlu (its square)
//!   --buckets B       output heads chosen by piece count (default 1, or --init's); a
//!                     one-head --init network is spread over B copies of its head
//!   --anchor A        with --init: after every step each weight moves A * lr of its
//!                     distance back towards --init's (default 0, off)
//!   --epochs E        passes over the training positions (default 10)
//!   --batch B         positions per step (default 1024)
//!   --lr R            Adam's learning rate (default 0.001)
//!   --lr-decay G      multiply the learning rate by G after every epoch (default 1)
//!   --wdl L           weight of the game's result in the target (default 0.25)
//!   --validation F    the last fraction F of the data is held out (default 0.1)
//!   --mirror          also train on every position mirrored a<->h
//!   --seed S          initial weights and batch order (default 0)
//!   --threads T       threads (default: the machine's cores)
//!   --curve PATH      loss curve CSV (default: OUT with extension csv; an SVG beside it)
//! ```
//!
//! Prints the figures of every epoch, a progress line every ten seconds within one, and a
//! table of all epochs at the end.

use pychess_engine::nnue::Activation;
use pychess_ml::batch::SplitMix64;
use pychess_nnue_trainer::curve;
use pychess_nnue_trainer::data::Positions;
use pychess_nnue_trainer::model::FloatNetwork;
use pychess_nnue_trainer::train::{train, Epoch, Event, Settings};
use pychess_training_data::NnueFormat;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Mixed into `--seed` for the new neurons of a grown `--init` network, so that their
/// weights do not repeat the batch order's random numbers.
const GROWTH_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

struct Options {
    settings: Settings,
    format: NnueFormat,
    validation: f64,
    out: PathBuf,
    curve: Option<PathBuf>,
    files: Vec<PathBuf>,
}

fn parse<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{flag}: cannot read {text:?} as a number"))
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut settings = Settings {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Settings::default()
    };
    let (mut format, mut validation) = (NnueFormat::Bullet, 0.1);
    let (mut out, mut curve, mut files) = (None, None, Vec::new());
    let (mut init, mut width_given, mut activation_given) = (None, false, false);
    let mut buckets = None;
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--curve" => curve = Some(PathBuf::from(value()?)),
            "--format" => {
                let name = value()?;
                format = NnueFormat::parse(&name)
                    .ok_or_else(|| format!("--format: {name:?} is not bullet or marlin"))?;
            }
            "--hidden" => {
                settings.hidden = parse(&arg, &value()?)?;
                width_given = true;
            }
            "--init" => init = Some(PathBuf::from(value()?)),
            "--activation" => {
                let name = value()?;
                settings.activation = Activation::parse(&name)
                    .ok_or_else(|| format!("--activation: {name:?} is not crelu or screlu"))?;
                activation_given = true;
            }
            "--buckets" => buckets = Some(parse(&arg, &value()?)?),
            "--epochs" => settings.epochs = parse(&arg, &value()?)?,
            "--batch" => settings.batch = parse(&arg, &value()?)?,
            "--lr" => settings.lr = parse(&arg, &value()?)?,
            "--lr-decay" => settings.lr_decay = parse(&arg, &value()?)?,
            "--wdl" => settings.wdl = parse(&arg, &value()?)?,
            "--validation" => validation = parse(&arg, &value()?)?,
            "--seed" => settings.seed = parse(&arg, &value()?)?,
            "--threads" => settings.threads = parse(&arg, &value()?)?,
            "--anchor" => settings.anchor = parse(&arg, &value()?)?,
            "--mirror" => settings.mirror = true,
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option {flag:?}")),
            file => files.push(PathBuf::from(file)),
        }
    }
    if !(settings.anchor >= 0.0 && settings.anchor.is_finite()) {
        return Err("--anchor must be a number at least 0".into());
    }
    if settings.anchor > 0.0 && init.is_none() {
        return Err("--anchor needs --init: it pulls towards that network's weights".into());
    }
    if let Some(path) = init {
        let net = pychess_engine::nnue::Network::load(&path)
            .map_err(|e| format!("--init {}: {e}", path.display()))?;
        let net = FloatNetwork::from_network(&net)
            .map_err(|e| format!("--init {}: {e}", path.display()))?;
        // A wider --hidden grows the network: its neurons kept, new ones beside them.
        let net = if width_given && net.layout.hidden != settings.hidden {
            let mut rng = SplitMix64::new(settings.seed ^ GROWTH_SEED);
            net.with_hidden(settings.hidden, &mut rng).map_err(|e| {
                format!(
                    "--init {} --hidden {}: {e}",
                    path.display(),
                    settings.hidden
                )
            })?
        } else {
            net
        };
        if activation_given && net.activation != settings.activation {
            return Err(format!(
                "--init {} is {}, not --activation {}",
                path.display(),
                net.activation.name(),
                settings.activation.name()
            ));
        }
        let net = match buckets {
            Some(buckets) => net
                .with_buckets(buckets)
                .map_err(|e| format!("--init {} --buckets {buckets}: {e}", path.display()))?,
            None => net,
        };
        settings.hidden = net.layout.hidden;
        settings.activation = net.activation;
        settings.buckets = net.layout.buckets;
        settings.init = Some(net);
    } else if let Some(buckets) = buckets {
        if !(1..=pychess_engine::nnue::MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "--buckets must be in 1..={}",
                pychess_engine::nnue::MAX_BUCKETS
            ));
        }
        settings.buckets = buckets;
    }
    if !(1..=pychess_engine::nnue::MAX_HIDDEN).contains(&settings.hidden) {
        return Err(format!(
            "--hidden must be in 1..={}",
            pychess_engine::nnue::MAX_HIDDEN
        ));
    }
    if settings.batch == 0 || settings.threads == 0 {
        return Err("--batch and --threads must be at least 1".into());
    }
    if !(0.0..=1.0).contains(&settings.wdl) || !(0.0..1.0).contains(&validation) {
        return Err("--wdl must be in 0..=1 and --validation in 0..1".into());
    }
    if files.is_empty() {
        return Err("no data files given".into());
    }
    let out = out.ok_or("--out is required")?;
    Ok(Options {
        settings,
        format,
        validation,
        out,
        curve,
        files,
    })
}

fn usage() -> String {
    let source = include_str!("main.rs");
    source
        .lines()
        .skip_while(|l| !l.starts_with("//! ```text"))
        .skip(1)
        .take_while(|l| !l.starts_with("//! ```"))
        .map(|l| l.trim_start_matches("//! "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn row(e: &Epoch) -> String {
    format!(
        "{:>5}  {:>10.6}  {:>10.6}  {:>8.1}",
        e.epoch, e.train_loss, e.validation_loss, e.seconds
    )
}

fn run(o: &Options) -> Result<(), String> {
    let started = Instant::now();
    let mut training = Positions::read_files(&o.files, o.format, o.settings.threads)?;
    let validation = training.split_off_validation(o.validation)?;
    println!(
        "read {} positions in {:.1} s: {} training, {} validation; 768->{}x2->1 {}, {} output \
         bucket(s), {} threads",
        training.len() + validation.len(),
        started.elapsed().as_secs_f64(),
        training.len(),
        validation.len(),
        o.settings.hidden,
        o.settings.activation.name(),
        o.settings.buckets,
        o.settings.threads,
    );
    let mut last_line = Instant::now();
    let mut epoch_start = Instant::now();
    let mut all = Vec::new();
    let (net, epochs) = train(&training, &validation, &o.settings, |event| match event {
        Event::Start {
            samples, before, ..
        } => {
            println!(
                "epoch 0: train {:.6} validation {:.6} ({samples} samples an epoch)",
                before.train_loss, before.validation_loss
            );
            all.push(before.clone());
            epoch_start = Instant::now();
        }
        Event::Progress {
            epoch,
            done,
            samples,
        } => {
            if last_line.elapsed() >= Duration::from_secs(10) {
                let rate = *done as f64 / epoch_start.elapsed().as_secs_f64();
                println!(
                    "epoch {epoch}: {:.0}% ({:.0} k samples/s)",
                    100.0 * *done as f64 / *samples as f64,
                    rate / 1e3
                );
                last_line = Instant::now();
            }
        }
        Event::Finished(e) => {
            println!(
                "epoch {}: train {:.6} validation {:.6} ({:.1} s)",
                e.epoch, e.train_loss, e.validation_loss, e.seconds
            );
            epoch_start = Instant::now();
            last_line = Instant::now();
        }
    });
    all.extend(epochs);
    let network = net
        .quantised()
        .map_err(|e| format!("cannot quantise: {e}"))?;
    std::fs::write(&o.out, network.to_bytes()).map_err(|e| format!("{}: {e}", o.out.display()))?;
    let curve_path = o
        .curve
        .clone()
        .unwrap_or_else(|| o.out.with_extension("csv"));
    let title = format!(
        "{} ({} positions, width {})",
        o.out.display(),
        training.len(),
        o.settings.hidden
    );
    let plot = curve::write(&curve_path, &all, &title)
        .map_err(|e| format!("{}: {e}", curve_path.display()))?;
    println!("\nepoch  train loss  valid loss  seconds");
    for e in &all {
        println!("{}", row(e));
    }
    println!(
        "\nwrote {} ({} bytes), loss curve {} and {} ({:.1} s in all)",
        o.out.display(),
        network.to_bytes().len(),
        curve_path.display(),
        plot.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) if message.is_empty() => {
            println!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("pychess-nnue-train: {message}\n\n{}", usage());
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pychess-nnue-train: {message}");
            ExitCode::FAILURE
        }
    }
}
