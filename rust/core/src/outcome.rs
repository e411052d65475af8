//! How games end: insufficient material, and the `Termination`/`Outcome` pair
//! python-chess's `Board.outcome()` returns.

use crate::board::Board;
use crate::types::{Bitboard, Color, Role};

/// Why a game ended (python-chess's `Termination`, without the variant-only members).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can possibly mate.
    InsufficientMaterial,
    /// 150 plies without a capture or pawn move (automatic draw).
    SeventyfiveMoves,
    /// The same position for the fifth time (automatic draw).
    FivefoldRepetition,
    /// 100 plies without a capture or pawn move, claimed.
    FiftyMoves,
    /// The same position for the third time, claimed.
    ThreefoldRepetition,
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
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result(self) -> &'static str {
        match self.winner {
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
