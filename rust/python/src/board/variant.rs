//! `VariantBoard`: the base class of `pychess_rs.variant`'s boards (python-chess's
//! `chess.variant`), a subclass of `Board` playing a variant's rules from the core
//! (`pychess_core::variant`).
//!
//! # Design
//!
//! The `Board` part of the object holds the position as the standard board sees it
//! (placement, side to move, castling, en passant, clocks, promoted marks) and the move stack:
//! every method `Board` has that reads only those (`piece_at`, `turn`, `move_stack`, `peek`,
//! attacks, `board_fen`, ...) is inherited and right as it is. This class adds the state only
//! some variants have (Three-check's remaining checks, Crazyhouse's pockets, with their value
//! before each move for `pop`) and overrides every method whose answer depends on the
//! variant's rules: each builds the core's `VariantBoard` from the two parts (a copy of the
//! board, far cheaper than the move generation that follows) and asks it, except the hot
//! paths (`push`, `pop`, the legal-move view, `is_check`), which read the board where it lies.
//! Moves are played by the core's variant rules on the `Board` part's game, in place
//! (`Game::play_with`), so `pop` and the move stack need nothing of their own. The legal moves
//! of a position are listed once and kept (with the board and extras they belong to, so that a
//! change made through a `Board` method is noticed) with a packed key per move for `push` to
//! find its move from the last one found; they are saved on `push` and restored on `pop`, and
//! their storage is reused. `push` and `pop` take CPython's fast calling conventions, as
//! `Board`'s do, with a descriptor on each subclass (`__init_subclass__`).
//!
//! Repetitions are counted by the variant's position (python-chess's `_transposition_key`):
//! the game is told the extra key of each position (Three-check's counters, Crazyhouse's
//! pockets and promoted pieces) and, for Crazyhouse, that only a loss of castling rights ends
//! a reversible sequence (`sync_repetition`).
//!
//! The standard `Board` gained no test of a variant: its methods do not look at variants
//! (its `Game` stores one more key per move, 0 in chess; measured in docs/variants.md).

use super::Board;
use crate::convert::{color_arg, ep_mode_arg, move_arg, square_arg};
use crate::errors::Result;
use crate::fast_methods::{self, no_arg_method, one_arg_method, MethodDef};
use crate::moves::{intern, Move};
use crate::py_modules;
use crate::squareset::SquareSet;
use pychess_core::notation::uci::{is_drop, UciDrop};
use pychess_core::variant::{
    legal_drop_squares, Pockets, Variant, VariantBoard as CoreVariantBoard, VariantResult,
};
use pychess_core::{
    Bitboard, Board as CoreBoard, EpMode, Game, Move as CoreMove, MoveError, MoveKind, Role,
    Segments, UciMove,
};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyBool, PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyClassInitializer;
use std::sync::{Mutex, OnceLock, PoisonError, TryLockError};

/// Three-check's remaining checks and Crazyhouse's pockets: what a variant position has
/// beyond the standard board.
type Extras = ([i64; 2], Pockets);

const NO_POCKETS: Pockets = [[0; 6]; 2];

/// The extras of a position in a variant that keeps none (`CoreVariantBoard::from_parts`).
const NO_EXTRAS: Extras = ([3, 3], NO_POCKETS);

/// The base class of the variant boards: a `Board` playing `variant`'s rules.
#[pyclass(module = "pychess_rs._core", name = "VariantBoard", extends = Board, subclass)]
pub struct VariantBoard {
    variant: Variant,
    remaining_checks: [i64; 2],
    pockets: Pockets,
    /// The extras before each move played on this board, the last for the last move (as
    /// many as the `Board` part's move stack holds, or fewer after its stack was cut; none in
    /// the variants whose moves change no extras).
    history: Vec<Extras>,
    /// The legal moves of the last position they were listed for (used only while the
    /// position is that one: a `Board` method may have changed it since).
    legal: Mutex<LegalSlot>,
    /// The legal-move cache of the position before each move, restored by `pop`.
    legal_stack: Vec<Option<Box<LegalCache>>>,
}

/// How many emptied legal-move caches a board keeps for reuse (a search reuses one per
/// level of its tree).
const SPARE_CACHES: usize = 64;

/// The packed key of a move that no `UciMove` packs to (drops: found by the full rules).
const NO_KEY: u16 = u16::MAX;

/// A position (the board and the variant's extras) and its legal moves, with a packed
/// from/to/promotion key per move so that finding a move is a scan over `u16`s starting just
/// after the last move found (callers usually play the moves in the order listed), as the
/// core `Game` keeps the standard board's.
struct LegalCache {
    position: CoreVariantBoard,
    /// The extras as the board holds them (`position` has them as its variant keeps them).
    extras: Extras,
    moves: Vec<CoreMove>,
    keys: Vec<u16>,
    /// Is a castling move listed? Castling may be given king-to-target, which only the full
    /// rules (`VariantBoard::find_in`) match.
    castles: bool,
    next: usize,
}

impl LegalCache {
    fn empty(variant: Variant) -> Box<LegalCache> {
        Box::new(LegalCache {
            position: CoreVariantBoard::from_parts(
                CoreBoard::empty(false),
                variant,
                [3, 3],
                NO_POCKETS,
            ),
            extras: NO_EXTRAS,
            moves: Vec::new(),
            keys: Vec::new(),
            castles: false,
            next: 0,
        })
    }

    /// Is this the cache of `board` with `extras` (None: a variant whose moves depend on the
    /// board alone)?
    #[inline]
    fn is_for(&self, board: &CoreBoard, extras: Option<&Extras>) -> bool {
        self.position.board() == board && extras.map_or(true, |extras| self.extras == *extras)
    }

    /// Lists the legal moves of `board` with `extras` played by `variant`'s rules, reusing
    /// the cache's storage.
    fn fill(&mut self, board: &CoreBoard, variant: Variant, extras: Extras) {
        let position = CoreVariantBoard::from_parts(board.clone(), variant, extras.0, extras.1);
        let legal = position.legal_moves();
        self.moves.clear();
        self.moves.extend_from_slice(&legal);
        self.keys.clear();
        self.keys.extend(legal.iter().map(|&m| {
            if m.is_drop() {
                NO_KEY
            } else {
                pack(UciMove {
                    from: m.from,
                    to: m.to,
                    promotion: m.promotion(),
                })
            }
        }));
        self.castles = legal.iter().any(|m| m.is_castle());
        self.next = 0;
        self.position = position;
        self.extras = extras;
    }

    /// The legal move `uci` stands for (`VariantBoard::find_in`'s answer): the exact
    /// from/to/promotion when neither a drop nor a castling move can be meant, else the full
    /// rules.
    #[inline]
    fn find(&mut self, uci: UciMove) -> Option<CoreMove> {
        if uci.is_null() {
            return None;
        }
        if self.castles || uci.as_drop().is_some() {
            return self.position.find_in(&self.moves, uci);
        }
        let key = pack(uci);
        let index = if self.keys.get(self.next) == Some(&key) {
            self.next
        } else {
            self.keys.iter().position(|&k| k == key)?
        };
        self.next = index + 1;
        Some(self.moves[index])
    }
}

/// A move's from/to/promotion in 15 bits.
fn pack(uci: UciMove) -> u16 {
    uci.from.index() as u16
        | (uci.to.index() as u16) << 6
        | (uci.promotion.map_or(0, |r| r as u16)) << 12
}

/// The legal-move cache of the current position and emptied ones kept for reuse.
#[derive(Default)]
struct LegalSlot {
    current: Option<Box<LegalCache>>,
    /// Boxed: a cache moves between this list, `current` and the stack of saved ones by its
    /// pointer, not by its few hundred bytes.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<LegalCache>>,
}

impl LegalSlot {
    /// The cache of `board` with `extras` (see [`VariantBoard::legal_extras`]), listed now
    /// unless it is current.
    fn get(
        &mut self,
        board: &CoreBoard,
        variant: Variant,
        extras: Option<Extras>,
    ) -> &mut LegalCache {
        let cache = match self.current.take() {
            Some(cache) if cache.is_for(board, extras.as_ref()) => cache,
            stale => {
                let mut cache = stale
                    .or_else(|| self.spare.pop())
                    .unwrap_or_else(|| LegalCache::empty(variant));
                cache.fill(board, variant, extras.unwrap_or(NO_EXTRAS));
                cache
            }
        };
        self.current.insert(cache)
    }

