//! Standard algebraic notation, both ways, with python-chess's rules: minimal
//! disambiguation, `+`/`#` suffixes, `=Q` promotions, `O-O`/`O-O-O`; reading also accepts
//! `0-0`, `e8Q`, `Nbd7`, fully specified moves like `Ng1f3`, and `--` for the null move.
//!
//! Reading is two steps, like UCI: [`San::parse`] without a position, then
//! [`Board::resolve_san`] against one (illegal and ambiguous are different errors).
//!
//! ```
//! use pychess_core::Board;
//! let board = Board::default();
//! let m = board.parse_san("Nf3").unwrap().unwrap();
//! assert_eq!(board.san(m), "Nf3");
//! assert_eq!(board.lan(m), "Ng1-f3");
//! ```

use crate::attacks;
use crate::board::Board;
use crate::error::MoveError;
use crate::notation::UciMove;
use crate::types::{Bitboard, Move, MoveKind, Role, Square};

/// A SAN read without a position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum San {
    /// `O-O` (king side) or `O-O-O`.
    Castle {
        /// True for `O-O`.
        king_side: bool,
    },
    /// `--`, `Z0`, `0000` or `@@@@`.
    Null,
    /// A piece or pawn move.
    Normal {
        /// The piece letter, if given.
        role: Option<Role>,
        /// The origin file, if given.
        file: Option<u8>,
        /// The origin rank, if given.
        rank: Option<u8>,
        /// The destination.
        to: Square,
        /// The promotion, if given.
        promotion: Option<Role>,
    },
}

impl San {
    /// Reads a SAN (python-chess's `SAN_REGEX` plus its castling and null spellings).
    pub fn parse(text: &str) -> Result<San, MoveError> {
        San::parse_bytes(text.as_bytes()).ok_or_else(|| MoveError::Invalid {
            text: text.to_string(),
            notation: "san",
        })
    }

    /// [`San::parse`] on bytes, `None` for text that is not a SAN (so a caller holding
    /// bytes, like a PGN reader, needs no UTF-8 check and makes an error message only when
    /// it needs one).
    pub fn parse_bytes(bytes: &[u8]) -> Option<San> {
        // Castling and null spellings start with one of these (most SANs do not).
        if matches!(bytes.first(), Some(b'O' | b'0' | b'-' | b'Z' | b'@')) {
            match bytes {
                b"O-O" | b"O-O+" | b"O-O#" | b"0-0" | b"0-0+" | b"0-0#" => {
                    return Some(San::Castle { king_side: true })
                }
                b"O-O-O" | b"O-O-O+" | b"O-O-O#" | b"0-0-0" | b"0-0-0+" | b"0-0-0#" => {
                    return Some(San::Castle { king_side: false })
                }
                b"--" | b"Z0" | b"0000" | b"@@@@" => return Some(San::Null),
                _ => {}
            }
        }
        if !bytes.is_ascii() {
            return None;
        }
        // ^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z, matched from
        // the end so the optional origin squares need no backtracking.
        let mut end = bytes.len();
        if end > 0 && matches!(bytes[end - 1], b'+' | b'#') {
            end -= 1;
        }
        let mut promotion = None;
        if end > 0 {
            if let Some(role) = Role::from_char(bytes[end - 1].to_ascii_lowercase() as char) {
                if role != Role::Pawn && end >= 3 && !bytes[end - 1].is_ascii_digit() {
                    promotion = Some(role);
                    end -= 1;
                    if bytes[end - 1] == b'=' {
                        end -= 1;
                    }
                }
            }
        }
        if end < 2 {
            return None;
        }
        let to = match bytes[end - 2..end] {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::from_coords(f - b'a', r - b'1'),
            _ => return None,
        };
        let mut rest = &bytes[..end - 2];
        if let Some((&last, head)) = rest.split_last() {
            if last == b'-' || last == b'x' {
                rest = head;
            }
        }
        let mut role = None;
        if let Some((&first, tail)) = rest.split_first() {
            if matches!(first, b'N' | b'B' | b'K' | b'R' | b'Q') {
                role = Role::from_char(first.to_ascii_lowercase() as char);
                rest = tail;
            }
        }
        let mut file = None;
        if let Some((&first, tail)) = rest.split_first() {
            if (b'a'..=b'h').contains(&first) {
                file = Some(first - b'a');
                rest = tail;
            }
        }
        let mut rank = None;
        if let Some((&first, tail)) = rest.split_first() {
            if (b'1'..=b'8').contains(&first) {
                rank = Some(first - b'1');
                rest = tail;
            }
        }
        if !rest.is_empty() {
            return None;
        }
        Some(San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        })
    }
}

