//! Polyglot opening books: the reader behind `pychess_rs.polyglot`, and the book the engine
//! plays from. No Python here; the bindings live in `rust/python`.
//!
//! A Polyglot book is a file of 16-byte entries sorted by position key (the Polyglot Zobrist
//! hash, [`pychess_core::Board::zobrist_hash`]): the key, a move in 16 bits, a weight and a
//! learn value, all big-endian. [`Book`] maps the file and finds a position's entries by
//! binary search; [`Book::find_all`] turns them into legal moves the way python-chess 1.11's
//! `MemoryMappedReader.find_all` does (castling written king-takes-rook becomes the king's
//! move outside Chess960, entries whose move is not legal are skipped), and [`choose_uniform`]
//! and [`choose_weighted`] pick one with the random calls python-chess makes.
//!
//! ```
//! use pychess_book::{Book, Entry};
//! use pychess_core::{Board, Square, UciMove};
//! let board = Board::default();
//! let e2e4 = UciMove::parse("e2e4").unwrap();
//! let entry = Entry { key: board.zobrist_hash(), raw_move: Entry::encode_move(e2e4), weight: 3, learn: 0 };
//! let book = Book::from_bytes(entry.to_bytes().to_vec()).unwrap();
//! let found = book.find_all(&board, 1, &[]);
//! assert_eq!(found[0].uci, e2e4);
//! assert_eq!(found[0].entry.weight, 3);
//! ```
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod book;
mod choice;
mod entry;

pub use book::{Book, BookError, BookMove};
pub use choice::{choose_uniform, choose_weighted, SeededRandom};
pub use entry::{Entry, RawMove, UnknownPiece, ENTRY_SIZE};
