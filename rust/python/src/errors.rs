//! The Python exception classes, and the one place Rust errors become them.
//!
//! As polars' `PyPolarsErr` does, [`Error`] wraps every error the core, engine and ml crates
//! return, plus PyO3's own: `From` impls let `?` collect any of them in a binding function
//! that returns [`Result`], and `From<Error> for PyErr` picks each one's Python class where
//! PyO3 hands the error to Python. Messages are the Rust errors' own `Display`; nothing is
//! converted on success.

use pychess_book::UnknownPiece;
use pychess_core::notation::epd::EpdError;
use pychess_core::{FenError, MoveError};
use pychess_engine::{BenchDepthError, OptionError, Unsearchable};
use pychess_gaviota::{DirectoryError, ProbeError as GaviotaProbeError};
use pychess_ml::batch::{ReplayError, StartError, StepError};
use pychess_pgn::{ErrorKind as PgnErrorKind, PgnError};
use pychess_syzygy::{NameError, ProbeError as SyzygyProbeError};
use pyo3::create_exception;
use pyo3::exceptions::{PyFileNotFoundError, PyKeyError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

create_exception!(
    _core,
    InvalidFenError,
    PyValueError,
    "A FEN or EPD that is malformed or describes an illegal position."
);
create_exception!(
    _core,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move in the expected notation (UCI or SAN)."
);
create_exception!(
    _core,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the position."
);
create_exception!(
    _core,
    AmbiguousMoveError,
    PyValueError,
    "A SAN that fits more than one legal move."
);
create_exception!(
    pychess_rs.engine,
    EngineOptionError,
    PyValueError,
    "An engine option that does not exist, or a value of the wrong type or out of range."
);
/// python-chess has a `MissingTableError` in each tablebase module, two classes of one name:
/// so here, each in a module of its own.
pub mod gaviota {
    use pyo3::create_exception;
    use pyo3::exceptions::PyKeyError;
    create_exception!(
        pychess_rs.gaviota,
        MissingTableError,
        PyKeyError,
        "Can not probe position because a required table is missing."
    );
}

/// See [`gaviota`].
pub mod syzygy {
    use pyo3::create_exception;
    use pyo3::exceptions::PyKeyError;
    create_exception!(
        pychess_rs.syzygy,
        MissingTableError,
        PyKeyError,
        "Can not probe position because a required table is missing."
    );
}

create_exception!(
    _core,
    TrainingDataError,
    PyValueError,
    "Training data that cannot be written or read: a record no writer produces, a file of the \
     wrong size, a position the format cannot hold, an option out of range."
);

/// Any error a binding function can meet.
#[derive(Debug)]
pub(crate) enum Error {
    /// A FEN that does not parse or is illegal: `InvalidFenError`.
    Fen(FenError),
    /// An EPD that does not parse: `InvalidFenError`.
    Epd(EpdError),
    /// A move that is malformed, illegal or ambiguous: its own class each.
    Move(MoveError),
    /// An engine option refused: `EngineOptionError`.
    EngineOption(OptionError),
    /// A bench depth out of range: `ValueError`.
    BenchDepth(BenchDepthError),
    /// A position the engine cannot search: `ValueError`.
    Unsearchable(Unsearchable),
    /// A batch that cannot start: `InvalidFenError` for its FEN, else `ValueError`.
    BatchStart(StartError),
    /// A refused batch step: `IllegalMoveError` for an illegal action, else `ValueError`.
    BatchStep(StepError),
    /// A recorded action that is not legal: `IllegalMoveError`.
    Replay(ReplayError),
    /// A book entry whose move names no piece: `ValueError`.
    BookEntry(UnknownPiece),
    /// A Gaviota probe without answer: `MissingTableError` for missing material, `OSError`
    /// for a table that cannot be read, else `KeyError` (python-chess's classes).
    GaviotaProbe(GaviotaProbeError),
    /// A Gaviota directory that cannot be added: `OSError`.
    GaviotaDirectory(DirectoryError),
    /// A Syzygy probe without an answer: `MissingTableError`, `KeyError` (too many pieces,
    /// castling rights), `OSError` (a file that cannot be read as a table) or `ValueError`.
    SyzygyProbe(SyzygyProbeError),
    /// A name that is not a table name: `ValueError`.
    TableName(NameError),
    /// An error met reading a PGN game (python-chess's `game.errors`): the class python-chess
    /// records for it.
    Pgn(PgnError),
    /// Training data that cannot be written or read: `OSError` for the file system, else
    /// `TrainingDataError`.
    TrainingData(pychess_training_data::Error),
    /// Already a Python exception.
    Python(PyErr),
}

/// What binding functions return: `?` converts every error of the Rust crates.
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

macro_rules! wrap {
    ($($source:ty => $variant:ident),* $(,)?) => {
        $(
            impl From<$source> for Error {
                #[inline]
                fn from(e: $source) -> Error {
                    Error::$variant(e)
                }
            }
        )*
    };
}

wrap! {
    FenError => Fen,
    EpdError => Epd,
    MoveError => Move,
    OptionError => EngineOption,
    Unsearchable => Unsearchable,
    BenchDepthError => BenchDepth,
    StartError => BatchStart,
    StepError => BatchStep,
    ReplayError => Replay,
    PgnError => Pgn,
    UnknownPiece => BookEntry,
    GaviotaProbeError => GaviotaProbe,
    DirectoryError => GaviotaDirectory,
    SyzygyProbeError => SyzygyProbe,
    NameError => TableName,
    pychess_training_data::Error => TrainingData,
    PyErr => Python,
}

/// PyO3's own failures (a borrow of a borrowed object, a cast to the wrong class).
macro_rules! python {
    ($($source:ty),* $(,)?) => {
        $(
            impl From<$source> for Error {
                #[inline]
                fn from(e: $source) -> Error {
                    Error::Python(e.into())
                }
            }
        )*
    };
}

python! {
    pyo3::pycell::PyBorrowError,
    pyo3::pycell::PyBorrowMutError,
    pyo3::CastError<'_, '_>,
    pyo3::CastIntoError<'_>,
}

impl From<Error> for PyErr {
    #[cold]
    fn from(e: Error) -> PyErr {
        match e {
            Error::Fen(e) => InvalidFenError::new_err(e.to_string()),
            Error::Epd(e) => InvalidFenError::new_err(e.to_string()),
            Error::Move(e) => {
                let message = e.to_string();
                match e {
                    MoveError::Invalid { .. } => InvalidMoveError::new_err(message),
                    MoveError::Illegal { .. }
                    | MoveError::NotPseudoLegal { .. }
                    | MoveError::NoCastlingRook { .. }
                    | MoveError::NoMatchingMove { .. }
                    | MoveError::IllegalInLine { .. } => IllegalMoveError::new_err(message),
                    MoveError::Ambiguous { .. } => AmbiguousMoveError::new_err(message),
                }
            }
            Error::EngineOption(e) => EngineOptionError::new_err(e.to_string()),
            Error::Unsearchable(e) => PyValueError::new_err(e.to_string()),
            Error::BenchDepth(e) => PyValueError::new_err(e.to_string()),
            Error::BatchStart(e @ StartError::Fen(_)) => InvalidFenError::new_err(e.to_string()),
            Error::BatchStart(e) => PyValueError::new_err(e.to_string()),
            Error::BatchStep(e @ StepError::IllegalAction { .. }) => {
                IllegalMoveError::new_err(e.to_string())
            }
            Error::BatchStep(e) => PyValueError::new_err(e.to_string()),
            Error::Replay(e) => IllegalMoveError::new_err(e.to_string()),
            Error::BookEntry(e) => PyValueError::new_err(e.to_string()),
            Error::Pgn(e) => match e.kind {
                PgnErrorKind::InvalidMove => InvalidMoveError::new_err(e.message),
                PgnErrorKind::IllegalMove => IllegalMoveError::new_err(e.message),
                PgnErrorKind::AmbiguousMove => AmbiguousMoveError::new_err(e.message),
                PgnErrorKind::Fen => InvalidFenError::new_err(e.message),
                PgnErrorKind::UnknownVariant | PgnErrorKind::UnsupportedVariant => {
                    PyValueError::new_err(e.message)
                }
            },
            Error::GaviotaProbe(e @ GaviotaProbeError::MissingTable { .. }) => {
                gaviota::MissingTableError::new_err(e.to_string())
            }
            Error::GaviotaProbe(GaviotaProbeError::File(e)) => PyOSError::new_err(e.to_string()),
            Error::GaviotaProbe(e) => PyKeyError::new_err(e.to_string()),
            Error::GaviotaDirectory(DirectoryError::Io(e)) => e.into(),
            Error::GaviotaDirectory(e) => PyOSError::new_err(e.to_string()),
            Error::SyzygyProbe(e) => {
                let message = e.to_string();
                match e {
                    SyzygyProbeError::MissingTable { .. } => {
                        syzygy::MissingTableError::new_err(message)
                    }
                    SyzygyProbeError::TooManyPieces { .. }
                    | SyzygyProbeError::CastlingRights { .. } => PyKeyError::new_err(message),
                    SyzygyProbeError::Open { kind, .. } => {
                        std::io::Error::new(kind, message).into()
                    }
                    SyzygyProbeError::Invalid { .. } => PyOSError::new_err(message),
                    SyzygyProbeError::WrongMaterial { .. } | SyzygyProbeError::WdlOutOfRange(_) => {
                        PyValueError::new_err(message)
                    }
                }
            }
            Error::TableName(e) => PyValueError::new_err(e.to_string()),
            Error::TrainingData(pychess_training_data::Error::Io { path, source }) => {
                let message = format!("{path}: {source}");
                match source.kind() {
                    std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
                    _ => PyOSError::new_err(message),
                }
            }
            Error::TrainingData(e @ pychess_training_data::Error::Worker(_)) => {
                PyRuntimeError::new_err(e.to_string())
            }
            Error::TrainingData(e) => TrainingDataError::new_err(e.to_string()),
            Error::Python(e) => e,
        }
    }
}
