//! A variant position written and read: FEN (Three-check's counters, Crazyhouse's pockets,
//! the en-passant square by the variant's rules), UCI and SAN, python-chess's way.

use super::{atomic, crazyhouse};
use super::{Variant, VariantBoard, VariantResult};
use crate::board::Board;
use crate::compat::{parse_py_int, py_split};
use crate::error::{FenError, FenErrorKind, MoveError};
use crate::notation::uci::UciDrop;
use crate::notation::{EpMode, San, UciMove};
use crate::types::{Bitboard, Move, Role, Square};

impl VariantBoard {
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

    /// The move of `legal` (this position's legal moves, as [`VariantBoard::legal_moves`]
    /// lists them) that `uci` stands for: [`VariantBoard::find_legal`] for a caller that
    /// keeps the list.
    pub fn find_in(&self, legal: &[Move], uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        legal.iter().copied().find(|&m| self.board.matches(m, uci))
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
        self.algebraic(m, false)
    }

    /// A line of legal moves in SAN with move numbers (`1. e4 e5 2. Nf3`, `3...Qxd5`),
    /// python-chess's `variation_san` with the variant's rules.
    pub fn variation_san(&self, line: &[UciMove]) -> Result<String, MoveError> {
        let mut board = self.clone();
        let mut parts: Vec<String> = Vec::with_capacity(line.len());
        for &uci in line {
            let m = board
                .find_legal(uci)
                .ok_or_else(|| MoveError::IllegalInLine {
                    uci,
                    fen: board.fen(),
                })?;
            let san = board.san(m);
            let number = board.board.fullmove_number();
            if board.board.turn().is_white() {
                parts.push(format!("{number}. {san}"));
            } else if parts.is_empty() {
                parts.push(format!("{number}...{san}"));
            } else {
                parts.push(san);
            }
            board.play_unchecked(m);
        }
        Ok(parts.join(" "))
    }

    /// Long algebraic notation of the legal move `m` (`Ng1-f3`, `Qxe6#`), python-chess's
    /// `lan` with the variant's suffixes.
    pub fn lan(&self, m: Move) -> String {
        self.algebraic(m, true)
    }

    fn algebraic(&self, m: Move, long: bool) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        let legal = self.legal_moves();
        let mut san = self
            .board
            .algebraic_without_suffix(m, long, |from_mask, to| {
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
}
