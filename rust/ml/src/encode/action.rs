//! The 8x8x73 = 4,672 move index of AlphaZero, numbered exactly as PettingZoo's `chess_v6`
//! numbers it.
//!
//! A move is first seen from the mover's side: for Black every square is mirrored
//! vertically (`a7` becomes `a2`, files stay), as python-chess's `Board.mirror()` does, so a
//! move always goes "up" the board for the side that plays it. Castling is the move as
//! python-chess writes it in UCI (`e1g1` in standard chess, king-takes-rook in Chess960).
//! Then, with `file`/`rank` the mover's-view origin square and `(dx, dy)` the file/rank
//! difference to the destination:
//!
//! * planes 0..56, queen-like moves: `(distance - 1) * 8 + direction`, with the directions
//!   numbered `(dx, dy)` = (-1,-1), (-1,0), (-1,+1), (0,-1), (0,+1), (+1,-1), (+1,0), (+1,+1)
//!   (signs of `dx` and `dy`). Queen promotions are queen-like moves.
//! * planes 56..64, knight moves: `(dx, dy)` = (-2,-1), (-2,+1), (-1,-2), (-1,+2), (+1,-2),
//!   (+1,+2), (+2,-1), (+2,+1).
//! * planes 64..73, under-promotions: `64 + 3 * (dx + 1) + k`, `k` = 0 knight, 1 bishop,
//!   2 rook.
//!
//! and `action = (file * 8 + rank) * 73 + plane`: the flat index of a `(8, 8, 73)` array
//! whose first axis is the *file* and second the *rank* (PettingZoo's `square_to_coord`).

use super::view_square;
use pychess_core::{Board, Color, Move, Role, Square, UciMove};

/// The number of actions: 8 x 8 origin squares x 73 move planes.
pub const ACTIONS: usize = 4672;

/// Move planes per origin square.
pub const ACTION_PLANES: usize = 73;

const QUEEN_DIRECTIONS: [(i8, i8); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];

const UNDER_PROMOTIONS: [Role; 3] = [Role::Knight, Role::Bishop, Role::Rook];

/// The plane of a move from the mover's view, if the move has one of the 73 shapes.
fn plane_of(dx: i8, dy: i8, promotion: Option<Role>) -> Option<usize> {
    if let Some(role) = promotion.filter(|&r| r != Role::Queen) {
        let kind = UNDER_PROMOTIONS.iter().position(|&r| r == role)?;
        return (dy == 1 && (-1..=1).contains(&dx)).then(|| 64 + 3 * (dx + 1) as usize + kind);
    }
    let plane = SHAPE_PLANES[shape_index(dx, dy)?];
    // A knight's jump has no promotion (PettingZoo tests the knight shape first).
    match plane {
        NO_PLANE => None,
        56.. if promotion.is_some() => None,
        plane => Some(usize::from(plane)),
    }
}

/// Where `(dx, dy)` sits in [`SHAPE_PLANES`], if both are in -7..=7.
#[inline]
fn shape_index(dx: i8, dy: i8) -> Option<usize> {
    let (x, y) = (dx + 7, dy + 7);
    ((0..15).contains(&x) && (0..15).contains(&y)).then(|| y as usize * 15 + x as usize)
}

/// No queen-like or knight plane for this shape.
const NO_PLANE: u8 = u8::MAX;

/// The plane of every `(dx, dy)` move shape that is not an under-promotion, at
/// `(dy + 7) * 15 + dx + 7`: knight jumps 56..=63, queen-like moves
/// `(distance - 1) * 8 + direction`, [`NO_PLANE`] for the others. Built once at compile time
/// from the two shape lists, so a move's action is one lookup.
const SHAPE_PLANES: [u8; 225] = shape_planes();

const fn shape_planes() -> [u8; 225] {
    let mut table = [NO_PLANE; 225];
    let mut k = 0;
    while k < 8 {
        let (x, y) = KNIGHT_JUMPS[k];
        table[(y + 7) as usize * 15 + (x + 7) as usize] = 56 + k as u8;
        let (sx, sy) = QUEEN_DIRECTIONS[k];
        let mut distance = 1;
        while distance <= 7 {
            let (x, y) = (sx * distance, sy * distance);
            table[(y + 7) as usize * 15 + (x + 7) as usize] = ((distance - 1) * 8) as u8 + k as u8;
            distance += 1;
        }
        k += 1;
    }
    table
}

