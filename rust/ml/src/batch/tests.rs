use super::end::{termination_of_code, ILLEGAL_ACTION, ONGOING};
use super::*;
use crate::encode::{action_of, move_of};
use pychess_core::{Color, Termination};

type Buffers = OutputBuffers;

fn fen(f: &str) -> Board {
    Board::from_fen(f, false).unwrap()
}

fn uci_action(game: &Game, uci: &str) -> i64 {
    let m = game
        .resolve_uci(pychess_core::UciMove::parse(uci).unwrap())
        .unwrap();
    action_of(game.board(), m) as i64
}

/// Steps a one-game batch through `moves` (UCI) and returns the last step's buffers.
fn play_out(start: Board, moves: &[&str], options: Options) -> (Batch, Buffers) {
    let mut batch = Batch::new(1, start, options);
    let mut buffers = Buffers::new(1, options.observation);
    batch.reset(buffers.outputs()).unwrap();
    for uci in moves {
        let action = uci_action(batch.game(0).unwrap(), uci);
        batch.step(&[action], buffers.outputs()).unwrap();
    }
    (batch, buffers)
}

#[test]
fn batched_games_equal_games_played_one_by_one() {
    let options = Options {
        observation: ObservationKind::PettingZoo,
        auto_reset: false,
        max_plies: Some(300),
        ..Options::default()
    };
    let n = 6;
    let mut batch = Batch::new(n, Board::default(), options);
    let mut buffers = Buffers::new(n, options.observation);
    batch.reset(buffers.outputs()).unwrap();
    let mut singles: Vec<Game> = (0..n).map(|_| Game::default()).collect();
    let mut actions = vec![0i64; n];
    for step in 0..300u64 {
        batch.random_actions(step, &mut actions).unwrap();
        batch.step(&actions, buffers.outputs()).unwrap();
        for (i, game) in singles.iter_mut().enumerate() {
            if actions[i] < 0 {
                assert!(batch.is_over(i));
                continue;
            }
            let m = move_of(game.board(), actions[i] as usize).unwrap();
            game.play(m);
            assert_eq!(batch.game(i).unwrap().board(), game.board());
            let mut mask = vec![0u8; ACTIONS];
            if batch.is_over(i) {
                assert_eq!(buffers.mask(i), &mask[..]);
            } else {
                encode::legal_action_mask(game.board(), &mut mask);
                assert_eq!(buffers.mask(i), &mask[..]);
            }
            let mut obs = vec![0u8; ObservationKind::PettingZoo.size()];
            encode::pettingzoo_observation(game, &mut obs);
            let size = obs.len();
            assert_eq!(&buffers.observations_u8[i * size..(i + 1) * size], &obs[..]);
            let outcome = game.outcome(false);
            assert_eq!(buffers.terminated[i] == 1, outcome.is_some());
            assert_eq!(
                termination_of_code(buffers.ends[i]),
                outcome.map(|o| o.termination)
            );
            let expected = outcome.map_or([0.0; 2], end::outcome_rewards);
            assert_eq!(buffers.rewards[2 * i..2 * i + 2], expected);
        }
    }
    assert!((0..n).all(|i| batch.is_over(i)));
}

#[test]
fn threads_change_nothing() {
    let run = |threads| {
        let options = Options {
            observation: ObservationKind::AlphaZero,
            max_plies: Some(40),
            threads,
            ..Options::default()
        };
        let mut batch = Batch::new(5, Board::default(), options);
        let mut buffers = Buffers::new(5, options.observation);
        batch.reset(buffers.outputs()).unwrap();
        let mut actions = vec![0i64; 5];
        let mut seen = Vec::new();
        for step in 0..90 {
            batch.random_actions(step, &mut actions).unwrap();
            batch.step(&actions, buffers.outputs()).unwrap();
            seen.push(buffers.clone());
        }
        seen
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
    assert!(one.iter().any(|b| b.truncated.contains(&1)));
}

/// A start, the moves that end the game, how to play, and the expected end and winner.
type Case = (
    Board,
    &'static [&'static str],
    Options,
    Termination,
    Option<Color>,
);

