//! The variants against python-chess: random games of each variant played by python-chess's
//! boards (`tests/data/variants/playouts/`, written by `tools/variant_playouts_reference.py`),
//! and at every position the same legal moves, FEN, SAN of the move played, position after
//! it, SAN read back, outcome, check and insufficient material here.

use pychess_core::notation::uci::UciDrop;
use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{Color, UciMove};
use std::path::PathBuf;

fn outcome_text(board: &VariantBoard) -> String {
    match board.outcome() {
        None => "-".to_string(),
        Some(outcome) => {
            let winner = match outcome.winner {
                Some(Color::White) => "w",
                Some(Color::Black) => "b",
                None => "-",
            };
            format!("{} {winner}", outcome.termination.value())
        }
    }
}

fn run(variant: Variant) {
    let file = format!("{}.txt", variant.uci_name());
    // VARIANT_PLAYOUTS_DIR: a bigger set written elsewhere by the same tool.
    let dir = std::env::var_os("VARIANT_PLAYOUTS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/variants/playouts"),
        PathBuf::from,
    );
    let path = dir.join(&file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failures = Vec::new();
    let mut expected_next: Option<String> = None;
    let mut positions = 0;
    for (i, line) in text.lines().enumerate() {
        let at = format!("{file}:{}", i + 1);
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            expected_next = None;
            continue;
        }
        positions += 1;
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, legal, played, outcome, flags] = fields[..] else {
            panic!("{at}: expected 5 fields");
        };
        if let Some(next) = expected_next.take() {
            if next != fen {
                failures.push(format!("{at}: the move played gave {next}"));
            }
        }
        let board =
            VariantBoard::from_fen(fen, variant, false).unwrap_or_else(|e| panic!("{at}: {e}"));
        if board.fen() != fen {
            failures.push(format!("{at}: fen {}", board.fen()));
        }
        let mut ours: Vec<String> = board
            .legal_moves()
            .iter()
            .map(|&m| board.uci(m).to_string())
            .collect();
        ours.sort();
        if ours.join(" ") != legal {
            failures.push(format!("{at}: legal moves {}", ours.join(" ")));
        }
        if outcome_text(&board) != outcome {
            failures.push(format!("{at}: outcome {}", outcome_text(&board)));
        }
        let our_flags = format!(
            "{}{}{}",
            u8::from(board.is_check()),
            u8::from(board.has_insufficient_material(Color::White)),
            u8::from(board.has_insufficient_material(Color::Black))
        );
        if our_flags != flags {
            failures.push(format!("{at}: check/insufficient {our_flags}"));
        }
        if let Some((uci, san)) = played.split_once(' ') {
            let uci_move = match UciDrop::parse(uci) {
                Some(drop) => UciMove::from_drop(drop),
                None => UciMove::parse(uci).unwrap(),
            };
            let Some(m) = board.find_legal(uci_move) else {
                failures.push(format!("{at}: {uci} not legal here"));
                continue;
            };
            if board.san(m) != san {
                failures.push(format!("{at}: san {}", board.san(m)));
            }
            if board.parse_san(san) != Ok(Some(m)) {
                failures.push(format!("{at}: {san} reads as {:?}", board.parse_san(san)));
            }
            expected_next = Some(board.after(m).fen());
        }
    }
    assert!(positions > 100, "{file}: only {positions} positions");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

per_variant!(run);
