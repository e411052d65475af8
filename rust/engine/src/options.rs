//! The engine's options, declared beside the engine (as Stockfish's `engine.cpp` declares
//! its UCI options): each option's name, UCI name, range and default, and the check every
//! front end applies before a value reaches [`EngineOptions`]. The Python `Engine`, the
//! `Searcher` binding and the UCI loop all read this one table.
//!
//! ```
//! use pychess_engine::{find_option, EngineOptions, OptionError, UCI_OPTIONS};
//!
//! let mut options = EngineOptions::default();
//! let hash = find_option("hash_mb")?;
//! options.set(hash, Some(64))?;
//! assert_eq!(options.hash_mb, 64);
//! assert_eq!(
//!     options.set(hash, Some(0)).unwrap_err().to_string(),
//!     "engine option hash_mb must be in 1..4096, got 0"
//! );
//! assert!(matches!(find_option("contempt"), Err(OptionError::Unknown { .. })));
//! // The UCI loop offers the same ranges under the UCI names.
//! assert_eq!(UCI_OPTIONS[0].name(), "Hash");
//! # Ok::<(), OptionError>(())
//! ```

use crate::api::EngineOptions;
use crate::engine::MAX_THREADS;
use crate::skill::{MAX_ELO, MAX_SKILL, MIN_ELO};
use pychess_core::compat::py_repr;
use std::fmt;

/// One numeric option of [`EngineOptions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The field of [`EngineOptions`] and the keyword of the Python API (`hash_mb`).
    pub name: &'static str,
    /// The name the UCI loop offers it under (`Hash`).
    pub uci_name: &'static str,
    /// The smallest accepted value.
    pub min: u64,
    /// The largest accepted value.
    pub max: u64,
    /// The default; `None` where the option may be unset (`limit_elo`: full strength).
    pub default: Option<u64>,
    field: Field,
}

/// Which field of [`EngineOptions`] an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    HashMb,
    Threads,
    MultiPv,
    MoveOverheadMs,
    LimitElo,
    SkillLevel,
}

/// Transposition table size in MiB. Bounded so that a typo cannot ask for more memory than a
/// desktop has: a failed allocation aborts the process, it does not raise.
pub const HASH_MB: EngineOption = EngineOption {
    name: "hash_mb",
    uci_name: "Hash",
    min: 1,
    max: 4096,
    default: Some(16),
    field: Field::HashMb,
};

/// Search threads (Lazy SMP).
pub const THREADS: EngineOption = EngineOption {
    name: "threads",
    uci_name: "Threads",
    min: 1,
    max: MAX_THREADS as u64,
    default: Some(1),
    field: Field::Threads,
};

/// Principal variations reported.
pub const MULTIPV: EngineOption = EngineOption {
    name: "multipv",
    uci_name: "MultiPV",
    min: 1,
    max: 256,
    default: Some(1),
    field: Field::MultiPv,
};

/// Milliseconds kept in reserve per move under a clock.
pub const MOVE_OVERHEAD_MS: EngineOption = EngineOption {
    name: "move_overhead_ms",
    uci_name: "Move Overhead",
    min: 0,
    max: 5000,
    default: Some(10),
    field: Field::MoveOverheadMs,
};

/// A strength limit as an Elo rating; unset is full strength (UCI: `UCI_LimitStrength`
/// switches it on, `UCI_Elo` sets it).
pub const LIMIT_ELO: EngineOption = EngineOption {
    name: "limit_elo",
    uci_name: "UCI_Elo",
    min: MIN_ELO as u64,
    max: MAX_ELO as u64,
    default: None,
    field: Field::LimitElo,
};

/// `Skill Level`, 0..=20 (20 is full strength).
pub const SKILL_LEVEL: EngineOption = EngineOption {
    name: "skill_level",
    uci_name: "Skill Level",
    min: 0,
    max: MAX_SKILL as u64,
    default: Some(MAX_SKILL as u64),
    field: Field::SkillLevel,
};

/// Every option of [`EngineOptions`], in the order of its fields.
pub const ENGINE_OPTIONS: [EngineOption; 6] = [
    HASH_MB,
    THREADS,
    MULTIPV,
    MOVE_OVERHEAD_MS,
    LIMIT_ELO,
    SKILL_LEVEL,
];

