//! Hostile input for the text readers: FEN, EPD, SAN and UCI moves fed with garbage and with
//! near-miss mutations of valid strings. A deterministic, dependency-free mutation fuzzer (a
//! seeded xorshift), so it runs with every `cargo test`; `fuzz/` holds the libFuzzer targets
//! for open-ended runs.
//!
//! Every input goes through the reader under `catch_unwind` (a panic is a failure that names
//! the input), a call that takes too long is a failure, and a watchdog aborts with the input
//! if a call never returns. On top of that:
//!
//! - an accepted FEN says what its text says (placement, side to move, castling, en-passant
//!   square, clocks), and is accepted in Chess960 mode too; `fen()` parses back to the same
//!   position and is a fixed point; the Shredder-FEN and X-FEN with the raw en-passant square
//!   parse back to an equal `Board`; every legal move has a distinct SAN, its SAN, LAN and UCI
//!   read back to that move, and the FEN of the position after it reads back too;
//! - `San::parse` and `UciMove::parse` accept exactly what python-chess's `SAN_REGEX` and
//!   `Move.from_uci` accept (`is_drop` its drops with ASCII letters), and `parse_san` and
//!   `resolve_uci` give exactly the move (or the illegal/ambiguous error) that a brute-force
//!   search of `legal_moves()` gives; an accepted UCI move plays and pops in a `Game`;
//! - an accepted EPD names only legal moves in its operations;
//! - a rejection has a message that quotes the input, Python-repr style.
//!
//! `FUZZ_ITERATIONS` (inputs per fuzz test) and `FUZZ_SEED` change the run:
//! `FUZZ_ITERATIONS=1000000 FUZZ_SEED=7 cargo test --release -p pychess-core --test hostile_input`.

use pychess_core::notation::epd::{parse_epd, EpdError, Operand};
use pychess_core::notation::uci::is_drop;
use pychess_core::{
    compat::py_repr, parse_fen, Board, EpMode, FenError, Game, Move, MoveError, Role, San, Square,
    UciMove,
};
mod reference;
use reference::{normalized, reference_resolve, uci_means};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::thread;
use std::time::{Duration, Instant};

/// Inputs per fuzz test when `FUZZ_ITERATIONS` is not set.
const DEFAULT_ITERATIONS: u64 = 30_000;
/// The run's seed when `FUZZ_SEED` is not set; each test mixes in its own salt.
const DEFAULT_SEED: u64 = 0x5eed_c0ff_ee15_b0a7;
/// One call (reader plus invariant checks) taking longer than this is reported.
const SLOW_CALL: Duration = Duration::from_secs(2);
/// No input finished for this long: the watchdog prints the input and aborts the process.
const STALL: Duration = Duration::from_secs(60);
/// Examples shown per kind of failure in the report (all are counted).
const EXAMPLES_PER_KIND: usize = 3;
/// Length of the "very long" inputs.
const LONG: usize = 10_000;
/// Boards checked exhaustively against every UCI text.
const EXHAUSTIVE_UCI_BOARDS: usize = 40;

/// Characters the mutator inserts: the notations' own alphabet, then hostile ones (Arabic-Indic
/// and fullwidth digits, ideographic and no-break spaces, a unit separator, NUL, the Kelvin
/// sign that lowercases to `k`, a BOM, the last code point).
const ALPHABET: &[char] = &[
    'p',
    'n',
    'b',
    'r',
    'q',
    'k',
    'P',
    'N',
    'B',
    'R',
    'Q',
    'K',
    'a',
    'c',
    'd',
    'e',
    'f',
    'g',
    'h',
    'A',
    'C',
    'D',
    'E',
    'F',
    'G',
    'H',
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '/',
    ' ',
    '~',
    '-',
    ';',
    '"',
    '=',
    '+',
    '#',
    'x',
    'O',
    'w',
    'Z',
    '@',
    '_',
    '.',
    ',',
    '\\',
    '\t',
    '\n',
    'é',
    '١',
    '\u{3000}',
    '\u{1f}',
    '\0',
    '\u{212a}',
    '\u{ff11}',
    '\u{a0}',
    '\u{85}',
    '\u{feff}',
    '\u{10ffff}',
    '\u{130}',
    '\u{1f0a1}',
];

/// Numbers a clock, rank or count may be replaced with.
const ODD_NUMBERS: &[&str] = &[
    "0",
    "-0",
    "+0",
    "-1",
    "+5",
    "007",
    "1_000",
    "1__0",
    "_1",
    "1_",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "\u{663}",
    "\u{ff19}\u{ff19}",
    "1e3",
    "1.5",
    "0x10",
    "NaN",
    "inf",
    "-inf",
    "9",
    "8",
    "10",
    "64",
];

/// Separators that Python's `str.split()` may or may not treat as whitespace.
const SEPARATORS: &[&str] = &[
    "  ", "\t", "\n", "\r\n", "\u{b}", "\u{c}", "\u{1c}", "\u{1f}", "\u{a0}", "\u{85}", "\u{3000}",
    "\u{2028}", "\u{200b}", "\0", "",
];

/// Hand-written FENs with the quirks python-chess reads: promoted pieces, defaulted fields,
/// Unicode digits in clocks, clocks at the limit, en-passant squares legal or not.
const QUIRKY_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "4k3/8/8/8/8/8/8/4K~2R w K - 0 1",
    "4k3/8/8/8/8/8/8/4K2R~ w K - 0 1",
    "rnbqk~bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - \u{663} \u{661}\u{660}",
    "4k3/8/8/8/8/8/8/4K3 w - - 2147483647 2147483647",
    "4k3/8/8/8/8/8/8/4K3 b - - 2147483646 2147483647",
    "4k3/8/8/8/8/8/8/4K3 w - - 9223372036854775807 9223372036854775807",
    "4k3/8/8/8/8/8/8/4K3 b - - 9223372036854775806 9223372036854775807",
    "4k3/8/8/8/8/8/8/4K3 w - - +0 0",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
    "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    "\u{212a}7/8/8/8/8/8/8/7k w - - 0 1",
    "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\u{3000}KQkq\u{1f}-  0 1  ",
];

/// SAN spellings python-chess reads besides the plain ones.
const SPECIAL_SANS: &[&str] = &[
    "O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#", "O-O-O", "O-O-O+", "0-0-0", "0-0-0#", "--", "Z0",
    "0000", "@@@@", "e8Q", "exd8=n", "Ng1f3", "Nbxd2", "R1a3+", "e2-e4", "e4xd5", "N@e4",
];