#[test]
fn every_termination_is_reached() {
    let claim = Options {
        claim_draw: true,
        ..Options::default()
    };
    let plain = Options::default();
    let no_reset = Options {
        auto_reset: false,
        ..plain
    };
    let shuffle: &'static [&str] = &[
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1",
        "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    let cases: [Case; 7] = [
        (
            Board::default(),
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            no_reset,
            Termination::Checkmate,
            Some(Color::Black),
        ),
        (
            fen("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"),
            &["e7f7"],
            no_reset,
            Termination::Stalemate,
            None,
        ),
        (
            fen("7k/8/8/8/8/8/6r1/6BK w - - 0 1"),
            &["h1g2"],
            no_reset,
            Termination::InsufficientMaterial,
            None,
        ),
        (
            fen("7k/8/8/8/8/8/R7/7K w - - 149 100"),
            &["a2a3"],
            no_reset,
            Termination::SeventyfiveMoves,
            None,
        ),
        (
            Board::default(),
            shuffle,
            no_reset,
            Termination::FivefoldRepetition,
            None,
        ),
        (
            fen("7k/8/8/8/8/8/R7/7K w - - 98 100"),
            &["a2a3"],
            claim,
            Termination::FiftyMoves,
            None,
        ),
        (
            Board::default(),
            // The claim is possible once the next move would repeat a third time.
            &shuffle[..7],
            claim,
            Termination::ThreefoldRepetition,
            None,
        ),
    ];
    for (start, moves, options, termination, winner) in cases {
        let (batch, buffers) = play_out(start, moves, options);
        assert_eq!(buffers.terminated, [1], "{termination:?}");
        assert_eq!(buffers.truncated, [0]);
        assert_eq!(termination_of_code(buffers.ends[0]), Some(termination));
        let expected = match winner {
            Some(Color::White) => [1.0, -1.0],
            Some(Color::Black) => [-1.0, 1.0],
            None => [0.0, 0.0],
        };
        assert_eq!(buffers.rewards, expected);
        let ended = if options.auto_reset {
            assert_eq!(batch.plies(0), Some(0));
            batch.finished_game(0).unwrap()
        } else {
            assert!(batch.is_over(0));
            assert!(buffers.masks.iter().all(|&b| b == 0));
            batch.game(0).unwrap()
        };
        assert_eq!(ended.moves().len(), moves.len());
        let outcome = ended.outcome(options.claim_draw).unwrap();
        assert_eq!(outcome.termination, termination);
    }
    // The same positions without claims play on.
    let (batch, buffers) = play_out(fen("7k/8/8/8/8/8/R7/7K w - - 98 100"), &["a2a3"], plain);
    assert_eq!((buffers.terminated[0], buffers.ends[0]), (0, ONGOING));
    assert!(!batch.is_over(0));
}

#[test]
fn auto_reset_returns_the_new_games_first_observation() {
    let options = Options {
        observation: ObservationKind::PettingZoo,
        ..Options::default()
    };
    let (batch, buffers) = play_out(Board::default(), &["f2f3", "e7e5", "g2g4", "d8h4"], options);
    let (_, fresh) = play_out(Board::default(), &[], options);
    assert_eq!(buffers.observations_u8, fresh.observations_u8);
    assert_eq!(buffers.masks, fresh.masks);
    assert_eq!(buffers.rewards, [-1.0, 1.0]);
    assert_eq!(batch.game(0).unwrap().moves().len(), 0);
    assert_eq!(batch.finished_game(0).unwrap().moves().len(), 4);
}

#[test]
fn games_over_ignore_actions_until_reset() {
    let options = Options {
        auto_reset: false,
        ..Options::default()
    };
    let (mut batch, mut buffers) =
        play_out(Board::default(), &["f2f3", "e7e5", "g2g4", "d8h4"], options);
    batch.step(&[12345], buffers.outputs()).unwrap();
    assert_eq!(buffers.rewards, [0.0, 0.0]);
    assert_eq!(buffers.terminated, [1]);
    assert_eq!(
        termination_of_code(buffers.ends[0]),
        Some(Termination::Checkmate)
    );
    assert!(batch.reset_game(0));
    assert!(!batch.reset_game(1));
    batch.observe(buffers.outputs()).unwrap();
    assert_eq!(buffers.terminated, [0]);
    assert_eq!(buffers.masks.iter().filter(|&&b| b == 1).count(), 20);
}

