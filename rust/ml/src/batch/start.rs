//! Starting a batch from what a caller asks for: the start position (a FEN, or the standard
//! start), the observation and illegal-action policies by name, and the checks a batch makes
//! before its first step. Every front end (the Python `BatchBoards`, `rollouts`, the
//! environments) starts games through here, so they refuse the same things with the same
//! words.
//!
//! ```
//! use pychess_ml::batch::{start_position, Batch, IllegalAction, ObservationKind, Options};
//!
//! let options = Options {
//!     observation: ObservationKind::from_name(Some("pettingzoo"))?,
//!     illegal: IllegalAction::from_name("lose")?,
//!     ..Options::default()
//! };
//! let batch = Batch::try_new(4, start_position(None)?, options)?;
//! assert_eq!(batch.len(), 4);
//! // Fool's mate is over before any action could be taken.
//! let mated = start_position(Some("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"))?;
//! assert_eq!(
//!     Batch::try_new(4, mated, options).unwrap_err().to_string(),
//!     "the start position is already over (Checkmate): \
//!      rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
//! );
//! # Ok::<(), pychess_ml::batch::StartError>(())
//! ```

use super::{Batch, IllegalAction, MaskFormat, ObservationKind, Options, Planes};
use pychess_core::{Board, Color, FenError, Game, Role, Termination};
use std::fmt;

/// Why a batch (or a set of rollouts) cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The start FEN does not parse or describes an illegal position.
    Fen(FenError),
    /// No observation kind has this name.
    Observation(String),
    /// No illegal-action policy has this name.
    Illegal(String),
    /// No plane type has this name.
    Planes(String),
    /// The plane type cannot hold this observation (bool planes for AlphaZero's counters).
    PlanesForKind {
        /// The plane type's name.
        planes: String,
        /// The observation's name.
        kind: &'static str,
    },
    /// No mask form has this name.
    Mask(String),
    /// Legal actions as indices need a start position whose material a game could have
    /// (at most 16 pieces, 8 pawns and 8 promoted pieces a side): others could reach more
    /// legal moves than the index form has room for.
    IndicesNeedGameMaterial(String),
    /// `max_plies` is zero: every game would be truncated before its first move.
    MaxPlies,
    /// The start position has ended already, so no game could be stepped or reset into play.
    AlreadyOver {
        /// How it ended.
        termination: Termination,
        /// The start position.
        fen: String,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Fen(e) => e.fmt(f),
            StartError::Observation(name) => write!(
                f,
                "observation must be 'pettingzoo', 'alphazero' or None, not {name:?}"
            ),
            StartError::Illegal(name) => {
                write!(f, "illegal must be 'error' or 'lose', not {name:?}")
            }
            StartError::Planes(name) => write!(
                f,
                "dtype must be 'float32', 'uint8', 'bool', 'packed' or None, not {name:?}"
            ),
            StartError::PlanesForKind { planes, kind } => write!(
                f,
                "dtype '{planes}' cannot hold {kind} observations (its move-count planes are not 0/1): \
                 use 'uint8', 'float32' or 'packed'"
            ),
            StartError::Mask(name) => write!(
                f,
                "mask must be 'int8', 'bool', 'bits' or 'indices', not {name:?}"
            ),
            StartError::IndicesNeedGameMaterial(fen) => write!(
                f,
                "mask='indices' needs a start position with the material of a game (at most 16 \
                 pieces, 8 pawns and 8 promoted pieces a side): {fen}"
            ),
            StartError::MaxPlies => write!(f, "max_plies must be positive"),
            StartError::AlreadyOver { termination, fen } => {
                write!(
                    f,
                    "the start position is already over ({termination:?}): {fen}"
                )
            }
        }
    }
}

impl std::error::Error for StartError {}

impl From<FenError> for StartError {
    fn from(e: FenError) -> StartError {
        StartError::Fen(e)
    }
}

impl ObservationKind {
    /// The kind called `name`: `"pettingzoo"`, `"alphazero"`, or none for `None`.
    pub fn from_name(name: Option<&str>) -> Result<ObservationKind, StartError> {
        match name {
            None => Ok(ObservationKind::None),
            Some("pettingzoo") => Ok(ObservationKind::PettingZoo),
            Some("alphazero") => Ok(ObservationKind::AlphaZero),
            Some(other) => Err(StartError::Observation(other.to_string())),
        }
    }
}

impl ObservationKind {
    /// The kind's name, as [`ObservationKind::from_name`] reads it (`"none"` for `None`).
    pub fn name(self) -> &'static str {
        match self {
            ObservationKind::None => "none",
            ObservationKind::PettingZoo => "pettingzoo",
            ObservationKind::AlphaZero => "alphazero",
        }
    }
}

impl Planes {
    /// The plane type called `name` for observations of `kind` (NumPy's dtype names):
    /// `"float32"`, `"uint8"`, `"bool"` (bytes, refused for AlphaZero, whose counters are not
    /// 0/1), `"packed"` (`u64` bitboards), or none for the kind's own.
    pub fn from_name(name: Option<&str>, kind: ObservationKind) -> Result<Planes, StartError> {
        match name {
            None => Ok(Planes::Native),
            Some("float32") => Ok(Planes::F32),
            Some("uint8") => Ok(Planes::U8),
            Some("packed") => Ok(Planes::Packed),
            Some("bool") if kind == ObservationKind::AlphaZero => Err(StartError::PlanesForKind {
                planes: "bool".to_string(),
                kind: kind.name(),
            }),
            Some("bool") => Ok(Planes::U8),
            Some(other) => Err(StartError::Planes(other.to_string())),
        }
    }
}