    /// Keeps `cache`'s storage for a later position.
    fn retire(&mut self, cache: Box<LegalCache>) {
        if self.spare.len() < SPARE_CACHES {
            self.spare.push(cache);
        }
    }
}

/// The variant a class plays, from its `uci_variant` attribute.
fn class_variant(cls: &Bound<'_, PyType>) -> PyResult<Variant> {
    let name: String = cls.getattr("uci_variant")?.extract()?;
    Variant::ALL
        .into_iter()
        .find(|v| v.uci_name() == name)
        .ok_or_else(|| PyTypeError::new_err(format!("{name:?} is not a variant's UCI name")))
}

/// `(fen, chess960)` from python-chess's variant signature `(fen=starting_fen,
/// chess960=False)`; `fen` None means an empty board.
fn init_args(
    cls: &Bound<'_, PyType>,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Option<String>, bool)> {
    if args.len() > 2 {
        return Err(PyTypeError::new_err(format!(
            "{}() takes at most 2 positional arguments ({} given)",
            cls.name()?,
            args.len()
        )));
    }
    let mut fen = args.get_item(0).ok();
    let mut chess960 = args.get_item(1).ok();
    for (key, value) in kwargs.into_iter().flat_map(|kw| kw.iter()) {
        match &*key.cast::<PyString>()?.to_cow()? {
            "fen" if fen.is_none() => fen = Some(value),
            "chess960" if chess960.is_none() => chess960 = Some(value),
            other => {
                return Err(PyTypeError::new_err(format!(
                    "{}() got an unexpected or repeated keyword argument {other:?}",
                    cls.name()?
                )))
            }
        }
    }
    let fen = match fen {
        Some(fen) => fen.extract::<Option<String>>()?,
        None => Some(cls.getattr("starting_fen")?.extract()?),
    };
    let chess960 = chess960
        .map(|c| c.is_truthy())
        .transpose()?
        .unwrap_or(false);
    Ok((fen, chess960))
}

/// A UCI string given to a variant board: a move, the null move or a drop (`N@f3`).
fn uci_text(text: &str) -> Result<UciMove> {
    if is_drop(text) {
        return UciDrop::parse(text).map(UciMove::from_drop).ok_or_else(|| {
            MoveError::Invalid {
                text: text.to_string(),
                notation: "uci",
            }
            .into()
        });
    }
    Ok(UciMove::parse(text)?)
}

impl VariantBoard {
    /// The position: the `Board` part's board with this variant's extras.
    fn position(slf: &PyRef<'_, Self>) -> CoreVariantBoard {
        let board = slf.as_super().board().clone();
        CoreVariantBoard::from_parts(board, slf.variant, slf.remaining_checks, slf.pockets)
    }

    /// Has the fifty-move clock reached 100 with a legal move left, by the variant's rules?
    fn fifty_moves_now(slf: &PyRef<'_, Self>) -> bool {
        slf.variant != Variant::Crazyhouse
            && slf.as_super().board().halfmove_clock() >= 100
            && VariantBoard::with_legal(slf, |cache| !cache.moves.is_empty())
    }

    /// python-chess's ``can_claim_fifty_moves`` with the variant's legal moves.
    fn fifty_moves_claim(slf: &PyRef<'_, Self>) -> bool {
        if slf.variant == Variant::Crazyhouse || slf.as_super().board().halfmove_clock() < 99 {
            return false;
        }
        if VariantBoard::fifty_moves_now(slf) {
            return true;
        }
        let position = VariantBoard::position(slf);
        let moves = VariantBoard::with_legal(slf, |cache| cache.moves.clone());
        moves.into_iter().any(|m| {
            let after = position.after(m);
            after.board().halfmove_clock() >= 100 && after.has_legal_moves()
        })
    }

    /// python-chess's ``can_claim_threefold_repetition`` by the variant's key and moves.
    fn threefold_claim(slf: &PyRef<'_, Self>) -> bool {
        let game = &slf.as_super().game;
        if game.is_repetition(3) {
            return true;
        }
        let position = VariantBoard::position(slf);
        let moves = VariantBoard::with_legal(slf, |cache| cache.moves.clone());
        moves.into_iter().any(|m| {
            let after = position.after(m);
            game.occurred_twice(Game::repetition_key_with(
                after.board(),
                after.repetition_extra(),
            ))
        })
    }

    /// The position, from a mutable borrow.
    fn position_mut(slf: &mut PyRefMut<'_, Self>) -> CoreVariantBoard {
        let (variant, checks, pockets) = (slf.variant, slf.remaining_checks, slf.pockets);
        let board = slf.as_super().board().clone();
        CoreVariantBoard::from_parts(board, variant, checks, pockets)
    }

    /// Calls `f` with the legal-move cache of the current position (its moves listed once
    /// per position).
    fn with_legal<R>(slf: &PyRef<'_, Self>, f: impl FnOnce(&mut LegalCache) -> R) -> R {
        let board = slf.as_super().board();
        let (variant, extras) = (slf.variant, slf.legal_extras());
        match slf.legal.try_lock() {
            Ok(mut slot) => f(slot.get(board, variant, extras)),
            Err(TryLockError::Poisoned(poisoned)) => {
                f(poisoned.into_inner().get(board, variant, extras))
            }
            // Asked again while `f` runs (Python code run by a garbage collection that `f`'s
            // allocations started): listed aside.
            Err(TryLockError::WouldBlock) => {
                let mut cache = LegalCache::empty(variant);
                cache.fill(board, variant, extras.unwrap_or(NO_EXTRAS));
                f(&mut cache)
            }
        }
    }

    /// The legal move `uci` stands for (None: the null move or an illegal move), from a
    /// mutable borrow; the current position's cache stays current.
    fn find_mut(slf: &mut PyRefMut<'_, Self>, uci: UciMove) -> Option<CoreMove> {
        let (variant, extras) = (slf.variant, slf.legal_extras());
        let slot = slf.legal.get_mut().unwrap_or_else(PoisonError::into_inner);
        let current = slot.current.take();
        let mut cache = match current {
            Some(cache) if cache.is_for(slf.as_super().board(), extras.as_ref()) => cache,
            stale => {
                let slot = slf.legal.get_mut().unwrap_or_else(PoisonError::into_inner);
                let mut cache = stale
                    .or_else(|| slot.spare.pop())
                    .unwrap_or_else(|| LegalCache::empty(variant));
                cache.fill(slf.as_super().board(), variant, extras.unwrap_or(NO_EXTRAS));
                cache
            }
        };
        let found = cache.find(uci);
        slf.legal
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .current = Some(cache);
        found
    }

    /// The legal move (or null move) `uci` stands for, `text` naming it in the error.
    fn resolve_cached(
        slf: &PyRef<'_, Self>,
        uci: UciMove,
        text: impl FnOnce() -> String,
    ) -> Result<CoreMove> {
        if uci.is_null() {
            return Ok(CoreMove::NULL);
        }
        VariantBoard::with_legal(slf, |cache| cache.find(uci))
            .ok_or_else(|| illegal(&VariantBoard::position(slf), text()))
    }

    /// [`VariantBoard::resolve_cached`] from a mutable borrow.
    fn resolve_mut(
        slf: &mut PyRefMut<'_, Self>,
        uci: UciMove,
        text: impl FnOnce() -> String,
    ) -> Result<CoreMove> {
        if uci.is_null() {
            return Ok(CoreMove::NULL);
        }
        VariantBoard::find_mut(slf, uci)
            .ok_or_else(|| illegal(&VariantBoard::position_mut(slf), text()))
    }

    fn extras(&self) -> Extras {
        (self.remaining_checks, self.pockets)
    }

    /// The extras the legal moves depend on: None in the variants that keep none, whose
    /// moves follow from the board alone (their caches are told apart without comparing
    /// 64 bytes of constants at every `push`).
    #[inline]
    fn legal_extras(&self) -> Option<Extras> {
        VariantBoard::keys_extras(self.variant).then(|| self.extras())
    }

    fn set_extras(&mut self, (checks, pockets): Extras) {
        self.remaining_checks = checks;
        self.pockets = pockets;
    }

