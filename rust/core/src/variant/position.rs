//! [`VariantBoard`]: a [`Board`] playing a [`Variant`]'s rules: legal moves, playing them,
//! the end of the game and its outcome, insufficient material, the Polyglot key and perft
//! (FEN, UCI and SAN are `notation.rs`'s).

use super::crazyhouse::{self, Pockets};
use super::{antichess, atomic, horde, Variant};
use crate::board::{Board, MoveList, Status};
use crate::outcome::{Outcome, Termination};
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};

/// SplitMix64's finaliser: spreads a value over 64 bits (the extra repetition keys).
const fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A random key per pocket slot (colour and role): a pocket's part of the repetition key is
/// the sum of its counts times these, as Zobrist keys sum up a board.
const POCKET_KEYS: [u64; 12] = {
    let mut keys = [0; 12];
    let mut index = 0;
    while index < 12 {
        keys[index] = mix(0x706f_636b_6574_0000 + index as u64);
        index += 1;
    }
    keys
};

/// The four centre squares King of the Hill's kings race to.
const CENTER: Bitboard = Bitboard(0x0000_0018_1800_0000);

/// The eighth rank, Racing Kings' goal.
const RANK_8: Bitboard = Bitboard::rank(7);

/// How a variant's own rule ended the game, seen from the side to move (python-chess's
/// `is_variant_win`, `is_variant_loss`, `is_variant_draw`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum VariantResult {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// A draw.
    Draw,
}

/// A position of a chess variant (no history: repetitions are the caller's, as for
/// [`Board`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantBoard {
    pub(super) board: Board,
    pub(super) variant: Variant,
    /// Three-check: the checks White and Black still have to give to win (python-chess's
    /// `remaining_checks`; below zero only when a FEN says so). `[3, 3]` in other variants.
    pub(super) remaining_checks: [i64; 2],
    /// Crazyhouse: the pieces in hand (empty in other variants).
    pub(super) pockets: Pockets,
}

impl VariantBoard {
    /// The variant's starting position.
    pub fn new(variant: Variant) -> VariantBoard {
        VariantBoard::from_fen(variant.starting_fen(), variant, false)
            .expect("starting positions are valid")
    }

    /// A position of `variant` from its parts: the board, Three-check's remaining checks
    /// (`[white, black]`) and Crazyhouse's pockets (ignored by the variants without them, which
    /// take `[3, 3]` and empty pockets).
    pub fn from_parts(
        board: Board,
        variant: Variant,
        remaining_checks: [i64; 2],
        pockets: Pockets,
    ) -> VariantBoard {
        VariantBoard {
            board,
            variant,
            remaining_checks: if variant == Variant::ThreeCheck {
                remaining_checks
            } else {
                [3, 3]
            },
            pockets: if variant == Variant::Crazyhouse {
                pockets
            } else {
                [[0; 6]; 2]
            },
        }
    }

    /// The board, taken out of the position.
    pub fn into_board(self) -> Board {
        self.board
    }

    /// The board (placement, side to move, castling, en passant, clocks).
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The variant played.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Crazyhouse's pieces in hand, `[white, black]`, counted by role index (pawn 0 to king
    /// 5; all zero in other variants).
    #[inline]
    pub fn pockets(&self) -> &Pockets {
        &self.pockets
    }

    /// Three-check's remaining checks, `[white, black]` (`[3, 3]` in other variants).
    #[inline]
    pub fn remaining_checks(&self) -> [i64; 2] {
        self.remaining_checks
    }

    /// Is the side to move in check? Never in the Antichess family, whose king is an ordinary
    /// piece.
    pub fn is_check(&self) -> bool {
        VariantBoard::is_check_of(self.variant, &self.board)
    }

