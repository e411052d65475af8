//! The position: piece placement, side to move, castling rights, en-passant square and
//! clocks, with the accessors every other module reads.
//!
//! A `Board` holds any position python-chess can hold: no king or several, pawns on the back
//! ranks, the side not to move in check, castling rights as written. Most positions are
//! *regular* (one king each, no pawns on the back ranks, clean castling rights, a plausible
//! en-passant square, the side not to move not in check: what [`Board::from_setup`] accepts);
//! the board keeps a flag saying so. Regular positions use the fast generator of `movegen`,
//! the others the python-chess-faithful rules of `any_position`. Playing a legal move keeps a
//! regular position regular, so the flag is recomputed only after edits and after moves that
//! were not legal.

mod any_position;
mod classify;
mod display;
mod edit;
mod make;
mod movegen;
mod polyglot_keys;
mod validate;
mod zobrist;

pub use any_position::Status;
pub use display::DiagramStyle;
pub use movegen::MoveList;
pub use polyglot_keys::POLYGLOT_KEYS;
pub use validate::{PositionError, Setup};
pub use zobrist::ZobristParts;

use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

/// The largest clock value. python-chess's clocks are unbounded ints; ours stop here, so
/// that every FEN we write (clocks included) reads back.
pub(crate) const MAX_CLOCK: u64 = u64::MAX - 1;

/// A chess position (no history: see [`crate::Game`] for that).
///
/// `==` compares every field a FEN can write with the en-passant square as stored (see
/// [`Board::same_position`] for python-chess's equality), but not the promoted marks, which a
/// FEN shows only on request.
#[derive(Clone, Debug)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    /// The rooks that may still castle (python-chess's `castling_rights`), as given: clean on
    /// a regular board, possibly not otherwise (see `clean_castling_rights`).
    castling: Bitboard,
    /// Set after every double step, legal capture or not (python-chess's `ep_square`).
    ep_square: Option<Square>,
    halfmove_clock: u64,
    fullmove_number: u64,
    chess960: bool,
    /// Pieces that got there by promotion (python-chess's `promoted`): a promoted king is no
    /// king for `king()` or castling.
    promoted: Bitboard,
    /// Is the position regular (see the module documentation)? Decides which generator runs.
    regular: bool,
    /// Were moves played to reach this board (python-chess: is the move stack non-empty)?
    /// python-chess cleans the castling rights when it pushes and from then on takes them as
    /// they are, even when edited.
    castling_trusted: bool,
    /// Polyglot key of the placement and side to move, kept up to date by `play`.
    piece_key: u64,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && self.chess960 == other.chess960
    }
}

impl Eq for Board {}

impl Default for Board {
    /// The standard starting position.
    fn default() -> Board {
        Board::from_setup(&Setup::standard(), false).expect("the starting position is valid")
    }
}