/// Fixed garbage every reader must survive.
fn fixed_garbage() -> Vec<String> {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut inputs: Vec<String> = [
        "",
        " ",
        "\0",
        "\u{3000}",
        ";",
        "\"",
        "~",
        "/",
        "-",
        "--",
        "8/8/8/8/8/8/8/8",
        "w",
        ";;;",
        "\"\\",
        "é",
        "١",
        "0000",
        "@@@@",
        "N@e4",
        "e2e4",
        "Nf3",
        "O-O",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for c in [
        '/', '8', 'K', ' ', '1', '-', '~', ';', '"', '\\', 'é', '\u{3000}', '\0',
    ] {
        inputs.push(c.to_string().repeat(LONG));
    }
    inputs.push(format!("{start}{}", " 9".repeat(LONG / 2)));
    inputs.push(format!("{} w - - 0 1", "8/".repeat(LONG / 2)));
    inputs.push(format!("{start} {}", "9".repeat(LONG)));
    inputs.push(start.replace(
        " 0 1",
        &format!(" {} {}", "9".repeat(LONG), "9".repeat(LONG)),
    ));
    let epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    inputs.push(format!("{epd} {}", "a;".repeat(LONG / 2)));
    inputs.push(format!("{epd} {}", "a b;".repeat(LONG / 4)));
    inputs.push(format!("{epd} bm {}", "e4 ".repeat(LONG / 3)));
    inputs.push(format!("{epd} pv {}", "Nf3 Nf6 Ng1 Ng8 ".repeat(LONG / 16)));
    inputs.push(format!("{epd} id \"{}", "\\".repeat(LONG)));
    inputs.push(format!("{epd} ce {}", "9".repeat(LONG)));
    inputs.push(format!("{epd} ce 1e{}", "9".repeat(LONG)));
    inputs.push(format!("{epd} hmvc {};", "9".repeat(LONG)));
    inputs.push(format!("{epd} {}", ";".repeat(LONG)));
    inputs.push(format!("{epd} - - - - ;"));
    inputs
}

// ----------------------------------------------------------------------------------------
// Randomness, settings, panic capture, watchdog, findings
// ----------------------------------------------------------------------------------------

/// xorshift64, seeded through one splitmix64 step so that nearby seeds give unrelated streams.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    match text.trim().parse() {
        Ok(n) => Some(n),
        Err(_) => panic!("{name}={text:?} is not a whole number"),
    }
}

/// The inputs per fuzz test and this test's random stream.
fn settings(salt: u64) -> (u64, u64, Rng) {
    let iterations = env_number("FUZZ_ITERATIONS").unwrap_or(DEFAULT_ITERATIONS);
    let seed = env_number("FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    (iterations, seed, Rng::new(seed ^ salt))
}

thread_local! {
    /// Set while a guarded call runs: its panics are recorded, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

static HOOK: Once = Once::new();

/// Runs `f`, turning a panic into `Err(message with location)`. Panics outside guarded calls
/// (the tests' own assertions) still reach the default hook.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                LAST_PANIC.with(|last| *last.borrow_mut() = info.to_string());
            } else {
                default(info);
            }
        }));
    });
    QUIET.with(|quiet| quiet.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|quiet| quiet.set(false));
    result.map_err(|_| LAST_PANIC.with(|last| last.borrow().replace('\n', " ")))
}

struct DogState {
    input: Mutex<String>,
    fed: AtomicU64,
    stop: AtomicBool,
}

/// Aborts the process, naming the input, when no input finishes for [`STALL`]: a hang in a
/// reader would otherwise just be a test that never ends.
struct Watchdog {
    state: Arc<DogState>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Watchdog {
    fn start(test: &'static str) -> Watchdog {
        let state = Arc::new(DogState {
            input: Mutex::new(String::new()),
            fed: AtomicU64::new(0),
            stop: AtomicBool::new(false),
        });
        let watched = Arc::clone(&state);
        let thread = thread::spawn(move || {
            let mut last = u64::MAX;
            let mut since = Instant::now();
            while !watched.stop.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(100));
                let fed = watched.fed.load(Ordering::Relaxed);
                if fed != last {
                    last = fed;
                    since = Instant::now();
                } else if since.elapsed() > STALL {
                    let input = watched.input.lock().unwrap_or_else(|e| e.into_inner());
                    eprintln!(
                        "{test}: no progress for {STALL:?}, hung on input {}",
                        py_repr(&input)
                    );
                    std::process::abort();
                }
            }
        });
        Watchdog {
            state,
            thread: Some(thread),
        }
    }

    fn feed(&self, input: &str) {
        let mut slot = self.state.input.lock().unwrap_or_else(|e| e.into_inner());
        slot.clear();
        slot.push_str(input);
        self.state.fed.fetch_add(1, Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What one test saw: counts, the slowest input, and the failures with their inputs.
struct Findings {
    test: &'static str,
    seed: u64,
    dog: Watchdog,
    inputs: u64,
    accepted: u64,
    failures: u64,
    /// Per kind of failure (the broken check's line, or the panic's location): the count
    /// and the first few examples.
    kinds: Vec<(String, u64, Vec<String>)>,
    slowest: (Duration, String),
    started: Instant,
}

/// Short enough to read in a report: long inputs keep their head and say their length.
fn shown(input: &str) -> String {
    let repr = py_repr(input);
    if repr.chars().count() <= 200 {
        repr
    } else {
        let head: String = repr.chars().take(120).collect();
        format!("{head}... ({} chars)", input.chars().count())
    }
}

impl Findings {
    fn new(test: &'static str, seed: u64) -> Findings {
        Findings {
            test,
            seed,
            dog: Watchdog::start(test),
            inputs: 0,
            accepted: 0,
            failures: 0,
            kinds: Vec::new(),
            slowest: (Duration::ZERO, String::new()),
            started: Instant::now(),
        }
    }

    /// Runs one check on `input`: `Ok(true)` accepted, `Ok(false)` rejected correctly,
    /// `Err(why)` an invariant broke; a panic or a slow call is a failure too.
    fn run(&mut self, label: &str, input: &str, check: impl FnOnce() -> Result<bool, String>) {
        self.dog.feed(input);
        let start = Instant::now();
        let outcome = guarded(check);
        let elapsed = start.elapsed();
        self.inputs += 1;
        match outcome {
            Ok(Ok(accepted)) => self.accepted += u64::from(accepted),
            Ok(Err(why)) => self.fail(label, input, why),
            Err(panic) => self.fail(label, input, format!("PANIC {panic}")),
        }
        if elapsed > SLOW_CALL {
            self.fail(label, input, format!("took {elapsed:?}"));
        }
        if elapsed > self.slowest.0 {
            self.slowest = (elapsed, shown(input));
        }
    }

    fn fail(&mut self, label: &str, input: &str, why: String) {
        self.failures += 1;
        let kind = failure_kind(&why);
        let index = match self.kinds.iter().position(|(k, _, _)| *k == kind) {
            Some(index) => index,
            None => {
                self.kinds.push((kind, 0, Vec::new()));
                self.kinds.len() - 1
            }
        };
        let (_, count, examples) = &mut self.kinds[index];
        *count += 1;
        if examples.len() < EXAMPLES_PER_KIND {
            examples.push(format!("  {label} on {}: {why}", shown(input)));
        }
    }

    /// Prints the counts and fails the test if anything broke.
    fn finish(self) {
        eprintln!(
            "{}: {} inputs ({} accepted) in {:.2?}, seed {}, slowest {:.2?} on {}",
            self.test,
            self.inputs,
            self.accepted,
            self.started.elapsed(),
            self.seed,
            self.slowest.0,
            self.slowest.1
        );
        let report: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, count, examples)| format!("{count} x {kind}:\n{}", examples.join("\n")))
            .collect();
        assert!(
            self.failures == 0,
            "{}: {} failures (seed {}), by kind:\n{}",
            self.test,
            self.failures,
            self.seed,
            report.join("\n")
        );
    }
}

