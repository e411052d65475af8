//! What every writer shares: game results, scores, the position filters trainers expect,
//! and the counts a run reports.

use pychess_core::{Board, Color, Move};

/// A game's result from White's side, as marlinflow's `wdl` byte numbers it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// Black won (0).
    BlackWin = 0,
    /// Draw (1).
    Draw = 1,
    /// White won (2).
    WhiteWin = 2,
}

impl Wdl {
    /// The result of a PGN `Result` tag; `None` for `*` or anything else.
    pub fn from_pgn(result: &str) -> Option<Wdl> {
        match result {
            "1-0" => Some(Wdl::WhiteWin),
            "0-1" => Some(Wdl::BlackWin),
            "1/2-1/2" => Some(Wdl::Draw),
            _ => None,
        }
    }

    /// The result with `winner` (`None`: a draw).
    pub fn of_winner(winner: Option<Color>) -> Wdl {
        match winner {
            Some(Color::White) => Wdl::WhiteWin,
            Some(Color::Black) => Wdl::BlackWin,
            None => Wdl::Draw,
        }
    }

    /// The byte (0, 1, 2).
    pub fn value(self) -> u8 {
        self as u8
    }

    /// The result of a byte (0, 1, 2).
    pub fn from_value(value: u8) -> Option<Wdl> {
        match value {
            0 => Some(Wdl::BlackWin),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::WhiteWin),
            _ => None,
        }
    }

    /// From `side`'s point of view: 2 a win, 1 a draw, 0 a loss.
    pub fn for_side(self, side: Color) -> u8 {
        match side {
            Color::White => self.value(),
            Color::Black => 2 - self.value(),
        }
    }

    /// The result that is `value` (2 win, 1 draw, 0 loss) from `side`'s point of view.
    pub fn from_side(value: u8, side: Color) -> Option<Wdl> {
        match side {
            Color::White => Wdl::from_value(value),
            Color::Black => 2u8.checked_sub(value).and_then(Wdl::from_value),
        }
    }

    /// The PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            Wdl::WhiteWin => "1-0",
            Wdl::BlackWin => "0-1",
            Wdl::Draw => "1/2-1/2",
        }
    }
}

/// The score written for a mate (from the side that mates), and the bound of every other
/// score: centipawn scores are clamped to `-(MATE_SCORE - 1)..=MATE_SCORE - 1`.
pub const MATE_SCORE: i16 = 32_000;

/// A centipawn score clamped to what the records hold.
pub fn clamp_cp(cp: i64) -> i16 {
    let bound = i64::from(MATE_SCORE - 1);
    cp.clamp(-bound, bound) as i16
}

/// A mate in `moves` (negative: being mated) as a record's score.
pub fn mate_score(moves: i64) -> i16 {
    if moves > 0 {
        MATE_SCORE
    } else {
        -MATE_SCORE
    }
}

/// Which positions to leave out, as NNUE trainers expect; every one off by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Leave out the first plies of each game (the opening, or self-play's random moves
    /// come on top of these).
    pub skip_plies: u32,
    /// Leave out positions whose side to move is in check.
    pub skip_check: bool,
    /// Leave out positions whose best move (the search's when there was one, else the move
    /// played) is a capture or a promotion: their score is not quiet.
    pub skip_noisy: bool,
    /// Leave out positions whose score's magnitude is above this (mates are `MATE_SCORE`).
    pub max_score: Option<i16>,
}

/// Why a position was left out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// One of the first `skip_plies`.
    Opening,
    /// In check.
    Check,
    /// A noisy best move.
    Noisy,
    /// A score above `max_score`.
    Score,
    /// The format cannot hold it (more than 32 pieces, no king, ...).
    Unencodable,
}

impl Filters {
    /// The cheap checks, before any search: the opening plies and check.
    pub fn before_search(&self, ply: u32, board: &Board) -> Option<Skip> {
        if ply < self.skip_plies {
            Some(Skip::Opening)
        } else if self.skip_check && board.is_check() {
            Some(Skip::Check)
        } else {
            None
        }
    }

    /// The checks that need the best move and the score (side to move's view).
    pub fn after_search(&self, board: &Board, best: Move, score: Option<i16>) -> Option<Skip> {
        if self.skip_noisy && is_noisy(board, best) {
            return Some(Skip::Noisy);
        }
        match (self.max_score, score) {
            (Some(limit), Some(score)) if score.unsigned_abs() > limit.unsigned_abs() => {
                Some(Skip::Score)
            }
            _ => None,
        }
    }
}

