use pychess_core::{Board, Game};

use super::layout::*;
use super::*;

fn board(fen: &str) -> Board {
    Board::from_fen(fen, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Positions of every kind: openings, middlegames, endings, both sides to move.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "8/8/4k3/8/8/2B5/4K3/8 w - - 0 1",
    "8/5k2/3b4/3P4/2B5/5K2/8/8 b - - 0 1",
    "8/8/8/3k4/8/8/3K4/3R4 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP4/PPPQ1PPP/R1B2RK1 b - - 3 12",
    "8/p7/1p6/2p5/2P5/1P6/P7/k1K5 w - - 0 40",
];

/// More positions: a few plies of every legal line from some of the above.
fn many_positions() -> Vec<Board> {
    let mut out = Vec::new();
    for fen in FENS {
        let start = board(fen);
        out.push(start.clone());
        for m in start.legal_moves().iter().take(12) {
            let child = start.after(*m);
            for n in child.legal_moves().iter().take(6) {
                out.push(child.after(*n));
            }
            out.push(child);
        }
    }
    out
}

#[test]
fn mirror_gives_the_same_score() {
    for b in many_positions() {
        let m = b.mirror();
        assert_eq!(evaluate(&b), evaluate(&m), "{} vs {}", b.fen(), m.fen());
        assert_eq!(
            evaluate_with(&b, &HAND_WEIGHTS),
            evaluate_with(&m, &HAND_WEIGHTS)
        );
    }
}

#[test]
fn trace_reproduces_the_evaluation_exactly() {
    // Also with weights where every entry differs, so a term counted into the wrong index
    // or with the wrong sign cannot hide behind a zero weight.
    let mut varied = WEIGHTS;
    for (i, w) in varied.iter_mut().enumerate() {
        *w = S::new(w.mg + (i as i32 % 13) - 6, w.eg + (i as i32 % 7) - 3);
    }
    for b in many_positions() {
        let t = trace(&b);
        for weights in [&WEIGHTS, &HAND_WEIGHTS, &varied] {
            let white = t.white_eval(weights);
            let stm = if b.turn() == Color::White {
                white
            } else {
                -white
            };
            assert_eq!(stm, evaluate_with(&b, weights), "{}", b.fen());
        }
    }
}

#[test]
fn tapering_endpoints() {
    // One feature with different middlegame and endgame values shows which end is used.
    let mut w = [S::default(); FEATURE_COUNT];
    w[MATERIAL + 1] = S::new(300, 200);
    let opening = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1");
    assert_eq!(features::phase(&opening), PHASE_MAX - 1);
    // Black is a knight up: 300 * 23/24 + 200 * 1/24.
    assert_eq!(evaluate_with(&opening, &w), (300 * 23 + 200) / 24);
    let full = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(features::phase(&full), PHASE_MAX);
    let knight_ending = board("4k3/pppp4/8/8/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(features::phase(&knight_ending), 1);
    let pawn_ending = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
    assert_eq!(features::phase(&pawn_ending), 0);
    w[MATERIAL] = S::new(10, 90);
    let pawn_up = board("4k3/ppp5/8/8/8/8/PPPP4/4K3 w - - 0 1");
    assert_eq!(evaluate_with(&pawn_up, &w), 90, "pure endgame value");
    // Promoted material counts: with nine queens the phase saturates at the maximum.
    let queens = board("QQQQQQQQ/Q7/8/8/8/8/PPP5/K1k5 w - - 0 1");
    assert_eq!(features::phase(&queens), PHASE_MAX);
}

#[test]
fn drawish_endings_are_scaled_down() {
    let lone_bishop = board("8/8/4k3/8/8/2B5/4K3/8 w - - 0 1");
    assert_eq!(features::endgame_scale(&lone_bishop), [0, 0]);
    // Only the middlegame share (phase 1 of 24) of the bishop's value is left.
    assert!(
        evaluate(&lone_bishop).abs() < 30,
        "{}",
        evaluate(&lone_bishop)
    );
    let rook_v_bishop = board("8/8/4k3/4b3/8/8/4K3/3R4 w - - 0 1");
    assert_eq!(features::endgame_scale(&rook_v_bishop)[0], SCALE_MAX / 4);
    let opposite = board("8/5k2/3b4/3P4/2B5/5K2/8/8 b - - 0 1");
    // White's pawn is worth half as much; Black, with a lone bishop, cannot win at all.
    assert_eq!(features::endgame_scale(&opposite), [SCALE_MAX / 2, 0]);
    let same = board("8/5k2/4b3/3P4/2B5/5K2/8/8 b - - 0 1");
    assert_eq!(features::endgame_scale(&same), [SCALE_MAX, 0]);
    let rook_up = board("8/8/8/3k4/8/8/3K4/3R4 w - - 0 1");
    assert_eq!(features::endgame_scale(&rook_up), [SCALE_MAX, 0]);
    assert!(evaluate(&rook_up) > 300);
}

#[test]
fn sanity() {
    let start = Board::default();
    assert!(evaluate(&start).abs() < 40, "start {}", evaluate(&start));
    let extra_queen = board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(evaluate(&extra_queen) > 600);
    assert!(evaluate(&extra_queen.mirror()) > 600);
    let black_to_move = board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(evaluate(&black_to_move) < -600);

    let seventh = board("6k1/1P6/8/8/8/8/8/6K1 w - - 0 1");
    let second = board("6k1/8/8/8/8/8/1P6/6K1 w - - 0 1");
    assert!(evaluate(&seventh) > evaluate(&second) + 50);
    let passed = board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
    let blocked = board("4k3/8/3p4/3P4/8/8/8/4K3 w - - 0 1");
    assert!(evaluate(&passed) > evaluate(&blocked) + 50);

    let doubled = board("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1");
    let split = board("4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
    assert!(evaluate(&split) > evaluate(&doubled));
}

#[test]
fn traces_name_the_terms_they_count() {
    let t = trace(&board("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"));
    let count = |index: usize| {
        t.terms
            .iter()
            .find(|&&(i, _)| i == index)
            .map_or(0, |&(_, n)| n)
    };
    assert_eq!(count(MATERIAL), 1);
    assert_eq!(count(PASSED + 4), 1);
    assert_eq!(count(PASSED_FREE + 4), 1);
    assert_eq!(count(ISOLATED), 1);
    // Own king e1 to d6: distance 5; enemy king e8 to d6: distance 2.
    assert_eq!(count(PASSED_OWN_KING + 4), 5);
    assert_eq!(count(PASSED_ENEMY_KING + 4), 2);
    assert_eq!(count(TEMPO), 1);
    // The d5 pawn: rank 5 (index 4), file d (index 3).
    assert_eq!(count(PST + 4 * 4 + 3), 1);
    assert!(t.terms.windows(2).all(|w| w[0].0 < w[1].0));
}

#[test]
fn evaluation_of_a_played_game_never_panics() {
    let mut game = Game::default();
    for uci in [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6",
    ] {
        game.push_uci(pychess_core::UciMove::parse(uci).unwrap())
            .unwrap();
        let _ = evaluate(game.board());
    }
}
