//! Every search tunable in one place.
//!
//! Naming glossary (the words the constants below are built from):
//! - `*_MARGIN`: a score distance in centipawns, usually multiplied by the remaining depth
//!   ("prune when the static evaluation is this far beyond the bound").
//! - `*_THRESHOLD`: a value a quantity must reach before a technique applies.
//! - `*_LOWER_LIMIT` / `*_UPPER_LIMIT`: the depth (plies) range in which a technique applies.
//! - `*_FACTOR` / `*_DIVISOR`: scale factors of a formula, fixed point where named so.
//! - `*_BONUS` / `*_MALUS`: history or ordering increments.
//!
//! Score constants: `MATE` is the score of delivering mate at the root; a mate found `n` plies
//! from the root scores `MATE - n`, so every score at or beyond `MATE_BOUND` (in absolute
//! value) is a mate score. `INFINITY` is outside every real score.
//!
//! Strength limiting has its own table (`ELO_FOR_SKILL`) in `skill.rs`.
//!
//! Provenance: hand-set starting values (November 2026) from common published practice.
//! Some have since been matched against a changed value and kept (`RAZOR_MARGIN`,
//! `DEFAULT_MOVES_TO_GO`: `rust/engine/TUNING.md` records each test); a change here must be
//! accepted by an SPRT match and quote `bench`.

/// The deepest ply the search reaches (stacks are sized by it).
pub const MAX_PLY: usize = 128;
/// Deepest iterative-deepening depth.
pub const MAX_DEPTH: i32 = 100;

/// Mate at the root (see the glossary).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Above every score.
pub const INFINITY: i32 = MATE + 1;
/// The score of a drawn position.
pub const DRAW: i32 = 0;

/// Piece values for move ordering, SEE and delta pruning (pawn, knight, bishop, rook, queen,
/// king), indexed by `Role::index`.
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Aspiration windows start at this depth ...
pub const ASPIRATION_LOWER_LIMIT: i32 = 4;
/// ... with this half-width around the previous score ...
pub const ASPIRATION_MARGIN: i32 = 20;
/// ... and widen by this factor (in 1/16ths) after each fail.
pub const ASPIRATION_WIDEN_FACTOR: i32 = 24;

/// Reverse futility pruning applies up to this depth ...
pub const RFP_UPPER_LIMIT: i32 = 8;
/// ... when the static eval beats beta by this much per ply.
pub const RFP_MARGIN: i32 = 75;

/// Razoring applies up to this depth ...
pub const RAZOR_UPPER_LIMIT: i32 = 3;
/// ... when the eval is this far below alpha per ply: a quiescence search decides the node.
pub const RAZOR_MARGIN: i32 = 250;

/// Null-move pruning applies from this depth.
pub const NMP_LOWER_LIMIT: i32 = 3;
/// Base reduction of the null-move search.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// One more ply of reduction per this many centipawns of eval above beta (at most 3).
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// Internal iterative reduction: without a TT move, reduce nodes this deep by one ply.
pub const IIR_LOWER_LIMIT: i32 = 4;

/// Late move reductions apply from this depth ...
pub const LMR_LOWER_LIMIT: i32 = 3;
/// ... to moves after this many (plus one at PV nodes).
pub const LMR_MOVE_THRESHOLD: usize = 2;
/// Base of the reduction table, in 1/100 plies.
pub const LMR_BASE: f64 = 0.75;
/// Divisor of ln(depth)·ln(moves) in the reduction table.
pub const LMR_DIVISOR: f64 = 2.25;
/// History score (butterfly plus continuation) worth one ply less (or more) reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 12_288;

/// At the root, late quiet moves after this many are reduced ...
pub const ROOT_LMR_MOVE_THRESHOLD: usize = 3;
/// ... by one ply less than the table says.
pub const ROOT_LMR_RELIEF: i32 = 1;

/// Moves picked best-first one at a time before the rest of the list is sorted at once.
pub const PICK_ONE_BY_ONE: usize = 3;

/// Lazy SMP: odd-numbered helper threads go two plies at a time from this depth, so the
/// helpers do not all search the main thread's depth.
pub const HELPER_SKIP_LOWER_LIMIT: i32 = 3;

/// Late move pruning applies up to this depth: quiet moves beyond
/// `LMP_BASE + depth * depth` (halved when not improving) are skipped.
pub const LMP_UPPER_LIMIT: i32 = 8;
/// See [`LMP_UPPER_LIMIT`].
pub const LMP_BASE: usize = 3;

/// Futility pruning of quiet moves applies up to this depth ...
pub const FP_UPPER_LIMIT: i32 = 8;
/// ... when static eval + base + margin·depth cannot reach alpha.
pub const FP_BASE: i32 = 90;
/// See [`FP_BASE`].
pub const FP_MARGIN: i32 = 100;

/// SEE pruning in the main search applies up to this depth ...
pub const SEE_PRUNE_UPPER_LIMIT: i32 = 8;
/// ... to quiet moves losing more than this per ply ...
pub const SEE_QUIET_MARGIN: i32 = 60;
/// ... and captures losing more than this per ply squared.
pub const SEE_CAPTURE_MARGIN: i32 = 20;

/// Quiescence delta pruning: skip a capture when even winning the victim plus this cannot
/// reach alpha.
pub const DELTA_MARGIN: i32 = 200;

