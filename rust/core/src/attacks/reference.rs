// The slow, obviously-correct attack generators. They are `include!`d by `build.rs`, which
// uses them to fill the magic tables, and compiled as a module, where they build the step
// tables at compile time and serve as the oracle the fast lookups are tested against.
// Plain `u64`s only: this file must compile without the rest of the crate.

/// (file, rank) steps of a rook.
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// (file, rank) steps of a bishop.
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// (file, rank) jumps of a knight.
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// (file, rank) steps of a king.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The square index after one step, or -1 when the step leaves the board.
const fn step(square: u32, (df, dr): (i8, i8)) -> i32 {
    let file = (square % 8) as i32 + df as i32;
    let rank = (square / 8) as i32 + dr as i32;
    if file < 0 || file > 7 || rank < 0 || rank > 7 {
        -1
    } else {
        rank * 8 + file
    }
}

/// Squares reached by single steps (knight, king, pawn captures).
pub const fn step_attacks(square: u32, steps: &[(i8, i8)]) -> u64 {
    let mut attacks = 0;
    let mut i = 0;
    while i < steps.len() {
        let target = step(square, steps[i]);
        if target >= 0 {
            attacks |= 1 << target;
        }
        i += 1;
    }
    attacks
}

/// Squares a slider on `square` attacks along `directions`, stopping at (and including) the
/// first occupied square of each ray.
pub const fn slider_attacks(square: u32, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let mut current = square as i32;
        loop {
            let next = step(current as u32, directions[d]);
            if next < 0 {
                break;
            }
            attacks |= 1 << next;
            if occupied & (1 << next) != 0 {
                break;
            }
            current = next;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy changes a slider's attacks: each ray without its last square.
pub const fn relevant_occupancy(square: u32, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let mut current = square as i32;
        loop {
            let next = step(current as u32, directions[d]);
            if next < 0 || step(next as u32, directions[d]) < 0 {
                break;
            }
            mask |= 1 << next;
            current = next;
        }
        d += 1;
    }
    mask
}