    /// Puts `position` on the board, forgetting the moves.
    fn set_position(slf: &mut PyRefMut<'_, Self>, position: CoreVariantBoard) {
        slf.set_extras((position.remaining_checks(), *position.pockets()));
        slf.history.clear();
        let stacked = std::mem::take(&mut slf.legal_stack);
        let slot = slf.legal.get_mut().unwrap_or_else(PoisonError::into_inner);
        for cache in stacked.into_iter().flatten() {
            slot.retire(cache);
        }
        let board = position.into_board();
        **slf.as_super() = Board::new_game(board);
        VariantBoard::sync_repetition(slf);
    }

    /// Does python-chess's repetition key of this variant add to the board's
    /// (`_transposition_key`: Three-check's counters, Crazyhouse's pockets and promoted
    /// pieces)?
    fn keys_extras(variant: Variant) -> bool {
        matches!(variant, Variant::ThreeCheck | Variant::Crazyhouse)
    }

    /// Tells the `Board` part's game what the variant's repetition key adds to the board's
    /// and which moves end a reversible sequence (Crazyhouse: only a loss of castling rights,
    /// python-chess's `is_irreversible` there), for the current position.
    fn sync_repetition(slf: &mut PyRefMut<'_, Self>) {
        let variant = slf.variant;
        if !VariantBoard::keys_extras(variant) {
            return;
        }
        let (checks, pockets) = slf.extras();
        let segments = if variant == Variant::Crazyhouse {
            Segments::CastlingRights
        } else {
            Segments::Chess
        };
        let py = slf.py();
        let mut game = slf.as_super().game_mut(py);
        let extra = CoreVariantBoard::repetition_extra_of(variant, game.board(), checks, &pockets);
        game.set_segments(segments);
        game.set_extra_key(extra);
    }

    /// Plays the legal move (or null move) `m` of the current position, where the board lies
    /// (the core's variant rules on the `Board` part's game, which keeps the position before
    /// it for `pop`).
    fn play(slf: &mut PyRefMut<'_, Self>, py: Python<'_>, m: CoreMove) {
        let variant = slf.variant;
        // Only Three-check and Crazyhouse have extras that a move changes (and that `pop`
        // must restore); the other variants keep none (`CoreVariantBoard::from_parts`).
        let extras = VariantBoard::keys_extras(variant);
        if extras {
            let before = slf.extras();
            slf.history.push(before);
        }
        let cached = slf
            .legal
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .current
            .take();
        slf.legal_stack.push(cached);
        if m.is_null() {
            slf.as_super().game_mut(py).play(m);
            return;
        }
        if !extras {
            slf.as_super().game_mut(py).play_with(m, |board, m| {
                CoreVariantBoard::play_on_board(variant, board, m);
            });
            return;
        }
        // The extras as the core's position keeps them (`CoreVariantBoard::from_parts`).
        let (mut checks, mut pockets) = slf.extras();
        if variant != Variant::ThreeCheck {
            checks = [3, 3];
        }
        if variant != Variant::Crazyhouse {
            pockets = NO_POCKETS;
        }
        {
            let mut game = slf.as_super().game_mut(py);
            game.play_with(m, |board, m| {
                CoreVariantBoard::play_parts(variant, board, &mut checks, &mut pockets, m);
            });
            let extra =
                CoreVariantBoard::repetition_extra_of(variant, game.board(), checks, &pockets);
            game.set_extra_key(extra);
        }
        slf.set_extras((checks, pockets));
    }

