//! Hash keys: the Polyglot key python-chess's `chess.polyglot.zobrist_hash` gives, and the
//! repetition key that decides threefold/fivefold repetition.
//!
//! Both share the incrementally updated piece-and-turn part (`Board::piece_key`); the
//! castling and en-passant parts are cheap to add on demand, and they differ: Polyglot hashes
//! castling by side (K/Q/k/q) and en passant when a pawn merely stands ready to capture, while
//! a repetition (python-chess's `_transposition_key`) needs the exact castling rooks and counts
//! en passant only when the capture is legal.
//!
//! `zobrist_hash_after` gives the Polyglot key of the position after a move without playing
//! it (a search's transposition-table probe, or a dictionary lookup of candidate moves): the
//! piece-and-turn part follows the move's few changed squares, and the castling part stays
//! the same unless the move touches a king or a castling rook, in which case the key is taken
//! from the played position (at most one king move or rook move per position does).
//!
//! [`Board::zobrist_parts`] computes the same key from any table laid out like Polyglot's,
//! part by part (python-chess's `ZobristHasher` with an array of its own).

use super::polyglot_keys::POLYGLOT_KEYS;
use super::Board;
use crate::types::{Bitboard, Color, Move, MoveKind, Piece, Role, Square};

/// Polyglot key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_square_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + usize::from(piece.color.is_white());
    POLYGLOT_KEYS[64 * kind + sq.index()]
}

/// Polyglot key XORed in while White is to move.
pub(crate) const WHITE_TO_MOVE_KEY: u64 = POLYGLOT_KEYS[780];

#[inline]
fn ep_file_key(sq: Square) -> u64 {
    POLYGLOT_KEYS[772 + sq.file() as usize]
}

