//! A move as the core plays it.
//!
//! Castling is stored as "king takes own rook" (`e1h1`), the one encoding that also covers
//! Chess960; notation converts to `e1g1` for standard chess. The kind of move is part of the
//! value so that playing it needs no lookups.

use super::{Role, Square};

/// What a move does besides moving a piece from one square to another.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A plain move or capture (not a pawn double step, castle, en passant or promotion).
    Normal,
    /// A pawn advancing two squares; sets the en-passant square.
    DoubleStep,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; `to` is the rook's square.
    Castle,
    /// A pawn reaching the back rank, becoming the given role.
    Promotion(Role),
    /// A piece of the given role put from the pocket onto `to` (Crazyhouse; `from == to`).
    Drop(Role),
}

/// A move. `Move::NULL` passes the turn (python-chess's `Move.null()`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (the rook's square for castling).
    pub to: Square,
    /// What else happens.
    pub kind: MoveKind,
}

impl Move {
    /// The null move: `a1a1` with no effect but passing the turn.
    pub const NULL: Move = Move {
        from: Square::new(0),
        to: Square::new(0),
        kind: MoveKind::Normal,
    };

    /// A move of the given kind.
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move { from, to, kind }
    }

    /// Is this the null move?
    #[inline]
    pub fn is_null(self) -> bool {
        self.from == self.to && !self.is_drop()
    }

    /// A drop of `role` onto `to` (Crazyhouse).
    #[inline]
    pub const fn drop(role: Role, to: Square) -> Move {
        Move::new(to, to, MoveKind::Drop(role))
    }

    /// Is this a drop?
    #[inline]
    pub fn is_drop(self) -> bool {
        matches!(self.kind, MoveKind::Drop(_))
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    /// Is this castling?
    #[inline]
    pub fn is_castle(self) -> bool {
        self.kind == MoveKind::Castle
    }

    /// Is this an en-passant capture?
    #[inline]
    pub fn is_en_passant(self) -> bool {
        self.kind == MoveKind::EnPassant
    }

    /// The square the king lands on when castling (the g- or c-file of its rank).
    #[inline]
    pub const fn castle_king_target(self) -> Square {
        let file = if self.to.file() > self.from.file() {
            6
        } else {
            2
        };
        Square::from_coords(file, self.from.rank())
    }

    /// The pawn an en-passant capture takes: beside the capturing pawn, on the file it
    /// moves to.
    #[inline]
    pub const fn en_passant_victim(self) -> Square {
        Square::from_coords(self.to.file(), self.from.rank())
    }

    /// The square the rook lands on when castling (the f- or d-file of its rank).
    #[inline]
    pub const fn castle_rook_target(self) -> Square {
        let file = if self.to.file() > self.from.file() {
            5
        } else {
            3
        };
        Square::from_coords(file, self.from.rank())
    }
}