impl Board {
    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Rooks (squares) that keep their castling right.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en-passant square after a double step, whether or not a capture is possible.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u64 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline]
    pub fn fullmove_number(&self) -> u64 {
        self.fullmove_number
    }

    /// Is this a Chess960 position (castling moves written king-takes-rook)?
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches Chess960 notation on or off; the placement does not change, but which
    /// castling rights are clean may (python-chess keeps only corner rooks in standard chess).
    pub fn set_chess960(&mut self, chess960: bool) {
        if self.chess960 != chess960 {
            self.chess960 = chess960;
            self.refresh_regular();
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Rooks and queens.
    #[inline]
    fn rook_like(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens.
    #[inline]
    fn bishop_like(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The role on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&role| self.by_role(role).contains(sq))
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = self.color_at(sq)?;
        let role = self.role_at(sq)?;
        Some(Piece { color, role })
    }

    /// The square of `color`'s king on a regular board (which has exactly one). On other
    /// boards this is [`Board::king`]'s answer, or a1 when that is `None`: ask `king` there.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        if self.regular {
            self.regular_king(color)
        } else {
            self.king(color).unwrap_or(Square::new(0))
        }
    }

    /// The king of a regular board (which has exactly one per side), for the fast paths.
    #[inline(always)]
    pub(crate) fn regular_king(&self, color: Color) -> Square {
        debug_assert!(self.regular);
        Square::new((self.pieces(color, Role::King).0.trailing_zeros() & 63) as u8)
    }

    /// python-chess's `king()`: the highest square holding a non-promoted king of `color`.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        (self.pieces(color, Role::King) & !self.promoted).last()
    }

    /// Pieces marked as promoted (python-chess's `promoted` mask).
    #[inline]
    pub fn promoted(&self) -> Bitboard {
        self.promoted
    }

    /// Is the position regular: one king each, no pawn on a back rank, clean castling rights,
    /// a plausible en-passant square, the side not to move not in check? Such positions get the
    /// fast generator; python-chess's `is_valid` asks more (see [`Board::status`]).
    #[inline]
    pub fn is_regular(&self) -> bool {
        self.regular
    }

    /// Pieces of `attacker` that attack `sq`, given `occupied` (which may differ from the
    /// board's, e.g. to look through a moving king).
    #[inline]
    pub fn attackers_with(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(attacker);
        ((attacks::rook(sq, occupied) & self.rook_like())
            | (attacks::bishop(sq, occupied) & self.bishop_like())
            | (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(!attacker, sq) & self.by_role(Role::Pawn)))
            & theirs
    }

    /// Does a piece of `attacker` attack `sq`? ([`Board::attackers`] non-empty, with the
    /// slider lookups made only when a slider of `attacker` stands on a line through `sq`.)
    #[inline]
    pub(crate) fn is_attacked_by(&self, sq: Square, attacker: Color) -> bool {
        let theirs = self.by_color(attacker);
        let steppers = (attacks::knight(sq) & self.by_role(Role::Knight))
            | (attacks::king(sq) & self.by_role(Role::King))
            | (attacks::pawn(!attacker, sq) & self.by_role(Role::Pawn));
        if (steppers & theirs).nonempty() {
            return true;
        }
        let occupied = self.occupied();
        let rooks = self.rook_like() & theirs;
        if (attacks::rook(sq, Bitboard::EMPTY) & rooks).nonempty()
            && (attacks::rook(sq, occupied) & rooks).nonempty()
        {
            return true;
        }
        let bishops = self.bishop_like() & theirs;
        (attacks::bishop(sq, Bitboard::EMPTY) & bishops).nonempty()
            && (attacks::bishop(sq, occupied) & bishops).nonempty()
    }

    /// Pieces of `attacker` that attack `sq`.
    #[inline]
    pub fn attackers(&self, sq: Square, attacker: Color) -> Bitboard {
        self.attackers_with(sq, attacker, self.occupied())
    }

    /// Pieces giving check to the side to move (none when it has no king).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        if self.regular {
            return self.attackers(self.regular_king(self.turn), !self.turn);
        }
        match self.king(self.turn) {
            Some(king) => self.attackers(king, !self.turn),
            None => Bitboard::EMPTY,
        }
    }

    /// Is the side to move in check?
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().nonempty()
    }

    /// Squares attacked by the piece on `sq` (empty if none), python-chess's `attacks`.
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(piece) => attacks::attacks(piece.role, piece.color, sq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// The line along which `sq` is pinned to `color`'s king, or `Bitboard::FULL` when it
    /// is not (python-chess's `pin`: the square need not hold a piece of `color`).
    pub fn pin_mask(&self, color: Color, sq: Square) -> Bitboard {
        let Some(king) = self.king(color) else {
            return Bitboard::FULL;
        };
        let snipers = (attacks::rook(king, Bitboard::EMPTY) & self.rook_like())
            | (attacks::bishop(king, Bitboard::EMPTY) & self.bishop_like());
        let target = Bitboard::from_square(sq);
        for sniper in snipers & self.by_color(!color) {
            if attacks::between(sniper, king) & (self.occupied() | target) == target {
                return attacks::line(king, sniper);
            }
        }
        Bitboard::FULL
    }

    /// python-chess's `board == other`: the same placement, side to move, castling rights,
    /// legal en-passant square and clocks. Unlike `==` on `Board`, the notation mode and an
    /// en-passant square no pawn can use do not count.
    pub fn same_position(&self, other: &Board) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.clean_castling_rights() == other.clean_castling_rights()
            && self.halfmove_clock == other.halfmove_clock
            && self.fullmove_number == other.fullmove_number
            && (self.ep_square == other.ep_square
                || self.legal_ep_square() == other.legal_ep_square())
    }

    /// Does `color` keep a castling right on its back rank (python-chess's
    /// `has_castling_rights`)? Only the clean rights count, but where they are taken as they
    /// are (once moves were played, see [`Board::clean_castling_rights`]) no king need be on
    /// that rank.
    pub fn has_castling_rights(&self, color: Color) -> bool {
        (self.clean_castling_rights() & Bitboard::rank(color.back_rank())).nonempty()
    }

    /// The castling rights `color` keeps: (towards the h-file, towards the a-file), i.e.
    /// python-chess's `has_kingside_castling_rights` and `has_queenside_castling_rights`, which
    /// the Polyglot hash reads.
    ///
    /// Neither side without a non-promoted king of `color` on its back rank. Otherwise
    /// python-chess compares each clean right on that rank, as a one-square bitboard, with the
    /// bitboard of all those kings, as integers: a right above the highest king is kingside,
    /// one below it queenside. A right on the highest king's own square (rights written by
    /// hand after moves) is neither, unless a lower king stands on the rank too, which makes
    /// the kings' bitboard the larger number: then it is queenside.
    pub fn castling_sides(&self, color: Color) -> (bool, bool) {
        let backrank = Bitboard::rank(color.back_rank());
        let kings = self.pieces(color, Role::King) & backrank & !self.promoted;
        if kings.is_empty() {
            return (false, false);
        }
        let mut sides = (false, false);
        for rook in self.clean_castling_rights() & backrank {
            let rook = Bitboard::from_square(rook).0;
            sides.0 |= rook > kings.0;
            sides.1 |= rook < kings.0;
        }
        sides
    }

    /// Are there castling rights only Chess960 allows (python-chess's
    /// `has_chess960_castling_rights`)? The rights Chess960 would keep (see
    /// [`Board::clean_castling_rights`]) are looked at: one on a rook off the corners, or one
    /// on a back rank whose king is not on the e-file, cannot be standard chess. PGN readers
    /// switch to Chess960 on such a FEN, as python-chess does.
    pub fn has_chess960_castling_rights(&self) -> bool {
        let mut wide = self.clone();
        wide.set_chess960(true);
        let rights = wide.clean_castling_rights();
        if (rights & !Bitboard::CORNERS).nonempty() {
            return true;
        }
        Color::ALL.into_iter().any(|color| {
            let rank = color.back_rank();
            (rights & Bitboard::rank(rank)).nonempty()
                && !self
                    .pieces(color, Role::King)
                    .contains(Square::from_coords(4, rank))
        })
    }

    /// The en-passant square if an en-passant capture is legal now.
    pub fn legal_ep_square(&self) -> Option<Square> {
        if !self.regular {
            return self.any_legal_ep_square();
        }
        let ep = self.ep_square?;
        let capturers = self.ep_capturers(ep);
        if capturers.is_empty() {
            return None;
        }
        for from in capturers {
            if self.is_safe(Move::new(from, ep, MoveKind::EnPassant)) {
                return Some(ep);
            }
        }
        None
    }

    /// Does playing the pseudo-legal, non-castling move `m` leave the mover's king safe?
    /// Used where one move is checked without generating all of them (en passant, whose
    /// removal of two pawns from a rank can expose the king, goes through here too).
    /// Regular boards only.
    pub(crate) fn is_safe(&self, m: Move) -> bool {
        debug_assert!(!m.is_castle());
        let us = self.turn;
        let king = self.regular_king(us);
        let from = Bitboard::from_square(m.from);
        let to = Bitboard::from_square(m.to);
        let (captured, king_sq) = match m.kind {
            MoveKind::EnPassant => {
                let victim = m.en_passant_victim();
                (Bitboard::from_square(victim), king)
            }
            _ => (to, if m.from == king { m.to } else { king }),
        };
        let occupied = (self.occupied() ^ from ^ captured) | to;
        (self.attackers_with(king_sq, !us, occupied) & !captured).is_empty()
    }

    /// The position with colours swapped and the board flipped (python-chess's `mirror`).
    pub fn mirror(&self) -> Board {
        let mut mirrored = self.transform(Bitboard::flip_vertical);
        mirrored.by_color.swap(0, 1);
        mirrored.turn = !self.turn;
        mirrored.refresh();
        mirrored
    }

    /// The position with every bitboard (placement, promoted pieces, castling rights, the
    /// en-passant square) mapped by `f` (python-chess's `transform`). A square `f` maps to
    /// nothing loses its piece; the en-passant square becomes the highest square of its image.
    pub fn transform(&self, f: impl Fn(Bitboard) -> Bitboard) -> Board {
        let by_role = self.by_role.map(&f);
        let by_color = self.by_color.map(&f);
        let mut transformed = Board {
            by_role,
            by_color,
            castling: f(self.castling),
            ep_square: self
                .ep_square
                .and_then(|sq| f(Bitboard::from_square(sq)).last()),
            promoted: f(self.promoted),
            ..self.clone()
        };
        transformed.refresh();
        transformed
    }

    /// The Polyglot key of placement and side to move (the incrementally kept part).
    #[inline]
    pub fn piece_key(&self) -> u64 {
        self.piece_key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_attacked_by` answers as `attackers` does, for every square and side, along the
    /// legal moves to depth 2 of positions with every kind of piece on open lines.
    #[test]
    fn is_attacked_by_agrees_with_attackers() {
        fn walk(board: &Board, depth: u32, attacked: &mut usize) {
            for sq in Bitboard::FULL {
                for color in Color::ALL {
                    let expected = board.attackers(sq, color).nonempty();
                    assert_eq!(
                        board.is_attacked_by(sq, color),
                        expected,
                        "{sq:?} {board:?}"
                    );
                    *attacked += usize::from(expected);
                }
            }
            if depth > 0 {
                for &m in board.legal_moves().iter() {
                    walk(&board.after(m), depth - 1, attacked);
                }
            }
        }
        let mut attacked = 0;
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3q4/8/8/2B5/4K2R w K - 0 1",
        ] {
            walk(&Board::from_fen(fen, false).unwrap(), 2, &mut attacked);
        }
        assert!(attacked > 10_000, "{attacked}");
    }

    /// Answers checked against python-chess 1.11.2.
    #[test]
    fn chess960_castling_rights_table() {
        for (fen, expected) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false),
            ("r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1", false),
            // A right on a corner rook, king on the e-file, one side only.
            ("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1", false),
            // A Chess960 start: rooks on f1 and h1.
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
            // Corner rooks, but the kings are not on the e-file.
            ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", true),
            ("r2k3r/8/8/8/8/8/8/4K3 w kq - 0 1", true),
            ("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", true),
            // Rights on inner rooks.
            ("4k3/8/8/8/8/8/8/R3K1R1 w G - 0 1", true),
            ("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1", true),
            ("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", true),
            ("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", true),
            // Rights with no rook behind them are not rights Chess960 keeps either.
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", false),
            ("4k3/8/8/8/8/8/8/4K3 w B - 0 1", false),
        ] {
            for chess960 in [false, true] {
                let board = Board::from_fen(fen, chess960).unwrap();
                assert_eq!(board.has_chess960_castling_rights(), expected, "{fen}");
            }
        }
    }

    /// The board after `moves` from `fen` with the castling rights then written by hand as
    /// `rights` (squares), as python-chess's `board.castling_rights = ...` on a board with a
    /// move stack, which takes them as they are.
    pub(crate) fn edited_after_moves(fen: &str, moves: &[&str], rights: &[&str]) -> Board {
        let mut game = crate::Game::new(Board::from_fen(fen, false).unwrap());
        for uci in moves {
            game.push_uci(crate::UciMove::parse(uci).unwrap()).unwrap();
        }
        let rights = rights.iter().fold(Bitboard::EMPTY, |bb, name| {
            bb.with(Square::parse(name).unwrap())
        });
        game.edit_board(|board| board.set_castling_rights(rights));
        game.board().clone()
    }

    /// `has_castling_rights`, `has_kingside_castling_rights`, `has_queenside_castling_rights`
    /// for (White, Black), and the X-FEN and Shredder-FEN castling fields, as python-chess
    /// 1.11.2 answers them for hand-written rights.
    #[test]
    fn castling_queries_on_hand_written_rights() {
        let lone_rooks = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        let two_kings = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1";
        let king_up = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        for (fen, moves, rights, white, black, xfen, shredder) in [
            // A right on the king's own square: neither side, but a right all the same.
            (
                lone_rooks,
                &["a1a2", "e8d8"][..],
                &["e1", "d8"][..],
                (true, false, false),
                (true, false, false),
                "Ek",
                "Ed",
            ),
            // The same with a second king lower on the rank: queenside.
            (
                two_kings,
                &["a1b1", "e8d8"],
                &["e1"],
                (true, false, true),
                (false, false, false),
                "K",
                "E",
            ),
            (
                two_kings,
                &["a1b1", "e8d8"],
                &["b1"],
                (true, false, true),
                (false, false, false),
                "Q",
                "B",
            ),
            // White's king has left the back rank; Black's stands beside its right.
            (
                king_up,
                &["a1a2", "e8d8"],
                &["h1", "a8"],
                (true, false, false),
                (true, false, true),
                "Kq",
                "Ha",
            ),
            // Without a move stack the rights are cleaned first: none of these stay.
            (
                king_up,
                &[],
                &["h1", "a8", "e1"],
                (false, false, false),
                (false, false, false),
                "-",
                "-",
            ),
        ] {
            let board = edited_after_moves(fen, moves, rights);
            for (color, expected) in [(Color::White, white), (Color::Black, black)] {
                let (kingside, queenside) = board.castling_sides(color);
                assert_eq!(
                    (board.has_castling_rights(color), kingside, queenside),
                    expected,
                    "{fen} {moves:?} {rights:?} {color:?}"
                );
            }
            assert_eq!(
                board.castling_fen(false),
                xfen,
                "{fen} {moves:?} {rights:?}"
            );
            assert_eq!(
                board.castling_fen(true),
                shredder,
                "{fen} {moves:?} {rights:?}"
            );
        }
    }
}