impl Board {
    /// SAN of the legal move `m`, with check/mate suffix.
    pub fn san(&self, m: Move) -> String {
        self.algebraic(m, false)
    }

    /// A line of moves in SAN with move numbers (python-chess's `variation_san`):
    /// `1. e4 e5 2. Nf3`, or `1...e5 2. Nf3` when the line starts with Black.
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
            if board.turn().is_white() {
                parts.push(format!("{}. {san}", board.fullmove_number()));
            } else if parts.is_empty() {
                parts.push(format!("{}...{san}", board.fullmove_number()));
            } else {
                parts.push(san);
            }
            board.play_unchecked(m);
        }
        Ok(parts.join(" "))
    }

    /// Long algebraic notation of the legal move `m` (`Ng1-f3`, `e4xd5`), python-chess's `lan`.
    pub fn lan(&self, m: Move) -> String {
        self.algebraic(m, true)
    }

    fn algebraic(&self, m: Move, long: bool) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        let mut san = self.algebraic_without_suffix(m, long, |from_mask, to| {
            self.legal_moves_masked(from_mask, Bitboard::from_square(to))
                .iter()
                .fold(Bitboard::EMPTY, |acc, other| acc.with(other.from))
        });
        let after = self.after(m);
        if after.is_check() {
            san.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        san
    }

    /// SAN or LAN without the check suffix. `rivals(from_mask, to)` names the squares in
    /// `from_mask` whose pieces also have a legal move to `to` (the rules' say, for the
    /// disambiguation: variants have their own).
    pub(crate) fn algebraic_without_suffix(
        &self,
        m: Move,
        long: bool,
        rivals: impl FnOnce(Bitboard, Square) -> Bitboard,
    ) -> String {
        if let MoveKind::Drop(role) = m.kind {
            // python-chess writes a pawn drop without its letter: `@e4`.
            let letter = if role == Role::Pawn {
                String::new()
            } else {
                role.upper_char().to_string()
            };
            return format!("{letter}@{}", m.to);
        }
        if m.is_castle() {
            return if m.to.file() < m.from.file() {
                "O-O-O"
            } else {
                "O-O"
            }
            .to_string();
        }
        let role = self.role_at(m.from).unwrap_or(Role::Pawn);
        let capture = m.is_en_passant() || self.by_color(!self.turn()).contains(m.to);
        let mut san = String::with_capacity(8);
        if role != Role::Pawn {
            san.push(role.upper_char());
        }
        if long {
            san.push_str(&m.from.to_string());
        } else if role != Role::Pawn {
            let from_mask = self.pieces(self.turn(), role).without(m.from);
            let others = rivals(from_mask, m.to);
            if others.nonempty() {
                let same_rank = (others & Bitboard::rank(m.from.rank())).nonempty();
                let same_file = (others & Bitboard::file(m.from.file())).nonempty();
                if same_rank || !same_file {
                    san.push(m.from.file_char());
                }
                if same_file {
                    san.push(m.from.rank_char());
                }
            }
        } else if capture {
            san.push(m.from.file_char());
        }
        if capture {
            san.push('x');
        } else if long {
            san.push('-');
        }
        san.push_str(&m.to.to_string());
        if let Some(promotion) = m.promotion() {
            san.push('=');
            san.push(promotion.upper_char());
        }
        san
    }

    /// The legal move a SAN stands for; `Ok(None)` is the null move.
    pub fn parse_san(&self, text: &str) -> Result<Option<Move>, MoveError> {
        self.resolve_san(text, San::parse(text)?)
    }

    /// Resolves a parsed SAN against this position (python-chess's `parse_san`).
    pub fn resolve_san(&self, text: &str, san: San) -> Result<Option<Move>, MoveError> {
        self.resolve_san_with(san, || text.to_string())
    }

    /// [`Board::resolve_san`] with the SAN's text made by `text` only for an error.
    pub fn resolve_san_with(
        &self,
        san: San,
        text: impl Fn() -> String,
    ) -> Result<Option<Move>, MoveError> {
        let illegal = || MoveError::Illegal {
            text: text(),
            fen: self.fen(),
        };
        let (role, file, rank, to, promotion) = match san {
            San::Null => return Ok(None),
            San::Castle { king_side } => {
                // python-chess takes the first castling move its castling generator lists.
                let moves = if self.is_regular() {
                    // Castling moves go to the rook's square: only those targets matter.
                    let king = Bitboard::from_square(self.king_of(self.turn()));
                    self.legal_moves_masked(king, self.castling_rights())
                } else {
                    self.castling_moves(Bitboard::FULL, Bitboard::FULL)
                };
                return moves
                    .iter()
                    .copied()
                    .find(|m| m.is_castle() && (m.to.file() > m.from.file()) == king_side)
                    .map(Some)
                    .ok_or_else(|| match self.castling_uci_without_rook(king_side) {
                        Some(uci) => illegal().naming_missing_rook(self, uci),
                        None => illegal(),
                    });
            }
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => (role, file, rank, to, promotion),
        };
        let to_mask = Bitboard::from_square(to) & !self.by_color(self.turn());
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = file {
            from_mask &= Bitboard::file(file);
        }
        if let Some(rank) = rank {
            from_mask &= Bitboard::rank(rank);
        }
        match (role, file, rank) {
            (Some(role), _, _) => from_mask &= self.pieces(self.turn(), role),
            (None, Some(file), Some(rank)) => {
                // A fully specified origin, any piece (python-chess's `find_move`): a pawn
                // reaching the back rank without a promotion letter becomes a queen.
                let from = Square::from_coords(file, rank);
                let is_pawn = self.pieces(self.turn(), Role::Pawn).contains(from);
                let implied = if promotion.is_none() && is_pawn && Bitboard::BACKRANKS.contains(to)
                {
                    Some(Role::Queen)
                } else {
                    promotion
                };
                let uci = crate::UciMove {
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
                from_mask &= self.pieces(self.turn(), Role::Pawn);
                if file.is_none() {
                    from_mask &= Bitboard::file(to.file());
                }
            }
        }
        if self.is_regular() {
            return match self.resolve_regular(role, from_mask, to, promotion) {
                Resolved::One(m) => Ok(Some(m)),
                Resolved::None => Err(illegal()),
                Resolved::Several => Err(MoveError::Ambiguous {
                    text: text(),
                    fen: self.fen(),
                }),
            };
        }
        let mut matched = None;
        for m in self.legal_moves_masked(from_mask, to_mask).iter() {
            if m.promotion() != promotion || m.is_castle() {
                continue;
            }
            if matched.is_some() {
                return Err(MoveError::Ambiguous {
                    text: text(),
                    fen: self.fen(),
                });
            }
            matched = Some(*m);
        }
        matched.map(Some).ok_or_else(illegal)
    }
}