/// Keys for the exact castling rook squares (repetition key only), from a fixed-seed
/// splitmix64 stream so every build agrees.
static CASTLING_SQUARE_KEYS: [u64; 64] = {
    let mut keys = [0u64; 64];
    let mut state = 0x0123_4567_89ab_cdefu64;
    let mut i = 0;
    while i < 64 {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// The four parts of a Polyglot-style key, each from the table given to
/// [`Board::zobrist_parts`]; their XOR is the key.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ZobristParts {
    /// The pieces: one key per piece and square (`64 * kind + square`).
    pub pieces: u64,
    /// The castling rights, one key per side that keeps one (K, Q, k, q).
    pub castling: u64,
    /// The en-passant file, when a pawn of the side to move stands ready to take there.
    pub ep: u64,
    /// The key XORed in while White is to move.
    pub turn: u64,
}

impl ZobristParts {
    /// The key: the XOR of the parts.
    pub fn key(self) -> u64 {
        self.pieces ^ self.castling ^ self.ep ^ self.turn
    }
}

impl Board {
    /// The Polyglot Zobrist hash, equal to python-chess's `chess.polyglot.zobrist_hash`.
    pub fn zobrist_hash(&self) -> u64 {
        let ep = self
            .polyglot_ep_file()
            .map_or(0, |file| POLYGLOT_KEYS[772 + file]);
        self.piece_key ^ self.polyglot_castling_key(&POLYGLOT_KEYS) ^ ep
    }

    /// The key's parts from `keys`, a table laid out like [`crate::POLYGLOT_KEYS`] (768
    /// piece-square keys, 4 castling keys, 8 en-passant files, the turn). With that table
    /// their XOR is [`Board::zobrist_hash`].
    ///
    /// ```
    /// use pychess_core::{Board, POLYGLOT_KEYS};
    /// let board = Board::default();
    /// assert_eq!(board.zobrist_parts(&POLYGLOT_KEYS).key(), board.zobrist_hash());
    /// ```
    pub fn zobrist_parts(&self, keys: &[u64; 781]) -> ZobristParts {
        let mut pieces = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let kind = 2 * role.index() + usize::from(color.is_white());
                for sq in self.pieces(color, role) {
                    pieces ^= keys[64 * kind + sq.index()];
                }
            }
        }
        ZobristParts {
            pieces,
            castling: self.polyglot_castling_key(keys),
            ep: self.polyglot_ep_file().map_or(0, |file| keys[772 + file]),
            turn: if self.turn.is_white() { keys[780] } else { 0 },
        }
    }

    /// The file the Polyglot key hashes for en passant: the en-passant square's, when a pawn
    /// of the side to move stands next to it (legality of the capture not considered).
    fn polyglot_ep_file(&self) -> Option<usize> {
        // python-chess's truth test skips an en-passant square of index 0.
        let ep = self.ep_square.filter(|sq| sq.index() != 0)?;
        self.ep_capturers(ep)
            .nonempty()
            .then_some(ep.file() as usize)
    }

    /// The Polyglot key of the position after `m`, equal to `self.after(m).zobrist_hash()`
    /// without building that position. `m` must be legal here, pseudo-legal, or the null
    /// move (what [`crate::Game::push_uci`] plays).
    pub fn zobrist_hash_after(&self, m: Move) -> u64 {
        let touched = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
        let castling_pieces = self.castling | self.by_role(Role::King);
        if !self.regular
            || m.is_null()
            || m.kind == MoveKind::Castle
            || m.is_drop()
            || (touched & castling_pieces).nonempty()
        {
            // Castling rights may change: python-chess's rules for them are the played
            // position's to find.
            let mut after = self.clone();
            after.play_unchecked(m);
            return after.zobrist_hash();
        }
        let us = self.turn;
        let role = self.role_at(m.from).unwrap_or(Role::Pawn);
        let mover = Piece { color: us, role };
        let mut key =
            self.piece_key ^ WHITE_TO_MOVE_KEY ^ self.polyglot_castling_key(&POLYGLOT_KEYS);
        key ^= piece_square_key(mover, m.from);
        match m.kind {
            MoveKind::EnPassant => {
                let victim = m.en_passant_victim();
                let pawn = Piece {
                    color: !us,
                    role: Role::Pawn,
                };
                key ^= piece_square_key(pawn, victim) ^ piece_square_key(mover, m.to);
            }
            MoveKind::DoubleStep => {
                key ^= piece_square_key(mover, m.to);
                // The double step captures nothing, so the pawns that could take en passant
                // afterwards stand where they stand now.
                let ep = Square::new((m.from.index() as i8 + us.forward()) as u8);
                let capturers = crate::attacks::pawn(us, ep) & self.pieces(!us, Role::Pawn);
                if capturers.nonempty() {
                    key ^= ep_file_key(ep);
                }
            }
            MoveKind::Normal | MoveKind::Promotion(_) | MoveKind::Castle | MoveKind::Drop(_) => {
                if let Some(captured) = self.role_at(m.to) {
                    let victim = Piece {
                        color: !us,
                        role: captured,
                    };
                    key ^= piece_square_key(victim, m.to);
                }
                let placed = Piece {
                    color: us,
                    role: m.promotion().unwrap_or(role),
                };
                key ^= piece_square_key(placed, m.to);
            }
        }
        key
    }

    /// The castling part of the Polyglot key: one key of `keys` per side that keeps a right.
    fn polyglot_castling_key(&self, keys: &[u64; 781]) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            let (king_side, queen_side) = self.castling_sides(color);
            let base = if color.is_white() { 768 } else { 770 };
            if king_side {
                key ^= keys[base];
            }
            if queen_side {
                key ^= keys[base + 1];
            }
        }
        key
    }

    /// The key that identifies a position for repetition: placement, side to move, the exact
    /// castling rooks and a *legal* en-passant capture.
    pub fn repetition_key(&self) -> u64 {
        let mut key = self.piece_key;
        for sq in self.clean_castling_rights() {
            key ^= CASTLING_SQUARE_KEYS[sq.index()];
        }
        if let Some(ep) = self.legal_ep_square() {
            key ^= ep_file_key(ep);
        }
        key
    }

    /// The piece-and-turn part of the key computed from scratch (the incremental one must
    /// always equal it).
    pub(crate) fn compute_piece_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for role in crate::Role::ALL {
                for sq in self.pieces(color, role) {
                    key ^= piece_square_key(Piece { color, role }, sq);
                }
            }
        }
        if self.turn.is_white() {
            key ^= WHITE_TO_MOVE_KEY;
        }
        key
    }

    /// Pawns of the side to move that stand next to the double-stepped pawn (legality of the
    /// capture not considered), as Polyglot's en-passant rule wants.
    pub(crate) fn ep_capturers(&self, ep: Square) -> Bitboard {
        crate::attacks::pawn(!self.turn, ep) & self.pieces(self.turn, crate::Role::Pawn)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Move};

    /// The key after each move equals the key of the played position, and the parts from
    /// the Polyglot table add up to the key.
    fn check_walk(board: &Board, depth: u32, checked: &mut u64) {
        assert_eq!(
            board.zobrist_parts(&crate::POLYGLOT_KEYS).key(),
            board.zobrist_hash(),
            "{}",
            board.fen()
        );
        let mut moves: Vec<Move> = board.pseudo_legal_moves().iter().copied().collect();
        moves.push(Move::NULL);
        for m in moves {
            assert_eq!(
                board.zobrist_hash_after(m),
                board.after(m).zobrist_hash(),
                "{} after {m:?}",
                board.fen()
            );
            *checked += 1;
        }
        if depth > 0 {
            for m in board.legal_moves().iter() {
                check_walk(&board.after(*m), depth - 1, checked);
            }
        }
    }

    #[test]
    fn key_after_move_equals_key_of_played_position() {
        let mut checked = 0;
        for (fen, chess960) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                false,
            ),
            // En passant: legal, pinned, and a double step next to an enemy pawn.
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", false),
            ("4k3/8/8/8/1p6/8/P1P5/4K3 w - - 0 1", false),
            // Chess960 castling with the king and rook next to each other.
            (
                "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
                true,
            ),
        ] {
            let board = Board::from_fen(fen, chess960).unwrap();
            check_walk(&board, 2, &mut checked);
        }
        assert!(checked > 100_000, "only {checked} moves checked");
    }

    /// Each part reads its own slots of the table: a table with one distinct value per slot
    /// shows which slots a position hashes.
    #[test]
    fn parts_read_their_slots_of_any_table() {
        let mut keys = [0u64; 781];
        for (i, key) in keys.iter_mut().enumerate() {
            *key = (i as u64 + 1) << 20;
        }
        let slot = |i: usize| (i as u64 + 1) << 20;
        // Black to move, White keeps O-O, a black pawn on d4 next to the e3 square.
        let board = Board::from_fen("4k3/8/8/8/3pP3/8/8/4K2R b K e3 0 1", false).unwrap();
        let parts = board.zobrist_parts(&keys);
        assert_eq!(parts.turn, 0);
        assert_eq!(parts.castling, slot(768));
        assert_eq!(parts.ep, slot(772 + 4));
        // Kind = 2 * (role - 1) + is_white: black pawn 0, white pawn 1, white rook 7, ...
        let expected = slot(64 * 10 + 60) // black king e8
            ^ slot(64 * 11 + 4) // white king e1
            ^ slot(64 * 7 + 7) // white rook h1
            ^ slot(27) // black pawn d4
            ^ slot(64 + 28); // white pawn e4
        assert_eq!(parts.pieces, expected);
        let white = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(white.zobrist_parts(&keys).turn, slot(780));
        assert_eq!(white.zobrist_parts(&keys).ep, 0);
    }

    /// Boards that are not regular (edited positions) take the general path.
    #[test]
    fn key_after_move_on_irregular_boards() {
        let mut checked = 0;
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
            "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1",
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            check_walk(&board, 1, &mut checked);
        }
        assert!(checked > 100);
    }

    /// Polyglot keys of boards whose castling rights were written by hand after moves, from
    /// python-chess 1.11.2's `chess.polyglot.zobrist_hash`: a right on the king's own square
    /// adds no castling key, unless a lower king on the rank makes it queenside.
    #[test]
    fn polyglot_key_of_hand_written_rights() {
        use crate::board::tests::edited_after_moves;
        let lone_rooks = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        let two_kings = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1";
        let king_up = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        for (fen, moves, rights, expected) in [
            (
                lone_rooks,
                &["a1a2", "e8d8"][..],
                &["e1", "d8"][..],
                0x0b9f_8b62_9423_e9d0,
            ),
            (lone_rooks, &["a1a2", "e8d8"], &[], 0x0b9f_8b62_9423_e9d0),
            (two_kings, &["a1b1", "e8d8"], &["e1"], 0xddc5_6789_0278_d8ff),
            (two_kings, &["a1b1", "e8d8"], &["b1"], 0xddc5_6789_0278_d8ff),
            (
                king_up,
                &["a1a2", "e8d8"],
                &["h1", "a8"],
                0xba67_4a06_4908_765b,
            ),
            (king_up, &[], &["h1", "a8", "e1"], 0x8098_6300_1fbd_c9b0),
        ] {
            let board = edited_after_moves(fen, moves, rights);
            assert_eq!(board.zobrist_hash(), expected, "{fen} {moves:?} {rights:?}");
        }
    }
}