    /// The legal move (or null move) `r#move` stands for.
    fn resolve(slf: &PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<CoreMove> {
        let uci = move_arg(r#move)?;
        VariantBoard::resolve_cached(slf, uci, || shown(r#move, uci))
    }

    /// [`VariantBoard::resolve`] from a mutable borrow.
    fn resolve_arg_mut(
        slf: &mut PyRefMut<'_, Self>,
        r#move: &Bound<'_, PyAny>,
    ) -> Result<CoreMove> {
        let uci = move_arg(r#move)?;
        VariantBoard::resolve_mut(slf, uci, || shown(r#move, uci))
    }

    /// The extras of the root position (the current ones when the history was cut).
    fn root_extras(&self, stack_len: usize) -> Extras {
        if stack_len == 0 {
            return self.extras();
        }
        match self.history.len().checked_sub(stack_len) {
            Some(index) => self.history[index],
            None => self.history.first().copied().unwrap_or(self.extras()),
        }
    }

    /// A new instance of `cls` (made as python-chess makes its copies: `cls(None)`) holding
    /// `board` and the given extras.
    fn instance(
        cls: &Bound<'_, PyType>,
        board: Board,
        extras: Extras,
        history: Vec<Extras>,
    ) -> PyResult<Py<PyAny>> {
        let py = cls.py();
        let chess960 = board.board().is_chess960();
        let kwargs = [("chess960", chess960)].into_py_dict(py)?;
        let instance = cls.call((None::<String>,), Some(&kwargs))?;
        {
            let variant = instance.cast::<VariantBoard>()?;
            let mut this = variant.try_borrow_mut()?;
            this.set_extras(extras);
            this.history = history;
            **this.as_super() = board;
            VariantBoard::sync_repetition(&mut this);
        }
        Ok(instance.unbind())
    }

    /// `fen` with this variant's fields: Three-check's counters after the en-passant field,
    /// Crazyhouse's pockets after the placement (written with `~` marks unless `promoted` is
    /// False).
    fn decorate(position: &CoreVariantBoard, fen: &str, promoted: Option<bool>) -> String {
        match position.variant() {
            Variant::ThreeCheck => {
                let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
                let [white, black] = position.remaining_checks().map(|n| n.max(0));
                fields.insert(4.min(fields.len()), format!("{white}+{black}"));
                fields.join(" ")
            }
            Variant::Crazyhouse => {
                let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
                let placement = position.board().board_fen_with(promoted.unwrap_or(true));
                let full = position.fen();
                let pockets_start = full.find('[').unwrap_or(0);
                let pockets_end = full.find(']').map_or(0, |i| i + 1);
                let pockets = &full[pockets_start..pockets_end];
                if rest.is_empty() {
                    format!("{placement}{pockets}")
                } else {
                    format!("{placement}{pockets} {rest}")
                }
            }
            _ => fen.to_string(),
        }
    }
}

/// The error refusing the move shown as `text` in `position`.
fn illegal(position: &CoreVariantBoard, text: String) -> crate::errors::Error {
    MoveError::Illegal {
        text,
        fen: position.fen(),
    }
    .into()
}

/// How a `Move` argument is named in an error (its `str`, else its UCI).
fn shown(r#move: &Bound<'_, PyAny>, uci: UciMove) -> String {
    r#move
        .str()
        .map_or_else(|_| uci.to_string(), |s| s.to_string())
}

/// The legal move (or null move) `uci` stands for in `position`.
fn resolve_uci(
    position: &CoreVariantBoard,
    uci: UciMove,
    text: impl FnOnce() -> String,
) -> Result<CoreMove> {
    if uci.is_null() {
        return Ok(CoreMove::NULL);
    }
    position.find_legal(uci).ok_or_else(|| {
        MoveError::Illegal {
            text: text(),
            fen: position.fen(),
        }
        .into()
    })
}

/// The Python `Move` of `m`, drops included.
fn py_move(py: Python<'_>, position: &CoreVariantBoard, m: CoreMove) -> PyResult<Py<Move>> {
    // Drops are interned too (`moves::interned`).
    if m.is_null() {
        return Ok(intern(py, UciMove::NULL));
    }
    Ok(intern(py, position.uci(m)))
}

/// Does `m` go from a square of `from_mask` to one of `to_mask` (a drop: its square in both)?
fn in_masks(m: CoreMove, from_mask: u64, to_mask: u64) -> bool {
    Bitboard(from_mask).contains(m.from) && Bitboard(to_mask).contains(m.to)
}

/// A Python iterator over `moves` of `board` (drops included), built at their known length.
fn moves_list(py: Python<'_>, board: &CoreBoard, moves: &[CoreMove]) -> PyResult<Py<PyAny>> {
    let objects = moves.iter().map(|&m| {
        intern(
            py,
            if m.is_null() {
                UciMove::NULL
            } else {
                board.uci(m)
            },
        )
    });
    Ok(PyList::new(py, objects)?
        .into_any()
        .try_iter()?
        .into_any()
        .unbind())
}

#[pymethods]
impl VariantBoard {
    /// An empty board of the class's variant; `__init__` sets the position.
    #[new]
    #[classmethod]
    #[pyo3(signature = (*_args, **_kwargs), text_signature = "(fen=..., chess960=False)")]
    fn new(
        cls: &Bound<'_, PyType>,
        _args: &Bound<'_, PyTuple>,
        _kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyClassInitializer<VariantBoard>> {
        let variant = class_variant(cls)?;
        Ok(
            PyClassInitializer::from(Board::new_game(CoreBoard::empty(false))).add_subclass(
                VariantBoard {
                    variant,
                    remaining_checks: [3, 3],
                    pockets: NO_POCKETS,
                    history: Vec::new(),
                    legal: Mutex::new(LegalSlot::default()),
                    legal_stack: Vec::new(),
                },
            ),
        )
    }

    /// Sets the position from a FEN of the variant (None: an empty board), as python-chess's
    /// variant boards take it: ``(fen=starting_fen, chess960=False)``.
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong.
    #[pyo3(signature = (*args, **kwargs))]
    fn __init__(
        slf: &Bound<'_, Self>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let (fen, chess960) = init_args(&slf.get_type(), args, kwargs)?;
        let mut this = slf.try_borrow_mut()?;
        let variant = this.variant;
        let position = match fen {
            Some(fen) => CoreVariantBoard::from_fen(&fen, variant, chess960)
                .map_err(crate::errors::Error::from)?,
            None => CoreVariantBoard::from_parts(
                CoreBoard::empty(chess960),
                variant,
                [3, 3],
                NO_POCKETS,
            ),
        };
        VariantBoard::set_position(&mut this, position);
        Ok(())
    }

    /// Gives each subclass descriptors of its own for the fast ``push`` and ``pop`` (see
    /// ``install_subclass_methods``); keyword arguments go on to ``object``.
    #[classmethod]
    #[pyo3(signature = (**kwargs))]
    fn __init_subclass__(
        cls: &Bound<'_, PyType>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        // `object.__init_subclass__`: refuses keyword arguments, as without this method.
        cls.py()
            .get_type::<PyAny>()
            .getattr("__init_subclass__")?
            .call((), kwargs)?;
        install_subclass_methods(cls)
    }

    /// The legal moves, as a lazy view (``count()``, ``in``, iteration).
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> super::LegalMoveGenerator {
        super::LegalMoveGenerator::of_variant(slf.clone().into_any().unbind())
    }

    /// The pseudo-legal moves, as a lazy view.
    #[getter]
    fn pseudo_legal_moves(slf: &Bound<'_, Self>) -> super::PseudoLegalMoveGenerator {
        super::PseudoLegalMoveGenerator::of_other(slf.clone().into_any().unbind())
    }

    /// The legal moves from ``from_mask`` to ``to_mask`` (drops: their square in both).
    #[pyo3(signature = (from_mask = super::BB_ALL, to_mask = super::BB_ALL))]
    fn generate_legal_moves(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let moves: Vec<CoreMove> = VariantBoard::with_legal(&slf, |cache| {
            cache
                .moves
                .iter()
                .copied()
                .filter(|&m| in_masks(m, from_mask, to_mask))
                .collect()
        });
        moves_list(py, slf.as_super().board(), &moves)
    }

    /// The legal captures from ``from_mask`` to ``to_mask``.
    #[pyo3(signature = (from_mask = super::BB_ALL, to_mask = super::BB_ALL))]
    fn generate_legal_captures(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let position = VariantBoard::position(&slf);
        let board = position.board();
        let legal = position.legal_moves();
        let moves: Vec<CoreMove> = legal
            .iter()
            .copied()
            .filter(|&m| in_masks(m, from_mask, to_mask))
            .filter(|&m| !m.is_drop() && board.is_capture_move(board.uci(m)))
            .collect();
        moves_list(py, board, &moves)
    }

    /// The pseudo-legal moves: the standard board's, with the variant's legal moves that it
    /// lacks (king promotions in the Antichess family; Crazyhouse's drops are in
    /// ``generate_pseudo_legal_drops``, as in python-chess).
    #[pyo3(signature = (from_mask = super::BB_ALL, to_mask = super::BB_ALL))]
    fn generate_pseudo_legal_moves(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let position = VariantBoard::position(&slf);
        let mut moves: Vec<CoreMove> = position
            .board()
            .pseudo_legal_moves_masked(Bitboard(from_mask), Bitboard(to_mask))
            .to_vec();
        for &m in position.legal_moves().iter() {
            if !m.is_drop() && in_masks(m, from_mask, to_mask) && !moves.contains(&m) {
                moves.push(m);
            }
        }
        moves_list(py, position.board(), &moves)
    }

    /// Is the move legal here?
    fn is_legal(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = move_arg(r#move)?;
        Ok(VariantBoard::with_legal(&slf, |cache| {
            cache.find(uci).is_some()
        }))
    }

    /// Is the move pseudo-legal here (a drop: a piece in hand onto an empty square, pawns not
    /// on a back rank)?
    fn is_pseudo_legal(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = move_arg(r#move)?;
        if uci.is_null() {
            return Ok(false);
        }
        let position = VariantBoard::position(&slf);
        if position.find_legal(uci).is_some() {
            return Ok(true);
        }
        let board = position.board();
        if let Some(drop) = uci.as_drop() {
            let us = board.turn();
            return Ok(slf.variant == Variant::Crazyhouse
                && position.pockets()[us.index()][drop.role.index()] > 0
                && !board.occupied().contains(drop.to)
                && !(drop.role == Role::Pawn && Bitboard::BACKRANKS.contains(drop.to)));
        }
        Ok(board
            .find_pseudo_legal(board.normalize_castling(uci))
            .is_some())
    }

    // `push` (METH_O) and `pop` (METH_NOARGS) are installed by `install_fast_methods`.

    /// Parses a SAN move of the variant (drops: ``N@f3``, ``@e4``) and plays it.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn push_san(mut slf: PyRefMut<'_, Self>, py: Python<'_>, san: &str) -> Result<Py<Move>> {
        let position = VariantBoard::position_mut(&mut slf);
        let m = position.parse_san(san)?.unwrap_or(CoreMove::NULL);
        let shown = py_move(py, &position, m)?;
        VariantBoard::play(&mut slf, py, m);
        Ok(shown)
    }

    /// The legal move (or null move) a SAN stands for.
    ///
    /// :raises: :exc:`InvalidMoveError`, :exc:`IllegalMoveError` or :exc:`AmbiguousMoveError`.
    fn parse_san(slf: PyRef<'_, Self>, py: Python<'_>, san: &str) -> Result<Py<Move>> {
        let position = VariantBoard::position(&slf);
        let m = position.parse_san(san)?.unwrap_or(CoreMove::NULL);
        Ok(py_move(py, &position, m)?)
    }

    /// Parses a UCI move (drops: ``N@f3``) and plays it.
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn push_uci(mut slf: PyRefMut<'_, Self>, py: Python<'_>, uci: &str) -> Result<Py<Move>> {
        let m = VariantBoard::resolve_mut(&mut slf, uci_text(uci)?, || uci.to_string())?;
        let shown = py_move(py, &VariantBoard::position_mut(&mut slf), m)?;
        VariantBoard::play(&mut slf, py, m);
        Ok(shown)
    }

    /// The legal move (or null move) a UCI string stands for.
    ///
    /// :raises: :exc:`InvalidMoveError` for malformed text, :exc:`IllegalMoveError` if illegal.
    fn parse_uci(slf: PyRef<'_, Self>, py: Python<'_>, uci: &str) -> Result<Py<Move>> {
        let m = VariantBoard::resolve_cached(&slf, uci_text(uci)?, || uci.to_string())?;
        Ok(py_move(py, &VariantBoard::position(&slf), m)?)
    }

    /// SAN of a legal move, python-chess's way for the variant (``#`` after a variant win or
    /// loss; drops ``N@f3``, ``@e4``).
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn san(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = VariantBoard::resolve(&slf, r#move)?;
        Ok(VariantBoard::position(&slf).san(m))
    }

    /// Long algebraic notation of a legal move.
    ///
    /// :raises: :exc:`IllegalMoveError` if the move is not legal.
    fn lan(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = VariantBoard::resolve(&slf, r#move)?;
        Ok(VariantBoard::position(&slf).lan(m))
    }

    /// SAN of a legal move, then plays it.
    fn san_and_push(mut slf: PyRefMut<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = VariantBoard::resolve_arg_mut(&mut slf, r#move)?;
        let san = VariantBoard::position_mut(&mut slf).san(m);
        VariantBoard::play(&mut slf, r#move.py(), m);
        Ok(san)
    }

    /// LAN of a legal move, then plays it.
    fn lan_and_push(mut slf: PyRefMut<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<String> {
        let m = VariantBoard::resolve_arg_mut(&mut slf, r#move)?;
        let lan = VariantBoard::position_mut(&mut slf).lan(m);
        VariantBoard::play(&mut slf, r#move.py(), m);
        Ok(lan)
    }

    /// The legal move from ``from_square`` to ``to_square`` (a pawn reaching the back rank
    /// promotes to a queen unless ``promotion`` says otherwise).
    ///
    /// :raises: :exc:`IllegalMoveError` if there is none.
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        from_square: u32,
        to_square: u32,
        promotion: Option<u8>,
    ) -> Result<Py<Move>> {
        let from = square_arg(from_square, "square")?;
        let to = square_arg(to_square, "square")?;
        let position = VariantBoard::position(&slf);
        let board = position.board();
        let promotion = promotion.and_then(Role::from_number).or_else(|| {
            (board.role_at(from) == Some(Role::Pawn) && Bitboard::BACKRANKS.contains(to))
                .then_some(Role::Queen)
        });
        let uci = UciMove {
            from,
            to,
            promotion,
        };
        let m = resolve_uci(&position, uci, || uci.to_string())?;
        Ok(py_move(py, &position, m)?)
    }

    /// A line of moves in SAN with move numbers, e.g. ``1. e4 d5 2. exd5 Qxd5 3. @e4``.
    ///
    /// :raises: :exc:`IllegalMoveError` if a move of the line is illegal.
    fn variation_san(slf: PyRef<'_, Self>, variation: &Bound<'_, PyAny>) -> Result<String> {
        let line = variation
            .try_iter()?
            .map(|item| move_arg(&item?))
            .collect::<PyResult<Vec<UciMove>>>()?;
        Ok(VariantBoard::position(&slf).variation_san(&line)?)
    }

    /// UCI text of a move (drops ``N@f3``; castling as ``e1g1``, or ``e1h1`` when
    /// ``chess960``, default: the board's mode).
    #[pyo3(signature = (r#move, *, chess960 = None))]
    fn uci(
        slf: PyRef<'_, Self>,
        r#move: &Bound<'_, PyAny>,
        chess960: Option<bool>,
    ) -> PyResult<String> {
        let uci = move_arg(r#move)?;
        if uci.as_drop().is_some() || uci.is_null() {
            return Ok(uci.to_string());
        }
        let mut board = slf.as_super().board().clone();
        board.set_chess960(chess960.unwrap_or(board.is_chess960()));
        let position =
            CoreVariantBoard::from_parts(board, slf.variant, slf.remaining_checks, slf.pockets);
        Ok(match position.find_legal(uci) {
            Some(m) if m.is_castle() => position.uci(m).to_string(),
            _ => uci.to_string(),
        })
    }

    fn is_check(slf: PyRef<'_, Self>) -> bool {
        CoreVariantBoard::is_check_of(slf.variant, slf.as_super().board())
    }

    fn is_checkmate(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).is_checkmate()
    }

    fn is_stalemate(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).is_stalemate()
    }

    /// Is the material insufficient for both sides (the variant's rules)?
    fn is_insufficient_material(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).is_insufficient_material()
    }

    /// Can ``color`` not possibly win, by the variant's rules?
    fn has_insufficient_material(slf: PyRef<'_, Self>, color: bool) -> bool {
        VariantBoard::position(&slf).has_insufficient_material(color_arg(color))
    }

    /// Has a rule of the variant ended the game?
    fn is_variant_end(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).is_variant_end()
    }

    /// Has the side to move won by a rule of the variant?
    fn is_variant_win(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).variant_result() == Some(VariantResult::Win)
    }

    /// Has the side to move lost by a rule of the variant?
    fn is_variant_loss(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).variant_result() == Some(VariantResult::Loss)
    }

    /// Has a rule of the variant drawn the game?
    fn is_variant_draw(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).variant_result() == Some(VariantResult::Draw)
    }

    /// Does the move give check (never in the Antichess family)?
    fn gives_check(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let position = VariantBoard::position(&slf);
        let uci = move_arg(r#move)?;
        if slf.variant.is_antichess() || uci.is_null() {
            return Ok(false);
        }
        if let Some(m) = position.find_legal(uci) {
            return Ok(position.after(m).is_check());
        }
        let board = position.board();
        let m = board.find_pseudo_legal(board.normalize_castling(uci));
        Ok(m.is_some_and(|m| board.after(m).is_check()))
    }

    /// Would the move leave the mover's king attacked (never in the Antichess family)?
    fn is_into_check(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        if slf.variant.is_antichess() {
            return Ok(false);
        }
        let uci = move_arg(r#move)?;
        if uci.as_drop().is_some() {
            return Ok(false);
        }
        Ok(slf.as_super().board().is_into_check_uci(uci))
    }

    /// Is the side not to move in check (never in the Antichess family)?
    fn was_into_check(slf: PyRef<'_, Self>) -> bool {
        !slf.variant.is_antichess() && slf.as_super().board().was_into_check()
    }

    /// The squares of the pieces giving check (none in the Antichess family).
    fn checkers_mask(slf: PyRef<'_, Self>) -> u64 {
        let position = VariantBoard::position(&slf);
        if position.is_check() {
            position.board().checkers().0
        } else {
            0
        }
    }

    /// The pieces giving check, as ``checkers_mask`` gives them (none in the Antichess
    /// family, none while Atomic's kings touch).
    fn checkers(slf: PyRef<'_, Self>) -> SquareSet {
        SquareSet {
            mask: Self::checkers_mask(slf),
        }
    }

    /// Does the move end the reversible sequence: in Three-check also a check, in Crazyhouse
    /// only a loss of castling rights (captured pieces stay in play)?
    fn is_irreversible(slf: PyRef<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let uci = move_arg(r#move)?;
        let position = VariantBoard::position(&slf);
        let board = position.board();
        Ok(match slf.variant {
            Variant::Crazyhouse => !uci.is_null() && board.reduces_castling_rights(uci),
            Variant::ThreeCheck => {
                board.is_irreversible_move(uci)
                    || (!uci.is_null()
                        && position
                            .find_legal(uci)
                            .is_some_and(|m| position.after(m).is_check()))
            }
            _ => board.is_irreversible_move(uci),
        })
    }

    /// Has the fifty-move clock reached 100 half-moves with a legal move of the variant left?
    /// Never in Crazyhouse (python-chess: captured pieces stay in play).
    fn is_fifty_moves(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::fifty_moves_now(&slf)
    }

    /// May the side to move claim the fifty-move rule, now or by announcing a legal move of
    /// the variant after which it holds (never in Crazyhouse)?
    fn can_claim_fifty_moves(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::fifty_moves_claim(&slf)
    }

    /// May the side to move claim a draw by threefold repetition, now or by announcing a
    /// legal move of the variant that repeats a position for the third time (positions
    /// compared by the variant's repetition key, as python-chess's ``_transposition_key``:
    /// Three-check's counters, Crazyhouse's pockets and promoted pieces count)?
    fn can_claim_threefold_repetition(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::threefold_claim(&slf)
    }

    /// Either claimable draw: the fifty-move rule or threefold repetition.
    fn can_claim_draw(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::fifty_moves_claim(&slf) || VariantBoard::threefold_claim(&slf)
    }

    /// Is the fifty-move clock at 150 half-moves with a legal move left (never in
    /// Crazyhouse)?
    fn is_seventyfive_moves(slf: PyRef<'_, Self>) -> bool {
        let position = VariantBoard::position(&slf);
        slf.variant != Variant::Crazyhouse
            && position.board().halfmove_clock() >= 150
            && position.has_legal_moves()
    }

    /// The ``Outcome`` if the game has ended (the variant's rules first, then python-chess's
    /// order), else None.
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        claim_draw: bool,
    ) -> PyResult<Option<Py<PyAny>>> {
        let position = VariantBoard::position(&slf);
        let has_legal_moves = || VariantBoard::with_legal(&slf, |cache| !cache.moves.is_empty());
        let (termination, winner) = match position.outcome_with(has_legal_moves) {
            Some(outcome) => (outcome.termination, outcome.winner),
            None => {
                let game = &slf.as_super().game;
                if game.is_fivefold_repetition() {
                    (pychess_core::Termination::FivefoldRepetition, None)
                } else if claim_draw && VariantBoard::fifty_moves_claim(&slf) {
                    (pychess_core::Termination::FiftyMoves, None)
                } else if claim_draw && VariantBoard::threefold_claim(&slf) {
                    (pychess_core::Termination::ThreefoldRepetition, None)
                } else {
                    return Ok(None);
                }
            }
        };
        let member = py_modules::termination(py)?.getattr(termination.name())?;
        let winner = winner.map(|c| c.is_white());
        Ok(Some(
            py_modules::outcome(py)?.call1((member, winner))?.unbind(),
        ))
    }

    /// Is the game over (see ``outcome``)?
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(slf: PyRef<'_, Self>, py: Python<'_>, claim_draw: bool) -> PyResult<bool> {
        Ok(VariantBoard::outcome(slf, py, claim_draw)?.is_some())
    }

    /// ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``.
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(slf: PyRef<'_, Self>, py: Python<'_>, claim_draw: bool) -> PyResult<String> {
        match VariantBoard::outcome(slf, py, claim_draw)? {
            Some(outcome) => outcome.bind(py).call_method0("result")?.extract(),
            None => Ok("*".to_string()),
        }
    }

    /// What is wrong with the position by the variant's rules (python-chess's variant
    /// ``status()``).
    fn status(slf: PyRef<'_, Self>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let status = VariantBoard::position(&slf).status().0;
        Ok(py_modules::status(py)?.call1((status,))?.unbind())
    }

    /// Is ``status()`` empty?
    fn is_valid(slf: PyRef<'_, Self>) -> bool {
        VariantBoard::position(&slf).status().is_valid()
    }

    /// Leaf nodes of the variant's legal-move tree ``depth`` plies deep (native).
    fn perft(slf: PyRef<'_, Self>, py: Python<'_>, depth: u32) -> u64 {
        let position = VariantBoard::position(&slf);
        py.detach(|| position.perft(depth))
    }

    /// Perft by first move by the variant's rules: ``{uci: nodes}`` (native; releases the
    /// GIL).
    fn perft_divide<'py>(
        slf: PyRef<'py, Self>,
        py: Python<'py>,
        depth: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        let position = VariantBoard::position(&slf);
        let divided = py.detach(|| position.perft_divide(depth));
        let dict = PyDict::new(py);
        for (m, nodes) in divided {
            dict.set_item(position.uci(m).to_string(), nodes)?;
        }
        Ok(dict)
    }

    /// The FEN, with the variant's fields (Three-check's ``3+3``, Crazyhouse's pockets and
    /// ``~`` marks). ``en_passant`` is ``'legal'`` (default: by the variant's rules), ``'fen'``
    /// or ``'xfen'``.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(
        slf: PyRef<'_, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
    ) -> PyResult<String> {
        let mode = ep_mode_arg(en_passant)?;
        let position = VariantBoard::position(&slf);
        if !shredder && mode == EpMode::Legal && promoted.is_none() {
            return Ok(position.fen());
        }
        let mut board = position.board().clone();
        let mode = if mode == EpMode::Legal {
            board.set_ep_square(position.legal_ep_square());
            EpMode::Always
        } else {
            mode
        };
        let mut fen = board.fen_with(shredder, mode);
        if promoted == Some(true) && slf.variant != Variant::Crazyhouse {
            let rest = fen.split_once(' ').map_or("", |(_, rest)| rest).to_string();
            fen = format!("{} {rest}", board.board_fen_with(true));
        }
        Ok(VariantBoard::decorate(&position, &fen, promoted))
    }

    /// The placement part of the FEN (Crazyhouse: with ``~`` marks unless ``promoted`` is
    /// False, and without the pockets, as python-chess writes it).
    #[pyo3(signature = (*, promoted = None))]
    fn board_fen(slf: PyRef<'_, Self>, promoted: Option<bool>) -> String {
        let default = slf.variant == Variant::Crazyhouse;
        slf.as_super()
            .board()
            .board_fen_with(promoted.unwrap_or(default))
    }

    /// The EPD: the first four FEN fields with the variant's (Three-check's counters,
    /// Crazyhouse's pockets), then operations given as keyword arguments.
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd(
        slf: &Bound<'_, Self>,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let py = slf.py();
        let kwargs = PyDict::new(py);
        if let Some(operations) = operations {
            kwargs.update(operations.as_mapping())?;
        }
        kwargs.set_item("shredder", shredder)?;
        kwargs.set_item("en_passant", en_passant)?;
        kwargs.set_item("promoted", promoted)?;
        let epd: String = py
            .get_type::<Board>()
            .getattr("epd")?
            .call((slf,), Some(&kwargs))?
            .extract()?;
        let this = slf.try_borrow()?;
        let position = VariantBoard::position(&this);
        let mut fields: Vec<&str> = epd.splitn(5, ' ').collect();
        let legal_ep = position.legal_ep_square();
        let ep_text;
        if en_passant == "legal" && fields.len() > 3 {
            ep_text = legal_ep.map_or("-".to_string(), |sq| sq.to_string());
            fields[3] = &ep_text;
        }
        let head = fields[..fields.len().min(4)].join(" ");
        let mut out = VariantBoard::decorate(&position, &head, promoted);
        if let Some(rest) = fields.get(4) {
            out.push(' ');
            out.push_str(rest);
        }
        Ok(out)
    }

    /// Replaces the position with a FEN of the variant and clears the move stack.
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong; the board is left unchanged.
    fn set_fen(mut slf: PyRefMut<'_, Self>, fen: &str) -> Result<()> {
        let chess960 = slf.as_super().board().is_chess960();
        let position = CoreVariantBoard::from_fen(fen, slf.variant, chess960)?;
        VariantBoard::set_position(&mut slf, position);
        Ok(())
    }

    /// Parses an EPD of the variant into this board (Three-check's counters as a fifth field,
    /// Crazyhouse's pockets with the placement) and returns its operations.
    ///
    /// :raises: :exc:`InvalidFenError` naming what is wrong.
    fn set_epd<'py>(slf: &Bound<'py, Self>, epd: &str) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let variant = slf.try_borrow()?.variant;
        let chess960 = slf.try_borrow()?.as_super().board().is_chess960();
        let trimmed = epd.trim().trim_end_matches(';');
        let mut parts: Vec<&str> = trimmed.splitn(6, char::is_whitespace).collect();
        let mut fen_fields: Vec<String> = parts.iter().take(4).map(|s| s.to_string()).collect();
        if variant == Variant::ThreeCheck && parts.len() > 4 && parts[4].contains('+') {
            fen_fields.push(parts.remove(4).to_string());
        }
        fen_fields.push("0 1".to_string());
        let position = CoreVariantBoard::from_fen(&fen_fields.join(" "), variant, chess960)
            .map_err(crate::errors::Error::from)?;
        let mut standard: Vec<String> = parts.iter().map(|s| s.to_string()).collect();
        if let Some(placement) = standard.first_mut() {
            *placement = position.board().board_fen_with(true);
        }
        let operations = py
            .get_type::<Board>()
            .getattr("set_epd")?
            .call1((slf, standard.join(" ")))?;
        let mut this = slf.try_borrow_mut()?;
        this.set_extras((position.remaining_checks(), *position.pockets()));
        this.history.clear();
        VariantBoard::sync_repetition(&mut this);
        Ok(operations)
    }

    /// Creates a board of the variant from an EPD; returns ``(board, operations)``.
    #[classmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd<'py>(
        cls: &Bound<'py, PyType>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let kwargs = [("chess960", chess960)].into_py_dict(cls.py())?;
        let board = cls.call((None::<String>,), Some(&kwargs))?;
        let operations = board.call_method1("set_epd", (epd,))?;
        Ok((board, operations))
    }

    /// Back to the variant's starting position (the Chess960 flag is kept).
    fn reset(slf: &Bound<'_, Self>) -> PyResult<()> {
        let fen: String = slf.get_type().getattr("starting_fen")?.extract()?;
        let mut this = slf.try_borrow_mut()?;
        let chess960 = this.as_super().board().is_chess960();
        let position = CoreVariantBoard::from_fen(&fen, this.variant, chess960)
            .map_err(crate::errors::Error::from)?;
        VariantBoard::set_position(&mut this, position);
        Ok(())
    }

    /// Empties the board (pockets too, Three-check's counters back to 3), White to move.
    fn clear(mut slf: PyRefMut<'_, Self>) {
        let chess960 = slf.as_super().board().is_chess960();
        let position = CoreVariantBoard::from_parts(
            CoreBoard::empty(chess960),
            slf.variant,
            [3, 3],
            NO_POCKETS,
        );
        VariantBoard::set_position(&mut slf, position);
    }

    /// Removes every piece (the pockets emptied, the counters back to 3; the other fields
    /// stay) and clears the move stack.
    fn clear_board(slf: &Bound<'_, Self>) -> PyResult<()> {
        slf.py()
            .get_type::<Board>()
            .getattr("clear_board")?
            .call1((slf,))?;
        let mut this = slf.try_borrow_mut()?;
        this.set_extras(NO_EXTRAS);
        this.history.clear();
        VariantBoard::sync_repetition(&mut this);
        Ok(())
    }

    /// Puts the pieces on their standard starting squares (the pockets emptied, the counters
    /// back to 3) and clears the move stack.
    fn reset_board(slf: &Bound<'_, Self>) -> PyResult<()> {
        slf.py()
            .get_type::<Board>()
            .getattr("reset_board")?
            .call1((slf,))?;
        let mut this = slf.try_borrow_mut()?;
        this.set_extras(NO_EXTRAS);
        this.history.clear();
        VariantBoard::sync_repetition(&mut this);
        Ok(())
    }

    /// Forgets the move stack (the current position becomes the root).
    fn clear_stack(mut slf: PyRefMut<'_, Self>, py: Python<'_>) {
        slf.history.clear();
        slf.as_super().game_mut(py).clear_stack();
    }

    /// A copy; ``stack`` keeps all moves (True), none (False) or the last N (int).
    #[pyo3(signature = (*, stack = None))]
    fn copy(slf: &Bound<'_, Self>, stack: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
        let keep = match stack {
            None => None,
            Some(s) if s.is_instance_of::<PyBool>() => (!s.extract::<bool>()?).then_some(0),
            Some(s) => Some(s.extract::<usize>()?),
        };
        let (board, extras, history) = {
            let this = slf.try_borrow()?;
            let base = this.as_super();
            let board = match keep {
                None => Board::clone(base),
                Some(keep) => Board::from_game(base.game.with_last_moves(keep)),
            };
            let kept = board.game.moves().len().min(this.history.len());
            let history = this.history[this.history.len() - kept..].to_vec();
            (board, this.extras(), history)
        };
        VariantBoard::instance(&slf.get_type(), board, extras, history)
    }

    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        VariantBoard::copy(slf, None)
    }

    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        VariantBoard::copy(slf, None)
    }

    /// The starting position of the game (its pockets and counters too), without moves.
    fn root(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let (board, extras) = {
            let this = slf.try_borrow()?;
            let base = this.as_super();
            let root = base.game.root().clone();
            let extras = this.root_extras(base.game.moves().len());
            (Board::new_game(root), extras)
        };
        VariantBoard::instance(&slf.get_type(), board, extras, Vec::new())
    }

    /// Pickles as the root position's FEN and the moves in UCI, replayed by
    /// ``pychess_rs.variant._rebuild``.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let (fen, chess960, moves) = {
            let this = slf.try_borrow()?;
            let base = this.as_super();
            let root = base.game.root().clone();
            let chess960 = root.is_chess960();
            let (checks, pockets) = this.root_extras(base.game.moves().len());
            let root = CoreVariantBoard::from_parts(root, this.variant, checks, pockets);
            let moves: Vec<String> = base.game.uci_moves().map(|m| m.to_string()).collect();
            (root.fen(), chess960, moves)
        };
        let rebuild = py.import("pychess_rs.variant")?.getattr("_rebuild")?;
        let args = (slf.get_type(), fen, chess960, moves).into_pyobject(py)?;
        PyTuple::new(py, [rebuild, args.into_any()])
    }

    /// The position with colours swapped and the board flipped (pockets and counters
    /// swapped too).
    fn mirror(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let (board, extras) = {
            let this = slf.try_borrow()?;
            let board = Board::new_game(this.as_super().board().mirror());
            let [white, black] = this.remaining_checks;
            let [white_pocket, black_pocket] = this.pockets;
            (board, ([black, white], [black_pocket, white_pocket]))
        };
        VariantBoard::instance(&slf.get_type(), board, extras, Vec::new())
    }

    /// Equal when the variant, the position (as ``Board`` compares it) and the variant's
    /// state (counters, pockets) are.
    fn __eq__(slf: PyRef<'_, Self>, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<VariantBoard>() else {
            return false;
        };
        let Ok(other) = other.try_borrow() else {
            return false;
        };
        if other.variant != slf.variant {
            return false;
        }
        let (ours, theirs) = (VariantBoard::position(&slf), VariantBoard::position(&other));
        ours.board().same_position(theirs.board())
            && ours.remaining_checks() == theirs.remaining_checks()
            && ours.pockets() == theirs.pockets()
            && (slf.variant != Variant::Crazyhouse
                || ours.board().promoted() == theirs.board().promoted())
    }

    fn __ne__(slf: PyRef<'_, Self>, other: &Bound<'_, PyAny>) -> bool {
        !VariantBoard::__eq__(slf, other)
    }

    #[classattr]
    fn __hash__() -> Option<Py<PyAny>> {
        None
    }

    /// ``ClassName('fen')``, the FEN with the variant's fields.
    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let class = slf.get_type().name()?;
        let this = slf.try_borrow()?;
        let position = VariantBoard::position(&this);
        Ok(if position.board().is_chess960() {
            format!("{class}('{}', chess960=True)", position.fen())
        } else {
            format!("{class}('{}')", position.fen())
        })
    }

