//! The invariants the fuzz targets check, shared by `fuzz_targets/*.rs`. A broken invariant
//! panics, which libFuzzer reports as a crash, saving the input under `artifacts/<target>/`.
//!
//! They are the invariants of `rust/core/tests/hostile_input.rs` (the deterministic mutation
//! fuzzer that runs with every `cargo test`), minus its python-chess grammar references:
//!
//! - the reader never panics or hangs (libFuzzer's `-timeout` catches the latter);
//! - an accepted FEN/EPD position writes a `fen()` that reads back to the same position and is
//!   a fixed point, its exact FENs (both castling styles, raw en-passant square) read back to an
//!   equal `Board`, and every legal move has a distinct SAN, and its SAN, LAN and UCI read back
//!   to that move (the position after it also writes a FEN that reads back);
//! - an accepted SAN or UCI resolves to exactly the legal move a brute-force search of
//!   `legal_moves()` finds, and a refused one is refused for the right reason;
//! - moves named in EPD operations are legal;
//! - every error message quotes the input, Python-repr style.

use pychess_core::notation::epd::{parse_epd, EpdError, Operand};
use pychess_core::compat::py_repr;
use pychess_core::{Board, EpMode, Move, MoveError, San, UciMove};
use std::sync::OnceLock;

// The python-chess reading rules, shared with the core's `cargo test` fuzzer.
#[path = "../../rust/core/tests/reference/mod.rs"]
mod reference;
use reference::{normalized, reference_resolve, uci_means};

/// Positions the move targets resolve against: the first input byte picks one.
const POSITIONS: &[(&str, bool)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        false,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        false,
    ),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false),
    ("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", false),
    ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
    ("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1", false),
    ("1k6/8/8/3Q1Q2/8/3Q1Q2/8/4K3 w - - 0 1", false),
    ("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1", false),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        true,
    ),
    ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true),
    ("rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", true),
];

/// The positions of [`POSITIONS`], read once.
pub fn positions() -> &'static [Board] {
    static BOARDS: OnceLock<Vec<Board>> = OnceLock::new();
    BOARDS.get_or_init(|| {
        POSITIONS
            .iter()
            .map(|&(fen, chess960)| {
                Board::from_fen(fen, chess960).unwrap_or_else(|e| panic!("bad fixture: {e}"))
            })
            .collect()
    })
}

fn assert_quotes(message: &str, text: &str) {
    assert!(
        message.contains(&py_repr(text)),
        "the message does not quote {}: {message}",
        py_repr(text)
    );
}

/// Everything a valid board promises about its FENs and its legal moves' notations.
pub fn check_board(board: &Board) {
    let chess960 = board.is_chess960();
    let fen = board.fen();
    let again =
        Board::from_fen(&fen, chess960).unwrap_or_else(|e| panic!("fen() does not read back: {e}"));
    assert!(
        normalized(&again) == normalized(board),
        "{fen} reads back as another position"
    );
    assert_eq!(again.fen(), fen, "fen() is not a fixed point");
    for shredder in [false, true] {
        let exact = board.fen_with(shredder, EpMode::Always);
        let read = Board::from_fen(&exact, chess960)
            .unwrap_or_else(|e| panic!("{exact} does not read back: {e}"));
        assert!(read == *board, "{exact} reads back as another board");
    }
    let mut sans = Vec::new();
    for &m in board.legal_moves().iter() {
        let san = board.san(m);
        assert_eq!(board.parse_san(&san), Ok(Some(m)), "{fen}: san {san}");
        let lan = board.lan(m);
        assert_eq!(board.parse_san(&lan), Ok(Some(m)), "{fen}: lan {lan}");
        let uci = board.uci(m);
        assert_eq!(
            UciMove::parse(&uci.to_string()),
            Ok(uci),
            "{fen}: uci {uci}"
        );
        assert_eq!(board.resolve_uci(uci), Ok(m), "{fen}: uci {uci}");
        let after = board.after(m);
        let after_fen = after.fen_with(true, EpMode::Always);
        let read = Board::from_fen(&after_fen, chess960)
            .unwrap_or_else(|e| panic!("{fen}: after {san}, the FEN does not read back: {e}"));
        assert!(
            read == after,
            "{fen}: after {san}, {after_fen} reads back wrong"
        );
        sans.push(san);
    }
    sans.sort();
    let count = sans.len();
    sans.dedup();
    assert_eq!(sans.len(), count, "{fen}: two legal moves share a SAN");
}

