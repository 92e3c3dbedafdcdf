//! The bench plot: the median of each row against n on a log scale, with bars from the
//! smallest to the largest sample, one series per report (the new run, and the
//! baseline when there is one), drawn as SVG with plotters. Each point's shape tells
//! its engine (a circle for backtrack, a square for join); where `auto` switches
//! engine, grey lines part the sizes and each part is labelled with its engine (the
//! dip at n = 12 is the join engine taking over). The legend is drawn here, its box sized
//! generously for its longest label, so that it fits whatever font the viewer has.
//! A comparison adds a panel of the ratios ([`super::plot_ratio`]).

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::bench::{BenchReport, Measure};
use super::compare::Comparison;

/// Series colours, in order: the first report, then the second.
const COLOURS: [RGBColor; 2] = [RGBColor(0x1f, 0x63, 0xb4), RGBColor(0xd9, 0x5f, 0x02)];

/// The legend's font size in pixels.
const LEGEND_FONT: u32 = 16;

/// Draws `series` (label, report) into the SVG file `path`. The reports must measure
/// the same thing.
pub fn draw(path: &Path, series: &[(&str, &BenchReport)]) -> Result<(), String> {
    let drawn = (|| {
        let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
        root.fill(&WHITE)?;
        medians(&root, series)?;
        root.present()?;
        Ok::<(), Box<dyn std::error::Error>>(())
    })();
    drawn.map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// Draws both reports of `comparison` and, below them, the ratio of each row with its
/// interval, regressed rows in red.
pub fn draw_comparison(
    path: &Path,
    series: &[(&str, &BenchReport)],
    comparison: &Comparison,
) -> Result<(), String> {
    let drawn = (|| {
        let root = SVGBackend::new(path, (960, 920)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(600);
        medians(&top, series)?;
        super::plot_ratio::ratios(&bottom, comparison)?;
        root.present()?;
        Ok::<(), Box<dyn std::error::Error>>(())
    })();
    drawn.map_err(|e| format!("cannot draw {}: {e}", path.display()))
}

/// The panel of medians against n.
#[allow(
    clippy::cast_precision_loss,
    reason = "board sizes (at most 32) and series indices (two): exact in an f64"
)]
fn medians(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    series: &[(&str, &BenchReport)],
) -> Result<(), Box<dyn std::error::Error>> {
    let measure = series.first().map_or(Measure::Time, |s| s.1.measure);
    let rows = || series.iter().flat_map(|s| s.1.rows.iter());
    let (mut lo_n, mut hi_n) = (usize::MAX, 0);
    let (mut lo_y, mut hi_y) = (f64::INFINITY, 0.0_f64);
    for row in rows() {
        lo_n = lo_n.min(row.n);
        hi_n = hi_n.max(row.n);
        for &s in row.samples.iter().filter(|s| **s > 0.0) {
            lo_y = lo_y.min(s);
            hi_y = hi_y.max(s);
        }
    }
    if lo_n > hi_n || !lo_y.is_finite() {
        return Err("no rows to draw".into());
    }
    let x_range = (lo_n as f64 - 0.5)..(hi_n as f64 + 0.5);
    let y_range = (lo_y / 1.6)..(hi_y * 1.6);

    let caption = match measure {
        Measure::Time => "nqueens bench: seconds per count (median; bars: min to max)",
        Measure::Instructions => "nqueens bench: instructions per count (median; bars: min to max)",
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(
            x_range,
            y_range
                .clone()
                .log_scale()
                .with_key_points(log_ticks(y_range.start, y_range.end)),
        )?;
    chart
        .configure_mesh()
        .x_desc("board size n")
        .y_desc(match measure {
            Measure::Time => "seconds (log scale)",
            Measure::Instructions => "instructions (log scale)",
        })
        .x_labels(hi_n - lo_n + 2)
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| axis_value(measure, *y))
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let regions = engine_regions(series);
    if regions.len() > 1 {
        chart.draw_series(engine_lines(&regions, &y_range))?;
        chart.draw_series(engine_labels(&regions, y_range.start * 1.12))?;
    }
    for (i, (_, report)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        // Offset the two series a little so that their bars do not hide each other.
        let shift = (i as f64 - (series.len() - 1) as f64 / 2.0) * 0.12;
        let points: Vec<(f64, f64)> = report
            .rows
            .iter()
            .map(|r| (r.n as f64 + shift, r.median))
            .collect();
        chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?;
        let is_join = |row: &&super::bench::BenchRow| row.engine == "join";
        chart.draw_series(
            points
                .iter()
                .zip(&report.rows)
                .filter(|(_, row)| is_join(row))
                .map(|(&p, _)| {
                    EmptyElement::at(p) + Rectangle::new([(-5, -5), (5, 5)], colour.filled())
                }),
        )?;
        chart.draw_series(
            points
                .iter()
                .zip(&report.rows)
                .filter(|(_, row)| !is_join(row))
                .map(|(&p, _)| Circle::new(p, 4, colour.filled())),
        )?;
        chart.draw_series(report.rows.iter().map(|r| {
            ErrorBar::new_vertical(
                r.n as f64 + shift,
                r.min,
                r.median,
                r.summary().max,
                colour,
                8,
            )
        }))?;
    }
    legend(root, series)?;
    Ok(())
}

