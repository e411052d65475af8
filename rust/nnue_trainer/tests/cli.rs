//! The trainer's command line end to end: records in, a network file the engine loads out,
//! with the loss curve beside it; bad input gets a message and a non-zero exit.

use pychess_core::Board;
use pychess_engine::nnue::Network;
use pychess_ml::batch::SplitMix64;
use pychess_training_data::{NnueFormat, Wdl};
use std::path::PathBuf;
use std::process::Command;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nnue-trainer-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Random-game positions in marlin records, scored by the difference in piece count; returns
/// the positions with their scores from the side to move's point of view.
fn write_records(path: &PathBuf) -> Vec<(Board, i16)> {
    let (mut data, mut positions) = (Vec::new(), Vec::new());
    for game in 0..300u64 {
        let mut rng = SplitMix64::new(game);
        let mut board = Board::default();
        for _ in 0..60 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board = board.after(moves[rng.below(moves.len())]);
            let count = |c| board.by_color(c).count() as i16;
            let score =
                100 * (count(pychess_core::Color::White) - count(pychess_core::Color::Black));
            let record = NnueFormat::Marlin.encode(&board, score, Wdl::Draw).unwrap();
            data.extend_from_slice(&record);
            let white = board.turn() == pychess_core::Color::White;
            positions.push((board.clone(), if white { score } else { -score }));
        }
    }
    std::fs::write(path, &data).unwrap();
    positions
}

fn trainer() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pychess-nnue-train"))
}

/// Three epochs of a 16-wide network on `data`, seeded, on two threads, with `extra`
/// options.
fn train_small(data: &PathBuf, out: &PathBuf, extra: &[&str]) -> std::process::Output {
    trainer()
        .args(extra)
        .args([
            "--format", "marlin", "--hidden", "16", "--epochs", "3", "--batch", "128",
        ])
        .args([
            "--lr",
            "0.01",
            "--threads",
            "2",
            "--seed",
            "4",
            "--mirror",
            "--out",
        ])
        .arg(out)
        .arg(data)
        .output()
        .unwrap()
}

#[test]
fn a_small_run_writes_a_network_the_engine_loads_and_its_curve() {
    let dir = scratch_dir("run");
    let data = dir.join("data.bin");
    let positions = write_records(&data);
    assert!(positions.len() > 15000);
    let held_out = positions.len() - positions.len() / 10;
    let net = dir.join("net.nnue");
    let output = train_small(&data, &net, &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("epoch 3: train"), "{stdout}");
    assert!(
        stdout.contains("epoch  train loss  valid loss  seconds"),
        "{stdout}"
    );
    let network = Network::load(&net).unwrap();
    assert_eq!(network.hidden(), 16);
    // On the held-out games (the last tenth), the engine's evaluation with the file has the
    // sign of the piece count where a side is two pieces up or more.
    let clear: Vec<&(Board, i16)> = positions[held_out..]
        .iter()
        .filter(|(_, s)| s.abs() >= 200)
        .collect();
    let agree = clear
        .iter()
        .filter(|(board, score)| (network.evaluate(board) > 0) == (*score > 0))
        .count();
    assert!(
        clear.len() > 100 && agree * 100 >= clear.len() * 85,
        "{agree} of {} agree (85% wanted)\n{stdout}",
        clear.len()
    );
    let csv = std::fs::read_to_string(dir.join("net.csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let losses: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(losses[3] < losses[0] / 2.0, "validation losses {losses:?}");
    assert!(std::fs::read_to_string(dir.join("net.svg"))
        .unwrap()
        .contains("<polyline"));
    // The same seed and threads give the same file.
    let again = dir.join("again.nnue");
    let status = train_small(&data, &again, &[]);
    assert!(status.status.success());
    assert_eq!(std::fs::read(&net).unwrap(), std::fs::read(&again).unwrap());
    // Eight output heads: a version 3 file the engine loads, as good on the clear cases.
    let bucketed = dir.join("bucketed.nnue");
    let output = train_small(&data, &bucketed, &["--buckets", "8"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("8 output bucket(s)"), "{stdout}");
    let network = Network::load(&bucketed).unwrap();
    assert_eq!(network.buckets(), 8);
    let agree = clear
        .iter()
        .filter(|(board, score)| (network.evaluate(board) > 0) == (*score > 0))
        .count();
    assert!(
        agree * 100 >= clear.len() * 85,
        "{agree} of {} agree (85% wanted) with eight heads\n{stdout}",
        clear.len()
    );
    // Grown to 24 wide from the 16-wide file: before training it evaluates every
    // position as the file does.
    let grown = dir.join("grown.nnue");
    let output = trainer()
        .args([
            "--format", "marlin", "--epochs", "0", "--hidden", "24", "--init",
        ])
        .arg(&net)
        .arg("--out")
        .arg(&grown)
        .arg(&data)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let (narrow, wide) = (Network::load(&net).unwrap(), Network::load(&grown).unwrap());
    assert_eq!(wide.hidden(), 24);
    for (board, _) in &positions[held_out..] {
        assert_eq!(narrow.evaluate(board), wide.evaluate(board));
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_gets_a_message_and_a_failing_exit() {
    let dir = scratch_dir("bad");
    let odd = dir.join("odd.bin");
    std::fs::write(&odd, [0u8; 40]).unwrap();
    let out = dir.join("net.nnue");
    let n128 = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/n128.nnue");
    for (args, message) in [
        (vec![odd.to_str().unwrap()], "--out is required"),
        (
            vec!["--hidden", "0", odd.to_str().unwrap()],
            "--hidden must be in 1..=4096",
        ),
        (vec!["--format", "pgn"], "is not bullet or marlin"),
        (vec!["--lr", "fast"], "cannot read \"fast\" as a number"),
        (vec!["--init", odd.to_str().unwrap()], "--init"),
        (
            vec!["--init", n128, "--hidden", "64"],
            "it can grow, not shrink to 64",
        ),
        (
            vec!["--init", n128, "--activation", "screlu"],
            "is crelu, not --activation screlu",
        ),
        (
            vec!["--buckets", "0", odd.to_str().unwrap()],
            "--buckets must be in 1..=16",
        ),
        (
            vec!["--init", n128, "--buckets", "17"],
            "output buckets must be in 1..=16",
        ),
        (
            vec!["--anchor", "10", odd.to_str().unwrap()],
            "--anchor needs --init",
        ),
        (
            vec!["--init", n128, "--anchor", "-1"],
            "--anchor must be a number at least 0",
        ),
    ] {
        let output = trainer().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(message),
            "{args:?}"
        );
    }
    let output = trainer().arg("--out").arg(&out).arg(&odd).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("40 bytes is not a whole number of 32-byte records"),
        "{stderr}"
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).unwrap();
}
