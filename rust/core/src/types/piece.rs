//! Colours, piece types ("roles") and pieces.

use std::ops::Not;

/// White or Black. `White` is `true` in python-chess, so we keep that mapping at the boundary.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The side that starts.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour for python-chess's boolean (`True` is White).
    #[inline]
    pub const fn from_white(white: bool) -> Color {
        if white {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Is this White?
    #[inline]
    pub const fn is_white(self) -> bool {
        matches!(self, Color::White)
    }

    /// The rank (0-based) this colour's pieces start on.
    #[inline]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }

    /// `+1` rank direction for White, `-1` for Black, as a square delta of 8.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 8,
            Color::Black => -8,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece type, numbered as python-chess numbers them (`PAWN = 1` .. `KING = 6`).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Role {
    /// `p`
    Pawn = 1,
    /// `n`
    Knight = 2,
    /// `b`
    Bishop = 3,
    /// `r`
    Rook = 4,
    /// `q`
    Queen = 5,
    /// `k`
    King = 6,
}

impl Role {
    /// All six roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The roles a pawn may promote to, strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0-based index (pawn = 0) for arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The role for python-chess's piece-type number (1..=6).
    pub const fn from_number(n: u8) -> Option<Role> {
        match n {
            1 => Some(Role::Pawn),
            2 => Some(Role::Knight),
            3 => Some(Role::Bishop),
            4 => Some(Role::Rook),
            5 => Some(Role::Queen),
            6 => Some(Role::King),
            _ => None,
        }
    }

    /// The role for a lowercase letter of `pnbrqk`.
    pub const fn from_char(c: char) -> Option<Role> {
        match c {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The lowercase letter.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter, as SAN writes pieces.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }
}

/// A coloured piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub role: Role,
}

impl Piece {
    /// The piece for a FEN letter (`P` white pawn, `k` black king, ...).
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c.to_ascii_lowercase()) {
            Some(role) => Some(Piece {
                color: Color::from_white(c.is_ascii_uppercase()),
                role,
            }),
            None => None,
        }
    }

    /// The FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The chess symbol, e.g. `♔` for the white king.
    pub const fn unicode(self) -> char {
        const WHITE: [char; 6] = ['♙', '♘', '♗', '♖', '♕', '♔'];
        const BLACK: [char; 6] = ['♟', '♞', '♝', '♜', '♛', '♚'];
        match self.color {
            Color::White => WHITE[self.role.index()],
            Color::Black => BLACK[self.role.index()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).unwrap().char(), c);
        }
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(Piece::from_char('K').unwrap().unicode(), '♔');
        assert_eq!(Piece::from_char('p').unwrap().unicode(), '♟');
    }

    #[test]
    fn numbers_match_python_chess() {
        assert_eq!(Role::from_number(1), Some(Role::Pawn));
        assert_eq!(Role::from_number(6), Some(Role::King));
        assert_eq!(Role::from_number(7), None);
        assert_eq!(Role::Queen as u8, 5);
    }
}
