//! The book file, mapped into memory, and lookups in it: by key (binary search over the
//! sorted entries) and by position (python-chess's `find_all`: castling mapped to the
//! king's move outside Chess960, excluded and illegal moves skipped).

use crate::choice::{choose_weighted, SeededRandom};
use crate::entry::{Entry, UnknownPiece, ENTRY_SIZE};
use pychess_core::{Board, Move, UciMove};
use std::fmt;
use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;

/// Why a book cannot be opened.
#[derive(Debug)]
pub enum BookError {
    /// The file cannot be opened or read.
    Io(io::Error),
    /// The file's size is not a whole number of entries.
    Size {
        /// The size in bytes.
        len: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(err) => write!(f, "{err}"),
            BookError::Size { len } => write!(
                f,
                "invalid file size: {len} bytes is not a whole number of {ENTRY_SIZE}-byte entries"
            ),
        }
    }
}

impl std::error::Error for BookError {}

impl From<io::Error> for BookError {
    fn from(err: io::Error) -> BookError {
        BookError::Io(err)
    }
}

/// The bytes of a book: the mapped file, or bytes in memory.
enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map,
            Bytes::Owned(bytes) => bytes,
        }
    }
}

/// An opening book: entries sorted by key, read in place. Shared between threads freely
/// (nothing in it changes after it is opened).
pub struct Book {
    bytes: Bytes,
}

/// A book entry for a position, with its move made legal there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The entry as the book holds it.
    pub entry: Entry,
    /// The move as python-chess shows it: castling as the king's move (`e1g1`) unless the
    /// board is Chess960, where the book's king-takes-rook (`e1h1`) stays.
    pub uci: UciMove,
    /// The legal move to play.
    pub legal: Move,
}