/// Why an option value was refused; the message quotes the value as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The value is not an integer (or is missing where the option cannot be unset).
    NotAnInteger {
        /// The option's name as the caller knows it.
        name: &'static str,
        /// The value as the caller wrote it (Python's `repr`).
        value: String,
    },
    /// The value is outside the option's range.
    OutOfRange {
        /// The option's name as the caller knows it.
        name: &'static str,
        /// The range.
        min: u64,
        /// The range.
        max: u64,
        /// The value as the caller wrote it.
        value: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => {
                let names: Vec<&str> = ENGINE_OPTIONS.iter().map(|o| o.name).collect();
                write!(
                    f,
                    "unknown engine option {} (options: {})",
                    py_repr(name),
                    names.join(", ")
                )
            }
            OptionError::NotAnInteger { name, value } => {
                write!(f, "engine option {name} must be an int, got {value}")
            }
            OptionError::OutOfRange {
                name,
                min,
                max,
                value,
            } => write!(
                f,
                "engine option {name} must be in {min}..{max}, got {value}"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// The option called `name` (a field of [`EngineOptions`]).
pub fn find_option(name: &str) -> Result<&'static EngineOption, OptionError> {
    ENGINE_OPTIONS
        .iter()
        .find(|o| o.name == name)
        .ok_or_else(|| OptionError::Unknown {
            name: name.to_string(),
        })
}

impl EngineOption {
    /// `value` if it is in range; the error names the option `shown` (its keyword or its UCI
    /// name, whichever the caller used).
    fn check_as(&self, shown: &'static str, value: i128) -> Result<u64, OptionError> {
        match u64::try_from(value) {
            Ok(v) if (self.min..=self.max).contains(&v) => Ok(v),
            _ => Err(self.out_of_range(shown, value)),
        }
    }

    /// `value` if it is in range.
    pub fn check(&self, value: i128) -> Result<u64, OptionError> {
        self.check_as(self.name, value)
    }

    /// `value` if it is in range; the error names the option by its UCI name.
    pub fn check_uci(&self, value: i128) -> Result<u64, OptionError> {
        self.check_as(self.uci_name, value)
    }

    /// The error for a value outside the range, naming the option `shown` (its name or its
    /// UCI name) and quoting the value as given (also for values too large for
    /// [`EngineOption::check`]'s argument).
    pub fn out_of_range(&self, shown: &'static str, value: impl fmt::Display) -> OptionError {
        OptionError::OutOfRange {
            name: shown,
            min: self.min,
            max: self.max,
            value: value.to_string(),
        }
    }

    /// The error for a value that is no integer, quoted as given.
    pub fn not_an_integer(&self, value: impl fmt::Display) -> OptionError {
        OptionError::NotAnInteger {
            name: self.name,
            value: value.to_string(),
        }
    }

    /// The value the UCI loop offers by default: the default, or the bottom of the range for
    /// an option that is unset by default.
    pub fn uci_default(&self) -> u64 {
        self.default.unwrap_or(self.min)
    }
}

impl EngineOptions {
    /// Sets `option` to `value` (`None`: unset, only for `limit_elo`) after checking it;
    /// on an error the options are unchanged.
    pub fn set(&mut self, option: &EngineOption, value: Option<i128>) -> Result<(), OptionError> {
        let value = match value {
            Some(v) => Some(option.check(v)?),
            None if option.default.is_none() => None,
            None => return Err(option.not_an_integer("None")),
        };
        // Checked against the range, so every value fits its field.
        let size = |v: Option<u64>| v.map_or(0, |v| v as usize);
        match option.field {
            Field::HashMb => self.hash_mb = size(value),
            Field::Threads => self.threads = size(value),
            Field::MultiPv => self.multipv = size(value),
            Field::MoveOverheadMs => self.move_overhead_ms = value.unwrap_or(0),
            Field::LimitElo => self.limit_elo = value.map(|v| v as u32),
            Field::SkillLevel => self.skill_level = value.map_or(0, |v| v as u32),
        }
        Ok(())
    }

    /// The value of `option` (`None`: unset).
    pub fn get(&self, option: &EngineOption) -> Option<u64> {
        match option.field {
            Field::HashMb => Some(self.hash_mb as u64),
            Field::Threads => Some(self.threads as u64),
            Field::MultiPv => Some(self.multipv as u64),
            Field::MoveOverheadMs => Some(self.move_overhead_ms),
            Field::LimitElo => self.limit_elo.map(u64::from),
            Field::SkillLevel => Some(u64::from(self.skill_level)),
        }
    }
}

/// One option of the UCI loop, as `uci` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciOption {
    /// An engine option as a `spin` (under its [`EngineOption::uci_name`]).
    Spin(EngineOption),
    /// A `check` the UCI loop keeps itself (`Ponder`, `UCI_Chess960`, `UCI_LimitStrength`,
    /// `OwnBook`, `Syzygy50MoveRule`).
    Check {
        /// The UCI name.
        name: &'static str,
        /// The loop's own key for it.
        key: &'static str,
        /// Its value before any `setoption`.
        default: bool,
    },
    /// A `button` (`Clear Hash`).
    Button {
        /// The UCI name.
        name: &'static str,
        /// The loop's own key for it.
        key: &'static str,
    },
    /// A `spin` the front end keeps itself, outside [`EngineOptions`] (`BookSeed`,
    /// `SyzygyProbeDepth`, which reaches the engine with the tables).
    OwnSpin {
        /// The UCI name.
        name: &'static str,
        /// The front end's key for it (the Python `Engine`'s keyword too).
        key: &'static str,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value.
        max: u64,
        /// Its value before any `setoption`.
        default: u64,
    },
    /// A `string` the front end keeps itself (`BookFile`, `SyzygyPath`, `EvalFile`); empty
    /// means unset.
    Text {
        /// The UCI name.
        name: &'static str,
        /// The front end's key for it (the Python `Engine`'s keyword too).
        key: &'static str,
        /// Its value before any `setoption`.
        default: &'static str,
    },
}