#[test]
fn truncation_is_not_termination() {
    let options = Options {
        max_plies: Some(2),
        auto_reset: false,
        ..Options::default()
    };
    let (batch, buffers) = play_out(Board::default(), &["e2e4", "e7e5"], options);
    assert_eq!((buffers.terminated[0], buffers.truncated[0]), (0, 1));
    assert_eq!(buffers.ends[0], ONGOING);
    assert!(batch.is_over(0));
}

#[test]
fn illegal_actions_are_refused_or_lose() {
    let mut batch = Batch::new(2, Board::default(), Options::default());
    let mut buffers = Buffers::new(2, ObservationKind::None);
    batch.reset(buffers.outputs()).unwrap();
    let e4 = uci_action(batch.game(0).unwrap(), "e2e4");
    for bad in [-1, 0, 4672, i64::MAX] {
        let err = batch.step(&[e4, bad], buffers.outputs()).unwrap_err();
        assert!(
            matches!(err, StepError::IllegalAction { game: 1, .. }),
            "{err}"
        );
        // Nothing moved, not even game 0.
        assert_eq!(batch.game(0).unwrap().moves().len(), 0);
    }
    let err = batch.step(&[e4], buffers.outputs()).unwrap_err();
    assert!(matches!(
        err,
        StepError::WrongLength {
            what: "actions",
            ..
        }
    ));
    let mut small = Buffers::new(1, ObservationKind::None);
    let err = batch.step(&[e4, e4], small.outputs()).unwrap_err();
    assert!(matches!(err, StepError::WrongLength { what: "masks", .. }));
    let mut wrong_kind = Buffers::new(2, ObservationKind::PettingZoo);
    let err = batch.step(&[e4, e4], wrong_kind.outputs()).unwrap_err();
    assert_eq!(err, StepError::ObservationType);

    let lose = Options {
        illegal: IllegalAction::Lose,
        auto_reset: false,
        ..Options::default()
    };
    let mut batch = Batch::new(2, Board::default(), lose);
    batch.reset(buffers.outputs()).unwrap();
    batch.step(&[e4, 7], buffers.outputs()).unwrap();
    assert_eq!(buffers.terminated, [0, 1]);
    assert_eq!(buffers.ends, [ONGOING, ILLEGAL_ACTION]);
    assert_eq!(buffers.rewards, [0.0, 0.0, -1.0, 0.0]);
    assert_eq!(batch.game(1).unwrap().moves().len(), 0);
}

#[test]
fn random_actions_are_legal_and_seeded() {
    let mut batch = Batch::new(4, Board::default(), Options::default());
    let mut buffers = Buffers::new(4, ObservationKind::None);
    batch.reset(buffers.outputs()).unwrap();
    let mut a = vec![0i64; 4];
    let mut b = vec![0i64; 4];
    batch.random_actions(9, &mut a).unwrap();
    batch.random_actions(9, &mut b).unwrap();
    assert_eq!(a, b);
    for (i, &action) in a.iter().enumerate() {
        assert_eq!(buffers.mask(i)[action as usize], 1);
    }
    assert!(batch.random_actions(9, &mut b[..3]).is_err());
}

/// Every output of `steps` random steps, as bytes, for a batch with `options`.
fn random_run(options: Options, games: usize, steps: u64) -> Vec<Vec<u8>> {
    let mut batch = Batch::new(games, Board::default(), options);
    let mut buffers = Buffers::for_options(games, &options);
    batch.reset(buffers.outputs()).unwrap();
    let mut played = vec![0i64; games];
    let mut seen = Vec::new();
    for step in 0..steps {
        batch
            .step_random(step, &mut played, buffers.outputs())
            .unwrap();
        let b = &buffers;
        let bytes = |v: &[u8]| v.to_vec();
        seen.push(bytes(&b.observations_u8));
        seen.push(
            b.observations_f32
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
        );
        seen.push(
            b.observations_packed
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
        );
        seen.push(bytes(&b.masks));
        seen.push(b.mask_bits.iter().flat_map(|v| v.to_ne_bytes()).collect());
        seen.push(
            b.mask_indices
                .iter()
                .flat_map(|v| v.to_ne_bytes())
                .collect(),
        );
        seen.push(b.rewards.iter().flat_map(|v| v.to_ne_bytes()).collect());
        seen.push(bytes(&b.terminated));
        seen.push(bytes(&b.truncated));
        seen.push(b.ends.iter().map(|&e| e as u8).collect());
        seen.push(played.iter().flat_map(|v| v.to_ne_bytes()).collect());
    }
    seen
}

