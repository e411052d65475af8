//! FEN reading and writing, with X-FEN and Shredder-FEN castling fields for Chess960.
//!
//! Reading follows python-chess's `Board.set_fen` to the letter, so that a FEN is accepted
//! here exactly when python-chess accepts it (fields after the placement may be left out;
//! `0` as move number means 1), whatever position it describes: [`Board::status`] tells what
//! is wrong with one, and [`Board::from_fen_strict`] refuses those an engine cannot play.
//!
//! ```
//! use pychess_core::Board;
//! let board = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false).unwrap();
//! // No black pawn can take on e3, so the en-passant square is not written back.
//! assert_eq!(board.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! assert!(Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", false).is_err());
//! // A position without kings is well formed: accepted, but not by the strict reader.
//! assert!(Board::from_fen("8/8/8/8/8/8/8/8 w - - 0 1", false).is_ok());
//! assert!(Board::from_fen_strict("8/8/8/8/8/8/8/8 w - - 0 1", false).is_err());
//! ```

use crate::board::{Board, Setup, MAX_CLOCK};
use crate::compat::{parse_py_int, py_repr, py_split};
use crate::error::{FenError, FenErrorKind};
use crate::types::{Bitboard, Color, Piece, Role, Square};

/// Which en-passant square a written FEN shows (python-chess's `en_passant` argument).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EpMode {
    /// Only when an en-passant capture is legal (python-chess's default).
    Legal,
    /// Whenever a double step just happened.
    Always,
    /// When a pawn stands ready to capture, legal or not (X-FEN).
    PseudoLegal,
}

fn parse_clock(text: &str, which: &'static str) -> Result<u64, FenErrorKind> {
    let error = |why| FenErrorKind::Clock {
        which,
        text: text.to_string(),
        why,
    };
    let value = parse_py_int(text).map_err(error)?;
    if value < 0 {
        return Err(error("cannot be negative"));
    }
    // Saturate here; `check_clock` refuses it once the position itself has been checked.
    Ok(u64::try_from(value).unwrap_or(u64::MAX))
}

/// Clocks too large to play on with: checked after the position itself, so that an illegal
/// position is reported as such whatever its clocks say.
fn check_clock(value: u64, which: &'static str) -> Result<(), FenErrorKind> {
    if value > MAX_CLOCK {
        let why = "is too large (at most 18446744073709551614)";
        return Err(FenErrorKind::Clock {
            which,
            text: value.to_string(),
            why,
        });
    }
    Ok(())
}

/// A piece letter as python-chess reads it (`c.lower() in "pnbrqk"`, colour by `isupper()`).
fn piece_from_char(c: char) -> Option<Piece> {
    if c.is_ascii() {
        return Piece::from_char(c);
    }
    let mut lower = c.to_lowercase();
    let (Some(l), None) = (lower.next(), lower.next()) else {
        return None;
    };
    let role = Role::from_char(l)?;
    Some(Piece {
        color: Color::from_white(c.is_uppercase()),
        role,
    })
}

/// Parses the placement field into `setup`.
/// FEN piece letters by ASCII code.
static PIECE_BY_BYTE: [Option<Piece>; 128] = {
    let mut table = [None; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = Piece::from_char(b as u8 as char);
        b += 1;
    }
    table
};

/// The common case, an ASCII placement without errors or `~`, in one pass over bytes.
/// Returns `false` (with `setup` untouched) for anything else, which the general parser
/// then handles and, if need be, explains.
fn parse_placement_fast(part: &[u8], setup: &mut Setup) -> bool {
    let mut by_role = [Bitboard::EMPTY; 6];
    let mut by_color = [Bitboard::EMPTY; 2];
    let (mut rank, mut file) = (7u8, 0u8);
    let mut previous_was_digit = false;
    for &b in part {
        match b {
            b'/' => {
                if file != 8 || rank == 0 {
                    return false;
                }
                rank -= 1;
                file = 0;
                previous_was_digit = false;
            }
            b'1'..=b'8' => {
                file += b - b'0';
                if previous_was_digit || file > 8 {
                    return false;
                }
                previous_was_digit = true;
            }
            _ => {
                let Some(piece) = PIECE_BY_BYTE[usize::from(b & 0x7f)] else {
                    return false;
                };
                if file >= 8 {
                    return false;
                }
                let sq = Square::from_coords(file, rank);
                by_role[piece.role.index()] = by_role[piece.role.index()].with(sq);
                by_color[piece.color.index()] = by_color[piece.color.index()].with(sq);
                file += 1;
                previous_was_digit = false;
            }
        }
    }
    if rank != 0 || file != 8 {
        return false;
    }
    setup.by_role = by_role;
    setup.by_color = by_color;
    true
}

