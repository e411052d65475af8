//! python-chess's rules for reading moves, written independently of the core by brute force
//! over `legal_moves()`: the oracle both `tests/hostile_input.rs` (every `cargo test`) and the
//! cargo-fuzz targets in `fuzz/` check the core's SAN and UCI readers against. Included with
//! `#[path]` by both, so it exists once.

use pychess_core::{Board, Move, Role, San, Setup, Square, UciMove};

/// Is `uci` how python-chess's `is_legal` spells the legal move `m`? King-takes-rook for
/// castling always, the king's target square only in standard chess.
pub fn spells(board: &Board, uci: UciMove, m: Move) -> bool {
    uci.from == m.from
        && uci.promotion == m.promotion()
        && (uci.to == m.to
            || (m.is_castle() && !board.is_chess960() && uci.to == m.castle_king_target()))
}

/// Does `parse_uci` read `uci` as the legal move `m`? As [`spells`], plus python-chess's
/// `_to_chess960`: a king on e1/e8 sent to the g- or c-file castles with the corner rook
/// (any promotion letter dropped) unless a rook stands on the target.
pub fn uci_means(board: &Board, uci: UciMove, m: Move) -> bool {
    if spells(board, uci, m) {
        return true;
    }
    let corner = match uci.to.file() {
        6 => 7,
        2 => 0,
        _ => return false,
    };
    m.is_castle()
        && uci.from == m.from
        && m.from.file() == 4
        && uci.to.rank() == m.from.rank()
        && m.to == Square::from_coords(corner, m.from.rank())
        && board.role_at(uci.to) != Some(Role::Rook)
}

/// How python-chess's `parse_san` resolves a parsed SAN, by brute force over the legal moves:
/// the move, or "illegal" / "ambiguous".
pub fn reference_resolve(board: &Board, san: San) -> Result<Option<Move>, &'static str> {
    let legal = board.legal_moves();
    let legal = legal.as_slice();
    let (role, file, rank, to, promotion) = match san {
        San::Null => return Ok(None),
        San::Castle { king_side } => {
            return legal
                .iter()
                .find(|m| m.is_castle() && (m.to.file() > m.from.file()) == king_side)
                .map(|&m| Some(m))
                .ok_or("illegal");
        }
        San::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } => (role, file, rank, to, promotion),
    };
    if let (None, Some(file), Some(rank)) = (role, file, rank) {
        // Fully specified (`find_move`): any piece, a pawn reaching the back rank without a
        // promotion letter is taken to promote to a queen, and then must have said so.
        let from = Square::from_coords(file, rank);
        let pawn_to_backrank =
            board.role_at(from) == Some(Role::Pawn) && matches!(to.rank(), 0 | 7);
        let implied = match promotion {
            None if pawn_to_backrank => Some(Role::Queen),
            other => other,
        };
        let uci = UciMove {
            from,
            to,
            promotion: implied,
        };
        return match legal.iter().find(|&&m| spells(board, uci, m)) {
            Some(&m) if m.promotion() == promotion => Ok(Some(m)),
            _ => Err("illegal"),
        };
    }
    let fits = |m: &&Move| {
        !m.is_castle()
            && m.to == to
            && m.promotion() == promotion
            && fits(file, m.from.file())
            && fits(rank, m.from.rank())
            && match role {
                Some(role) => board.role_at(m.from) == Some(role),
                None => {
                    board.role_at(m.from) == Some(Role::Pawn)
                        && (file.is_some() || m.from.file() == to.file())
                }
            }
    };
    let mut candidates = legal.iter().filter(fits);
    match (candidates.next(), candidates.next()) {
        (Some(&m), None) => Ok(Some(m)),
        (Some(_), Some(_)) => Err("ambiguous"),
        (None, _) => Err("illegal"),
    }
}

/// The position without what `fen()` leaves out (an en-passant square no capture can use).
pub fn normalized(board: &Board) -> (Setup, bool) {
    let mut setup = board.to_setup();
    setup.ep_square = board.legal_ep_square();
    // A FEN shows promoted marks only on request.
    setup.promoted = pychess_core::Bitboard::EMPTY;
    (setup, board.is_chess960())
}

/// Does a coordinate the SAN may leave out (`None`) agree with the one the move has?
fn fits(given: Option<u8>, actual: u8) -> bool {
    match given {
        Some(wanted) => wanted == actual,
        None => true,
    }
}
