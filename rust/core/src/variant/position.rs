//! [`VariantBoard`]: a [`Board`] playing a [`Variant`]'s rules: legal moves, playing them,
//! the end of the game and its outcome, the FEN with Three-check's counters, and perft.

use super::crazyhouse::{self, Pockets};
use super::{antichess, atomic, horde, Variant};
use crate::board::{Board, MoveList};
use crate::compat::{parse_py_int, py_split};
use crate::error::MoveError;
use crate::error::{FenError, FenErrorKind};
use crate::notation::uci::UciDrop;
use crate::notation::{EpMode, San, UciMove};
use crate::outcome::{Outcome, Termination};
use crate::types::{Bitboard, Color, Move, MoveKind, Role, Square};

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
    board: Board,
    variant: Variant,
    /// Three-check: the checks White and Black still have to give to win (python-chess's
    /// `remaining_checks`; below zero only when a FEN says so). `[3, 3]` in other variants.
    remaining_checks: [i64; 2],
    /// Crazyhouse: the pieces in hand (empty in other variants).
    pockets: Pockets,
}

impl VariantBoard {
    /// The variant's starting position.
    pub fn new(variant: Variant) -> VariantBoard {
        VariantBoard::from_fen(variant.starting_fen(), variant, false)
            .expect("starting positions are valid")
    }

    /// Reads a FEN of `variant`, as python-chess's variant board's `set_fen` does. Three-check
    /// takes its counters in either of python-chess's forms: remaining checks as a field after
    /// the en-passant square (`3+3`, the form it writes), or checks given as a seventh field
    /// (`+0+0`, lichess's).
    pub fn from_fen(fen: &str, variant: Variant, chess960: bool) -> Result<VariantBoard, FenError> {
        let mut remaining_checks = [3, 3];
        let mut pockets = [[0; 6]; 2];
        let board = if variant == Variant::Crazyhouse {
            let error = |kind| FenError {
                fen: fen.to_string(),
                kind,
            };
            let (rest, in_hand) = crazyhouse::split_fen(fen).map_err(error)?;
            pockets = in_hand;
            Board::from_fen(&rest, chess960).map_err(|e| error(e.kind))?
        } else if variant == Variant::ThreeCheck {
            let mut parts: Vec<&str> = py_split(fen).collect();
            if let Some(counters) = take_check_counters(&mut parts) {
                remaining_checks = counters.map_err(|kind| FenError {
                    fen: fen.to_string(),
                    kind,
                })?;
            }
            Board::from_fen(&parts.join(" "), chess960).map_err(|e| FenError {
                fen: fen.to_string(),
                kind: e.kind,
            })?
        } else {
            Board::from_fen(fen, chess960)?
        };
        Ok(VariantBoard {
            board,
            variant,
            remaining_checks,
            pockets,
        })
    }

    /// The position as a FEN; Three-check writes the remaining checks after the en-passant
    /// square (`3+3`), never below 0, as python-chess does.
    pub fn fen(&self) -> String {
        let fen = if self.board.ep_square().is_some() && self.legal_ep_square().is_none() {
            let mut board = self.board.clone();
            board.set_ep_square(None);
            board.fen_with(false, EpMode::Always)
        } else {
            self.board.fen_with(false, EpMode::Always)
        };
        if self.variant == Variant::Crazyhouse {
            // Promoted pieces marked `~`, the pockets after the placement.
            let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
            return format!(
                "{}{} {rest}",
                self.board.board_fen_with(true),
                crazyhouse::pockets_fen(&self.pockets)
            );
        }
        if self.variant != Variant::ThreeCheck {
            return fen;
        }
        let mut fields: Vec<&str> = fen.split(' ').collect();
        let [white, black] = self.remaining_checks.map(|n| n.max(0));
        let counters = format!("{white}+{black}");
        fields.insert(4, &counters);
        fields.join(" ")
    }