/// The action of a move given as python-chess writes it in UCI, played by `mover`, if the
/// move has one of the 73 shapes (every legal chess move has).
pub fn action_of_uci(mover: Color, uci: UciMove) -> Option<usize> {
    let from = view_square(uci.from, mover);
    let to = view_square(uci.to, mover);
    let dx = to.file() as i8 - from.file() as i8;
    let dy = to.rank() as i8 - from.rank() as i8;
    let plane = plane_of(dx, dy, uci.promotion)?;
    Some((from.file() as usize * 8 + from.rank() as usize) * ACTION_PLANES + plane)
}

/// The action of the move `m` in `board`, or `None` for a move no action stands for (the
/// null move, or a shape no legal move has).
pub fn try_action_of(board: &Board, m: Move) -> Option<usize> {
    if m.is_null() {
        return None;
    }
    action_of_uci(board.turn(), board.uci(m))
}

/// The action (`0..ACTIONS`) of the legal move `m` of `board`, from the mover's view.
///
/// A move that no action stands for (the null move) gives `ACTIONS`, one past the last
/// action, so that `action < ACTIONS` tells; [`try_action_of`] says it with an `Option`.
pub fn action_of(board: &Board, m: Move) -> usize {
    try_action_of(board, m).unwrap_or(ACTIONS)
}

/// The origin, destination and under-promotion an action stands for, from the mover's view,
/// if the destination is on the board.
fn decode(action: usize) -> Option<(Square, Square, Option<Role>)> {
    if action >= ACTIONS {
        return None;
    }
    let plane = action % ACTION_PLANES;
    let origin = action / ACTION_PLANES;
    let from = Square::from_coords((origin / 8) as u8, (origin % 8) as u8);
    let (dx, dy, promotion) = match plane {
        0..=55 => {
            let (x, y) = QUEEN_DIRECTIONS[plane % 8];
            let distance = (plane / 8 + 1) as i8;
            (x * distance, y * distance, None)
        }
        56..=63 => {
            let (x, y) = KNIGHT_JUMPS[plane - 56];
            (x, y, None)
        }
        _ => {
            let k = plane - 64;
            (k as i8 / 3 - 1, 1, Some(UNDER_PROMOTIONS[k % 3]))
        }
    };
    let file = from.file() as i8 + dx;
    let rank = from.rank() as i8 + dy;
    if !(0..8).contains(&file) || !(0..8).contains(&rank) {
        return None;
    }
    Some((from, Square::from_coords(file as u8, rank as u8), promotion))
}

/// The legal move of `board` that `action` stands for, or `None` if no legal move has that
/// action (including actions out of range).
///
/// A queen-like action of a pawn to the last rank is its queen promotion, as in PettingZoo.
/// `move_of(board, action_of(board, m)) == Some(m)` for every legal move `m`.
pub fn move_of(board: &Board, action: usize) -> Option<Move> {
    let (from, to, under) = decode(action)?;
    let mover = board.turn();
    let from = view_square(from, mover);
    let to = view_square(to, mover);
    let pawn_to_last_rank = board.role_at(from) == Some(Role::Pawn)
        && board.color_at(from) == Some(mover)
        && to.rank() == (!mover).back_rank();
    let promotion = under.or(pawn_to_last_rank.then_some(Role::Queen));
    let wanted = UciMove {
        from,
        to,
        promotion,
    };
    let candidates = board.legal_moves_masked(
        pychess_core::Bitboard::from_square(from),
        pychess_core::Bitboard::FULL,
    );
    candidates
        .as_slice()
        .iter()
        .copied()
        .find(|&m| board.uci(m) == wanted)
}

/// Writes the legal-action mask of `board` into `mask`: 1 at the action of every legal move,
/// 0 elsewhere.
///
/// # Panics
/// If `mask` is not `ACTIONS` long.
pub fn legal_action_mask(board: &Board, mask: &mut [u8]) {
    assert_eq!(mask.len(), ACTIONS, "an action mask has ACTIONS entries");
    mask.fill(0);
    mark_moves(board, board.legal_moves().as_slice(), mask);
}