    /// Three-check: the checks White and Black still have to give, ``[white, black]``.
    #[getter(_remaining_checks)]
    fn get_remaining_checks(&self) -> (i64, i64) {
        (self.remaining_checks[0], self.remaining_checks[1])
    }

    #[setter(_remaining_checks)]
    fn set_remaining_checks(mut slf: PyRefMut<'_, Self>, checks: (i64, i64)) {
        slf.remaining_checks = [checks.0, checks.1];
        VariantBoard::sync_repetition(&mut slf);
    }

    /// Crazyhouse: the pieces in hand of ``color``, counted by piece type (pawn first).
    fn _pocket_counts(&self, color: bool) -> Vec<u32> {
        self.pockets[color_arg(color).index()].to_vec()
    }

    /// Crazyhouse: sets the pieces in hand of ``color`` (six counts, pawn first).
    fn _set_pocket_counts(mut slf: PyRefMut<'_, Self>, color: bool, counts: [u32; 6]) {
        slf.pockets[color_arg(color).index()] = counts;
        VariantBoard::sync_repetition(&mut slf);
    }

    /// Crazyhouse: the squares a piece may be dropped on (empty, and between the king and a
    /// single checker when in check), as a mask.
    fn legal_drop_squares_mask(slf: PyRef<'_, Self>) -> u64 {
        legal_drop_squares(slf.as_super().board()).0
    }

