//! A neural network evaluation (NNUE): a perspective network `768 -> N x 2 -> 1` with
//! clipped-ReLU or squared clipped-ReLU activation and 16-bit integer weights, loaded from a
//! file (`EvalFile`) or built into the engine ([`Network::builtin`], the default evaluation
//! of standard chess). The hand-written evaluation (`crate::eval`) stays for the variants,
//! for the strength levels (calibrated on it) and for anyone who turns the network off.
//!
//! # The network
//!
//! Each side has its own view (*perspective*) of the board: 768 binary inputs, one per
//! (own or enemy piece, role, square), with squares flipped vertically for Black so that
//! both sides see the board from their first rank:
//!
//! ```text
//! input(perspective, piece, square) = 384 * (piece colour != perspective)
//!                                   + 64 * role (pawn 0 .. king 5)
//!                                   + (square, or square ^ 56 for Black)
//! ```
//!
//! A shared feature transformer turns each view into `N` numbers (the *accumulator*:
//! the bias plus the weight rows of the active inputs). The side to move's accumulator
//! and then the other side's are clipped to `0..=QA` (*clipped ReLU*, `CReLU`) and
//! joined into `2N` numbers; one output neuron weighs them:
//!
//! ```text
//! eval = (sum(crelu(us) * out[..N]) + sum(crelu(them) * out[N..]) + out_bias) * SCALE / (QA * QB)
//! ```
//!
//! in centipawns, from the side to move's point of view. With the *squared* clipped ReLU
//! (`SCReLU`, file version 2) each clipped value is squared before it is weighed, and the
//! sum, then in units of `QA * QA * QB`, is divided by `QA` first:
//!
//! ```text
//! eval = (sum(crelu(us)^2 * out[..N]) + sum(crelu(them)^2 * out[N..])) / QA + out_bias) * SCALE / (QA * QB)
//! ```
//!
//! (the float network's activation is `clamp(x, 0, 1)^2`: a smooth step that lets the
//! output weigh strong features more than weak ones). The accumulator is kept
//! incrementally along the search path (see [`AccumulatorStack`]): a move changes two to
//! four inputs, so a child's accumulator is its parent's plus or minus a few weight rows.
//!
//! # The file format (versions 1 and 2)
//!
//! Version 1 is a clipped-ReLU network, version 2 a squared clipped-ReLU one; the layout is
//! the same. All integers little-endian:
//!
//! | bytes | field |
//! | --- | --- |
//! | 4 | magic `PCNN` |
//! | 4 | version, `u32`: 1 (`CReLU`) or 2 (`SCReLU`) |
//! | 4 | `N`, the hidden width per perspective, `u32` in `1..=4096` |
//! | 4 | `QA`, `u32`: the feature transformer's scale (a float 1.0 is stored as `QA`) |
//! | 4 | `QB`, `u32`: the output layer's scale |
//! | 4 | `SCALE`, `u32`: centipawns per unit of the float network's output |
//! | 768 * N * 2 | feature weights, `i16`, input-major (row `i` is the `N` weights of input `i`) |
//! | N * 2 | feature biases, `i16` |
//! | 2N * 2 | output weights, `i16`: `N` for the side to move, then `N` for the other side |
//! | 4 | output bias, `i32`, in units of `QA * QB` |
//!
//! # Output buckets (version 3)
//!
//! A version 3 file has `B` output heads in place of one: `B` sets of `2N` output weights
//! and `B` output biases. A position uses head [`output_bucket`]`(pieces, B)`, chosen by
//! how many pieces (kings included) are on the board, so that the endgame's heads weigh
//! the same accumulator otherwise than the middlegame's. The header is 32 bytes: the six
//! fields above with version 3, then the activation (`u32`: 1 `CReLU`, 2 `SCReLU`, the
//! versions that name them) and `B` (`u32` in `1..=16`); the feature weights and biases
//! follow as above, then `B * 2N` output weights (`i16`, head by head) and `B` output
//! biases (`i32`). A one-head network is written as version 1 or 2.
//!
//! The file is exactly that long. `tools/nnue_train.py` trains a network on the project's
//! NNUE training records and writes this format. Loading checks every field and the
//! length and reports what is wrong ([`NetworkError`]); a loaded file cannot make the
//! evaluation panic (the accumulator adds with wrap-around, which a trained network never
//! reaches since the trainer clips its weights).
//!
//! ```
//! use pychess_core::Board;
//! use pychess_engine::nnue::{Network, NetworkError};
//!
//! let net = Network::from_bytes(&Network::zeroed(8).to_bytes())?;
//! assert_eq!(net.hidden(), 8);
//! assert_eq!(net.evaluate(&Board::default()), 0);
//! assert!(matches!(Network::from_bytes(b"nonsense"), Err(NetworkError::TooShort { .. })));
//! # Ok::<(), NetworkError>(())
//! ```

mod simd;

use pychess_core::{Bitboard, Board, Color, Role};
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The network the engine evaluates with unless told otherwise: `rust/engine/nets/`'s
/// best, chosen by match (`rust/engine/TUNING.md`), compiled into the binary.
pub const BUILTIN_NAME: &str = "w256e";
const BUILTIN_BYTES: &[u8] = include_bytes!("../../nets/w256e.nnue");