/// How many legal moves a SAN matched.
enum Resolved {
    None,
    One(Move),
    Several,
}

impl Resolved {
    fn add(&mut self, m: Move) {
        *self = match self {
            Resolved::None => Resolved::One(m),
            _ => Resolved::Several,
        };
    }
}

impl Board {
    /// The legal moves of a piece or pawn SAN in a regular position (`role` None for a pawn),
    /// found backwards from the target square: the pseudo-legal moves of that role (origins
    /// in `from_mask`, which holds only the mover's pieces of the role) that reach `to` with
    /// `promotion`,
    /// each kept if it leaves the king safe. The regular generator lists exactly the safe
    /// pseudo-legal moves (plus castling, which a SAN with a target square never names), so
    /// this finds the same moves without generating the others or copying a move list.
    fn resolve_regular(
        &self,
        role: Option<Role>,
        from_mask: Bitboard,
        to: Square,
        promotion: Option<Role>,
    ) -> Resolved {
        let mut found = Resolved::None;
        let us = self.turn();
        if self.by_color(us).contains(to) {
            return found;
        }
        let occupied = self.occupied();
        let mut consider = |m: Move| {
            if self.is_safe(m) {
                found.add(m);
            }
        };
        if let Some(role) = role.filter(|&r| r != Role::Pawn) {
            if promotion.is_some() {
                return found;
            }
            // Every move of these pieces is symmetric: they reach `to` from where they attack it.
            let origins = match role {
                Role::Knight => attacks::knight(to),
                Role::Bishop => attacks::bishop(to, occupied),
                Role::Rook => attacks::rook(to, occupied),
                Role::Queen => attacks::queen(to, occupied),
                _ => attacks::king(to),
            };
            for from in origins & from_mask {
                consider(Move::new(from, to, MoveKind::Normal));
            }
            return found;
        }
        let kind = if Bitboard::BACKRANKS.contains(to) {
            match promotion {
                Some(role) if Role::PROMOTIONS.contains(&role) => MoveKind::Promotion(role),
                _ => return found,
            }
        } else if promotion.is_some() {
            return found;
        } else {
            MoveKind::Normal
        };
        let capturers = attacks::pawn(!us, to) & from_mask;
        if self.by_color(!us).contains(to) {
            for from in capturers {
                consider(Move::new(from, to, kind));
            }
        } else {
            if self.ep_square() == Some(to) && kind == MoveKind::Normal {
                for from in capturers {
                    consider(Move::new(from, to, MoveKind::EnPassant));
                }
            }
            let back = -us.forward();
            if let Some(one) = to.offset(back) {
                if from_mask.contains(one) {
                    consider(Move::new(one, to, kind));
                } else if !occupied.contains(one) {
                    let start_rank = Bitboard::rank(if us.is_white() { 1 } else { 6 });
                    if let Some(two) = one.offset(back) {
                        if (from_mask & start_rank).contains(two) {
                            consider(Move::new(two, to, MoveKind::DoubleStep));
                        }
                    }
                }
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::MoveError;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn variation_san_numbers_moves() {
        let line = |moves: &str| -> Vec<UciMove> {
            moves
                .split(' ')
                .map(|m| UciMove::parse(m).unwrap())
                .collect()
        };
        let start = Board::default();
        assert_eq!(
            start.variation_san(&line("e2e4 e7e5 g1f3")),
            Ok("1. e4 e5 2. Nf3".to_string())
        );
        let after = start.after(start.find_legal(UciMove::parse("e2e4").unwrap()).unwrap());
        assert_eq!(
            after.variation_san(&line("e7e5 g1f3")),
            Ok("1...e5 2. Nf3".to_string())
        );
        assert_eq!(start.variation_san(&[]), Ok(String::new()));
        let err = start.variation_san(&line("e2e4 e2e4")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "illegal move e2e4 in position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    #[test]
    fn disambiguation_is_minimal() {
        // Knights on b1 and f3 can both reach d2; rooks on a1 and a5 both reach a3.
        let b = board("4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1");
        let sans: Vec<String> = b.legal_moves().iter().map(|m| b.san(*m)).collect();
        assert!(sans.contains(&"Nbd2".to_string()), "{sans:?}");
        assert!(sans.contains(&"Nfd2".to_string()));
        assert!(sans.contains(&"R1a3".to_string()));
        assert!(sans.contains(&"R5a3".to_string()));
        assert!(sans.contains(&"Ng5".to_string()));
    }

    #[test]
    fn reads_python_chess_spellings() {
        let b = board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        for (text, uci) in [
            ("0-0", "e1g1"),
            ("O-O-O", "e1c1"),
            ("exd6", "e5d6"),
            ("bxa8=Q", "b7a8q"),
            ("bxa8Q", "b7a8q"),
            ("b8=N+", "b7b8n"),
            ("Rxa8+", "a1a8"),
            ("Ra1a8", "a1a8"),
            ("e5d6", "e5d6"),
        ] {
            let m = b.parse_san(text).unwrap().unwrap();
            assert_eq!(b.uci(m).to_string(), uci, "{text}");
        }
        assert_eq!(b.parse_san("--").unwrap(), None);
    }

    #[test]
    fn writes_suffixes_and_promotions() {
        let b = board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let m = b.parse_san("bxa8=Q").unwrap().unwrap();
        assert_eq!(b.san(m), "bxa8=Q+");
        let mate = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(mate.san(mate.parse_san("Ra8").unwrap().unwrap()), "Ra8#");
    }

    #[test]
    fn errors_are_typed() {
        let b = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert!(matches!(
            b.parse_san("Nd2"),
            Err(MoveError::Ambiguous { .. })
        ));
        assert!(matches!(b.parse_san("Nd3"), Err(MoveError::Illegal { .. })));
        assert!(matches!(b.parse_san("O-O"), Err(MoveError::Illegal { .. })));
        for garbage in ["", "N", "Nz9", "xx", "e4e4e4", "Ké4", "Qd"] {
            assert!(
                matches!(b.parse_san(garbage), Err(MoveError::Invalid { .. })),
                "{garbage}"
            );
        }
    }

    /// The resolution by full generation that `resolve_regular` replaces: the legal moves of
    /// the masks, filtered by promotion.
    fn resolve_by_generation(b: &Board, san: San) -> Result<Option<Move>, &'static str> {
        let San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } = san
        else {
            unreachable!("only piece and pawn moves are compared");
        };
        let mut from_mask = Bitboard::FULL;
        if let Some(file) = file {
            from_mask &= Bitboard::file(file);
        }
        if let Some(rank) = rank {
            from_mask &= Bitboard::rank(rank);
        }
        match role {
            Some(role) => from_mask &= b.pieces(b.turn(), role),
            None => {
                from_mask &= b.pieces(b.turn(), Role::Pawn);
                if file.is_none() {
                    from_mask &= Bitboard::file(to.file());
                }
            }
        }
        let to_mask = Bitboard::from_square(to) & !b.by_color(b.turn());
        let mut matched = None;
        for m in b.legal_moves_masked(from_mask, to_mask).iter() {
            if m.promotion() != promotion || m.is_castle() {
                continue;
            }
            if matched.is_some() {
                return Err("ambiguous");
            }
            matched = Some(*m);
        }
        matched.map(Some).ok_or("illegal")
    }

    /// Every piece and pawn SAN shape (each role, origin file or rank or neither, each
    /// target, each promotion) in positions with pins, checks, en passant and promotions,
    /// and along pseudo-random games from them: the backward search gives the generator's
    /// answer, ambiguity and illegality included.
    #[test]
    fn backward_resolution_matches_full_generation() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // En passant that would expose the king, and one that answers a check.
            "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
            // Pinned pieces, double check, and knights and rooks sharing targets.
            "4k3/4r3/8/8/4B3/8/4K3/8 w - - 0 1",
            "4k3/8/8/8/1b6/8/3N4/r3K3 w - - 0 1",
            "4k3/8/8/R7/8/5N2/8/RN2K3 w - - 0 1",
            "1r2k3/P1P5/8/8/8/8/1p1p4/R3K3 b - - 0 1",
            "Q3Q3/8/8/8/Q7/8/6k1/K7 w - - 0 1",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let roles = [
            None,
            Some(Role::Knight),
            Some(Role::Bishop),
            Some(Role::Rook),
            Some(Role::Queen),
            Some(Role::King),
        ];
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Rook),
            Some(Role::Bishop),
            Some(Role::Knight),
            Some(Role::King),
        ];
        let mut compared = 0u64;
        let mut found = [0u64; 3];
        for fen in fens {
            let mut b = board(fen);
            for _ in 0..12 {
                if !b.is_regular() {
                    break;
                }
                for to in 0..64u8 {
                    let to = Square::new(to);
                    for role in roles {
                        for (file, rank) in (0..17u8).map(|i| match i {
                            0 => (None, None),
                            1..=8 => (Some(i - 1), None),
                            _ => (None, Some(i - 9)),
                        }) {
                            for promotion in promotions {
                                let san = San::Normal {
                                    role,
                                    file,
                                    rank,
                                    to,
                                    promotion,
                                };
                                let got = b.resolve_san("x", san).map_err(|e| match e {
                                    MoveError::Ambiguous { .. } => "ambiguous",
                                    _ => "illegal",
                                });
                                let want = resolve_by_generation(&b, san);
                                assert_eq!(got, want, "{san:?} in {}", b.fen());
                                compared += 1;
                                found[match want {
                                    Ok(_) => 0,
                                    Err("ambiguous") => 1,
                                    Err(_) => 2,
                                }] += 1;
                            }
                        }
                    }
                }
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                b.play_unchecked(moves[next(moves.len())]);
            }
        }
        // The comparison saw every outcome, many times.
        assert!(compared > 500_000, "{compared}");
        assert!(found.iter().all(|&n| n > 50), "{found:?}");
    }
}
