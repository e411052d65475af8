//! From a [`Setup`] (what a FEN says, possibly nonsense) to a [`Board`]: strictly (only
//! regular positions, for engines and UCI) or as python-chess does (anything).
//!
//! The strict checks are python-chess's `Board.status()` flags, minus those that describe
//! positions no game reaches but whose rules are still well defined (more than 16 pieces or 8
//! pawns a side, impossible checks): perft suites use such positions, and we play them
//! correctly.

use super::Board;
use crate::types::{Bitboard, Color, Piece, Role, Square};
use std::fmt;

/// A position as written down, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Squares of each role (pawn first), both colours.
    pub by_role: [Bitboard; 6],
    /// Squares of each colour (white first).
    pub by_color: [Bitboard; 2],
    /// Pieces marked as promoted (`~` in the FEN); a promoted king cannot castle.
    pub promoted: Bitboard,
    /// The side to move.
    pub turn: Color,
    /// Rook squares with castling rights, as the FEN's castling field names them.
    pub castling: Bitboard,
    /// The en-passant square as written.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u64,
    /// The move number (at least 1).
    pub fullmove_number: u64,
}

impl Setup {
    /// An empty board, White to move.
    pub fn empty() -> Setup {
        Setup {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            promoted: Bitboard::EMPTY,
            turn: Color::White,
            castling: Bitboard::EMPTY,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    /// The standard starting position.
    pub fn standard() -> Setup {
        use Role::*;
        Setup::starting_position([Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook])
    }

    /// A starting position with `back` on both back ranks (mirrored), pawns in front, and
    /// castling rights for every rook.
    fn starting_position(back: [Role; 8]) -> Setup {
        let mut setup = Setup::empty();
        for (file, role) in back.into_iter().enumerate() {
            let file = file as u8;
            for (rank, color, role) in [
                (0, Color::White, role),
                (1, Color::White, Role::Pawn),
                (6, Color::Black, Role::Pawn),
                (7, Color::Black, role),
            ] {
                setup.put(Square::from_coords(file, rank), Piece { color, role });
            }
        }
        setup.castling =
            setup.squares_of(Color::White, Role::Rook) | setup.squares_of(Color::Black, Role::Rook);
        setup
    }

    /// Chess960 starting position number `scharnagl` (0..960; 518 is the standard one):
    /// light-squared bishop, dark-squared bishop, queen, then the knight pair pick their
    /// files in turn, and rook, king, rook fill the three files left.
    pub fn chess960(scharnagl: u32) -> Option<Setup> {
        if scharnagl >= 960 {
            return None;
        }
        let mut files: [Option<Role>; 8] = [None; 8];
        let mut n = scharnagl;
        files[(2 * (n % 4) + 1) as usize] = Some(Role::Bishop);
        n /= 4;
        files[(2 * (n % 4)) as usize] = Some(Role::Bishop);
        n /= 4;
        let place_on_free = |files: &mut [Option<Role>; 8], index: u32, role: Role| {
            if let Some(file) = (0..8).filter(|&f| files[f].is_none()).nth(index as usize) {
                files[file] = Some(role);
            }
        };
        place_on_free(&mut files, n % 6, Role::Queen);
        n /= 6;
        const KNIGHT_PAIRS: [(u32, u32); 10] = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ];
        let (first, second) = KNIGHT_PAIRS[n as usize];
        // Place the second knight first so that the first one's index still counts from the left.
        place_on_free(&mut files, second, Role::Knight);
        place_on_free(&mut files, first, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place_on_free(&mut files, 0, role);
        }
        let mut back = [Role::Pawn; 8];
        for (slot, role) in back.iter_mut().zip(files) {
            *slot = role?;
        }
        Some(Setup::starting_position(back))
    }

    /// Puts `piece` on the empty square `sq`.
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] = self.by_role[piece.role.index()].with(sq);
        self.by_color[piece.color.index()] = self.by_color[piece.color.index()].with(sq);
    }

    /// All occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces of `role`.
    pub fn squares_of(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }
}