/// What groups failures: the line of the broken check, the location of a panic, or slowness.
fn failure_kind(why: &str) -> String {
    if let Some(rest) = why.strip_prefix("PANIC ") {
        // "panicked at file:line:col: message"
        let location: Vec<&str> = rest.splitn(4, ':').take(3).collect();
        return format!("panic ({})", location.join(":"));
    }
    if why.starts_with("line ") {
        return format!("broken check at {}", why.split(':').next().unwrap_or(why));
    }
    "slow call".to_string()
}

/// `Err` that names the line of the broken check: failures are grouped by it.
macro_rules! broken {
    ($($why:tt)+) => {
        Err(format!("line {}: {}", line!(), format!($($why)+)))
    };
}

/// `return broken!(...)` unless the condition holds.
macro_rules! ensure {
    ($cond:expr, $($why:tt)+) => {
        if !$cond {
            return broken!($($why)+);
        }
    };
}

// ----------------------------------------------------------------------------------------
// Corpus and mutations
// ----------------------------------------------------------------------------------------

/// The FEN part of every line of a data file.
fn data_fens(file: &str) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|line| line.split(';').next())
        .map(str::trim)
        .filter(|fen| !fen.is_empty())
        .map(str::to_string)
        .collect()
}

/// Valid positions and texts to mutate.
struct Corpus {
    /// The perft suites' positions and positions reached from them by random playouts.
    boards: Vec<Board>,
    /// Valid FENs, written every way the core writes them, with their Chess960 flag.
    fens: Vec<(String, bool)>,
}

impl Corpus {
    fn load(rng: &mut Rng) -> Corpus {
        let mut fens: Vec<(String, bool)> = Vec::new();
        for (file, chess960) in [("perft.epd", false), ("perft960.epd", true)] {
            for fen in data_fens(file) {
                fens.push((fen, chess960));
            }
        }
        assert!(fens.len() > 1000, "the perft suites look truncated");
        let mut boards = Vec::new();
        for (fen, chess960) in &fens {
            let board = Board::from_fen(fen, *chess960)
                .unwrap_or_else(|e| panic!("a perft position is refused: {e}"));
            // A random playout adds positions with en-passant squares, promotions, lost
            // castling rights and checks that the suites' starting positions lack.
            let mut played = board.clone();
            for ply in 0..1 + rng.below(40) {
                let moves = played.legal_moves();
                if moves.is_empty() {
                    break;
                }
                played.play_unchecked(*rng.pick(moves.as_slice()));
                if ply % 8 == 7 {
                    boards.push(played.clone());
                }
            }
            boards.push(played);
            boards.push(board);
        }
        let mut written = Vec::new();
        for board in boards.iter().step_by(3) {
            let chess960 = board.is_chess960();
            let text = match rng.below(5) {
                0 => board.fen(),
                1 => board.fen_with(true, EpMode::Always),
                2 => board.fen_with(false, EpMode::PseudoLegal),
                3 => board.epd_with(rng.one_in(2), EpMode::Legal),
                _ => board.board_fen(),
            };
            written.push((text, chess960));
        }
        fens.extend(written);
        for fen in QUIRKY_FENS {
            fens.push((fen.to_string(), false));
            fens.push((fen.to_string(), true));
        }
        Corpus { boards, fens }
    }
}

/// Applies one to three random edits to `seed`, or (rarely) returns the empty string.
fn mutate(rng: &mut Rng, seed: &str, donors: &[(String, bool)]) -> String {
    if rng.one_in(200) {
        return String::new();
    }
    let mut chars: Vec<char> = seed.chars().collect();
    for _ in 0..1 + rng.below(3) {
        mutate_once(rng, &mut chars, donors);
    }
    chars.into_iter().collect()
}

/// Splits at spaces, lets `edit` change the fields, and joins them again.
fn edit_fields(chars: &mut Vec<char>, edit: impl FnOnce(&mut Vec<Vec<char>>)) {
    let mut fields: Vec<Vec<char>> = chars.split(|&c| c == ' ').map(<[char]>::to_vec).collect();
    edit(&mut fields);
    *chars = fields.join(&' ');
}

