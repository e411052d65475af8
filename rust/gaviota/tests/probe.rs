//! Probes of python-chess's test tables (`data/gaviota/` of its sdist, cached by
//! `tools/fetch-python-chess-tests`): the answers python-chess's own tests and docs give.
//! Without the cached data each test prints why and returns early (cargo test has no skip).

use pychess_core::Board;
use pychess_gaviota::{ProbeError, Tablebase};
use std::path::PathBuf;

/// The suite's `data/gaviota`, if cached.
fn data_dir() -> Option<PathBuf> {
    let suite = std::env::var_os("PYCHESS_RS_PYTHON_CHESS_SUITE")
        .map(PathBuf::from)
        .or_else(|| {
            let cache = std::env::var_os("PYCHESS_RS_CACHE")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("XDG_CACHE_HOME")
                        .map(PathBuf::from)
                        .or_else(|| {
                            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache"))
                        })
                        .map(|c| c.join("pychess-rs"))
                })?;
            Some(cache.join("python-chess-1.11.2"))
        })?;
    let dir = suite.join("data").join("gaviota");
    if dir.join("kqk.gtb.cp4").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no python-chess test tables at {}", dir.display());
        None
    }
}

fn tables() -> Option<Tablebase> {
    let dir = data_dir()?;
    let tables = Tablebase::new();
    assert_eq!(tables.add_directory(&dir).unwrap(), 5);
    Some(tables)
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap()
}

#[test]
fn dtm_as_python_chess_tests_and_docs_give_it() {
    let Some(tables) = tables() else { return };
    for (fen, dtm) in [
        ("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1", -14),
        ("8/3K4/8/8/8/4r3/4k3/8 b - - 0 1", 21),
        ("8/8/8/8/8/8/8/K2kr3 w - - 0 1", -10),
        ("8/8/4K3/2n5/8/3k4/8/8 w - - 0 1", 0),
        // KvK needs no table.
        ("8/8/4K3/8/8/3k4/8/8 w - - 0 1", 0),
    ] {
        assert_eq!(tables.probe_dtm(&board(fen)).unwrap(), dtm, "{fen}");
    }
}

#[test]
fn wdl_with_the_colours_swapped_and_checkmate() {
    let Some(tables) = tables() else { return };
    for (fen, wdl) in [
        ("8/8/4K3/2n5/8/3k4/8/8 w - - 0 1", 0),
        // Black's pawn: probed in kpk upside down.
        ("8/8/1p2K3/8/8/3k4/8/8 b - - 0 1", 1),
        ("8/4k3/8/B7/8/8/8/4K3 w - - 0 1", 0),
        // Checkmated: DTM 0, a loss.
        ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", -1),
    ] {
        assert_eq!(tables.probe_wdl(&board(fen)).unwrap(), wdl, "{fen}");
    }
    assert_eq!(
        tables
            .probe_dtm(&board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"))
            .unwrap(),
        0
    );
}

#[test]
fn refusals() {
    let Some(tables) = tables() else { return };
    let castling = board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(matches!(
        tables.probe_dtm(&castling),
        Err(ProbeError::CastlingRights { .. })
    ));
    let six = board("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1");
    let err = tables.probe_dtm(&six).unwrap_err();
    assert_eq!(
        err.to_string(),
        "gaviota tables support up to 5 pieces, not 6: 4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1"
    );
    let krkn = board("4k3/8/8/8/8/8/n7/R3K3 w - - 0 1");
    let err = tables.probe_dtm(&krkn).unwrap_err();
    assert_eq!(err.to_string(), "no gaviota table available for: KRvKN");
    tables.close();
    assert!(tables.available_tables().is_empty());
    let kqk = board("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1");
    assert!(matches!(
        tables.probe_dtm(&kqk),
        Err(ProbeError::MissingTable { .. })
    ));
}

#[test]
fn shared_between_threads() {
    let Some(tables) = tables() else { return };
    let fens = [
        ("6K1/8/8/8/4Q3/8/6k1/8 b - - 0 1", -14),
        ("8/3K4/8/8/8/4r3/4k3/8 b - - 0 1", 21),
        ("8/8/8/8/8/8/8/K2kr3 w - - 0 1", -10),
    ];
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..50 {
                    for (fen, dtm) in fens {
                        assert_eq!(tables.probe_dtm(&board(fen)).unwrap(), dtm);
                    }
                }
            });
        }
    });
}
