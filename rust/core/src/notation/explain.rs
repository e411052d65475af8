//! Reading a move the way a person types it, and saying in one line why it cannot be played.
//!
//! [`Board::read_move`] is the forgiving reader a game front end wants: SAN or UCI, with or
//! without `x`, `+`, `#`, `=`, `!`/`?` annotations, `0-0` or `o-o`, and lowercase piece
//! letters where that is unambiguous (`nf3`; `bc3` is the b-pawn when it can take on c3,
//! and otherwise a bishop). It never guesses a promotion piece and never picks among
//! several moves: those come back as [`Reading::Promotion`] and [`Reading::Ambiguous`] for
//! the caller to ask about. When no legal move matches, [`Board::explain_illegal`] says why, from the rules:
//!
//! ```
//! use pychess_core::Board;
//! use pychess_core::notation::explain::Reading;
//! let board = Board::default();
//! match board.read_move("Nf6") {
//!     Reading::Illegal(why) => assert_eq!(why.to_string(), "Nf6 is illegal: no knight can reach f6"),
//!     other => panic!("{other:?}"),
//! }
//! assert!(matches!(board.read_move("nf3"), Reading::Legal(_)));
//! ```
//!
//! The strict readers ([`Board::parse_san`], [`Board::resolve_uci`]) and their error
//! messages, which mirror python-chess, are untouched by this module.

use std::fmt;

use crate::attacks;
use crate::board::Board;
use crate::notation::{San, UciMove};
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};

/// What a typed move stands for in a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Reading {
    /// Exactly one legal move.
    Legal(Move),
    /// A legal pawn move to the last rank with no piece named: one move per promotion piece
    /// (queen first), for the caller to choose from.
    Promotion(Vec<Move>),
    /// Several legal moves fit the text.
    Ambiguous(Vec<Move>),
    /// The text reads as a move, but no legal move fits it; the explanation says why.
    Illegal(Explanation),
    /// The text is not move notation at all.
    Unreadable(String),
}

