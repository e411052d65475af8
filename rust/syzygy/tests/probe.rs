//! Probes against python-chess's test data: the 3- and 4-piece tables of its sdist and its
//! `endgame.epd` (the WDL table value, WDL and DTZ of 200 positions). The data is fetched by
//! `tools/fetch-python-chess-tests` (never committed); without it these tests say so and pass.

use pychess_core::notation::epd::Operand;
use pychess_core::Board;
use pychess_syzygy::{DtzTable, ProbeError, TableKind, Tablebase, WdlTable};
use std::path::PathBuf;

/// The python-chess sdist directory, if fetched.
fn suite() -> Option<PathBuf> {
    let dir = match std::env::var_os("PYCHESS_RS_PYTHON_CHESS_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => {
            let cache = std::env::var_os("PYCHESS_RS_CACHE")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("pychess-rs"))
                })
                .or_else(|| {
                    std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/pychess-rs"))
                })?;
            cache.join("python-chess-1.11.2")
        }
    };
    if dir.join("data/syzygy/regular/KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: python-chess's test data is not at {} (tools/fetch-python-chess-tests)",
            dir.display()
        );
        None
    }
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap()
}

fn tables(suite: &std::path::Path) -> Tablebase {
    let tables = Tablebase::new();
    let n = tables
        .add_directory(&suite.join("data/syzygy/regular"), true, true)
        .unwrap();
    assert!(n >= 70, "{n} tables");
    tables
}

#[test]
fn endgame_epd_matches_python_chess() {
    let Some(suite) = suite() else { return };
    let tables = tables(&suite);
    let text = std::fs::read_to_string(suite.join("data/endgame.epd")).unwrap();
    for (line_no, line) in text.lines().enumerate() {
        let (b, ops) = pychess_core::notation::epd::parse_epd(line, false).unwrap();
        let expect = |name: &str| -> i32 {
            match ops.iter().find(|(op, _)| op == name) {
                Some((_, Operand::Integer(n))) => *n as i32,
                other => panic!("{name}: {other:?}"),
            }
        };
        let at = format!("line {} {}", line_no + 1, line);
        assert_eq!(tables.probe_wdl_table(&b), Ok(expect("wdl_table")), "{at}");
        assert_eq!(tables.probe_wdl(&b), Ok(expect("wdl")), "{at}");
        assert_eq!(tables.probe_dtz(&b), Ok(expect("dtz")), "{at}");
    }
}

#[test]
fn single_tables_as_python_chess_tests_them() {
    let Some(suite) = suite() else { return };
    let dir = suite.join("data/syzygy/regular");
    let wdl = WdlTable::open(&dir.join("KBNvK.rtbw")).unwrap();
    assert_eq!(
        wdl.probe(&board("8/8/8/5N2/5K2/2kB4/8/8 b - - 0 1")),
        Ok(-2)
    );
    assert_eq!(wdl.probe(&board("7B/5kNK/8/8/8/8/8/8 w - - 0 1")), Ok(2));
    assert_eq!(wdl.probe(&board("N7/8/2k5/8/7K/8/8/B7 w - - 0 1")), Ok(2));
    assert_eq!(wdl.probe(&board("8/8/1NkB4/8/7K/8/8/8 w - - 1 1")), Ok(0));
    assert_eq!(
        wdl.probe(&board("8/8/8/2n5/2b1K3/2k5/8/8 w - - 0 1")),
        Ok(-2)
    );
    let wdl = WdlTable::open(&dir.join("KRvKP.rtbw")).unwrap();
    assert_eq!(wdl.probe(&board("8/8/2K5/4P3/8/8/8/3r3k b - - 1 1")), Ok(0));
    assert_eq!(wdl.probe(&board("8/8/2K5/8/4P3/8/8/3r3k b - - 1 1")), Ok(2));
    let dtz = DtzTable::open(&dir.join("KRvKN.rtbz")).unwrap();
    assert_eq!(
        dtz.probe(&board("7n/6k1/4R3/4K3/8/8/8/8 w - - 0 1"), 2),
        Ok((0, -1))
    );
    assert_eq!(
        dtz.probe(&board("7n/6k1/4R3/4K3/8/8/8/8 b - - 1 1"), -2),
        Ok((8, 1))
    );
    let dtz = DtzTable::open(&dir.join("KNvKP.rtbz")).unwrap();
    assert_eq!(
        dtz.probe(&board("8/1K6/1P6/8/8/8/6n1/7k w - - 0 1"), 2),
        Ok((2, 1))
    );
}

#[test]
fn en_passant_and_errors() {
    let Some(suite) = suite() else { return };
    let tables = tables(&suite);
    let b = board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2");
    assert_eq!(tables.probe_wdl_table(&b), Ok(0));
    assert_eq!(tables.probe_wdl(&b), Ok(2));
    let b = board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1");
    assert_eq!(tables.probe_dtz_no_ep(&b), Ok(-1));
    assert_eq!(tables.probe_dtz(&b), Ok(1));
    let b = board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1");
    assert_eq!(tables.probe_wdl(&b), Ok(-2));
    assert_eq!(tables.probe_dtz(&b), Ok(-53));
    assert!(matches!(
        tables.probe_wdl(&Board::default()),
        Err(ProbeError::CastlingRights { .. })
    ));
    assert_eq!(
        tables.probe_wdl(&board("4k3/8/8/8/8/8/3PPP2/3QKQ2 w - - 0 1")),
        Err(ProbeError::MissingTable {
            kind: TableKind::Wdl,
            key: "KQQPPPvK".to_string()
        })
    );
    let crowd = board("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1");
    assert!(matches!(
        tables.probe_wdl(&crowd),
        Err(ProbeError::TooManyPieces { count: 10, .. })
    ));
    let dtz_only = Tablebase::new();
    dtz_only
        .add_directory(&suite.join("data/syzygy/regular"), false, true)
        .unwrap();
    assert!(matches!(
        dtz_only.probe_dtz(&board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")),
        Err(ProbeError::MissingTable {
            kind: TableKind::Wdl,
            ..
        })
    ));
    tables.close();
    assert!(matches!(
        tables.probe_wdl(&board("4k3/8/8/8/8/8/8/4KQ2 w - - 0 1")),
        Err(ProbeError::MissingTable { .. })
    ));
}

#[test]
fn tables_are_shared_between_threads() {
    let Some(suite) = suite() else { return };
    let tables = tables(&suite);
    let b = board("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| assert_eq!(tables.probe_dtz(&b), Ok(-53)));
        }
    });
}

#[test]
fn the_prober_is_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Tablebase>();
    shared::<WdlTable>();
    shared::<DtzTable>();
}
