//! Self-play of the built-in engine at a fixed node (or depth) budget, from the standard
//! start after a few uniformly random plies.
//!
//! Game `i` of a run seeded with `seed` depends on nothing else: its random plies come from
//! its own generator (`pychess_ml`'s `game_seed(seed, i)`), its engine starts with an empty
//! hash table and history, and the search is single-threaded and stops on nodes, not time.
//! So a run's output is the same for any number of threads.

use crate::sample::{clamp_cp, mate_score, Wdl};
use pychess_core::{Board, Color, Game, Move};
use pychess_engine::{check_searchable, Engine, Limits, Score, SearchControl};
use pychess_ml::batch::{game_seed, SplitMix64};

/// How the games are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayOptions {
    /// Games to play.
    pub games: u64,
    /// The index of the first game: a run of `games` games plays games `first_game ..
    /// first_game + games` of the seed's sequence, so a long run can be made in pieces.
    pub first_game: u64,
    /// Nodes per move (the search's only stopping rule with `depth`).
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
    /// Uniformly random plies from the start position before the engine plays.
    pub random_plies: u32,
    /// The run's seed.
    pub seed: u64,
    /// A game still going after this many plies is written as a draw.
    pub max_plies: u32,
}

impl Default for SelfPlayOptions {
    fn default() -> SelfPlayOptions {
        SelfPlayOptions {
            games: 100,
            first_game: 0,
            nodes: Some(5000),
            depth: None,
            random_plies: 8,
            seed: 0,
            max_plies: 400,
        }
    }
}

/// A finished game: where it started, its moves, and for each move the score of the
/// position before it (White's side) and the move the search chose.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The start position.
    pub start: Board,
    /// Every move, the random ones included.
    pub moves: Vec<Move>,
    /// The score before each move (White's side); `None` for the random plies.
    pub scores: Vec<Option<i16>>,
    /// The first `recorded_from` moves were random: their positions are not written.
    pub recorded_from: usize,
    /// The result.
    pub result: Wdl,
}

/// A search score as a record's score, from White's side of `board`.
pub fn white_score(board: &Board, score: Score) -> i16 {
    let ours = match score {
        Score::Cp(cp) => clamp_cp(i64::from(cp)),
        Score::Mate(moves) => mate_score(i64::from(moves)),
    };
    if board.turn() == Color::White {
        ours
    } else {
        -ours
    }
}

/// The search's limits for one move.
pub fn limits(nodes: Option<u64>, depth: Option<u32>) -> Limits {
    Limits {
        nodes,
        depth,
        ..Limits::default()
    }
}

/// Searches the game's position: the chosen move and its score (White's side); `None` for
/// a position the engine does not search (no legal move, or one no game reaches, such as a
/// king missing, which a PGN's `FEN` tag may give).
pub fn search(engine: &mut Engine, game: &Game, limits: &Limits) -> Option<(Move, i16)> {
    check_searchable(game.board()).ok()?;
    let control = SearchControl::new(false);
    let result = engine.search(
        game.board(),
        &game.history_hashes(),
        limits,
        &control,
        &mut |_| {},
    );
    let best = result.best?;
    let score = result
        .lines
        .first()
        .map_or(0, |line| white_score(game.board(), line.score));
    Some((best, score))
}

/// Plays game `index` of the run with `engine` (whose table and history are cleared first).
pub fn play_game(engine: &mut Engine, options: &SelfPlayOptions, index: u64) -> PlayedGame {
    let mut rng = SplitMix64::new(game_seed(options.seed, index));
    let limits = limits(options.nodes, options.depth);
    engine.clear();
    // Random plies; a game that ends during them starts over (with the generator going on).
    let mut game = Game::default();
    for _attempt in 0..100 {
        game = Game::default();
        for _ in 0..options.random_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            game.play(m);
        }
        if game.outcome(true).is_none() {
            break;
        }
    }
    let recorded_from = game.moves().len();
    let mut played = PlayedGame {
        start: game.root().clone(),
        moves: game.moves().collect(),
        scores: vec![None; recorded_from],
        recorded_from,
        result: Wdl::Draw,
    };
    loop {
        if let Some(outcome) = game.outcome(true) {
            played.result = Wdl::of_winner(outcome.winner);
            break;
        }
        if played.moves.len() >= options.max_plies as usize {
            break;
        }
        let Some((best, score)) = search(engine, &game, &limits) else {
            break;
        };
        played.moves.push(best);
        played.scores.push(Some(score));
        game.play(best);
    }
    played
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_engine::EngineOptions;

    #[test]
    fn games_depend_on_their_index_only() {
        let options = SelfPlayOptions {
            games: 3,
            first_game: 0,
            nodes: Some(300),
            max_plies: 40,
            ..SelfPlayOptions::default()
        };
        let engine = || {
            Engine::new(EngineOptions {
                threads: 1,
                hash_mb: 1,
                ..EngineOptions::default()
            })
        };
        let mut a = engine();
        let mut b = engine();
        let first = play_game(&mut a, &options, 2);
        play_game(&mut b, &options, 0);
        let again = play_game(&mut b, &options, 2);
        assert_eq!(first.moves, again.moves);
        assert_eq!(first.scores, again.scores);
        assert_eq!(first.recorded_from, 8);
        assert!(first.moves.len() <= 40);
        assert!(first.scores[8..].iter().all(Option::is_some));
    }
}