    /// Crazyhouse: the squares a piece may be dropped on.
    fn legal_drop_squares(slf: PyRef<'_, Self>) -> SquareSet {
        SquareSet {
            mask: legal_drop_squares(slf.as_super().board()).0,
        }
    }

    /// Crazyhouse: the legal drops onto ``to_mask``.
    #[pyo3(signature = (to_mask = super::BB_ALL))]
    fn generate_legal_drops(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let position = VariantBoard::position(&slf);
        let legal = position.legal_moves();
        let moves: Vec<CoreMove> = legal
            .iter()
            .copied()
            .filter(|&m| m.is_drop() && Bitboard(to_mask).contains(m.to))
            .collect();
        moves_list(py, position.board(), &moves)
    }

    /// Crazyhouse: the drops of pieces in hand onto empty squares of ``to_mask`` (pawns not
    /// on a back rank), legal or not.
    #[pyo3(signature = (to_mask = super::BB_ALL))]
    fn generate_pseudo_legal_drops(
        slf: PyRef<'_, Self>,
        py: Python<'_>,
        to_mask: u64,
    ) -> PyResult<Py<PyAny>> {
        let position = VariantBoard::position(&slf);
        let board = position.board();
        let pocket = position.pockets()[board.turn().index()];
        let mut moves = Vec::new();
        if slf.variant == Variant::Crazyhouse {
            for role in [
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
            ] {
                if pocket[role.index()] == 0 {
                    continue;
                }
                let mut targets = Bitboard(to_mask) & !board.occupied();
                if role == Role::Pawn {
                    targets &= !Bitboard::BACKRANKS;
                }
                for to in targets {
                    moves.push(CoreMove {
                        from: to,
                        to,
                        kind: MoveKind::Drop(role),
                    });
                }
            }
        }
        moves_list(py, board, &moves)
    }
}

