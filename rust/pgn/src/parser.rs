//! `read_game` with python-chess 1.11.2's semantics, driving a [`Visitor`]: the same lines
//! skipped, the same tags accepted, the same tokens, the same recovery after a bad move (the
//! rest of that variation is skipped) and the same end of game (a blank line outside a
//! comment, or the end of the input).

use crate::lines::{is_ascii_py_space, is_py_space, Line, Lines};
use crate::tokens::{next_token, TokenKind};
use pychess_core::variant::{Variant, VariantBoard};
use pychess_core::{Board, Move, MoveError, San};

/// What kind of problem a game had; the Python layer maps these to exception classes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A token that is not a move at all (`InvalidMoveError`).
    InvalidMove,
    /// A move that is not legal in its position (`IllegalMoveError`).
    IllegalMove,
    /// A SAN that fits several legal moves (`AmbiguousMoveError`).
    AmbiguousMove,
    /// A `FEN` tag that is not a valid position (`ValueError`).
    Fen,
    /// A `Variant` tag naming an unknown variant (`ValueError`; the game is read as chess).
    UnknownVariant,
    /// A `Variant` tag naming a variant this reader does not play (its movetext is skipped;
    /// every variant of python-chess is played now, so only a caller's own checks report it).
    UnsupportedVariant,
}

/// An error recorded while reading a game (python-chess's `game.errors`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The kind.
    pub kind: ErrorKind,
    /// The message, python-chess's wording where it has one.
    pub message: String,
}

/// Receives the events of one game, like python-chess's `BaseVisitor`. Methods that return
/// `bool` answer "skip?" (python-chess's `SKIP`).
pub trait Visitor {
    /// The first line of a game was found; `true` skips the whole game.
    fn begin_game(&mut self) -> bool {
        false
    }
    /// The tags start (right after `begin_game`, unless the game is skipped).
    fn begin_headers(&mut self) {}
    /// A tag pair (raw bytes, no unescaping, as python-chess).
    fn visit_header(&mut self, _name: &[u8], _value: &[u8]) {}
    /// All tags read; `true` skips the movetext.
    fn end_headers(&mut self) -> bool {
        false
    }
    /// The starting position, and the position after each move token.
    fn visit_board(&mut self, _board: &Board) {}
    /// Before a move token is resolved; `true` skips it.
    fn begin_parse_san(&mut self, _board: &Board, _san: &[u8]) -> bool {
        false
    }
    /// Resolves a move token in `board` (not skipped by `begin_parse_san`): the core's SAN
    /// reader unless overridden; an error is handed to `handle_error` and skips the rest of
    /// the variation.
    fn parse_san(&mut self, board: &Board, san: &[u8]) -> Result<Move, PgnError> {
        resolve(board, san)
    }
    /// The starting position of a variant game (`[Variant "Atomic"]`...), and the position
    /// after each of its move tokens, in place of `visit_board` (which it calls unless
    /// overridden).
    fn visit_variant_board(&mut self, board: &VariantBoard) {
        self.visit_board(board.board());
    }
    /// Resolves a move token of a variant game, in place of `parse_san`: the variant's SAN
    /// reader unless overridden.
    fn parse_variant_san(&mut self, board: &VariantBoard, san: &[u8]) -> Result<Move, PgnError> {
        resolve_variant(board, san)
    }
    /// A move was resolved in `board` (before it is played); `Move::NULL` for `--`.
    fn visit_move(&mut self, _board: &Board, _m: Move) {}
    /// A comment's text (python-chess strips one space after `{` and before `}`).
    fn visit_comment(&mut self, _comment: &[u8]) {}
    /// A NAG: `$n` or a suffix annotation (`!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    fn visit_nag(&mut self, _nag: u64) {}
    /// A variation starts; `true` skips it.
    fn begin_variation(&mut self) -> bool {
        false
    }
    /// A variation ended.
    fn end_variation(&mut self) {}
    /// A variation being skipped after a bad move ended (python-chess calls `end_variation`
    /// but, unlike a normal end, keeps the variation's position for what follows).
    fn end_skipped_variation(&mut self) {
        self.end_variation();
    }
    /// A game termination marker on the mainline.
    fn visit_result(&mut self, _result: &[u8]) {}
    /// An error; reading goes on.
    fn handle_error(&mut self, _error: PgnError) {}
    /// The game is over.
    fn end_game(&mut self) {}
}

