use super::*;
use crate::api::{EngineOptions, Score};
use pychess_core::Color;
use std::time::Instant;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 8,
        ..EngineOptions::default()
    })
}

fn position(fen: &str, variant: Variant) -> VariantBoard {
    VariantBoard::from_fen(fen, variant, false).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn search(position: &VariantBoard, limits: &Limits) -> SearchResult {
    let control = SearchControl::new(false);
    engine().search_variant(position, &[], limits, &control, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn uci(position: &VariantBoard, m: Move) -> String {
    position.uci(m).to_string()
}

#[test]
fn every_start_position_gets_a_legal_move_and_pv() {
    for variant in Variant::ALL {
        let root = VariantBoard::new(variant);
        let result = search(&root, &depth(4));
        let best = result.best.expect("a move");
        assert!(root.legal_moves().contains(&best), "{variant:?}");
        let line = &result.lines[0];
        assert_eq!(line.depth, 4, "{variant:?}");
        assert_eq!(legal_prefix(&root, &line.pv), line.pv, "{variant:?}");
        assert!(
            matches!(line.score, Score::Cp(_)),
            "{variant:?}: {:?}",
            line.score
        );
    }
}

/// A win in one move (or, in the Antichess family, one move that forces the opponent to
/// take our last piece), reported as mate in 1.
#[test]
fn finds_each_variants_win_in_one() {
    for (variant, fen, expected) in [
        (
            Variant::KingOfTheHill,
            "8/8/8/8/8/3K4/8/7k w - - 0 1",
            &["d3d4", "d3e4"][..],
        ),
        (
            Variant::ThreeCheck,
            "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2",
            &["d1h5"],
        ),
        (
            Variant::RacingKings,
            "8/4K3/8/8/8/8/k7/8 w - - 0 1",
            &["e7d8", "e7e8", "e7f8"],
        ),
        (
            Variant::Atomic,
            "4k3/4p3/8/5N2/8/8/8/4K3 w - - 0 1",
            &["f5e7"],
        ),
        (
            Variant::Crazyhouse,
            "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1",
            &["Q@b7", "Q@a7"],
        ),
        (Variant::Horde, "4k3/8/8/8/8/8/3P4/4q3 b - - 0 1", &["e1d2"]),
        (
            Variant::Antichess,
            "8/8/8/8/8/8/1p6/R7 w - - 0 1",
            &["a1c1"],
        ),
        (Variant::Giveaway, "8/8/8/8/8/8/1p6/R7 w - - 0 1", &["a1c1"]),
        (Variant::Suicide, "8/8/8/8/8/8/1p6/R7 w - - 0 1", &["a1c1"]),
    ] {
        let root = position(fen, variant);
        let result = search(&root, &depth(4));
        let best = uci(&root, result.best.unwrap());
        assert!(expected.contains(&best.as_str()), "{variant:?}: {best}");
        assert_eq!(result.lines[0].score, Score::Mate(1), "{variant:?}");
    }
}

#[test]
fn atomic_never_explodes_its_own_king() {
    // Taking the rook on d2 with the queen would blow up the white king on e1; taking the
    // knight on a5 (far from both kings) wins material safely.
    let root = position("4k3/8/8/n7/8/8/3r4/3QK3 w - - 0 1", Variant::Atomic);
    let result = search(&root, &depth(5));
    let after = root.after(result.best.unwrap());
    assert!(after.king(Color::White).is_some());
    assert_ne!(uci(&root, result.best.unwrap()), "d1d2");
}

#[test]
fn antichess_plays_its_forced_capture() {
    // Black's pawn can take on d4: it must.
    let root = position("8/8/8/4p3/3P4/8/8/8 b - - 0 1", Variant::Antichess);
    let result = search(&root, &depth(3));
    assert_eq!(uci(&root, result.best.unwrap()), "e5d4");
}

#[test]
fn crazyhouse_drops_to_defend_and_tables_keep_pockets_apart() {
    let a = position("k7/8/1K6/8/8/8/8/8[Q] w - - 0 1", Variant::Crazyhouse);
    let b = position("k7/8/1K6/8/8/8/8/8[] w - - 0 1", Variant::Crazyhouse);
    assert_ne!(search_key(&a), search_key(&b));
    assert_eq!(a.zobrist_hash(), b.zobrist_hash());
    // Without the queen in hand the position is a dead draw of kings.
    let result = search(&b, &depth(4));
    assert_eq!(result.lines[0].score, Score::Cp(0));
}

#[test]
fn king_of_the_hill_walks_to_the_centre() {
    // Two steps from the hill, the enemy king far away: a forced win in two.
    let root = position("7k/8/8/8/8/8/2K5/8 w - - 0 1", Variant::KingOfTheHill);
    let result = search(&root, &depth(5));
    assert_eq!(result.lines[0].score, Score::Mate(2));
}

#[test]
fn limits_are_respected() {
    let root = VariantBoard::new(Variant::Crazyhouse);
    let start = Instant::now();
    let result = search(
        &root,
        &Limits {
            movetime: Some(Duration::from_millis(150)),
            ..Limits::default()
        },
    );
    assert!(result.best.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
    let result = search(
        &root,
        &Limits {
            nodes: Some(3000),
            ..Limits::default()
        },
    );
    let nodes = result.lines.last().map_or(0, |l| l.nodes);
    assert!(nodes <= 3000 + 200, "{nodes}");
    // A stop before the search: it still answers with a legal move.
    let control = SearchControl::new(false);
    control.stop();
    let result = engine().search_variant(&root, &[], &Limits::default(), &control, &mut |_| {});
    assert!(root.legal_moves().contains(&result.best.unwrap()));
}

#[test]
fn skill_levels_pick_legal_moves() {
    for variant in Variant::ALL {
        let root = VariantBoard::new(variant);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 8,
            skill_level: 2,
            ..EngineOptions::default()
        });
        let control = SearchControl::new(false);
        let result = engine.search_variant(&root, &[], &depth(6), &control, &mut |_| {});
        assert!(
            root.legal_moves().contains(&result.best.unwrap()),
            "{variant:?}"
        );
    }
}

#[test]
fn antichess_capture_chains_stay_within_limits() {
    // Queens en prise on both sides: before quiescence bounded its forced captures, depth
    // 1 alone searched 11 million nodes here.
    let root = position(
        "rnb1kbnr/pp1Qpppp/8/2q5/8/8/PPP1PPPP/RNB1KBNR w - - 0 4",
        Variant::Antichess,
    );
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        skill_level: 0,
        ..EngineOptions::default()
    });
    let control = SearchControl::new(false);
    let start = Instant::now();
    let limits = Limits {
        nodes: Some(300),
        ..Limits::default()
    };
    let result = engine.search_variant(&root, &[], &limits, &control, &mut |_| {});
    assert!(root.legal_moves().contains(&result.best.unwrap()));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    let nodes = result.lines.last().map_or(0, |l| l.nodes);
    assert!(nodes < 300 * 16 + 100, "{nodes}");
}