impl Reading {
    /// One line for the player: the SAN of a legal move, the question to ask for a
    /// promotion or an ambiguity (`ambiguous: Nbd2 or Nfd2?`), or why nothing fits.
    pub fn message(&self, board: &Board) -> String {
        match self {
            Reading::Legal(m) => board.san(*m),
            Reading::Promotion(moves) => {
                let letters: Vec<String> = moves
                    .iter()
                    .filter_map(|m| m.promotion())
                    .map(|role| role.upper_char().to_string())
                    .collect();
                format!("promote to which piece: {}?", or_list(&letters))
            }
            Reading::Ambiguous(moves) => {
                let sans: Vec<String> = moves.iter().map(|&m| board.san(m)).collect();
                format!("ambiguous: {}?", or_list(&sans))
            }
            Reading::Illegal(explanation) => explanation.to_string(),
            Reading::Unreadable(message) => message.clone(),
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Why a move that was read cannot be played: the text as typed and the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Explanation {
    /// The text the player typed.
    pub text: String,
    /// What rule it breaks.
    pub reason: Reason,
}

/// The rule an illegal move breaks.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Reason {
    /// The null move (`--`), which has no place in a game between players.
    NullMove,
    /// The player has no piece of this kind at all.
    NoSuchPiece(Role),
    /// The origin square (as in `g1f3`) is empty.
    EmptySquare(Square),
    /// The origin square holds an opponent's piece.
    NotYourPiece(Square, Role),
    /// The named piece does not stand where the text says (`Nbd2` with no knight on b).
    NoPieceThere(Role),
    /// The destination holds one of the player's own pieces.
    OwnPiece(Square, Role),
    /// No piece of this kind can move there, even on an empty board (or, for a piece on a
    /// known square, this one cannot).
    CannotReach {
        /// The kind of piece.
        role: Role,
        /// The one piece meant, when there is only one.
        from: Option<Square>,
        /// The destination.
        to: Square,
    },
    /// The piece could go there, but something stands in its way.
    Blocked {
        /// The piece's square.
        from: Square,
        /// The kind of piece.
        role: Role,
        /// The first occupied square on its way.
        by: Square,
    },
    /// A pawn capture onto an empty square.
    NothingToCapture(Square),
    /// A pawn move straight ahead onto an occupied square.
    PawnCapturesDiagonally(Square),
    /// A promotion piece named for a move that does not reach the last rank.
    NotPromotion,
    /// A promotion piece named for a piece that is not a pawn.
    OnlyPawnsPromote,
    /// A promotion to a king (or a pawn).
    BadPromotion(Role),
    /// The king would stand in check on this square.
    KingIntoCheck(Square),
    /// The player is in check and the move does not deal with it.
    InCheck,
    /// The piece on this square is pinned to its king.
    Pinned(Square, Role),
    /// The move would expose the player's king some other way (an en-passant capture that
    /// empties a rank).
    ExposesKing,
    /// Castling on a side the player has lost the right to.
    NoCastlingRights {
        /// True for `O-O`.
        king_side: bool,
    },
    /// Castling with a right whose rook is not on its square (written by hand).
    NoCastlingRook(Square),
    /// Castling while in check.
    CastleOutOfCheck,
    /// Castling with a piece between king and rook (or on their targets).
    CastlingBlocked(Square),
    /// Castling across or onto an attacked square.
    CastleThroughCheck(Square),
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn side_name(king_side: bool) -> &'static str {
    if king_side {
        "king side"
    } else {
        "queen side"
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::NullMove => write!(f, "a null move cannot be played in a game"),
            Reason::NoSuchPiece(role) => write!(f, "you have no {}", role_name(role)),
            Reason::EmptySquare(sq) => write!(f, "there is no piece on {sq}"),
            Reason::NotYourPiece(sq, role) => {
                write!(f, "the {} on {sq} is not yours", role_name(role))
            }
            Reason::NoPieceThere(role) => {
                write!(
                    f,
                    "you have no {} on that square, file or rank",
                    role_name(role)
                )
            }
            Reason::OwnPiece(sq, role) => {
                write!(f, "your own {} stands on {sq}", role_name(role))
            }
            Reason::CannotReach {
                role,
                from: Some(from),
                to,
            } => write!(f, "the {} on {from} cannot reach {to}", role_name(role)),
            Reason::CannotReach {
                role,
                from: None,
                to,
            } => write!(f, "no {} can reach {to}", role_name(role)),
            Reason::Blocked { from, role, by } => {
                write!(
                    f,
                    "the {} on {from} is blocked by the piece on {by}",
                    role_name(role)
                )
            }
            Reason::NothingToCapture(sq) => write!(f, "there is nothing to capture on {sq}"),
            Reason::PawnCapturesDiagonally(sq) => {
                write!(
                    f,
                    "a pawn cannot capture straight ahead, and {sq} is occupied"
                )
            }
            Reason::NotPromotion => write!(f, "a pawn promotes only on the last rank"),
            Reason::OnlyPawnsPromote => write!(f, "only a pawn can promote"),
            Reason::BadPromotion(role) => {
                write!(f, "a pawn cannot promote to a {}", role_name(role))
            }
            Reason::KingIntoCheck(sq) => write!(f, "your king would be in check on {sq}"),
            Reason::InCheck => write!(f, "your king is in check and this move does not stop it"),
            Reason::Pinned(sq, role) => {
                write!(f, "your {} on {sq} is pinned to your king", role_name(role))
            }
            Reason::ExposesKing => write!(f, "your king would be in check"),
            Reason::NoCastlingRights { king_side } => write!(
                f,
                "you can no longer castle on the {} (king or rook has moved)",
                side_name(king_side)
            ),
            Reason::NoCastlingRook(sq) => {
                write!(f, "there is no rook of yours on {sq} to castle with")
            }
            Reason::CastleOutOfCheck => write!(f, "you cannot castle out of check"),
            Reason::CastlingBlocked(sq) => {
                write!(f, "the piece on {sq} stands between king and rook")
            }
            Reason::CastleThroughCheck(sq) => {
                write!(f, "the king would cross or land on {sq}, which is attacked")
            }
        }
    }
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is illegal: {}", self.text, self.reason)
    }
}

/// Castling as typed: `O-O`, `0-0`, `o-o` (and the queen-side forms), with any suffix.
fn castling_side(text: &str) -> Option<bool> {
    let core = text.trim_end_matches(['+', '#']);
    let normalized: String = core
        .chars()
        .map(|c| match c {
            '0' | 'o' => 'O',
            other => other,
        })
        .collect();
    match normalized.as_str() {
        "O-O" => Some(true),
        "O-O-O" => Some(false),
        _ => None,
    }
}

