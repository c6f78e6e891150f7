//! [`Plot`]: a line chart as data, drawn to SVG with the `plotters` crate.

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use crate::LabError;

/// What the x axis shows.
#[derive(Clone, Debug, PartialEq)]
pub enum XAxis {
    /// Numbers (a depth, a slot count); ticks at the points' x values.
    Numeric,
    /// Named categories at x = 0, 1, 2, ... (orderings, configurations).
    Categories(Vec<String>),
}

/// One line of a plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's label.
    pub label: String,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
    /// A reference line (a bound, a baseline): dashed, with hollow markers, so that a
    /// measured line lying on it stays visible.
    pub reference: bool,
}

/// Where a plot's legend stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legend {
    /// Top left (for rising lines).
    #[default]
    UpperLeft,
    /// Top right (for falling lines).
    UpperRight,
    /// Middle right.
    MiddleRight,
}

impl Series {
    /// A measured line.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            label: label.into(),
            points,
            reference: false,
        }
    }

    /// A reference line (a bound, a baseline).
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            reference: true,
            ..Series::new(label, points)
        }
    }
}

/// A line chart with markers, one line per series.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The file stem (`nodes-plain`).
    pub name: String,
    /// The chart's caption.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// What x means.
    pub x_axis: XAxis,
    /// A logarithmic y axis (points with y <= 0 are left out).
    pub log_y: bool,
    /// The lines.
    pub series: Vec<Series>,
    /// Where the legend goes.
    pub legend: Legend,
}

/// Image size in pixels.
const SIZE: (u32, u32) = (960, 600);

/// Distinct colours for up to ten series (then they repeat).
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Draws `plot` as an SVG document.
pub fn render_svg(plot: &Plot) -> Result<String, LabError> {
    let points = || {
        plot.series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(|&(_, y)| y.is_finite() && (!plot.log_y || y > 0.0))
    };
    let (mut x_min, mut x_max) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut y_min, mut y_max) = (f64::INFINITY, f64::NEG_INFINITY);
    for (x, y) in points() {
        x_min = x_min.min(x);
        x_max = x_max.max(x);
        y_min = y_min.min(y);
        y_max = y_max.max(y);
    }
    if let XAxis::Categories(names) = &plot.x_axis {
        x_min = 0.0;
        x_max = names.len().saturating_sub(1) as f64;
    }
    if !x_min.is_finite() {
        (x_min, x_max, y_min, y_max) = (0.0, 1.0, 1.0, 10.0);
    }
    let x_pad = ((x_max - x_min) * 0.04).max(0.5);
    let x_range = (x_min - x_pad)..(x_max + x_pad);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        if plot.log_y {
            // Start at a power of ten: the axis labels each decade from its first power up.
            // (Just below it: plotters finds the first power by rounding a logarithm up.)
            let low = 10f64.powf((y_min / 1.2).log10().floor()) * 0.999;
            let y_range = low..(y_max * 1.5);
            draw(plot, &root, x_range, y_range.log_scale())?;
        } else {
            // Counts and shares start from zero, so that heights compare honestly.
            let pad = ((y_max - y_min.min(0.0)) * 0.08).max(0.5);
            let low = if y_min >= 0.0 { 0.0 } else { y_min - pad };
            draw(plot, &root, x_range, low..(y_max + pad))?;
        }
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn draw<Y>(
    plot: &Plot,
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    x_range: std::ops::Range<f64>,
    y_range: Y,
) -> Result<(), LabError>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(root)
        .caption(&plot.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(90)
        .build_cartesian_2d(x_range, y_range)
        .map_err(draw_error)?;
    let categories = match &plot.x_axis {
        XAxis::Categories(names) => Some(names.clone()),
        XAxis::Numeric => None,
    };
    let mut ticks: Vec<f64> = plot
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    ticks.sort_by(f64::total_cmp);
    ticks.dedup();
    let x_format = |x: &f64| -> String {
        match &categories {
            Some(names) => {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            }
            None if ticks.iter().any(|t| (t - x).abs() < 1e-6) || ticks.len() > 24 => {
                format_number(*x)
            }
            None => String::new(),
        }
    };
    let label_count = match &categories {
        Some(names) => names.len().max(2) * 4 - 3,
        None => ticks.len().clamp(2, 24) * 4,
    };
    chart
        .configure_mesh()
        .x_desc(&plot.x_label)
        .y_desc(&plot.y_label)
        .x_labels(label_count)
        .x_label_formatter(&x_format)
        .y_label_formatter(&|y| format_number(*y))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(draw_error)?;
    for (i, series) in plot.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let pts: Vec<(f64, f64)> = series
            .points
            .iter()
            .copied()
            .filter(|&(_, y)| y.is_finite() && (!plot.log_y || y > 0.0))
            .collect();
        let legend = move |(x, y): (i32, i32)| {
            PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
        };
        if series.reference {
            chart
                .draw_series(DashedLineSeries::new(
                    pts.clone(),
                    8,
                    5,
                    colour.stroke_width(2),
                ))
                .map_err(draw_error)?
                .label(&series.label)
                .legend(legend);
            chart
                .draw_series(
                    pts.iter()
                        .map(|&p| Circle::new(p, 6, colour.stroke_width(2))),
                )
                .map_err(draw_error)?;
        } else {
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(draw_error)?
                .label(&series.label)
                .legend(legend);
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(draw_error)?;
        }
    }
    chart
        .configure_series_labels()
        .position(match plot.legend {
            Legend::UpperLeft => SeriesLabelPosition::UpperLeft,
            Legend::UpperRight => SeriesLabelPosition::UpperRight,
            Legend::MiddleRight => SeriesLabelPosition::MiddleRight,
        })
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(draw_error)?;
    Ok(())
}

