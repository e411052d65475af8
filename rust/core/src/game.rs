//! A game: a board plus the moves that led to it, with python-chess's draw rules that
//! need history (threefold/fivefold repetition) and undo.
//!
//! Repetitions are counted in O(1) per move: each position gets a repetition key, and a
//! hash map counts keys within the current *reversible segment* (the positions since the
//! last capture, pawn move, loss of castling rights or move out of a legal en-passant
//! chance: python-chess stops looking back at such moves too). The root position is counted
//! in its own record, so that creating a game allocates nothing.
//!
//! The counting is brought up to date when a repetition question is asked, not at each push:
//! a search that pushes and pops without asking (perft, a Python engine loop) pays nothing for
//! it, and a game that asks every ply counts each position once, as before. Each position is
//! counted at most once and uncounted at most once, so the cost stays O(1) per move.
//!
//! The legal moves of the current position are computed once and kept (with each earlier
//! position's list on the undo stack), so that listing them, checking a move for legality,
//! and asking for mate or stalemate share one generation.

use crate::board::Board;
use crate::error::MoveError;
use crate::notation::UciMove;
use crate::outcome::{Outcome, Termination};
use crate::types::{Color, Move};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// Keys are already uniformly random, so the map needs no hashing of its own.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
    fn write_u32(&mut self, n: u32) {
        self.0 ^= u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type KeyCounts = HashMap<(u64, u32), u32, BuildHasherDefault<KeyHasher>>;

#[derive(Clone, Copy, Debug)]
struct PositionRecord {
    key: u64,
    /// Index of the first position of this position's reversible segment.
    segment: u32,
    /// How often this key has occurred in the segment, this occurrence included.
    count: u32,
}

/// The legal moves of one position, with a packed from/to/promotion key per move so that
/// finding a move is a scan over `u16`s. Callers usually play the moves in the order they
/// were listed, so the scan starts just after the last move found.
#[derive(Debug)]
struct LegalCache {
    moves: Vec<Move>,
    keys: Vec<u16>,
    next: AtomicUsize,
}

impl Clone for LegalCache {
    fn clone(&self) -> LegalCache {
        LegalCache {
            moves: self.moves.clone(),
            keys: self.keys.clone(),
            next: AtomicUsize::new(self.next.load(Ordering::Relaxed)),
        }
    }
}

impl LegalCache {
    fn new(board: &Board) -> LegalCache {
        let moves = board.legal_moves().to_vec();
        let keys = moves
            .iter()
            .map(|m| {
                pack(UciMove {
                    from: m.from,
                    to: m.to,
                    promotion: m.promotion(),
                })
            })
            .collect();
        LegalCache {
            moves,
            keys,
            next: AtomicUsize::new(0),
        }
    }

    /// The move with exactly this from/to/promotion, if listed.
    fn find_exact(&self, uci: UciMove) -> Option<Move> {
        let key = pack(uci);
        let hint = self.next.load(Ordering::Relaxed);
        let index = if self.keys.get(hint) == Some(&key) {
            hint
        } else {
            self.keys.iter().position(|&k| k == key)?
        };
        self.next.store(index + 1, Ordering::Relaxed);
        Some(self.moves[index])
    }
}

fn pack(uci: UciMove) -> u16 {
    uci.from.index() as u16
        | (uci.to.index() as u16) << 6
        | (uci.promotion.map_or(0, |r| r as u16)) << 12
}

#[derive(Clone, Debug)]
struct Ply {
    before: Board,
    /// The extra repetition key of the position before the move (see [`Game::set_extra_key`]).
    extra_before: u64,
    played: Move,
    /// The position's legal-move cell, moved whole (re-initialising one costs more).
    legal_before: OnceLock<LegalCache>,
}

/// The repetition records of the positions after the first `positions.len()` moves of the
/// stack (the rest are counted when next asked for).
#[derive(Clone, Debug, Default)]
struct Ledger {
    positions: Vec<PositionRecord>,
    /// Occurrences of (key, segment) for every counted position but the root.
    counts: KeyCounts,
}

impl Ledger {
    /// Forgets the last counted position.
    fn uncount_last(&mut self) {
        let Some(record) = self.positions.pop() else {
            return;
        };
        if let Entry::Occupied(mut entry) = self.counts.entry((record.key, record.segment)) {
            if *entry.get() <= 1 {
                entry.remove();
            } else {
                *entry.get_mut() -= 1;
            }
        }
    }
}

/// A board with its move stack and repetition history.
#[derive(Debug)]
pub struct Game {
    board: Board,
    stack: Vec<Ply>,
    /// The starting position's record; the ledger holds one per move played.
    root_record: PositionRecord,
    /// Behind a lock only because questions (`&self`) bring it up to date; pushes and pops
    /// (`&mut self`) reach it without locking.
    ledger: Mutex<Ledger>,
    legal: OnceLock<LegalCache>,
    /// What the current position's repetition key adds to the board's (a variant's state
    /// beyond the board: Crazyhouse's pockets, Three-check's counters); 0 in chess.
    extra: u64,
    /// Which moves end a reversible sequence (see [`Segments`]).
    segments: Segments,
}

/// Which moves end the sequence of positions within which repetitions are counted (the
/// moves python-chess's `is_irreversible` names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Segments {
    /// Chess: a capture, a pawn move, a loss of castling rights, or a move made when an en
    /// passant capture was legal.
    #[default]
    Chess,
    /// Crazyhouse: only a loss of castling rights (captured pieces go into a pocket and may
    /// come back, and so may pawns).
    CastlingRights,
}

impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            board: self.board.clone(),
            stack: self.stack.clone(),
            root_record: self.root_record,
            ledger: Mutex::new(self.ledger().clone()),
            legal: self.legal.clone(),
            extra: self.extra,
            segments: self.segments,
        }
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Board::default())
    }
}

impl PartialEq for Game {
    /// Games are equal when their current positions are (python-chess compares boards so).
    fn eq(&self, other: &Game) -> bool {
        self.board == other.board
    }
}

impl Game {
    /// A game starting at `board`, with no moves played.
    pub fn new(mut board: Board) -> Game {
        board.set_castling_trusted(false);
        let root_record = PositionRecord {
            key: board.repetition_key(),
            segment: 0,
            count: 1,
        };
        Game {
            board,
            stack: Vec::new(),
            root_record,
            ledger: Mutex::default(),
            legal: OnceLock::new(),
            extra: 0,
            segments: Segments::Chess,
        }
    }

    /// Sets what the current position's repetition key adds to its board's (a variant's
    /// state beyond the board, which only the caller knows: python-chess's variant
    /// `_transposition_key`), for this position and, through `pop`, kept with it when a move
    /// is played. Positions are the same for the repetition rules only when their boards and
    /// extra keys are. Call it after each move that changes that state.
    pub fn set_extra_key(&mut self, extra: u64) {
        if extra == self.extra {
            return;
        }
        self.extra = extra;
        self.rekey_current();
    }

