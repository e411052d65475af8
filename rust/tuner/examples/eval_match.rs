//! Plays the tuned weights (`WEIGHTS`) against the hand-set starting weights
//! (`HAND_WEIGHTS`) with the same small fixed-depth search on both sides, from every opening
//! of an EPD file with each colour, and prints the score: a quick check that tuning helped
//! the evaluation, independent of the engine's search and its time management.
//!
//! ```text
//! cargo run --release -p pychess-tuner --example eval_match -- tests/data/openings.epd 3
//! ```
//!
//! The search is deliberately plain (alpha-beta to a fixed depth, then captures only, MVV-LVA
//! order, no hash table) so that only the evaluation differs between the two players.

use std::process::ExitCode;

use pychess_core::{Board, Color, Game, Move, MoveKind, Role};
use pychess_engine::eval::{evaluate_with, Weights, HAND_WEIGHTS, WEIGHTS};

const MATE: i32 = 100_000;
const MAX_PLIES: u64 = 300;

fn victim_value(board: &Board, m: Move) -> i32 {
    if m.kind == MoveKind::EnPassant {
        return 1;
    }
    match board.role_at(m.to) {
        Some(role) => [1, 3, 3, 5, 9, 0][role.index()],
        None => 0,
    }
}

fn is_tactical(board: &Board, m: Move) -> bool {
    m.kind == MoveKind::EnPassant
        || m.promotion().is_some()
        || (!m.is_castle() && board.role_at(m.to).is_some())
}

/// Captures first (most valuable victim, least valuable attacker), then the rest.
fn ordered(board: &Board, tactical_only: bool) -> Vec<Move> {
    let mut moves: Vec<(i32, Move)> = board
        .legal_moves()
        .iter()
        .filter(|&&m| !tactical_only || is_tactical(board, m))
        .map(|&m| {
            let attacker = board.role_at(m.from).map_or(0, |r: Role| r.index() as i32);
            let key = if is_tactical(board, m) {
                100 + 10 * victim_value(board, m) - attacker
            } else {
                0
            };
            (key, m)
        })
        .collect();
    moves.sort_by_key(|&(key, _)| -key);
    moves.into_iter().map(|(_, m)| m).collect()
}

fn quiesce(board: &Board, mut alpha: i32, beta: i32, w: &Weights) -> i32 {
    let stand = evaluate_with(board, w);
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    for m in ordered(board, true) {
        let score = -quiesce(&board.after(m), -beta, -alpha, w);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn search(board: &Board, depth: u32, mut alpha: i32, beta: i32, ply: i32, w: &Weights) -> i32 {
    if depth == 0 {
        return quiesce(board, alpha, beta, w);
    }
    let moves = ordered(board, false);
    if moves.is_empty() {
        return if board.is_check() { -MATE + ply } else { 0 };
    }
    for m in moves {
        let score = -search(&board.after(m), depth - 1, -beta, -alpha, ply + 1, w);
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn best_move(board: &Board, depth: u32, w: &Weights) -> Option<Move> {
    let mut best = None;
    let mut alpha = -MATE - 1;
    for m in ordered(board, false) {
        let score = -search(&board.after(m), depth - 1, -MATE - 1, -alpha, 1, w);
        if score > alpha {
            alpha = score;
            best = Some(m);
        }
    }
    best
}

/// One game from `start`; the tuned side's score in half points (2 win, 1 draw, 0 loss).
fn play(start: &Board, tuned_color: Color, depth: u32) -> u8 {
    let mut game = Game::new(start.clone());
    while game.ply() < MAX_PLIES {
        if let Some(outcome) = game.outcome(true) {
            return match outcome.winner {
                None => 1,
                Some(c) if c == tuned_color => 2,
                Some(_) => 0,
            };
        }
        let weights = if game.board().turn() == tuned_color {
            &WEIGHTS
        } else {
            &HAND_WEIGHTS
        };
        let Some(m) = best_move(game.board(), depth, weights) else {
            break;
        };
        game.play(m);
    }
    1
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "tests/data/openings.epd".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(3).max(1);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("eval_match: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let openings: Vec<Board> = text
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            (fields.len() == 4)
                .then(|| Board::from_fen(&format!("{} 0 1", fields.join(" ")), false).ok())
                .flatten()
        })
        .collect();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (i, start) in openings.iter().enumerate() {
        for color in Color::ALL {
            match play(start, color, depth) {
                2 => wins += 1,
                1 => draws += 1,
                _ => losses += 1,
            }
        }
        if (i + 1) % 20 == 0 {
            eprintln!("{} openings: +{wins} ={draws} -{losses}", i + 1);
        }
    }
    let games = wins + draws + losses;
    let score = (wins as f64 + 0.5 * draws as f64) / games.max(1) as f64;
    let elo = if score > 0.0 && score < 1.0 {
        -400.0 * (1.0 / score - 1.0).log10()
    } else {
        f64::NAN
    };
    println!(
        "tuned vs hand, depth {depth}: {games} games, +{wins} ={draws} -{losses}, \
         score {:.1}%, {elo:+.0} Elo",
        100.0 * score
    );
    ExitCode::SUCCESS
}
