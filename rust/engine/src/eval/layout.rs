//! Where each evaluation term lives in the flat weight vector.
//!
//! Every term is one weight (an [`S`](super::S) pair) or a table of them, laid end to end.
//! [`GROUPS`] lists the tables in order with their names, which the tuner uses to write
//! `weights.rs` with one commented block per table.

/// One named table of weights inside the flat vector.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The constant naming the table's first index, e.g. `"PST"`.
    pub name: &'static str,
    /// Index of the table's first weight.
    pub start: usize,
    /// Number of weights in the table.
    pub len: usize,
    /// What the table counts (one line).
    pub doc: &'static str,
}

/// Declares consecutive tables: one `pub const NAME: usize` (the start index) each, plus
/// [`GROUPS`] and [`FEATURE_COUNT`], so an offset can never be miscounted by hand.
macro_rules! layout {
    ($($name:ident: $len:expr, $doc:literal;)*) => {
        layout!(@offsets 0usize; $($name: $len, $doc;)*);
        /// Every table, in layout order.
        pub const GROUPS: &[Group] = &[
            $(Group { name: stringify!($name), start: $name, len: $len, doc: $doc }),*
        ];
        /// Number of weights in the flat vector.
        pub const FEATURE_COUNT: usize = 0 $(+ $len)*;
    };
    (@offsets $offset:expr; $name:ident: $len:expr, $doc:literal; $($rest:tt)*) => {
        #[doc = $doc]
        pub const $name: usize = $offset;
        layout!(@offsets $name + $len; $($rest)*);
    };
    (@offsets $offset:expr;) => {};
}

layout! {
    MATERIAL: 5, "Material of pawn, knight, bishop, rook, queen.";
    PST: 6 * 32, "Piece-square tables, pawn..king, 32 squares each: rank from the owner's side times file a..d (files e..h mirror them).";
    MOBILITY_KNIGHT: 9, "Knight mobility: safe squares attacked (0..=8).";
    MOBILITY_BISHOP: 14, "Bishop mobility: safe squares attacked (0..=13).";
    MOBILITY_ROOK: 15, "Rook mobility: safe squares attacked (0..=14).";
    MOBILITY_QUEEN: 28, "Queen mobility: safe squares attacked (0..=27).";
    PASSED: 8, "Passed pawn, by relative rank.";
    PASSED_FREE: 8, "Passed pawn whose path to promotion is empty, by relative rank.";
    PASSED_OWN_KING: 8, "Passed pawn: times the own king's distance to its stop square, by relative rank.";
    PASSED_ENEMY_KING: 8, "Passed pawn: times the enemy king's distance to its stop square, by relative rank.";
    SUPPORTED: 8, "Pawn defended by an own pawn, by relative rank.";
    PHALANX: 8, "Pawn with an own pawn beside it, by relative rank.";
    DOUBLED: 1, "Pawn with an own pawn in front of it on its file.";
    ISOLATED: 1, "Pawn with no own pawn on a neighbouring file.";
    BACKWARD: 1, "Pawn behind its neighbours whose stop square an enemy pawn attacks.";
    KING_ZONE_ATTACKS: 4, "Attacks on the enemy king zone, per attacked square, by knight, bishop, rook, queen.";
    KING_ATTACKERS: 8, "Number of pieces attacking the enemy king zone (0..=7).";
    SAFE_CHECKS: 4, "Squares from which a knight, bishop, rook, queen could check the enemy king safely.";
    KING_SHIELD: 2, "Own pawn one / two ranks in front of the king on its file or a neighbour.";
    KING_OPEN_FILE: 1, "File at or beside the king with no own pawn in front of it.";
    BISHOP_PAIR: 1, "Two or more bishops.";
    ROOK_OPEN_FILE: 1, "Rook on a file with no pawns.";
    ROOK_SEMI_OPEN_FILE: 1, "Rook on a file with enemy pawns only.";
    THREAT_BY_PAWN: 1, "Enemy knight, bishop, rook or queen attacked by an own pawn.";
    THREAT_BY_MINOR: 1, "Enemy rook or queen attacked by an own knight or bishop.";
    THREAT_BY_ROOK: 1, "Enemy queen attacked by an own rook.";
    TEMPO: 1, "Side to move.";
}

/// The name of weight `index`, e.g. `PST[70]` for the 71st entry of the PST block.
pub fn feature_name(index: usize) -> Option<String> {
    GROUPS
        .iter()
        .find(|g| (g.start..g.start + g.len).contains(&index))
        .map(|g| {
            if g.len == 1 {
                g.name.to_string()
            } else {
                format!("{}[{}]", g.name, index - g.start)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_vector() {
        let mut next = 0;
        for group in GROUPS {
            assert_eq!(
                group.start, next,
                "{} starts where the previous ends",
                group.name
            );
            next += group.len;
        }
        assert_eq!(next, FEATURE_COUNT);
        assert_eq!(feature_name(PST + 32 + 3).as_deref(), Some("PST[35]"));
        assert_eq!(feature_name(TEMPO).as_deref(), Some("TEMPO"));
        assert_eq!(feature_name(FEATURE_COUNT), None);
    }
}