fn mutate_once(rng: &mut Rng, chars: &mut Vec<char>, donors: &[(String, bool)]) {
    let len = chars.len();
    match rng.below(18) {
        // Character edits.
        0..=2 => chars.insert(rng.below(len + 1), *rng.pick(ALPHABET)),
        3 | 4 if len > 0 => {
            chars.remove(rng.below(len));
        }
        5..=7 if len > 0 => chars[rng.below(len)] = *rng.pick(ALPHABET),
        8 if len > 1 => chars.swap(rng.below(len - 1), rng.below(len - 1) + 1),
        9 if len > 0 => {
            let i = rng.below(len);
            let c = chars[i];
            chars[i] = if c.is_uppercase() {
                c.to_lowercase().next().unwrap_or(c)
            } else {
                c.to_uppercase().next().unwrap_or(c)
            };
        }
        // Field edits: swap, duplicate, drop.
        10 => edit_fields(chars, |fields| {
            let (i, j) = (rng.below(fields.len()), rng.below(fields.len()));
            fields.swap(i, j);
        }),
        11 => edit_fields(chars, |fields| {
            let i = rng.below(fields.len());
            let copy = fields[i].clone();
            fields.insert(rng.below(fields.len() + 1), copy);
        }),
        12 => edit_fields(chars, |fields| {
            fields.remove(rng.below(fields.len()));
        }),
        // Truncation.
        13 => chars.truncate(rng.below(len + 1)),
        // A digit run (or a random spot) becomes an odd number.
        14 => {
            let number: Vec<char> = rng.pick(ODD_NUMBERS).chars().collect();
            let digits: Vec<usize> = (0..len).filter(|&i| chars[i].is_ascii_digit()).collect();
            if digits.is_empty() {
                let at = rng.below(len + 1);
                chars.splice(at..at, number);
            } else {
                let mut start = *rng.pick(&digits);
                let mut end = start + 1;
                while start > 0 && chars[start - 1].is_ascii_digit() {
                    start -= 1;
                }
                while end < len && chars[end].is_ascii_digit() {
                    end += 1;
                }
                chars.splice(start..end, number);
            }
        }
        // Splice: the head of this text and the tail of another.
        15 => {
            let donor: Vec<char> = rng.pick(donors).0.chars().collect();
            let cut = rng.below(len + 1);
            let from = rng.below(donor.len() + 1);
            chars.truncate(cut);
            chars.extend_from_slice(&donor[from..]);
        }
        // A separator becomes another kind of (maybe-)whitespace.
        16 => {
            let spaces: Vec<usize> = (0..len).filter(|&i| chars[i] == ' ').collect();
            if !spaces.is_empty() {
                let at = *rng.pick(&spaces);
                chars.splice(at..=at, rng.pick(SEPARATORS).chars());
            }
        }
        // Very long: the text repeated, or one character many times over.
        17 => {
            if rng.one_in(2) && len > 0 {
                let copy = chars.clone();
                while chars.len() < LONG {
                    chars.push(' ');
                    chars.extend_from_slice(&copy);
                }
            } else {
                let c = *rng.pick(ALPHABET);
                let at = rng.below(len + 1);
                chars.splice(at..at, std::iter::repeat(c).take(LONG));
            }
        }
        _ => chars.insert(rng.below(len + 1), *rng.pick(ALPHABET)),
    }
}

/// Random characters: from the alphabet, any code point, or any ASCII byte.
fn garbage(rng: &mut Rng) -> String {
    let len = rng.below(48);
    match rng.below(3) {
        0 => (0..len).map(|_| *rng.pick(ALPHABET)).collect(),
        1 => (0..len)
            .filter_map(|_| char::from_u32((rng.next_u64() % 0x11_0000) as u32))
            .collect(),
        _ => (0..len)
            .map(|_| char::from((rng.next_u64() % 128) as u8))
            .collect(),
    }
}

/// A valid SAN, LAN or UCI for a legal move of `board`, or one of the special spellings.
fn move_text(rng: &mut Rng, board: &Board) -> String {
    let moves = board.legal_moves();
    if moves.is_empty() || rng.one_in(12) {
        return rng.pick(SPECIAL_SANS).to_string();
    }
    let m = *rng.pick(moves.as_slice());
    match rng.below(6) {
        0 | 1 => board.san(m),
        2 => board.lan(m),
        3 => board.uci(m).to_string(),
        // King takes rook for castling, whatever the mode.
        4 => format!("{}{}", m.from, m.to),
        // Over-specified: piece letter, origin square and destination.
        _ => {
            let letter = board.role_at(m.from).map_or('P', Role::upper_char);
            let promotion = m
                .promotion()
                .map_or(String::new(), |r| format!("={}", r.upper_char()));
            format!("{letter}{}{}{promotion}", m.from, m.to)
        }
    }
}

/// An EPD of `board` with a random set of operations (legal moves where moves go).
fn epd_text(rng: &mut Rng, board: &Board) -> String {
    let mut epd = board.epd_with(rng.one_in(2), EpMode::Legal);
    let moves = board.legal_moves();
    let mut ops: Vec<String> = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let op = match rng.below(12) {
            0 | 1 if !moves.is_empty() => {
                let count = 1 + rng.below(3);
                let sans: Vec<String> = (0..count)
                    .map(|_| board.san(*rng.pick(moves.as_slice())))
                    .collect();
                format!(
                    "{} {}",
                    if rng.one_in(3) { "am" } else { "bm" },
                    sans.join(" ")
                )
            }
            2 if !moves.is_empty() => {
                let mut position = board.clone();
                let mut line = Vec::new();
                for _ in 0..1 + rng.below(6) {
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let m = *rng.pick(legal.as_slice());
                    line.push(position.san(m));
                    position.play_unchecked(m);
                }
                format!("pv {}", line.join(" "))
            }
            3 if !moves.is_empty() => format!("sm {}", board.san(*rng.pick(moves.as_slice()))),
            4 => format!("id \"position {}\"", rng.below(1000)),
            5 => "c0 \"a \\\"quoted\\\" comment; with \\\\ and ;\"".to_string(),
            6 => format!("acd {}", rng.below(40)),
            7 => format!(
                "ce {}",
                *rng.pick(&["-0.5", "1e3", "+12", "-7", "0.0", "3."])
            ),
            8 => format!("hmvc {}", rng.below(120)),
            9 => format!("fmvn {}", rng.below(300)),
            10 => "noop".to_string(),
            _ => "dm 3".to_string(),
        };
        ops.push(op);
    }
    epd.push(' ');
    epd.push_str(&ops.join("; "));
    if rng.one_in(2) {
        epd.push(';');
    }
    epd
}

// ----------------------------------------------------------------------------------------
// References: python-chess's grammar and move matching, written independently of the core
// ----------------------------------------------------------------------------------------

