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

use super::{Batch, IllegalAction, ObservationKind, Options};
use pychess_core::{Board, FenError, Game, Termination};
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