fn parse_placement(part: &str, setup: &mut Setup) -> Result<(), String> {
    if parse_placement_fast(part.as_bytes(), setup) {
        return Ok(());
    }
    let rows = part.bytes().filter(|&b| b == b'/').count() + 1;
    if rows != 8 {
        return Err(format!("expected 8 rows in the placement, got {rows}"));
    }
    for (i, row) in part.split('/').enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u32;
        let mut previous_was_digit = false;
        let mut previous_was_piece = false;
        for c in row.chars() {
            if let Some(piece) = piece_from_char(c) {
                if file < 8 {
                    setup.put(Square::from_coords(file as u8, rank), piece);
                }
                file += 1;
                previous_was_digit = false;
                previous_was_piece = true;
            } else if ('1'..='8').contains(&c) {
                if previous_was_digit {
                    return Err(format!(
                        "two digits in a row in rank {}: {}",
                        rank + 1,
                        py_repr(row)
                    ));
                }
                file += c as u32 - '0' as u32;
                previous_was_digit = true;
                previous_was_piece = false;
            } else if c == '~' {
                if !previous_was_piece {
                    return Err(format!(
                        "'~' not after a piece in rank {}: {}",
                        rank + 1,
                        py_repr(row)
                    ));
                }
                if (1..=8).contains(&file) {
                    setup.promoted = setup
                        .promoted
                        .with(Square::from_coords(file as u8 - 1, rank));
                }
                previous_was_digit = false;
                previous_was_piece = false;
            } else {
                return Err(format!(
                    "invalid character {} in the placement",
                    py_repr(&c.to_string())
                ));
            }
        }
        if file != 8 {
            return Err(format!(
                "expected 8 squares in rank {}, got {file}: {}",
                rank + 1,
                py_repr(row)
            ));
        }
    }
    Ok(())
}

/// Does the castling field match python-chess's `^(?:-|[KQA-H]{0,2}[kqa-h]{0,2})\Z`?
fn castling_field_is_well_formed(field: &str) -> bool {
    if field == "-" {
        return true;
    }
    let upper = field
        .chars()
        .take_while(|c| matches!(c, 'K' | 'Q' | 'A'..='H'))
        .count();
    let rest = &field[upper..];
    let lower = rest
        .chars()
        .take_while(|c| matches!(c, 'k' | 'q' | 'a'..='h'))
        .count();
    upper <= 2 && lower <= 2 && lower == rest.len()
}

/// Turns castling letters into rook squares the way python-chess's `_set_castling_fen`
/// does, quirks included (an unmatched `K` names h1, so validation rejects it).
fn resolve_castling(field: &str, setup: &Setup) -> Bitboard {
    let mut rights = Bitboard::EMPTY;
    if field == "-" {
        return rights;
    }
    let per_color = Color::ALL.map(|color| {
        let backrank = Bitboard::rank(color.back_rank());
        (
            setup.squares_of(color, Role::Rook) & backrank,
            (setup.squares_of(color, Role::King) & !setup.promoted).last(),
        )
    });
    for flag in field.chars() {
        let color = Color::from_white(flag.is_ascii_uppercase());
        let rank = color.back_rank();
        let (rooks, king) = per_color[color.index()];
        match flag.to_ascii_lowercase() {
            'q' => match (king, rooks.first()) {
                (Some(king), Some(rook)) if rook < king => rights = rights.with(rook),
                // python-chess compares lsb(0) == -1 with the king, so no rook adds nothing.
                (Some(_), None) => {}
                _ => rights = rights.with(Square::from_coords(0, rank)),
            },
            'k' => match (king, rooks.last()) {
                (Some(king), Some(rook)) if king < rook => rights = rights.with(rook),
                _ => rights = rights.with(Square::from_coords(7, rank)),
            },
            file => rights = rights.with(Square::from_coords(file as u8 - b'a', rank)),
        }
    }
    rights
}

/// Reads a castling field against `setup`'s placement as python-chess's `set_castling_fen`
/// does (`None` if the field is malformed; an empty field means no rights).
pub fn parse_castling_field(field: &str, setup: &Setup) -> Option<Bitboard> {
    if field.is_empty() {
        return Some(Bitboard::EMPTY);
    }
    castling_field_is_well_formed(field).then(|| resolve_castling(field, setup))
}