#[test]
fn every_format_is_the_same_whatever_the_thread_count() {
    for observation in [ObservationKind::AlphaZero, ObservationKind::PettingZoo] {
        for planes in [Planes::U8, Planes::F32, Planes::Packed] {
            for mask in [MaskFormat::Bytes, MaskFormat::Bits, MaskFormat::Indices] {
                let options = Options {
                    observation,
                    planes,
                    mask,
                    max_plies: Some(40),
                    ..Options::default()
                };
                let one = random_run(options, 9, 50);
                for threads in [2, 3, 8] {
                    let many = random_run(Options { threads, ..options }, 9, 50);
                    assert!(one == many, "{observation:?} {planes:?} {mask:?} {threads}");
                }
            }
        }
    }
}

#[test]
fn random_steps_play_the_actions_random_actions_draws() {
    let options = Options {
        observation: ObservationKind::AlphaZero,
        planes: Planes::Packed,
        mask: MaskFormat::Bits,
        max_plies: Some(30),
        threads: 2,
        ..Options::default()
    };
    let mut drawn = Batch::new(5, Board::default(), options);
    let mut stepped = drawn.clone();
    let mut a = Buffers::for_options(5, &options);
    let mut b = Buffers::for_options(5, &options);
    drawn.reset(a.outputs()).unwrap();
    stepped.reset(b.outputs()).unwrap();
    let mut actions = vec![0i64; 5];
    let mut played = vec![0i64; 5];
    for seed in 0..80 {
        drawn.random_actions(seed, &mut actions).unwrap();
        drawn.step(&actions, a.outputs()).unwrap();
        stepped.step_random(seed, &mut played, b.outputs()).unwrap();
        assert_eq!(actions, played);
        assert_eq!(a, b);
    }
    assert!(stepped.threads_started() == 1 && drawn.threads_started() == 1);
}

#[test]
fn the_mask_forms_and_plane_types_say_the_same() {
    let formats = |planes, mask| Options {
        observation: ObservationKind::AlphaZero,
        planes,
        mask,
        max_plies: Some(25),
        ..Options::default()
    };
    let bytes = formats(Planes::F32, MaskFormat::Bytes);
    let bits = formats(Planes::U8, MaskFormat::Bits);
    let indices = formats(Planes::Packed, MaskFormat::Indices);
    let run = |options: Options| {
        let mut batch = Batch::new(4, Board::default(), options);
        let mut buffers = Buffers::for_options(4, &options);
        batch.reset(buffers.outputs()).unwrap();
        let mut played = vec![0i64; 4];
        let mut all = Vec::new();
        for seed in 0..60 {
            batch
                .step_random(seed, &mut played, buffers.outputs())
                .unwrap();
            all.push(buffers.clone());
        }
        all
    };
    for ((x, y), z) in run(bytes).iter().zip(run(bits)).zip(run(indices)) {
        for game in 0..4 {
            let dense: Vec<usize> = (0..ACTIONS).filter(|&a| x.mask(game)[a] == 1).collect();
            let from_bits: Vec<usize> = (0..ACTIONS)
                .filter(|&a| y.mask_bits[game * MASK_WORDS + a / 64] >> (a % 64) & 1 == 1)
                .collect();
            let row = &z.mask_indices[game * MAX_LEGAL..(game + 1) * MAX_LEGAL];
            let listed: Vec<usize> = row
                .iter()
                .take_while(|&&a| a >= 0)
                .map(|&a| a as usize)
                .collect();
            assert_eq!(dense, from_bits);
            assert_eq!(dense, listed);
            assert!(row[listed.len()..].iter().all(|&a| a == -1));
            // Planes: f32, u8 and the packed words agree cell by cell.
            let size = ObservationKind::AlphaZero.size();
            let words = &z.observations_packed[game * 119..(game + 1) * 119];
            for cell in 0..64 {
                for (c, &word) in words.iter().enumerate() {
                    let f = x.observations_f32[game * size + cell * 119 + c];
                    let u = y.observations_u8[game * size + cell * 119 + c];
                    let p = if encode::ALPHAZERO_COUNTER_WORDS.contains(&c) {
                        word as f32
                    } else {
                        (word >> cell & 1) as f32
                    };
                    assert_eq!(f, p);
                    assert_eq!(u, f.min(255.0) as u8);
                }
            }
        }
    }
}