/// Is `m` a capture (en passant included) or a promotion in `board`?
pub fn is_noisy(board: &Board, m: Move) -> bool {
    m.promotion().is_some() || (!m.is_castle() && board.is_capture_move(board.uci(m)))
}

/// What a run did, summed over games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games read (PGN) or played (self-play).
    pub games: u64,
    /// Games left out: no result (`*`), or a variant the writers do not take.
    pub games_skipped: u64,
    /// Positions looked at (one per move played).
    pub positions: u64,
    /// Positions written.
    pub written: u64,
    /// Left out as one of the first plies.
    pub skipped_opening: u64,
    /// Left out for being in check.
    pub skipped_check: u64,
    /// Left out for a noisy best move.
    pub skipped_noisy: u64,
    /// Left out for a score above the limit.
    pub skipped_score: u64,
    /// Left out because the format cannot hold them.
    pub skipped_unencodable: u64,
    /// Scores taken from `[%eval]` comments.
    pub scores_from_comments: u64,
    /// Scores from the built-in engine.
    pub scores_from_engine: u64,
    /// Bytes written to the output (Lc0 chunks: compressed).
    pub bytes: u64,
}

impl Stats {
    /// Counts a left-out position.
    pub fn skip(&mut self, why: Skip) {
        *match why {
            Skip::Opening => &mut self.skipped_opening,
            Skip::Check => &mut self.skipped_check,
            Skip::Noisy => &mut self.skipped_noisy,
            Skip::Score => &mut self.skipped_score,
            Skip::Unencodable => &mut self.skipped_unencodable,
        } += 1;
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Stats) {
        self.games += other.games;
        self.games_skipped += other.games_skipped;
        self.positions += other.positions;
        self.written += other.written;
        self.skipped_opening += other.skipped_opening;
        self.skipped_check += other.skipped_check;
        self.skipped_noisy += other.skipped_noisy;
        self.skipped_score += other.skipped_score;
        self.skipped_unencodable += other.skipped_unencodable;
        self.scores_from_comments += other.scores_from_comments;
        self.scores_from_engine += other.scores_from_engine;
        self.bytes += other.bytes;
    }

    /// Every count with its name, in declaration order (what the bindings hand to Python).
    pub fn fields(&self) -> [(&'static str, u64); 12] {
        [
            ("games", self.games),
            ("games_skipped", self.games_skipped),
            ("positions", self.positions),
            ("written", self.written),
            ("skipped_opening", self.skipped_opening),
            ("skipped_check", self.skipped_check),
            ("skipped_noisy", self.skipped_noisy),
            ("skipped_score", self.skipped_score),
            ("skipped_unencodable", self.skipped_unencodable),
            ("scores_from_comments", self.scores_from_comments),
            ("scores_from_engine", self.scores_from_engine),
            ("bytes", self.bytes),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_from_either_side() {
        for wdl in [Wdl::BlackWin, Wdl::Draw, Wdl::WhiteWin] {
            for side in Color::ALL {
                assert_eq!(Wdl::from_side(wdl.for_side(side), side), Some(wdl));
            }
            assert_eq!(Wdl::from_pgn(wdl.pgn()), Some(wdl));
        }
        assert_eq!(Wdl::WhiteWin.for_side(Color::Black), 0);
        assert_eq!(Wdl::from_pgn("*"), None);
        assert_eq!(Wdl::from_side(3, Color::Black), None);
    }

    #[test]
    fn filters() {
        let board = Board::from_fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", false).unwrap();
        let capture = board
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to.index() == 35)
            .unwrap();
        let quiet = board
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to.index() == 36)
            .unwrap();
        let f = Filters {
            skip_plies: 2,
            skip_check: true,
            skip_noisy: true,
            max_score: Some(500),
        };
        assert_eq!(f.before_search(1, &board), Some(Skip::Opening));
        assert_eq!(f.before_search(2, &board), None);
        assert_eq!(f.after_search(&board, capture, Some(0)), Some(Skip::Noisy));
        assert_eq!(f.after_search(&board, quiet, Some(-501)), Some(Skip::Score));
        assert_eq!(f.after_search(&board, quiet, Some(500)), None);
        let check = Board::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1", false).unwrap();
        assert_eq!(f.before_search(5, &check), Some(Skip::Check));
    }
}