    /// Sets which moves end a reversible sequence (counted again when next asked).
    pub fn set_segments(&mut self, segments: Segments) {
        if segments == self.segments {
            return;
        }
        self.segments = segments;
        *self
            .ledger
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner) = Ledger::default();
    }

    /// Forgets the current position in the repetition ledger if it was counted (the ledger
    /// counts lazily, up to the last position asked about).
    fn uncount_current(&mut self) {
        let ledger = self
            .ledger
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        if ledger.positions.len() == self.stack.len() {
            ledger.uncount_last();
        }
    }

    /// The current position's repetition key changed: re-key the root, or count the position
    /// again when next asked.
    fn rekey_current(&mut self) {
        if self.stack.is_empty() {
            self.root_record.key = self.board.repetition_key() ^ self.extra;
        } else {
            self.uncount_current();
        }
    }

    /// The repetition key of a position: its board's with the extra key (see
    /// [`Game::set_extra_key`]).
    pub fn repetition_key_with(board: &Board, extra: u64) -> u64 {
        board.repetition_key() ^ extra
    }

    /// Has the position with repetition key `key` (see [`Game::repetition_key_with`])
    /// occurred at least twice since the last irreversible move, so that a move reaching it
    /// would repeat it a third time? (python-chess's `can_claim_threefold_repetition` asks
    /// this of each legal move.)
    pub fn occurred_twice(&self, key: u64) -> bool {
        let ledger = self.counted();
        let current = self.last_record(&ledger);
        self.occurrences(&ledger, key, current.segment) >= 2
    }

    /// The ledger as it stands (a panic elsewhere cannot leave it half-updated: `counted`
    /// finishes each record before the next).
    fn ledger(&self) -> MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ledger with every move played counted.
    fn counted(&self) -> MutexGuard<'_, Ledger> {
        let mut ledger = self.ledger();
        for index in ledger.positions.len()..self.stack.len() {
            let record = self.record_after(index, &ledger);
            let in_map = ledger
                .counts
                .entry((record.key, record.segment))
                .or_insert(0);
            *in_map += 1;
            let count = self.occurrences(&ledger, record.key, record.segment);
            ledger.positions.push(PositionRecord { count, ..record });
        }
        ledger
    }

    /// The key and segment of the position after move `index` (its count still to be set),
    /// given the records of the positions before it.
    fn record_after(&self, index: usize, ledger: &Ledger) -> PositionRecord {
        let ply = &self.stack[index];
        let (after, extra) = self
            .stack
            .get(index + 1)
            .map_or((&self.board, self.extra), |next| {
                (&next.before, next.extra_before)
            });
        let castling_lost = after.castling_rights() != ply.before.clean_castling_rights();
        let irreversible = match self.segments {
            Segments::Chess => {
                (!ply.played.is_null() && after.halfmove_clock() == 0)
                    || castling_lost
                    || ply.before.legal_ep_square().is_some()
            }
            Segments::CastlingRights => castling_lost,
        };
        let segment = if irreversible {
            index as u32 + 1
        } else {
            self.last_record(ledger).segment
        };
        PositionRecord {
            key: after.repetition_key() ^ extra,
            segment,
            count: 0,
        }
    }

    fn is_root(&self, key: u64, segment: u32) -> bool {
        self.root_record.key == key && self.root_record.segment == segment
    }

    /// How often (key, segment) occurred among the positions `ledger` counts, the root included.
    fn occurrences(&self, ledger: &Ledger, key: u64, segment: u32) -> u32 {
        u32::from(self.is_root(key, segment))
            + ledger.counts.get(&(key, segment)).copied().unwrap_or(0)
    }

    /// The record of the last position `ledger` counts (the root's if none).
    fn last_record(&self, ledger: &Ledger) -> PositionRecord {
        ledger.positions.last().copied().unwrap_or(self.root_record)
    }

    /// The current position's record.
    fn current(&self) -> PositionRecord {
        self.last_record(&self.counted())
    }

    /// The legal moves of the current position (computed once per position).
    pub fn legal_moves(&self) -> &[Move] {
        &self
            .legal
            .get_or_init(|| LegalCache::new(&self.board))
            .moves
    }

    /// The legal move `uci` stands for (python-chess's `is_legal` matching), if any.
    pub fn find_legal(&self, uci: UciMove) -> Option<Move> {
        if uci.is_null() {
            return None;
        }
        if !self.board.is_regular() {
            // python-chess's `is_legal`, which can disagree with its generator on such boards.
            return self.board.find_legal(uci);
        }
        match self.legal.get() {
            // Exact from/to/promotion first (the common case); the full rules only for
            // castling written king-to-target.
            Some(cache) => cache.find_exact(uci).or_else(|| {
                cache
                    .moves
                    .iter()
                    .copied()
                    .find(|&m| self.board.matches(m, uci))
            }),
            None => self.board.find_legal(uci),
        }
    }

    /// The legal move for a move given to `push` (castling spelled `e1g1` or `e1h1`); the
    /// null move stands for itself, as in python-chess.
    pub fn resolve_uci(&self, uci: UciMove) -> Result<Move, MoveError> {
        if uci.is_null() {
            return Ok(Move::NULL);
        }
        let normalized = self.board.normalize_castling(uci);
        self.find_legal(normalized)
            // Listed by python-chess's generator though `is_legal` says no (see `find_legal`).
            .or_else(|| (!self.board.is_regular()).then(|| self.board.find_listed(normalized))?)
            .ok_or_else(|| MoveError::Illegal {
                text: uci.to_string(),
                fen: self.board.fen(),
            })
    }

    /// How many legal moves (counted without listing them unless they are listed already).
    pub fn count_legal_moves(&self) -> usize {
        match self.legal.get() {
            Some(cache) => cache.moves.len(),
            None => self.board.count_legal_moves(),
        }
    }

    /// Does the side to move have a legal move?
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Is the side to move checkmated?
    pub fn is_checkmate(&self) -> bool {
        self.board.is_check() && !self.has_legal_moves()
    }

    /// Is the side to move stalemated?
    pub fn is_stalemate(&self) -> bool {
        !self.board.is_check() && !self.has_legal_moves()
    }

    /// The current position.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position the game started from.
    pub fn root(&self) -> &Board {
        self.stack.first().map_or(&self.board, |ply| &ply.before)
    }

    /// The moves played, first to last.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + DoubleEndedIterator + '_ {
        self.stack.iter().map(|ply| ply.played)
    }

    /// The move played last, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.stack.last().map(|ply| ply.played)
    }

    /// How often each of the last positions had occurred when it was reached (that time
    /// included, since the last irreversible move before it: `is_repetition` as it stood
    /// then), newest first: `out[k]` for the position `k` plies ago, for `k` up to the
    /// root. Returns how many entries were written (at most `out.len()`). The history planes
    /// of the tensor encodings read it.
    pub fn recent_occurrences(&self, out: &mut [u32]) -> usize {
        let written = out.len().min(self.stack.len() + 1);
        let ledger = self.counted();
        for (k, count) in out[..written].iter_mut().enumerate() {
            let index = self.stack.len() - k;
            *count = match index {
                0 => self.root_record.count,
                _ => ledger.positions[index - 1].count,
            };
        }
        written
    }

    /// The position before the `index`-th move (for notation of past moves).
    pub fn board_before(&self, index: usize) -> Option<&Board> {
        self.stack.get(index).map(|ply| &ply.before)
    }

    /// The moves played, first to last, as python-chess shows them (`Board::uci` of each
    /// move in the position it was played from; `0000` for a null move).
    pub fn uci_moves(&self) -> impl ExactSizeIterator<Item = UciMove> + DoubleEndedIterator + '_ {
        self.stack.iter().map(|ply| ply.before.uci(ply.played))
    }

    /// Switches Chess960 notation on or off for the whole game: the positions, moves and
    /// repetition history stay, how castling is written changes. Each stored position is
    /// switched where it stands (replaying the moves would lose what `edit_board` changed).
    pub fn set_chess960(&mut self, chess960: bool) {
        for ply in &mut self.stack {
            ply.before.set_chess960(chess960);
            ply.legal_before = OnceLock::new();
        }
        self.board.set_chess960(chess960);
        let root_extra = self
            .stack
            .first()
            .map_or(self.extra, |ply| ply.extra_before);
        self.root_record.key = self.root().repetition_key() ^ root_extra;
        *self
            .ledger
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner) = Ledger::default();
        self.legal = OnceLock::new();
    }

    /// A copy that keeps only the last `keep` moves (python-chess's `copy(stack=N)`): the
    /// position `keep` moves ago becomes the root. The positions are copied, not replayed, so
    /// that edits made with `edit_board` stay.
    pub fn with_last_moves(&self, keep: usize) -> Game {
        let start = self.stack.len().saturating_sub(keep);
        let root = self.board_before(start).unwrap_or(&self.board).clone();
        let mut game = Game::new(root);
        game.segments = self.segments;
        game.extra = self
            .stack
            .get(start)
            .map_or(self.extra, |ply| ply.extra_before);
        game.root_record.key ^= game.extra;
        game.extra = self.extra;
        if start < self.stack.len() {
            let mut stack = self.stack[start..].to_vec();
            stack[0].before = std::mem::replace(&mut game.board, self.board.clone());
            game.stack = stack;
            game.legal = self.legal.clone();
        }
        game
    }

    /// The Zobrist hashes of the positions before the current one, oldest first: what a
    /// search needs to see repetitions of the game.
    pub fn history_hashes(&self) -> Vec<u64> {
        self.stack
            .iter()
            .map(|ply| ply.before.zobrist_hash())
            .collect()
    }

    /// Forgets the moves; the current position becomes the root.
    pub fn clear_stack(&mut self) {
        let (extra, segments) = (self.extra, self.segments);
        *self = Game::new(self.board.clone());
        self.segments = segments;
        self.set_extra_key(extra);
    }

    /// Plays the legal move `m` (from this position's legal moves) or the null move.
    pub fn play(&mut self, m: Move) {
        self.record(m, Board::play_unchecked);
    }

    /// Plays `m` on the board with `play`, keeping the position before it on the undo stack.
    #[inline]
    fn record(&mut self, m: Move, play: impl FnOnce(&mut Board, Move)) {
        // The position is copied straight into its place on the stack, then played on.
        self.stack.push(Ply {
            before: self.board.clone(),
            extra_before: self.extra,
            played: m,
            legal_before: std::mem::take(&mut self.legal),
        });
        play(&mut self.board, m);
    }

    /// Records `m` as played, the position after it being `after` (a variant's move, which
    /// the variant's own rules played: an Atomic explosion, a Crazyhouse drop, an Antichess
    /// king promotion). `pop` comes back to the current position.
    pub fn play_to(&mut self, m: Move, after: Board) {
        self.record(m, |board, _| *board = after);
    }

    /// Records `m` as played by `play`, which plays it on the current board in place (a
    /// variant's rules, see [`Game::play_to`]): one copy of the board, the one `pop` returns
    /// to, where `play_to` also needs the position after the move built beside it.
    #[inline]
    pub fn play_with(&mut self, m: Move, play: impl FnOnce(&mut Board, Move)) {
        self.record(m, play);
    }

    /// Plays a move given in UCI form as python-chess's `push` takes it: a legal move
    /// (castling may be given as `e1g1` or `e1h1`), the null move, or a pseudo-legal move that
    /// leaves the mover's king in check (`was_into_check` then tells). A move that is not even
    /// pseudo-legal is refused, and the game is unchanged.
    pub fn push_uci(&mut self, uci: UciMove) -> Result<Move, MoveError> {
        if let Ok(m) = self.resolve_uci(uci) {
            self.play(m);
            return Ok(m);
        }
        match self
            .board
            .find_pseudo_legal(self.board.normalize_castling(uci))
        {
            Some(m) => {
                self.play_pseudo_legal(m);
                Ok(m)
            }
            None => Err(MoveError::NotPseudoLegal {
                text: uci.to_string(),
                fen: self.board.fen(),
            }),
        }
    }

    /// Plays the pseudo-legal move `m` (from `Board::find_pseudo_legal`), legal or not.
    pub fn play_pseudo_legal(&mut self, m: Move) {
        self.record(m, Board::play_pseudo_legal);
    }

    /// Changes the current position in place without touching the move stack (python-chess's
    /// writable `turn`, `castling_rights`, `ep_square` and clocks): `pop` still goes back to
    /// the position before the last move.
    pub fn edit_board(&mut self, edit: impl FnOnce(&mut Board)) {
        edit(&mut self.board);
        self.board.refresh();
        self.legal = OnceLock::new();
        // Counted under its old key: count it again when next asked.
        self.rekey_current();
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        self.uncount_current();
        let ply = self.stack.pop()?;
        self.board = ply.before;
        self.extra = ply.extra_before;
        self.legal = ply.legal_before;
        Some(ply.played)
    }

    /// Has the current position occurred at least `count` times (this time included) since
    /// the last irreversible move? (python-chess's `is_repetition`.)
    pub fn is_repetition(&self, count: u32) -> bool {
        self.current().count >= count
    }

    /// Five times the same position: the game is drawn automatically.
    pub fn is_fivefold_repetition(&self) -> bool {
        self.is_repetition(5)
    }

    /// May the side to move claim a draw by threefold repetition, now or by announcing a
    /// move that repeats the position for the third time?
    pub fn can_claim_threefold_repetition(&self) -> bool {
        let ledger = self.counted();
        let current = self.last_record(&ledger);
        current.count >= 3
            || self
                .legal_moves()
                .iter()
                .any(|&m| self.repeats_thrice(&ledger, current, m))
    }

    /// Would the legal move `m` bring a position the third time (python-chess: it occurred
    /// twice already since the last irreversible move)? `current` is the current position's
    /// record in `ledger`.
    fn repeats_thrice(&self, ledger: &Ledger, current: PositionRecord, m: Move) -> bool {
        let key = self.board.after(m).repetition_key();
        self.occurrences(ledger, key, current.segment) >= 2
    }

    /// 100 plies without capture or pawn move, and the game is not over otherwise.
    pub fn is_fifty_moves(&self) -> bool {
        self.board.halfmove_clock() >= 100 && self.has_legal_moves()
    }

    /// 150 plies without capture or pawn move: drawn automatically (unless mated).
    pub fn is_seventyfive_moves(&self) -> bool {
        self.board.halfmove_clock() >= 150 && self.has_legal_moves()
    }

    /// May the side to move claim the fifty-move rule, now or with its next move?
    pub fn can_claim_fifty_moves(&self) -> bool {
        self.is_fifty_moves()
            || (self.fifty_moves_in_reach()
                && self
                    .legal_moves()
                    .iter()
                    .any(|&m| self.completes_fifty_moves(m)))
    }

    /// Could a move complete 100 plies without capture or pawn move (99 are played)?
    fn fifty_moves_in_reach(&self) -> bool {
        self.board.halfmove_clock() >= 99
    }

    /// Does the legal move `m` make it 100 plies without capture or pawn move, and leave the
    /// opponent a move (python-chess: after it, `is_fifty_moves`)?
    fn completes_fifty_moves(&self, m: Move) -> bool {
        if !self.fifty_moves_in_reach() {
            return false;
        }
        let after = self.board.after(m);
        after.halfmove_clock() >= 100 && after.has_legal_moves()
    }

    /// Either claimable draw.
    pub fn can_claim_draw(&self) -> bool {
        self.can_claim_fifty_moves() || self.can_claim_threefold_repetition()
    }

    /// The draw the side to move may claim in the position itself, without moving:
    /// `FiftyMoves` (100 plies without capture or pawn move, and a move left) or else
    /// `ThreefoldRepetition` (the position's third time), in the order `outcome` tries them.
    /// [`Game::can_claim_draw`] also counts claims made by announcing a move: see
    /// [`Game::draw_claim_moves`].
    pub fn draw_claim(&self) -> Option<Termination> {
        if self.is_fifty_moves() {
            Some(Termination::FiftyMoves)
        } else if self.is_repetition(3) {
            Some(Termination::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// The draw the side to move may claim by announcing the legal move `m` (python-chess's
    /// `can_claim_*` count such claims): `FiftyMoves` if `m` completes 100 plies without
    /// capture or pawn move and leaves the opponent a move (tried first, as `outcome` does),
    /// `ThreefoldRepetition` if it brings a position the third time, else `None`.
    pub fn draw_claim_by(&self, m: Move) -> Option<Termination> {
        let ledger = self.counted();
        self.claim_by(&ledger, self.last_record(&ledger), m)
    }

    /// The legal moves [`Game::draw_claim_by`] answers for, with its answer, in legal-move
    /// order.
    pub fn draw_claim_moves(&self) -> Vec<(Move, Termination)> {
        let ledger = self.counted();
        let current = self.last_record(&ledger);
        self.legal_moves()
            .iter()
            .filter_map(|&m| Some((m, self.claim_by(&ledger, current, m)?)))
            .collect()
    }

    /// `draw_claim_by`, with the ledger counted and the current record at hand.
    fn claim_by(&self, ledger: &Ledger, current: PositionRecord, m: Move) -> Option<Termination> {
        if self.completes_fifty_moves(m) {
            Some(Termination::FiftyMoves)
        } else if self.repeats_thrice(ledger, current, m) {
            Some(Termination::ThreefoldRepetition)
        } else {
            None
        }
    }

    /// The game's result if it has ended (python-chess's `outcome`).
    pub fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        let board = &self.board;
        let draw = |termination| {
            Some(Outcome {
                termination,
                winner: None,
            })
        };
        let has_moves = self.has_legal_moves();
        if board.is_check() && !has_moves {
            return Some(Outcome {
                termination: Termination::Checkmate,
                winner: Some(!board.turn()),
            });
        }
        if board.is_insufficient_material() {
            return draw(Termination::InsufficientMaterial);
        }
        if !has_moves {
            return draw(Termination::Stalemate);
        }
        if board.halfmove_clock() >= 150 {
            return draw(Termination::SeventyfiveMoves);
        }
        if self.is_fivefold_repetition() {
            return draw(Termination::FivefoldRepetition);
        }
        if claim_draw {
            if self.can_claim_fifty_moves() {
                return draw(Termination::FiftyMoves);
            }
            if self.can_claim_threefold_repetition() {
                return draw(Termination::ThreefoldRepetition);
            }
        }
        None
    }

    /// The number of half-moves since the start of the game, python-chess's `ply()`.
    pub fn ply(&self) -> u64 {
        let b = &self.board;
        2 * (b.fullmove_number() - 1) + u64::from(b.turn() == Color::Black)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.push_uci(UciMove::parse(m).unwrap()).unwrap();
        }
    }

    #[test]
    fn recent_occurrences_are_is_repetition_as_it_stood() {
        let mut game = Game::default();
        play(
            &mut game,
            "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2",
        );
        let mut counts = [0u32; 8];
        assert_eq!(game.recent_occurrences(&mut counts), 8);
        for (k, &count) in counts.iter().enumerate() {
            let mut then = game.clone();
            for _ in 0..k {
                then.pop();
            }
            for n in 1..=4 {
                assert_eq!(count >= n, then.is_repetition(n), "{k} plies ago, n = {n}");
            }
        }
        // A short game stops at the root, which occurred once.
        let mut short = Game::default();
        play(&mut short, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(short.recent_occurrences(&mut counts), 5);
        assert_eq!(counts[..5], [2, 1, 1, 1, 1]);
    }

    #[test]
    fn chess960_switch_and_truncated_copies_keep_the_game() {
        let mut game = Game::default();
        play(&mut game, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1");
        let shown: Vec<String> = game.uci_moves().map(|m| m.to_string()).collect();
        assert_eq!(shown.last().map(String::as_str), Some("e1g1"));
        let before = game.board().clone();
        game.set_chess960(true);
        assert!(game.board().is_chess960() && game.root().is_chess960());
        assert_eq!(game.uci_moves().last().unwrap().to_string(), "e1h1");
        assert_eq!(game.moves().len(), 7);
        assert!(game.board().same_position(&before));
        game.set_chess960(false);
        assert_eq!(game.uci_moves().last().unwrap().to_string(), "e1g1");

        let last_two = game.with_last_moves(2);
        assert_eq!(last_two.moves().len(), 2);
        assert_eq!(last_two.root(), game.board_before(5).unwrap());
        assert_eq!(last_two.board(), game.board());
        assert_eq!(game.with_last_moves(0).moves().len(), 0);
        assert_eq!(game.with_last_moves(99).root(), game.root());
    }

    #[test]
    fn null_moves_resolve_to_themselves() {
        let mut game = Game::default();
        assert_eq!(game.resolve_uci(UciMove::NULL), Ok(Move::NULL));
        game.push_uci(UciMove::NULL).unwrap();
        assert_eq!(game.uci_moves().next(), Some(UciMove::NULL));
        assert_eq!(game.board().turn(), Color::Black);
    }

    #[test]
    fn history_hashes_are_the_positions_before_the_current_one() {
        let mut game = Game::default();
        assert!(game.history_hashes().is_empty());
        let start = game.board().zobrist_hash();
        play(&mut game, "g1f3 g8f6 f3g1");
        let history = game.history_hashes();
        assert_eq!(history.len(), 3);
        assert_eq!(history[0], start);
        assert_ne!(history[1], start);
        assert_eq!(history[2], game.board_before(2).unwrap().zobrist_hash());
        assert!(!history.contains(&game.board().zobrist_hash()));
    }

    #[test]
    fn knight_shuffle_repeats() {
        let mut game = Game::default();
        assert!(!game.can_claim_threefold_repetition());
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert!(!game.is_repetition(3));
        // Black can claim by announcing f6g8, which repeats the start position a third time.
        assert!(game.can_claim_threefold_repetition());
        play(&mut game, "f6g8");
        assert!(game.is_repetition(3));
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert!(game.is_fivefold_repetition());
        assert_eq!(
            game.outcome(false).unwrap().termination,
            Termination::FivefoldRepetition
        );
        game.pop();
        assert!(!game.is_fivefold_repetition());
        assert!(game.is_repetition(4));
    }

    #[test]
    fn draw_claims_now_and_by_move() {
        let find = |game: &Game, uci: &str| game.find_legal(UciMove::parse(uci).unwrap()).unwrap();
        let mut game = Game::default();
        assert_eq!(game.draw_claim(), None);
        assert!(game.draw_claim_moves().is_empty());
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        // Black claims by announcing f6g8 (the start position a third time), not otherwise.
        assert_eq!(game.draw_claim(), None);
        assert_eq!(
            game.draw_claim_moves(),
            [(find(&game, "f6g8"), Termination::ThreefoldRepetition)]
        );
        assert!(game.can_claim_threefold_repetition());
        assert_eq!(
            game.draw_claim_by(find(&game, "f6g8")),
            Some(Termination::ThreefoldRepetition)
        );
        assert_eq!(game.draw_claim_by(find(&game, "f6h5")), None);
        play(&mut game, "f6g8");
        assert_eq!(game.draw_claim(), Some(Termination::ThreefoldRepetition));
        assert_eq!(
            game.outcome(true).unwrap().termination,
            Termination::ThreefoldRepetition
        );

        // 99 plies: any move but the pawn's and the captures completes the fifty moves.
        let board = Board::from_fen("4k3/8/8/8/8/8/3P4/4K2R w - - 99 80", false).unwrap();
        let game = Game::new(board);
        assert_eq!(game.draw_claim(), None);
        let moves = game.draw_claim_moves();
        assert!(moves.iter().all(|&(_, t)| t == Termination::FiftyMoves));
        let claiming: Vec<String> = moves
            .iter()
            .map(|&(m, _)| game.board().uci(m).to_string())
            .collect();
        assert!(claiming.contains(&"e1f1".to_string()));
        assert!(!claiming.iter().any(|m| m.starts_with("d2")));
        assert_eq!(moves.len(), game.legal_moves().len() - 2);
        assert!(game.can_claim_fifty_moves());
        let board = Board::from_fen("4k3/8/8/8/8/8/3P4/4K2R w - - 100 80", false).unwrap();
        assert_eq!(Game::new(board).draw_claim(), Some(Termination::FiftyMoves));
        // A move that mates completes 100 plies but leaves nothing to claim (mate ends it).
        let board = Board::from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80", false).unwrap();
        let game = Game::new(board);
        let mate = find(&game, "a1a8");
        assert_eq!(game.draw_claim_by(mate), None);
        assert_eq!(
            game.draw_claim_by(find(&game, "a1a2")),
            Some(Termination::FiftyMoves)
        );
        assert!(game.draw_claim_moves().iter().all(|&(m, _)| m != mate));
        assert_eq!(game.draw_claim_moves().len(), game.legal_moves().len() - 1);
        assert_eq!(
            game.can_claim_fifty_moves(),
            !game.draw_claim_moves().is_empty()
        );
    }

    #[test]
    fn lost_castling_rights_break_repetition() {
        let mut game = Game::default();
        play(
            &mut game,
            "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
        );
        // Same placement as after 2...e5's reply pair, but castling rights are gone now,
        // and the first king move was irreversible.
        assert!(!game.is_repetition(3));
        play(&mut game, "e1e2 e8e7 e2e1 e7e8");
        assert!(game.is_repetition(3));
    }

    /// Positions count as the same only with the same extra key (a variant's state beyond
    /// the board), which `pop` restores; `Segments::CastlingRights` lets captures and pawn
    /// moves stay within the counted sequence.
    #[test]
    fn extra_keys_and_segments() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let mut game = Game::default();
        game.set_extra_key(7);
        play(&mut game, &shuffle.join(" "));
        assert!(game.is_repetition(2));
        // The same board with another extra key is another position.
        game.set_extra_key(8);
        assert!(!game.is_repetition(2));
        play(&mut game, &shuffle.join(" "));
        assert!(game.is_repetition(2) && !game.is_repetition(3));
        // A move back to the start would bring it a third time with extra key 8 (there
        // twice), not with 7 (the root's only: the second occurrence was re-keyed to 8).
        let board = game.board().clone();
        assert!(game.occurred_twice(Game::repetition_key_with(&board, 8)));
        assert!(!game.occurred_twice(Game::repetition_key_with(&board, 7)));
        for _ in 0..4 {
            game.pop();
        }
        // Back where the key was changed: `pop` restores the key the position had when the
        // next move was played.
        assert_eq!(game.extra, 8);
        assert!(!game.is_repetition(2));
        game.set_extra_key(7);
        assert!(game.is_repetition(2));

        // Knights dropped (as in Crazyhouse) and taken by the kings bring the start back: the
        // captures end the sequence in chess, not under `Segments::CastlingRights`.
        let start = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false).unwrap();
        let square = |name: &str| UciMove::parse(&format!("a1{name}")).unwrap().to;
        let cycle = |game: &mut Game| {
            play(game, "e1f2 e8f8");
            for at in ["e8", "e1"] {
                let drop = Move {
                    from: square(at),
                    to: square(at),
                    kind: crate::types::MoveKind::Drop(crate::types::Role::Knight),
                };
                game.play_with(drop, Board::play_unchecked);
            }
            play(game, "f2e1 f8e8");
        };
        for (segments, repeated) in [(Segments::Chess, false), (Segments::CastlingRights, true)] {
            let mut game = Game::new(start.clone());
            game.set_segments(segments);
            cycle(&mut game);
            assert_eq!(game.board().board_fen(), start.board_fen());
            assert_eq!(game.is_repetition(2), repeated);
            cycle(&mut game);
            assert_eq!(game.is_repetition(3), repeated);
        }
    }

    /// Counting on demand must not depend on when the questions come: a game asked after
    /// every push and pop, and one asked only now and then (with pops of uncounted and of
    /// counted moves in between), give the same answers.
    #[test]
    fn repetition_answers_do_not_depend_on_when_they_are_asked() {
        let shuffle = [
            "g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8",
        ];
        let answers = |game: &Game| {
            [
                game.is_repetition(2),
                game.is_repetition(3),
                game.is_fivefold_repetition(),
                game.can_claim_threefold_repetition(),
            ]
        };
        let mut eager = Game::default();
        let mut lazy = Game::default();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut reached = [0; 4];
        for step in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pop = state % 5 == 0 && eager.moves().len() > 0;
            if pop {
                assert_eq!(eager.pop(), lazy.pop());
            } else {
                // The shuffle's legal move from here, or a pawn move that breaks the segment.
                let legal = eager.legal_moves().to_vec();
                let uci = shuffle
                    .iter()
                    .map(|t| UciMove::parse(t).unwrap())
                    .find(|&u| eager.find_legal(u).is_some())
                    .unwrap_or_else(|| {
                        eager
                            .board()
                            .uci(legal[(state >> 8) as usize % legal.len()])
                    });
                eager.push_uci(uci).unwrap();
                lazy.push_uci(uci).unwrap();
            }
            let eager_answers = answers(&eager);
            // The claims now and by a move are exactly what `can_claim_draw` counts.
            assert_eq!(
                eager.can_claim_draw(),
                eager.draw_claim().is_some() || !eager.draw_claim_moves().is_empty()
            );
            for (seen, answer) in reached.iter_mut().zip(eager_answers) {
                *seen += u32::from(answer);
            }
            if step % 7 == 0 || state % 3 == 0 {
                assert_eq!(eager_answers, answers(&lazy), "step {step}");
            }
        }
        assert!(reached.iter().all(|&n| n > 0), "{reached:?}");
        // Clones carry the counted part and count the rest on their own.
        assert_eq!(answers(&lazy.clone()), answers(&eager));
    }

    #[test]
    fn pop_restores_everything() {
        let mut game = Game::default();
        let start = game.board().clone();
        play(&mut game, "e2e4 d7d5 e4d5 g8f6");
        for _ in 0..4 {
            game.pop();
        }
        assert_eq!(*game.board(), start);
        assert_eq!(game.pop(), None);
    }
}