/// `OwnBook`: answer `go` with a move from the opening book (`BookFile`) when the position
/// is in it, before any search.
pub const OWN_BOOK: UciOption = UciOption::Check {
    name: "OwnBook",
    key: "own_book",
    default: false,
};

/// `BookFile`: the Polyglot book `OwnBook` plays from (the Python `Engine`'s `book`).
pub const BOOK_FILE: UciOption = UciOption::Text {
    name: "BookFile",
    key: "book",
    default: "",
};

/// `BookSeed`: the seed of the book's weighted choice, mixed with the position's key
/// (`pychess_book::Book::seeded_move`), so that a match played again repeats its book moves.
/// The top is the largest 32-bit signed integer, which every GUI's spin can hold.
pub const BOOK_SEED: UciOption = UciOption::OwnSpin {
    name: "BookSeed",
    key: "book_seed",
    min: 0,
    max: i32::MAX as u64,
    default: 0,
};

/// `SyzygyPath`: the directories of Syzygy endgame tables (several separated as the system
/// separates paths, `:` on Unix, `;` on Windows); empty plays without tables (the Python
/// `Engine`'s `syzygy`). See [`crate::tablebase`].
pub const SYZYGY_PATH: UciOption = UciOption::Text {
    name: "SyzygyPath",
    key: "syzygy",
    default: "",
};

/// `SyzygyProbeDepth`: the fewest plies left at which the search probes the WDL tables.
pub const SYZYGY_PROBE_DEPTH: UciOption = UciOption::OwnSpin {
    name: "SyzygyProbeDepth",
    key: "syzygy_probe_depth",
    min: 1,
    max: 100,
    default: crate::tablebase::DEFAULT_PROBE_DEPTH as u64,
};

/// `Syzygy50MoveRule`: do cursed wins and blessed losses (decided only beyond the
/// fifty-move rule) count as draws?
pub const SYZYGY_50_MOVE_RULE: UciOption = UciOption::Check {
    name: "Syzygy50MoveRule",
    key: "syzygy_50_move_rule",
    default: true,
};

/// `EvalFile`: a network file (`crate::nnue`, format `PCNN`) the engine evaluates with
/// instead of its built-in network; empty keeps the built-in one (the Python `Engine`'s
/// `eval_file`). Standard chess only: the variants keep their own evaluation.
pub const EVAL_FILE: UciOption = UciOption::Text {
    name: "EvalFile",
    key: "eval_file",
    default: "",
};