/// python-chess's `SAN_REGEX`,
/// `^([NBKRQ])?([a-h])?([1-8])?[\-x]?([a-h][1-8])(=?[nbrqkNBRQK])?[\+#]?\Z`, matched by trying
/// every way of taking or skipping the optional parts, taking ones first as `re` does.
fn reference_san_regex(text: &str) -> Option<San> {
    let chars: Vec<char> = text.chars().collect();
    let take = |i: &mut usize, wanted: bool, ok: fn(char) -> bool| -> Option<Option<char>> {
        if !wanted {
            return Some(None);
        }
        let c = *chars.get(*i)?;
        if !ok(c) {
            return None;
        }
        *i += 1;
        Some(Some(c))
    };
    // Optional parts: piece, file, rank, separator, promotion (with `=`, without, none), check.
    for layout in 0..2 * 2 * 2 * 2 * 3 * 2 {
        let [piece, file, rank, separator, promotion, suffix] =
            [48, 24, 12, 6, 2, 1].map(|unit| layout / unit);
        let (piece, file, rank, separator) = (
            piece % 2 == 0,
            file % 2 == 0,
            rank % 2 == 0,
            separator % 2 == 0,
        );
        let (promotion, suffix) = (promotion % 3, suffix % 2 == 0);
        let mut i = 0;
        let attempt = (|| {
            let piece = take(&mut i, piece, |c| "NBKRQ".contains(c))?;
            let file = take(&mut i, file, |c| ('a'..='h').contains(&c))?;
            let rank = take(&mut i, rank, |c| ('1'..='8').contains(&c))?;
            take(&mut i, separator, |c| c == '-' || c == 'x')?;
            let to_file = take(&mut i, true, |c| ('a'..='h').contains(&c))??;
            let to_rank = take(&mut i, true, |c| ('1'..='8').contains(&c))??;
            take(&mut i, promotion == 0, |c| c == '=')?;
            let promoted = take(&mut i, promotion < 2, |c| "nbrqkNBRQK".contains(c))?;
            take(&mut i, suffix, |c| c == '+' || c == '#')?;
            if i != chars.len() {
                return None;
            }
            let role = |c: char| Role::from_char(c.to_ascii_lowercase());
            Some(San::Normal {
                role: piece.and_then(role),
                file: file.map(|c| c as u8 - b'a'),
                rank: rank.map(|c| c as u8 - b'1'),
                to: Square::from_coords(to_file as u8 - b'a', to_rank as u8 - b'1'),
                promotion: promoted.and_then(role),
            })
        })();
        if attempt.is_some() {
            return attempt;
        }
    }
    None
}

/// What python-chess's `parse_san` reads before looking at the position.
fn reference_san(text: &str) -> Option<San> {
    const SHORT: [&str; 6] = ["O-O", "O-O+", "O-O#", "0-0", "0-0+", "0-0#"];
    const LONG_SIDE: [&str; 6] = ["O-O-O", "O-O-O+", "O-O-O#", "0-0-0", "0-0-0+", "0-0-0#"];
    if SHORT.contains(&text) {
        return Some(San::Castle { king_side: true });
    }
    if LONG_SIDE.contains(&text) {
        return Some(San::Castle { king_side: false });
    }
    reference_san_regex(text).or_else(|| {
        ["--", "Z0", "0000", "@@@@"]
            .contains(&text)
            .then_some(San::Null)
    })
}

/// python-chess's `Move.from_uci`, drops left out (the core reads those with `is_drop`).
fn reference_uci(text: &str) -> Option<UciMove> {
    if text == "0000" {
        return Some(UciMove::NULL);
    }
    let chars: Vec<char> = text.chars().collect();
    if !(4..=5).contains(&chars.len()) || chars[1] == '@' {
        return None;
    }
    let square = |file: char, rank: char| Square::parse(&format!("{file}{rank}"));
    let from = square(chars[0], chars[1])?;
    let to = square(chars[2], chars[3])?;
    let promotion = match chars.get(4) {
        Some(&c) => Some(Role::from_char(c)?),
        None => None,
    };
    (from != to).then_some(UciMove {
        from,
        to,
        promotion,
    })
}

/// python-chess's drop syntax (`N@e4`) with ASCII piece letters.
fn reference_drop(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.len() == 4
        && chars[1] == '@'
        && chars[0].is_ascii()
        && Role::from_char(chars[0].to_ascii_lowercase()).is_some()
        && Square::parse(&text[2..]).is_some()
}

// ----------------------------------------------------------------------------------------
// Invariants
// ----------------------------------------------------------------------------------------

/// `str.split()` in Python.
fn py_fields(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || ('\x1c'..='\x1f').contains(&c))
        .filter(|field| !field.is_empty())
        .collect()
}

/// An accepted FEN (or the position part of an EPD) describes this board: placement, side to
/// move, castling, en-passant square, and (if `clocks`) the clocks when they are plain ASCII
/// numbers or left out.
fn says_what_the_text_says(fields: &[&str], board: &Board, clocks: bool) -> Result<(), String> {
    ensure!(
        (1..=6).contains(&fields.len()),
        "accepted with {} fields",
        fields.len()
    );
    let rows: Vec<&str> = fields[0].split('/').collect();
    ensure!(rows.len() == 8, "accepted with {} rows", rows.len());
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                for _ in 0..skip {
                    ensure!(file < 8, "rank {} is too long", rank + 1);
                    let sq = Square::from_coords(file, rank);
                    ensure!(board.piece_at(sq).is_none(), "{sq} should be empty");
                    file += 1;
                }
            } else if c != '~' {
                let mut lower = c.to_lowercase();
                let letter = lower.next().filter(|_| lower.next().is_none());
                let Some(letter) = letter.filter(|l| "pnbrqk".contains(*l)) else {
                    return broken!("accepted the placement character {c:?}");
                };
                let want = if c.is_uppercase() {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                ensure!(file < 8, "rank {} is too long", rank + 1);
                let sq = Square::from_coords(file, rank);
                let got = board.piece_at(sq).map(|p| p.char());
                ensure!(
                    got == Some(want),
                    "{sq} holds {got:?}, the text says {want}"
                );
                file += 1;
            }
        }
        ensure!(file == 8, "rank {} has {file} squares", rank + 1);
    }
    let turn = fields.get(1).copied().unwrap_or("w");
    ensure!(
        turn == "w" || turn == "b",
        "accepted the side to move {}",
        py_repr(turn)
    );
    ensure!(
        board.turn().is_white() == (turn == "w"),
        "side to move is not {turn}"
    );
    let castling = fields.get(2).copied().unwrap_or("-");
    let rights = board.castling_rights();
    if castling == "-" {
        ensure!(rights.is_empty(), "castling rights from '-'");
    } else {
        let white = castling.chars().filter(char::is_ascii_uppercase).count();
        let black = castling.chars().filter(char::is_ascii_lowercase).count();
        let white_rights = rights.filter(|sq| sq.rank() == 0).count();
        let black_rights = rights.filter(|sq| sq.rank() == 7).count();
        ensure!(
            white_rights <= white && black_rights <= black && white + black == castling.len(),
            "castling field {} gave rights {}",
            py_repr(castling),
            board.castling_fen(true)
        );
    }
    let ep = fields.get(3).copied().unwrap_or("-");
    let want_ep = if ep == "-" { None } else { Square::parse(ep) };
    ensure!(
        ep == "-" || want_ep.is_some(),
        "accepted the en-passant field {}",
        py_repr(ep)
    );
    ensure!(
        board.ep_square() == want_ep,
        "en-passant square {:?}, the text says {}",
        board.ep_square(),
        py_repr(ep)
    );
    if !clocks {
        return Ok(());
    }
    let plain = |field: &str| -> Option<u64> {
        field
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| field.parse().ok())?
    };
    if let Some(half) = fields.get(4).map_or(Some(0), |f| plain(f)) {
        ensure!(
            board.halfmove_clock() == half,
            "half-move clock {}, the text says {half}",
            board.halfmove_clock()
        );
    }
    if let Some(full) = fields.get(5).map_or(Some(1), |f| plain(f)) {
        ensure!(
            board.fullmove_number() == full.max(1),
            "fullmove number {}, the text says {full}",
            board.fullmove_number()
        );
    }
    Ok(())
}

