//! The rules of positions that are not regular (no king or several, pawns on the back ranks,
//! the side not to move in check, unclean castling rights, odd en-passant squares), answered
//! as python-chess 1.11.2 answers them, and python-chess's `status()` for every position.
//!
//! `movegen` is faster and proven on regular positions; its shortcuts (exactly one king,
//! clean rights, an en-passant victim behind the square) do not hold here. This module
//! follows python-chess's own algorithms instead: the same masks, the same king (the highest
//! one), the same generation order, so that every answer, including the odd ones python-chess
//! gives on such positions, is the same.
//!
//! ```
//! use pychess_core::{Board, Status};
//! // No black king: moves are generated without one, and status() says what is wrong.
//! let board = Board::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
//! assert_eq!(board.legal_moves().len(), 5);
//! assert_eq!(board.status(), Status::NO_BLACK_KING);
//! ```

use super::movegen::MoveList;
use super::Board;
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};
use crate::UciMove;
use std::fmt;
use std::ops::{BitOr, BitOrAssign};

/// python-chess's `Status` flags: what is wrong with a position (empty when nothing is).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Status(pub u32);

impl Status {
    /// Nothing is wrong (`STATUS_VALID`).
    pub const VALID: Status = Status(0);
    /// White has no king.
    pub const NO_WHITE_KING: Status = Status(1 << 0);
    /// Black has no king.
    pub const NO_BLACK_KING: Status = Status(1 << 1);
    /// More than two kings in all.
    pub const TOO_MANY_KINGS: Status = Status(1 << 2);
    /// More than 8 white pawns.
    pub const TOO_MANY_WHITE_PAWNS: Status = Status(1 << 3);
    /// More than 8 black pawns.
    pub const TOO_MANY_BLACK_PAWNS: Status = Status(1 << 4);
    /// A pawn on the first or eighth rank.
    pub const PAWNS_ON_BACKRANK: Status = Status(1 << 5);
    /// More than 16 white pieces.
    pub const TOO_MANY_WHITE_PIECES: Status = Status(1 << 6);
    /// More than 16 black pieces.
    pub const TOO_MANY_BLACK_PIECES: Status = Status(1 << 7);
    /// Castling rights differ from the clean ones.
    pub const BAD_CASTLING_RIGHTS: Status = Status(1 << 8);
    /// An en-passant square no double step can have left.
    pub const INVALID_EP_SQUARE: Status = Status(1 << 9);
    /// The side not to move is in check.
    pub const OPPOSITE_CHECK: Status = Status(1 << 10);
    /// No pieces at all.
    pub const EMPTY: Status = Status(1 << 11);
    /// Racing Kings: a king is in check (`STATUS_RACE_CHECK`).
    pub const RACE_CHECK: Status = Status(1 << 12);
    /// Racing Kings: both kings on the eighth rank with Black to move (`STATUS_RACE_OVER`).
    pub const RACE_OVER: Status = Status(1 << 13);
    /// Racing Kings: pawns, or more pieces of a kind than the starting position has
    /// (`STATUS_RACE_MATERIAL`).
    pub const RACE_MATERIAL: Status = Status(1 << 14);
    /// More than two pieces give check.
    pub const TOO_MANY_CHECKERS: Status = Status(1 << 15);
    /// A check no last move can have given.
    pub const IMPOSSIBLE_CHECK: Status = Status(1 << 16);

    /// Are all flags of `other` set?
    #[inline]
    pub fn contains(self, other: Status) -> bool {
        self.0 & other.0 == other.0
    }

    /// Is nothing wrong?
    #[inline]
    pub fn is_valid(self) -> bool {
        self.0 == 0
    }
}

impl Status {
    /// The flags of `self` that `other` does not have.
    #[inline]
    pub fn without(self, other: Status) -> Status {
        Status(self.0 & !other.0)
    }
}

impl BitOr for Status {
    type Output = Status;
    fn bitor(self, other: Status) -> Status {
        Status(self.0 | other.0)
    }
}

impl BitOrAssign for Status {
    fn bitor_assign(&mut self, other: Status) {
        self.0 |= other.0;
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

/// The squares of `bb`, highest first (python-chess's `scan_reversed`, which sets the order
/// of its generated moves).
fn descending(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        let sq = bb.last()?;
        bb = bb.without(sq);
        Some(sq)
    })
}

/// python-chess's `ray`: the full line through two aligned squares, else nothing.
#[inline]
fn ray(a: Square, b: Square) -> Bitboard {
    if a == b {
        Bitboard::EMPTY
    } else {
        attacks::line(a, b)
    }
}

