//! Light game records for bulk reading: tags, mainline moves, result and errors, without a
//! node tree. Variations are still read (python-chess records their errors too) but not kept.

use crate::parser::{PgnError, Visitor};
use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{Board, Move};

/// A game's tag pairs in file order (a repeated tag keeps its first place and its last
/// value), held in one string: a game has a dozen tags, and two allocations each were a
/// tenth of the bulk reader's time.
#[derive(Clone, Debug, Default)]
pub struct Tags {
    text: String,
    /// Each tag's name and value as byte ranges of `text`.
    spans: Vec<[u32; 4]>,
}

impl Tags {
    /// The tags, in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.spans
            .iter()
            .map(|&[a, b, c, d]| (self.slice(a, b), self.slice(c, d)))
    }

    fn slice(&self, start: u32, end: u32) -> &str {
        &self.text[start as usize..end as usize]
    }

    /// The value of the tag `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.spans
            .iter()
            .find(|&&[a, b, _, _]| self.slice(a, b) == name)
            .map(|&[_, _, c, d]| self.slice(c, d))
    }

    /// How many tags.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Appends UTF-8 (invalid bytes replaced); returns its range.
    fn push(&mut self, bytes: &[u8]) -> (u32, u32) {
        let start = self.text.len();
        self.text.push_str(&String::from_utf8_lossy(bytes));
        // Offsets past 4 GiB cannot occur: a tag is one line of one game.
        (start as u32, self.text.len() as u32)
    }

    /// Sets the tag `name` to `value` (raw bytes, decoded as UTF-8 with replacement).
    pub fn set(&mut self, name: &[u8], value: &[u8]) {
        let name = String::from_utf8_lossy(name);
        let (c, d) = self.push(value);
        let found = self
            .spans
            .iter()
            .position(|&[a, b, _, _]| self.slice(a, b) == name);
        match found {
            Some(i) => {
                self.spans[i][2] = c;
                self.spans[i][3] = d;
            }
            None => {
                let (a, b) = self.push(name.as_bytes());
                self.spans.push([a, b, c, d]);
            }
        }
    }
}

/// One game as the bulk reader returns it.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// Byte offset of the game's first line in the (decompressed) input.
    pub offset: u64,
    /// Tag pairs in file order; a repeated tag keeps its first place and its last value.
    pub headers: Tags,
    /// The starting position (the `FEN` tag's, or the standard one); for a variant game its
    /// board as chess sees it (see [`GameRecord::variant_start`]).
    pub start: Board,
    /// A variant game's starting position (`[Variant "Atomic"]`...), whose rules its moves
    /// were read with; `None` for chess and Chess960.
    pub variant_start: Option<VariantBoard>,
    /// Mainline moves (`Move::NULL` for `--`).
    pub moves: Vec<Move>,
    /// The game termination marker of the movetext, if any.
    pub result_token: Option<String>,
    /// Errors, in the order met.
    pub errors: Vec<PgnError>,
    /// FEN after each mainline ply, index 0 being the start, when asked for.
    pub fens: Option<Vec<String>>,
}

impl GameRecord {
    /// The tag `name`, if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)
    }

    /// The result as python-chess's `game.headers["Result"]` has it: the tag unless it is
    /// missing or `*`, then the movetext's marker, else `*`.
    pub fn result(&self) -> &str {
        match self.header("Result") {
            Some(tag) if tag != "*" => tag,
            _ => self.result_token.as_deref().unwrap_or("*"),
        }
    }

    /// The variant the game is played in (`None`: chess, Chess960 included).
    pub fn variant(&self) -> Option<Variant> {
        self.variant_start.as_ref().map(VariantBoard::variant)
    }

    /// The positions of a variant game after each ply, the start included.
    fn variant_boards(&self, start: &VariantBoard) -> Vec<VariantBoard> {
        let mut board = start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(board.clone());
        for &m in &self.moves {
            board.play_unchecked(m);
            out.push(board.clone());
        }
        out
    }

    /// The positions after each ply, the start included (a variant game's as chess boards).
    pub fn boards(&self) -> Vec<Board> {
        if let Some(start) = &self.variant_start {
            return self
                .variant_boards(start)
                .into_iter()
                .map(VariantBoard::into_board)
                .collect();
        }
        let mut board = self.start.clone();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(board.clone());
        for &m in &self.moves {
            board.play_unchecked(m);
            out.push(board.clone());
        }
        out
    }

    /// The mainline in SAN (python-chess's spelling, `--` for a null move).
    pub fn sans(&self) -> Vec<String> {
        if let Some(start) = &self.variant_start {
            let mut board = start.clone();
            return self
                .moves
                .iter()
                .map(|&m| {
                    let san = board.san(m);
                    board.play_unchecked(m);
                    san
                })
                .collect();
        }
        let mut board = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let san = board.san(m);
                board.play_unchecked(m);
                san
            })
            .collect()
    }

    /// The mainline in UCI (`0000` for a null move; castling as the king's move unless the
    /// game is Chess960).
    pub fn ucis(&self) -> Vec<String> {
        self.moves
            .iter()
            .map(|&m| {
                if m.is_null() {
                    "0000".to_string()
                } else {
                    self.start.uci(m).to_string()
                }
            })
            .collect()
    }

    /// The FEN after each mainline ply, the start first (a variant game's with the variant's
    /// fields), computed now.
    pub fn fen_list(&self) -> Vec<String> {
        match &self.variant_start {
            Some(start) => self
                .variant_boards(start)
                .iter()
                .map(VariantBoard::fen)
                .collect(),
            None => self.boards().iter().map(Board::fen).collect(),
        }
    }

    /// Fills [`GameRecord::fens`].
    pub fn compute_fens(&mut self) {
        self.fens = Some(self.fen_list());
    }
}

