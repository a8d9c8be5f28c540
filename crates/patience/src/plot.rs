//! Win rates drawn as an SVG chart, written by hand: one bar a game for the win rate (unknown deals counted as
//! losses), its conservative 95 % interval as an error bar, and where undecided deals were solved again
//! (`--resolve`) the rate estimated with them as a diamond with its own interval, on an axis from 0 to 100 %.

use std::fmt::Write;

use patience_solver::stats::{Summary, WinRate};

/// Height of the plotting area, in pixels.
const PLOT_HEIGHT: f64 = 300.0;
/// Width given to each game.
const SLOT: f64 = 90.0;
/// The narrowest chart, so that the title and the note under it fit.
const MIN_WIDTH: f64 = 620.0;
/// Margins around the plotting area: left, right, top, bottom.
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 80.0;
const BOTTOM: f64 = 110.0;

/// The chart of these games' win rates, with `title` above it, as the text of an SVG file; `estimates[g]`, if
/// there is one, is game `g`'s win rate estimated with undecided deals solved again.
pub fn win_rates(summaries: &[Summary], estimates: &[Option<&WinRate>], title: &str) -> String {
    let games = summaries.len().max(1) as f64;
    let width = (LEFT + RIGHT + SLOT * games).max(MIN_WIDTH);
    // The games' slots, centred in the plotting area.
    let first_slot = LEFT + (width - LEFT - RIGHT - SLOT * games) / 2.0;
    let height = TOP + PLOT_HEIGHT + BOTTOM;
    let y = |rate: f64| TOP + PLOT_HEIGHT * (1.0 - rate.clamp(0.0, 1.0));
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif" font-size="13">"##
    );
    let _ = writeln!(svg, r##"<rect width="100%" height="100%" fill="white"/>"##);
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="28" text-anchor="middle" font-size="17" font-weight="bold">{}</text>"##,
        width / 2.0,
        escape(title)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="48" text-anchor="middle" font-size="11" fill="#444">Bars: deals won, unknown deals counted as lost. Error bars: conservative 95 % Wilson interval.</text>"##,
        width / 2.0
    );
    if estimates.iter().any(Option::is_some) {
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="64" text-anchor="middle" font-size="11" fill="{ESTIMATE}">Diamonds: win rate estimated with undecided deals solved again, and its 95 % interval.</text>"##,
            width / 2.0
        );
    }
    // Grid lines and tick labels every 10 %.
    for tick in 0..=10 {
        let rate = tick as f64 / 10.0;
        let ty = y(rate);
        let colour = if tick == 0 { "#000" } else { "#ddd" };
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{ty}" x2="{}" y2="{ty}" stroke="{colour}" stroke-width="1"/>"##,
            width - RIGHT
        );
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="end">{}</text>"##,
            LEFT - 8.0,
            ty + 4.0,
            tick * 10
        );
    }
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}" stroke="#000" stroke-width="1"/>"##,
        TOP + PLOT_HEIGHT
    );
    let mid_y = TOP + PLOT_HEIGHT / 2.0;
    let _ = writeln!(
        svg,
        r##"<text x="24" y="{mid_y}" text-anchor="middle" transform="rotate(-90 24 {mid_y})">Win rate (%)</text>"##
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" text-anchor="middle">Game</text>"##,
        LEFT + (width - LEFT - RIGHT) / 2.0,
        height - 12.0
    );
    for (i, summary) in summaries.iter().enumerate() {
        let cx = first_slot + SLOT * (i as f64 + 0.5);
        let rate = &summary.win_rate;
        let top = y(rate.point);
        let _ = writeln!(
            svg,
            r##"<rect x="{}" y="{top}" width="{}" height="{}" fill="#7aa6d6" stroke="#2b5d91"><title>{}: {:.1} % ({:.1} – {:.1} %), {} deals</title></rect>"##,
            cx - SLOT * 0.3,
            SLOT * 0.6,
            TOP + PLOT_HEIGHT - top,
            escape(&summary.game),
            rate.point * 100.0,
            rate.interval.low * 100.0,
            rate.interval.high * 100.0,
            summary.deals
        );
        let (low, high) = (y(rate.interval.low), y(rate.interval.high));
        let cap = SLOT * 0.12;
        let _ = writeln!(
            svg,
            r##"<path d="M{cx} {low} V{high} M{} {low} H{} M{} {high} H{}" stroke="#000" stroke-width="1.5" fill="none"/>"##,
            cx - cap,
            cx + cap,
            cx - cap,
            cx + cap
        );
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}" text-anchor="start" font-size="11">{:.1} %</text>"##,
            cx + 5.0,
            top - 4.0,
            rate.point * 100.0
        );
        if let Some(estimate) = estimates.get(i).copied().flatten() {
            estimate_mark(&mut svg, cx - SLOT * 0.18, estimate, &summary.game, &y);
        }
        let label_y = TOP + PLOT_HEIGHT + 16.0;
        let name_y = label_y + 16.0;
        let _ = writeln!(
            svg,
            r##"<text x="{cx}" y="{name_y}" text-anchor="end" transform="rotate(-35 {cx} {name_y})">{}</text>"##,
            escape(&summary.game)
        );
        let _ = writeln!(
            svg,
            r##"<text x="{cx}" y="{label_y}" text-anchor="middle" font-size="10" fill="#444">n={}</text>"##,
            summary.deals
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// The colour of the estimates.
const ESTIMATE: &str = "#b5460f";

/// A game's estimated win rate at `x` (left of the bar's own interval and label): a diamond at the estimate,
/// labelled on its left, and a line across its interval, with `y` the height of a rate.
fn estimate_mark(
    svg: &mut String,
    x: f64,
    estimate: &WinRate,
    game: &str,
    y: &impl Fn(f64) -> f64,
) {
    let (point, low, high) = (
        y(estimate.point),
        y(estimate.interval.low),
        y(estimate.interval.high),
    );
    let cap = SLOT * 0.06;
    let size = 5.0;
    let _ = writeln!(
        svg,
        r##"<path d="M{x} {low} V{high} M{} {low} H{} M{} {high} H{}" stroke="{ESTIMATE}" stroke-width="1.5" fill="none"/>"##,
        x - cap,
        x + cap,
        x - cap,
        x + cap
    );
    let _ = writeln!(
        svg,
        r##"<path d="M{x} {} L{} {point} L{x} {} L{} {point} Z" fill="{ESTIMATE}" stroke="white" stroke-width="1"><title>{}: estimated {:.1} % ({:.1} – {:.1} %)</title></path>"##,
        point - size,
        x + size,
        point + size,
        x - size,
        escape(game),
        estimate.point * 100.0,
        estimate.interval.low * 100.0,
        estimate.interval.high * 100.0
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="{}" text-anchor="end" font-size="10" fill="{ESTIMATE}" stroke="white" stroke-width="3" paint-order="stroke">{:.1} %</text>"##,
        x - size - 2.0,
        point + 3.5,
        estimate.point * 100.0
    );
}

/// Text made safe for SVG: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