/// Everything a valid board promises: its FENs read back, and every legal move's SAN, LAN
/// and UCI read back to the move. A board that is not regular (python-chess's positions of any
/// kind) promises less: its FEN reads, and every question and every pseudo-legal move answers
/// without a panic.
fn check_board(board: &Board) -> Result<(), String> {
    if !board.is_regular() {
        return check_any_board(board);
    }
    let chess960 = board.is_chess960();
    let fen = board.fen();
    let again = match Board::from_fen(&fen, chess960) {
        Ok(again) => again,
        Err(e) => return broken!("its fen() does not read back: {e}"),
    };
    ensure!(
        normalized(&again) == normalized(board),
        "fen() {fen} reads back as another position, {}",
        again.fen_with(true, EpMode::Always)
    );
    ensure!(
        again.fen() == fen,
        "fen() is not a fixed point: {fen} then {}",
        again.fen()
    );
    for shredder in [false, true] {
        let exact = board.fen_with(shredder, EpMode::Always);
        match Board::from_fen(&exact, chess960) {
            Ok(read) => ensure!(
                read == *board,
                "{exact} reads back as another board: {read:?} instead of {board:?}"
            ),
            Err(e) => return broken!("{exact} does not read back: {e}"),
        }
    }
    let mut sans = Vec::new();
    for &m in board.legal_moves().iter() {
        let san = board.san(m);
        let read = board.parse_san(&san);
        ensure!(
            read == Ok(Some(m)),
            "{fen}: san {san} of {m:?} reads as {read:?}"
        );
        let lan = board.lan(m);
        let read = board.parse_san(&lan);
        ensure!(
            read == Ok(Some(m)),
            "{fen}: lan {lan} of {m:?} reads as {read:?}"
        );
        let uci = board.uci(m);
        let text = uci.to_string();
        ensure!(
            UciMove::parse(&text) == Ok(uci),
            "{fen}: uci {text} does not parse back"
        );
        let read = board.resolve_uci(uci);
        ensure!(
            read == Ok(m),
            "{fen}: uci {text} of {m:?} reads as {read:?}"
        );
        let after = board.after(m);
        let after_fen = after.fen_with(true, EpMode::Always);
        match Board::from_fen(&after_fen, chess960) {
            Ok(read) => ensure!(
                read == after,
                "{fen}: after {san}, {after_fen} reads back as another board"
            ),
            Err(e) => return broken!("{fen}: after {san}, the FEN does not read back: {e}"),
        }
        sans.push(san);
    }
    sans.sort();
    let count = sans.len();
    sans.dedup();
    ensure!(sans.len() == count, "{fen}: two legal moves share a SAN");
    Ok(())
}

fn check_fen_error(input: &str, error: &FenError) -> Result<(), String> {
    let message = error.to_string();
    ensure!(error.fen == input, "the error names another FEN: {message}");
    ensure!(
        message.contains(&py_repr(input)),
        "the message does not quote the input: {message}"
    );
    Ok(())
}

fn check_move_error(input: &str, error: &MoveError) -> Result<(), String> {
    let message = error.to_string();
    ensure!(
        message.contains(&py_repr(input)),
        "the message does not quote the input: {message}"
    );
    Ok(())
}

fn check_any_board(board: &Board) -> Result<(), String> {
    let fen = board.fen();
    if let Err(e) = Board::from_fen(&fen, board.is_chess960()) {
        return broken!("its fen() does not read back: {e}");
    }
    let _ = (board.status(), board.checkers(), board.was_into_check());
    let _ = (board.is_insufficient_material(), board.zobrist_hash());
    let legal = board.legal_moves();
    for &m in legal.iter() {
        let san = board.san(m);
        ensure!(!san.is_empty(), "empty SAN for {m:?}");
    }
    for &m in board.pseudo_legal_moves().iter() {
        let _ = board.is_into_check(m);
        let mut after = board.clone();
        after.play_pseudo_legal(m);
        let _ = (after.fen(), after.status(), after.legal_moves().len());
    }
    Ok(())
}

/// Reads `input` as a FEN; `Ok(accepted)` if every invariant holds.
fn check_fen(input: &str, chess960: bool) -> Result<bool, String> {
    let result = Board::from_fen(input, chess960);
    match parse_fen(input) {
        Err(e) => {
            ensure!(
                result.as_ref().err() == Some(&e),
                "parse_fen and from_fen disagree: {e} / {result:?}"
            );
        }
        Ok(setup) => {
            if let Ok(board) = &result {
                let mut expected = setup.clone();
                expected.promoted = board.to_setup().promoted;
                ensure!(
                    board.to_setup() == expected,
                    "the board is not the parsed setup"
                );
            }
        }
    }
    match result {
        Ok(board) => {
            says_what_the_text_says(&py_fields(input), &board, true)?;
            check_board(&board)?;
            if !chess960 {
                // Standard castling rights are Chess960 rights too.
                let wider = match Board::from_fen(input, true) {
                    Ok(wider) => wider,
                    Err(e) => return broken!("valid in standard chess, not in Chess960: {e}"),
                };
                ensure!(
                    wider.to_setup() == board.to_setup(),
                    "Chess960 reads another position"
                );
            }
            Ok(true)
        }
        Err(e) => {
            check_fen_error(input, &e)?;
            Ok(false)
        }
    }
}

