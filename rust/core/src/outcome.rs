//! How games end: insufficient material, and the `Termination`/`Outcome` pair
//! python-chess's `Board.outcome()` returns.

use crate::board::Board;
use crate::types::{Bitboard, Color, Role};

/// Why a game ended (python-chess's `Termination`). Each
/// member's value is python-chess's (`Termination.CHECKMATE.value == 1`, ...): see
/// [`Termination::value`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate = 1,
    /// The side to move has no legal move and is not in check.
    Stalemate = 2,
    /// Neither side can possibly mate.
    InsufficientMaterial = 3,
    /// 150 plies without a capture or pawn move (automatic draw).
    SeventyfiveMoves = 4,
    /// The same position for the fifth time (automatic draw).
    FivefoldRepetition = 5,
    /// 100 plies without a capture or pawn move, claimed.
    FiftyMoves = 6,
    /// The same position for the third time, claimed.
    ThreefoldRepetition = 7,
    /// A variant's rule gave the game to the side to move (see [`crate::variant`]).
    VariantWin = 8,
    /// A variant's rule gave the game to the side not to move.
    VariantLoss = 9,
    /// A variant's rule drew the game.
    VariantDraw = 10,
}

impl Termination {
    /// Every termination, in python-chess's order (by value).
    pub const ALL: [Termination; 10] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::SeventyfiveMoves,
        Termination::FivefoldRepetition,
        Termination::FiftyMoves,
        Termination::ThreefoldRepetition,
        Termination::VariantWin,
        Termination::VariantLoss,
        Termination::VariantDraw,
    ];

    /// python-chess's value of the member (`CHECKMATE` 1 to `VARIANT_DRAW` 10): the
    /// code batches report, which Python turns back into its `Termination` enum.
    ///
    /// ```
    /// use pychess_core::Termination;
    /// assert_eq!(Termination::Checkmate.value(), 1);
    /// assert_eq!(Termination::from_value(7), Some(Termination::ThreefoldRepetition));
    /// assert_eq!(Termination::from_value(0), None);
    /// ```
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The termination with python-chess's value `value`, if any.
    pub fn from_value(value: u8) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.value() == value)
    }
}

/// The end of a game: why, and who won (`None` for a draw).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Why the game ended.
    pub termination: Termination,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2` (the PGN result of the game).
    pub fn result(self) -> &'static str {
        Outcome::result_for(self.winner)
    }

    /// The PGN result of a finished game that `winner` won (`None`: a draw), however it
    /// ended (by the rules, resignation or agreement): `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_for(winner: Option<Color>) -> &'static str {
        match winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl Board {
    /// Can `color` not possibly checkmate, whatever the opponent does? python-chess's rule:
    /// a lone king; or a knight and nothing else while the opponent has only king and queens;
    /// or bishops all on one colour while nobody has pawns or knights (a selfmate otherwise
    /// remains possible).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).nonempty() {
            return false;
        }
        if (ours & self.by_role(Role::Knight)).nonempty() {
            let theirs =
                self.by_color(!color) & !self.by_role(Role::King) & !self.by_role(Role::Queen);
            return ours.count() <= 2 && theirs.is_empty();
        }
        if (ours & self.by_role(Role::Bishop)).nonempty() {
            let bishops = self.by_role(Role::Bishop);
            let same_color = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return same_color
                && self.by_role(Role::Pawn).is_empty()
                && self.by_role(Role::Knight).is_empty();
        }
        true
    }

    /// Is the material insufficient for both sides?
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    /// Is the side to move checkmated?
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Is the side to move stalemated?
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_by_winner() {
        assert_eq!(Outcome::result_for(Some(Color::White)), "1-0");
        assert_eq!(Outcome::result_for(Some(Color::Black)), "0-1");
        assert_eq!(Outcome::result_for(None), "1/2-1/2");
        let mate = Outcome {
            termination: Termination::Checkmate,
            winner: Some(Color::Black),
        };
        assert_eq!(mate.result(), "0-1");
    }

    #[test]
    fn termination_values_are_python_chess_values() {
        let names: Vec<&str> = Termination::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            [
                "CHECKMATE",
                "STALEMATE",
                "INSUFFICIENT_MATERIAL",
                "SEVENTYFIVE_MOVES",
                "FIVEFOLD_REPETITION",
                "FIFTY_MOVES",
                "THREEFOLD_REPETITION",
                "VARIANT_WIN",
                "VARIANT_LOSS",
                "VARIANT_DRAW"
            ]
        );
        for (i, t) in Termination::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(t.value()), i + 1);
            assert_eq!(Termination::from_value(t.value()), Some(t));
        }
        assert_eq!(Termination::from_value(0), None);
        assert_eq!(Termination::from_value(11), None);
    }

    #[test]
    fn insufficient_material_table() {
        for (fen, white, black) in [
            ("8/8/8/8/8/8/8/K1k5 w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/KBk5 w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/KNk5 w - - 0 1", true, true),
            ("8/8/8/8/8/8/1b6/KBk5 w - - 0 1", false, false),
            ("8/8/8/8/8/8/2b5/KBk5 w - - 0 1", true, true),
            ("8/8/8/8/8/8/8/KNkq4 w - - 0 1", true, false),
            ("8/8/8/8/8/8/8/KNkr4 w - - 0 1", false, false),
            ("8/8/8/8/8/8/1P6/K1k5 w - - 0 1", false, true),
        ] {
            let b = Board::from_fen(fen, false).unwrap();
            assert_eq!(b.has_insufficient_material(Color::White), white, "{fen}");
            assert_eq!(b.has_insufficient_material(Color::Black), black, "{fen}");
        }
    }
}