/// The spellings worth trying for `text`, the literal one first: a lowercase piece letter
/// may stand for the piece (`nf3`), and `b` for a pawn on the b-file or a bishop; a leading
/// `P` names a pawn, which SAN leaves out.
fn spellings(text: &str) -> Vec<String> {
    let mut out = vec![text.to_string()];
    let mut chars = text.chars();
    let (Some(first), rest) = (chars.next(), chars.as_str()) else {
        return out;
    };
    if rest.is_empty() {
        return out;
    }
    if matches!(first, 'n' | 'b' | 'r' | 'q' | 'k') {
        out.push(format!("{}{rest}", first.to_ascii_uppercase()));
    }
    if matches!(first, 'P' | 'p') {
        out.push(rest.to_string());
    }
    out
}

impl Board {
    /// Reads a move as a person types it (see the module documentation).
    pub fn read_move(&self, text: &str) -> Reading {
        let text = text.trim();
        let core = text
            .trim_end_matches(['!', '?'])
            .trim_end_matches("e.p.")
            .trim_end();
        if let Some(king_side) = castling_side(core) {
            let san = San::Castle { king_side };
            return match self.resolve_san(text, san) {
                Ok(Some(m)) => Reading::Legal(m),
                _ => Reading::Illegal(self.explain_san(text, san)),
            };
        }
        let mut parsed: Vec<San> = Vec::new();
        let mut found: Vec<Move> = Vec::new();
        for spelling in spellings(core) {
            let Ok(san) = San::parse(&spelling) else {
                continue;
            };
            parsed.push(san);
            for m in self.candidates(san) {
                if !found.contains(&m) {
                    found.push(m);
                }
            }
            // The literal reading wins when it fits a move: `bxc5` is the b-pawn even when a
            // bishop could take there too. A square-to-square move (`b8c6`) means just that,
            // never a bishop on rank 8.
            let from_square = matches!(
                san,
                San::Normal {
                    role: None,
                    file: Some(_),
                    rank: Some(_),
                    ..
                }
            );
            if from_square || !found.is_empty() {
                break;
            }
        }
        let Some(&first) = parsed.first() else {
            // Long garbage is cut short: the player needs to recognise it, not reread it.
            let mut shown: String = text.chars().take(24).collect();
            if shown.len() < text.len() {
                shown.push_str("...");
            }
            return Reading::Unreadable(format!(
                "{shown:?} is not a move (moves look like Nf3, exd5, O-O, e8=Q or g1f3)"
            ));
        };
        if parsed.contains(&San::Null) {
            return Reading::Illegal(Explanation {
                text: text.to_string(),
                reason: Reason::NullMove,
            });
        }
        match found.as_slice() {
            [] => Reading::Illegal(self.explain_san(text, self.preferred(&parsed, first))),
            [m] => Reading::Legal(*m),
            [head, rest @ ..]
                if rest
                    .iter()
                    .all(|m| m.from == head.from && m.to == head.to && m.promotion().is_some()) =>
            {
                Reading::Promotion(found)
            }
            _ => Reading::Ambiguous(found),
        }
    }

    /// Why `text`, read as SAN or UCI, is not a legal move here; `None` when it is legal (or
    /// not notation at all).
    pub fn explain_illegal(&self, text: &str) -> Option<Explanation> {
        match self.read_move(text) {
            Reading::Illegal(explanation) => Some(explanation),
            _ => None,
        }
    }

    /// Of several readings of a text, the one to explain: `bf6` (no pawn could ever capture
    /// there from the b-file) is about a bishop, `bc6` about a pawn.
    fn preferred(&self, parsed: &[San], first: San) -> San {
        if let (
            San::Normal {
                role: None,
                file: Some(file),
                rank: None,
                to,
                ..
            },
            Some(&second),
        ) = (first, parsed.get(1))
        {
            if file.abs_diff(to.file()) > 1 {
                return second;
            }
        }
        first
    }