/// A Python board of `position`'s variant (python-chess's class from `pychess_rs.variant`)
/// holding `position`, without moves: the PGN reader's starting board of a variant game.
pub(crate) fn new_instance<'py>(
    py: Python<'py>,
    position: &CoreVariantBoard,
) -> PyResult<Bound<'py, Board>> {
    let cls = py
        .import("pychess_rs.variant")?
        .getattr("find_variant")?
        .call1((position.variant().uci_name(),))?
        .cast_into::<PyType>()?;
    let extras = (position.remaining_checks(), *position.pockets());
    let board = Board::new_game(position.board().clone());
    let instance = VariantBoard::instance(&cls, board, extras, Vec::new())?;
    Ok(instance.into_bound(py).cast_into::<Board>()?)
}

/// Plays the legal move `m` on `board` by its variant's rules when it is a variant board
/// (returns false, playing nothing, for a chess board).
pub(crate) fn play_if_variant(board: &Bound<'_, Board>, m: CoreMove) -> PyResult<bool> {
    let Ok(variant) = board.cast::<VariantBoard>() else {
        return Ok(false);
    };
    let mut this = variant.try_borrow_mut()?;
    VariantBoard::play(&mut this, board.py(), m);
    Ok(true)
}

/// python-chess's `board.copy(); board.pop()` for a variant board (None for a chess board).
pub(crate) fn popped_copy_if_variant<'py>(
    board: &Bound<'py, Board>,
) -> PyResult<Option<Bound<'py, Board>>> {
    if board.cast::<VariantBoard>().is_err() {
        return Ok(None);
    }
    let copy = board.call_method0("copy")?;
    copy.call_method0("pop")?;
    Ok(Some(copy.cast_into::<Board>()?))
}