/// A visitor that skips every game: [`read_game`] with it only finds where games end.
pub struct SkipVisitor;

impl Visitor for SkipVisitor {
    fn begin_game(&mut self) -> bool {
        true
    }
}

fn starts_with_comment_marker(line: &Line<'_>) -> bool {
    matches!(line.text.first(), Some(b'%' | b';'))
}

/// python-chess's `TAG_REGEX`: `^\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*)\s+"([^\r]*)"\]\s*$`.
pub fn parse_tag(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = text.strip_prefix(b"[")?;
    let name_len = rest
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
        .count();
    if name_len == 0 || !rest[0].is_ascii_alphanumeric() {
        return None;
    }
    let (name, rest) = rest.split_at(name_len);
    let (space, rest) = split_leading_space(rest);
    if space == 0 {
        return None;
    }
    let rest = rest.strip_prefix(b"\"")?;
    // The greedy value ends at the last `"]` that only whitespace follows.
    let mut end = rest.len();
    loop {
        let close = rest[..end].windows(2).rposition(|w| w == b"\"]")?;
        if crate::lines::is_all_space(&rest[close + 2..]) {
            let value = &rest[..close];
            return (!value.contains(&b'\r')).then_some((name, value));
        }
        end = close + 1;
    }
}

/// Leading Python whitespace (`\s`): its byte length and the rest.
fn split_leading_space(text: &[u8]) -> (usize, &[u8]) {
    let mut n = 0;
    while n < text.len() {
        if is_ascii_py_space(text[n]) {
            n += 1;
            continue;
        }
        if text[n] >= 0x80 {
            let s = String::from_utf8_lossy(&text[n..(n + 4).min(text.len())]).into_owned();
            if let Some(c) = s.chars().next() {
                if c != char::REPLACEMENT_CHARACTER && is_py_space(c) {
                    n += c.len_utf8();
                    continue;
                }
            }
        }
        break;
    }
    (n, &text[n..])
}

fn strip_bom(mut text: &[u8]) -> &[u8] {
    while let Some(rest) = text.strip_prefix("\u{feff}".as_bytes()) {
        text = rest;
    }
    text
}

const CHESS960: [&str; 5] = [
    "chess960",
    "chess 960",
    "fischerandom",
    "fischerrandom",
    "fischer random",
];
const WILD: [&str; 10] = [
    "wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8",
    "wild/8a",
];
const STANDARD: [&str; 6] = [
    "standard",
    "chess",
    "classical",
    "normal",
    "illegal",
    "from position",
];
/// The standard starting position. Most games start there: it is made once and copied.
pub(crate) fn standard_start() -> Board {
    static STANDARD_START: std::sync::OnceLock<Board> = std::sync::OnceLock::new();
    STANDARD_START.get_or_init(Board::default).clone()
}

/// The starting position of a game: chess (Chess960 included) or a variant.
enum Start {
    Chess(Board),
    Variant(VariantBoard),
}