impl Book {
    /// Maps the book at `path` into memory (python-chess's `MemoryMappedReader`). A file
    /// that cannot be mapped because it is empty or not a regular file (`/dev/null`, a
    /// directory) reads as an empty book, as in python-chess.
    ///
    /// # Errors
    /// [`BookError::Io`] when the file cannot be opened, [`BookError::Size`] when its size is
    /// not a multiple of 16 bytes.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let file = File::open(path)?;
        let bytes = match map(&file) {
            Ok(map) => Bytes::Mapped(map),
            Err(_) => Bytes::Owned(Vec::new()),
        };
        Book::from(bytes)
    }

    /// A book of the bytes given (a whole book file's content).
    ///
    /// # Errors
    /// [`BookError::Size`] when their length is not a multiple of 16.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        Book::from(Bytes::Owned(bytes))
    }

    fn from(bytes: Bytes) -> Result<Book, BookError> {
        if bytes.len() % ENTRY_SIZE != 0 {
            return Err(BookError::Size { len: bytes.len() });
        }
        Ok(Book { bytes })
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / ENTRY_SIZE
    }

    /// Has the book no entries?
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The entry at `index`, in file order.
    pub fn entry(&self, index: usize) -> Option<Entry> {
        let start = index.checked_mul(ENTRY_SIZE)?;
        let bytes = self.bytes.get(start..start.checked_add(ENTRY_SIZE)?)?;
        Some(Entry::from_bytes(bytes.try_into().ok()?))
    }

    /// The key of the entry at `index`, which must be below [`Book::len`].
    fn key_at(&self, index: usize) -> u64 {
        let start = index * ENTRY_SIZE;
        let mut key = [0; 8];
        key.copy_from_slice(&self.bytes[start..start + 8]);
        u64::from_be_bytes(key)
    }

    /// The index of the first entry whose key is not below `key` ([`Book::len`] when there
    /// is none): where `key`'s entries start, if it has any.
    pub fn bisect_key_left(&self, key: u64) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.key_at(mid) < key {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    }

    /// The entries of `key`, in file order.
    pub fn entries_for(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        (self.bisect_key_left(key)..self.len())
            .map(|i| self.entry(i).expect("index below len"))
            .take_while(move |entry| entry.key == key)
    }

    /// python-chess's `find_all(key, ...)` for a bare key: the entries of `key` with a weight
    /// of at least `minimum_weight`, with their moves as the book writes them, less those in
    /// `exclude`. No board, so nothing is checked for legality.
    ///
    /// # Errors
    /// [`UnknownPiece`] for an entry, kept by the weight, whose move has a promotion code
    /// naming no piece.
    pub fn find_key(
        &self,
        key: u64,
        minimum_weight: u32,
        exclude: &[UciMove],
    ) -> Result<Vec<(Entry, UciMove)>, UnknownPiece> {
        let mut found = Vec::new();
        for entry in self.entries_for(key) {
            if u32::from(entry.weight) < minimum_weight {
                continue;
            }
            let uci = entry.raw().uci()?;
            if !exclude.contains(&uci) {
                found.push((entry, uci));
            }
        }
        Ok(found)
    }

    /// python-chess's `find_all(board, ...)`: the entries for the position, in file order,
    /// whose weight is at least `minimum_weight` and whose move, shown as python-chess shows
    /// it ([`Board::castling_from_chess960`]), is not in `exclude` and is legal on `board`.
    pub fn find_all(
        &self,
        board: &Board,
        minimum_weight: u32,
        exclude: &[UciMove],
    ) -> Vec<BookMove> {
        self.entries_for(board.zobrist_hash())
            .filter(|entry| u32::from(entry.weight) >= minimum_weight)
            .filter_map(|entry| {
                // A code naming no piece gives a move python-chess finds illegal.
                let uci = board.castling_from_chess960(entry.raw().uci().ok()?);
                if exclude.contains(&uci) {
                    return None;
                }
                let legal = board.find_legal(uci)?;
                Some(BookMove { entry, uci, legal })
            })
            .collect()
    }

    /// A move for `board` chosen in proportion to the weights (python-chess's
    /// `weighted_choice`) with a seeded source: what an engine playing from the book plays,
    /// the same again for the same seed. `None` when the book has no entry of weight 1 or
    /// more for the position.
    pub fn weighted_move(&self, board: &Board, random: &mut SeededRandom) -> Option<BookMove> {
        let found = self.find_all(board, 1, &[]);
        let weights: Vec<u16> = found.iter().map(|m| m.entry.weight).collect();
        let chosen = choose_weighted(&weights, |low, high| {
            Ok::<u64, std::convert::Infallible>(random.randint(low, high))
        })
        .unwrap_or_else(|never| match never {})?;
        Some(found[chosen])
    }

    /// The engine's book move (`OwnBook`): [`Book::weighted_move`] with a source seeded from
    /// `seed` and the position's key together. The move depends on the position and the
    /// seed only, not on the moves played before, so a game or a match played again with the
    /// same seed repeats its book moves, in any front end; another seed gives other lines.
    pub fn seeded_move(&self, board: &Board, seed: u64) -> Option<BookMove> {
        // The seed goes through the mixer first, so that seeds 0, 1, 2 ... are far apart
        // before the key is folded in.
        let mixed = SeededRandom::new(seed).next_u64() ^ board.zobrist_hash();
        self.weighted_move(board, &mut SeededRandom::new(mixed))
    }
}

