//! The Activation map: where Tool Search is active over context length (x, log scale, 8K to
//! 2M) and threshold_pct (y, 0 to 100) for the current servers, with the current setting marked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::{Block, Widget};
use ratatui::Frame;

use super::pane_block;
use crate::engine::activation::{is_active, CONTEXT_PRESETS};
use crate::engine::config::Mode;
use crate::report::context_label;
use crate::tui::app::App;

/// Smallest and largest context length of the x axis.
const X_RANGE: (u64, u64) = (
    CONTEXT_PRESETS[0],
    CONTEXT_PRESETS[CONTEXT_PRESETS.len() - 1],
);
/// Width of the y-axis labels ("100%").
const Y_LABEL: u16 = 5;

/// The map as a widget over the gate's inputs.
pub struct ActivationMap {
    /// auto / on / off.
    pub mode: Mode,
    /// chars/4 tokens of the deferrable schemas.
    pub deferrable_tokens: u64,
    /// Current context length (marked when on the axis).
    pub context_length: u64,
    /// Current threshold_pct.
    pub threshold_pct: f64,
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let activation = app.session.activation();
    let block: Block = pane_block("Activation map", false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let map = ActivationMap {
        mode: activation.mode,
        deferrable_tokens: activation.deferrable_tokens,
        context_length: activation.context.tokens,
        threshold_pct: activation.threshold_pct,
    };
    frame.render_widget(map, inner);
}

impl ActivationMap {
    /// Context length at plot column `column` of `width` (log scale, column centres).
    fn context_at(column: u16, width: u16) -> u64 {
        let (low, high) = (X_RANGE.0 as f64, X_RANGE.1 as f64);
        let t = (f64::from(column) + 0.5) / f64::from(width);
        (low.ln() + t * (high.ln() - low.ln())).exp().round() as u64
    }

    /// The plot column of a context length.
    fn column_of(context: u64, width: u16) -> u16 {
        let (low, high) = (X_RANGE.0 as f64, X_RANGE.1 as f64);
        let t = ((context as f64).ln() - low.ln()) / (high.ln() - low.ln());
        ((t * f64::from(width)).floor().max(0.0) as u16).min(width.saturating_sub(1))
    }

    /// threshold_pct at plot row `row` of `height` (row 0 is 100%, row centres).
    fn pct_at(row: u16, height: u16) -> f64 {
        100.0 * (1.0 - (f64::from(row) + 0.5) / f64::from(height))
    }

    /// The plot row of a threshold_pct.
    fn row_of(pct: f64, height: u16) -> u16 {
        let from_top = ((100.0 - pct) / 100.0 * f64::from(height)).floor().max(0.0) as u16;
        from_top.min(height.saturating_sub(1))
    }
}

impl Widget for ActivationMap {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < Y_LABEL + 8 || area.height < 4 {
            return;
        }
        let plot = Rect::new(
            area.x + Y_LABEL,
            area.y,
            area.width - Y_LABEL,
            area.height - 2,
        );
        let active_style = Style::new().fg(Color::Green);
        let inactive_style = Style::new().fg(Color::DarkGray);
        for row in 0..plot.height {
            let pct = Self::pct_at(row, plot.height);
            for column in 0..plot.width {
                let context = Self::context_at(column, plot.width);
                let active = is_active(self.mode, self.deferrable_tokens, context, pct);
                let (symbol, style) = if active {
                    ("█", active_style)
                } else {
                    ("·", inactive_style)
                };
                buf[(plot.x + column, plot.y + row)]
                    .set_symbol(symbol)
                    .set_style(style);
            }
        }
        for (row, label) in [
            (0, "100%"),
            (plot.height / 2, " 50%"),
            (plot.height - 1, "  0%"),
        ] {
            buf.set_string(
                area.x,
                plot.y + row,
                label,
                Style::new().fg(Color::DarkGray),
            );
        }
        let axis_y = plot.y + plot.height;
        buf.set_string(
            plot.x,
            axis_y,
            "─".repeat(plot.width as usize),
            Style::new().fg(Color::DarkGray),
        );
        for context in [8_192, 32_768, 128_000, 400_000, 2_000_000] {
            let label = context_label(context);
            let column = Self::column_of(context, plot.width);
            let x = (plot.x + column).min(plot.x + plot.width - label.len() as u16);
            buf.set_string(x, axis_y + 1, &label, Style::new().fg(Color::DarkGray));
        }
        if (X_RANGE.0..=X_RANGE.1).contains(&self.context_length) {
            let x = plot.x + Self::column_of(self.context_length, plot.width);
            let y = plot.y + Self::row_of(self.threshold_pct, plot.height);
            buf[(x, y)]
                .set_symbol("◆")
                .set_style(Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_are_monotonic_and_invert() {
        assert!(ActivationMap::context_at(0, 30) >= X_RANGE.0);
        assert!(ActivationMap::context_at(29, 30) <= X_RANGE.1);
        assert_eq!(ActivationMap::column_of(X_RANGE.0, 30), 0);
        assert_eq!(ActivationMap::column_of(X_RANGE.1, 30), 29);
        assert_eq!(ActivationMap::row_of(100.0, 10), 0);
        assert_eq!(ActivationMap::row_of(0.0, 10), 9);
        for column in 0..30 {
            assert_eq!(
                ActivationMap::column_of(ActivationMap::context_at(column, 30), 30),
                column
            );
        }
    }

    #[test]
    fn cells_follow_the_gate() {
        let map = ActivationMap {
            mode: Mode::Auto,
            deferrable_tokens: 20_182,
            context_length: 200_000,
            threshold_pct: 10.0,
        };
        let area = Rect::new(0, 0, 30, 12);
        let mut buf = Buffer::empty(area);
        map.render(area, &mut buf);
        let plot_height = area.height - 2;
        for row in 0..plot_height {
            for column in 0..area.width - Y_LABEL {
                let expected = is_active(
                    Mode::Auto,
                    20_182,
                    ActivationMap::context_at(column, area.width - Y_LABEL),
                    ActivationMap::pct_at(row, plot_height),
                );
                let symbol = buf[(Y_LABEL + column, row)].symbol();
                assert!(
                    symbol == "◆" || (symbol == "█") == expected,
                    "row {row} column {column}: {symbol}"
                );
            }
        }
    }
}