/// The starting position a game's tags ask for, or the error python-chess would record.
/// `None` means "skip the movetext" (a bad `FEN`, already reported).
fn starting_board<V: Visitor>(
    fen: Option<&[u8]>,
    variant: Option<&[u8]>,
    visitor: &mut V,
) -> Option<Start> {
    let raw_variant = variant.map(String::from_utf8_lossy);
    let variant = raw_variant.as_deref().map(str::to_lowercase);
    let chess960 = variant.as_deref().is_some_and(|v| CHESS960.contains(&v));
    if let Some(v) = variant.as_deref() {
        if !chess960 && !WILD.contains(&v) && !STANDARD.contains(&v) {
            let name = raw_variant.as_deref().unwrap_or_default();
            if let Some(variant) = Variant::find(name) {
                return variant_start(fen, variant, visitor).map(Start::Variant);
            }
            visitor.handle_error(PgnError {
                kind: ErrorKind::UnknownVariant,
                message: format!("unsupported variant: {name}"),
            });
        }
    }
    let Some(fen) = fen else {
        let mut board = standard_start();
        board.set_chess960(chess960);
        return Some(Start::Chess(board));
    };
    let fen = String::from_utf8_lossy(fen);
    match Board::from_fen(&fen, chess960) {
        Ok(board) if !chess960 && board.has_chess960_castling_rights() => {
            // python-chess turns chess960 on for X-FEN castling rights.
            Some(Start::Chess(Board::from_fen(&fen, true).unwrap_or(board)))
        }
        Ok(board) => Some(Start::Chess(board)),
        Err(e) => {
            visitor.handle_error(PgnError {
                kind: ErrorKind::Fen,
                message: e.to_string(),
            });
            None
        }
    }
}

/// The starting position of a `variant` game: its `FEN` (Chess960 castling when the rights
/// need it, as python-chess turns it on) or the variant's own.
fn variant_start<V: Visitor>(
    fen: Option<&[u8]>,
    variant: Variant,
    visitor: &mut V,
) -> Option<VariantBoard> {
    let Some(fen) = fen else {
        return Some(VariantBoard::new(variant));
    };
    let fen = String::from_utf8_lossy(fen);
    match VariantBoard::from_fen(&fen, variant, false) {
        Ok(board) if board.board().has_chess960_castling_rights() => {
            Some(VariantBoard::from_fen(&fen, variant, true).unwrap_or(board))
        }
        Ok(board) => Some(board),
        Err(e) => {
            visitor.handle_error(PgnError {
                kind: ErrorKind::Fen,
                message: e.to_string(),
            });
            None
        }
    }
}

/// The error python-chess's `parse_san` raises for `token` in `board`.
pub fn san_error(token: &str, board: &Board, e: MoveError) -> PgnError {
    let quoted = pychess_core::compat::py_repr(token);
    match e {
        MoveError::Invalid { .. } => PgnError {
            kind: ErrorKind::InvalidMove,
            message: format!("invalid san: {quoted}"),
        },
        MoveError::Ambiguous { .. } => PgnError {
            kind: ErrorKind::AmbiguousMove,
            message: format!("ambiguous san: {quoted} in {}", board.fen()),
        },
        // python-chess's words, whichever reason the core gives.
        MoveError::Illegal { .. } | MoveError::NoCastlingRook { .. } => PgnError {
            kind: ErrorKind::IllegalMove,
            message: format!("illegal san: {quoted} in {}", board.fen()),
        },
        other => PgnError {
            kind: ErrorKind::IllegalMove,
            message: other.to_string(),
        },
    }
}

/// Resolves a move token with the core's SAN reader (`Ok(Move::NULL)` for a null move).
pub fn resolve(board: &Board, token: &[u8]) -> Result<Move, PgnError> {
    let text = || String::from_utf8_lossy(token).into_owned();
    San::parse_bytes(token)
        .ok_or_else(|| MoveError::Invalid {
            text: text(),
            notation: "san",
        })
        .and_then(|san| board.resolve_san_with(san, text))
        .map(|m| m.unwrap_or(Move::NULL))
        .map_err(|e| san_error(&text(), board, e))
}

/// Resolves a move token of a variant game with the core's variant SAN reader (`Ok(Move::NULL)`
/// for a null move).
pub fn resolve_variant(board: &VariantBoard, token: &[u8]) -> Result<Move, PgnError> {
    let text = String::from_utf8_lossy(token);
    board
        .parse_san(&text)
        .map(|m| m.unwrap_or(Move::NULL))
        .map_err(|e| san_error(&text, board.board(), e))
}