/// Reads `text` as a FEN.
pub fn check_fen(text: &str, chess960: bool) {
    match Board::from_fen(text, chess960) {
        Ok(board) => check_board(&board),
        Err(e) => {
            assert_eq!(e.fen, text, "the error names another FEN");
            assert_quotes(&e.to_string(), text);
        }
    }
}

/// Reads `text` as a SAN in `board`.
pub fn check_san(board: &Board, text: &str) {
    let result = board.parse_san(text);
    let san = match San::parse(text) {
        Err(e) => {
            assert!(matches!(e, MoveError::Invalid { .. }), "{e}");
            assert_eq!(result, Err(e.clone()), "parse_san and San::parse disagree");
            assert_quotes(&e.to_string(), text);
            return;
        }
        Ok(san) => san,
    };
    match (&result, reference_resolve(board, san)) {
        (Ok(m), Ok(want)) => assert_eq!(*m, want, "{}: {text} read as the wrong move", board.fen()),
        (Err(e @ MoveError::Illegal { .. }), Err("illegal"))
        | (Err(e @ MoveError::Ambiguous { .. }), Err("ambiguous")) => {
            assert_quotes(&e.to_string(), text)
        }
        (got, want) => panic!(
            "{}: {text} read as {got:?}, should be {want:?}",
            board.fen()
        ),
    }
}

/// Reads `text` as a UCI move in `board`.
pub fn check_uci(board: &Board, text: &str) {
    let uci = match UciMove::parse(text) {
        Err(e) => {
            assert!(matches!(e, MoveError::Invalid { .. }), "{e}");
            assert_quotes(&e.to_string(), text);
            return;
        }
        Ok(uci) => uci,
    };
    assert_eq!(uci.to_string(), text, "accepted a non-canonical spelling");
    let expected = board
        .legal_moves()
        .iter()
        .find(|&&m| uci_means(board, uci, m))
        .copied();
    match board.resolve_uci(uci) {
        Ok(m) => assert_eq!(Some(m), expected, "{}: {text} read wrong", board.fen()),
        Err(e) => {
            assert_eq!(expected, None, "{}: {text} refused: {e}", board.fen());
            assert!(matches!(e, MoveError::Illegal { .. }), "{e}");
            assert_quotes(&e.to_string(), text);
        }
    }
}

/// Reads `text` as an EPD.
pub fn check_epd(text: &str, chess960: bool) {
    match parse_epd(text, chess960) {
        Ok((board, ops)) => {
            check_board(&board);
            let legal = board.legal_moves();
            let is_legal = |m: &Move| m.is_null() || legal.as_slice().contains(m);
            for (opcode, operand) in &ops {
                match operand {
                    Operand::Moves(line) if opcode == "pv" => {
                        let mut position = board.clone();
                        for &m in line {
                            assert!(
                                m.is_null() || position.legal_moves().as_slice().contains(&m),
                                "pv plays an illegal move"
                            );
                            position.play_unchecked(m);
                        }
                    }
                    Operand::Moves(moves) => assert!(moves.iter().all(is_legal), "{opcode}"),
                    Operand::Move(m) => assert!(is_legal(m), "{opcode}"),
                    Operand::Float(f) => assert!(f.is_finite(), "{opcode}"),
                    _ => {}
                }
            }
        }
        Err(EpdError::Fen(e)) => assert_quotes(&EpdError::Fen(e.clone()).to_string(), &e.fen),
        Err(e @ EpdError::Operation(..)) => assert_quotes(&e.to_string(), text),
    }
}
