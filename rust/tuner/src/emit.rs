//! Writes tuned weights as the Rust source of `rust/engine/src/eval/weights.rs`.

use std::fmt::Write;

use pychess_engine::eval::layout::GROUPS;
use pychess_engine::eval::Weights;

/// How the weights were obtained, for the generated file's header.
pub struct Provenance {
    /// Data files and their sizes, one line each.
    pub data: Vec<String>,
    /// Training and validation positions.
    pub positions: (usize, usize),
    /// The sigmoid's scaling constant.
    pub k: f64,
    /// Epochs of full-batch Adam kept (the best on the validation set).
    pub epochs: usize,
    /// The optimiser's name.
    pub optimizer: &'static str,
    /// Its step size or learning rate.
    pub rate: f64,
    /// Share of the reference engine's score in the fitted target.
    pub blend: f64,
    /// (train, validation) error of the starting weights.
    pub before: (f64, f64),
    /// (train, validation) error of the written (rounded) weights.
    pub after: (f64, f64),
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
}

/// The source text of `weights.rs`.
pub fn weights_source(weights: &Weights, how: &Provenance) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "//! Evaluation weights fitted by `rust/tuner` (Texel's method). Generated: do not edit\n\
         //! by hand; `rust/engine/TUNING.md` says how to regenerate it.\n\
         //!\n\
         //! - Date: {date} (UTC).\n\
         //! - Data: {train} training + {valid} validation quiet positions, each with its game's\n\
         //!   result and (where recorded) a reference engine's score, from:",
        date = how.date,
        train = how.positions.0,
        valid = how.positions.1,
    );
    for line in &how.data {
        let _ = writeln!(out, "//!   - {line}");
    }
    let _ = writeln!(
        out,
        "//! - Method: minimise the mean squared error of sigmoid(K * eval) against the target\n\
         //!   {result_share:.2} * result + {blend:.2} * sigmoid(K * reference score), K = {k:.6} (fitted\n\
         //!   to the starting weights), {epochs} epochs of full-batch {optimizer} (rate {rate}; the\n\
         //!   epoch best on the validation games), starting from the hand-set `HAND_WEIGHTS`.\n\
         //! - Error against game results (train / validation): before {b0:.6} / {b1:.6},\n\
         //!   after {a0:.6} / {a1:.6}.\n\
         \n\
         use super::{{Weights, S}};\n\
         \n\
         /// The weights [`super::evaluate`] uses.\n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: Weights = [",
        k = how.k,
        epochs = how.epochs,
        rate = how.rate,
        optimizer = how.optimizer,
        blend = how.blend,
        result_share = 1.0 - how.blend,
        b0 = how.before.0,
        b1 = how.before.1,
        a0 = how.after.0,
        a1 = how.after.1,
    );
    for group in GROUPS {
        for line in wrap(&format!("{}: {}", group.name, group.doc), 92) {
            let _ = writeln!(out, "    // {line}");
        }
        let entries = &weights[group.start..group.start + group.len];
        // Four a row: one rank of a (folded) piece-square table.
        for row in entries.chunks(4) {
            let cells: Vec<String> = row
                .iter()
                .map(|w| format!("S::new({}, {}),", w.mg, w.eg))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// Today's date (UTC) as `YYYY-MM-DD`, from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date((secs / 86_400) as i64)
}

/// The calendar date `days` after 1970-01-01 (Howard Hinnant's days-to-civil algorithm).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use pychess_engine::eval::layout::FEATURE_COUNT;
    use pychess_engine::eval::HAND_WEIGHTS;

    #[test]
    fn dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_415), "2025-11-23");
    }

    #[test]
    fn source_lists_every_weight_once() {
        let how = Provenance {
            data: vec!["a.txt (3 positions)".into()],
            positions: (2, 1),
            k: 0.005,
            epochs: 1,
            optimizer: "Adam",
            rate: 1.0,
            blend: 0.5,
            before: (0.1, 0.1),
            after: (0.09, 0.095),
            date: "2000-01-01".into(),
        };
        let text = weights_source(&HAND_WEIGHTS, &how);
        assert_eq!(text.matches("S::new(").count(), FEATURE_COUNT);
        assert!(text.contains("S::new(900, 900)"));
        assert!(text.contains("// TEMPO: Side to move."));
        assert!(text.contains("a.txt (3 positions)"));
        assert!(text.lines().all(|l| l.len() <= 100), "{text}");
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
    }
}