/// A number for an axis: integers plainly (with `k`, `M`, `G` when large), others with up to
/// three significant digits.
fn format_number(v: f64) -> String {
    let a = v.abs();
    let short = |x: f64, unit: &str| {
        let text = format!("{x:.3}");
        format!("{}{unit}", text.trim_end_matches('0').trim_end_matches('.'))
    };
    if a >= 1e9 {
        short(v / 1e9, "G")
    } else if a >= 1e6 {
        short(v / 1e6, "M")
    } else if a >= 1e4 {
        short(v / 1e3, "k")
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        short(v, "")
    }
}

fn draw_error<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> LabError {
    LabError::Plot(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(log_y: bool, x_axis: XAxis) -> Plot {
        Plot {
            name: "p".into(),
            title: "Nodes & depth <test>".into(),
            x_label: "depth".into(),
            y_label: "nodes".into(),
            x_axis,
            log_y,
            series: vec![
                Series {
                    label: "alphabeta".into(),
                    points: vec![(2.0, 10.0), (3.0, 100.0), (4.0, 1000.0)],
                    reference: false,
                },
                Series {
                    label: "zero".into(),
                    points: vec![(2.0, 0.0), (3.0, 5.0)],
                    reference: true,
                },
            ],
            legend: Legend::default(),
        }
    }

    #[test]
    fn svg_is_well_formed_on_both_scales() {
        for log_y in [false, true] {
            for axis in [
                XAxis::Numeric,
                XAxis::Categories(vec!["a".into(), "b".into(), "c".into()]),
            ] {
                let svg = render_svg(&sample(log_y, axis)).unwrap();
                let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
                assert_eq!(doc.root_element().tag_name().name(), "svg");
                assert!(svg.contains("alphabeta"));
            }
        }
    }

    #[test]
    fn axis_numbers() {
        assert_eq!(format_number(8.0), "8");
        assert_eq!(format_number(12_000.0), "12k");
        assert_eq!(format_number(2_500_000.0), "2.5M");
        assert_eq!(format_number(1e9), "1G");
        assert_eq!(format_number(0.25), "0.25");
        assert_eq!(format_number(0.1), "0.1");
    }
}
