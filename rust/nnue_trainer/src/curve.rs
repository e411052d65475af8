//! The loss curve: a CSV of every epoch's figures and an SVG plot of the training and
//! validation losses (no plotting library needed to look at a run).

use crate::train::Epoch;
use std::fmt::Write as _;
use std::path::Path;

/// The CSV: `epoch,train_loss,validation_loss,seconds`, one row an epoch (epoch 0 is the
/// untrained network).
pub fn csv(epochs: &[Epoch]) -> String {
    let mut out = String::from("epoch,train_loss,validation_loss,seconds\n");
    for e in epochs {
        let _ = writeln!(
            out,
            "{},{:.6},{:.6},{:.1}",
            e.epoch, e.train_loss, e.validation_loss, e.seconds
        );
    }
    out
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 50.0;

/// An SVG line plot of the training and validation losses against the epoch, titled
/// `title`. The y axis starts at 0 and ends at the largest loss after epoch 0 (the
/// untrained network's loss would flatten the rest), or at epoch 0's when there is no other.
pub fn svg(epochs: &[Epoch], title: &str) -> String {
    let trained: Vec<&Epoch> = epochs.iter().filter(|e| e.epoch > 0).collect();
    let shown: Vec<&Epoch> = if trained.is_empty() {
        epochs.iter().collect()
    } else {
        trained
    };
    let top = shown
        .iter()
        .flat_map(|e| [e.train_loss, e.validation_loss])
        .fold(0.0f64, f64::max)
        .max(1e-9)
        * 1.1;
    let (first, last) = (
        shown.first().map_or(0, |e| e.epoch) as f64,
        shown.last().map_or(1, |e| e.epoch) as f64,
    );
    let span = (last - first).max(1.0);
    let x = |epoch: usize| LEFT + (epoch as f64 - first) / span * (WIDTH - LEFT - RIGHT);
    let y = |loss: f64| TOP + (1.0 - loss / top) * (HEIGHT - TOP - BOTTOM);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="18" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // Axes, five y ticks and the epochs as x ticks (at most ten labelled).
    let (x0, y0) = (LEFT, HEIGHT - BOTTOM);
    let _ = writeln!(
        out,
        r#"<path d="M{LEFT} {TOP} V{y0} H{}" stroke="black" fill="none"/>"#,
        WIDTH - RIGHT
    );
    for k in 0..=5 {
        let loss = top * f64::from(k) / 5.0;
        let _ = writeln!(
            out,
            r##"<line x1="{x0}" x2="{}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{loss:.4}</text>"##,
            WIDTH - RIGHT,
            x0 - 6.0,
            y(loss) + 4.0,
            yy = y(loss),
        );
    }
    let every = shown.len().div_ceil(10).max(1);
    for e in shown.iter().step_by(every) {
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
            x(e.epoch),
            y0 + 18.0,
            e.epoch
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">epoch</text><text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">loss (MSE)</text>"#,
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 10.0,
        (TOP + y0) / 2.0,
        (TOP + y0) / 2.0,
    );
    for (name, colour, row, pick) in [
        (
            "training",
            "#1f77b4",
            0,
            (|e: &Epoch| e.train_loss) as fn(&Epoch) -> f64,
        ),
        ("validation", "#d62728", 1, |e: &Epoch| e.validation_loss),
    ] {
        let points: Vec<String> = shown
            .iter()
            .map(|e| format!("{:.1},{:.1}", x(e.epoch), y(pick(e))))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" stroke="{colour}" stroke-width="2" fill="none"/>"#,
            points.join(" ")
        );
        let ly = TOP + 14.0 + 16.0 * f64::from(row);
        let _ = writeln!(
            out,
            r#"<line x1="{}" x2="{}" y1="{ly}" y2="{ly}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{name}</text>"#,
            WIDTH - RIGHT - 120.0,
            WIDTH - RIGHT - 100.0,
            WIDTH - RIGHT - 94.0,
            ly + 4.0
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Writes `path` (the CSV) and the SVG beside it (`path` with extension `svg`); returns the
/// SVG's path.
///
/// # Errors
/// When either file cannot be written.
pub fn write(path: &Path, epochs: &[Epoch], title: &str) -> std::io::Result<std::path::PathBuf> {
    std::fs::write(path, csv(epochs))?;
    let plot = path.with_extension("svg");
    std::fs::write(&plot, svg(epochs, title))?;
    Ok(plot)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epochs() -> Vec<Epoch> {
        (0..4)
            .map(|k| Epoch {
                epoch: k,
                train_loss: 0.02 / (k + 1) as f64,
                validation_loss: 0.025 / (k + 1) as f64,
                seconds: 1.5,
            })
            .collect()
    }

    #[test]
    fn the_csv_has_a_row_an_epoch() {
        let text = csv(&epochs());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "epoch,train_loss,validation_loss,seconds");
        assert_eq!(lines[2], "1,0.010000,0.012500,1.5");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn the_plot_has_both_curves_over_the_trained_epochs() {
        let plot = svg(&epochs(), "a <title>");
        assert!(plot.starts_with("<svg") && plot.trim_end().ends_with("</svg>"));
        assert_eq!(plot.matches("<polyline").count(), 2);
        assert!(plot.contains("a &lt;title&gt;"));
        // Epochs 1..3 span the plot's width; the highest loss (0.0125) sits near the top.
        let first = plot
            .lines()
            .find(|l| l.contains("#1f77b4\" stroke-width"))
            .unwrap();
        assert!(first.contains("points=\"70.0,"), "{first}");
        assert!(first.contains(&format!("{:.1},", WIDTH - RIGHT)), "{first}");
    }
}