/// `Use NNUE`: evaluate with a network (`EvalFile`'s, or the built-in one); off, with the
/// hand-written evaluation (the Python `Engine`'s `use_nnue`). The strength levels evaluate
/// by hand either way: they are calibrated on it.
pub const USE_NNUE: UciOption = UciOption::Check {
    name: "Use NNUE",
    key: "use_nnue",
    default: true,
};

/// The options the UCI loop offers, in the order `uci` lists them.
pub const UCI_OPTIONS: [UciOption; 18] = [
    UciOption::Spin(HASH_MB),
    UciOption::Spin(THREADS),
    UciOption::Spin(MULTIPV),
    UciOption::Spin(MOVE_OVERHEAD_MS),
    UciOption::Check {
        name: "Ponder",
        key: "ponder",
        default: false,
    },
    UciOption::Check {
        name: "UCI_Chess960",
        key: "chess960",
        default: false,
    },
    UciOption::Button {
        name: "Clear Hash",
        key: "clear_hash",
    },
    UciOption::Check {
        name: "UCI_LimitStrength",
        key: "limit_strength",
        default: false,
    },
    UciOption::Spin(LIMIT_ELO),
    UciOption::Spin(SKILL_LEVEL),
    OWN_BOOK,
    BOOK_FILE,
    BOOK_SEED,
    SYZYGY_PATH,
    SYZYGY_PROBE_DEPTH,
    SYZYGY_50_MOVE_RULE,
    EVAL_FILE,
    USE_NNUE,
];

impl UciOption {
    /// The UCI name.
    pub fn name(&self) -> &'static str {
        match self {
            UciOption::Spin(o) => o.uci_name,
            UciOption::Check { name, .. }
            | UciOption::Button { name, .. }
            | UciOption::OwnSpin { name, .. }
            | UciOption::Text { name, .. } => name,
        }
    }

    /// The key the value is kept under: the [`EngineOption::name`] of a spin, or the loop's
    /// own key.
    pub fn key(&self) -> &'static str {
        match self {
            UciOption::Spin(o) => o.name,
            UciOption::Check { key, .. }
            | UciOption::Button { key, .. }
            | UciOption::OwnSpin { key, .. }
            | UciOption::Text { key, .. } => key,
        }
    }

    /// The range of a spin (`None` for the other kinds).
    pub fn range(&self) -> Option<(u64, u64)> {
        match *self {
            UciOption::Spin(o) => Some((o.min, o.max)),
            UciOption::OwnSpin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// `value` for this spin if it is in range; the error names the option `shown` (its UCI
    /// name or its key, whichever the caller used). An option that is no spin is
    /// [`OptionError::Unknown`] as a spin.
    pub fn check_spin(&self, shown: &'static str, value: i128) -> Result<u64, OptionError> {
        let Some((min, max)) = self.range() else {
            return Err(OptionError::Unknown {
                name: shown.to_string(),
            });
        };
        match u64::try_from(value) {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(OptionError::OutOfRange {
                name: shown,
                min,
                max,
                value: value.to_string(),
            }),
        }
    }
}

/// The UCI option whose front-end key is `key` (`book_seed`), as the Python `Engine`'s
/// keywords for the options outside [`EngineOptions`] are.
pub fn find_uci_option_by_key(key: &str) -> Option<&'static UciOption> {
    UCI_OPTIONS.iter().find(|o| o.key() == key)
}