    /// Every legal move that fits `san`, taking any promotion piece when none is named.
    fn candidates(&self, san: San) -> Vec<Move> {
        let San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } = san
        else {
            return Vec::new();
        };
        let promotions: &[Option<Role>] = match promotion {
            Some(_) => &[promotion],
            None => &[
                None,
                Some(Role::Queen),
                Some(Role::Rook),
                Some(Role::Bishop),
                Some(Role::Knight),
            ],
        };
        let us = self.turn();
        if let (Some(file), Some(rank)) = (file, rank) {
            // A fully given origin, i.e. UCI (`g1f3`) or long SAN (`Ng1-f3`).
            let from = Square::from_coords(file, rank);
            if role.is_some_and(|role| self.role_at(from) != Some(role)) {
                return Vec::new();
            }
            return promotions
                .iter()
                .filter_map(|&promotion| {
                    self.find_legal(UciMove {
                        from,
                        to,
                        promotion,
                    })
                })
                .collect();
        }
        let mut from_mask = self.pieces(us, role.unwrap_or(Role::Pawn));
        if let Some(file) = file {
            from_mask &= Bitboard::file(file);
        } else if role.is_none() {
            from_mask &= Bitboard::file(to.file());
        }
        if let Some(rank) = rank {
            from_mask &= Bitboard::rank(rank);
        }
        let to_mask = Bitboard::from_square(to) & !self.by_color(us);
        self.legal_moves_masked(from_mask, to_mask)
            .iter()
            .copied()
            .filter(|m| !m.is_castle() && promotions.contains(&m.promotion()))
            .collect()
    }

    /// The reason the move `san` (which no legal move fits) cannot be played.
    fn explain_san(&self, text: &str, san: San) -> Explanation {
        let reason = match san {
            San::Null => Reason::NullMove,
            // resolve_san found no castling move, so some condition fails.
            San::Castle { king_side } => self
                .castling_reason(king_side)
                .unwrap_or(Reason::ExposesKing),
            San::Normal {
                role: None | Some(Role::King),
                file: Some(file),
                rank: Some(rank),
                to,
                promotion: None,
            } if self.means_castling(Square::from_coords(file, rank), to) => self
                .castling_reason(to.file() > file)
                .unwrap_or_else(|| self.normal_reason(None, Some(file), Some(rank), to, None)),
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => self.normal_reason(role, file, rank, to, promotion),
        };
        Explanation {
            text: text.to_string(),
            reason,
        }
    }

    /// Is `from`-`to` castling spelled as UCI: the king two files sideways on its back
    /// rank (`e1g1`), or onto its own rook (`e1h1`, as Chess960 writes it)?
    fn means_castling(&self, from: Square, to: Square) -> bool {
        let us = self.turn();
        let back_rank = Bitboard::rank(us.back_rank());
        if from != self.king_of(us) || !back_rank.contains(from) || !back_rank.contains(to) {
            return false;
        }
        let two_files = !self.is_chess960() && from.file() == 4 && matches!(to.file(), 2 | 6);
        two_files || self.pieces(us, Role::Rook).contains(to)
    }

    /// The condition of castling on one side that fails, if any.
    fn castling_reason(&self, king_side: bool) -> Option<Reason> {
        let us = self.turn();
        let king = self.king_of(us);
        let rook = (self.castling_rights() & Bitboard::rank(us.back_rank()))
            .into_iter()
            .find(|rook| (rook.file() > king.file()) == king_side);
        let Some(rook) = rook else {
            return Some(Reason::NoCastlingRights { king_side });
        };
        if !self.pieces(us, Role::Rook).contains(rook) {
            return Some(Reason::NoCastlingRook(rook));
        }
        if self.is_check() {
            return Some(Reason::CastleOutOfCheck);
        }
        let castle = Move::new(king, rook, MoveKind::Castle);
        let king_to = castle.castle_king_target();
        let rook_to = castle.castle_rook_target();
        let king_path = attacks::between(king, king_to).with(king_to);
        let rook_path = attacks::between(rook, rook_to).with(rook_to);
        let occupied = self.occupied().without(king).without(rook);
        let in_the_way = occupied & (king_path | rook_path);
        if let Some(sq) = Self::nearest(in_the_way, king) {
            return Some(Reason::CastlingBlocked(sq));
        }
        let attacked = king_path
            .into_iter()
            .filter(|&sq| self.attackers_with(sq, !us, occupied).nonempty())
            .fold(Bitboard::EMPTY, Bitboard::with);
        Self::nearest(attacked, king).map(Reason::CastleThroughCheck)
    }

    /// The square of `squares` closest to `origin` (by file distance, then rank).
    fn nearest(squares: Bitboard, origin: Square) -> Option<Square> {
        squares.into_iter().min_by_key(|sq| {
            (
                sq.file().abs_diff(origin.file()),
                sq.rank().abs_diff(origin.rank()),
            )
        })
    }

    fn normal_reason(
        &self,
        role: Option<Role>,
        file: Option<u8>,
        rank: Option<u8>,
        to: Square,
        promotion: Option<Role>,
    ) -> Reason {
        let us = self.turn();
        // Which of the player's pieces the text can mean, and the one piece it names, if any.
        let (role, froms, named) = match (role, file, rank) {
            (_, Some(file), Some(rank)) => {
                let from = Square::from_coords(file, rank);
                match self.piece_at(from) {
                    None => return Reason::EmptySquare(from),
                    Some(piece) if piece.color != us => {
                        return Reason::NotYourPiece(from, piece.role)
                    }
                    Some(piece) if role.is_some_and(|role| role != piece.role) => {
                        return Reason::NoPieceThere(role.unwrap_or(piece.role))
                    }
                    Some(piece) => (piece.role, Bitboard::from_square(from), Some(from)),
                }
            }
            (Some(role), _, _) => {
                let all = self.pieces(us, role);
                let mut mask = all;
                if let Some(file) = file {
                    mask &= Bitboard::file(file);
                }
                if let Some(rank) = rank {
                    mask &= Bitboard::rank(rank);
                }
                if all.is_empty() {
                    return Reason::NoSuchPiece(role);
                }
                if mask.is_empty() {
                    return Reason::NoPieceThere(role);
                }
                (role, mask, mask.single())
            }
            (None, _, _) => {
                let all = self.pieces(us, Role::Pawn);
                if all.is_empty() {
                    return Reason::NoSuchPiece(Role::Pawn);
                }
                let froms = all & Bitboard::file(file.unwrap_or(to.file()));
                (Role::Pawn, froms, None)
            }
        };
        if let Some(piece) = self.piece_at(to) {
            if piece.color == us {
                return Reason::OwnPiece(to, piece.role);
            }
        }
        if let Some(promoted) = promotion {
            if role != Role::Pawn {
                return Reason::OnlyPawnsPromote;
            }
            if !Bitboard::BACKRANKS.contains(to) {
                return Reason::NotPromotion;
            }
            if matches!(promoted, Role::King | Role::Pawn) {
                return Reason::BadPromotion(promoted);
            }
        }
        let pseudo: Vec<Move> = self
            .pseudo_legal_moves()
            .iter()
            .copied()
            .filter(|m| froms.contains(m.from) && m.to == to && !m.is_castle())
            .collect();
        let Some(&m) = pseudo.first() else {
            return self.unreachable_reason(role, froms, named, file, to);
        };
        if role == Role::King {
            Reason::KingIntoCheck(to)
        } else if self.is_check() {
            Reason::InCheck
        } else if self.pin_mask(us, m.from) != Bitboard::FULL {
            Reason::Pinned(m.from, role)
        } else {
            Reason::ExposesKing
        }
    }

    /// Why no piece of `froms` has even a pseudo-legal move to `to`.
    fn unreachable_reason(
        &self,
        role: Role,
        froms: Bitboard,
        named: Option<Square>,
        file: Option<u8>,
        to: Square,
    ) -> Reason {
        let us = self.turn();
        let occupied = self.occupied();
        if role == Role::Pawn {
            let capture = file.is_some_and(|file| file != to.file());
            if capture {
                let reaches = froms
                    .into_iter()
                    .any(|from| attacks::pawn(us, from).contains(to));
                let target = self.by_color(!us).contains(to) || self.ep_square() == Some(to);
                if reaches && !target {
                    return Reason::NothingToCapture(to);
                }
            } else if let Some(from) = froms
                .into_iter()
                .find(|&from| Self::pawn_push_reaches(us, from, to))
            {
                if occupied.contains(to) {
                    return Reason::PawnCapturesDiagonally(to);
                }
                if let Some(by) = (attacks::between(from, to) & occupied).first() {
                    return Reason::Blocked { from, role, by };
                }
            }
            return Reason::CannotReach {
                role,
                from: named,
                to,
            };
        }
        for from in froms {
            if attacks::attacks(role, us, from, Bitboard::EMPTY).contains(to) {
                let between = attacks::between(from, to) & occupied;
                if let Some(by) = Self::nearest(between, from) {
                    return Reason::Blocked { from, role, by };
                }
            }
        }
        Reason::CannotReach {
            role,
            from: named,
            to,
        }
    }

    /// Could a pawn of `us` on `from` reach `to` by pushing, on an empty board?
    fn pawn_push_reaches(us: Color, from: Square, to: Square) -> bool {
        if from.file() != to.file() {
            return false;
        }
        let start = if us.is_white() { 1 } else { 6 };
        let steps = (to.rank() as i8 - from.rank() as i8) * us.forward().signum();
        steps == 1 || (steps == 2 && from.rank() == start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    fn why(fen: &str, text: &str) -> String {
        match board(fen).read_move(text) {
            Reading::Illegal(explanation) => explanation.to_string(),
            other => panic!("{text} in {fen}: expected an explanation, got {other:?}"),
        }
    }

    fn uci(board: &Board, reading: Reading) -> String {
        match reading {
            Reading::Legal(m) => board.uci(m).to_string(),
            other => panic!("expected a legal move, got {other:?}"),
        }
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn explains_pieces_that_cannot_get_there() {
        assert_eq!(why(START, "Nf6"), "Nf6 is illegal: no knight can reach f6");
        assert_eq!(
            why(START, "g1f4"),
            "g1f4 is illegal: the knight on g1 cannot reach f4"
        );
        assert_eq!(
            why(START, "Bc4"),
            "Bc4 is illegal: the bishop on f1 is blocked by the piece on e2"
        );
        assert_eq!(
            why(START, "Nd2"),
            "Nd2 is illegal: your own pawn stands on d2"
        );
        assert_eq!(
            why(START, "e3e4"),
            "e3e4 is illegal: there is no piece on e3"
        );
        assert_eq!(
            why(START, "e7e5"),
            "e7e5 is illegal: the pawn on e7 is not yours"
        );
        assert_eq!(why(START, "e5"), "e5 is illegal: no pawn can reach e5");
        assert_eq!(
            why(START, "exd3"),
            "exd3 is illegal: there is nothing to capture on d3"
        );
        assert_eq!(
            why("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qd4"),
            "Qd4 is illegal: you have no queen"
        );
        assert_eq!(
            why("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Ncd2"),
            "Ncd2 is illegal: you have no knight on that square, file or rank"
        );
    }

    #[test]
    fn explains_pawn_rules() {
        let blocked = "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1";
        assert_eq!(
            why(blocked, "e4"),
            "e4 is illegal: a pawn cannot capture straight ahead, and e4 is occupied"
        );
        let jump = "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1";
        assert_eq!(
            why(jump, "e4"),
            "e4 is illegal: the pawn on e2 is blocked by the piece on e3"
        );
        assert_eq!(
            why(START, "e4=Q"),
            "e4=Q is illegal: a pawn promotes only on the last rank"
        );
        assert_eq!(
            why(START, "Nf3=Q"),
            "Nf3=Q is illegal: only a pawn can promote"
        );
        let seventh = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(
            why(seventh, "a8=K"),
            "a8=K is illegal: a pawn cannot promote to a king"
        );
    }

    #[test]
    fn explains_checks_and_pins() {
        // The black rook on e8 pins the knight on e4 and covers the e-file.
        let pinned = "4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1";
        assert_eq!(
            why(pinned, "Nf6"),
            "Nf6 is illegal: your knight on e4 is pinned to your king"
        );
        let open = "4r1k1/8/8/8/8/8/8/3K4 w - - 0 1";
        assert_eq!(
            why(open, "Ke2"),
            "Ke2 is illegal: your king would be in check on e2"
        );
        let checked = "4k3/8/8/8/8/8/3N4/4K2r w - - 0 1";
        assert_eq!(
            why(checked, "Nf3"),
            "Nf3 is illegal: your king is in check and this move does not stop it"
        );
        // En passant that empties the fifth rank between the king and a rook.
        let ep = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1";
        assert_eq!(
            why(ep, "exd6"),
            "exd6 is illegal: your king would be in check"
        );
    }

    #[test]
    fn explains_castling() {
        assert_eq!(
            why(START, "O-O"),
            "O-O is illegal: the piece on f1 stands between king and rook"
        );
        let no_rights = "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1";
        assert_eq!(
            why(no_rights, "0-0"),
            "0-0 is illegal: you can no longer castle on the king side (king or rook has moved)"
        );
        // A right written without its rook (the FEN keeps it; castling cannot use it).
        let no_rook = "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1";
        assert_eq!(
            why(no_rook, "O-O-O"),
            "O-O-O is illegal: there is no rook of yours on a1 to castle with"
        );
        assert_eq!(
            why(no_rook, "e1c1"),
            "e1c1 is illegal: there is no rook of yours on a1 to castle with"
        );
        let through = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1";
        assert_eq!(
            why(through, "O-O"),
            "O-O is illegal: the king would cross or land on f1, which is attacked"
        );
        let check = "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1";
        assert_eq!(
            why(check, "o-o-o"),
            "o-o-o is illegal: you cannot castle out of check"
        );
        assert_eq!(
            why(check, "e1c1"),
            "e1c1 is illegal: you cannot castle out of check"
        );
        assert_eq!(
            why(START, "e1h1"),
            "e1h1 is illegal: the piece on f1 stands between king and rook"
        );
        assert_eq!(
            why(START, "--"),
            "-- is illegal: a null move cannot be played in a game"
        );
    }

    #[test]
    fn reads_leniently() {
        let b = Board::default();
        for (text, expected) in [
            ("nf3", "g1f3"),
            ("Nf3+", "g1f3"),
            ("Nxf3", "g1f3"),
            ("g1f3", "g1f3"),
            ("Ng1-f3", "g1f3"),
            ("e4!?", "e2e4"),
            ("Pe4", "e2e4"),
            (" e2-e4 ", "e2e4"),
        ] {
            assert_eq!(uci(&b, b.read_move(text)), expected, "{text}");
        }
        let castle = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(uci(&castle, castle.read_move("0-0")), "e1g1");
        assert_eq!(uci(&castle, castle.read_move("o-o-o")), "e1c1");
        assert_eq!(uci(&castle, castle.read_move("e1g1")), "e1g1");
        // `b` is the bishop when no b-pawn can capture there.
        let bishop = board("4k3/8/8/8/8/8/1P6/2B1K3 w - - 0 1");
        assert_eq!(uci(&bishop, bishop.read_move("bd2")), "c1d2");
        assert_eq!(uci(&bishop, bishop.read_move("b3")), "b2b3");
        let ep = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(uci(&ep, ep.read_move("exd6 e.p.")), "e5d6");
    }

    #[test]
    fn asks_instead_of_guessing() {
        let b = board("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1");
        match b.read_move("Nd2") {
            reading @ Reading::Ambiguous(_) => {
                assert_eq!(reading.message(&b), "ambiguous: Nbd2 or Nfd2?");
            }
            other => panic!("{other:?}"),
        }
        let queens = board("4k3/8/8/8/8/8/8/Q1Q1K3 w - - 0 1");
        assert_eq!(
            queens.read_move("Qb2").message(&queens),
            "ambiguous: Qab2 or Qcb2?"
        );
        // The pawn on b2 and the bishop on a5 can both take on c3: `b` is the pawn, as in SAN.
        let both = board("4k3/8/8/B7/8/2p5/1P6/4K3 w - - 0 1");
        assert_eq!(uci(&both, both.read_move("bc3")), "b2c3");
        assert_eq!(uci(&both, both.read_move("bxc3")), "b2c3");
        assert_eq!(uci(&both, both.read_move("Bc3")), "a5c3");
        let promote = board("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        for text in ["b8", "b7b8", "b8+"] {
            match promote.read_move(text) {
                Reading::Promotion(moves) => {
                    let roles: Vec<_> = moves.iter().map(|m| m.promotion()).collect();
                    assert_eq!(
                        roles,
                        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight].map(Some),
                        "{text}"
                    );
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!(
            promote.read_move("b8").message(&promote),
            "promote to which piece: Q, R, B or N?"
        );
        assert_eq!(uci(&promote, promote.read_move("b8=N")), "b7b8n");
        assert_eq!(uci(&promote, promote.read_move("b8n")), "b7b8n");
        assert_eq!(uci(&promote, promote.read_move("b7b8r")), "b7b8r");
    }

    #[test]
    fn garbage_is_unreadable_not_a_panic() {
        let b = Board::default();
        for text in [
            "", "hello", "Nz9", "e9", "💥", "O-O-O-O", "x", "=Q", "e2e4e6", "b",
        ] {
            assert!(
                matches!(b.read_move(text), Reading::Unreadable(_)),
                "{text}: {:?}",
                b.read_move(text)
            );
        }
        let long = "z".repeat(10_000);
        assert_eq!(
            b.read_move(&long).message(&b),
            format!(
                "\"{}...\" is not a move (moves look like Nf3, exd5, O-O, e8=Q or g1f3)",
                "z".repeat(24)
            )
        );
        assert_eq!(b.explain_illegal("e4"), None);
        assert!(b.explain_illegal("Ke2").is_some());
    }

    /// Positions from the perft suites, and a few plies into each (checks, promotions, en
    /// passant and lost castling rights turn up there).
    fn suite_boards() -> Vec<Board> {
        let mut boards = Vec::new();
        for (file, chess960, take) in [("perft.epd", false, 200), ("perft960.epd", true, 60)] {
            for mut board in crate::perft::suite_positions(file, chess960, take) {
                for ply in 0..6 {
                    boards.push(board.clone());
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[(ply * 7 + 3) % moves.len()];
                    board.play_unchecked(m);
                }
            }
        }
        assert!(boards.len() > 500);
        boards
    }

    #[test]
    fn explanations_agree_with_the_rules_on_the_perft_suites() {
        for board in suite_boards() {
            let fen = board.fen();
            for &m in board.legal_moves().iter() {
                assert_eq!(board.read_move(&board.san(m)), Reading::Legal(m), "{fen}");
                let uci = board.uci(m).to_string();
                assert_eq!(board.read_move(&uci), Reading::Legal(m), "{uci} {fen}");
            }
            let pseudo = board.pseudo_legal_moves();
            for from in board.by_color(board.turn()) {
                for to in (0..64u8).map(Square::new) {
                    let text = format!("{from}{to}");
                    let reachable = pseudo
                        .iter()
                        .any(|m| m.from == from && m.to == to && !m.is_castle());
                    let why = match board.read_move(&text) {
                        Reading::Legal(m) => {
                            assert_eq!(m.from, from);
                            continue;
                        }
                        Reading::Promotion(moves) => {
                            assert!(moves.iter().all(|m| m.from == from && m.to == to));
                            continue;
                        }
                        Reading::Illegal(why) => why,
                        other => panic!("{text} in {fen}: {other:?}"),
                    };
                    match why.reason {
                        Reason::KingIntoCheck(_)
                        | Reason::InCheck
                        | Reason::Pinned(..)
                        | Reason::ExposesKing => assert!(reachable, "{why} in {fen}"),
                        Reason::NoCastlingRights { .. }
                        | Reason::NoCastlingRook(_)
                        | Reason::CastleOutOfCheck
                        | Reason::CastlingBlocked(_)
                        | Reason::CastleThroughCheck(_) => {
                            assert_eq!(board.role_at(from), Some(Role::King), "{why} in {fen}")
                        }
                        _ => assert!(!reachable, "{why} in {fen}"),
                    }
                }
            }
        }
    }

    #[test]
    fn every_legal_san_reads_back_and_every_explanation_names_the_text() {
        // In a busy middlegame position: each legal move's SAN and UCI read as that move,
        // and every other from/to pair is explained (never a panic, never "legal").
        let b = board("r1bqk2r/pp1nbppp/2p1pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQkq - 0 7");
        for &m in b.legal_moves().iter() {
            assert_eq!(b.read_move(&b.san(m)), Reading::Legal(m));
            assert_eq!(b.read_move(&b.uci(m).to_string()), Reading::Legal(m));
        }
        for from in 0..64u8 {
            for to in 0..64u8 {
                let text = format!("{}{}", Square::new(from), Square::new(to));
                match b.read_move(&text) {
                    Reading::Legal(m) => assert!(b.legal_moves().iter().any(|&l| l == m)),
                    Reading::Promotion(_) | Reading::Ambiguous(_) => {}
                    Reading::Illegal(why) => assert!(why.to_string().starts_with(&text)),
                    Reading::Unreadable(_) => panic!("{text} is readable UCI"),
                }
            }
        }
    }
}
