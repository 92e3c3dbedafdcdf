//! The ratio panel of a comparison plot (`compare --plot`, `bench --baseline --plot`):
//! each row's ratio new / baseline with its 95% interval, against n, between the
//! lines of no change (1) and of the threshold (1 + t and 1 / (1 + t)); regressed rows
//! in red, improved ones in green, the others in grey, so that a regression shows at
//! a glance.
//!
//! Uses the report layer's comparison.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::compare::{Comparison, Verdict};

/// The colour of a verdict.
fn colour(verdict: Verdict) -> RGBColor {
    match verdict {
        Verdict::Regressed => RGBColor(0xc6, 0x28, 0x28),
        Verdict::Improved => RGBColor(0x2e, 0x7d, 0x32),
        Verdict::Unchanged => RGBColor(0x60, 0x60, 0x60),
    }
}

/// Draws the ratio panel of `comparison` into `area`.
#[allow(clippy::cast_precision_loss, reason = "board sizes, at most 32")]
pub fn ratios(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    comparison: &Comparison,
) -> Result<(), Box<dyn std::error::Error>> {
    let rows = &comparison.rows;
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return Ok(());
    };
    let t = comparison.threshold;
    let lo = rows.iter().map(|r| r.low).fold(1.0 / (1.0 + t), f64::min);
    let hi = rows.iter().map(|r| r.high).fold(1.0 + t, f64::max);
    let pad = (hi - lo).max(0.02) * 0.1;
    let (x0, x1) = (first.n as f64 - 0.5, last.n as f64 + 0.5);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "new / baseline: median ratio and its 95% interval (threshold {}%)",
                t * 100.0
            ),
            ("sans-serif", 18),
        )
        .margin(20)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(x0..x1, (lo - pad)..(hi + pad))?;
    chart
        .configure_mesh()
        .x_desc("board size n")
        .y_desc("ratio")
        .x_labels(last.n - first.n + 2)
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| format!("{y:.2}"))
        .label_style(("sans-serif", 14))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let line = |y: f64, style: ShapeStyle| PathElement::new(vec![(x0, y), (x1, y)], style);
    chart.draw_series([
        line(1.0, BLACK.stroke_width(1)),
        line(1.0 + t, colour(Verdict::Regressed).mix(0.6).stroke_width(1)),
        line(
            1.0 / (1.0 + t),
            colour(Verdict::Improved).mix(0.6).stroke_width(1),
        ),
    ])?;
    chart.draw_series(rows.iter().map(|r| {
        ErrorBar::new_vertical(
            r.n as f64,
            r.low,
            r.ratio,
            r.high,
            colour(r.verdict).stroke_width(2),
            10,
        )
    }))?;
    chart.draw_series(
        rows.iter()
            .map(|r| Circle::new((r.n as f64, r.ratio), 5, colour(r.verdict).filled())),
    )?;
    chart.draw_series(
        rows.iter()
            .filter(|r| r.verdict == Verdict::Regressed)
            .map(|r| {
                Text::new(
                    "regressed",
                    (r.n as f64 + 0.08, r.high),
                    ("sans-serif", 13)
                        .into_font()
                        .color(&colour(Verdict::Regressed)),
                )
            }),
    )?;
    Ok(())
}