/// Inputs per perspective: 2 colours x 6 roles x 64 squares.
pub const INPUTS: usize = 768;
/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"PCNN";
/// The newest file format version this engine reads (it reads every version from 1).
pub const VERSION: u32 = 3;
/// The widest hidden layer accepted.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets accepted.
pub const MAX_BUCKETS: usize = 16;
/// Header length in bytes of versions 1 and 2 (the shortest header).
pub const HEADER_LEN: usize = 24;
/// Header length in bytes of version 3 (two more fields: the activation, the buckets).
pub const HEADER_LEN_V3: usize = 32;
/// The feature transformer's scale the trainer writes: a float weight `w` is stored as
/// `round(w * QA)`, and the clipped ReLU clips at `QA` (1.0).
pub const QA: i32 = 255;
/// The output layer's scale the trainer writes.
pub const QB: i32 = 64;
/// Centipawns per unit of the float network's output, as the trainer writes it.
pub const SCALE: i32 = 400;

/// The hidden layer's activation, which the file's version names.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `clamp(x, 0, 1)` (file version 1).
    #[default]
    ClippedRelu,
    /// `clamp(x, 0, 1)^2` (file version 2).
    SquaredClippedRelu,
}

impl Activation {
    /// Every activation, by file version.
    pub const ALL: [Activation; 2] = [Activation::ClippedRelu, Activation::SquaredClippedRelu];

    /// The file version that stores a network with this activation.
    pub fn version(self) -> u32 {
        match self {
            Activation::ClippedRelu => 1,
            Activation::SquaredClippedRelu => 2,
        }
    }

