//! The win-rate graph of a review as an SVG picture (through `plotters`' SVG backend): move
//! number across, Black's win rate up (the area under the curve dark, Black's share), each
//! side's mistakes marked where they left the game.

use plotters::prelude::*;

use super::Review;
use crate::board::Color as Stone;

/// Picture size in pixels.
const SIZE: (u32, u32) = (960, 480);

/// The graph of `review` as SVG text, titled `title`.
pub fn svg(review: &Review, title: &str) -> Result<String, String> {
    let mut text = String::new();
    draw(review, title, &mut text).map_err(|e| format!("cannot draw the graph: {e}"))?;
    Ok(text)
}

fn draw(review: &Review, title: &str, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let last = (review.positions.len().max(2) - 1) as f64;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..last, 0.0..100.0)?;
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("Black's win rate (%)")
        .y_labels(11)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(WHITE)
        .draw()?;
    let points: Vec<(f64, f64)> = review
        .positions
        .iter()
        .enumerate()
        .map(|(i, e)| (i as f64, 100.0 * e.black_winrate))
        .collect();
    chart.draw_series(
        AreaSeries::new(points.iter().copied(), 0.0, BLACK.mix(0.25)).border_style(BLACK),
    )?;
    chart.draw_series(LineSeries::new(
        [(0.0, 50.0), (last, 50.0)],
        RGBColor(120, 120, 120).stroke_width(1),
    ))?;
    for color in Stone::BOTH {
        let style = match color {
            Stone::Black => RED.filled(),
            Stone::White => RED.stroke_width(2),
        };
        let marks: Vec<(f64, f64)> = review
            .moves
            .iter()
            .filter(|m| m.blunder && m.color == color)
            .map(|m| points[m.number])
            .collect();
        chart
            .draw_series(marks.into_iter().map(|p| Circle::new(p, 5, style)))?
            .label(match color {
                Stone::Black => "Black's mistakes",
                Stone::White => "White's mistakes",
            })
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, style));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    root.present()?;
    Ok(())
}