    /// [`VariantBoard::is_check`] of `board` played by `variant`'s rules (a caller that keeps
    /// the board elsewhere asks without assembling a `VariantBoard` around a copy).
    #[inline]
    pub fn is_check_of(variant: Variant, board: &Board) -> bool {
        match variant {
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => false,
            // Kings that touch cannot take each other.
            Variant::Atomic => !atomic::kings_connected(board) && board.is_check(),
            _ => board.is_check(),
        }
    }

    /// Has a rule of the variant ended the game (python-chess's `is_variant_end`)? Checkmate
    /// and stalemate are not variant ends.
    pub fn is_variant_end(&self) -> bool {
        let board = &self.board;
        match self.variant {
            Variant::KingOfTheHill => (board.by_role(Role::King) & CENTER).nonempty(),
            Variant::Crazyhouse => false,
            Variant::ThreeCheck => self.remaining_checks.iter().any(|&n| n <= 0),
            Variant::RacingKings => self.racing_kings_end(),
            Variant::Antichess | Variant::Giveaway | Variant::Suicide | Variant::Horde => {
                board.by_color(Color::White).is_empty() || board.by_color(Color::Black).is_empty()
            }
            Variant::Atomic => Color::ALL
                .into_iter()
                .any(|c| board.pieces(c, Role::King).is_empty()),
        }
    }

    /// Racing Kings: a king reached the eighth rank, and Black cannot (or need not) answer by
    /// reaching it too.
    fn racing_kings_end(&self) -> bool {
        let board = &self.board;
        let kings = board.by_role(Role::King);
        if (kings & RANK_8).is_empty() {
            return false;
        }
        let black_kings = kings & board.by_color(Color::Black);
        if board.turn() == Color::White
            || (black_kings & RANK_8).nonempty()
            || black_kings.is_empty()
        {
            return true;
        }
        // White has arrived; the game goes on only if Black's king can step safely onto the
        // eighth rank.
        let Some(black_king) = black_kings.last() else {
            return true;
        };
        let targets = crate::attacks::king(black_king) & RANK_8 & !board.by_color(Color::Black);
        targets
            .into_iter()
            .all(|sq| board.attackers(sq, Color::White).nonempty())
    }

    /// How the variant's own rule ended the game, if it did (see [`VariantResult`]).
    pub fn variant_result(&self) -> Option<VariantResult> {
        self.variant_result_with(|| self.has_legal_moves())
    }

    /// [`VariantBoard::variant_result`] for a caller that knows whether there is a legal move
    /// (asked only in the Antichess family, whose stalemate is a variant result).
    pub fn variant_result_with(&self, has_legal_moves: impl Fn() -> bool) -> Option<VariantResult> {
        let board = &self.board;
        let us = board.turn();
        match self.variant {
            Variant::Crazyhouse => None,
            Variant::KingOfTheHill => {
                let in_center = board.by_role(Role::King) & CENTER;
                if (in_center & board.by_color(!us)).nonempty() {
                    Some(VariantResult::Loss)
                } else if (in_center & board.by_color(us)).nonempty() {
                    Some(VariantResult::Win)
                } else {
                    None
                }
            }
            Variant::ThreeCheck => {
                let [ours, theirs] = [
                    self.remaining_checks[us.index()],
                    self.remaining_checks[(!us).index()],
                ];
                match (ours <= 0, theirs <= 0) {
                    (true, true) => Some(VariantResult::Draw),
                    (false, true) => Some(VariantResult::Loss),
                    (true, false) => Some(VariantResult::Win),
                    (false, false) => None,
                }
            }
            Variant::RacingKings => {
                let in_goal = board.by_role(Role::King) & RANK_8;
                if Color::ALL
                    .into_iter()
                    .all(|c| (in_goal & board.by_color(c)).nonempty())
                {
                    return Some(VariantResult::Draw);
                }
                if !self.racing_kings_end() {
                    return None;
                }
                if (in_goal & board.by_color(us)).is_empty() {
                    Some(VariantResult::Loss)
                } else {
                    Some(VariantResult::Win)
                }
            }
            Variant::Atomic => {
                let kings = board.by_role(Role::King);
                if kings.is_empty() {
                    None
                } else if (kings & board.by_color(!us)).is_empty() {
                    Some(VariantResult::Win)
                } else if (kings & board.by_color(us)).is_empty() {
                    Some(VariantResult::Loss)
                } else {
                    None
                }
            }
            Variant::Horde => {
                if board.occupied().is_empty() {
                    Some(VariantResult::Draw)
                } else if board.by_color(us).is_empty() {
                    Some(VariantResult::Loss)
                } else if board.by_color(!us).is_empty() {
                    Some(VariantResult::Win)
                } else {
                    None
                }
            }
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => {
                if board.by_color(us).is_empty() {
                    return Some(VariantResult::Win);
                }
                if board.by_color(!us).is_empty() || has_legal_moves() {
                    return None;
                }
                // Stalemated: Suicide counts pieces, the others give the win to the
                // stalemated side.
                if self.variant != Variant::Suicide {
                    return Some(VariantResult::Win);
                }
                let balance =
                    i64::from(board.by_color(us).count()) - i64::from(board.by_color(!us).count());
                Some(match balance.signum() {
                    -1 => VariantResult::Win,
                    1 => VariantResult::Loss,
                    _ => VariantResult::Draw,
                })
            }
        }
    }