/// The runs of consecutive rows with one engine in the first series, as x ranges
/// (from half a size before the first row to half a size after the last) with the
/// engine's name: where `auto` switches engine.
#[allow(clippy::cast_precision_loss, reason = "board sizes, at most 32")]
fn engine_regions(series: &[(&str, &BenchReport)]) -> Vec<(f64, f64, String)> {
    let mut regions: Vec<(f64, f64, String)> = Vec::new();
    let Some((_, report)) = series.first() else {
        return regions;
    };
    for row in &report.rows {
        let (start, end) = (row.n as f64 - 0.5, row.n as f64 + 0.5);
        match regions.last_mut() {
            Some(last) if last.2 == row.engine => last.1 = end,
            _ => regions.push((start, end, row.engine.clone())),
        }
    }
    regions
}

/// The grey of the engine marks.
const ENGINE_GREY: RGBColor = RGBColor(0x70, 0x70, 0x70);

/// A vertical line at the start of each region but the first, over `y`.
fn engine_lines(
    regions: &[(f64, f64, String)],
    y: &std::ops::Range<f64>,
) -> Vec<PathElement<(f64, f64)>> {
    regions
        .iter()
        .skip(1)
        .map(|&(start, _, _)| {
            PathElement::new(
                vec![(start, y.start), (start, y.end)],
                ENGINE_GREY.mix(0.45).stroke_width(2),
            )
        })
        .collect()
}

/// Each region's engine name, centred at height `y`.
fn engine_labels(regions: &[(f64, f64, String)], y: f64) -> Vec<Text<'static, (f64, f64), String>> {
    let style = ("sans-serif", 13)
        .into_font()
        .color(&ENGINE_GREY)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    regions
        .iter()
        .map(|(start, end, engine)| {
            Text::new(engine.clone(), ((start + end) / 2.0, y), style.clone())
        })
        .collect()
}