    /// The en-passant square if an en-passant capture is legal in the variant (python-chess's
    /// `has_legal_en_passant`, which decides whether a FEN shows it): never once the game is
    /// over; in the Antichess family any pseudo-legal capture, in Atomic one that leaves no
    /// king of the mover in check.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.board.ep_square()?;
        if self.is_variant_end() {
            return None;
        }
        let captures = self
            .board
            .pseudo_legal_ep_moves(Bitboard::FULL, Bitboard::FULL);
        let us = self.board.turn();
        let legal = match self.variant {
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => !captures.is_empty(),
            Variant::Atomic => captures.iter().any(|&m| {
                let mut after = self.board.clone();
                atomic::play(&mut after, m);
                !atomic::was_into_check(&after, us)
            }),
            _ => return self.board.legal_ep_square(),
        };
        legal.then_some(ep)
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
        match self.variant {
            Variant::Antichess | Variant::Giveaway | Variant::Suicide => false,
            // Kings that touch cannot take each other.
            Variant::Atomic => !atomic::kings_connected(&self.board) && self.board.is_check(),
            _ => self.board.is_check(),
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
                if board.by_color(!us).is_empty() || self.has_legal_moves() {
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
        let mover = self.board.turn();
        if self.variant == Variant::Crazyhouse {
            let pocket = &mut self.pockets[mover.index()];
            if let MoveKind::Drop(role) = m.kind {
                pocket[role.index()] = pocket[role.index()].saturating_sub(1);
            } else if let Some(role) = crazyhouse::captured_for_pocket(&self.board, m) {
                pocket[role.index()] += 1;
            }
        }
        if self.variant == Variant::Atomic {
            atomic::play(&mut self.board, m);
        } else if self.variant.is_antichess() {
            // Kings may be taken, promoted to, or left attacked: the general rules.
            self.board.play_pseudo_legal(m);
        } else {
            self.board.play_unchecked(m);
        }
        if self.variant == Variant::ThreeCheck && self.board.is_check() {
            self.remaining_checks[mover.index()] -= 1;
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
        let us = self.board.turn();
        if let Some(result) = self.variant_result() {
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
        if self.is_checkmate() {
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
        if !self.has_legal_moves() {
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

    /// The legal move `uci` stands for, if any (castling as king-takes-rook, or king to its
    /// target in standard notation).
    pub fn find_legal(&self, uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        self.legal_moves()
            .iter()
            .copied()
            .find(|&m| self.board.matches(m, uci))
    }

    /// The UCI of `m` (standard castling as `e1g1`, as [`Board::uci`]).
    pub fn uci(&self, m: Move) -> UciMove {
        self.board.uci(m)
    }

    /// SAN of the legal move `m`, python-chess's way for variants: pieces are told apart by
    /// the variant's legal moves, and `#` marks a move after which the game is over by
    /// checkmate or by a variant's win or loss, `+` one that gives check.
    ///
    /// ```
    /// use pychess_core::variant::{Variant, VariantBoard};
    /// use pychess_core::UciMove;
    /// let board = VariantBoard::from_fen("8/8/8/8/8/3K4/8/7k w - - 0 1", Variant::KingOfTheHill, false).unwrap();
    /// let m = board.find_legal(UciMove::parse("d3d4").unwrap()).unwrap();
    /// assert_eq!(board.san(m), "Kd4#");
    /// ```
    pub fn san(&self, m: Move) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        let legal = self.legal_moves();
        let mut san = self
            .board
            .algebraic_without_suffix(m, false, |from_mask, to| {
                legal
                    .iter()
                    .filter(|other| other.to == to && from_mask.contains(other.from))
                    .fold(Bitboard::EMPTY, |acc, other| acc.with(other.from))
            });
        let after = self.after(m);
        let check = after.is_check();
        let over = matches!(
            after.variant_result(),
            Some(VariantResult::Win | VariantResult::Loss)
        );
        if over || (check && after.is_checkmate()) {
            san.push('#');
        } else if check {
            san.push('+');
        }
        san
    }

    /// The legal move a SAN stands for (`Ok(None)`: the null move), python-chess's
    /// `parse_san` over the variant's legal moves: a piece letter, origin file and rank narrow
    /// the candidates, a pawn without an origin file moves along its file, a fully given
    /// origin names any piece (a pawn reaching the back rank then becomes a queen unless a
    /// promotion is written), and castling is `O-O`/`O-O-O`. Unlike python-chess, a castling
    /// SAN only finds a legal castling move (python-chess takes any its castling generator
    /// lists, e.g. while an Antichess capture is compulsory).
    ///
    /// ```
    /// use pychess_core::variant::{Variant, VariantBoard};
    /// let board = VariantBoard::new(Variant::Antichess);
    /// let m = board.parse_san("e3").unwrap().unwrap();
    /// assert_eq!(board.uci(m).to_string(), "e2e3");
    /// assert!(board.parse_san("Ke2").is_err());
    /// ```
    pub fn parse_san(&self, text: &str) -> Result<Option<Move>, MoveError> {
        let illegal = || MoveError::Illegal {
            text: text.to_string(),
            fen: self.fen(),
        };
        let legal = self.legal_moves();
        let us = self.board.turn();
        if self.variant == Variant::Crazyhouse && text.contains('@') {
            // python-chess reads a drop SAN as UCI (`@e4` being a pawn's) and kings are never
            // dropped.
            let uci = text.trim_end_matches(['+', '#']);
            let uci = if uci.starts_with('@') {
                format!("P{uci}")
            } else {
                uci.to_string()
            };
            let drop = UciDrop::parse(&uci).ok_or_else(|| MoveError::Invalid {
                text: text.to_string(),
                notation: "uci",
            })?;
            if drop.role == Role::King {
                return Err(illegal());
            }
            return self
                .find_legal(UciMove::from_drop(drop))
                .map(Some)
                .ok_or_else(illegal);
        }
        let (role, file, rank, to, promotion) = match San::parse(text)? {
            San::Null => return Ok(None),
            San::Castle { king_side } => {
                return legal
                    .iter()
                    .copied()
                    .find(|m| m.is_castle() && (m.to.file() > m.from.file()) == king_side)
                    .map(Some)
                    .ok_or_else(illegal);
            }
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => (role, file, rank, to, promotion),
        };
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = file {
            from_mask &= Bitboard::file(file);
        }
        if let Some(rank) = rank {
            from_mask &= Bitboard::rank(rank);
        }
        match (role, file, rank) {
            (Some(role), _, _) => from_mask &= self.board.pieces(us, role),
            (None, Some(file), Some(rank)) => {
                let from = Square::from_coords(file, rank);
                let pawn = self.board.pieces(us, Role::Pawn).contains(from);
                let implied = match promotion {
                    None if pawn && Bitboard::BACKRANKS.contains(to) => Some(Role::Queen),
                    given => given,
                };
                let uci = UciMove {
                    from,
                    to,
                    promotion: implied,
                };
                let m = self.find_legal(uci).ok_or_else(illegal)?;
                return if m.promotion() == promotion {
                    Ok(Some(m))
                } else {
                    Err(illegal())
                };
            }
            (None, _, _) => {
                from_mask &= self.board.by_role(Role::Pawn);
                if file.is_none() {
                    from_mask &= Bitboard::file(to.file());
                }
            }
        }
        let mut matched = None;
        for &m in legal.iter() {
            if m.to != to || !from_mask.contains(m.from) || m.is_castle() {
                continue;
            }
            if m.promotion() != promotion {
                continue;
            }
            if matched.is_some() {
                return Err(MoveError::Ambiguous {
                    text: text.to_string(),
                    fen: self.fen(),
                });
            }
            matched = Some(m);
        }
        matched.map(Some).ok_or_else(illegal)
    }

    /// The Polyglot key, python-chess's `chess.polyglot.zobrist_hash` of a variant board: the
    /// placement, side to move, castling rights and a capturable en-passant file as in chess
    /// (python-chess adds nothing for the variants; its table has no entries for them).
    pub fn zobrist_hash(&self) -> u64 {
        self.board.zobrist_hash()
    }

    /// The square the king of `color` stands on, if it has one (the highest, python-chess's
    /// `king`).
    pub fn king(&self, color: Color) -> Option<Square> {
        self.board.king(color)
    }
}

/// Removes Three-check's counters from the FEN fields `parts`, if there are any, and reads
/// them as remaining checks `[white, black]` (python-chess's `ThreeCheckBoard.set_fen`).
fn take_check_counters(parts: &mut Vec<&str>) -> Option<Result<[i64; 2], FenErrorKind>> {
    let (field, given) = if parts.len() >= 7 && parts[6].starts_with('+') {
        (parts.remove(6), true)
    } else if parts.len() >= 5 && parts[4].contains('+') {
        (parts.remove(4), false)
    } else {
        return None;
    };
    let invalid = || {
        FenErrorKind::Placement(format!(
            "invalid check part in {}three-check fen: {}",
            if given { "lichess " } else { "" },
            crate::compat::py_repr(field)
        ))
    };
    let counters = if given { &field[1..] } else { field };
    let parsed = counters.split_once('+').and_then(|(white, black)| {
        let white = i64::try_from(parse_py_int(white).ok()?).ok()?;
        let black = i64::try_from(parse_py_int(black).ok()?).ok()?;
        Some(if given {
            [3i64.checked_sub(white)?, 3i64.checked_sub(black)?]
        } else {
            [white, black]
        })
    });
    Some(parsed.ok_or_else(invalid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str, variant: Variant) -> VariantBoard {
        VariantBoard::from_fen(fen, variant, false).unwrap()
    }

    #[test]
    fn three_check_counters_in_both_forms() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        for (fen, remaining) in [
            (format!("{start} 3+3 0 1"), [3, 3]),
            (format!("{start} 2+1 0 1"), [2, 1]),
            (format!("{start} 0 1 +1+2"), [2, 1]),
            (format!("{start} 0 1"), [3, 3]),
            (format!("{start} 0+3 0 1"), [0, 3]),
        ] {
            let b = board(&fen, Variant::ThreeCheck);
            assert_eq!(b.remaining_checks(), remaining, "{fen}");
            let [w, black] = remaining;
            assert_eq!(b.fen(), format!("{start} {w}+{black} 0 1"));
        }
        for bad in [
            format!("{start} 3+x 0 1"),
            format!("{start} 0 1 +1"),
            format!("{start} 0 1 +a+b"),
        ] {
            let err = VariantBoard::from_fen(&bad, Variant::ThreeCheck, false).unwrap_err();
            assert!(err.to_string().contains("check part"), "{err}");
        }
        // Other variants take no counters.
        assert!(
            VariantBoard::from_fen(&format!("{start} 3+3 0 1"), Variant::KingOfTheHill, false)
                .is_err()
        );
    }

    /// FENs python-chess 1.11.2 writes: the en-passant square shows when the variant allows
    /// the capture.
    #[test]
    fn en_passant_in_the_fen_follows_the_variant() {
        for (fen, variant, expected) in [
            // Touching kings: no check in Atomic, so b4xc3 is legal.
            (
                "5K2/5k2/7p/2p4P/1pP5/1P6/8/8 b - c3 0 45",
                Variant::Atomic,
                "5K2/5k2/7p/2p4P/1pP5/1P6/8/8 b - c3 0 45",
            ),
            // The capture would leave Black's king in check in chess; Antichess has none.
            (
                "8/8/8/8/1pP5/8/8/2kR4 b - c3 0 1",
                Variant::Antichess,
                "8/8/8/8/1pP5/8/8/2kR4 b - c3 0 1",
            ),
            (
                "8/8/8/8/1pP5/8/8/2kR4 b - c3 0 1",
                Variant::KingOfTheHill,
                "8/8/8/8/1pP5/8/8/2kR4 b - - 0 1",
            ),
        ] {
            assert_eq!(board(fen, variant).fen(), expected, "{fen}");
        }
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

    /// SANs python-chess 1.11.2 writes for these moves.
    #[test]
    fn san_like_python_chess() {
        for (fen, variant, uci, expected) in [
            (
                "8/8/8/8/8/3K4/8/7k w - - 0 1",
                Variant::KingOfTheHill,
                "d3d4",
                "Kd4#",
            ),
            (
                "8/8/8/8/8/3K4/8/7k w - - 0 1",
                Variant::KingOfTheHill,
                "d3c3",
                "Kc3",
            ),
            (
                "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2",
                Variant::ThreeCheck,
                "d1h5",
                "Qh5#",
            ),
            (
                "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 2",
                Variant::ThreeCheck,
                "d1h5",
                "Qh5+",
            ),
            // Taking the last piece wins.
            (
                "8/8/8/3p4/8/2N1N3/8/8 w - - 0 1",
                Variant::Antichess,
                "c3d5",
                "Ncxd5#",
            ),
            // A knight pinned in chess is free in Antichess.
            (
                "4r2k/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1",
                Variant::Antichess,
                "c3d5",
                "Ncxd5",
            ),
            (
                "4r2k/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1",
                Variant::KingOfTheHill,
                "c3d5",
                "Nxd5",
            ),
            (
                "8/P7/8/8/8/8/8/7k w - - 0 1",
                Variant::Antichess,
                "a7a8k",
                "a8=K",
            ),
        ] {
            let b = board(fen, variant);
            let m = b
                .find_legal(UciMove::parse(uci).unwrap())
                .unwrap_or_else(|| panic!("{fen} {uci}"));
            assert_eq!(b.san(m), expected, "{fen} {uci}");
            assert_eq!(b.parse_san(expected), Ok(Some(m)), "{fen} {expected}");
        }
    }

    /// python-chess 1.11.2's `parse_san` answers (or its error class).
    #[test]
    fn san_parsing_like_python_chess() {
        let knights = "4r2k/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1";
        for (fen, variant, san, expected) in [
            // The e3 knight is pinned in chess, free in Antichess.
            (knights, Variant::KingOfTheHill, "Nxd5", Ok("c3d5")),
            (knights, Variant::Antichess, "Nxd5", Err("ambiguous")),
            (knights, Variant::Antichess, "Nexd5", Ok("e3d5")),
            // A capture is compulsory: the king may not step aside.
            (knights, Variant::Antichess, "Kd2", Err("illegal")),
            (
                "8/P7/8/8/8/8/8/7k w - - 0 1",
                Variant::Antichess,
                "a8=K",
                Ok("a7a8k"),
            ),
            // A fully given origin without the promotion piece: python-chess refuses it.
            (
                "8/P7/8/8/8/8/8/7k w - - 0 1",
                Variant::Antichess,
                "a7a8",
                Err("illegal"),
            ),
            (
                "8/P7/8/8/8/8/8/7k w - - 0 1",
                Variant::Antichess,
                "a8",
                Err("illegal"),
            ),
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                Variant::Atomic,
                "O-O",
                Ok("e1g1"),
            ),
            (
                "8/8/8/8/8/8/8/7k w - - 0 1",
                Variant::KingOfTheHill,
                "--",
                Ok("0000"),
            ),
        ] {
            let b = board(fen, variant);
            let got = match b.parse_san(san) {
                Ok(Some(m)) => Ok(b.uci(m).to_string()),
                Ok(None) => Ok("0000".to_string()),
                Err(MoveError::Ambiguous { .. }) => Err("ambiguous"),
                Err(MoveError::Illegal { .. }) => Err("illegal"),
                Err(e) => panic!("{fen} {san}: {e}"),
            };
            assert_eq!(got, expected.map(str::to_string), "{fen} {san}");
        }
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