/// A comparison in a [`Condition`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Equal (numbers compare as numbers).
    Eq,
    /// Not equal (a missing tag passes).
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
    /// The tag contains the text.
    Contains,
}

/// One header test: `tag op value`. Both sides numeric compare as numbers, else as text; a
/// missing tag, or a non-number compared with a number, fails every test but `Ne`.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// The tag name.
    pub tag: String,
    /// The comparison.
    pub op: Op,
    /// The value compared with.
    pub value: String,
}

impl Condition {
    fn test(&self, found: Option<&str>) -> bool {
        let Some(found) = found else {
            return self.op == Op::Ne;
        };
        if self.op == Op::Contains {
            return found.contains(&self.value);
        }
        let ordering = match (
            found.trim().parse::<f64>(),
            self.value.trim().parse::<f64>(),
        ) {
            (Ok(a), Ok(b)) => a.partial_cmp(&b),
            // A number asked for and none given (`WhiteElo "?"`): unknown, no order.
            (Err(_), Ok(_)) => None,
            _ => Some(found.cmp(self.value.as_str())),
        };
        let Some(ordering) = ordering else {
            return self.op == Op::Ne;
        };
        use std::cmp::Ordering::*;
        match self.op {
            Op::Eq => ordering == Equal,
            Op::Ne => ordering != Equal,
            Op::Lt => ordering == Less,
            Op::Le => ordering != Greater,
            Op::Gt => ordering == Greater,
            Op::Ge => ordering != Less,
            Op::Contains => unreachable!("handled above"),
        }
    }
}

/// A time-control class, python-chess's `TimeControlType` (FIDE's limits plus bullet).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeClass {
    /// No `TimeControl` tag, or `?`.
    Unknown,
    /// `-`: no limit.
    Unlimited,
    /// Base + 60 x increment below 3 minutes.
    Bullet,
    /// Below 15 minutes.
    Blitz,
    /// Below 60 minutes.
    Rapid,
    /// 60 minutes or more.
    Standard,
}

impl TimeClass {
    /// Parses a class name (`bullet`, `blitz`, `rapid`, `standard` or `classical`,
    /// `unlimited`, `unknown`).
    pub fn parse(name: &str) -> Option<TimeClass> {
        Some(match name.to_ascii_lowercase().as_str() {
            "unknown" => TimeClass::Unknown,
            "unlimited" => TimeClass::Unlimited,
            "bullet" => TimeClass::Bullet,
            "blitz" => TimeClass::Blitz,
            "rapid" => TimeClass::Rapid,
            "standard" | "classical" => TimeClass::Standard,
            _ => return None,
        })
    }

    /// The class of a `TimeControl` tag (python-chess's `parse_time_control`); `None` for a
    /// tag it would reject.
    pub fn of_tag(tag: Option<&str>) -> Option<TimeClass> {
        let tag = match tag {
            None | Some("") => return Some(TimeClass::Unknown),
            Some(t) if t.starts_with('?') => return Some(TimeClass::Unknown),
            Some(t) if t.starts_with('-') => return Some(TimeClass::Unlimited),
            Some(t) => t,
        };
        let first = tag.split(':').next()?;
        let (moves_time, bonus) = match first.split_once('+') {
            Some((a, b)) => (a, Some(b)),
            None => (first, None),
        };
        let increment = match bonus {
            Some(b) if b.to_ascii_lowercase().ends_with('d') => 0.0,
            Some(b) => b.trim().parse::<f64>().ok()?,
            None => 0.0,
        };
        let base = match moves_time.split_once('/') {
            Some((_, time)) => time.split('/').next()?.trim().parse::<i64>().ok()?,
            None => moves_time.trim().parse::<i64>().ok()?,
        };
        let total = base as f64 + 60.0 * increment;
        Some(if total < 180.0 {
            TimeClass::Bullet
        } else if total < 900.0 {
            TimeClass::Blitz
        } else if total < 3600.0 {
            TimeClass::Rapid
        } else {
            TimeClass::Standard
        })
    }
}

/// Which games to keep, decided from the tags alone, before any move is read.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Every condition must hold.
    pub conditions: Vec<Condition>,
    /// If not empty, the game's time-control class must be one of these.
    pub time_classes: Vec<TimeClass>,
}