/// The body of `push`: plays a legal move (or the null move).
///
/// # Safety
/// `slf` must be a `VariantBoard` (or an instance of a subclass). CPython guarantees that when
/// it calls the method through the descriptor `install_fast_methods` puts on `VariantBoard`.
unsafe fn push_body<'py>(
    slf: Borrowed<'_, 'py, PyAny>,
    r#move: Borrowed<'_, 'py, PyAny>,
) -> PyResult<Py<PyAny>> {
    // SAFETY: the caller guarantees that `slf` is a `VariantBoard`.
    let board = unsafe { slf.cast_unchecked::<VariantBoard>() };
    let mut this = board.try_borrow_mut()?;
    let m = VariantBoard::resolve_arg_mut(&mut this, &r#move)?;
    VariantBoard::play(&mut this, slf.py(), m);
    Ok(slf.py().None())
}

/// The body of `pop`: takes back the last move and returns it.
///
/// # Safety
/// As for [`push_body`]: `slf` must be a `VariantBoard`.
unsafe fn pop_body(slf: Borrowed<'_, '_, PyAny>) -> PyResult<Py<PyAny>> {
    let py = slf.py();
    // SAFETY: the caller guarantees that `slf` is a `VariantBoard`.
    let board = unsafe { slf.cast_unchecked::<VariantBoard>() };
    let mut this = board.try_borrow_mut()?;
    let popped = this.as_super().game_mut(py).pop();
    let Some(m) = popped else {
        return Err(PyIndexError::new_err("pop from empty list"));
    };
    if let Some(extras) = this.history.pop() {
        this.set_extras(extras);
    }
    if let Some(cached) = this.legal_stack.pop() {
        let slot = this.legal.get_mut().unwrap_or_else(PoisonError::into_inner);
        if let Some(replaced) = std::mem::replace(&mut slot.current, cached) {
            slot.retire(replaced);
        }
    }
    let uci = if m.is_null() {
        UciMove::NULL
    } else {
        this.as_super().board().uci(m)
    };
    Ok(intern(py, uci).into_any())
}

one_arg_method!(PUSH => push_body);
no_arg_method!(POP => pop_body);

/// The definitions of the fast `push` and `pop`, for the subclasses' own descriptors.
static FAST_METHODS: OnceLock<[MethodDef; 2]> = OnceLock::new();

/// Puts `push` and `pop` on `VariantBoard` with CPython's cheapest calling conventions, as
/// `Board`'s (`fast.rs`).
pub(crate) fn install_fast_methods(py: Python<'_>) -> PyResult<()> {
    let class = py.get_type::<VariantBoard>();
    // SAFETY: `PUSH` and `POP` cast `self` to `VariantBoard`, and they are installed on
    // `VariantBoard` itself, whose method descriptors let CPython call them only with a
    // `VariantBoard` (or a subclass instance) as `self`.
    let definitions = unsafe {
        [
            fast_methods::install(
                &class,
                c"push",
                c"push($self, move, /)\n--\n\nPlays a legal move of the variant (or \
``Move.null()``).\n\n:raises: :exc:`IllegalMoveError` if the move is not legal in the variant; \
the board is unchanged.",
                PUSH,
            )?,
            fast_methods::install(
                &class,
                c"pop",
                c"pop($self, /)\n--\n\nTakes back the last move and returns it.\n\n\
:raises: :exc:`IndexError` if no move was played.",
                POP,
            )?,
        ]
    };
    // A second module initialisation (a subinterpreter) installs the same functions.
    let _ = FAST_METHODS.set(definitions);
    Ok(())
}

/// Gives the Python subclass `cls` descriptors of its own for the fast `push` and `pop`
/// where it inherits `VariantBoard`'s: CPython specialises a call of a method descriptor
/// only for instances of exactly the descriptor's class, so `AtomicBoard().push(m)` through
/// `VariantBoard`'s descriptor took the generic calling path (about 75 instructions more per
/// `push`/`pop` pair, callgrind). A method the subclass defines itself, or inherits from a
/// class between, is left alone.
fn install_subclass_methods(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let Some(definitions) = FAST_METHODS.get() else {
        return Ok(());
    };
    let base = cls.py().get_type::<VariantBoard>();
    for (definition, name) in definitions.iter().zip(["push", "pop"]) {
        let inherited = cls.getattr(name)?;
        let ours = inherited
            .getattr("__objclass__")
            .ok()
            .and_then(|owner| owner.cast_into::<PyType>().ok())
            .is_some_and(|owner| owner.is(&base) || owner.is_subclass(&base).unwrap_or(false))
            && inherited.get_type().name()?.to_cow()? == "method_descriptor";
        if ours {
            // SAFETY: `cls` is a subclass of `VariantBoard` (its `__init_subclass__` runs
            // this), so every instance CPython passes as `self` is a `VariantBoard`, which
            // `PUSH` and `POP` require.
            unsafe { fast_methods::install_def(cls, *definition)? };
        }
    }
    Ok(())
}

/// The legal moves of the variant board `board`, as an iterator over `Move`s (its
/// `legal_moves` view's `__iter__`).
pub(crate) fn legal_moves_iter(board: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let variant = board.cast::<VariantBoard>()?;
    let this = variant.try_borrow()?;
    let py = board.py();
    VariantBoard::with_legal(&this, |cache| {
        moves_list(py, cache.position.board(), &cache.moves)
    })
}

/// How many legal moves the variant board `board` has (its `legal_moves` view's `len`).
pub(crate) fn legal_moves_count(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    let variant = board.cast::<VariantBoard>()?;
    let this = variant.try_borrow()?;
    Ok(VariantBoard::with_legal(&this, |cache| cache.moves.len()))
}
