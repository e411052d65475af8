//! Editing a position in place, as python-chess's setters and `set_piece_at` do. Every edit
//! leaves a consistent board (piece key and regular flag recomputed); none validates.

use super::{Board, Setup, MAX_CLOCK};
use crate::types::{Bitboard, Color, Piece, Square};

impl Board {
    /// An empty board, White to move, no rights, clocks at 0 and 1 (python-chess's
    /// `Board(None)`).
    pub fn empty(chess960: bool) -> Board {
        Board::from_setup_unchecked(&Setup::empty(), chess960)
    }

    /// Puts `piece` on `sq` (replacing what was there), or empties the square when `None`;
    /// `promoted` marks the piece as promoted (python-chess's `set_piece_at`).
    pub fn set_piece_at(&mut self, sq: Square, piece: Option<Piece>, promoted: bool) {
        self.clear_square(sq);
        if let Some(piece) = piece {
            let bb = Bitboard::from_square(sq);
            self.by_role[piece.role.index()] |= bb;
            self.by_color[piece.color.index()] |= bb;
            if promoted {
                self.promoted |= bb;
            }
        }
        self.refresh();
    }

    /// Empties `sq` and returns what stood there (python-chess's `remove_piece_at`).
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq);
        self.clear_square(sq);
        self.refresh();
        piece
    }

    fn clear_square(&mut self, sq: Square) {
        let keep = !Bitboard::from_square(sq);
        for bb in self.by_role.iter_mut().chain(self.by_color.iter_mut()) {
            *bb &= keep;
        }
        self.promoted &= keep;
    }

    /// Replaces the placement with `pieces` (python-chess's `set_piece_map`); the other
    /// fields stay.
    pub fn set_placement(&mut self, pieces: impl IntoIterator<Item = (Square, Piece)>) {
        self.by_role = [Bitboard::EMPTY; 6];
        self.by_color = [Bitboard::EMPTY; 2];
        self.promoted = Bitboard::EMPTY;
        for (sq, piece) in pieces {
            self.clear_square(sq);
            self.by_role[piece.role.index()] |= Bitboard::from_square(sq);
            self.by_color[piece.color.index()] |= Bitboard::from_square(sq);
        }
        self.refresh();
    }

    /// Replaces the placement with `setup`'s (promoted marks included), keeping the other
    /// fields (python-chess's `set_board_fen` and `set_chess960_pos` placement part).
    pub fn set_placement_from(&mut self, setup: &Setup) {
        self.by_role = setup.by_role;
        self.by_color = setup.by_color;
        self.promoted = setup.promoted & setup.occupied();
        self.refresh();
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, turn: Color) {
        self.turn = turn;
        self.refresh();
    }

    /// Sets the raw castling rights (python-chess's writable `castling_rights`).
    pub fn set_castling_rights(&mut self, rights: Bitboard) {
        self.castling = rights;
        self.refresh_regular();
    }

    /// Sets the en-passant square, plausible or not.
    pub fn set_ep_square(&mut self, ep: Option<Square>) {
        self.ep_square = ep;
        self.refresh_regular();
    }

    /// Sets the half-move clock (capped where every clock stops, see `MAX_CLOCK`).
    pub fn set_halfmove_clock(&mut self, clock: u64) {
        self.halfmove_clock = clock.min(MAX_CLOCK);
    }

    /// Sets the move number (capped like the clock; python-chess allows 0 here).
    pub fn set_fullmove_number(&mut self, number: u64) {
        self.fullmove_number = number.min(MAX_CLOCK);
    }

    /// The Chess960 starting position number `scharnagl`'s placement (or None if the current
    /// placement, ignoring the other fields, is not one): python-chess's `BaseBoard.chess960_pos`.
    pub fn chess960_placement_number(&self) -> Option<u32> {
        (0..960).find(|&n| {
            Setup::chess960(n).is_some_and(|setup| {
                setup.by_role == self.by_role
                    && setup.by_color == self.by_color
                    && self.promoted.is_empty()
            })
        })
    }
}