    /// The activation of file version `version`.
    pub fn from_version(version: u32) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.version() == version)
    }

    /// Its name on the trainer's command line: `crelu`, `screlu`.
    pub fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }

    /// The activation named `name` (see [`Self::name`]).
    pub fn parse(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read.
    Io {
        /// The path as given.
        path: String,
        /// The operating system's message.
        message: String,
    },
    /// Fewer bytes than a header.
    TooShort {
        /// Bytes found.
        len: usize,
        /// The header's length: [`HEADER_LEN`], or [`HEADER_LEN_V3`] for version 3.
        header: usize,
    },
    /// The first four bytes are not [`MAGIC`].
    BadMagic,
    /// A version other than 1..=[`VERSION`].
    UnsupportedVersion {
        /// The version found.
        version: u32,
    },
    /// `N` outside `1..=MAX_HIDDEN`.
    BadHidden {
        /// The width found.
        hidden: u32,
    },
    /// A version 3 file's bucket count outside `1..=MAX_BUCKETS`.
    BadBuckets {
        /// The count found.
        buckets: u32,
    },
    /// A version 3 file's activation code is not 1 (`CReLU`) or 2 (`SCReLU`).
    BadActivation {
        /// The code found.
        code: u32,
    },
    /// A zero or oversized quantisation scale.
    BadScale {
        /// Which scale (`QA`, `QB`, `SCALE`).
        name: &'static str,
        /// Its value.
        value: u32,
    },
    /// A weight vector given to [`Network::from_weights`] of the wrong length.
    WrongWeights {
        /// Which vector (`feature weights`, `feature biases`, `output weights`).
        part: &'static str,
        /// The length the width implies.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// The length does not match the header's `N`.
    WrongLength {
        /// The length `N` implies.
        expected: usize,
        /// The length found.
        found: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io { path, message } => {
                write!(f, "cannot read network file {path:?}: {message}")
            }
            NetworkError::TooShort { len, header } => write!(
                f,
                "not a network file: {len} bytes, shorter than the {header}-byte header"
            ),
            NetworkError::BadMagic => write!(f, "not a network file: the magic is not PCNN"),
            NetworkError::UnsupportedVersion { version } => write!(
                f,
                "network file version {version} is not supported (this engine reads 1 to {VERSION})"
            ),
            NetworkError::BadHidden { hidden } => write!(
                f,
                "network hidden width {hidden} is outside 1..={MAX_HIDDEN}"
            ),
            NetworkError::BadBuckets { buckets } => write!(
                f,
                "network output buckets {buckets} is outside 1..={MAX_BUCKETS}"
            ),
            NetworkError::BadActivation { code } => write!(
                f,
                "network activation code {code} is not 1 (crelu) or 2 (screlu)"
            ),
            NetworkError::BadScale { name, value } => {
                write!(f, "network scale {name} = {value} is outside 1..=65535")
            }
            NetworkError::WrongWeights {
                part,
                expected,
                found,
            } => write!(
                f,
                "{found} {part} given, a network of this width has {expected}"
            ),
            NetworkError::WrongLength { expected, found } => write!(
                f,
                "network file is {found} bytes, its header says {expected}"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A loaded network (see the module documentation for its shape and file format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    /// Output buckets: heads of `2N` weights and a bias, one chosen by the piece count.
    buckets: usize,
    activation: Activation,
    /// Whether every `QA * output weight` fits in `i16`, as the trainer's clipped weights
    /// do: the squared clipped ReLU's fast kernel needs it (set by `Network::checked`).
    output_fits_i16: bool,
    qa: i32,
    qb: i32,
    scale: i32,
    feature_weights: Vec<i16>,
    feature_bias: Vec<i16>,
    /// `buckets` heads of `2N`, bucket-major.
    output_weights: Vec<i16>,
    /// One per bucket.
    output_bias: Vec<i32>,
}

/// The output bucket of a position with `pieces` pieces (kings included) on a network
/// with `buckets` heads: the range 2..=32 cut into `buckets` equal parts, so that with 8
/// heads each serves about four piece counts (an endgame's head learns what material is
/// worth with little of it left, apart from the middlegame's).
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets.max(1) - 1)
}

/// The input of `piece` of `color` on `square` seen from `perspective`.
#[inline]
pub fn feature_index(perspective: Color, color: Color, role: Role, square: usize) -> usize {
    let square = match perspective {
        Color::White => square,
        Color::Black => square ^ 56,
    };
    384 * usize::from(color != perspective) + 64 * role.index() + square
}

/// The pieces of a board by `color.index() * 6 + role.index()`.
fn piece_sets(board: &Board) -> [Bitboard; 12] {
    let mut sets = [Bitboard(0); 12];
    for color in Color::ALL {
        for role in Role::ALL {
            sets[color.index() * 6 + role.index()] = board.pieces(color, role);
        }
    }
    sets
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn read_i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Network {
    /// The file length of a network of hidden width `hidden` with `buckets` output heads
    /// (version 1 or 2 for one head, version 3 for more).
    pub fn file_len(hidden: usize, buckets: usize) -> usize {
        let header = if buckets == 1 {
            HEADER_LEN
        } else {
            HEADER_LEN_V3
        };
        header + Network::weights_len(hidden, buckets)
    }

    /// The bytes of the weights after the header: feature weights and biases, `buckets`
    /// heads of output weights, one output bias per head.
    fn weights_len(hidden: usize, buckets: usize) -> usize {
        2 * (INPUTS * hidden + hidden + 2 * hidden * buckets) + 4 * buckets
    }

    /// A network of width `hidden` whose weights are all zero (it evaluates everything
    /// as 0), with the trainer's default scales `QA = 255`, `QB = 64`, `SCALE = 400`.
    pub fn zeroed(hidden: usize) -> Network {
        Network {
            hidden,
            buckets: 1,
            activation: Activation::ClippedRelu,
            output_fits_i16: false,
            qa: QA,
            qb: QB,
            scale: SCALE,
            feature_weights: vec![0; INPUTS * hidden],
            feature_bias: vec![0; hidden],
            output_weights: vec![0; 2 * hidden],
            output_bias: vec![0],
        }
        .checked()
    }

    /// A network of width `hidden` with the trainer's scales ([`QA`], [`QB`], [`SCALE`])
    /// and these quantised weights, laid out as in the file: `feature_weights` input-major
    /// (`INPUTS * hidden`), `feature_bias` (`hidden`), `output_weights` (`2 * hidden`, the
    /// side to move's half first), `output_bias` in units of `QA * QB`.
    ///
    /// # Errors
    /// [`NetworkError::BadHidden`] for a width outside `1..=MAX_HIDDEN`,
    /// [`NetworkError::WrongWeights`] for a vector of the wrong length.
    pub fn from_weights(
        hidden: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Result<Network, NetworkError> {
        Network::from_bucketed_weights(
            hidden,
            1,
            feature_weights,
            feature_bias,
            output_weights,
            vec![output_bias],
        )
    }

    /// As [`Network::from_weights`], with `buckets` output heads: `output_weights` holds
    /// `buckets` heads of `2 * hidden` one after the other, `output_bias` one bias per head
    /// (see [`output_bucket`] for which head a position uses).
    ///
    /// # Errors
    /// As [`Network::from_weights`], and [`NetworkError::BadBuckets`] for a count outside
    /// `1..=MAX_BUCKETS`.
    pub fn from_bucketed_weights(
        hidden: usize,
        buckets: usize,
        feature_weights: Vec<i16>,
        feature_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::BadHidden {
                hidden: u32::try_from(hidden).unwrap_or(u32::MAX),
            });
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetworkError::BadBuckets {
                buckets: u32::try_from(buckets).unwrap_or(u32::MAX),
            });
        }
        for (part, expected, found) in [
            ("feature weights", INPUTS * hidden, feature_weights.len()),
            ("feature biases", hidden, feature_bias.len()),
            ("output weights", 2 * hidden * buckets, output_weights.len()),
            ("output biases", buckets, output_bias.len()),
        ] {
            if expected != found {
                return Err(NetworkError::WrongWeights {
                    part,
                    expected,
                    found,
                });
            }
        }
        Ok(Network {
            hidden,
            buckets,
            activation: Activation::ClippedRelu,
            output_fits_i16: false,
            qa: QA,
            qb: QB,
            scale: SCALE,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        }
        .checked())
    }

    /// The built-in network ([`BUILTIN_NAME`]), parsed once and shared.
    ///
    /// ```
    /// use pychess_core::Board;
    /// use pychess_engine::nnue::Network;
    ///
    /// let net = Network::builtin();
    /// assert_eq!(net.hidden(), 256);
    /// assert!(std::sync::Arc::ptr_eq(&net, &Network::builtin()));
    /// // Black to move a queen up.
    /// let up = Board::from_fen("3qk3/8/8/8/8/8/8/4K3 b - - 0 1", false).unwrap();
    /// assert!(net.evaluate(&up) > 500);
    /// ```
    pub fn builtin() -> Arc<Network> {
        static BUILTIN: OnceLock<Arc<Network>> = OnceLock::new();
        BUILTIN
            .get_or_init(|| {
                // Checked by `the_builtin_network_is_the_named_file` before it ships.
                let net =
                    Network::from_bytes(BUILTIN_BYTES).expect("the built-in network is valid");
                Arc::new(net)
            })
            .clone()
    }

    /// Reads a network file.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| NetworkError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Network::from_bytes(&bytes)
    }

    /// Parses the contents of a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::TooShort {
                len: bytes.len(),
                header: HEADER_LEN,
            });
        }
        if bytes[..4] != MAGIC {
            return Err(NetworkError::BadMagic);
        }
        let version = read_u32(bytes, 4);
        let (activation, buckets, header) = match version {
            3 => {
                if bytes.len() < HEADER_LEN_V3 {
                    return Err(NetworkError::TooShort {
                        len: bytes.len(),
                        header: HEADER_LEN_V3,
                    });
                }
                let code = read_u32(bytes, 24);
                let activation =
                    Activation::from_version(code).ok_or(NetworkError::BadActivation { code })?;
                let buckets = read_u32(bytes, 28);
                if buckets == 0 || buckets as usize > MAX_BUCKETS {
                    return Err(NetworkError::BadBuckets { buckets });
                }
                (activation, buckets as usize, HEADER_LEN_V3)
            }
            _ => {
                let activation = Activation::from_version(version)
                    .ok_or(NetworkError::UnsupportedVersion { version })?;
                (activation, 1, HEADER_LEN)
            }
        };
        let hidden = read_u32(bytes, 8);
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(NetworkError::BadHidden { hidden });
        }
        let mut scales = [0i32; 3];
        for (i, name) in ["QA", "QB", "SCALE"].into_iter().enumerate() {
            let value = read_u32(bytes, 12 + 4 * i);
            if value == 0 || value > 65535 {
                return Err(NetworkError::BadScale { name, value });
            }
            scales[i] = value as i32;
        }
        let hidden = hidden as usize;
        // A version 3 file may hold one head; its header is still the longer one.
        let expected = header + Network::weights_len(hidden, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::WrongLength {
                expected,
                found: bytes.len(),
            });
        }
        let mut at = header;
        let mut take = |count: usize| {
            let values = read_i16s(&bytes[at..at + 2 * count]);
            at += 2 * count;
            values
        };
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden * buckets);
        let output_bias = (0..buckets)
            .map(|b| read_u32(bytes, at + 4 * b) as i32)
            .collect();
        Ok(Network {
            hidden,
            buckets,
            activation,
            output_fits_i16: false,
            qa: scales[0],
            qb: scales[1],
            scale: scales[2],
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        }
        .checked())
    }

    /// The network with [`Network::output_fits_i16`] set from its weights and scale.
    fn checked(mut self) -> Network {
        let fits = |w: &i16| i32::from(*w).abs() * self.qa <= i32::from(i16::MAX);
        self.output_fits_i16 = self.output_weights.iter().all(fits);
        self
    }

    /// The network as a file's contents (the inverse of [`Network::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::file_len(self.hidden, self.buckets));
        out.extend_from_slice(&MAGIC);
        let version = if self.buckets == 1 {
            self.activation.version()
        } else {
            3
        };
        for value in [
            version,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        if self.buckets > 1 {
            for value in [self.activation.version(), self.buckets as u32] {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
        for values in [
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
        ] {
            for v in values.iter() {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for bias in &self.output_bias {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// The quantised weights as [`Network::from_bucketed_weights`] takes them: feature
    /// weights, feature biases, output weights and output biases (the trainer reads them
    /// back to train on from this network).
    pub fn weights(&self) -> (&[i16], &[i16], &[i16], &[i32]) {
        (
            &self.feature_weights,
            &self.feature_bias,
            &self.output_weights,
            &self.output_bias,
        )
    }

    /// The network's shape for messages: `768->256x2->1`, and the heads where there are
    /// several (`768->256x2->1, 8 output buckets`).
    pub fn shape(&self) -> String {
        let layers = format!("{INPUTS}->{}x2->1", self.hidden);
        if self.buckets == 1 {
            layers
        } else {
            format!("{layers}, {} output buckets", self.buckets)
        }
    }

    /// The number of output heads (1 for a version 1 or 2 file).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The file's scales `(QA, QB, SCALE)`.
    pub fn scales(&self) -> (i32, i32, i32) {
        (self.qa, self.qb, self.scale)
    }

    /// The hidden width `N` per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// The same weights with another activation (the trainer's choice; a loaded file's
    /// comes from its version).
    #[must_use]
    pub fn with_activation(mut self, activation: Activation) -> Network {
        self.activation = activation;
        self
    }

    /// The evaluation of `board` in centipawns from the side to move's point of view,
    /// computed from scratch (the search keeps the accumulator incrementally instead).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(&mut acc, board);
        self.output(&acc, board.turn(), board.occupied().count() as usize)
    }

    /// The weight row of input `index`.
    #[inline]
    fn row(&self, index: usize) -> &[i16] {
        &self.feature_weights[index * self.hidden..(index + 1) * self.hidden]
    }

    /// Sets `acc` (White's view, then Black's) to the accumulator of `board`.
    fn refresh(&self, acc: &mut [i16], board: &Board) {
        let (white, black) = acc.split_at_mut(self.hidden);
        let mut inputs = Vec::with_capacity(32);
        for color in Color::ALL {
            for role in Role::ALL {
                for square in board.pieces(color, role) {
                    inputs.push((color, role, square.index()));
                }
            }
        }
        for (perspective, view) in [(Color::White, white), (Color::Black, black)] {
            view.copy_from_slice(&self.feature_bias);
            let rows: Vec<&[i16]> = inputs
                .iter()
                .map(|&(color, role, square)| {
                    self.row(feature_index(perspective, color, role, square))
                })
                .collect();
            simd::apply(view, None, &rows, &[]);
        }
    }

    /// Sets one perspective's accumulator `view` to `source` (its parent's) plus the rows
    /// of the inputs `added` minus those of `removed`: one pass for a move (at most two of
    /// each), a pass per few rows beyond.
    fn apply_changes(
        &self,
        view: &mut [i16],
        source: &[i16],
        perspective: Color,
        added: &[Input],
        removed: &[Input],
    ) {
        let rows = |inputs: &[Input]| {
            let mut rows: [&[i16]; BATCH] = [&[]; BATCH];
            for (row, &(color, role, square)) in rows.iter_mut().zip(inputs) {
                *row = self.row(feature_index(perspective, color, role, square));
            }
            rows
        };
        let (first_on, more_on) = added.split_at(added.len().min(BATCH));
        let (first_off, more_off) = removed.split_at(removed.len().min(BATCH));
        let (plus, minus) = (rows(first_on), rows(first_off));
        simd::apply(
            view,
            Some(source),
            &plus[..first_on.len()],
            &minus[..first_off.len()],
        );
        for chunk in more_on.chunks(BATCH) {
            simd::apply(view, None, &rows(chunk)[..chunk.len()], &[]);
        }
        for chunk in more_off.chunks(BATCH) {
            simd::apply(view, None, &[], &rows(chunk)[..chunk.len()]);
        }
    }

    /// The output neuron on accumulator `acc` with `turn` to move and `pieces` pieces on
    /// the board (which choose the head).
    fn output(&self, acc: &[i16], turn: Color, pieces: usize) -> i32 {
        let (white, black) = acc.split_at(self.hidden);
        let (us, them) = match turn {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let bucket = output_bucket(pieces, self.buckets);
        let head = &self.output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let (out_us, out_them) = head.split_at(self.hidden);
        let qa = self.qa.min(i32::from(i16::MAX)) as i16;
        let sum = match self.activation {
            Activation::ClippedRelu => {
                simd::crelu_dot(us, out_us, qa) + simd::crelu_dot(them, out_them, qa)
            }
            Activation::SquaredClippedRelu => {
                let dot = if self.output_fits_i16 {
                    simd::screlu_dot
                } else {
                    simd::screlu_dot_exact
                };
                (dot(us, out_us, qa) + dot(them, out_them, qa)) / i64::from(self.qa)
            }
        };
        let value = (sum + i64::from(self.output_bias[bucket])) * i64::from(self.scale)
            / (i64::from(self.qa) * i64::from(self.qb));
        value.clamp(-30_000, 30_000) as i32
    }
}

/// An input: a piece's colour and role, and its square.
type Input = (Color, Role, usize);

/// How many weight rows a kernel call adds (and subtracts) at most in an update.
const BATCH: usize = 4;

/// How many inputs an update turns on (and off) at most; a position further from its
/// parent's than that is computed afresh.
const CHANGES: usize = 8;

/// The accumulators along the search path: one per ply, each with the pieces of the
/// position it was computed for, so that a node's accumulator is its parent's updated by
/// the difference of the two positions' piece sets (a move, a capture, castling, en
/// passant or a promotion alike; nothing for a null move).
pub(crate) struct AccumulatorStack<'a> {
    net: &'a Network,
    values: Vec<i16>,
    pieces: Vec<[Bitboard; 12]>,
}

impl<'a> AccumulatorStack<'a> {
    /// Room for `plies` plies.
    pub fn new(net: &'a Network, plies: usize) -> AccumulatorStack<'a> {
        AccumulatorStack {
            net,
            values: vec![0; plies * 2 * net.hidden],
            pieces: vec![[Bitboard(0); 12]; plies],
        }
    }

    #[inline]
    fn slot(&mut self, ply: usize) -> &mut [i16] {
        let width = 2 * self.net.hidden;
        &mut self.values[ply * width..(ply + 1) * width]
    }

    /// Computes the accumulator of `board` at `ply` from scratch.
    pub fn refresh(&mut self, ply: usize, board: &Board) {
        let net = self.net;
        net.refresh(self.slot(ply), board);
        self.pieces[ply] = piece_sets(board);
    }

    /// Computes the accumulator of `board` at `ply > 0` from the one at `ply - 1`.
    pub fn update(&mut self, ply: usize, board: &Board) {
        let net = self.net;
        let n = net.hidden;
        let width = 2 * n;
        let (before, after) = self.values.split_at_mut(ply * width);
        let child = &mut after[..width];
        let parent_values = &before[(ply - 1) * width..];
        let now = piece_sets(board);
        let parent = self.pieces[ply - 1];
        self.pieces[ply] = now;
        // The inputs that changed: for a move at most two off and two on (castling). A
        // larger difference (not a move's) is computed afresh.
        let mut added: [Input; CHANGES] = [(Color::White, Role::Pawn, 0); CHANGES];
        let mut removed = added;
        let (mut on, mut off) = (0, 0);
        let small = 'diff: {
            for color in Color::ALL {
                for role in Role::ALL {
                    let i = color.index() * 6 + role.index();
                    let (old, new) = (parent[i].0, now[i].0);
                    for square in Bitboard(old & !new) {
                        if off == CHANGES {
                            break 'diff false;
                        }
                        removed[off] = (color, role, square.index());
                        off += 1;
                    }
                    for square in Bitboard(new & !old) {
                        if on == CHANGES {
                            break 'diff false;
                        }
                        added[on] = (color, role, square.index());
                        on += 1;
                    }
                }
            }
            true
        };
        if !small {
            net.refresh(child, board);
            return;
        }
        let (white, black) = child.split_at_mut(n);
        let (white_source, black_source) = parent_values.split_at(n);
        let (added, removed) = (&added[..on], &removed[..off]);
        net.apply_changes(white, white_source, Color::White, added, removed);
        net.apply_changes(black, black_source, Color::Black, added, removed);
    }

    /// The evaluation at `ply` with `turn` to move.
    #[inline]
    pub fn evaluate(&self, ply: usize, turn: Color) -> i32 {
        let width = 2 * self.net.hidden;
        let pieces = if self.net.buckets == 1 {
            0
        } else {
            self.pieces[ply]
                .iter()
                .map(|set| set.count() as usize)
                .sum()
        };
        self.net
            .output(&self.values[ply * width..(ply + 1) * width], turn, pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_core::Move;

    /// A small deterministic generator (SplitMix64).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn small(&mut self, bound: i64) -> i16 {
            ((self.next() % (2 * bound as u64 + 1)) as i64 - bound) as i16
        }
    }

    fn random_network(hidden: usize, seed: u64) -> Network {
        let mut rng = Rng(seed);
        let mut net = Network::zeroed(hidden);
        net.feature_weights
            .iter_mut()
            .for_each(|w| *w = rng.small(60));
        net.feature_bias
            .iter_mut()
            .for_each(|w| *w = rng.small(100));
        net.output_weights
            .iter_mut()
            .for_each(|w| *w = rng.small(100));
        net.output_bias = vec![1234];
        net
    }

    /// `random_network` with `buckets` heads, each of its own random weights and bias.
    fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = Rng(seed ^ 0x55);
        let net = random_network(hidden, seed);
        Network::from_bucketed_weights(
            hidden,
            buckets,
            net.feature_weights,
            net.feature_bias,
            (0..2 * hidden * buckets).map(|_| rng.small(100)).collect(),
            (0..buckets).map(|_| i32::from(rng.small(3000))).collect(),
        )
        .unwrap()
    }

    #[test]
    fn the_search_plays_legal_moves_on_a_network_and_its_scores_differ() {
        use crate::{Engine, EngineOptions, Limits, Score, SearchControl};
        use std::sync::Arc;
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut scores = Vec::new();
        for (network, threads) in [(false, 1), (true, 1), (true, 2)] {
            let mut engine = Engine::new(EngineOptions {
                threads,
                ..EngineOptions::default()
            });
            if network {
                engine.set_network(Some(Arc::new(random_network(32, 9))));
            }
            let result = engine.search(
                &board,
                &[],
                &limits,
                &SearchControl::new(false),
                &mut |_| {},
            );
            let best = result.best.expect("a move");
            assert!(board.legal_moves().contains(&best));
            scores.push(result.lines[0].score);
        }
        assert!(matches!(scores[1], Score::Cp(_)));
        assert_ne!(
            scores[0], scores[1],
            "the network's score equals the hand-written one"
        );
    }

    #[test]
    fn the_file_round_trips_and_bad_files_are_refused() {
        let net = random_network(16, 1);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_len(16, 1));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetworkError::BadMagic));
        let mut bad = bytes.clone();
        bad[4] = 4;
        assert_eq!(
            Network::from_bytes(&bad),
            Err(NetworkError::UnsupportedVersion { version: 4 })
        );
        // Version 2: the same weights, the squared clipped ReLU.
        let squared = net.clone().with_activation(Activation::SquaredClippedRelu);
        let bytes = squared.to_bytes();
        assert_eq!(read_u32(&bytes, 4), 2);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), squared);
        assert_ne!(squared, net);
        let bytes = net.to_bytes();
        let mut bad = bytes.clone();
        bad[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bad),
            Err(NetworkError::BadHidden { hidden: 0 })
        );
        let mut bad = bytes.clone();
        bad[12..16].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bad),
            Err(NetworkError::BadScale {
                name: "QA",
                value: 0
            })
        );
        let truncated = &bytes[..bytes.len() - 1];
        let error = Network::from_bytes(truncated).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "network file is {} bytes, its header says {}",
                bytes.len() - 1,
                bytes.len()
            )
        );
        let error = Network::load("/nonexistent/net.nnue").unwrap_err();
        assert!(error.to_string().starts_with("cannot read network file"));
    }

    #[test]
    fn from_weights_builds_the_network_the_file_describes_and_checks_lengths() {
        let net = random_network(16, 3);
        let built = Network::from_weights(
            16,
            net.feature_weights.clone(),
            net.feature_bias.clone(),
            net.output_weights.clone(),
            net.output_bias[0],
        )
        .unwrap();
        assert_eq!(built, net);
        assert_eq!(Network::from_bytes(&built.to_bytes()).unwrap(), net);
        let short = Network::from_weights(16, vec![0; 10], vec![0; 16], vec![0; 32], 0);
        assert_eq!(
            short.unwrap_err().to_string(),
            "10 feature weights given, a network of this width has 12288"
        );
        assert!(matches!(
            Network::from_weights(0, vec![], vec![], vec![], 0),
            Err(NetworkError::BadHidden { hidden: 0 })
        ));
    }

    /// Version 3: several heads round-trip through the file; each field is checked; a
    /// position is scored by the head its piece count names.
    #[test]
    fn bucketed_networks_round_trip_and_use_the_head_of_their_piece_count() {
        assert_eq!(
            (2..=32)
                .map(|pieces| output_bucket(pieces, 8))
                .collect::<Vec<_>>(),
            [
                0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6,
                7, 7, 7
            ]
        );
        assert_eq!(output_bucket(40, 8), 7);
        assert!((2..=32).all(|pieces| output_bucket(pieces, 1) == 0));
        let net = random_bucketed_network(16, 8, 4).with_activation(Activation::SquaredClippedRelu);
        assert_eq!(net.shape(), "768->16x2->1, 8 output buckets");
        assert_eq!(random_network(16, 4).shape(), "768->16x2->1");
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), Network::file_len(16, 8));
        assert_eq!((read_u32(&bytes, 4), read_u32(&bytes, 24)), (3, 2));
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        for (at, value, error) in [
            (24, 7, NetworkError::BadActivation { code: 7 }),
            (28, 0, NetworkError::BadBuckets { buckets: 0 }),
            (28, 17, NetworkError::BadBuckets { buckets: 17 }),
        ] {
            let mut bad = bytes.clone();
            bad[at..at + 4].copy_from_slice(&u32::to_le_bytes(value));
            assert_eq!(Network::from_bytes(&bad), Err(error));
        }
        assert!(matches!(
            Network::from_bytes(&bytes[..28]),
            Err(NetworkError::TooShort {
                len: 28,
                header: HEADER_LEN_V3
            })
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetworkError::WrongLength { .. })
        ));
        // Zero feature weights: the evaluation is the chosen head's bias alone.
        let mut heads = Network::zeroed(4);
        heads.buckets = 8;
        heads.output_weights = vec![0; 64];
        heads.output_bias = (0..8).map(|b| 100 * b * QA * QB / SCALE).collect();
        for (fen, bucket) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                7,
            ),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 2),
        ] {
            let board = Board::from_fen(fen, false).unwrap();
            assert_eq!(heads.evaluate(&board), 100 * bucket, "{fen}");
        }
        assert!(matches!(
            Network::from_bucketed_weights(1, 17, vec![0; 768], vec![0], vec![0; 34], vec![0; 17]),
            Err(NetworkError::BadBuckets { buckets: 17 })
        ));
        let short =
            Network::from_bucketed_weights(1, 2, vec![0; 768], vec![0], vec![0; 4], vec![0]);
        assert_eq!(
            short.unwrap_err().to_string(),
            "1 output biases given, a network of this width has 2"
        );
    }

    /// The squared clipped ReLU as the module documentation writes it, on a one-wide network
    /// whose accumulator is the bias plus the pieces' weights: each side's value clipped to
    /// `0..=QA`, squared, weighed, the sum divided by `QA`.
    #[test]
    fn the_squared_clipped_relu_evaluates_as_documented() {
        let pawns = |own: i16, enemy: i16| {
            let mut net = Network::zeroed(1).with_activation(Activation::SquaredClippedRelu);
            net.feature_bias[0] = 30;
            for square in 0..64 {
                net.feature_weights
                    [feature_index(Color::White, Color::White, Role::Pawn, square)] = own;
                net.feature_weights
                    [feature_index(Color::White, Color::Black, Role::Pawn, square)] = enemy;
            }
            net.output_weights = vec![64, -32];
            net.output_bias = vec![5 * QA * QB];
            net
        };
        // Two white pawns, three black ones, White to move.
        let board = Board::from_fen("4k3/ppp5/8/8/8/8/PP6/4K3 w - - 0 1", false).unwrap();
        // White's view 30 + 2 * 50 + 3 * 20 = 190, Black's 30 + 3 * 50 + 2 * 20 = 220.
        let net = pawns(50, 20);
        let bias = i64::from(5 * QA * QB);
        let sum = 190 * 190 * 64 + 220 * 220 * -32;
        assert_eq!(
            i64::from(net.evaluate(&board)),
            (sum / 255 + bias) * 400 / (255 * 64)
        );
        // Output weights too large for the fast kernel (300 * QA overflows i16): the exact one.
        let large = Network::from_weights(
            1,
            net.feature_weights.clone(),
            net.feature_bias.clone(),
            vec![300, -150],
            net.output_bias[0],
        )
        .unwrap()
        .with_activation(Activation::SquaredClippedRelu);
        assert!(!large.output_fits_i16 && net.output_fits_i16);
        let sum = 190 * 190 * 300 + 220 * 220 * -150;
        assert_eq!(
            i64::from(large.evaluate(&board)),
            (sum / 255 + bias) * 400 / (255 * 64)
        );
        let crelu = net.with_activation(Activation::ClippedRelu);
        assert_eq!(
            i64::from(crelu.evaluate(&board)),
            (190 * 64 + 220 * -32 + bias) * 400 / (255 * 64)
        );
        // Both views clipped at QA: the square of 1.0 is 1.0, the two activations agree.
        let net = pawns(50, 200);
        let crelu = net.clone().with_activation(Activation::ClippedRelu);
        assert_eq!(net.evaluate(&board), crelu.evaluate(&board));
        assert_eq!(
            i64::from(net.evaluate(&board)),
            (255 * 64 + 255 * -32 + bias) * 400 / (255 * 64)
        );
    }

    /// The networks kept in `rust/engine/nets/` load, and judge material as a network
    /// trained on Stockfish's scores must: the start position near level, a queen up far
    /// ahead from either side's point of view.
    #[test]
    fn the_repository_nets_load_and_see_material() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
        let mut checked = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("nnue") {
                continue;
            }
            let net = Network::load(&path).unwrap();
            let eval = |fen: &str| net.evaluate(&Board::from_fen(fen, false).unwrap());
            let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
            assert!(
                start.abs() < 100,
                "{}: start position {start}",
                path.display()
            );
            let queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
            let white = eval(&format!("{queen_up} w KQkq - 0 1"));
            let black = eval(&format!("{queen_up} b KQkq - 0 1"));
            assert!(
                white > 500 && black < -500,
                "{}: {white} {black}",
                path.display()
            );
            checked += 1;
        }
        assert!(checked > 0, "no networks in {}", dir.display());
    }

    /// The bytes compiled in are `nets/<BUILTIN_NAME>.nnue` (which the test above loads).
    #[test]
    fn the_builtin_network_is_the_named_file() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("nets")
            .join(format!("{BUILTIN_NAME}.nnue"));
        assert_eq!(*Network::builtin(), Network::load(path).unwrap());
    }

    #[test]
    fn the_evaluation_is_symmetric_under_colour_flip() {
        let net = random_network(32, 7);
        let board = Board::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        )
        .unwrap();
        let flipped = Board::from_fen(
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
            false,
        )
        .unwrap();
        assert_eq!(net.evaluate(&board), net.evaluate(&flipped));
        assert_ne!(net.evaluate(&board), 0);
        let squared = net.with_activation(Activation::SquaredClippedRelu);
        assert_eq!(squared.evaluate(&board), squared.evaluate(&flipped));
    }

    /// `update` between positions no move joins, with as many changed inputs as it takes
    /// incrementally (eight off or on) and one more (then it computes afresh): each equals
    /// a refresh.
    #[test]
    fn an_update_across_more_than_a_move_equals_a_refresh() {
        let net = random_network(24, 7);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let eight_off = "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1";
        let nine_off = "rnbqkbnr/pppppppp/8/8/8/8/8/R1BQKBNR w KQkq - 0 1";
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let bare = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let mut stack = AccumulatorStack::new(&net, 2);
        let mut reference = AccumulatorStack::new(&net, 1);
        let width = 2 * net.hidden;
        for (from, to) in [
            (start, eight_off),
            (eight_off, start),
            (start, nine_off),
            (nine_off, start),
            (start, kiwipete),
            (kiwipete, bare),
        ] {
            let to_board = Board::from_fen(to, false).unwrap();
            stack.refresh(0, &Board::from_fen(from, false).unwrap());
            stack.update(1, &to_board);
            reference.refresh(0, &to_board);
            assert_eq!(
                &stack.values[width..2 * width],
                &reference.values[..],
                "{from} -> {to}"
            );
            assert_eq!(stack.evaluate(1, to_board.turn()), net.evaluate(&to_board));
        }
    }

    #[test]
    fn the_incremental_accumulator_equals_a_refresh_after_random_moves() {
        // Eight heads: the stack's piece count must choose the head a fresh board's does.
        let net = random_bucketed_network(24, 8, 42);
        let starts = [
            // Castling both ways for both sides, en passant soon.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // Promotions (with and without capture) for both sides.
            "1r2k3/P1P5/8/8/8/8/p1p4P/1R2K3 w - - 0 1",
            // An en-passant capture available at once.
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut rng = Rng(2026);
        let (mut castles, mut en_passants, mut promotions) = (0, 0, 0);
        let mut stack = AccumulatorStack::new(&net, 64);
        let mut reference = AccumulatorStack::new(&net, 1);
        for fen in starts {
            for _ in 0..40 {
                let mut board = Board::from_fen(fen, false).unwrap();
                stack.refresh(0, &board);
                for ply in 1..60 {
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Prefer the special moves so that each sequence has some.
                    let special: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| m.is_castle() || m.is_en_passant() || m.promotion().is_some())
                        .collect();
                    let m = if !special.is_empty() && rng.next() % 2 == 0 {
                        special[(rng.next() % special.len() as u64) as usize]
                    } else {
                        moves[(rng.next() % moves.len() as u64) as usize]
                    };
                    castles += usize::from(m.is_castle());
                    en_passants += usize::from(m.is_en_passant());
                    promotions += usize::from(m.promotion().is_some());
                    board = board.after(m);
                    stack.update(ply, &board);
                    reference.refresh(0, &board);
                    let width = 2 * net.hidden;
                    assert_eq!(
                        &stack.values[ply * width..(ply + 1) * width],
                        &reference.values[..],
                        "after {m:?} at ply {ply} from {fen}: {}",
                        board.fen()
                    );
                    assert_eq!(stack.evaluate(ply, board.turn()), net.evaluate(&board));
                }
            }
        }
        assert!(castles > 10, "{castles} castling moves");
        assert!(en_passants > 10, "{en_passants} en-passant captures");
        assert!(promotions > 10, "{promotions} promotions");
    }
}