/// Sets the mask entry of each of `moves` (moves of `board`) to 1.
pub(crate) fn mark_moves(board: &Board, moves: &[Move], mask: &mut [u8]) {
    for &m in moves {
        if let Some(action) = try_action_of(board, m) {
            mask[action] = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::{Game, Setup};

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    /// The plane found by searching the shape lists, as written before the lookup table.
    fn reference_plane_of(dx: i8, dy: i8, promotion: Option<Role>) -> Option<usize> {
        if let Some(jump) = KNIGHT_JUMPS.iter().position(|&j| j == (dx, dy)) {
            return promotion.is_none().then_some(56 + jump);
        }
        if let Some(role) = promotion.filter(|&r| r != Role::Queen) {
            let kind = UNDER_PROMOTIONS.iter().position(|&r| r == role)?;
            return (dy == 1 && (-1..=1).contains(&dx)).then(|| 64 + 3 * (dx + 1) as usize + kind);
        }
        let distance = dx.abs().max(dy.abs());
        let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
        if distance == 0 || !straight {
            return None;
        }
        let direction = QUEEN_DIRECTIONS
            .iter()
            .position(|&d| d == (dx.signum(), dy.signum()))?;
        Some((distance as usize - 1) * 8 + direction)
    }

    #[test]
    fn the_shape_table_equals_the_shape_lists() {
        let promotions = [
            None,
            Some(Role::Queen),
            Some(Role::Knight),
            Some(Role::Bishop),
        ];
        // Every shape two squares of a board can make.
        for dx in -7..=7 {
            for dy in -7..=7 {
                for promotion in promotions
                    .into_iter()
                    .chain([Some(Role::Rook), Some(Role::King)])
                {
                    assert_eq!(
                        plane_of(dx, dy, promotion),
                        reference_plane_of(dx, dy, promotion),
                        "({dx}, {dy}) {promotion:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn documented_examples() {
        let start = Board::default();
        let find = |b: &Board, text: &str| {
            let uci = UciMove::parse(text).unwrap();
            *b.legal_moves()
                .as_slice()
                .iter()
                .find(|&&m| b.uci(m) == uci)
                .unwrap()
        };
        // e2e4: file 4, rank 1, north (0,+1) = direction 4, distance 2: plane 12.
        assert_eq!(
            action_of(&start, find(&start, "e2e4")),
            (4 * 8 + 1) * 73 + 12
        );
        // g1f3: knight (-1,+2) is jump 3.
        assert_eq!(
            action_of(&start, find(&start, "g1f3")),
            (6 * 8) * 73 + 56 + 3
        );
        // After 1. e4, Black's e7e5 is seen mirrored: e2e4 again.
        let after = start.after(find(&start, "e2e4"));
        assert_eq!(
            action_of(&after, find(&after, "e7e5")),
            (4 * 8 + 1) * 73 + 12
        );
    }

    #[test]
    fn promotions_and_castling() {
        let b = board("r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 1");
        let mut seen = 0;
        for &m in b.legal_moves().as_slice() {
            let a = action_of(&b, m);
            assert!(a < ACTIONS);
            assert_eq!(move_of(&b, a), Some(m));
            seen += 1;
        }
        assert!(seen > 20);
        // Black's g2g1n mirrors to g7g8n: under-promotion straight ahead to a knight.
        let under = UciMove::parse("g2g1n").unwrap();
        assert_eq!(
            action_of_uci(Color::Black, under),
            Some((6 * 8 + 6) * 73 + 64 + 3)
        );
        // Castling e8c8 mirrors to e1c1: west (-1,0) = direction 1, distance 2.
        let castle = UciMove::parse("e8c8").unwrap();
        assert_eq!(
            action_of_uci(Color::Black, castle),
            Some(4 * 8 * 73 + 8 + 1)
        );
    }

    #[test]
    fn every_action_is_either_a_legal_move_or_none() {
        let mut game = Game::default();
        for text in [
            "e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2",
        ] {
            game.push_uci(UciMove::parse(text).unwrap()).unwrap();
        }
        let b = game.board().clone();
        let mut mask = vec![0u8; ACTIONS];
        legal_action_mask(&b, &mut mask);
        let mut found = 0;
        for (a, &marked) in mask.iter().enumerate() {
            match move_of(&b, a) {
                Some(m) => {
                    assert_eq!(marked, 1);
                    assert_eq!(action_of(&b, m), a);
                    found += 1;
                }
                None => assert_eq!(marked, 0),
            }
        }
        assert_eq!(found, b.legal_moves().as_slice().len());
        assert_eq!(move_of(&b, ACTIONS), None);
        assert_eq!(move_of(&b, usize::MAX), None);
        assert_eq!(action_of(&b, Move::NULL), ACTIONS);
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let setup = Setup::standard();
        let mut b = Board::from_setup(&setup, true).unwrap();
        b = b.after(
            *b.legal_moves()
                .as_slice()
                .iter()
                .find(|&&m| b.uci(m) == UciMove::parse("g1f3").unwrap())
                .unwrap(),
        );
        for &m in b.legal_moves().as_slice() {
            assert_eq!(move_of(&b, action_of(&b, m)), Some(m));
        }
    }
}
