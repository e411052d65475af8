//! Playing a move on a board (copy-make: callers that need the old position keep a copy),
//! with the incremental update of the Polyglot piece key.

use super::zobrist::{piece_square_key, WHITE_TO_MOVE_KEY};
use super::{Board, MAX_CLOCK};
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

impl Board {
    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.piece_key ^= piece_square_key(piece, sq);
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.piece_key ^= piece_square_key(piece, sq);
    }

    /// Plays `m`, which must be legal in this position (or the null move). Use
    /// [`crate::Game::push`] or check with `legal_moves` first when the move comes from outside.
    /// On a board that is not regular any pseudo-legal move may be played this way (see
    /// [`Board::play_pseudo_legal`] for regular ones).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        if self.regular && !m.is_null() {
            self.play_plain(m);
        } else {
            self.play_general(m);
        }
    }

    /// A move on a regular board (nearly every move of every game): no king is taken, the
    /// en-passant victim and the castling rook are where they must be, and no king is
    /// promoted (that board would have no king), so promoted marks only move along.
    #[inline]
    fn play_plain(&mut self, m: Move) {
        let us = self.turn;
        self.castling_trusted = true;
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1).min(MAX_CLOCK);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1).min(MAX_CLOCK);
        }
        self.turn = !us;
        self.piece_key ^= WHITE_TO_MOVE_KEY;

        let role = self.role_at(m.from).unwrap_or(Role::Pawn);
        let mover = Piece { color: us, role };
        if self.promoted.nonempty() || m.promotion().is_some() {
            self.move_promoted_marks(m, self.promoted.contains(m.from));
        }
        match m.kind {
            MoveKind::Castle => {
                let rook = Piece {
                    color: us,
                    role: Role::Rook,
                };
                self.remove(m.from, mover);
                self.remove(m.to, rook);
                self.put(m.castle_king_target(), mover);
                self.put(m.castle_rook_target(), rook);
            }
            MoveKind::EnPassant => {
                let victim = m.en_passant_victim();
                self.remove(
                    victim,
                    Piece {
                        color: !us,
                        role: Role::Pawn,
                    },
                );
                self.remove(m.from, mover);
                self.put(m.to, mover);
                self.halfmove_clock = 0;
            }
            MoveKind::DoubleStep => {
                self.remove(m.from, mover);
                self.put(m.to, mover);
                self.ep_square = Some(Square::new((m.from.index() as i8 + us.forward()) as u8));
                self.halfmove_clock = 0;
            }
            MoveKind::Drop(role) => {
                // python-chess leaves clocks and castling rights alone for a drop, which
                // cannot make a regular board irregular (the square is empty, no pawn lands
                // on a back rank, and a legal drop leaves the king safe).
                self.put(m.to, Piece { color: us, role });
                return;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(captured) = self.role_at(m.to) {
                    self.remove(
                        m.to,
                        Piece {
                            color: !us,
                            role: captured,
                        },
                    );
                    self.halfmove_clock = 0;
                }
                self.remove(m.from, mover);
                let placed = m.promotion().unwrap_or(role);
                self.put(
                    m.to,
                    Piece {
                        color: us,
                        role: placed,
                    },
                );
                if role == Role::Pawn {
                    self.halfmove_clock = 0;
                }
            }
        }

        self.castling &= !(Bitboard::from_square(m.from) | Bitboard::from_square(m.to));
        if role == Role::King {
            self.castling &= !Bitboard::rank(us.back_rank());
        }
    }

    /// Any move on any board, python-chess's `push` to the letter (see `play_plain` for the
    /// common case).
    fn play_general(&mut self, m: Move) {
        let us = self.turn;
        if !self.regular {
            // python-chess cleans the rights before the first move of a game.
            self.castling = self.clean_castling_rights();
        }
        self.castling_trusted = true;
        if m.is_null() {
            self.play_null();
            return;
        }
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1).min(MAX_CLOCK);
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1).min(MAX_CLOCK);
        }
        self.turn = !us;
        self.piece_key ^= WHITE_TO_MOVE_KEY;

        let role = self.role_at(m.from).unwrap_or(Role::Pawn);
        let mover = Piece { color: us, role };
        let moved_promoted = self.promoted.contains(m.from);
        let captured_promoted = self.promoted.contains(m.to);
        if self.promoted.nonempty() || m.promotion().is_some() {
            self.move_promoted_marks(m, moved_promoted);
        }
        match m.kind {
            MoveKind::Castle => {
                let rook = Piece {
                    color: us,
                    role: Role::Rook,
                };
                self.remove(m.from, mover);
                // Our rook: no castling move is listed without one (python-chess's would
                // castle with a right whose rook is gone after edits; see `any_castling`).
                // Whatever stands there is removed, so that a caller breaking the contract
                // of `play_unchecked` cannot leave two pieces on one square.
                if let Some(piece) = self.piece_at(m.to) {
                    self.remove(m.to, piece);
                }
                self.put(m.castle_king_target(), mover);
                self.put(m.castle_rook_target(), rook);
            }
            MoveKind::EnPassant => {
                let victim = m.en_passant_victim();
                // On a regular board an enemy pawn; python-chess removes whatever is there.
                if let Some(piece) = self.piece_at(victim) {
                    self.remove(victim, piece);
                }
                self.remove(m.from, mover);
                self.put(m.to, mover);
                self.halfmove_clock = 0;
            }
            MoveKind::DoubleStep => {
                self.remove(m.from, mover);
                self.put(m.to, mover);
                self.ep_square = Some(Square::new((m.from.index() as i8 + us.forward()) as u8));
                self.halfmove_clock = 0;
            }
            MoveKind::Drop(role) => {
                self.put(m.to, Piece { color: us, role });
                if !self.regular {
                    self.refresh_regular();
                }
                return;
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(captured) = self.role_at(m.to) {
                    self.remove(
                        m.to,
                        Piece {
                            color: !us,
                            role: captured,
                        },
                    );
                    self.halfmove_clock = 0;
                    let king_moves = role == Role::King && !moved_promoted;
                    if captured == Role::King && !king_moves && !captured_promoted {
                        // Taking a king (only possible on boards that are not regular) takes
                        // its castling rights, if it stood on its back rank (python-chess
                        // skips this when the taker is a king).
                        let their_rank = (!us).back_rank();
                        if m.to.rank() == their_rank {
                            self.castling &= !Bitboard::rank(their_rank);
                        }
                    }
                }
                self.remove(m.from, mover);
                let placed = m.promotion().unwrap_or(role);
                self.put(
                    m.to,
                    Piece {
                        color: us,
                        role: placed,
                    },
                );
                if role == Role::Pawn {
                    self.halfmove_clock = 0;
                }
            }
        }

        self.castling &= !(Bitboard::from_square(m.from) | Bitboard::from_square(m.to));
        if role == Role::King && !moved_promoted {
            self.castling &= !Bitboard::rank(us.back_rank());
        }
        if !self.regular {
            self.refresh_regular();
        }
    }

    /// The null move: only the side to move, the clocks and the en-passant square change.
    fn play_null(&mut self) {
        if self.regular && self.is_check() {
            // The side that passes stays in check: the position is no longer regular.
            self.regular = false;
        }
        self.ep_square = None;
        self.halfmove_clock = self.halfmove_clock.saturating_add(1).min(MAX_CLOCK);
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1).min(MAX_CLOCK);
        }
        self.turn = !self.turn;
        self.piece_key ^= WHITE_TO_MOVE_KEY;
        if !self.regular {
            self.refresh_regular();
        }
    }

    /// Moves the promoted marks along with `m` (python-chess's `promoted` mask): the squares
    /// the move empties or fills lose theirs, and the destination gets one if the piece was
    /// promoted or promotes now. Rare, so kept out of the common path.
    #[cold]
    fn move_promoted_marks(&mut self, m: Move, moved_promoted: bool) {
        let mut touched = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        match m.kind {
            MoveKind::Castle => {
                touched = touched
                    .with(m.castle_king_target())
                    .with(m.castle_rook_target());
            }
            MoveKind::EnPassant => {
                touched = touched.with(m.en_passant_victim());
            }
            _ => {}
        }
        self.promoted &= !touched;
        if (moved_promoted || m.promotion().is_some()) && !m.is_castle() {
            self.promoted = self.promoted.with(m.to);
        }
    }

    /// Plays the pseudo-legal move `m` (python-chess's `push` without a legality check):
    /// the mover's king may be left in check, which `was_into_check` then tells.
    pub fn play_pseudo_legal(&mut self, m: Move) {
        let was_regular = self.regular;
        let mover = self.turn;
        self.play_unchecked(m);
        if was_regular {
            self.regular = self.stays_regular(mover);
        }
    }

    /// Is the board, regular before `mover` played a pseudo-legal move, regular still? On a
    /// regular board no king can be taken (the side not to move is never in check) and the
    /// clocks, castling rights and en-passant square stay clean as for a legal move, so only
    /// a king made by promotion (Antichess) or the mover's own king left attacked can
    /// break it: a few bitboard tests instead of the full validation.
    #[inline]
    fn stays_regular(&self, mover: Color) -> bool {
        let kings = self.by_role(Role::King);
        if (kings & self.promoted).nonempty() {
            return false;
        }
        let ours = kings & self.by_color(mover);
        match ours.first() {
            Some(king) if !ours.more_than_one() => !self.is_attacked_by(king, self.turn),
            _ => false,
        }
    }

    /// Takes every piece on `squares` off the board (promoted marks too) and the castling
    /// rights on `lost_rights` away: an atomic explosion (see `crate::variant`), with the
    /// piece key kept incremental.
    pub(crate) fn explode(&mut self, squares: Bitboard, lost_rights: Bitboard) {
        for sq in squares & self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                self.remove(sq, piece);
            }
        }
        self.promoted &= !squares;
        self.castling &= !lost_rights;
        self.refresh_regular();
    }

    /// The position after the legal move `m`.
    #[inline]
    pub fn after(&self, m: Move) -> Board {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }

    /// Does the (pseudo-)legal move `m` give check: `self.after(m).is_check()`, answered
    /// without playing it. A search asks this of every move it may prune, and most of
    /// those are never played; on a regular board the occupancy after the move and a few
    /// attack lookups from the enemy king decide it (irregular boards, drops and king
    /// promotions, which only variants make, play the move).
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        if !self.regular || m.is_null() || matches!(m.kind, MoveKind::Drop(_)) {
            return self.after(m).is_check();
        }
        let us = self.turn;
        let king = self.regular_king(!us);
        let from = Bitboard::from_square(m.from);
        let to = Bitboard::from_square(m.to);
        // Where the checking candidate lands, what it is, and the board's occupancy then.
        let (landing, role, occupied, moved) = match m.kind {
            MoveKind::Castle => {
                let rook = m.castle_rook_target();
                let occupied = (self.occupied() & !from & !to)
                    .with(m.castle_king_target())
                    .with(rook);
                (rook, Role::Rook, occupied, from | to)
            }
            MoveKind::EnPassant => {
                let victim = m.en_passant_victim();
                let occupied = (self.occupied() & !from).without(victim) | to;
                (m.to, Role::Pawn, occupied, from)
            }
            MoveKind::Promotion(Role::King) => return self.after(m).is_check(),
            _ => {
                let role = m
                    .promotion()
                    .unwrap_or_else(|| self.role_at(m.from).unwrap_or(Role::Pawn));
                (m.to, role, (self.occupied() & !from) | to, from)
            }
        };
        if attacks::attacks(role, us, landing, occupied).contains(king) {
            return true;
        }
        // A discovered check: one of the sliders that stayed, seen through the new occupancy.
        let ours = self.by_color(us) & !moved;
        (attacks::rook(king, occupied) & self.rook_like() & ours).nonempty()
            || (attacks::bishop(king, occupied) & self.bishop_like() & ours).nonempty()
    }
}