/// The legend in the upper left corner: a line of each series' colour with its label,
/// and the point shapes; the box is as wide as the longest line could be.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "label lengths and pixel sizes far below i32::MAX"
)]
fn legend(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    series: &[(&str, &BenchReport)],
) -> Result<(), Box<dyn std::error::Error>> {
    let shapes = "points: circle backtrack, square join";
    let mut lines: Vec<(Option<RGBColor>, String)> = series
        .iter()
        .enumerate()
        .map(|(i, (label, _))| (Some(COLOURS[i % COLOURS.len()]), (*label).to_string()))
        .collect();
    lines.push((None, shapes.to_string()));
    let font = LEGEND_FONT as i32;
    let longest = lines
        .iter()
        .map(|(_, l)| l.chars().count())
        .max()
        .unwrap_or(0) as i32;
    // 0.62 em per character is wider than sans-serif fonts' average: the box fits.
    let width = 48 + longest * font * 62 / 100;
    let height = 12 + lines.len() as i32 * (font + 8);
    let (x0, y0) = (130, 55);
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + width, y0 + height)],
        WHITE.mix(0.9).filled(),
    ))?;
    root.draw(&Rectangle::new(
        [(x0, y0), (x0 + width, y0 + height)],
        BLACK.stroke_width(1),
    ))?;
    for (i, (colour, text)) in lines.iter().enumerate() {
        let y = y0 + 8 + i as i32 * (font + 8) + font / 2;
        if let Some(colour) = colour {
            root.draw(&PathElement::new(
                vec![(x0 + 10, y), (x0 + 34, y)],
                colour.stroke_width(3),
            ))?;
        }
        root.draw(&Text::new(
            text.clone(),
            (x0 + 42, y - font / 2),
            ("sans-serif", LEGEND_FONT).into_font(),
        ))?;
    }
    Ok(())
}

/// The labelled values of a log axis from `lo` to `hi`: 1, 2 and 5 times each power of
/// ten over up to four decades, the powers of ten alone over more.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let steps: &[f64] = if hi / lo <= 1e4 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let mut ticks = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        ticks.extend(
            steps
                .iter()
                .map(|s| s * decade)
                .filter(|t| (lo..=hi).contains(t)),
        );
        decade *= 10.0;
    }
    ticks
}

/// A y-axis label: a duration with its unit (`250 ms`), or a count with a metric
/// prefix (`16M`).
fn axis_value(measure: Measure, y: f64) -> String {
    let trim = |v: f64| {
        let text = format!("{v:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let scaled = |units: &[(f64, &str)]| {
        let (scale, unit) = units
            .iter()
            .find(|(scale, _)| y >= *scale * 0.999_999)
            .unwrap_or(&units[units.len() - 1]);
        format!("{}{unit}", trim(y / scale))
    };
    match measure {
        Measure::Time => scaled(&[(1.0, " s"), (1e-3, " ms"), (1e-6, " µs"), (1e-9, " ns")]),
        Measure::Instructions => {
            scaled(&[(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_regions_follow_the_rows() {
        let report = super::super::load::parse(include_str!(
            "../../../tests/data/bench-schema3-engines.json"
        ))
        .unwrap();
        let regions = engine_regions(&[("r", &report)]);
        let names: Vec<&str> = regions.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(names, ["backtrack", "join", "backtrack"]);
        assert_eq!((regions[1].0, regions[1].1), (11.5, 12.5));
    }

    #[test]
    fn ticks() {
        let t = log_ticks(0.0003, 0.03);
        assert_eq!(t.len(), 6, "{t:?}");
        assert!(
            (t[0] - 0.0005).abs() < 1e-12 && (t[5] - 0.02).abs() < 1e-12,
            "{t:?}"
        );
        assert_eq!(log_ticks(1.0, 1e6).len(), 7);
    }

    #[test]
    fn axis_labels() {
        assert_eq!(axis_value(Measure::Time, 1.0), "1 s");
        assert_eq!(axis_value(Measure::Time, 0.01), "10 ms");
        assert_eq!(axis_value(Measure::Time, 0.0001), "100 µs");
        assert_eq!(axis_value(Measure::Time, 2.5e-9), "2.5 ns");
        assert_eq!(axis_value(Measure::Instructions, 1e7), "10M");
        assert_eq!(axis_value(Measure::Instructions, 1e3), "1k");
        assert_eq!(axis_value(Measure::Instructions, 10.0), "10");
    }
}