/// Parses a FEN into an unvalidated [`Setup`]. Missing trailing fields take python-chess's
/// defaults (`w - - 0 1`).
pub fn parse_fen(fen: &str) -> Result<Setup, FenError> {
    let error = |kind| FenError {
        fen: fen.to_string(),
        kind,
    };
    let mut fields = [""; 6];
    let mut count = 0;
    for part in py_split(fen) {
        if count < 6 {
            fields[count] = part;
        }
        count += 1;
    }
    let parts = &fields[..count.min(6)];
    let mut setup = Setup::empty();
    let Some(placement) = parts.first() else {
        return Err(error(FenErrorKind::Empty));
    };
    if let Some(&turn) = parts.get(1) {
        setup.turn = match turn {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(error(FenErrorKind::Turn(turn.to_string()))),
        };
    }
    let castling = parts.get(2).copied().unwrap_or("-");
    if !castling_field_is_well_formed(castling) {
        return Err(error(FenErrorKind::Castling(castling.to_string())));
    }
    if let Some(&ep) = parts.get(3) {
        if ep != "-" {
            let sq =
                Square::parse(ep).ok_or_else(|| error(FenErrorKind::EpSquare(ep.to_string())))?;
            setup.ep_square = Some(sq);
        }
    }
    if let Some(&half) = parts.get(4) {
        setup.halfmove_clock = parse_clock(half, "half-move clock").map_err(error)?;
    }
    if let Some(&full) = parts.get(5) {
        setup.fullmove_number = parse_clock(full, "fullmove number").map_err(error)?.max(1);
    }
    if count > 6 {
        return Err(error(FenErrorKind::TooManyFields(count)));
    }
    parse_placement(placement, &mut setup).map_err(|why| error(FenErrorKind::Placement(why)))?;
    setup.castling = resolve_castling(castling, &setup);
    Ok(setup)
}

impl Board {
    /// Parses a FEN, as python-chess's `Board(fen)` does: any well-formed FEN is accepted,
    /// whatever position it describes.
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Board, FenError> {
        let setup = parse_fen(fen)?;
        let error = |kind| FenError {
            fen: fen.to_string(),
            kind,
        };
        check_clock(setup.halfmove_clock, "half-move clock").map_err(error)?;
        check_clock(setup.fullmove_number, "fullmove number").map_err(error)?;
        Ok(Board::from_setup_unchecked(&setup, chess960))
    }

    /// Parses a FEN and accepts only regular positions (one king each, no pawns on the back
    /// ranks, clean castling rights, a plausible en-passant square, the side not to move not
    /// in check): what an engine can search.
    pub fn from_fen_strict(fen: &str, chess960: bool) -> Result<Board, FenError> {
        let setup = parse_fen(fen)?;
        let error = |kind| FenError {
            fen: fen.to_string(),
            kind,
        };
        let board =
            Board::from_setup(&setup, chess960).map_err(|p| error(FenErrorKind::Position(p)))?;
        check_clock(setup.halfmove_clock, "half-move clock").map_err(error)?;
        check_clock(setup.fullmove_number, "fullmove number").map_err(error)?;
        Ok(board)
    }

    /// The placement field, e.g. `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`.
    pub fn board_fen(&self) -> String {
        self.board_fen_with(false)
    }