/// The largest magnitude a history entry reaches (gravity keeps it inside).
pub const HISTORY_LIMIT: i32 = 16_384;
/// History bonus per depth squared, capped by [`HISTORY_BONUS_LIMIT`].
pub const HISTORY_BONUS_FACTOR: i32 = 32;
/// See [`HISTORY_BONUS_FACTOR`].
pub const HISTORY_BONUS_LIMIT: i32 = 1_600;

/// Soft-budget scale in percent by how many iterations in a row kept the best move
/// (0, 1, 2, 3, 4, 5 or more).
pub const STABILITY_TIME_FACTORS: [u32; 6] = [140, 110, 90, 90, 90, 70];
/// A root score this far below the previous iteration's ...
pub const SCORE_DROP_THRESHOLD: i32 = 30;
/// ... stretches the soft budget by this percentage.
pub const SCORE_DROP_TIME_FACTOR: u32 = 150;

/// Check the clock and the stop flag every this many nodes (a power of two minus one mask).
pub const CLOCK_CHECK_MASK: u64 = 1023;

/// Moves assumed to remain in sudden death when `movestogo` is not given.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Never plan for more moves to go than this.
pub const MOVES_TO_GO_UPPER_LIMIT: u32 = 50;
/// Share of the increment added to the soft budget, in percent.
pub const INCREMENT_SHARE: u32 = 75;
/// The hard budget is at most this many soft budgets ...
pub const HARD_BUDGET_FACTOR: u32 = 4;
/// ... and at most this percentage of the usable clock.
pub const HARD_BUDGET_SHARE: u32 = 35;
/// Time kept in reserve on top of the move overhead, in percent of the clock ...
pub const RESERVE_SHARE: u32 = 5;
/// ... but at most this many milliseconds ...
pub const RESERVE_UPPER_LIMIT_MS: u64 = 200;
/// ... and at least a third of the clock up to this many milliseconds (a loaded machine
/// can stall a process for 100 ms; matches at 2+0.02 on two shared cores lost on time
/// with 50).
pub const RESERVE_LOWER_LIMIT_MS: u64 = 100;

// ---- Variant search (`crate::variant`): hand-set values, not tuned (2026-11, issue 23).
// Piece values are the usual ones of each variant's community (lichess/Fairy-Stockfish
// folklore), pawn..king; the rest are first guesses checked only by the short matches
// against Fairy-Stockfish in docs/variants.md.

/// Material in chess-like variants (Horde, Racing Kings), pawn..king.
pub const VARIANT_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];
/// Atomic: knights and bishops are worth less (explosions), queens more.
pub const ATOMIC_VALUES: [i32; 6] = [100, 250, 300, 500, 1000, 0];
/// Antichess: what a piece costs its owner (it must be given away); the king is a good
/// defender and cheap to lose.
pub const ANTICHESS_VALUES: [i32; 6] = [60, 90, 80, 110, 140, 70];
/// Crazyhouse: a piece in hand, by role (pawns in hand are strong drops).
pub const POCKET_VALUES: [i32; 6] = [120, 330, 340, 480, 900, 0];
/// Crazyhouse: per enemy attack on the squares around a king (drops make attacks deadly).
pub const ZH_KING_ATTACK: i32 = 22;
/// Crazyhouse: per square around a king its own side does not defend and the enemy could
/// drop on.
pub const ZH_KING_HOLE: i32 = 12;
/// King of the Hill: per step (king distance) nearer the centre than the enemy king.
pub const KOTH_STEP: i32 = 45;
/// Three-check: the worth of having given 0, 1, 2 checks (3 ends the game).
pub const THREE_CHECK_GIVEN: [i32; 3] = [0, 150, 500];
/// Three-check: per enemy attack near a king (checks are cheap to give).
pub const THREE_CHECK_KING_ATTACK: i32 = 25;
/// Racing Kings: per rank a king has climbed.
pub const RACE_RANK: i32 = 110;
/// Racing Kings: per square of the king's path ahead the enemy attacks.
pub const RACE_BLOCKED: i32 = 25;
/// Atomic: per own piece next to its own king that an enemy piece attacks (taking it
/// explodes the king).
pub const ATOMIC_KING_NEIGHBOUR_ATTACKED: i32 = 300;
/// Atomic: the kings touching (neither may capture next to the other): a safe harbour.
pub const ATOMIC_KINGS_TOUCH: i32 = 80;
/// Horde: per rank a white pawn has advanced.
pub const HORDE_PAWN_RANK: i32 = 6;
/// Mobility (pseudo-legal target squares) per square, own minus enemy.
pub const VARIANT_MOBILITY: i32 = 4;
/// Antichess: mobility per move counts for the side to move (more choice, fewer forced
/// give-aways).
pub const ANTICHESS_MOBILITY: i32 = 6;
/// Knights and bishops nearer the centre, per step of centre distance.
pub const VARIANT_CENTRE: i32 = 6;
/// Quiescence gives up after this many plies.
pub const VARIANT_QS_LIMIT: usize = 16;
/// Antichess quiescence searches forced captures without a stand-pat for this many plies,
/// then stands pat like the other variants (capture chains branch fast: 11 million nodes
/// at depth 1 without this bound, in a queen-trade position).
pub const VARIANT_FORCED_QS_LIMIT: usize = 6;