#[cfg(test)]
mod tests {
    use crate::types::{Bitboard, MoveKind, Role};
    use crate::{Board, Move};

    /// The regular flag after a pseudo-legal move, kept by `stays_regular`, equals the full
    /// validation's answer, along every pseudo-legal move (and every promotion to a king, as
    /// Antichess plays them) to depth 3 of positions with checks, pins, castling and
    /// promotions.
    #[test]
    fn regular_flag_after_pseudo_legal_moves_equals_full_validation() {
        fn walk(board: &Board, depth: u32, irregular: &mut usize) {
            if depth == 0 || !board.is_regular() {
                return;
            }
            let mut moves: Vec<Move> = board.pseudo_legal_moves().iter().copied().collect();
            let kings = moves
                .iter()
                .filter(|m| m.promotion() == Some(Role::Queen))
                .map(|m| Move::new(m.from, m.to, MoveKind::Promotion(Role::King)))
                .collect::<Vec<_>>();
            moves.extend(kings);
            for m in moves {
                let mut after = board.clone();
                after.play_pseudo_legal(m);
                let mut validated = after.clone();
                validated.refresh_regular();
                assert_eq!(
                    after.is_regular(),
                    validated.is_regular(),
                    "{m:?} in {board:?}"
                );
                *irregular += usize::from(!after.is_regular());
                walk(&after, depth - 1, irregular);
            }
        }
        let mut irregular = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            walk(&Board::from_fen(fen, false).unwrap(), 3, &mut irregular);
        }
        // The walk met both answers (moves into check, kings made by promotion).
        assert!(irregular > 1000, "{irregular}");
    }

    /// Walks every move to depth 3 of tricky positions and checks that the incremental key
    /// equals a fresh computation.
    #[test]
    fn incremental_piece_key_equals_recomputed() {
        fn walk(board: &Board, depth: u32) {
            assert_eq!(board.piece_key(), board.compute_piece_key());
            if depth == 0 {
                return;
            }
            for m in board.legal_moves().iter() {
                walk(&board.after(*m), depth - 1);
            }
        }
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            walk(&Board::from_fen(fen, false).unwrap(), 3);
        }
    }

    /// `gives_check` answers what playing the move and asking `is_check` answers, for every
    /// pseudo-legal move three plies into the perft suites (standard and Chess960), and the
    /// walk meets each way a check arises: directly, discovered, by a castling rook, by a
    /// promotion and by an en-passant capture.
    #[test]
    fn gives_check_equals_playing_the_move() {
        #[derive(Default)]
        struct Seen {
            checks: usize,
            discovered: usize,
            castle: usize,
            promotion: usize,
            en_passant: usize,
        }
        fn walk(board: &Board, depth: u32, seen: &mut Seen) {
            let legal = board.legal_moves();
            for &m in board.pseudo_legal_moves().iter() {
                let after = board.after(m);
                let check = after.is_check();
                assert_eq!(board.gives_check(m), check, "{m:?} in {}", board.fen());
                if check {
                    seen.checks += 1;
                    let king = after.king_of(after.turn());
                    let landing = if m.is_castle() {
                        m.castle_rook_target()
                    } else {
                        m.to
                    };
                    seen.discovered += usize::from(
                        (after.attackers(king, board.turn()) & !Bitboard::from_square(landing))
                            .nonempty(),
                    );
                    seen.castle += usize::from(m.is_castle());
                    seen.promotion += usize::from(m.promotion().is_some());
                    seen.en_passant += usize::from(m.kind == MoveKind::EnPassant);
                }
                if depth > 1 && legal.contains(&m) {
                    walk(&after, depth - 1, seen);
                }
            }
        }
        let mut seen = Seen::default();
        for (file, chess960, take) in [("perft.epd", false, 132), ("perft960.epd", true, 120)] {
            for board in crate::perft::suite_positions(file, chess960, take) {
                walk(&board, 3, &mut seen);
            }
        }
        // The suites hold few checks by en passant: one discovered along the rank, one direct.
        for fen in [
            "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1",
            "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            walk(&Board::from_fen(fen, false).unwrap(), 1, &mut seen);
        }
        assert!(seen.checks > 40_000, "{}", seen.checks);
        assert!(seen.discovered > 1_000, "{}", seen.discovered);
        assert!(seen.castle > 200, "{}", seen.castle);
        assert!(seen.promotion > 3_000, "{}", seen.promotion);
        assert!(seen.en_passant >= 4, "{}", seen.en_passant);
    }
}
