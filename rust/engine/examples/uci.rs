//! A minimal synchronous UCI loop over this crate, for matches of a fresh build against
//! other engines (`tools/match.py --engine cmd=.../examples/uci`). The real UCI front end is
//! `pychess_rs.uci`; this one knows `position`, `go` (clock, depth, nodes, movetime),
//! `setoption` Hash/Threads/MultiPV/Skill Level and ignores `stop` (it does not ponder).

use pychess_core::{Board, Move, UciMove};
use pychess_engine::{Clock, Engine, EngineOptions, Limits, Score, SearchControl};
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let mut engine = Engine::new(EngineOptions::default());
    let mut board = Board::default();
    let mut history: Vec<u64> = Vec::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                println!("id name pychess-engine-example");
                println!("option name Hash type spin default 16 min 1 max 4096");
                println!("option name Threads type spin default 1 min 1 max 256");
                println!("option name MultiPV type spin default 1 min 1 max 256");
                println!("option name Skill Level type spin default 20 min 0 max 20");
                println!("uciok");
            }
            Some("isready") => println!("readyok"),
            Some("ucinewgame") => engine.clear(),
            Some("setoption") => setoption(&mut engine, &line),
            Some("position") => {
                if let Some((b, h)) = position(&words) {
                    board = b;
                    history = h;
                }
            }
            Some("go") => go(&mut engine, &board, &history, &words),
            Some("quit") => break,
            _ => {}
        }
        let _ = out.flush();
    }
}

fn setoption(engine: &mut Engine, line: &str) {
    let Some(rest) = line.strip_prefix("setoption name ") else {
        return;
    };
    let Some((name, value)) = rest.split_once(" value ") else {
        return;
    };
    let mut options = engine.options().clone();
    let number = value.trim().parse::<usize>().unwrap_or(0);
    match name.trim().to_ascii_lowercase().as_str() {
        "hash" => options.hash_mb = number.max(1),
        "threads" => options.threads = number.max(1),
        "multipv" => options.multipv = number.max(1),
        "skill level" => options.skill_level = number.min(20) as u32,
        _ => return,
    }
    engine.set_options(options);
}

fn position(words: &[&str]) -> Option<(Board, Vec<u64>)> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let spec_end = moves_at.unwrap_or(words.len());
    let mut board = match words.get(1).copied() {
        Some("startpos") => Board::default(),
        Some("fen") => Board::from_fen(&words[2..spec_end].join(" "), false).ok()?,
        _ => return None,
    };
    let mut history = Vec::new();
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let m: Move = board.find_legal(UciMove::parse(text).ok()?)?;
        history.push(board.zobrist_hash());
        board.play_unchecked(m);
    }
    Some((board, history))
}

fn go(engine: &mut Engine, board: &Board, history: &[u64], words: &[&str]) {
    let value = |key: &str| -> Option<u64> {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1)?.parse().ok()
    };
    let (time, inc) = if board.turn().is_white() {
        ("wtime", "winc")
    } else {
        ("btime", "binc")
    };
    let limits = Limits {
        depth: value("depth").map(|d| d as u32),
        nodes: value("nodes"),
        movetime: value("movetime").map(Duration::from_millis),
        clock: value(time).map(|t| Clock {
            time_left: Duration::from_millis(t),
            increment: Duration::from_millis(value(inc).unwrap_or(0)),
            moves_to_go: value("movestogo").map(|m| m as u32),
        }),
        infinite: words.contains(&"infinite"),
        ..Limits::default()
    };
    let control = SearchControl::new(false);
    let result = engine.search(board, history, &limits, &control, &mut |info| {
        let score = match info.score {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let mut b = board.clone();
        let mut pv = Vec::new();
        for &m in &info.pv {
            pv.push(b.uci(m).to_string());
            b.play_unchecked(m);
        }
        println!(
            "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.nodes,
            info.nps,
            info.hashfull,
            info.time_ms,
            pv.join(" ")
        );
    });
    match result.best {
        Some(best) => println!("bestmove {}", board.uci(best)),
        None => println!("bestmove 0000"),
    }
}