    /// The placement field, with `~` after promoted pieces when `promoted` (python-chess's
    /// `board_fen(promoted=True)`).
    pub fn board_fen_with(&self, promoted: bool) -> String {
        let mut out = String::with_capacity(72);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.char());
                        if promoted && self.promoted().contains(Square::from_coords(file, rank)) {
                            out.push('~');
                        }
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The castling field: X-FEN (`KQkq`, with file letters where `K`/`Q` would be unclear)
    /// or Shredder-FEN (rook files, `HAha`).
    pub fn castling_fen(&self, shredder: bool) -> String {
        let clean = self.clean_castling_rights();
        let mut out = String::new();
        for color in Color::ALL {
            let backrank = Bitboard::rank(color.back_rank());
            let rights = clean & backrank;
            // python-chess writes X-FEN letters only for a side with a king.
            let king = match self.king(color) {
                Some(king) => king,
                None if shredder => Square::from_coords(0, 0),
                None => continue,
            };
            let rooks = self.pieces(color, Role::Rook) & backrank;
            for rook in rights.collect::<Vec<_>>().into_iter().rev() {
                let file_letter = rook.file_char();
                let letter = if shredder {
                    file_letter
                } else {
                    let a_side = rook.file() < king.file();
                    let outer_rook = rooks
                        .without(rook)
                        .any(|other| (other.file() < rook.file()) == a_side);
                    if outer_rook {
                        file_letter
                    } else if a_side {
                        'q'
                    } else {
                        'k'
                    }
                };
                out.push(if color.is_white() {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// The en-passant square to write under `mode`.
    pub fn ep_square_for(&self, mode: EpMode) -> Option<Square> {
        match mode {
            EpMode::Legal => self.legal_ep_square(),
            EpMode::Always => self.ep_square(),
            EpMode::PseudoLegal if self.is_regular() => self
                .ep_square()
                .filter(|&ep| self.ep_capturers(ep).nonempty()),
            EpMode::PseudoLegal => self.ep_square().filter(|_| {
                !self
                    .pseudo_legal_ep_moves(Bitboard::FULL, Bitboard::FULL)
                    .is_empty()
            }),
        }
    }

    /// The first four FEN fields (python-chess's `epd()` without operations).
    pub fn epd_with(&self, shredder: bool, mode: EpMode) -> String {
        let ep = match self.ep_square_for(mode) {
            Some(sq) => sq.to_string(),
            None => "-".to_string(),
        };
        format!(
            "{} {} {} {}",
            self.board_fen(),
            if self.turn().is_white() { 'w' } else { 'b' },
            self.castling_fen(shredder),
            ep
        )
    }

    /// The full FEN with the given castling style and en-passant mode.
    pub fn fen_with(&self, shredder: bool, mode: EpMode) -> String {
        format!(
            "{} {} {}",
            self.epd_with(shredder, mode),
            self.halfmove_clock(),
            self.fullmove_number()
        )
    }

    /// The FEN as python-chess's `fen()` writes it by default.
    pub fn fen(&self) -> String {
        self.fen_with(false, EpMode::Legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn round_trips() {
        for fen in [
            START,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K1k5 b - - 99 120",
        ] {
            assert_eq!(Board::from_fen(fen, false).unwrap().fen(), fen);
        }
    }

    #[test]
    fn missing_fields_take_defaults() {
        let board = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", false).unwrap();
        assert_eq!(
            board.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
    }

    #[test]
    fn chess960_castling_fields() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let board = Board::from_fen(fen, true).unwrap();
        assert_eq!(board.castling_fen(true), "HFhf");
        // f1 is the only a-side rook and h1 the only h-side one, so X-FEN says KQkq.
        assert_eq!(board.castling_fen(false), "KQkq");
        assert_eq!(Board::from_fen(&board.fen(), true).unwrap(), board);
    }

    #[test]
    fn python_int_clocks() {
        assert!(Board::from_fen("8/8/8/8/8/8/8/K1k5 w - - \u{663} 1", false).is_ok());
        assert!(Board::from_fen("8/8/8/8/8/8/8/K1k5 w - - 1_0 1", false).is_ok());
        assert!(Board::from_fen("8/8/8/8/8/8/8/K1k5 w - - 1__0 1", false).is_err());
        assert!(Board::from_fen("8/8/8/8/8/8/8/K1k5 w - - -1 1", false).is_err());
        assert!(Board::from_fen("8/8/8/8/8/8/8/K1k5 w - - 99999999999999999999 1", false).is_err());
    }

    #[test]
    fn rejections_name_their_reason() {
        let cases = [
            ("", "empty"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 rows"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
                "8 squares",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                "invalid character",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1",
                "castling",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                "en-passant",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                "half-move",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1",
                "negative",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
                "at most 6",
            ),
            (
                "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
                "no black king",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",
                "more than one white king",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1",
                "back rank",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1",
                "castling rights",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                "en-passant square e6",
            ),
            (
                "rnbqkbnr/ppppQppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
                "not to move is in check",
            ),
        ];
        for (fen, needle) in cases {
            let err = Board::from_fen_strict(fen, false).unwrap_err().to_string();
            assert!(err.contains(needle), "{fen}: {err}");
            assert!(err.contains(fen), "{err}");
            // python-chess raises only for malformed FENs; well-formed ones are boards.
            let malformed = Board::from_fen(fen, false).is_err();
            let position = err.contains("king")
                || err.contains("rank (")
                || err.contains("rights")
                || err.contains("does not follow")
                || err.contains("in check");
            assert_eq!(malformed, !position, "{fen}: {err}");
        }
    }
}