/// Reads one game from `lines`, reporting to `visitor`. Returns `false` at the end of the
/// input (no game found), like python-chess's `read_game` returning `None`.
pub fn read_game<'a, V: Visitor>(lines: &mut Lines<'a>, visitor: &mut V) -> bool {
    let mut line = lines.next_line().map(|l| Line {
        text: strip_bom(l.text),
        ..l
    });
    while let Some(l) = line {
        if !(l.is_blank() || starts_with_comment_marker(&l)) {
            break;
        }
        line = lines.next_line();
    }

    let mut found_game = false;
    let mut skipping = false;
    let mut fen: Option<&'a [u8]> = None;
    let mut variant: Option<&'a [u8]> = None;
    let mut empty_lines = 0;
    while let Some(l) = line {
        if starts_with_comment_marker(&l) {
            line = lines.next_line();
            continue;
        }
        if empty_lines < 1 && l.is_blank() {
            empty_lines += 1;
            line = lines.next_line();
            continue;
        }
        if !found_game {
            found_game = true;
            skipping = visitor.begin_game();
            if !skipping {
                visitor.begin_headers();
            }
        }
        if l.text.first() != Some(&b'[') {
            break;
        }
        empty_lines = 0;
        if !skipping {
            if let Some((name, value)) = parse_tag(l.text) {
                visitor.visit_header(name, value);
                match name {
                    b"FEN" => fen = Some(value),
                    b"Variant" => variant = Some(value),
                    _ => {}
                }
            }
        }
        line = lines.next_line();
    }
    if !found_game {
        return false;
    }
    if !skipping {
        skipping = visitor.end_headers();
    }
    let start = if skipping {
        None
    } else {
        starting_board(fen, variant, visitor)
    };
    match start {
        None => skip_movetext(line, lines),
        Some(Start::Chess(board)) => {
            visitor.visit_board(&board);
            parse_movetext(line, lines, visitor, vec![Frame::new(board)]);
        }
        Some(Start::Variant(board)) => {
            visitor.visit_variant_board(&board);
            parse_movetext(line, lines, visitor, vec![Frame::new(board)]);
        }
    }
    visitor.end_game();
    true
}

/// A position a line of movetext is played on: a chess board, or a variant's. The reader is
/// generic over it, so chess games run the code they ran before variants came.
trait Position: Clone {
    /// The board as chess sees it (what the visitor's chess methods are given).
    fn chess_board(&self) -> &Board;
    /// Plays a move resolved here.
    fn play(&mut self, m: Move);
    /// Hands the position to the visitor.
    fn visit<V: Visitor>(&self, visitor: &mut V);
    /// Resolves a move token through the visitor.
    fn resolve<V: Visitor>(&self, visitor: &mut V, san: &[u8]) -> Result<Move, PgnError>;
}

impl Position for Board {
    #[inline]
    fn chess_board(&self) -> &Board {
        self
    }

    #[inline]
    fn play(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    #[inline]
    fn visit<V: Visitor>(&self, visitor: &mut V) {
        visitor.visit_board(self);
    }

    #[inline]
    fn resolve<V: Visitor>(&self, visitor: &mut V, san: &[u8]) -> Result<Move, PgnError> {
        visitor.parse_san(self, san)
    }
}

impl Position for VariantBoard {
    fn chess_board(&self) -> &Board {
        self.board()
    }

    fn play(&mut self, m: Move) {
        self.play_unchecked(m);
    }

    fn visit<V: Visitor>(&self, visitor: &mut V) {
        visitor.visit_variant_board(self);
    }

