//! The transposition table: a lockless hash table shared by all search threads.
//!
//! Each entry is two `AtomicU64`s: `check = key ^ data` and `data`. A reader recomputes
//! `check ^ data` and accepts the entry only when that equals its key, so an entry torn by
//! two threads writing at once (check from one, data from the other) reads as a miss instead
//! of as a wrong position. Entries come in buckets of four (one 64-byte cache line).
//!
//! Packed `data` layout (bit 0 on the right):
//!
//! ```text
//!  63    58 57 56 55    48 47            32 31            16 15             0
//! +--------+-----+--------+----------------+----------------+----------------+
//! |  age   |bound| depth  |  static eval   |     score      |      move      |
//! |  6 bit |2 bit|  8 bit |   i16          |   i16          |  16 bit        |
//! +--------+-----+--------+----------------+----------------+----------------+
//! ```
//!
//! Mate scores are stored relative to the node, not the root: a mate in `n` plies from the
//! root found at ply `p` is stored as a mate in `n - p` plies from this node, so the entry
//! means the same wherever the position turns up again ([`score_to_tt`], [`score_from_tt`]).

use crate::params::MATE_BOUND;
use pychess_core::{Move, MoveKind, Role, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Entries per bucket.
const BUCKET: usize = 4;

/// How a stored score relates to the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The true score is at most the stored one (all moves failed low).
    Upper,
    /// The true score is at least the stored one (a move failed high).
    Lower,
    /// The true score.
    Exact,
}

impl TtBound {
    /// What a node's result `best` is, searched with the window (`alpha`, `beta`): at least
    /// `best` when it reached beta (a move failed high), exactly `best` when it rose above
    /// alpha, else at most `best` (every move failed low).
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> TtBound {
        if best >= beta {
            TtBound::Lower
        } else if best > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        }
    }
}

/// One decoded entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move, if one was found.
    pub best: Option<Move>,
    /// The score, already converted back to be relative to the root ply asked for.
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// The kind of bound the score is.
    pub bound: TtBound,
}

impl TtEntry {
    /// Does the stored score settle a search with the window (`alpha`, `beta`) without
    /// searching (depth aside)?
    #[inline]
    pub fn cuts_off(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            TtBound::Exact => true,
            TtBound::Lower => self.score >= beta,
            TtBound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The shared table.
pub struct TranspositionTable {
    slots: Box<[Slot]>,
    buckets: usize,
    age: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("entries", &self.slots.len())
            .finish()
    }
}

/// Converts a score relative to the root into one relative to the node at `ply`.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored node-relative score back to one relative to the root, for `ply`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Packs a move in 16 bits: from (6), to (6), kind (4). 0 is "no move" (a1a1 is never legal).
pub fn encode_move(m: Option<Move>) -> u16 {
    let Some(m) = m else { return 0 };
    let kind: u16 = match m.kind {
        MoveKind::Normal => 0,
        MoveKind::DoubleStep => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Promotion(role) => 3 + role.index() as u16,
        MoveKind::Drop(role) => 9 + role.index() as u16,
    };
    m.from.index() as u16 | (m.to.index() as u16) << 6 | kind << 12
}

/// The inverse of [`encode_move`]; the move still has to be checked for legality by the user.
pub fn decode_move(bits: u16) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let from = Square::new((bits & 63) as u8);
    let to = Square::new(((bits >> 6) & 63) as u8);
    let kind = match bits >> 12 {
        0 => MoveKind::Normal,
        1 => MoveKind::DoubleStep,
        2 => MoveKind::EnPassant,
        3 => MoveKind::Castle,
        n @ 4..=8 => MoveKind::Promotion(Role::from_number(n as u8 - 2)?),
        n => MoveKind::Drop(Role::from_number(n as u8 - 8)?),
    };
    Some(Move::new(from, to, kind))
}

fn bound_bits(bound: TtBound) -> u64 {
    match bound {
        TtBound::Upper => 1,
        TtBound::Lower => 2,
        TtBound::Exact => 3,
    }
}