impl Board {
    /// python-chess's truth test of `ep_square`: square 0 (a1) counts as none.
    #[inline]
    fn truthy_ep_square(&self) -> Option<Square> {
        self.ep_square.filter(|sq| sq.index() != 0)
    }

    /// Pseudo-legal moves from `from_mask` to `to_mask` in python-chess's order (pieces,
    /// castling, pawn captures, single and double steps, en passant).
    pub(crate) fn any_pseudo_legal(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
    ) {
        let us = self.turn;
        let ours = self.by_color(us);
        let occupied = self.occupied();
        for from in descending(ours & !self.by_role(Role::Pawn) & from_mask) {
            for to in descending(self.attacks_from(from) & !ours & to_mask) {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        if (from_mask & self.by_role(Role::King)).nonempty() {
            self.any_castling(from_mask, to_mask, list);
        }
        let pawns = self.pieces(us, Role::Pawn) & from_mask;
        if pawns.is_empty() {
            return;
        }
        let push_pawn_move = |list: &mut MoveList, from: Square, to: Square| {
            if Bitboard::BACKRANKS.contains(to) {
                for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    list.push(Move::new(from, to, MoveKind::Promotion(role)));
                }
            } else {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        };
        for from in descending(pawns) {
            for to in descending(attacks::pawn(us, from) & self.by_color(!us) & to_mask) {
                push_pawn_move(list, from, to);
            }
        }
        let (single, double) = if us.is_white() {
            let single = Bitboard(pawns.0 << 8) & !occupied;
            let double = Bitboard(single.0 << 8) & !occupied & Bitboard(0x0000_0000_ffff_0000);
            (single, double)
        } else {
            let single = Bitboard(pawns.0 >> 8) & !occupied;
            let double = Bitboard(single.0 >> 8) & !occupied & Bitboard(0x0000_ffff_0000_0000);
            (single, double)
        };
        for to in descending(single & to_mask) {
            let from = Square::new((to.index() as i8 - us.forward()) as u8);
            push_pawn_move(list, from, to);
        }
        let start_rank = if us.is_white() { 1 } else { 6 };
        for to in descending(double & to_mask) {
            let from = Square::new((to.index() as i8 - 2 * us.forward()) as u8);
            // Only a step from the second rank leaves an en-passant square behind; python-chess
            // also lets a pawn on the first rank step twice, as an ordinary move.
            let kind = if from.rank() == start_rank {
                MoveKind::DoubleStep
            } else {
                MoveKind::Normal
            };
            list.push(Move::new(from, to, kind));
        }
        if self.truthy_ep_square().is_some() {
            self.any_pseudo_legal_ep(from_mask, to_mask, list);
        }
    }

    /// python-chess's `generate_pseudo_legal_ep`: pawns of the side to move on the fifth
    /// (fourth) rank next to an empty en-passant square, whatever stands behind it.
    pub(crate) fn any_pseudo_legal_ep(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
    ) {
        let Some(ep) = self.truthy_ep_square() else {
            return;
        };
        if !to_mask.contains(ep) || self.occupied().contains(ep) {
            return;
        }
        let us = self.turn;
        let capturers = self.pieces(us, Role::Pawn)
            & from_mask
            & attacks::pawn(!us, ep)
            & Bitboard::rank(if us.is_white() { 4 } else { 3 });
        for from in descending(capturers) {
            list.push(Move::new(from, ep, MoveKind::EnPassant));
        }
    }

    /// Are any squares of `path` attacked by the side not to move, given `occupied`?
    fn attacked_for_king(&self, path: Bitboard, occupied: Bitboard) -> bool {
        path.into_iter()
            .any(|sq| self.attackers_with(sq, !self.turn, occupied).nonempty())
    }

    /// python-chess's `generate_castling_moves`: the lowest non-promoted king on the back
    /// rank, clean rights, empty and unattacked paths (the king's own square included), and,
    /// unlike python-chess, our rook on the right's square. (python-chess trusts the rights
    /// once moves were played, even when they were written by hand afterwards, and castles
    /// with a right whose rook is gone: it conjures a rook, or turns the piece standing there
    /// into one, or jumps the king onto the empty square. A board must never create
    /// material, so no such move is listed; see [`Board::missing_castling_rook`].)
    pub(super) fn any_castling(&self, from_mask: Bitboard, to_mask: Bitboard, list: &mut MoveList) {
        self.castling_guarded(from_mask, to_mask, list, true);
    }

    /// Castling moves as [`Board::castling_moves`] lists them, but with no square of the
    /// king's path required to be safe when `guarded` is false (the Antichess family, whose
    /// king is an ordinary piece: python-chess's `_attacked_for_king` answers no there).
    pub(crate) fn castling_guarded(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
        guarded: bool,
    ) {
        // The clean rights are a subset of the raw ones: none, no castling (most positions).
        if self.castling.is_empty() {
            return;
        }
        let us = self.turn;
        let rank = us.back_rank();
        let backrank = Bitboard::rank(rank);
        let Some(king) =
            (self.pieces(us, Role::King) & !self.promoted & backrank & from_mask).first()
        else {
            return;
        };
        let king_bb = Bitboard::from_square(king);
        let occupied = self.occupied();
        let rooks = self.clean_castling_rights() & self.pieces(us, Role::Rook);
        for rook in descending(rooks & backrank & to_mask) {
            let rook_bb = Bitboard::from_square(rook);
            let a_side = rook < king;
            let king_to = Square::from_coords(if a_side { 2 } else { 6 }, rank);
            let rook_to = Square::from_coords(if a_side { 3 } else { 5 }, rank);
            let king_path = attacks::between(king, king_to);
            let rook_path = attacks::between(rook, rook_to);
            let landing = Bitboard::from_square(king_to).with(rook_to);
            let blocked =
                ((occupied ^ king_bb ^ rook_bb) & (king_path | rook_path | landing)).nonempty();
            if blocked {
                continue;
            }
            if guarded
                && (self.attacked_for_king(king_path | king_bb, occupied ^ king_bb)
                    || self.attacked_for_king(
                        Bitboard::from_square(king_to),
                        occupied ^ king_bb ^ rook_bb ^ Bitboard::from_square(rook_to),
                    ))
            {
                continue;
            }
            list.push(Move::new(king, rook, MoveKind::Castle));
        }
    }

    /// The square of the missing rook when `uci` asks the side to move to castle with a
    /// castling right (as written, `castling_rights`) whose square holds no rook of its own:
    /// the king on its back rank moving onto the right's square, or two files towards it in
    /// standard chess (`e1c1`, see [`Board::normalize_castling`]), unless that is a
    /// pseudo-legal move as it stands. No such move is ever legal or pseudo-legal here
    /// (python-chess would castle and create a rook); this says why, for the error that
    /// refuses it (so it may take its time).
    ///
    /// ```
    /// use pychess_core::{Bitboard, Game, Square, UciMove};
    /// let mut game = Game::default();
    /// game.push_uci(UciMove::parse("b1c3").unwrap()).unwrap();
    /// game.push_uci(UciMove::parse("b8c6").unwrap()).unwrap();
    /// // The a1 rook is taken off by hand, then the right written again.
    /// game.edit_board(|b| {
    ///     b.remove_piece_at(Square::parse("a1").unwrap());
    ///     b.set_castling_rights(Bitboard::from_square(Square::parse("a1").unwrap()));
    /// });
    /// let castle = UciMove::parse("e1c1").unwrap();
    /// assert_eq!(game.board().missing_castling_rook(castle), Square::parse("a1"));
    /// ```
    pub fn missing_castling_rook(&self, uci: UciMove) -> Option<Square> {
        let us = self.turn;
        let backrank = Bitboard::rank(us.back_rank());
        let kings = self.pieces(us, Role::King) & !self.promoted & backrank;
        // A king step onto an empty right square (Chess960) is a move of its own.
        if uci.promotion.is_some()
            || !kings.contains(uci.from)
            || self.find_pseudo_legal(uci).is_some()
        {
            return None;
        }
        let missing = self.castling & backrank & !self.pieces(us, Role::Rook);
        // King onto the right's square (`e1a1`; in Chess960 also `e8g8` with the g8 rook
        // gone), else the standard spelling two files towards it (`e1c1`).
        [uci.to, self.normalize_castling(uci).to]
            .into_iter()
            .find(|&to| missing.contains(to))
    }

    /// Castling on one side (`O-O` when `king_side`) written king-takes-rook, when the side
    /// to move holds a right there whose rook is missing (see
    /// [`Board::missing_castling_rook`]).
    pub(crate) fn castling_uci_without_rook(&self, king_side: bool) -> Option<UciMove> {
        let us = self.turn;
        let backrank = Bitboard::rank(us.back_rank());
        let king = (self.pieces(us, Role::King) & !self.promoted & backrank).first()?;
        let on_side = |sq: &Square| (sq.file() > king.file()) == king_side;
        let rights = self.castling & backrank;
        let rooks = self.pieces(us, Role::Rook);
        if (rights & rooks).into_iter().any(|sq| on_side(&sq)) {
            // A right on this side has its rook: castling failed for another reason.
            return None;
        }
        let rook = (rights & !rooks).into_iter().find(on_side)?;
        Some(UciMove {
            from: king,
            to: rook,
            promotion: None,
        })
    }

    /// Our pieces that alone stand between `king` and an enemy slider (`_slider_blockers`).
    fn slider_blockers(&self, king: Square) -> Bitboard {
        let snipers = ((attacks::rook(king, Bitboard::EMPTY) & self.rook_like())
            | (attacks::bishop(king, Bitboard::EMPTY) & self.bishop_like()))
            & self.by_color(!self.turn);
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & self.occupied();
            if between.nonempty() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers & self.by_color(self.turn)
    }

    /// python-chess's `is_castling`: our king moving two files or onto our own rook.
    fn any_is_castling(&self, m: Move) -> bool {
        let us = self.turn;
        self.pieces(us, Role::King).contains(m.from)
            && (m.from.file().abs_diff(m.to.file()) > 1
                || self.pieces(us, Role::Rook).contains(m.to))
    }

    /// python-chess's `is_en_passant` for a generated move.
    fn any_is_en_passant(&self, m: Move) -> bool {
        let diff = m.to.index().abs_diff(m.from.index());
        self.ep_square == Some(m.to)
            && self.by_role(Role::Pawn).contains(m.from)
            && (diff == 7 || diff == 9)
            && !self.occupied().contains(m.to)
    }

    /// Would the king on the rank see an enemy slider once the capturing and the captured
    /// pawn leave (`_ep_skewered`)?
    fn ep_skewered(&self, king: Square, capturer: Square, ep: Square) -> bool {
        let last_double = Square::new((ep.index() as i8 - self.turn.forward()) as u8);
        let occupancy = (self.occupied() & !Bitboard::from_square(last_double))
            .without(capturer)
            .with(ep);
        let them = self.by_color(!self.turn);
        let on_rank = attacks::rook(king, occupancy) & Bitboard::rank(king.rank());
        (on_rank & them & self.rook_like()).nonempty()
            || (attacks::bishop(king, occupancy) & them & self.bishop_like()).nonempty()
    }

    /// python-chess's `_is_safe`.
    fn any_is_safe(&self, king: Square, blockers: Bitboard, m: Move) -> bool {
        if m.from == king {
            if self.any_is_castling(m) {
                return true;
            }
            return self.attackers(m.to, !self.turn).is_empty();
        }
        if self.any_is_en_passant(m) {
            return self.pin_mask(self.turn, m.from).contains(m.to)
                && !self.ep_skewered(king, m.from, m.to);
        }
        !blockers.contains(m.from) || ray(m.from, m.to).contains(king)
    }

    /// python-chess's `_generate_evasions`: king steps off the checking lines, then (against
    /// a single checker) captures and blocks by other pieces, and en passant of a checking pawn.
    fn any_evasions(
        &self,
        king: Square,
        checkers: Bitboard,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
    ) {
        let sliders = checkers & (self.rook_like() | self.bishop_like());
        let mut attacked = Bitboard::EMPTY;
        for checker in sliders {
            attacked |= ray(king, checker).without(checker);
        }
        if from_mask.contains(king) {
            let targets = attacks::king(king) & !self.by_color(self.turn) & !attacked & to_mask;
            for to in descending(targets) {
                list.push(Move::new(king, to, MoveKind::Normal));
            }
        }
        let Some(checker) = checkers.single() else {
            return;
        };
        let target = attacks::between(king, checker) | checkers;
        self.any_pseudo_legal(
            !self.by_role(Role::King) & from_mask,
            target & to_mask,
            list,
        );
        if let Some(ep) = self.truthy_ep_square() {
            if !target.contains(ep) {
                let last_double = ep.index() as i8 - self.turn.forward();
                if last_double == checker.index() as i8 {
                    self.any_pseudo_legal_ep(from_mask, to_mask, list);
                }
            }
        }
    }

    /// python-chess's `generate_legal_moves` (the highest king of the side to move decides;
    /// without one, every pseudo-legal move is legal), into `list`.
    // Kept out of line: regular boards (the fast path) never come here.
    #[cold]
    #[inline(never)]
    pub(super) fn any_legal_into(
        &self,
        from_mask: Bitboard,
        to_mask: Bitboard,
        list: &mut MoveList,
    ) {
        let Some(king) = self.pieces(self.turn, Role::King).last() else {
            self.any_pseudo_legal(from_mask, to_mask, list);
            return;
        };
        let blockers = self.slider_blockers(king);
        let checkers = self.attackers(king, !self.turn);
        let mut pseudo = MoveList::new();
        if checkers.nonempty() {
            self.any_evasions(king, checkers, from_mask, to_mask, &mut pseudo);
        } else {
            self.any_pseudo_legal(from_mask, to_mask, &mut pseudo);
        }
        for &m in pseudo.iter() {
            if self.any_is_safe(king, blockers, m) {
                list.push(m);
            }
        }
    }

    /// How many moves `any_legal_into` lists.
    #[cold]
    #[inline(never)]
    pub(super) fn any_legal_count(&self) -> usize {
        let mut list = MoveList::new();
        self.any_legal_into(Bitboard::FULL, Bitboard::FULL, &mut list);
        list.len()
    }

    /// python-chess's `is_into_check` for a pseudo-legal move (on any board).
    // Kept out of line: regular boards (the fast path) never come here.
    #[cold]
    #[inline(never)]
    pub(super) fn any_is_into_check(&self, m: Move) -> bool {
        let Some(king) = self.king(self.turn) else {
            return false;
        };
        let checkers = self.attackers(king, !self.turn);
        if checkers.nonempty() {
            let mut evasions = MoveList::new();
            self.any_evasions(
                king,
                checkers,
                Bitboard::from_square(m.from),
                Bitboard::from_square(m.to),
                &mut evasions,
            );
            // python-chess compares moves by squares and promotion.
            let same =
                |e: &Move| e.from == m.from && e.to == m.to && e.promotion() == m.promotion();
            if !evasions.iter().any(same) {
                return true;
            }
        }
        !self.any_is_safe(king, self.slider_blockers(king), m)
    }

    /// python-chess's `is_into_check` for any move given as from/to/promotion, pseudo-legal
    /// or not (python-chess answers for every move).
    pub fn is_into_check_uci(&self, uci: crate::UciMove) -> bool {
        let kind = match uci.promotion {
            Some(role) => MoveKind::Promotion(role),
            None => MoveKind::Normal,
        };
        self.any_is_into_check(Move::new(uci.from, uci.to, kind))
    }

    /// python-chess's `has_legal_en_passant`, as the square.
    // Kept out of line: regular boards (the fast path) never come here.
    #[cold]
    #[inline(never)]
    pub(super) fn any_legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut list = MoveList::new();
        self.any_pseudo_legal_ep(Bitboard::FULL, Bitboard::FULL, &mut list);
        list.iter()
            .any(|&m| !self.any_is_into_check(m))
            .then_some(ep)
    }

    /// Is the side not to move in check (python-chess's `was_into_check`: after a pseudo-legal
    /// push, did the mover leave its king attacked)?
    pub fn was_into_check(&self) -> bool {
        self.king(!self.turn)
            .is_some_and(|king| self.attackers(king, self.turn).nonempty())
    }

    /// python-chess's `status()`: every flag, by the same algorithm.
    pub fn status(&self) -> Status {
        let mut errors = Status::VALID;
        let occupied = self.occupied();
        let kings = self.by_role(Role::King);
        let white = self.by_color(Color::White);
        let black = self.by_color(Color::Black);
        if occupied.is_empty() {
            errors |= Status::EMPTY;
        }
        if (white & kings).is_empty() {
            errors |= Status::NO_WHITE_KING;
        }
        if (black & kings).is_empty() {
            errors |= Status::NO_BLACK_KING;
        }
        if (occupied & kings).count() > 2 {
            errors |= Status::TOO_MANY_KINGS;
        }
        if white.count() > 16 {
            errors |= Status::TOO_MANY_WHITE_PIECES;
        }
        if black.count() > 16 {
            errors |= Status::TOO_MANY_BLACK_PIECES;
        }
        if (white & self.by_role(Role::Pawn)).count() > 8 {
            errors |= Status::TOO_MANY_WHITE_PAWNS;
        }
        if (black & self.by_role(Role::Pawn)).count() > 8 {
            errors |= Status::TOO_MANY_BLACK_PAWNS;
        }
        if (self.by_role(Role::Pawn) & Bitboard::BACKRANKS).nonempty() {
            errors |= Status::PAWNS_ON_BACKRANK;
        }
        if self.castling != self.clean_castling_rights() {
            errors |= Status::BAD_CASTLING_RIGHTS;
        }
        let valid_ep = self.valid_ep_square();
        if self.ep_square != valid_ep {
            errors |= Status::INVALID_EP_SQUARE;
        }
        if self.was_into_check() {
            errors |= Status::OPPOSITE_CHECK;
        }
        let checkers = self.checkers();
        let our_kings = self.pieces(self.turn, Role::King) & !self.promoted;
        if checkers.nonempty() {
            if checkers.count() > 2 {
                errors |= Status::TOO_MANY_CHECKERS;
            }
            match valid_ep {
                Some(ep) => {
                    // The double step that left the en-passant square must have given check.
                    let pushed_to = Square::new((ep.index() ^ 8) as u8);
                    let pushed_from = Square::new((ep.index() ^ 24) as u8);
                    let occupied_before = occupied.without(pushed_to).with(pushed_from);
                    let checker = checkers.last().unwrap_or(pushed_to);
                    if checkers.more_than_one()
                        || (checker != pushed_to
                            && self.attacked_for_king(our_kings, occupied_before))
                    {
                        errors |= Status::IMPOSSIBLE_CHECK;
                    }
                }
                None => {
                    let aligned = || {
                        let (Some(low), Some(high)) = (checkers.first(), checkers.last()) else {
                            return false;
                        };
                        (ray(low, high) & our_kings).nonempty()
                    };
                    if checkers.count() > 2 || (checkers.count() == 2 && aligned()) {
                        errors |= Status::IMPOSSIBLE_CHECK;
                    }
                }
            }
        }
        errors
    }

    /// Is python-chess's `status()` empty (`is_valid`)?
    pub fn is_valid(&self) -> bool {
        self.status().is_valid()
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Status, UciMove};

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    fn ucis(board: &Board, moves: &[crate::Move]) -> Vec<String> {
        let mut all: Vec<String> = moves.iter().map(|&m| board.uci(m).to_string()).collect();
        all.sort();
        all
    }

    /// Answers of python-chess 1.11.2 for the same positions, written down from the oracle.
    #[test]
    fn status_flags_match_python_chess() {
        for (fen, status) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0,
            ),
            ("8/8/8/8/8/8/8/8 w - - 0 1", 0x803),
            ("4k3/8/8/8/8/8/8/4K2K w - - 0 1", 0x4),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", 0x20),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", 0x100),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", 0x200),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", 0x400),
            ("4k3/8/8/8/8/8/8/r3K2r w - - 0 1", 0x10000),
            ("4k3/8/8/8/8/2n5/3p4/r3K3 w - - 0 1", 0),
            ("4k3/8/8/8/1b5b/8/4r3/4K3 w - - 0 1", 0x18000),
            ("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", 0x10000),
            ("4k3/8/8/8/NNNNNNNN/NNNNNNNN/8/4K3 w - - 0 1", 0x40),
            ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", 0x8),
            ("8/8/8/k6R/3Pp3/8/8/4K3 b - d3 0 1", 0x10000),
        ] {
            assert_eq!(board(fen).status(), Status(status), "{fen}");
        }
    }

    #[test]
    fn positions_without_kings_or_with_several() {
        // No kings: every pseudo-legal move is legal, nobody is in check.
        let b = board("8/8/8/8/8/8/8/R7 w - - 0 1");
        assert!(!b.is_regular() && !b.is_check());
        assert_eq!(b.legal_moves().len(), 14);
        // Two white kings: only the highest one (e4) is kept safe, so the other may step
        // into the rook's line.
        let b = board("4k3/8/8/8/4K3/8/8/4K2r w - - 0 1");
        let moves = ucis(&b, &b.legal_moves());
        let expected = [
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e4d3", "e4d4", "e4d5", "e4e3", "e4e5", "e4f3",
            "e4f4", "e4f5",
        ];
        assert_eq!(moves, expected);
        assert!(!b.is_check());
        assert_eq!(b.status(), Status::TOO_MANY_KINGS);
    }

    #[test]
    fn pawns_on_the_back_rank_step_as_python_chess_lets_them() {
        // A white pawn on the first rank moves one or two squares; the double step leaves no
        // en-passant square. A black pawn on the first rank cannot move.
        let mut b = board("4k3/8/8/8/8/8/8/P3K2p w - - 0 1");
        let moves = ucis(&b, &b.legal_moves());
        assert!(moves.contains(&"a1a2".to_string()) && moves.contains(&"a1a3".to_string()));
        let m = b.find_legal(UciMove::parse("a1a3").unwrap()).unwrap();
        b.play_unchecked(m);
        assert_eq!(b.ep_square(), None);
        assert!(!ucis(&b, &b.legal_moves())
            .iter()
            .any(|m| m.starts_with("h1")));
    }

    #[test]
    fn opposite_check_and_pseudo_legal_play() {
        // White to move while Black is in check: White may take the king.
        let b = board("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(b.was_into_check());
        assert!(b.find_legal(UciMove::parse("e7e8").unwrap()).is_some());
        let after = b.after(b.find_legal(UciMove::parse("e7e8").unwrap()).unwrap());
        assert_eq!(after.status(), Status::NO_BLACK_KING);
        assert_eq!(after.fen(), "4R3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(after.legal_moves().len(), 0);
    }

    #[test]
    fn unclean_castling_rights_are_kept_raw_and_used_clean() {
        let b = board("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1");
        assert_eq!(b.castling_rights().count(), 2);
        assert_eq!(b.clean_castling_rights().count(), 1);
        assert_eq!(b.castling_fen(false), "Q");
        assert!(ucis(&b, &b.legal_moves()).contains(&"e1c1".to_string()));
        assert_eq!(b.status(), Status::BAD_CASTLING_RIGHTS);
    }

    /// On regular positions the general rules must give what the fast generator gives: walk
    /// two plies deep from tricky positions and compare every answer.
    #[test]
    fn the_general_rules_agree_with_the_fast_generator() {
        fn sorted(board: &Board, moves: &[crate::Move]) -> Vec<String> {
            ucis(board, moves)
        }
        fn walk(board: &Board, depth: u32) {
            let mut general = board.clone();
            general.regular = false;
            assert_eq!(
                sorted(board, &board.legal_moves()),
                sorted(board, &general.legal_moves())
            );
            assert_eq!(
                sorted(board, &board.pseudo_legal_moves()),
                sorted(board, &general.pseudo_legal_moves())
            );
            assert_eq!(board.checkers(), general.checkers());
            assert_eq!(board.legal_ep_square(), general.legal_ep_square());
            for &m in board.pseudo_legal_moves().iter() {
                assert_eq!(board.is_into_check(m), general.is_into_check(m), "{m:?}");
            }
            if depth > 0 {
                for &m in board.legal_moves().iter() {
                    walk(&board.after(m), depth - 1);
                }
            }
        }
        for (fen, chess960) in [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/8/8/K1pP3q/8/8/8/7k w - c6 0 1", false),
            ("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", true),
        ] {
            walk(&Board::from_fen(fen, chess960).unwrap(), 2);
        }
    }

    #[test]
    fn pseudo_legal_pushes_and_pops_restore_the_game() {
        let mut game = crate::Game::default();
        for uci in ["e2e4", "d7d5", "f1b5"] {
            game.push_uci(UciMove::parse(uci).unwrap()).unwrap();
        }
        let before = game.board().clone();
        // Black ignores the check: pseudo-legal, pushed, and the position says so.
        game.push_uci(UciMove::parse("a7a6").unwrap()).unwrap();
        assert!(game.board().was_into_check() && !game.board().is_regular());
        assert_eq!(game.board().status(), Status::OPPOSITE_CHECK);
        game.push_uci(UciMove::parse("b5e8").unwrap()).unwrap();
        assert_eq!(game.board().status(), Status::NO_BLACK_KING);
        assert!(game.push_uci(UciMove::parse("a6a4").unwrap()).is_err());
        game.pop();
        game.pop();
        assert_eq!(*game.board(), before);
        assert!(game.board().is_regular());
        // A null move out of check is no longer regular either.
        game.push_uci(UciMove::NULL).unwrap();
        assert_eq!(game.board().status(), Status::OPPOSITE_CHECK);
    }

    /// A castling right written by hand whose rook is not on its square (issue 27): no
    /// castling move uses it, whoever asks, and pushing one is refused with the game
    /// unchanged. python-chess lists the move once moves were played (it trusts the rights
    /// then) and creates a rook, or jumps the king, when it is pushed.
    #[test]
    fn castling_needs_its_rook() {
        use crate::{Bitboard, Color, Game, MoveError, Square};
        let sq = |name: &str| Square::parse(name).unwrap();
        let uci = |text: &str| UciMove::parse(text).unwrap();
        // (start, Chess960, moves before the edit, rook taken off, castling as pushed,
        // castling king-takes-rook, SAN, the rook of the other side, which still castles).
        let cases = [
            (
                "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
                false,
                "a2a3 a7a6",
                "a1",
                "e1c1",
                "e1a1",
                "O-O-O",
                "e1h1",
            ),
            (
                "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
                false,
                "a2a3 a7a6",
                "h1",
                "e1g1",
                "e1h1",
                "O-O",
                "e1a1",
            ),
            (
                "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
                false,
                "a2a3 a7a6 h2h3",
                "a8",
                "e8c8",
                "e8a8",
                "O-O-O",
                "e8h8",
            ),
            (
                "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
                false,
                "a2a3 a7a6 h2h3",
                "h8",
                "e8g8",
                "e8h8",
                "O-O",
                "e8a8",
            ),
            (
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                true,
                "a2a3 a7a6",
                "b1",
                "e1b1",
                "e1b1",
                "O-O-O",
                "e1g1",
            ),
            (
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                true,
                "a2a3 a7a6 h2h3",
                "g8",
                "e8g8",
                "e8g8",
                "O-O",
                "e8b8",
            ),
        ];
        for (fen, chess960, moves, gone, pushed, king_takes_rook, san, other) in cases {
            let rights = Bitboard::from_square(sq(gone)).with(sq(&other[2..]));
            for with_stack in [true, false] {
                let mut game = Game::new(Board::from_fen(fen, chess960).unwrap());
                for m in moves.split(' ') {
                    game.push_uci(uci(m)).unwrap();
                }
                if !with_stack {
                    game.clear_stack();
                }
                game.edit_board(|b| {
                    b.remove_piece_at(sq(gone));
                    b.set_castling_rights(rights);
                });
                let case = format!(
                    "{gone} {} stack",
                    if with_stack { "with" } else { "without" }
                );
                let board = game.board().clone();
                let (fen_before, plies) = (board.fen(), game.moves().len());
                assert!(!board.is_regular(), "{case}");
                // Never listed, by any generator or reader.
                let castles_there =
                    |list: &[crate::Move]| list.iter().any(|m| m.is_castle() && m.to == sq(gone));
                assert!(!castles_there(&board.legal_moves()), "{case}");
                assert!(!castles_there(&board.pseudo_legal_moves()), "{case}");
                assert!(
                    !castles_there(&board.castling_moves(Bitboard::FULL, Bitboard::FULL)),
                    "{case}"
                );
                assert!(!castles_there(game.legal_moves()), "{case}");
                for text in [pushed, king_takes_rook] {
                    assert_eq!(board.find_legal(uci(text)), None, "{case} {text}");
                    assert_eq!(board.find_pseudo_legal(uci(text)), None, "{case} {text}");
                    assert_eq!(game.find_legal(uci(text)), None, "{case} {text}");
                    assert_eq!(
                        board.missing_castling_rook(uci(text)),
                        Some(sq(gone)),
                        "{case}"
                    );
                    // Refused by every reader, naming the rook; the game is unchanged.
                    let refused = game.push_uci(uci(text)).unwrap_err();
                    let named = refused.naming_missing_rook(&board, uci(text));
                    let color = board.turn();
                    assert!(
                        matches!(named, MoveError::NoCastlingRook { rook, color: c, .. } if rook == sq(gone) && c == color),
                        "{case}: {named}"
                    );
                    let side = if color == Color::White {
                        "white"
                    } else {
                        "black"
                    };
                    assert!(
                        named
                            .to_string()
                            .ends_with(&format!("no {side} rook on {gone} to castle with")),
                        "{named}"
                    );
                    let resolved = board.resolve_uci(uci(text)).unwrap_err();
                    assert!(
                        matches!(resolved, MoveError::NoCastlingRook { .. }),
                        "{resolved}"
                    );
                    assert_eq!(
                        (game.board().fen(), game.moves().len()),
                        (fen_before.clone(), plies)
                    );
                }
                let by_san = board.parse_san(san).unwrap_err();
                assert!(
                    matches!(by_san, MoveError::NoCastlingRook { .. }),
                    "{case}: {by_san}"
                );
                // The other side's right still has its rook and castles.
                let other_castle = board
                    .find_legal(uci(other))
                    .unwrap_or_else(|| panic!("{case}: no castling {other} in {}", board.fen()));
                assert!(other_castle.is_castle(), "{case}");
                assert_eq!(board.missing_castling_rook(uci(other)), None);
                // status() is python-chess's: moves played, the rights are trusted as written.
                assert_eq!(
                    board.status().contains(Status::BAD_CASTLING_RIGHTS),
                    !with_stack,
                    "{case}"
                );
            }
        }
    }

    #[test]
    fn taking_a_king_takes_its_castling_rights() {
        // python-chess: the rights of a king taken on its back rank go, whether the taker was
        // promoted or not (the h8 rook keeps its piece but loses the right).
        for fen in [
            "1Q~2k2r/8/8/8/8/8/8/4K3 w k - 0 1",
            "1R2k2r/8/8/8/8/8/8/4K3 w k - 0 1",
        ] {
            let mut b = board(fen);
            let m = b.find_legal(UciMove::parse("b8e8").unwrap()).unwrap();
            b.play_unchecked(m);
            assert_eq!(b.castling_rights().count(), 0, "{fen}");
        }
    }
}