/// Why a well-formed setup is not a playable position (python-chess `status()` flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// No pieces at all (`STATUS_EMPTY`).
    Empty,
    /// A colour has no king (`STATUS_NO_WHITE_KING` / `STATUS_NO_BLACK_KING`).
    MissingKing(Color),
    /// A colour has more than one king (`STATUS_TOO_MANY_KINGS`).
    TooManyKings(Color),
    /// A pawn on the first or eighth rank (`STATUS_PAWNS_ON_BACKRANK`).
    PawnsOnBackrank(Square),
    /// A castling right without its king and rook in place (`STATUS_BAD_CASTLING_RIGHTS`).
    BadCastlingRights,
    /// An en-passant square no double step can have produced (`STATUS_INVALID_EP_SQUARE`).
    InvalidEpSquare(Square),
    /// The side not to move is in check (`STATUS_OPPOSITE_CHECK`).
    OppositeCheck,
    /// A king is marked as promoted, so python-chess would not count it as a king.
    PromotedKing(Color),
}

fn color_name(color: Color) -> &'static str {
    if color.is_white() {
        "white"
    } else {
        "black"
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "the board is empty"),
            PositionError::MissingKing(c) => write!(f, "there is no {} king", color_name(*c)),
            PositionError::TooManyKings(c) => {
                write!(f, "there is more than one {} king", color_name(*c))
            }
            PositionError::PawnsOnBackrank(sq) => write!(f, "pawn on the back rank ({sq})"),
            PositionError::BadCastlingRights => {
                write!(
                    f,
                    "castling rights without the king and rook in their places"
                )
            }
            PositionError::InvalidEpSquare(sq) => {
                write!(
                    f,
                    "en-passant square {sq} does not follow a double pawn step"
                )
            }
            PositionError::OppositeCheck => write!(f, "the side not to move is in check"),
            PositionError::PromotedKing(c) => {
                write!(f, "the {} king is marked as promoted", color_name(*c))
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Board {
    /// Validates `setup` and builds the board, or says what is wrong with it: the strict
    /// constructor, for engines and UCI, which accepts only regular positions.
    pub fn from_setup(setup: &Setup, chess960: bool) -> Result<Board, PositionError> {
        let board = Board::from_setup_unchecked(setup, chess960);
        match board.irregularity() {
            Some(error) => Err(error),
            None => Ok(board),
        }
    }

    /// Builds the board `setup` describes, whatever it is (python-chess's `Board(fen)`):
    /// castling rights and the en-passant square are kept as given. Use
    /// [`Board::status`] to learn what is wrong with it.
    pub fn from_setup_unchecked(setup: &Setup, chess960: bool) -> Board {
        let mut board = Board {
            by_role: setup.by_role,
            by_color: setup.by_color,
            turn: setup.turn,
            castling: setup.castling,
            ep_square: setup.ep_square,
            halfmove_clock: setup.halfmove_clock.min(super::MAX_CLOCK),
            fullmove_number: setup.fullmove_number.clamp(1, super::MAX_CLOCK),
            chess960,
            promoted: setup.promoted & setup.occupied(),
            regular: false,
            castling_trusted: false,
            piece_key: 0,
        };
        board.refresh();
        board
    }

    /// Recomputes what is derived from the position (the piece key and the regular flag),
    /// after an edit.
    pub(crate) fn refresh(&mut self) {
        self.piece_key = self.compute_piece_key();
        self.refresh_regular();
    }

    /// Recomputes the regular flag (the piece key is kept up to date by moves).
    #[inline]
    pub(crate) fn refresh_regular(&mut self) {
        // `clean_castling_rights` trusts the flag: clear it before asking.
        self.regular = false;
        self.regular = self.irregularity().is_none();
    }

    /// Why the position is not regular, if it is not (the first reason found).
    fn irregularity(&self) -> Option<PositionError> {
        if self.occupied().is_empty() {
            return Some(PositionError::Empty);
        }
        for color in Color::ALL {
            let kings = self.pieces(color, Role::King);
            if kings.is_empty() {
                return Some(PositionError::MissingKing(color));
            }
            if kings.more_than_one() {
                return Some(PositionError::TooManyKings(color));
            }
            if (kings & self.promoted).nonempty() {
                return Some(PositionError::PromotedKing(color));
            }
        }
        if let Some(sq) = (self.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
            return Some(PositionError::PawnsOnBackrank(sq));
        }
        if self.castling != self.computed_clean_castling_rights() {
            return Some(PositionError::BadCastlingRights);
        }
        if let Some(ep) = self.ep_square {
            if self.valid_ep_square() != Some(ep) {
                return Some(PositionError::InvalidEpSquare(ep));
            }
        }
        let their_king = self.pieces(!self.turn, Role::King).first()?;
        if self.attackers(their_king, self.turn).nonempty() {
            return Some(PositionError::OppositeCheck);
        }
        None
    }

    /// The castling rights python-chess keeps from the raw ones (`clean_castling_rights`):
    /// rooks on their back rank with their non-promoted king there too, in standard chess on
    /// the corners with the king on the e-file, in Chess960 the outermost rook on each side.
    /// Once moves have been played the rights are taken as they are, as python-chess does.
    pub fn clean_castling_rights(&self) -> Bitboard {
        if self.regular || self.castling_trusted {
            return self.castling;
        }
        self.computed_clean_castling_rights()
    }

    /// Says whether moves were played to reach this board (see `clean_castling_rights`);
    /// [`crate::Game`] keeps it equal to "the move stack is not empty".
    pub(crate) fn set_castling_trusted(&mut self, trusted: bool) {
        self.castling_trusted = trusted;
    }

    /// The clean castling rights computed from the placement, trusted or not.
    #[cold]
    fn computed_clean_castling_rights(&self) -> Bitboard {
        let mut clean = Bitboard::EMPTY;
        for color in Color::ALL {
            let backrank = Bitboard::rank(color.back_rank());
            let mut castling = self.castling & self.pieces(color, Role::Rook) & backrank;
            let kings = self.pieces(color, Role::King) & backrank & !self.promoted;
            if !self.chess960 {
                let corners = Bitboard::from_square(Square::from_coords(0, color.back_rank()))
                    .with(Square::from_coords(7, color.back_rank()));
                castling &= corners;
                if !kings.contains(Square::from_coords(4, color.back_rank())) {
                    castling = Bitboard::EMPTY;
                }
                clean |= castling;
                continue;
            }
            // python-chess compares with the highest king when there are several.
            let Some(king) = kings.last() else {
                continue;
            };
            if let Some(a_side) = castling.first() {
                if a_side < king {
                    clean = clean.with(a_side);
                }
            }
            if let Some(h_side) = castling.last() {
                if h_side > king {
                    clean = clean.with(h_side);
                }
            }
        }
        clean
    }

    /// python-chess's `_valid_ep_square`: the en-passant square if it is on the right rank,
    /// the double-stepped pawn in front of it, it and the square the pawn came from empty.
    /// (A square of index 0 counts as none, as python-chess's truth test has it.)
    pub(crate) fn valid_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square.filter(|sq| sq.index() != 0)?;
        let us = self.turn;
        if ep.rank() != if us.is_white() { 5 } else { 2 } {
            return None;
        }
        let pushed = Square::new((ep.index() as i8 - us.forward()) as u8);
        let origin = Square::new((ep.index() as i8 + us.forward()) as u8);
        (self.pieces(!us, Role::Pawn).contains(pushed)
            && !self.occupied().contains(ep)
            && !self.occupied().contains(origin))
        .then_some(ep)
    }

    /// The setup this board was built from (for FEN writing and conversions).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        setup.by_role = self.by_role;
        setup.by_color = self.by_color;
        setup.promoted = self.promoted;
        setup.turn = self.turn;
        setup.castling = self.castling;
        setup.ep_square = self.ep_square;
        setup.halfmove_clock = self.halfmove_clock;
        setup.fullmove_number = self.fullmove_number;
        setup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_numbering() {
        let standard = Board::from_setup(&Setup::chess960(518).unwrap(), true).unwrap();
        assert_eq!(
            standard.board_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
        );
        let first = Board::from_setup(&Setup::chess960(0).unwrap(), true).unwrap();
        assert_eq!(
            first.board_fen(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"
        );
        assert!(Setup::chess960(960).is_none());
        for n in 0..960 {
            let board = Board::from_setup(&Setup::chess960(n).unwrap(), true).unwrap();
            assert_eq!(board.castling_rights().count(), 4, "{n}");
        }
    }
}