impl TranspositionTable {
    /// A table of about `mb` MiB (at least one bucket). When that much memory cannot be had,
    /// the size is halved until the allocation succeeds, so a huge `Hash` never aborts.
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let mut buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        loop {
            let mut slots: Vec<Slot> = Vec::new();
            if slots.try_reserve_exact(buckets * BUCKET).is_ok() {
                slots.resize_with(buckets * BUCKET, Slot::default);
                return TranspositionTable {
                    slots: slots.into_boxed_slice(),
                    buckets,
                    age: AtomicU8::new(0),
                };
            }
            buckets = (buckets / 2).max(1);
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let age = (self.age.load(Ordering::Relaxed) + 1) & 63;
        self.age.store(age, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        &self.slots[index * BUCKET..index * BUCKET + BUCKET]
    }

    /// Tells the CPU that `key`'s bucket is about to be read.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: prefetching is a hint and never faults; the pointer is in bounds.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, with its score made relative to the root for a node at `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let bound = match (data >> 56) & 3 {
                    1 => TtBound::Upper,
                    2 => TtBound::Lower,
                    3 => TtBound::Exact,
                    _ => return None,
                };
                return Some(TtEntry {
                    best: decode_move(data as u16),
                    score: score_from_tt(i32::from((data >> 16) as i16), ply),
                    eval: i32::from((data >> 32) as i16),
                    depth: ((data >> 48) & 0xff) as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result for `key` (score relative to the root, node at `ply`).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        best: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
    ) {
        let age = u64::from(self.age.load(Ordering::Relaxed));
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old_move = 0u16;
        for (i, slot) in bucket.iter().enumerate() {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = i;
                if data != 0 {
                    old_move = data as u16;
                    let old_depth = ((data >> 48) & 0xff) as i32;
                    let old_age = (data >> 58) & 63;
                    // Keep a deeper result of this search unless the new one is exact.
                    if bound != TtBound::Exact && old_age == age && old_depth > depth + 3 {
                        return;
                    }
                }
                break;
            }
            let old_depth = ((data >> 48) & 0xff) as i32;
            let old_age = (data >> 58) & 63;
            let staleness = ((age + 64 - old_age) & 63) as i32;
            let worth = old_depth - 8 * staleness;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let mut move_bits = encode_move(best);
        if move_bits == 0 {
            move_bits = old_move;
        }
        let score = score_to_tt(score, ply).clamp(-i16::MAX as i32, i16::MAX as i32);
        let eval = eval.clamp(-i16::MAX as i32, i16::MAX as i32);
        let data = u64::from(move_bits)
            | u64::from(score as i16 as u16) << 16
            | u64::from(eval as i16 as u16) << 32
            | (depth.clamp(0, 255) as u64) << 48
            | bound_bits(bound) << 56
            | age << 58;
        let slot = &bucket[victim];
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = u64::from(self.age.load(Ordering::Relaxed));
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| {
                let data = slot.data.load(Ordering::Relaxed);
                data != 0 && (data >> 58) & 63 == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::MATE;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        // Mate in 5 plies from the root, seen at ply 3: 2 plies from the node.
        tt.store(key, 3, None, MATE - 5, 10, 6, TtBound::Exact);
        let entry = tt.probe(key, 3).unwrap();
        assert_eq!(entry.score, MATE - 5);
        // Reached at ply 7 through another path, the same mate is 9 plies from the root.
        assert_eq!(tt.probe(key, 7).unwrap().score, MATE - 9);
        tt.store(key, 4, None, -MATE + 8, 10, 6, TtBound::Exact);
        assert_eq!(tt.probe(key, 2).unwrap().score, -MATE + 6);
        assert_eq!(score_from_tt(score_to_tt(123, 9), 9), 123);
    }

    #[test]
    fn moves_round_trip_and_entries_need_their_key() {
        let tt = TranspositionTable::new(1);
        let m = Move::new(
            Square::new(52),
            Square::new(60),
            MoveKind::Promotion(Role::Knight),
        );
        assert_eq!(decode_move(encode_move(Some(m))), Some(m));
        // Every kind packs and unpacks, drops (Crazyhouse) included.
        let e4 = Square::new(28);
        for kind in [
            MoveKind::Normal,
            MoveKind::DoubleStep,
            MoveKind::EnPassant,
            MoveKind::Castle,
        ]
        .into_iter()
        .chain(Role::ALL.into_iter().skip(1).map(MoveKind::Promotion))
        .chain(Role::ALL.into_iter().map(MoveKind::Drop))
        {
            let m = Move::new(Square::new(12), e4, kind);
            assert_eq!(decode_move(encode_move(Some(m))), Some(m), "{kind:?}");
        }
        tt.store(42, 0, Some(m), -17, 5, 3, TtBound::Lower);
        let entry = tt.probe(42, 0).unwrap();
        assert_eq!(
            (entry.best, entry.score, entry.eval, entry.depth),
            (Some(m), -17, 5, 3)
        );
        assert_eq!(entry.bound, TtBound::Lower);
        assert!(tt.probe(43, 0).is_none());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(42, 0).is_none());
    }

    #[test]
    fn bounds_follow_the_window() {
        // Window (10, 20): at beta or above fails high, inside is exact, at alpha fails low.
        assert_eq!(TtBound::of(20, 10, 20), TtBound::Lower);
        assert_eq!(TtBound::of(11, 10, 20), TtBound::Exact);
        assert_eq!(TtBound::of(10, 10, 20), TtBound::Upper);
        let entry = |score, bound| TtEntry {
            best: None,
            score,
            eval: 0,
            depth: 1,
            bound,
        };
        assert!(entry(15, TtBound::Exact).cuts_off(10, 20));
        assert!(entry(20, TtBound::Lower).cuts_off(10, 20));
        assert!(!entry(19, TtBound::Lower).cuts_off(10, 20));
        assert!(entry(10, TtBound::Upper).cuts_off(10, 20));
        assert!(!entry(11, TtBound::Upper).cuts_off(10, 20));
    }
}