/// Maps `file` read-only, and tells the system the reads will be random (binary search).
#[allow(unsafe_code)]
fn map(file: &File) -> io::Result<memmap2::Mmap> {
    // SAFETY: the map is read-only and this process never writes the file. What memmap2
    // cannot rule out is another process changing or truncating the book while it is mapped
    // (the reads would see the change, or fault on a truncated page); python-chess's reader
    // maps the file the same way, and a book is not written while it is played from.
    let map = unsafe { memmap2::Mmap::map(file)? };
    #[cfg(unix)]
    {
        // Advice only: a refusal changes nothing but speed.
        let _ = map.advise(memmap2::Advice::Random);
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::Square;

    const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

    fn entry(board: &Board, uci: &str, weight: u16) -> Entry {
        Entry {
            key: board.zobrist_hash(),
            raw_move: Entry::encode_move(UciMove::parse(uci).unwrap()),
            weight,
            learn: u32::from(weight) * 10,
        }
    }

    /// A tiny book, written to a file as a book tool would (sorted by key, stable within a
    /// key) and opened through the memory map.
    fn tiny_book(entries: &[Entry]) -> (Book, std::path::PathBuf) {
        let mut sorted = entries.to_vec();
        sorted.sort_by_key(|e| e.key);
        let bytes: Vec<u8> = sorted.iter().flat_map(|e| e.to_bytes()).collect();
        let path = std::env::temp_dir().join(format!(
            "pychess-book-test-{}-{}.bin",
            std::process::id(),
            entries.len()
        ));
        std::fs::write(&path, bytes).unwrap();
        (Book::open(&path).unwrap(), path)
    }

    fn moves(found: &[BookMove]) -> Vec<String> {
        found.iter().map(|m| m.uci.to_string()).collect()
    }

    #[test]
    fn lookups_in_a_tiny_book() {
        let start = Board::default();
        let castling = Board::from_fen(CASTLING, false).unwrap();
        let entries = [
            entry(&start, "e2e4", 5),
            entry(&start, "d2d4", 3),
            entry(&start, "e2e5", 9), // illegal: skipped
            entry(&start, "g1f3", 0), // weight 0: kept only with minimum_weight 0
            entry(&castling, "e1h1", 2),
            entry(&castling, "e1a1", 1),
            entry(&castling, "e8h8", 4), // Black's castling, not White's move: illegal
        ];
        let (book, path) = tiny_book(&entries);
        assert_eq!(book.len(), 7);
        assert!(!book.is_empty());
        assert!(book.entry(7).is_none());
        let keys: Vec<u64> = (0..book.len())
            .map(|i| book.entry(i).unwrap().key)
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]));

        let found = book.find_all(&start, 1, &[]);
        assert_eq!(moves(&found), ["e2e4", "d2d4"]);
        assert_eq!(found[0].entry.weight, 5);
        assert_eq!(found[0].entry.learn, 50);
        assert_eq!(found[0].legal.from, Square::parse("e2").unwrap());
        assert_eq!(
            moves(&book.find_all(&start, 0, &[])),
            ["e2e4", "d2d4", "g1f3"]
        );
        assert_eq!(moves(&book.find_all(&start, 4, &[])), ["e2e4"]);
        let e2e4 = UciMove::parse("e2e4").unwrap();
        assert_eq!(moves(&book.find_all(&start, 1, &[e2e4])), ["d2d4"]);

        // Castling: the king's move outside Chess960, king-takes-rook inside it.
        let found = book.find_all(&castling, 1, &[]);
        assert_eq!(moves(&found), ["e1g1", "e1c1"]);
        assert!(found.iter().all(|m| m.legal.is_castle()));
        let e1g1 = UciMove::parse("e1g1").unwrap();
        assert_eq!(moves(&book.find_all(&castling, 1, &[e1g1])), ["e1c1"]);
        let chess960 = Board::from_fen(CASTLING, true).unwrap();
        assert_eq!(chess960.zobrist_hash(), castling.zobrist_hash());
        assert_eq!(moves(&book.find_all(&chess960, 1, &[])), ["e1h1", "e1a1"]);

        // A bare key: every entry, moves as written, no legality.
        let raw = book.find_key(castling.zobrist_hash(), 1, &[]).unwrap();
        let raw: Vec<String> = raw.iter().map(|(_, m)| m.to_string()).collect();
        assert_eq!(raw, ["e1h1", "e1a1", "e8h8"]);
        assert_eq!(
            book.find_key(start.zobrist_hash(), 0, &[e2e4])
                .unwrap()
                .len(),
            3
        );

        // Keys that are not there, below, between and above the book's.
        let after = start.after(found_move(&start, "e2e4"));
        assert!(book.find_all(&after, 0, &[]).is_empty());
        assert_eq!(book.bisect_key_left(0), 0);
        assert_eq!(
            book.bisect_key_left(u64::MAX),
            if keys[6] == u64::MAX { 6 } else { 7 }
        );
        assert_eq!(book.bisect_key_left(keys[4]), 4);
        std::fs::remove_file(path).unwrap();
    }

    fn found_move(board: &Board, uci: &str) -> Move {
        board.find_legal(UciMove::parse(uci).unwrap()).unwrap()
    }

    #[test]
    fn undecodable_moves_are_skipped_on_a_board_and_an_error_by_key() {
        let start = Board::default();
        let mut bad = entry(&start, "e2e4", 1);
        bad.raw_move |= 6 << 12;
        let book = Book::from_bytes(
            [bad, entry(&start, "d2d4", 1)]
                .iter()
                .flat_map(|e| e.to_bytes())
                .collect(),
        )
        .unwrap();
        assert_eq!(moves(&book.find_all(&start, 1, &[])), ["d2d4"]);
        let err = book.find_key(start.zobrist_hash(), 1, &[]).unwrap_err();
        assert_eq!(err.raw_move, bad.raw_move);
        // Filtered out by its weight first, it is no error.
        assert!(book
            .find_key(start.zobrist_hash(), 2, &[])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn sizes_and_files() {
        let err = Book::from_bytes(vec![0; 17]).err().unwrap();
        assert_eq!(
            err.to_string(),
            "invalid file size: 17 bytes is not a whole number of 16-byte entries"
        );
        let empty = Book::from_bytes(Vec::new()).unwrap();
        assert!(empty.is_empty());
        assert!(empty.find_all(&Board::default(), 1, &[]).is_empty());
        assert_eq!(empty.bisect_key_left(42), 0);
        // python-chess reads what cannot be mapped as an empty book.
        if Path::new("/dev/null").exists() {
            assert_eq!(Book::open("/dev/null").unwrap().len(), 0);
        }
        // A directory, where it opens at all (Unix): nothing to map.
        if let Ok(book) = Book::open(std::env::temp_dir()) {
            assert!(book.is_empty());
        }
        let missing = Book::open("/nonexistent/book.bin").err().unwrap();
        assert!(matches!(missing, BookError::Io(ref e) if e.kind() == io::ErrorKind::NotFound));
        let path =
            std::env::temp_dir().join(format!("pychess-book-odd-{}.bin", std::process::id()));
        std::fs::write(&path, [0u8; 20]).unwrap();
        assert!(matches!(
            Book::open(&path),
            Err(BookError::Size { len: 20 })
        ));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn weighted_moves_follow_the_weights_and_the_seed() {
        let start = Board::default();
        let book = Book::from_bytes(
            [
                entry(&start, "e2e4", 3),
                entry(&start, "d2d4", 1),
                entry(&start, "c2c4", 0),
            ]
            .iter()
            .flat_map(|e| e.to_bytes())
            .collect(),
        )
        .unwrap();
        let play = |seed: u64| -> Vec<String> {
            let mut random = SeededRandom::new(seed);
            (0..400)
                .map(|_| {
                    book.weighted_move(&start, &mut random)
                        .unwrap()
                        .uci
                        .to_string()
                })
                .collect()
        };
        let moves = play(11);
        assert_eq!(moves, play(11));
        assert_ne!(moves, play(12));
        let e4 = moves.iter().filter(|m| *m == "e2e4").count();
        assert!(
            (250..350).contains(&e4),
            "{e4} of 400 e2e4, expected about 300"
        );
        assert!(moves.iter().all(|m| m == "e2e4" || m == "d2d4"));
        let out = Board::from_fen(CASTLING, false).unwrap();
        assert!(book
            .weighted_move(&out, &mut SeededRandom::new(1))
            .is_none());
    }

    #[test]
    fn seeded_moves_depend_on_the_seed_and_the_position_only() {
        let start = Board::default();
        let mut after = start.clone();
        after.play_unchecked(after.find_legal(UciMove::parse("e2e4").unwrap()).unwrap());
        let mut entries = [
            entry(&start, "e2e4", 1),
            entry(&start, "d2d4", 1),
            entry(&start, "g1f3", 1),
            entry(&after, "e7e5", 1),
            entry(&after, "c7c5", 1),
        ];
        entries.sort_by_key(|e| e.key);
        let book = Book::from_bytes(entries.iter().flat_map(|e| e.to_bytes()).collect()).unwrap();
        let first = |seed: u64| book.seeded_move(&start, seed).unwrap().uci.to_string();
        assert_eq!(first(5), first(5));
        // Over a few seeds every move of equal weight turns up.
        let mut seen: Vec<String> = (0..40).map(first).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen, ["d2d4", "e2e4", "g1f3"]);
        let reply = book.seeded_move(&after, 5).unwrap().uci.to_string();
        assert!(reply == "e7e5" || reply == "c7c5");
        assert_eq!(book.seeded_move(&after, 5).unwrap().uci.to_string(), reply);
        let out = Board::from_fen(CASTLING, false).unwrap();
        assert!(book.seeded_move(&out, 5).is_none());
    }

    #[test]
    fn a_book_is_shared_between_threads() {
        let start = Board::default();
        let book = Book::from_bytes(entry(&start, "e2e4", 1).to_bytes().to_vec()).unwrap();
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| assert_eq!(book.find_all(&start, 1, &[]).len(), 1));
            }
        });
    }
}
