//! Strictly legal move generation: check evasions, pins, en passant (including the
//! discovered-check cases) and standard/Chess960 castling.
//!
//! ```
//! use pychess_core::Board;
//! assert_eq!(Board::default().legal_moves().len(), 20);
//! ```

use super::Board;
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};
use arrayvec::ArrayVec;

/// Room on the stack for the moves of any position a game can reach (the most known is 218).
/// An edited position can have more; those lists continue on the heap.
const INLINE_MOVES: usize = 256;

/// A list of moves that lives on the stack unless it outgrows [`INLINE_MOVES`]; it never
/// drops a move.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, INLINE_MOVES>,
    /// Empty until `inline` overflows; then every move, in order.
    spilled: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends `m`.
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if let Err(full) = self.inline.try_push(m) {
            self.spill(full.element());
        }
    }

    #[cold]
    fn spill(&mut self, m: Move) {
        if self.spilled.is_empty() {
            self.spilled.extend_from_slice(&self.inline);
        }
        self.spilled.push(m);
    }

    /// The moves, in generation order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.spilled.is_empty() {
            &self.inline
        } else {
            &self.spilled
        }
    }

    /// The moves, in generation order, to reorder in place (a search sorting its moves by
    /// score, say).
    ///
    /// ```
    /// use pychess_core::Board;
    /// let mut moves = Board::default().legal_moves();
    /// moves.as_mut_slice().reverse();
    /// assert_eq!(moves[19], Board::default().legal_moves()[0]);
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.spilled.is_empty() {
            &mut self.inline
        } else {
            &mut self.spilled
        }
    }

    /// How many moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Is the list empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.inline.is_empty()
    }

    /// Keeps only the moves `keep` accepts, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        if self.spilled.is_empty() {
            self.inline.retain(|m| keep(m));
        } else {
            self.spilled.retain(keep);
        }
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Where generated moves go: a list, a counter that adds whole target sets at once
/// (perft's last ply and `count` need the number, not the moves), or a flag that only asks
/// whether there is any move and stops generating at the first.
trait MoveSink {
    fn add(&mut self, m: Move);

    /// Has the sink seen enough? Generation stops between piece kinds once it has.
    #[inline]
    fn is_done(&self) -> bool {
        false
    }

    /// Ordinary moves from `from` to each square of `targets`.
    #[inline]
    fn add_each(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.add(Move::new(from, to, MoveKind::Normal));
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
struct MoveCount(usize);

impl MoveSink for MoveCount {
    #[inline]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn add_each(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }
}

/// Notes whether there is any move at all.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline]
    fn add(&mut self, _: Move) {
        self.0 = true;
    }

    #[inline]
    fn add_each(&mut self, _: Square, targets: Bitboard) {
        self.0 |= targets.nonempty();
    }

    #[inline]
    fn is_done(&self) -> bool {
        self.0
    }
}

impl Board {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.regular {
            self.generate_legal(&mut list, Bitboard::FULL, Bitboard::FULL);
        } else {
            self.any_legal_into(Bitboard::FULL, Bitboard::FULL, &mut list);
        }
        list
    }

    /// Legal moves from a square of `from_mask` to a square of `to_mask` (for castling,
    /// the rook's square counts as the target, as in python-chess).
    pub fn legal_moves_masked(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        if self.regular {
            self.generate_legal(&mut list, from_mask, to_mask);
        } else {
            self.any_legal_into(from_mask, to_mask, &mut list);
        }
        list
    }

    /// How many legal moves (the same rules as `legal_moves`, without listing them).
    pub fn count_legal_moves(&self) -> usize {
        if !self.regular {
            return self.any_legal_count();
        }
        let mut count = MoveCount(0);
        self.generate_legal(&mut count, Bitboard::FULL, Bitboard::FULL);
        count.0
    }

    /// Does the side to move have any legal move? (Stops at the first one found.)
    pub fn has_legal_moves(&self) -> bool {
        if !self.regular {
            return self.any_legal_count() > 0;
        }
        let mut any = AnyMove(false);
        self.generate_legal(&mut any, Bitboard::FULL, Bitboard::FULL);
        any.0
    }