/// Reads `input` as a SAN in `board`; compares with the reference grammar and resolution.
fn check_san(board: &Board, input: &str) -> Result<bool, String> {
    let parsed = San::parse(input);
    let reference = reference_san(input);
    ensure!(
        parsed.as_ref().ok() == reference.as_ref(),
        "San::parse gives {parsed:?}, python-chess's grammar {reference:?}"
    );
    let result = board.parse_san(input);
    let fen = board.fen();
    match parsed {
        Err(e) => {
            ensure!(
                matches!(e, MoveError::Invalid { .. }),
                "a parse error that is not Invalid: {e}"
            );
            ensure!(result == Err(e.clone()), "parse_san disagrees: {result:?}");
            check_move_error(input, &e)?;
            Ok(false)
        }
        Ok(san) => {
            ensure!(
                board.resolve_san(input, san) == result,
                "resolve_san disagrees with parse_san"
            );
            let expected = reference_resolve(board, san);
            match (&result, expected) {
                (Ok(m), Ok(want)) => {
                    ensure!(*m == want, "in {fen}: read as {m:?}, should be {want:?}");
                    if let Some(m) = *m {
                        ensure!(
                            board.legal_moves().as_slice().contains(&m),
                            "in {fen}: read as the illegal {m:?}"
                        );
                    }
                    Ok(true)
                }
                (
                    Err(e @ (MoveError::Illegal { .. } | MoveError::NoCastlingRook { .. })),
                    Err("illegal"),
                )
                | (Err(e @ MoveError::Ambiguous { .. }), Err("ambiguous")) => {
                    check_move_error(input, e)?;
                    Ok(false)
                }
                (got, want) => broken!("in {fen}: read as {got:?}, should be {want:?}"),
            }
        }
    }
}

/// Reads `input` as a UCI move in `board`; compares with the reference grammar and a brute
/// force search of the legal moves, and plays it in a `Game`.
fn check_uci(board: &Board, input: &str) -> Result<bool, String> {
    let parsed = UciMove::parse(input);
    let reference = reference_uci(input);
    ensure!(
        parsed.as_ref().ok() == reference.as_ref(),
        "UciMove::parse gives {parsed:?}, python-chess's grammar {reference:?}"
    );
    ensure!(
        is_drop(input) == reference_drop(input),
        "is_drop says {}",
        is_drop(input)
    );
    let uci = match parsed {
        Err(e) => {
            ensure!(
                matches!(e, MoveError::Invalid { .. }),
                "a parse error that is not Invalid: {e}"
            );
            check_move_error(input, &e)?;
            return Ok(false);
        }
        Ok(uci) => uci,
    };
    ensure!(
        uci.to_string() == input,
        "accepted a non-canonical spelling, written back as {uci}"
    );
    let fen = board.fen();
    let legal = board.legal_moves();
    let expected = legal.iter().find(|&&m| uci_means(board, uci, m)).copied();
    match board.resolve_uci(uci) {
        Ok(m) => {
            ensure!(
                Some(m) == expected,
                "in {fen}: read as {m:?}, should be {expected:?}"
            );
            let mut game = Game::new(board.clone());
            let pushed = game.push_uci(uci);
            ensure!(pushed == Ok(m), "in {fen}: push_uci gives {pushed:?}");
            ensure!(
                *game.board() == board.after(m),
                "push_uci played another move"
            );
            ensure!(game.pop() == Some(m), "pop gives back another move");
            ensure!(game.board() == board, "pop does not restore the board");
            Ok(true)
        }
        Err(e) => {
            ensure!(
                expected.is_none(),
                "in {fen}: refused ({e}), should be {expected:?}"
            );
            ensure!(
                matches!(
                    e,
                    MoveError::Illegal { .. } | MoveError::NoCastlingRook { .. }
                ),
                "a resolve error that is not Illegal: {e}"
            );
            check_move_error(input, &e)?;
            Ok(false)
        }
    }
}

/// Reads `input` as an EPD; the board must be valid and every move operand legal.
fn check_epd(input: &str, chess960: bool) -> Result<bool, String> {
    match parse_epd(input, chess960) {
        Ok((board, ops)) => {
            ensure!(
                board.is_chess960() == chess960,
                "the board has the wrong mode"
            );
            let fields = py_fields(input);
            if fields.len() <= 4 {
                says_what_the_text_says(&fields, &board, true)?;
            } else {
                says_what_the_text_says(&fields[..4], &board, false)?;
            }
            check_board(&board)?;
            let legal = board.legal_moves();
            let is_legal = |m: &Move| m.is_null() || legal.as_slice().contains(m);
            for (opcode, operand) in &ops {
                ensure!(!opcode.is_empty(), "an empty opcode");
                match operand {
                    Operand::Moves(line) if opcode == "pv" => {
                        let mut position = board.clone();
                        for &m in line {
                            ensure!(
                                m.is_null() || position.legal_moves().as_slice().contains(&m),
                                "pv plays the illegal {m:?} in {}",
                                position.fen()
                            );
                            position.play_unchecked(m);
                        }
                    }
                    Operand::Moves(moves) => ensure!(
                        moves.iter().all(is_legal),
                        "{opcode} names an illegal move: {moves:?}"
                    ),
                    Operand::Move(m) => {
                        ensure!(is_legal(m), "{opcode} names the illegal {m:?}")
                    }
                    Operand::Float(f) => ensure!(f.is_finite(), "{opcode} is {f}"),
                    _ => {}
                }
            }
            let find = |name: &str| ops.iter().find(|(k, _)| k == name).map(|(_, v)| v);
            if let Some(Operand::Integer(n)) = find("hmvc") {
                ensure!(
                    u64::try_from(*n) == Ok(board.halfmove_clock()),
                    "hmvc {n} but the clock is {}",
                    board.halfmove_clock()
                );
            }
            if let Some(Operand::Integer(n)) = find("fmvn") {
                ensure!(
                    u64::try_from((*n).max(1)) == Ok(board.fullmove_number()),
                    "fmvn {n} but the move number is {}",
                    board.fullmove_number()
                );
            }
            Ok(true)
        }
        Err(e) => {
            let message = e.to_string();
            ensure!(!message.is_empty(), "an empty message");
            match &e {
                EpdError::Fen(fen_error) => {
                    ensure!(
                        message.contains(&py_repr(&fen_error.fen)),
                        "the message does not quote the FEN: {message}"
                    );
                    if py_fields(input).len() <= 4 {
                        check_fen_error(input, fen_error)?;
                    }
                }
                EpdError::Operation(epd, _) => {
                    ensure!(epd == input, "the error names another EPD: {message}");
                    ensure!(
                        message.contains(&py_repr(input)),
                        "the message does not quote the input: {message}"
                    );
                }
            }
            Ok(false)
        }
    }
}

