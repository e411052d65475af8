//! The variants' integration tests, one binary (one link in CI): perft tables from
//! Fairy-Stockfish and python-chess (`perft`), and random python-chess games compared move by
//! move (`playouts`). `cargo test -p pychess-core --test variants`.

/// One `#[test]` per variant, each calling `$run(variant)`: the tests are listed and failed
/// by variant name.
macro_rules! per_variant {
    ($run:ident) => {
        #[test]
        fn king_of_the_hill() {
            $run(Variant::KingOfTheHill);
        }

        #[test]
        fn three_check() {
            $run(Variant::ThreeCheck);
        }

        #[test]
        fn racing_kings() {
            $run(Variant::RacingKings);
        }

        #[test]
        fn antichess() {
            $run(Variant::Antichess);
        }

        #[test]
        fn giveaway() {
            $run(Variant::Giveaway);
        }

        #[test]
        fn suicide() {
            $run(Variant::Suicide);
        }

        #[test]
        fn horde() {
            $run(Variant::Horde);
        }

        #[test]
        fn atomic() {
            $run(Variant::Atomic);
        }

        #[test]
        fn crazyhouse() {
            $run(Variant::Crazyhouse);
        }
    };
}

mod perft;
mod playouts;