impl MaskFormat {
    /// The mask form called `name`: `"int8"` or `"bool"` (bytes), `"bits"` or `"indices"`.
    pub fn from_name(name: &str) -> Result<MaskFormat, StartError> {
        match name {
            "int8" | "bool" => Ok(MaskFormat::Bytes),
            "bits" => Ok(MaskFormat::Bits),
            "indices" => Ok(MaskFormat::Indices),
            other => Err(StartError::Mask(other.to_string())),
        }
    }
}

/// Could a game have this material: at most 16 pieces, 8 pawns, and no more pieces beyond
/// the initial set (one queen, two rooks, two bishops, two knights) than pawns missing, for
/// each side? Positions with such material have at most 218 legal moves, the most known.
fn game_material(board: &Board) -> bool {
    Color::ALL.into_iter().all(|color| {
        let count = |role| board.pieces(color, role).count() as usize;
        let pawns = count(Role::Pawn);
        let extra = count(Role::Queen).saturating_sub(1)
            + count(Role::Rook).saturating_sub(2)
            + count(Role::Bishop).saturating_sub(2)
            + count(Role::Knight).saturating_sub(2);
        pawns <= 8 && count(Role::King) <= 1 && extra <= 8 - pawns
    })
}

impl IllegalAction {
    /// The policy called `name`: `"error"` or `"lose"`.
    pub fn from_name(name: &str) -> Result<IllegalAction, StartError> {
        match name {
            "error" => Ok(IllegalAction::Error),
            "lose" => Ok(IllegalAction::Lose),
            other => Err(StartError::Illegal(other.to_string())),
        }
    }
}

/// The position games start from: `fen` (standard chess), or the standard start.
pub fn start_position(fen: Option<&str>) -> Result<Board, StartError> {
    match fen {
        None => Ok(Board::default()),
        Some(fen) => Ok(Board::from_fen(fen, false)?),
    }
}

impl Batch {
    /// [`Batch::new`] after the checks a batch needs: `max_plies` is positive and the start
    /// position has not ended (under `options.claim_draw`).
    pub fn try_new(games: usize, start: Board, options: Options) -> Result<Batch, StartError> {
        if options.max_plies == Some(0) {
            return Err(StartError::MaxPlies);
        }
        if options.mask == MaskFormat::Indices && !game_material(&start) {
            return Err(StartError::IndicesNeedGameMaterial(start.fen()));
        }
        if let Some(outcome) = Game::new(start.clone()).outcome(options.claim_draw) {
            return Err(StartError::AlreadyOver {
                termination: outcome.termination,
                fen: start.fen(),
            });
        }
        Ok(Batch::new(games, start, options))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_refusals_quote_the_name() {
        assert_eq!(
            ObservationKind::from_name(Some("alphazero")),
            Ok(ObservationKind::AlphaZero)
        );
        assert_eq!(ObservationKind::from_name(None), Ok(ObservationKind::None));
        assert_eq!(
            ObservationKind::from_name(Some("rgb"))
                .unwrap_err()
                .to_string(),
            "observation must be 'pettingzoo', 'alphazero' or None, not \"rgb\""
        );
        assert_eq!(
            Planes::from_name(Some("packed"), ObservationKind::AlphaZero),
            Ok(Planes::Packed)
        );
        assert_eq!(
            Planes::from_name(Some("bool"), ObservationKind::PettingZoo),
            Ok(Planes::U8)
        );
        assert!(matches!(
            Planes::from_name(Some("bool"), ObservationKind::AlphaZero),
            Err(StartError::PlanesForKind { .. })
        ));
        assert_eq!(
            Planes::from_name(Some("int4"), ObservationKind::AlphaZero)
                .unwrap_err()
                .to_string(),
            "dtype must be 'float32', 'uint8', 'bool', 'packed' or None, not \"int4\""
        );
        assert_eq!(MaskFormat::from_name("bits"), Ok(MaskFormat::Bits));
        assert!(MaskFormat::from_name("dense").is_err());
        assert_eq!(IllegalAction::from_name("error"), Ok(IllegalAction::Error));
        assert_eq!(
            IllegalAction::from_name("ignore").unwrap_err().to_string(),
            "illegal must be 'error' or 'lose', not \"ignore\""
        );
    }

    #[test]
    fn start_checks() {
        let start = start_position(None).unwrap();
        let options = Options {
            max_plies: Some(0),
            ..Options::default()
        };
        assert_eq!(
            Batch::try_new(1, start.clone(), options).unwrap_err(),
            StartError::MaxPlies
        );
        assert!(matches!(
            start_position(Some("not a fen")),
            Err(StartError::Fen(_))
        ));
        // Index masks need a game's material: nine queens and eight pawns are too many.
        let indices = Options {
            mask: MaskFormat::Indices,
            ..Options::default()
        };
        assert!(Batch::try_new(1, start.clone(), indices).is_ok());
        let queens = start_position(Some("QQQQQQQQ/Q7/8/8/8/7k/PPPPPPPP/7K w - - 0 1")).unwrap();
        assert!(matches!(
            Batch::try_new(1, queens, indices),
            Err(StartError::IndicesNeedGameMaterial(_))
        ));
        // Claimable only with claim_draw: the fifty-move rule.
        let fifty = start_position(Some("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")).unwrap();
        assert!(Batch::try_new(1, fifty.clone(), Options::default()).is_ok());
        let claiming = Options {
            claim_draw: true,
            ..Options::default()
        };
        assert!(matches!(
            Batch::try_new(1, fifty, claiming),
            Err(StartError::AlreadyOver {
                termination: Termination::FiftyMoves,
                ..
            })
        ));
    }
}