    /// The pieces of `us` pinned to their king.
    fn pinned(&self, us: Color, king: Square) -> Bitboard {
        let them = self.by_color(!us);
        let snipers = ((attacks::rook(king, them) & self.rook_like())
            | (attacks::bishop(king, them) & self.bishop_like()))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(king, sniper) & self.occupied();
            if !blockers.more_than_one() {
                pinned |= blockers & self.by_color(us);
            }
        }
        pinned
    }

    fn generate_legal(&self, list: &mut impl MoveSink, from_mask: Bitboard, to_mask: Bitboard) {
        let us = self.turn;
        let them = !us;
        let king = self.regular_king(us);
        let ours = self.by_color(us);
        let occupied = self.occupied();
        let checkers = self.attackers(king, them);

        if from_mask.contains(king) {
            let without_king = occupied.without(king);
            let mut safe = Bitboard::EMPTY;
            for to in attacks::king(king) & !ours & to_mask {
                if self.attackers_with(to, them, without_king).is_empty() {
                    safe = safe.with(to);
                }
            }
            list.add_each(king, safe);
        }
        if checkers.more_than_one() || list.is_done() {
            return;
        }

        let target = match checkers.first() {
            Some(checker) => attacks::between(king, checker).with(checker),
            None => !ours,
        } & to_mask;
        let pinned = self.pinned(us, king);
        let allowed = |from: Square| {
            if pinned.contains(from) {
                attacks::line(king, from)
            } else {
                Bitboard::FULL
            }
        };

        for from in self.pieces(us, Role::Knight) & !pinned & from_mask {
            list.add_each(from, attacks::knight(from) & target);
        }
        for from in self.bishop_like() & ours & from_mask {
            list.add_each(
                from,
                attacks::bishop(from, occupied) & target & allowed(from),
            );
        }
        for from in self.rook_like() & ours & from_mask {
            list.add_each(from, attacks::rook(from, occupied) & target & allowed(from));
        }
        if list.is_done() {
            return;
        }
        self.generate_pawn_moves(list, from_mask, target, &allowed, to_mask);
        if checkers.is_empty() && !list.is_done() {
            self.generate_castling(list, from_mask, to_mask);
        }
    }

    fn generate_pawn_moves(
        &self,
        list: &mut impl MoveSink,
        from_mask: Bitboard,
        target: Bitboard,
        allowed: &impl Fn(Square) -> Bitboard,
        to_mask: Bitboard,
    ) {
        let us = self.turn;
        let occupied = self.occupied();
        let theirs = self.by_color(!us);
        let forward = us.forward();
        let start_rank = Bitboard::rank(if us.is_white() { 1 } else { 6 });
        for from in self.pieces(us, Role::Pawn) & from_mask {
            let allowed = allowed(from);
            let mut destinations = attacks::pawn(us, from) & theirs;
            let Some(one) = from.offset(forward) else {
                continue;
            };
            if !occupied.contains(one) {
                destinations = destinations.with(one);
                if start_rank.contains(from) {
                    let two = Square::new((one.index() as i8 + forward) as u8);
                    if !occupied.contains(two) && (target & allowed).contains(two) {
                        list.add(Move::new(from, two, MoveKind::DoubleStep));
                    }
                }
            }
            let destinations = destinations & target & allowed;
            for to in destinations & Bitboard::BACKRANKS {
                for role in Role::PROMOTIONS {
                    list.add(Move::new(from, to, MoveKind::Promotion(role)));
                }
            }
            list.add_each(from, destinations & !Bitboard::BACKRANKS);
        }
        if let Some(ep) = self.ep_square {
            if to_mask.contains(ep) {
                for from in self.ep_capturers(ep) & from_mask {
                    let m = Move::new(from, ep, MoveKind::EnPassant);
                    if self.is_safe(m) {
                        list.add(m);
                    }
                }
            }
        }
    }

    fn generate_castling(&self, list: &mut impl MoveSink, from_mask: Bitboard, to_mask: Bitboard) {
        let us = self.turn;
        let king = self.regular_king(us);
        if !from_mask.contains(king) {
            return;
        }
        for rook in self.castling & Bitboard::rank(us.back_rank()) & to_mask {
            let m = Move::new(king, rook, MoveKind::Castle);
            if self.castling_path_is_clear(m) {
                list.add(m);
            }
        }
    }

    /// Are the squares the king and rook cross empty, and none the king crosses or lands on
    /// attacked? (The king's own square is checked by the caller: no castling out of check.)
    fn castling_path_is_clear(&self, m: Move) -> bool {
        let (king, rook) = (m.from, m.to);
        let king_to = m.castle_king_target();
        let rook_to = m.castle_rook_target();
        let king_path = attacks::between(king, king_to).with(king_to);
        let rook_path = attacks::between(rook, rook_to).with(rook_to);
        let movers = Bitboard::from_square(king).with(rook);
        let occupied = self.occupied() ^ movers;
        if (occupied & (king_path | rook_path)).nonempty() {
            return false;
        }
        king_path
            .into_iter()
            .all(|sq| self.attackers_with(sq, !self.turn, occupied).is_empty())
    }

    /// Every pseudo-legal move: moves that follow the pieces' rules but may leave the king in
    /// check. Castling is included only when legal, as in python-chess.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if !self.regular {
            self.any_pseudo_legal(Bitboard::FULL, Bitboard::FULL, &mut list);
            return list;
        }
        let us = self.turn;
        let ours = self.by_color(us);
        let occupied = self.occupied();
        for from in ours & !self.by_role(Role::Pawn) {
            let role = self.role_at(from).unwrap_or(Role::King);
            for to in attacks::attacks(role, us, from, occupied) & !ours {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        self.generate_pawn_moves(
            &mut list,
            Bitboard::FULL,
            !ours,
            &|_| Bitboard::FULL,
            Bitboard::FULL,
        );
        // generate_pawn_moves filtered en passant for safety; add the unsafe ones back.
        if let Some(ep) = self.ep_square {
            for from in self.ep_capturers(ep) {
                let m = Move::new(from, ep, MoveKind::EnPassant);
                if !self.is_safe(m) {
                    list.push(m);
                }
            }
        }
        if !self.is_check() {
            self.generate_castling(&mut list, Bitboard::FULL, Bitboard::FULL);
        }
        list
    }

    /// Pseudo-legal moves from `from_mask` to `to_mask`, in python-chess's order (any board).
    pub fn pseudo_legal_moves_masked(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.any_pseudo_legal(from_mask, to_mask, &mut list);
        list
    }

    /// Pseudo-legal en-passant captures from `from_mask` to `to_mask` (python-chess's
    /// `generate_pseudo_legal_ep`, any board).
    pub fn pseudo_legal_ep_moves(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.any_pseudo_legal_ep(from_mask, to_mask, &mut list);
        list
    }

    /// Castling moves from `from_mask` to `to_mask` (python-chess's `generate_castling_moves`:
    /// pseudo-legal and legal at once, any board).
    pub fn castling_moves(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.any_castling(from_mask, to_mask, &mut list);
        list
    }

    /// Pseudo-legal captures from `from_mask` to `to_mask` (python-chess's
    /// `generate_pseudo_legal_captures`, any board): the moves onto the other side's pieces,
    /// then the en-passant captures.
    pub fn pseudo_legal_captures(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        let theirs = self.by_color(!self.turn);
        self.any_pseudo_legal(from_mask, to_mask & theirs, &mut list);
        self.any_pseudo_legal_ep(from_mask, to_mask, &mut list);
        list
    }

    /// Legal en-passant captures from `from_mask` to `to_mask` (python-chess's
    /// `generate_legal_ep`: the pseudo-legal ones that leave the king safe, any board).
    pub fn legal_ep_moves(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        for &m in self.pseudo_legal_ep_moves(from_mask, to_mask).iter() {
            if !self.is_into_check(m) {
                list.push(m);
            }
        }
        list
    }

    /// Legal captures from `from_mask` to `to_mask` (python-chess's
    /// `generate_legal_captures`): the legal moves onto the other side's pieces, then the
    /// legal en-passant captures.
    pub fn legal_captures(&self, from_mask: Bitboard, to_mask: Bitboard) -> MoveList {
        let theirs = self.by_color(!self.turn);
        let mut list = self.legal_moves_masked(from_mask, to_mask & theirs);
        for &m in self.legal_ep_moves(from_mask, to_mask).iter() {
            list.push(m);
        }
        list
    }

    /// Would the pseudo-legal move `m` leave the mover in check?
    pub fn is_into_check(&self, m: Move) -> bool {
        if !self.regular {
            return self.any_is_into_check(m);
        }
        if m.is_castle() {
            return false;
        }
        !self.is_safe(m)
    }
}