/// The UCI option called `name`, compared without regard to ASCII case as `setoption` names
/// are.
pub fn find_uci_option(name: &str) -> Option<&'static UciOption> {
    UCI_OPTIONS
        .iter()
        .find(|o| o.name().eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_in_range_and_are_the_engines_defaults() {
        let defaults = EngineOptions::default();
        for option in &ENGINE_OPTIONS {
            assert_eq!(defaults.get(option), option.default, "{}", option.name);
            let shown = option.uci_default();
            assert!(
                (option.min..=option.max).contains(&shown),
                "{}",
                option.name
            );
        }
    }

    #[test]
    fn set_checks_every_option_and_changes_only_its_own() {
        for option in &ENGINE_OPTIONS {
            let mut options = EngineOptions::default();
            options.set(option, Some(i128::from(option.max))).unwrap();
            assert_eq!(options.get(option), Some(option.max));
            for other in ENGINE_OPTIONS.iter().filter(|o| o.name != option.name) {
                assert_eq!(options.get(other), other.default, "{}", other.name);
            }
            for bad in [i128::from(option.max) + 1, -1, i128::MAX] {
                let error = options.set(option, Some(bad)).unwrap_err();
                assert_eq!(
                    error.to_string(),
                    format!(
                        "engine option {} must be in {}..{}, got {bad}",
                        option.name, option.min, option.max
                    )
                );
                assert_eq!(options.get(option), Some(option.max));
            }
        }
    }

    #[test]
    fn only_limit_elo_may_be_unset() {
        let mut options = EngineOptions::default();
        options.set(&LIMIT_ELO, Some(1500)).unwrap();
        assert_eq!(options.limit_elo, Some(1500));
        options.set(&LIMIT_ELO, None).unwrap();
        assert_eq!(options.limit_elo, None);
        assert_eq!(
            options.set(&THREADS, None).unwrap_err().to_string(),
            "engine option threads must be an int, got None"
        );
    }

    #[test]
    fn unknown_names_are_quoted_as_python_does() {
        assert_eq!(
            find_option("contempt").unwrap_err().to_string(),
            "unknown engine option 'contempt' (options: hash_mb, threads, multipv, \
             move_overhead_ms, limit_elo, skill_level)"
        );
        assert_eq!(find_option("threads"), Ok(&THREADS));
    }

    #[test]
    fn uci_options_use_the_same_ranges_under_uci_names() {
        let names: Vec<&str> = UCI_OPTIONS.iter().map(UciOption::name).collect();
        assert_eq!(
            names,
            [
                "Hash",
                "Threads",
                "MultiPV",
                "Move Overhead",
                "Ponder",
                "UCI_Chess960",
                "Clear Hash",
                "UCI_LimitStrength",
                "UCI_Elo",
                "Skill Level",
                "OwnBook",
                "BookFile",
                "BookSeed",
                "SyzygyPath",
                "SyzygyProbeDepth",
                "Syzygy50MoveRule",
                "EvalFile",
                "Use NNUE"
            ]
        );
        let Some(UciOption::Spin(skill)) = find_uci_option("SKILL level") else {
            panic!("Skill Level is a spin");
        };
        assert_eq!(skill, &SKILL_LEVEL);
        assert_eq!(skill.check_uci(20), Ok(20));
        assert_eq!(
            skill.check_uci(21).unwrap_err().to_string(),
            "engine option Skill Level must be in 0..20, got 21"
        );
        assert_eq!(find_uci_option("UCI_Elo").unwrap().key(), "limit_elo");
        assert_eq!(find_uci_option("ponder").unwrap().key(), "ponder");
        assert_eq!(find_uci_option("evalfile"), Some(&EVAL_FILE));
        assert_eq!(EVAL_FILE.key(), "eval_file");
        assert_eq!(find_uci_option("use nnue"), Some(&USE_NNUE));
        assert!(find_uci_option("Nonsense").is_none());
        assert_eq!(LIMIT_ELO.uci_default(), LIMIT_ELO.min);
    }

    #[test]
    fn book_options_stay_outside_the_search_options() {
        for option in [OWN_BOOK, BOOK_FILE, BOOK_SEED] {
            assert!(find_option(option.key()).is_err(), "{}", option.key());
            assert_eq!(find_uci_option(option.name()), Some(&option));
            assert_eq!(find_uci_option_by_key(option.key()), Some(&option));
        }
        assert_eq!(BOOK_SEED.check_spin("BookSeed", 7), Ok(7));
        assert_eq!(
            BOOK_SEED
                .check_spin("book_seed", -1)
                .unwrap_err()
                .to_string(),
            "engine option book_seed must be in 0..2147483647, got -1"
        );
        assert_eq!(
            BOOK_SEED
                .check_spin("BookSeed", 1 << 31)
                .unwrap_err()
                .to_string(),
            "engine option BookSeed must be in 0..2147483647, got 2147483648"
        );
        assert_eq!(
            UciOption::Spin(HASH_MB).check_spin("Hash", 0),
            Err(HASH_MB.out_of_range("Hash", 0))
        );
        assert!(matches!(
            OWN_BOOK.check_spin("OwnBook", 1),
            Err(OptionError::Unknown { .. })
        ));
        assert_eq!(BOOK_FILE.range(), None);
    }
}
