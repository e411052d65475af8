//! Chess variants (python-chess's `chess.variant`, lichess's variants): the rules of each one
//! on top of the standard [`Board`], in a type of their own, [`VariantBoard`].
//!
//! # Design
//!
//! shakmaty gives each variant its own position type behind a `Position` trait, plus an enum
//! over them. Here the standard [`Board`] stays exactly as it is and variants live in a
//! separate type: a [`VariantBoard`] is a [`Board`] (placement, side to move, castling, en
//! passant, clocks, promoted marks), the [`Variant`] it plays, and the state only some
//! variants have (Three-check's remaining checks, Crazyhouse's pockets). Its methods match on
//! the variant once per call and then either reuse the standard generator (King of the Hill,
//! Three-check, Racing Kings and Horde play chess's moves: the first two add ways to end the
//! game, the third forbids moves that give check, and Horde's kingless horde is served by the
//! board's general rules) or run a generator of their own (the Antichess family, where the
//! king is an ordinary piece and captures are compulsory, `antichess.rs`; Atomic, whose
//! captures explode, `atomic.rs`). Crazyhouse adds its drops (`crazyhouse.rs`) to chess's
//! moves, as moves of kind `MoveKind::Drop`, which the standard board plays like any other.
//! The standard board lends these generators its pseudo-legal moves and, for Atomic, one
//! helper that takes the exploded pieces off.
//!
//! Why not a variant field in [`Board`], or generics over a rules trait? A field would put a
//! test in every call of the standard generator and of `play`, and the standard board's
//! bulk-counted perft is what everything else (the engine, the bindings, the batch readers)
//! runs on; generics would make every user of [`Board`] name a type parameter. A separate
//! type costs the standard board nothing by construction: its generator does not change, and
//! its `play` gains only the arm that puts a dropped piece down (standard perft measured
//! unchanged, see docs/variants.md). The price is one `match` per call on the variant side,
//! next to move generation that costs far more.
//!
//! ```
//! use pychess_core::variant::{Variant, VariantBoard};
//! let board = VariantBoard::new(Variant::RacingKings);
//! assert_eq!(board.legal_moves().len(), 21);
//! assert_eq!(board.perft(2), 421);
//! let three_check = VariantBoard::from_fen(
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+0",
//!     Variant::ThreeCheck,
//!     false,
//! )
//! .unwrap();
//! assert_eq!(three_check.remaining_checks(), [1, 3]);
//! assert_eq!(three_check.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+3 0 1");
//! ```

mod antichess;
mod atomic;
mod crazyhouse;
mod horde;
mod notation;
mod position;

pub use crazyhouse::{legal_drop_squares, Pockets};
pub use position::{VariantBoard, VariantResult};

/// A chess variant python-chess and lichess play (those whose rules are written so far).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// King of the Hill: bringing one's king to d4, e4, d5 or e5 wins.
    KingOfTheHill,
    /// Three-check: giving check for the third time wins.
    ThreeCheck,
    /// Racing Kings: no checks allowed; the first king on the eighth rank wins (Black may
    /// still draw by reaching it on the next move).
    RacingKings,
    /// Antichess (lichess): captures are compulsory, the king is an ordinary piece, no
    /// castling; losing every piece or being stalemated wins.
    Antichess,
    /// Giveaway: Antichess with castling.
    Giveaway,
    /// Suicide (FICS): as Giveaway, but a stalemate is won by the side with fewer pieces.
    Suicide,
    /// Atomic: a capture explodes the pieces around it (pawns excepted); exploding the enemy
    /// king wins.
    Atomic,
    /// Crazyhouse: captured pieces change sides and may be dropped back onto the board.
    Crazyhouse,
    /// Horde: 36 white pawns and no white king against Black's army; taking every white
    /// piece wins, White wins by checkmate.
    Horde,
}

impl Variant {
    /// Every variant, in python-chess's `VARIANTS` order.
    pub const ALL: [Variant; 9] = [
        Variant::Suicide,
        Variant::Giveaway,
        Variant::Antichess,
        Variant::Atomic,
        Variant::KingOfTheHill,
        Variant::RacingKings,
        Variant::Horde,
        Variant::ThreeCheck,
        Variant::Crazyhouse,
    ];

    /// The name UCI engines take in `UCI_Variant` (python-chess's `uci_variant`).
    pub const fn uci_name(self) -> &'static str {
        match self {
            Variant::KingOfTheHill => "kingofthehill",
            Variant::ThreeCheck => "3check",
            Variant::RacingKings => "racingkings",
            Variant::Antichess => "antichess",
            Variant::Giveaway => "giveaway",
            Variant::Suicide => "suicide",
            Variant::Horde => "horde",
            Variant::Atomic => "atomic",
            Variant::Crazyhouse => "crazyhouse",
        }
    }

    /// The names python-chess's `find_variant` knows the variant by (its `aliases`), the
    /// first being the one PGN `[Variant]` tags write.
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            Variant::KingOfTheHill => &["King of the Hill", "KOTH", "kingOfTheHill"],
            Variant::ThreeCheck => &[
                "Three-check",
                "Three check",
                "Threecheck",
                "Three check chess",
                "3-check",
                "3 check",
                "3check",
            ],
            Variant::RacingKings => &["Racing Kings", "Racing", "Race", "racingkings"],
            Variant::Antichess => &["Antichess", "Anti chess", "Anti"],
            Variant::Giveaway => &["Giveaway", "Giveaway chess", "Give away", "Give away chess"],
            Variant::Suicide => &["Suicide", "Suicide chess"],
            Variant::Horde => &["Horde", "Horde chess"],
            Variant::Atomic => &["Atomic", "Atom", "Atomic chess"],
            Variant::Crazyhouse => &["Crazyhouse", "Crazy House", "House", "ZH"],
        }
    }

    /// The variant one of its [`aliases`](Variant::aliases) names, compared case-insensitively
    /// (python-chess's `find_variant`, which takes the first match in `VARIANTS` order).
    ///
    /// ```
    /// use pychess_core::variant::Variant;
    /// assert_eq!(Variant::find("koth"), Some(Variant::KingOfTheHill));
    /// assert_eq!(Variant::find("3-Check"), Some(Variant::ThreeCheck));
    /// assert_eq!(Variant::find("shogi"), None);
    /// ```
    pub fn find(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|variant| {
            variant
                .aliases()
                .iter()
                .any(|alias| alias.eq_ignore_ascii_case(name))
        })
    }

    /// The starting position (python-chess's `starting_fen`).
    pub const fn starting_fen(self) -> &'static str {
        match self {
            Variant::ThreeCheck => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
            Variant::RacingKings => "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
            Variant::Crazyhouse => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
            Variant::Antichess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            Variant::Horde => {
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
            }
            Variant::KingOfTheHill | Variant::Giveaway | Variant::Suicide | Variant::Atomic => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            }
        }
    }

    /// Is the king an ordinary piece, with captures compulsory (Antichess, Giveaway, Suicide)?
    pub const fn is_antichess(self) -> bool {
        matches!(
            self,
            Variant::Antichess | Variant::Giveaway | Variant::Suicide
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_find_their_variant() {
        for variant in Variant::ALL {
            assert_eq!(Variant::find(variant.uci_name()), Some(variant));
            for alias in variant.aliases() {
                assert_eq!(Variant::find(alias), Some(variant), "{alias}");
                assert_eq!(Variant::find(&alias.to_uppercase()), Some(variant));
            }
        }
        assert_eq!(Variant::find("chess"), None);
    }
}