#[cfg(test)]
mod tests {
    use super::{MoveList, MoveSink, INLINE_MOVES};
    use crate::types::{Bitboard, Move, MoveKind, Square};
    use crate::Board;

    #[test]
    fn move_lists_never_drop_moves() {
        let mut list = MoveList::new();
        assert!(list.is_empty());
        let moves: Vec<Move> = (0..3 * INLINE_MOVES)
            .map(|i| {
                Move::new(
                    Square::new((i % 64) as u8),
                    Square::new((i / 64) as u8),
                    MoveKind::Normal,
                )
            })
            .collect();
        for (i, &m) in moves.iter().enumerate() {
            list.add(m);
            assert_eq!(list.len(), i + 1);
        }
        assert_eq!(list.as_slice(), &moves[..]);
        assert!(!list.is_empty());
    }

    #[test]
    fn has_legal_moves_agrees_with_the_count() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // Checkmate, stalemate, and positions whose only moves are a pawn's or castling.
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "7k/8/6KQ/8/8/8/P7/8 b - - 0 1",
            "k7/8/1K6/8/8/8/P7/8 w - - 0 1",
            "k7/P7/K7/8/8/8/8/8 w - - 0 1",
            "8/8/8/8/8/2k5/p7/K7 b - - 0 1",
            "4k3/8/8/8/8/8/3r1r2/4K2R w K - 0 1",
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            assert_eq!(
                board.has_legal_moves(),
                board.count_legal_moves() > 0,
                "{fen}"
            );
        }
    }

    #[test]
    fn masked_generation_partitions_the_moves() {
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let all = board.legal_moves().len();
        let mask = Bitboard(0x0000_00ff_0000_ffff);
        let part = board.legal_moves_masked(mask, Bitboard::FULL).len()
            + board.legal_moves_masked(!mask, Bitboard::FULL).len();
        assert_eq!(all, 48);
        assert_eq!(part, all);
        let part = board.legal_moves_masked(Bitboard::FULL, mask).len()
            + board.legal_moves_masked(Bitboard::FULL, !mask).len();
        assert_eq!(part, all);
    }

    #[test]
    fn captures_are_the_capturing_moves_in_python_chess_order() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // En passant: one capture legal, one pinned along the rank.
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
            "8/8/8/8/2pPp3/8/8/4K2k b - d3 0 1",
            // Two kings of one side (any board).
            "4k3/8/8/3p4/4K3/8/8/4K3 w - - 0 1",
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            let full = Bitboard::FULL;
            let pseudo = board.pseudo_legal_captures(full, full);
            let expected: Vec<Move> = board
                .pseudo_legal_moves_masked(full, board.by_color(!board.turn()))
                .iter()
                .chain(board.pseudo_legal_ep_moves(full, full).iter())
                .copied()
                .collect();
            assert_eq!(pseudo.as_slice(), &expected[..], "{fen}");
            let legal = board.legal_captures(full, full);
            let legal_moves = board.legal_moves_masked(full, full);
            for m in pseudo.iter() {
                assert!(board.is_capture_move(board.uci(*m)), "{fen} {m:?}");
                assert_eq!(legal.contains(m), legal_moves.contains(m), "{fen} {m:?}");
            }
            let ep = board.legal_ep_moves(full, full);
            assert!(ep.iter().all(|m| m.is_en_passant() && legal.contains(m)));
            // Masks restrict both ends.
            let from = Bitboard(0x0000_00ff_0000_0000);
            assert!(board
                .legal_captures(from, full)
                .iter()
                .all(|m| from.contains(m.from)));
        }
    }

    #[test]
    fn every_legal_move_is_pseudo_legal_and_safe() {
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let pseudo = board.pseudo_legal_moves();
        for m in board.legal_moves().iter() {
            assert!(pseudo.contains(m), "{m:?}");
            assert!(!board.is_into_check(*m));
        }
        let legal = board.legal_moves();
        for m in pseudo.iter().filter(|m| !legal.contains(m)) {
            assert!(board.is_into_check(*m), "{m:?}");
        }
    }
}
