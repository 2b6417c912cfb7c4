//! A game's winning chances as an SVG chart (`menhir annotate --plot`): White's expected score
//! `E = W + D/2` after every ply, 0 to 100 %, against the ply number, one point a ply joined by a
//! line. A point is a circle whose colour and size say the ply's mark: plain for none, green `!`,
//! orange `?`, red `??`; the legend, in a row under the chart, shows each as a square, so the
//! circles are exactly the game's points, in ply order. Drawn with plotters' SVG backend, text as SVG `<text>` (no
//! font files).

use super::game::AnnotatedPly;
use super::marks::Judgement;
use crate::core::{Color, GameRecord};
use plotters::prelude::*;
// The prelude's `Color` trait, hidden by the side to move of the same name.
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;

/// Width and height of the chart, in SVG pixels.
const SIZE: (u32, u32) = (900, 500);
/// Height of the legend's row under the chart.
const LEGEND_HEIGHT: u32 = 36;
/// The line through the points.
const LINE: RGBColor = RGBColor(0x9E, 0xB9, 0xD4);

/// The fill of a ply's point, `[r, g, b]`, by its mark: [`plot_svg`] writes it as the circle's
/// `fill="#RRGGBB"`, and the legend square of the mark in the same colour.
pub fn marker_colour(judgement: Option<Judgement>) -> [u8; 3] {
    match judgement {
        None => [0x1F, 0x4E, 0x9C],
        Some(Judgement::Good) => [0x2C, 0xA0, 0x2C],
        Some(Judgement::Mistake) => [0xFF, 0x8C, 0x00],
        Some(Judgement::Blunder) => [0xD6, 0x27, 0x28],
    }
}

/// The radius of a ply's point: marked plies stand out.
fn marker_radius(judgement: Option<Judgement>) -> u32 {
    match judgement {
        None => 3,
        Some(Judgement::Good | Judgement::Mistake) => 6,
        Some(Judgement::Blunder) => 7,
    }
}

/// The legend's entries for the points, in order.
const LEGEND: [(Option<Judgement>, &str); 4] = [
    (None, "move"),
    (Some(Judgement::Good), "! better than the engine"),
    (Some(Judgement::Mistake), "? mistake"),
    (Some(Judgement::Blunder), "?? blunder"),
];

/// White's winning chances (0 to 1) after each ply: the mover's expected score after the ply,
/// from White's side.
pub fn white_chances(plies: &[AnnotatedPly]) -> Vec<f64> {
    plies
        .iter()
        .map(|p| match p.mover {
            Color::White => p.after,
            Color::Black => 1.0 - p.after,
        })
        .collect()
}

/// The SVG text of the chart of `record` with `plies` (one per ply of the record), titled
/// `title`. A game without plies gives the empty chart.
pub fn plot_svg(
    record: &GameRecord,
    plies: &[AnnotatedPly],
    title: &str,
) -> Result<String, String> {
    let first_ply = record.start_position().map_or(0, |p| p.ply()) as i64;
    let points: Vec<(i64, f64, Option<Judgement>)> = white_chances(plies)
        .into_iter()
        .zip(plies)
        .enumerate()
        .map(|(i, (chance, ply))| {
            (
                first_ply + 1 + i as i64,
                100.0 * chance,
                ply.marks.judgement,
            )
        })
        .collect();
    let last_ply = first_ply + (plies.len() as i64).max(1);
    let mut svg = String::new();
    draw(&mut svg, title, first_ply..last_ply, &points)
        .map_err(|e| format!("cannot draw the plot: {e}"))?;
    Ok(svg)
}

type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

fn draw(
    svg: &mut String,
    title: &str,
    plies: std::ops::Range<i64>,
    points: &[(i64, f64, Option<Judgement>)],
) -> DrawResult {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    // The legend in a row of its own under the chart, where it hides no point.
    let (upper, lower) = root.split_vertically(SIZE.1 - LEGEND_HEIGHT);
    let mut chart = ChartBuilder::on(&upper)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(plies, 0f64..100f64)?;
    chart
        .configure_mesh()
        .x_desc("ply")
        .y_desc("White's winning chances (%)")
        .y_labels(11)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()?;
    chart.draw_series(LineSeries::new(
        points.iter().map(|&(x, y, _)| (x, y)),
        LINE.stroke_width(2),
    ))?;
    chart.draw_series(points.iter().map(|&(x, y, judgement)| {
        Circle::new((x, y), marker_radius(judgement), fill(judgement))
    }))?;
    draw_legend(&lower)?;
    root.present()?;
    Ok(())
}

/// The legend row: the line, then a square (not a circle: circles are the points only) of each
/// mark's colour and size, each followed by its label.
fn draw_legend(area: &DrawingArea<SVGBackend, plotters::coord::Shift>) -> DrawResult {
    let text = TextStyle::from(("sans-serif", 14).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    let middle = LEGEND_HEIGHT as i32 / 2;
    let label_top = middle - 14 / 2;
    let mut x = 72;
    let label = |x: &mut i32, label: &str| -> DrawResult {
        area.draw(&Text::new(label, (*x, label_top), text.clone()))?;
        let (width, _) = area.estimate_text_size(label, &text)?;
        *x += width as i32 + 28;
        Ok(())
    };
    area.draw(&PathElement::new(
        [(x, middle), (x + 18, middle)],
        LINE.stroke_width(2),
    ))?;
    x += 24;
    label(&mut x, "White's winning chances")?;
    for (judgement, name) in LEGEND {
        let size = marker_radius(judgement) as i32;
        area.draw(&Rectangle::new(
            [(x + 7 - size, middle - size), (x + 7 + size, middle + size)],
            fill(judgement),
        ))?;
        x += 20;
        label(&mut x, name)?;
    }
    Ok(())
}

/// The filled style of a ply's point by its mark.
fn fill(judgement: Option<Judgement>) -> ShapeStyle {
    let [r, g, b] = marker_colour(judgement);
    RGBColor(r, g, b).filled()
}
