//! The engine with Syzygy tables (python-chess's 3- and 4-piece test tables, fetched by
//! `tools/fetch-python-chess-tests`; without them these tests say so and pass): DTZ-optimal
//! root moves that win won endings out against the engine's own best defence, hold draws,
//! and WDL probes in the search counted as `tbhits`.

use pychess_core::Board;
use pychess_engine::{Engine, EngineOptions, Limits, Score, SearchControl, SearchInfo, Syzygy};
use pychess_syzygy::Tablebase;
use std::path::PathBuf;
use std::sync::Arc;

fn tables_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("PYCHESS_RS_PYTHON_CHESS_SUITE") {
        Some(dir) => PathBuf::from(dir),
        None => std::env::var_os("PYCHESS_RS_CACHE")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("pychess-rs"))
            })
            .or_else(|| {
                std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/pychess-rs"))
            })?
            .join("python-chess-1.11.2"),
    }
    .join("data/syzygy/regular");
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no Syzygy test tables at {}", dir.display());
        None
    }
}

fn engine_with_tables(dir: &std::path::Path) -> (Engine, Arc<Tablebase>) {
    let tables = Arc::new(Tablebase::new());
    tables.add_directory(dir, true, true).unwrap();
    let mut engine = Engine::new(EngineOptions::default());
    engine.set_syzygy(Some(Syzygy::new(tables.clone(), 1, true)));
    (engine, tables)
}

fn go(
    engine: &mut Engine,
    board: &Board,
    depth: u32,
) -> (Option<pychess_core::Move>, Vec<SearchInfo>) {
    let control = SearchControl::new(false);
    let mut infos = Vec::new();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = engine.search(board, &[], &limits, &control, &mut |i| {
        infos.push(i.clone())
    });
    (result.best, infos)
}

/// Plays the engine against itself from `fen` for at most `plies`; the final position.
fn play_out(engine: &mut Engine, fen: &str, plies: usize) -> pychess_core::Game {
    let mut game = pychess_core::Game::new(Board::from_fen(fen, false).unwrap());
    for _ in 0..plies {
        if game.outcome(true).is_some() {
            break;
        }
        let (best, _) = go(engine, game.board(), 4);
        game.play(best.expect("a legal move"));
    }
    game
}

#[test]
fn won_endings_are_won_by_dtz_play() {
    let Some(dir) = tables_dir() else { return };
    let (mut engine, tables) = engine_with_tables(&dir);
    for fen in [
        "8/8/8/4k3/8/8/8/KQ6 w - - 0 1",
        "8/8/8/4k3/8/8/8/KR6 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/4K3/4P3/8/8/8/8 b - - 0 1",
    ] {
        let start = Board::from_fen(fen, false).unwrap();
        let white_to_move = start.turn() == pychess_core::Color::White;
        let expected = if white_to_move { 2 } else { -2 };
        assert_eq!(tables.probe_wdl(&start), Ok(expected), "{fen}");
        let (_, infos) = go(&mut engine, &start, 4);
        assert!(infos[0].tbhits > 0);
        assert!(
            matches!(infos[0].score, Score::Cp(cp) if cp.abs() > 10_000 && (cp > 0) == white_to_move),
            "{fen}: {infos:?}"
        );
        let game = play_out(&mut engine, fen, 200);
        let outcome = game.outcome(true).expect("the game ends");
        assert_eq!(
            outcome.winner,
            Some(pychess_core::Color::White),
            "{fen}: {outcome:?} after {}",
            game.board().fen()
        );
    }
}

#[test]
fn drawn_endings_are_held() {
    let Some(dir) = tables_dir() else { return };
    let (mut engine, tables) = engine_with_tables(&dir);
    // KPvK with the defending king in front of the pawn: a draw.
    let fen = "8/8/8/8/4k3/8/4P3/4K3 b - - 0 1";
    let start = Board::from_fen(fen, false).unwrap();
    assert_eq!(tables.probe_wdl(&start), Ok(0));
    let (_, infos) = go(&mut engine, &start, 4);
    assert_eq!(infos[0].score, Score::Cp(0));
    let game = play_out(&mut engine, fen, 120);
    assert_eq!(tables.probe_wdl(game.board()).unwrap_or(0), 0);
    assert!(game.outcome(true).map_or(true, |o| o.winner.is_none()));
}

#[test]
fn the_search_probes_below_the_root() {
    let Some(dir) = tables_dir() else { return };
    let (mut engine, _) = engine_with_tables(&dir);
    // Five pieces (no table) with captures into four-piece tables: searched, with probes.
    let board = Board::from_fen("8/8/3k4/8/2q5/8/2Q4R/3K4 w - - 0 1", false).unwrap();
    let (best, infos) = go(&mut engine, &board, 6);
    assert!(best.is_some());
    assert!(infos.last().unwrap().tbhits > 0, "{infos:?}");
}

#[test]
fn without_tables_nothing_changes() {
    let mut engine = Engine::new(EngineOptions::default());
    let board = Board::from_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", false).unwrap();
    let (_, infos) = go(&mut engine, &board, 3);
    assert!(infos.iter().all(|i| i.tbhits == 0));
    assert_eq!(
        pychess_engine::bench(pychess_engine::BENCH_DEFAULT_DEPTH).nodes,
        193_912
    );
}
