//! Static evaluation. (Material only until the tuned tapered evaluation lands.)

use pychess_core::{Board, Color, Role};

/// The position's value in centipawns from the side to move's point of view.
pub fn evaluate(board: &Board) -> i32 {
    const VALUES: [(Role, i32); 5] = [
        (Role::Pawn, 100),
        (Role::Knight, 300),
        (Role::Bishop, 300),
        (Role::Rook, 500),
        (Role::Queen, 900),
    ];
    let us = board.turn();
    let mut score = 0;
    for (role, value) in VALUES {
        let ours = board.pieces(us, role).count() as i32;
        let theirs = board.pieces(!us, role).count() as i32;
        score += value * (ours - theirs);
    }
    let _ = Color::White;
    score
}