impl Filter {
    /// Whether a game with these tags passes.
    pub fn accepts(&self, headers: &Tags) -> bool {
        let get = |name: &str| headers.get(name);
        if !self.time_classes.is_empty() {
            match TimeClass::of_tag(get("TimeControl")) {
                Some(class) if self.time_classes.contains(&class) => {}
                _ => return false,
            }
        }
        self.conditions.iter().all(|c| c.test(get(&c.tag)))
    }

    /// True when the filter keeps every game.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty() && self.time_classes.is_empty()
    }
}

/// The visitor that fills a [`GameRecord`].
pub struct RecordBuilder<'f> {
    filter: &'f Filter,
    /// The record being built.
    pub record: GameRecord,
    /// Set when the filter refused the game.
    pub rejected: bool,
    depth: usize,
    started: bool,
}

impl<'f> RecordBuilder<'f> {
    /// A builder applying `filter`.
    pub fn new(filter: &'f Filter) -> RecordBuilder<'f> {
        // Room for a typical game's tags and moves: one allocation each, not a regrowth
        // per few tags or moves.
        let record = GameRecord {
            headers: Tags {
                text: String::with_capacity(512),
                spans: Vec::with_capacity(16),
            },
            moves: Vec::with_capacity(160),
            start: crate::parser::standard_start(),
            offset: 0,
            result_token: None,
            errors: Vec::new(),
            fens: None,
            variant_start: None,
        };
        RecordBuilder {
            filter,
            record,
            rejected: false,
            depth: 0,
            started: false,
        }
    }
}

impl Visitor for RecordBuilder<'_> {
    fn visit_header(&mut self, name: &[u8], value: &[u8]) {
        self.record.headers.set(name, value);
    }

    fn end_headers(&mut self) -> bool {
        self.rejected = !self.filter.accepts(&self.record.headers);
        self.rejected
    }

    fn visit_board(&mut self, board: &Board) {
        if !self.started {
            self.started = true;
            self.record.start = board.clone();
        }
    }

    fn visit_variant_board(&mut self, board: &VariantBoard) {
        if !self.started {
            self.started = true;
            self.record.start = board.board().clone();
            self.record.variant_start = Some(board.clone());
        }
    }

    fn visit_move(&mut self, _board: &Board, m: Move) {
        if self.depth == 0 {
            self.record.moves.push(m);
        }
    }

    fn begin_variation(&mut self) -> bool {
        self.depth += 1;
        false
    }

    fn end_variation(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn visit_result(&mut self, result: &[u8]) {
        // Like python-chess's `visit_result`: a later marker replaces only `*`.
        if matches!(self.record.result_token.as_deref(), None | Some("*")) {
            self.record.result_token = Some(String::from_utf8_lossy(result).into_owned());
        }
    }

    fn handle_error(&mut self, error: PgnError) {
        self.record.errors.push(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_keep_their_first_place_and_last_value() {
        let mut tags = Tags::default();
        assert!(tags.is_empty());
        tags.set(b"White", b"A");
        tags.set(b"Black", b"B\xff");
        tags.set(b"White", b"C");
        assert_eq!(tags.len(), 2);
        assert_eq!(
            tags.iter().collect::<Vec<_>>(),
            [("White", "C"), ("Black", "B\u{fffd}")]
        );
        assert_eq!(tags.get("Black"), Some("B\u{fffd}"));
        assert_eq!(tags.get("Event"), None);
    }

    #[test]
    fn time_classes_follow_python_chess() {
        let class = |t| TimeClass::of_tag(Some(t));
        assert_eq!(class("60+0"), Some(TimeClass::Bullet));
        assert_eq!(class("180+2"), Some(TimeClass::Blitz));
        assert_eq!(class("600+5"), Some(TimeClass::Rapid));
        assert_eq!(class("40/7200:3600"), Some(TimeClass::Standard));
        assert_eq!(class("-"), Some(TimeClass::Unlimited));
        assert_eq!(class("?"), Some(TimeClass::Unknown));
        assert_eq!(TimeClass::of_tag(None), Some(TimeClass::Unknown));
        assert_eq!(class("abc"), None);
    }

    #[test]
    fn conditions_compare_numbers_as_numbers() {
        let c = |op, value: &str| Condition {
            tag: "WhiteElo".into(),
            op,
            value: value.into(),
        };
        assert!(c(Op::Ge, "2000").test(Some("2100")));
        assert!(!c(Op::Ge, "2000").test(Some("999")));
        assert!(!c(Op::Ge, "2000").test(None));
        assert!(c(Op::Ne, "2000").test(None));
        assert!(c(Op::Contains, "10").test(Some("2100")));
        assert!(c(Op::Lt, "b").test(Some("a")));
        assert!(!c(Op::Ge, "2000").test(Some("?")));
        assert!(!c(Op::Lt, "2000").test(Some("?")));
        assert!(c(Op::Ne, "2000").test(Some("?")));
    }
}