    fn resolve<V: Visitor>(&self, visitor: &mut V, san: &[u8]) -> Result<Move, PgnError> {
        visitor.parse_variant_san(self, san)
    }
}

/// python-chess's fast path for a skipped game: only comments matter, to find the blank line
/// that ends the game.
fn skip_movetext<'a>(mut line: Option<Line<'a>>, lines: &mut Lines<'a>) {
    let mut in_comment = false;
    while let Some(l) = line {
        if !in_comment {
            if l.is_blank() {
                break;
            }
            if l.text.first() == Some(&b'%') {
                line = lines.next_line();
                continue;
            }
        }
        for &b in l.text {
            match b {
                b'{' => in_comment = true,
                b';' if !in_comment => break,
                b'}' => in_comment = false,
                _ => {}
            }
        }
        line = lines.next_line();
    }
}

/// A line being read: python-chess keeps a board with its whole move stack per line; the
/// same information without copying a board per move: where the line's history starts, its
/// moves, the current position and the one before the last move (where a variation starts).
struct Frame<P> {
    start: P,
    moves: Vec<Move>,
    board: P,
    /// The position before the last move, unless the frame has no move of its own yet.
    before_last: Option<P>,
}

impl<P: Position> Frame<P> {
    fn new(board: P) -> Frame<P> {
        Frame {
            start: board.clone(),
            // Room for most games, so the list is not regrown move by move.
            moves: Vec::with_capacity(256),
            board,
            before_last: None,
        }
    }

    fn play(&mut self, m: Move) {
        self.before_last = Some(self.board.clone());
        self.board.play(m);
        self.moves.push(m);
    }

    /// A copy with the last move taken back (python-chess's `board.copy(); board.pop()`):
    /// the position kept from before it, or (for a variation opened before its parent line
    /// played a move of its own) the history replayed without it.
    fn popped(&self) -> Frame<P> {
        let moves = self.moves[..self.moves.len().saturating_sub(1)].to_vec();
        let board = match &self.before_last {
            Some(board) => board.clone(),
            None => {
                let mut board = self.start.clone();
                for &m in &moves {
                    board.play(m);
                }
                board
            }
        };
        Frame {
            start: self.start.clone(),
            moves,
            board,
            before_last: None,
        }
    }
}