    /// Every legal move, none once the variant's rule has ended the game.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_variant_end() {
            return MoveList::new();
        }
        match self.variant {
            Variant::KingOfTheHill | Variant::ThreeCheck | Variant::Horde => {
                self.board.legal_moves()
            }
            Variant::RacingKings => {
                let mut list = MoveList::new();
                for &m in self.board.legal_moves().iter() {
                    if !self.board.after(m).is_check() {
                        list.push(m);
                    }
                }
                list
            }
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => {
                antichess::legal_moves(&self.board)
            }
            Variant::Atomic => atomic::legal_moves(&self.board),
            Variant::Crazyhouse => {
                let mut list = self.board.legal_moves();
                crazyhouse::add_drops(&self.board, &self.pockets, &mut list);
                list
            }
        }
    }

    /// Is there a legal move?
    pub fn has_legal_moves(&self) -> bool {
        if self.is_variant_end() {
            return false;
        }
        match self.variant {
            Variant::KingOfTheHill | Variant::ThreeCheck | Variant::Horde => {
                self.board.has_legal_moves()
            }
            _ => !self.legal_moves().is_empty(),
        }
    }

    /// Plays `m`, which must be legal here (see [`VariantBoard::legal_moves`]).
    pub fn play_unchecked(&mut self, m: Move) {
        VariantBoard::play_parts(
            self.variant,
            &mut self.board,
            &mut self.remaining_checks,
            &mut self.pockets,
            m,
        );
    }

    /// Plays the legal move `m` of `variant` on `board` alone: all of a move in the variants
    /// whose positions are only a board (every one but Three-check and Crazyhouse, whose
    /// counters and pockets [`VariantBoard::play_parts`] keeps too).
    #[inline]
    pub fn play_on_board(variant: Variant, board: &mut Board, m: Move) {
        if variant == Variant::Atomic {
            atomic::play(board, m);
        } else if variant.is_antichess() {
            // Kings may be taken, promoted to, or left attacked: the general rules.
            board.play_pseudo_legal(m);
        } else {
            board.play_unchecked(m);
        }
    }

    /// [`VariantBoard::play_unchecked`] on a position held in parts (the board, Three-check's
    /// remaining checks, Crazyhouse's pockets): a caller that keeps the board elsewhere plays
    /// the move where the board lies, without assembling a `VariantBoard` around a copy.
    #[inline]
    pub fn play_parts(
        variant: Variant,
        board: &mut Board,
        remaining_checks: &mut [i64; 2],
        pockets: &mut Pockets,
        m: Move,
    ) {
        let mover = board.turn();
        if variant == Variant::Crazyhouse {
            let pocket = &mut pockets[mover.index()];
            if let MoveKind::Drop(role) = m.kind {
                pocket[role.index()] = pocket[role.index()].saturating_sub(1);
            } else if let Some(role) = crazyhouse::captured_for_pocket(board, m) {
                pocket[role.index()] += 1;
            }
        }
        VariantBoard::play_on_board(variant, board, m);
        if variant == Variant::ThreeCheck && board.is_check() {
            remaining_checks[mover.index()] -= 1;
        }
    }

    /// The position after the legal move `m`.
    pub fn after(&self, m: Move) -> VariantBoard {
        let mut next = self.clone();
        next.play_unchecked(m);
        next
    }

    /// Is the side to move checkmated (in check, no legal move, the game not over by a
    /// variant rule)?
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Is the side to move stalemated (not in check, no legal move, the game not over by a
    /// variant rule)?
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.is_variant_end() && !self.has_legal_moves()
    }

    /// The outcome the position alone decides, in python-chess's order: the variant's own
    /// result, checkmate, insufficient material, stalemate, the seventy-five-move rule.
    /// Repetitions need the game's history and are not looked at.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_with(|| self.has_legal_moves())
    }

    /// [`VariantBoard::outcome`] for a caller that knows whether there is a legal move
    /// (`has_legal_moves`, asked at most twice: a caller keeping the legal moves answers
    /// without generating them again).
    pub fn outcome_with(&self, has_legal_moves: impl Fn() -> bool) -> Option<Outcome> {
        let us = self.board.turn();
        if let Some(result) = self.variant_result_with(&has_legal_moves) {
            let (termination, winner) = match result {
                VariantResult::Loss => (Termination::VariantLoss, Some(!us)),
                VariantResult::Win => (Termination::VariantWin, Some(us)),
                VariantResult::Draw => (Termination::VariantDraw, None),
            };
            return Some(Outcome {
                termination,
                winner,
            });
        }
        if self.is_check() && !has_legal_moves() {
            return Some(Outcome {
                termination: Termination::Checkmate,
                winner: Some(!us),
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome {
                termination: Termination::InsufficientMaterial,
                winner: None,
            });
        }
        if !has_legal_moves() {
            return Some(Outcome {
                termination: Termination::Stalemate,
                winner: None,
            });
        }
        // Crazyhouse has no seventy-five-move rule.
        if self.board.halfmove_clock() >= 150 && self.variant != Variant::Crazyhouse {
            return Some(Outcome {
                termination: Termination::SeventyfiveMoves,
                winner: None,
            });
        }
        None
    }

    /// Can `color` not possibly win, whatever happens (python-chess's variant
    /// `has_insufficient_material`)?
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let board = &self.board;
        match self.variant {
            Variant::KingOfTheHill | Variant::RacingKings => false,
            // Any piece but the king can give check.
            Variant::ThreeCheck => (board.by_color(color) & !board.by_role(Role::King)).is_empty(),
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => {
                antichess::has_insufficient_material(board, color)
            }
            Variant::Horde => horde::has_insufficient_material(board, color),
            Variant::Atomic => atomic::has_insufficient_material(board, color),
            Variant::Crazyhouse => crazyhouse::has_insufficient_material(board, &self.pockets),
        }
    }

    /// Is the material insufficient for both sides?
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|color| self.has_insufficient_material(color))
    }

    /// Leaf nodes at `depth` plies below this position, the last ply counted.
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.legal_moves().len() as u64,
            _ => self
                .legal_moves()
                .iter()
                .map(|&m| self.after(m).perft(depth - 1))
                .sum(),
        }
    }

    /// Perft by first move: each legal move with the leaves below it (`depth - 1` plies
    /// after it); empty at depth 0, as [`crate::perft::perft_divide`].
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves()
            .iter()
            .map(|&m| (m, self.after(m).perft(depth - 1)))
            .collect()
    }

    /// What this position's repetition key adds to its board's (see
    /// [`crate::Game::set_extra_key`]): python-chess's variant `_transposition_key` adds
    /// Three-check's remaining checks, and Crazyhouse's pockets and promoted pieces; 0 in the
    /// other variants.
    pub fn repetition_extra(&self) -> u64 {
        VariantBoard::repetition_extra_of(
            self.variant,
            &self.board,
            self.remaining_checks,
            &self.pockets,
        )
    }

    /// [`VariantBoard::repetition_extra`] of a position held in parts.
    pub fn repetition_extra_of(
        variant: Variant,
        board: &Board,
        remaining_checks: [i64; 2],
        pockets: &Pockets,
    ) -> u64 {
        match variant {
            Variant::ThreeCheck => {
                let [white, black] = remaining_checks;
                mix(mix(white as u64) ^ (black as u64))
            }
            Variant::Crazyhouse => pockets
                .iter()
                .flatten()
                .zip(POCKET_KEYS)
                .fold(mix(board.promoted().0), |key, (&count, slot)| {
                    key.wrapping_add(u64::from(count).wrapping_mul(slot))
                }),
            _ => 0,
        }
    }

    /// The Polyglot key, python-chess's `chess.polyglot.zobrist_hash` of a variant board: the
    /// placement, side to move, castling rights and a capturable en-passant file as in chess
    /// (python-chess adds nothing for the variants; its table has no entries for them).
    pub fn zobrist_hash(&self) -> u64 {
        self.board.zobrist_hash()
    }

    /// python-chess's variant `status()`: the standard flags by the standard algorithm, then
    /// each variant's changes (kings optional in the Antichess family and for the side to
    /// move in Atomic, a kingless horde of up to 36 pawns, Racing Kings' own flags, the pieces
    /// in hand counted in Crazyhouse).
    pub fn status(&self) -> Status {
        let board = &self.board;
        let mut status = board.status();
        let checks = Status::TOO_MANY_CHECKERS | Status::IMPOSSIBLE_CHECK;
        match self.variant {
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => {
                // No checks at all: the king is an ordinary piece.
                status = status.without(
                    Status::NO_WHITE_KING
                        | Status::NO_BLACK_KING
                        | Status::TOO_MANY_KINGS
                        | Status::OPPOSITE_CHECK
                        | checks,
                );
            }
            Variant::Atomic => {
                status = status.without(Status::OPPOSITE_CHECK);
                status = status.without(if board.turn() == Color::White {
                    Status::NO_WHITE_KING
                } else {
                    Status::NO_BLACK_KING
                });
                let checkers = if atomic::kings_connected(board) {
                    Bitboard::EMPTY
                } else {
                    board.checkers()
                };
                if checkers.is_empty() {
                    status = status.without(checks);
                }
                if checkers.count() <= 14 {
                    status = status.without(Status::TOO_MANY_CHECKERS);
                }
                if board.valid_ep_square().is_none() {
                    status = status.without(Status::IMPOSSIBLE_CHECK);
                }
            }
            Variant::RacingKings => {
                if board.is_check() {
                    status |= Status::RACE_CHECK | checks;
                }
                let in_goal = board.by_role(Role::King) & RANK_8;
                if board.turn() == Color::Black
                    && Color::ALL
                        .into_iter()
                        .all(|c| (in_goal & board.by_color(c)).nonempty())
                {
                    status |= Status::RACE_OVER;
                }
                let too_many = Color::ALL.into_iter().any(|c| {
                    let ours = board.by_color(c);
                    [
                        (Role::Knight, 2),
                        (Role::Bishop, 2),
                        (Role::Rook, 2),
                        (Role::Queen, 1),
                    ]
                    .into_iter()
                    .any(|(role, most)| (ours & board.by_role(role)).count() > most)
                });
                if board.by_role(Role::Pawn).nonempty() || too_many {
                    status |= Status::RACE_MATERIAL;
                }
            }
            Variant::Horde => {
                status = status.without(Status::NO_WHITE_KING);
                let white = board.by_color(Color::White);
                if white.count() <= 36 {
                    status = status
                        .without(Status::TOO_MANY_WHITE_PIECES | Status::TOO_MANY_WHITE_PAWNS);
                }
                let pawns = board.by_role(Role::Pawn);
                if (pawns & RANK_8).is_empty()
                    && (board.by_color(Color::Black) & pawns & Bitboard::rank(0)).is_empty()
                {
                    status = status.without(Status::PAWNS_ON_BACKRANK);
                }
                if (white & board.by_role(Role::King)).nonempty() {
                    status |= Status::TOO_MANY_KINGS;
                }
            }
            Variant::Crazyhouse => {
                let [white, black] = self.pockets;
                let in_hand: u32 = white.iter().chain(black.iter()).sum();
                let pawns_in_hand = white[Role::Pawn.index()] + black[Role::Pawn.index()];
                if board.by_role(Role::Pawn).count() + pawns_in_hand <= 16 {
                    status =
                        status.without(Status::TOO_MANY_BLACK_PAWNS | Status::TOO_MANY_WHITE_PAWNS);
                }
                if board.occupied().count() + in_hand <= 32 {
                    status = status
                        .without(Status::TOO_MANY_BLACK_PIECES | Status::TOO_MANY_WHITE_PIECES);
                }
            }
            Variant::KingOfTheHill | Variant::ThreeCheck => {}
        }
        status
    }

    /// The square the king of `color` stands on, if it has one (the highest, python-chess's
    /// `king`).
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.king(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str, variant: Variant) -> VariantBoard {
        VariantBoard::from_fen(fen, variant, false).unwrap()
    }

    /// `chess.polyglot.zobrist_hash` of python-chess 1.11.2's variant boards.
    #[test]
    fn polyglot_keys_like_python_chess() {
        for (fen, variant, key) in [
            (
                "5K2/5k2/7p/2p4P/1pP5/1P6/8/8 b - c3 0 45",
                Variant::Atomic,
                0xfdaf_347a_bf45_7248,
            ),
            (
                "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2",
                Variant::ThreeCheck,
                0x4e69_9d19_c7fa_56e9,
            ),
            (
                "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
                Variant::Horde,
                0xa8a8_7818_3978_f15b,
            ),
            (
                "8/8/8/8/1pP5/8/8/2kR4 b - c3 0 1",
                Variant::Antichess,
                0xc6af_192c_0ed5_ca1b,
            ),
        ] {
            assert_eq!(board(fen, variant).zobrist_hash(), key, "{fen}");
        }
    }

    #[test]
    fn three_check_counts_checks_down_to_a_win() {
        let mut b = board(
            "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2",
            Variant::ThreeCheck,
        );
        let check = b
            .legal_moves()
            .iter()
            .copied()
            .find(|m| b.board().uci(*m).to_string() == "d1h5")
            .unwrap();
        b.play_unchecked(check);
        assert_eq!(b.remaining_checks(), [0, 3]);
        assert!(b.is_variant_end());
        assert_eq!(b.variant_result(), Some(VariantResult::Loss));
        assert!(b.legal_moves().is_empty());
        let outcome = b.outcome().unwrap();
        assert_eq!(outcome.termination, Termination::VariantLoss);
        assert_eq!(outcome.winner, Some(Color::White));
    }

    #[test]
    fn king_of_the_hill_ends_in_the_centre() {
        let b = board("8/8/8/8/3K4/8/8/7k b - - 0 1", Variant::KingOfTheHill);
        assert!(b.is_variant_end());
        assert_eq!(b.variant_result(), Some(VariantResult::Loss));
        assert_eq!(b.outcome().unwrap().winner, Some(Color::White));
        assert!(!b.is_insufficient_material());
        let b = board("8/8/8/8/8/2K5/8/7k b - - 0 1", Variant::KingOfTheHill);
        assert!(b.outcome().is_none());
    }

    #[test]
    fn racing_kings_gives_black_one_move_to_draw() {
        // White has arrived; Black can still reach the eighth rank (python-chess lists the
        // six king moves).
        let b = board("4K3/6k1/8/8/8/8/8/8 b - - 0 1", Variant::RacingKings);
        assert!(!b.is_variant_end());
        assert_eq!(b.legal_moves().len(), 6);
        // Black cannot: the game is over at once (Fairy-Stockfish lets Black move first).
        let b = board("4K3/8/6k1/8/8/8/8/8 b - - 0 1", Variant::RacingKings);
        assert!(b.is_variant_end());
        let b = board("4K1k1/8/8/8/8/8/8/8 w - - 0 1", Variant::RacingKings);
        assert_eq!(b.variant_result(), Some(VariantResult::Draw));
        // Black cannot arrive: White wins.
        let b = board("4K3/8/8/8/8/8/6k1/8 b - - 0 1", Variant::RacingKings);
        assert_eq!(b.variant_result(), Some(VariantResult::Loss));
        // No move may give check.
        let b = VariantBoard::new(Variant::RacingKings);
        for &m in b.legal_moves().iter() {
            assert!(!b.after(m).board().is_check());
        }
    }

    #[test]
    fn horde_ends_when_a_side_is_gone() {
        let start = VariantBoard::new(Variant::Horde);
        assert_eq!(start.legal_moves().len(), 8);
        assert!(start.outcome().is_none());
        // The horde is gone: White, to move, has lost.
        let b = board("4k3/8/8/8/8/8/8/8 w - - 0 1", Variant::Horde);
        assert_eq!(b.variant_result(), Some(VariantResult::Loss));
        assert_eq!(b.outcome().unwrap().winner, Some(Color::Black));
        // Black cannot move and is not in check: stalemate, as in chess.
        let b = board("k7/P7/1PP5/8/8/8/8/8 b - - 0 1", Variant::Horde);
        assert_eq!(b.outcome().unwrap().termination, Termination::Stalemate);
    }

    #[test]
    fn antichess_stalemate_and_bare_sides() {
        // Black has no piece left: Black (to move) wins.
        let b = board("8/8/8/8/8/8/8/4K3 b - - 0 1", Variant::Antichess);
        assert_eq!(b.variant_result(), Some(VariantResult::Win));
        assert_eq!(b.outcome().unwrap().termination, Termination::VariantWin);
        // Answers of python-chess 1.11.2. A blocked pawn each, Black to move and
        // stalemated: Antichess gives Black the win.
        let fen = "8/8/8/8/p7/P7/8/8 b - - 0 1";
        assert_eq!(
            board(fen, Variant::Antichess).variant_result(),
            Some(VariantResult::Win)
        );
        let fen = "8/8/8/8/p7/P7/8/7b b - - 0 1";
        assert_eq!(
            board(fen, Variant::Suicide).variant_result(),
            None,
            "the bishop can move"
        );
        let fen = "8/8/8/8/p7/P7/8/8 b - - 0 1";
        assert_eq!(
            board(fen, Variant::Suicide).variant_result(),
            Some(VariantResult::Draw)
        );
        let fen = "8/8/8/p7/p7/P7/8/8 b - - 0 1";
        assert_eq!(
            board(fen, Variant::Suicide).variant_result(),
            Some(VariantResult::Loss)
        );
        assert_eq!(
            board(fen, Variant::Giveaway).variant_result(),
            Some(VariantResult::Win)
        );
        let fen = "8/8/8/8/p7/P7/8/6BB b - - 0 1";
        assert_eq!(
            board(fen, Variant::Suicide).variant_result(),
            Some(VariantResult::Win)
        );
    }
}