// ----------------------------------------------------------------------------------------
// Tests
// ----------------------------------------------------------------------------------------

/// The unmutated corpus: every perft position and playout position keeps every promise.
#[test]
fn valid_positions_round_trip() {
    let (_, seed, mut rng) = settings(1);
    let corpus = Corpus::load(&mut rng);
    let mut findings = Findings::new("valid_positions_round_trip", seed);
    for board in &corpus.boards {
        let fen = board.fen_with(true, EpMode::Always);
        findings.run("board", &fen, || check_board(board).map(|()| true));
    }
    for (fen, chess960) in &corpus.fens {
        findings.run("fen", fen, || check_fen(fen, *chess960));
    }
    findings.finish();
}

#[test]
fn fen_mutations() {
    let (iterations, seed, mut rng) = settings(2);
    let corpus = Corpus::load(&mut rng);
    let mut findings = Findings::new("fen_mutations", seed);
    for _ in 0..iterations {
        let (fen, chess960) = rng.pick(&corpus.fens).clone();
        let input = mutate(&mut rng, &fen, &corpus.fens);
        let chess960 = chess960 != rng.one_in(4);
        let label = if chess960 { "fen (chess960)" } else { "fen" };
        findings.run(label, &input, || check_fen(&input, chess960));
    }
    findings.finish();
}

/// Move text of one notation, mutated, read mostly in the position it came from (near
/// misses) and sometimes in another one.
fn move_text_mutations(
    name: &'static str,
    salt: u64,
    notation: &str,
    check: fn(&Board, &str) -> Result<bool, String>,
) {
    let (iterations, seed, mut rng) = settings(salt);
    let corpus = Corpus::load(&mut rng);
    let mut findings = Findings::new(name, seed);
    for _ in 0..iterations {
        let board = rng.pick(&corpus.boards);
        let text = move_text(&mut rng, board);
        let input = if rng.one_in(8) {
            text
        } else {
            mutate(&mut rng, &text, &corpus.fens)
        };
        let board = if rng.one_in(4) {
            rng.pick(&corpus.boards)
        } else {
            board
        };
        let label = format!("{notation} in {}", board.fen());
        findings.run(&label, &input, || check(board, &input));
    }
    findings.finish();
}

#[test]
fn san_mutations() {
    move_text_mutations("san_mutations", 3, "san", check_san);
}

#[test]
fn uci_mutations() {
    move_text_mutations("uci_mutations", 4, "uci", check_uci);
}

#[test]
fn epd_mutations() {
    let (iterations, seed, mut rng) = settings(5);
    let corpus = Corpus::load(&mut rng);
    let mut findings = Findings::new("epd_mutations", seed);
    for _ in 0..iterations {
        let board = rng.pick(&corpus.boards);
        let text = epd_text(&mut rng, board);
        let input = if rng.one_in(8) {
            text
        } else {
            mutate(&mut rng, &text, &corpus.fens)
        };
        let chess960 = board.is_chess960() != rng.one_in(4);
        let label = if chess960 { "epd (chess960)" } else { "epd" };
        findings.run(label, &input, || check_epd(&input, chess960));
    }
    findings.finish();
}

/// Garbage (random characters, fixed nasty strings) through every reader.
#[test]
fn garbage_everywhere() {
    let (iterations, seed, mut rng) = settings(6);
    let start = Board::default();
    let castles = Board::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1", false)
        .expect("a valid position");
    let mut inputs = fixed_garbage();
    inputs.extend((0..iterations / 4).map(|_| garbage(&mut rng)));
    let mut findings = Findings::new("garbage_everywhere", seed);
    for input in &inputs {
        for chess960 in [false, true] {
            findings.run("fen", input, || check_fen(input, chess960));
            findings.run("epd", input, || check_epd(input, chess960));
        }
        for board in [&start, &castles] {
            findings.run("san", input, || check_san(board, input));
            findings.run("uci", input, || check_uci(board, input));
        }
    }
    findings.finish();
}

/// Every UCI text (all origins, destinations and promotion letters) in a sample of positions:
/// `resolve_uci` accepts exactly the spellings of the legal moves.
#[test]
fn every_uci_text_resolves_only_to_its_move() {
    let (_, seed, mut rng) = settings(7);
    let corpus = Corpus::load(&mut rng);
    let mut findings = Findings::new("every_uci_text_resolves_only_to_its_move", seed);
    let promotions = [
        None,
        Some(Role::Pawn),
        Some(Role::Knight),
        Some(Role::Bishop),
    ]
    .into_iter()
    .chain([Some(Role::Rook), Some(Role::Queen), Some(Role::King)]);
    let promotions: Vec<Option<Role>> = promotions.collect();
    // Castling positions first (the spellings differ most there), then a random sample.
    let mut boards: Vec<&Board> = corpus
        .boards
        .iter()
        .filter(|b| b.castling_rights().nonempty())
        .step_by(97)
        .take(EXHAUSTIVE_UCI_BOARDS / 2)
        .collect();
    while boards.len() < EXHAUSTIVE_UCI_BOARDS {
        boards.push(rng.pick(&corpus.boards));
    }
    for board in boards {
        let fen = board.fen();
        findings.run("all uci texts", &fen, || {
            let legal = board.legal_moves();
            for from in Square::ALL {
                for to in Square::ALL {
                    for &promotion in &promotions {
                        let uci = UciMove {
                            from,
                            to,
                            promotion,
                        };
                        if from == to {
                            continue;
                        }
                        let expected = legal.iter().find(|&&m| uci_means(board, uci, m)).copied();
                        let got = board.resolve_uci(uci).ok();
                        ensure!(
                            got == expected,
                            "{uci}: read as {got:?}, should be {expected:?}"
                        );
                    }
                }
            }
            Ok(true)
        });
    }
    findings.finish();
}

/// The harness itself: a panic inside a guarded call comes back as a failure with its
/// location, and the next call runs normally.
#[test]
fn guard_reports_panics() {
    let caught = guarded(|| -> u8 { panic!("boom") }).unwrap_err();
    assert!(caught.contains("boom"), "{caught}");
    assert!(
        failure_kind(&format!("PANIC {caught}")).contains("hostile_input.rs"),
        "{caught}"
    );
    assert_eq!(guarded(|| 7), Ok(7));
}