fn parse_movetext<'a, V: Visitor, P: Position>(
    mut line: Option<Line<'a>>,
    lines: &mut Lines<'a>,
    visitor: &mut V,
    mut board_stack: Vec<Frame<P>>,
) {
    let mut skip_depth: usize = 0;
    let mut comment: Vec<u8> = Vec::new();
    while let Some(mut l) = line {
        if starts_with_comment_marker(&l) {
            line = lines.next_line();
            continue;
        }
        if l.is_blank() {
            return;
        }
        let mut pos = 0;
        while let Some(token) = next_token(l.text, pos) {
            pos = token.end;
            let text = &l.text[token.start..token.end];
            match token.kind {
                TokenKind::Comment => {
                    comment.clear();
                    let start = if l.text.get(token.end) == Some(&b' ') {
                        token.end + 1
                    } else {
                        token.end
                    };
                    let mut part = &l.text[start..];
                    let mut newline = l.newline;
                    loop {
                        if let Some(close) = part.iter().position(|&b| b == b'}') {
                            let end = if close > 0 && part[close - 1] == b' ' {
                                close - 1
                            } else {
                                close
                            };
                            comment.extend_from_slice(&part[..end]);
                            // Go on with the rest of the closing line (not a fresh line).
                            pos = l.text.len() - part.len() + close + 1;
                            break;
                        }
                        comment.extend_from_slice(part);
                        if newline {
                            comment.push(b'\n');
                        }
                        match lines.next_line() {
                            Some(next) => {
                                l = next;
                                part = l.text;
                                newline = l.newline;
                            }
                            None => {
                                if skip_depth == 0 {
                                    visitor.visit_comment(&comment);
                                }
                                return;
                            }
                        }
                    }
                    if skip_depth == 0 {
                        visitor.visit_comment(&comment);
                    }
                }
                TokenKind::Open => {
                    if skip_depth > 0 {
                        skip_depth += 1;
                    } else if board_stack.last().is_some_and(|f| !f.moves.is_empty()) {
                        if visitor.begin_variation() {
                            skip_depth = 1;
                        } else {
                            if let Some(frame) = board_stack.last().map(Frame::popped) {
                                board_stack.push(frame);
                            }
                        }
                    }
                }
                TokenKind::LineComment if skip_depth > 0 => pos = token.start + 1,
                TokenKind::Close => {
                    if skip_depth == 1 {
                        skip_depth = 0;
                        visitor.end_skipped_variation();
                    } else if skip_depth > 0 {
                        skip_depth -= 1;
                    } else if board_stack.len() > 1 {
                        visitor.end_variation();
                        board_stack.pop();
                    }
                }
                _ if skip_depth > 0 => {}
                TokenKind::LineComment => break,
                TokenKind::Nag => {
                    // Digits beyond u64 saturate (python-chess keeps an arbitrary int).
                    let nag = text[1..].iter().fold(0u64, |acc, &d| {
                        acc.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    });
                    visitor.visit_nag(nag);
                }
                TokenKind::Suffix => visitor.visit_nag(match text {
                    b"!" => 1,
                    b"?" => 2,
                    b"!!" => 3,
                    b"??" => 4,
                    b"!?" => 5,
                    _ => 6,
                }),
                TokenKind::Result if board_stack.len() == 1 => visitor.visit_result(text),
                TokenKind::Result | TokenKind::Move => {
                    let Some(frame) = board_stack.last_mut() else {
                        break;
                    };
                    if !visitor.begin_parse_san(frame.board.chess_board(), text) {
                        match frame.board.resolve(visitor, text) {
                            Ok(m) => {
                                visitor.visit_move(frame.board.chess_board(), m);
                                frame.play(m);
                            }
                            Err(e) => {
                                visitor.handle_error(e);
                                skip_depth = 1;
                            }
                        }
                    }
                    frame.board.visit(visitor);
                }
            }
        }
        line = lines.next_line();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_follow_the_regex() {
        assert_eq!(
            parse_tag(b"[Event \"F/S Return Match\"]"),
            Some((&b"Event"[..], &b"F/S Return Match"[..]))
        );
        assert_eq!(
            parse_tag(b"[A  \"x\"] \"]  "),
            Some((&b"A"[..], &b"x\"] "[..]))
        );
        assert_eq!(parse_tag(b"[Event\"x\"]"), None);
        assert_eq!(parse_tag(b"[_E \"x\"]"), None);
        assert_eq!(parse_tag(b"[E \"x\"] junk"), None);
        assert_eq!(parse_tag(b"[E \"x\""), None);
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;

    /// Records every event as text, to check the order python-chess's reader produces.
    #[derive(Default)]
    struct Events(Vec<String>);

    impl Visitor for Events {
        fn visit_header(&mut self, name: &[u8], value: &[u8]) {
            let (n, v) = (
                String::from_utf8_lossy(name),
                String::from_utf8_lossy(value),
            );
            self.0.push(format!("tag {n}={v}"));
        }
        fn visit_move(&mut self, board: &Board, m: Move) {
            self.0.push(format!("move {}", board.san(m)));
        }
        fn visit_comment(&mut self, comment: &[u8]) {
            self.0
                .push(format!("comment {:?}", String::from_utf8_lossy(comment)));
        }
        fn visit_nag(&mut self, nag: u64) {
            self.0.push(format!("nag {nag}"));
        }
        fn begin_variation(&mut self) -> bool {
            self.0.push("(".into());
            false
        }
        fn end_variation(&mut self) {
            self.0.push(")".into());
        }
        fn visit_result(&mut self, result: &[u8]) {
            self.0
                .push(format!("result {}", String::from_utf8_lossy(result)));
        }
        fn handle_error(&mut self, error: PgnError) {
            self.0
                .push(format!("error {:?} {}", error.kind, error.message));
        }
    }

    fn events(pgn: &str) -> Vec<String> {
        let mut v = Events::default();
        assert!(read_game(&mut Lines::new(pgn.as_bytes()), &mut v));
        v.0
    }

    #[test]
    fn comments_variations_and_nags() {
        let got = events("\u{feff}[Event \"x\"]\r\n\r\n{ start } 1. e4 $1 {multi\nline } e5!? (1... c5 {in} (1... d5)) 2. Nf3 ; rest (\n% escape\n2... Nc6 1-0\n");
        assert_eq!(
            got,
            [
                "tag Event=x",
                "comment \"start\"",
                "move e4",
                "nag 1",
                "comment \"multi\\nline\"",
                "move e5",
                "nag 5",
                "(",
                "move c5",
                "comment \"in\"",
                "(",
                "move d5",
                ")",
                ")",
                "move Nf3",
                "move Nc6",
                "result 1-0",
            ]
        );
    }

    #[test]
    fn a_bad_move_skips_the_rest_of_its_variation() {
        let got = events("1. e4 e5 2. Ke3 Nf3 (2. Nf3) *");
        assert_eq!(
            got,
            [
                "move e4",
                "move e5",
                "error IllegalMove illegal san: 'Ke3' in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            ]
        );
        // python-chess leaves the variation's position in place after a bad move in it, so
        // the mainline goes on from there (and fails again).
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let got = events("1. e4 (1. e5 d5) e5 2. Ke3 Nf3 *");
        assert_eq!(
            got,
            [
                "move e4".to_string(),
                "(".into(),
                format!("error IllegalMove illegal san: 'e5' in {start}"),
                ")".into(),
                format!("error IllegalMove illegal san: 'e5' in {start}"),
            ]
        );
        // A result inside a variation is read as a move, as python-chess does.
        assert!(
            events("1. e4 (1. d4 1-0) *")[3].starts_with("error InvalidMove invalid san: '1-0'")
        );
    }

    /// Skips the moves `begin_parse_san` is told to and resolves `e4` as `d4` (an overridden
    /// `parse_san`), recording what the reader asks.
    #[derive(Default)]
    struct Steering {
        events: Vec<String>,
    }

    impl Visitor for Steering {
        fn begin_headers(&mut self) {
            self.events.push("begin_headers".into());
        }
        fn begin_parse_san(&mut self, _board: &Board, san: &[u8]) -> bool {
            san == b"Nf3"
        }
        fn parse_san(&mut self, board: &Board, san: &[u8]) -> Result<Move, PgnError> {
            resolve(board, if san == b"e4" { b"d4" } else { san })
        }
        fn visit_move(&mut self, board: &Board, m: Move) {
            self.events.push(board.san(m));
        }
        fn visit_board(&mut self, board: &Board) {
            self.events.push(format!("board {}", board.fen()));
        }
        fn handle_error(&mut self, error: PgnError) {
            self.events.push(error.message);
        }
    }

    #[test]
    fn visitors_skip_tokens_and_parse_san_themselves() {
        let mut v = Steering::default();
        assert!(read_game(
            &mut Lines::new(b"[A \"1\"]\n\n1. e4 Nf6 2. Nf3 Nc6 *"),
            &mut v
        ));
        let after_d4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
        let after_nf6 = "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2";
        // A skipped token leaves the board as it was, and the next move is read there, as
        // python-chess does after `SKIP`: Nc6 is then White's (illegal) move.
        assert_eq!(
            v.events,
            [
                "begin_headers".to_string(),
                "board rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                "d4".into(),
                format!("board {after_d4}"),
                "Nf6".into(),
                format!("board {after_nf6}"),
                format!("board {after_nf6}"),
                format!("illegal san: 'Nc6' in {after_nf6}"),
                format!("board {after_nf6}"),
            ]
        );
    }

    #[test]
    fn variations_start_before_their_lines_last_move() {
        // From a variation's own move, and from one opened before any move of its own
        // (python-chess then goes back one more move: the parent line's last but one).
        let got = events("1. e4 e5 2. Nf3 ( 2. Nc3 Nf6 ( 2... Nc6 ) ( ( 2. d4 ) 2... d6 ) ) *");
        assert_eq!(
            got,
            [
                "move e4", "move e5", "move Nf3", "(", "move Nc3", "move Nf6", "(", "move Nc6",
                ")", "(", "(", "move d4", ")", "move d6", ")", ")", "result *",
            ]
        );
    }

    #[test]
    fn games_end_at_blank_lines_and_headers_allow_one() {
        let pgn = b"[A \"1\"]\n\n[B \"2\"]\n\n1. e4\n\n1. d4\n";
        let mut lines = Lines::new(pgn);
        let mut first = Events::default();
        assert!(read_game(&mut lines, &mut first));
        assert_eq!(first.0, ["tag A=1", "tag B=2", "move e4"]);
        let mut second = Events::default();
        assert!(read_game(&mut lines, &mut second));
        assert_eq!(second.0, ["move d4"]);
        assert!(!read_game(&mut lines, &mut Events::default()));
    }

    #[test]
    fn unterminated_comment_and_bad_fen() {
        assert_eq!(
            events("1. e4 { never closed\n\nstill"),
            ["move e4", "comment \"never closed\\n\\nstill\""]
        );
        let got = events("[FEN \"not a fen\"]\n\n1. e4 *");
        assert_eq!(got.len(), 2);
        assert!(got[1].starts_with("error Fen "));
        // Variant games are read with their rules: a drop, an Atomic explosion.
        let zh = events("[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *");
        assert_eq!(
            zh[1..],
            [
                "move e4",
                "move d5",
                "move exd5",
                "move Qxd5",
                "move @e4",
                "result *"
            ]
        );
        // exd5 explodes both pawns: dxe6 is legal in chess, not here.
        let atomic = events("[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 e6 3. dxe6 *");
        assert_eq!(atomic[1..5], ["move e4", "move d5", "move exd5", "move e6"]);
        assert!(atomic[5].starts_with("error IllegalMove"), "{atomic:?}");
        let odd = events("[Variant \"Martian\"]\n\n1. e4 *");
        assert_eq!(odd[1], "error UnknownVariant unsupported variant: Martian");
        assert_eq!(odd[2], "move e4");
    }

    /// python-chess reads a FEN tag as Chess960 when its castling rights are only possible
    /// there (the core's `has_chess960_castling_rights`), and as standard chess otherwise.
    #[test]
    fn x_fen_castling_rights_turn_chess960_on() {
        let chess960 =
            |fen: &str| match starting_board(Some(fen.as_bytes()), None, &mut Events::default())
                .unwrap()
            {
                Start::Chess(board) => board.is_chess960(),
                Start::Variant(board) => board.board().is_chess960(),
            };
        assert!(!chess960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
        assert!(chess960("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1"));
        assert!(chess960("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"));
        // A right with no rook behind it is no Chess960 right either.
        assert!(!chess960("4k3/8/8/8/8/8/8/4K3 w B - 0 1"));
    }

    #[test]
    fn hostile_bytes_never_panic() {
        let mut seed = 12345u64;
        for len in [0usize, 1, 7, 100, 3000] {
            for _ in 0..50 {
                let data: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        {
                            let alphabet = b"[]{}();%$!?\"\n\r e4Nf3O-x=Q1/2\xef\xbb\xbf\xff";
                            alphabet[(seed >> 33) as usize % alphabet.len()]
                        }
                    })
                    .collect();
                let mut lines = Lines::new(&data);
                while read_game(&mut lines, &mut Events::default()) {}
            }
        }
    }
}
