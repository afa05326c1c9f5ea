//! The Activation map over context length (x, log scale, 8K to 2M) and threshold_pct (y, 0 to
//! 100) for the servers now on, with the current setting marked: where the seed gate activates,
//! or which form the listing takes (releases from 0.20.0).
//!
//! Row `r` of `h` stands for threshold_pct `100 * (1 - r / (h - 1))` and column `c` of `w` for
//! the context `8K * (2M / 8K)^(c / (w - 1))`, so the axis labels and the marker sit exactly
//! on the cells they name.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Widget};
use ratatui::Frame;

use crate::app::App;
use crate::view::{pane_block, theme};
use schematax_engine::nouns::config::Mode;
use schematax_engine::replay::activation::{is_active, CONTEXT_PRESETS};
use schematax_engine::replay::listing::{listing_budget, ListingForm};
use schematax_report::context_label;

/// Smallest and largest context length of the x axis.
const X_RANGE: (u64, u64) = (
    CONTEXT_PRESETS[0],
    CONTEXT_PRESETS[CONTEXT_PRESETS.len() - 1],
);
/// Width of the y-axis labels ("100%").
const Y_LABEL: u16 = 5;

/// What a cell of the map shows.
#[derive(Debug, Clone, PartialEq)]
pub enum MapKind {
    /// The seed gate's verdict.
    Gate {
        /// auto / on / off.
        mode: Mode,
        /// chars/4 tokens of the deferrable schemas.
        deferrable_tokens: u64,
    },
    /// The newer listing's form.
    Listing {
        /// Whether Tool Search is active at all.
        active: bool,
        /// `listing: off`.
        listing_off: bool,
        /// `listing_max_tokens`.
        listing_max_tokens: u32,
        /// The least budget of each form, increasing.
        form_budgets: Vec<(ListingForm, u64)>,
    },
}

/// The map as a widget.
pub struct ActivationMap {
    /// What the cells show.
    pub kind: MapKind,
    /// Current context length (marked when on the axis).
    pub context_length: u64,
    /// Current threshold_pct.
    pub threshold_pct: f64,
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let activation = &app.derived.activation;
    let settings = app.session.settings();
    let (kind, title) = match activation.threshold_tokens {
        Some(_) => (
            MapKind::Gate {
                mode: activation.mode,
                deferrable_tokens: activation.deferrable_tokens,
            },
            "Activation map",
        ),
        None => (
            MapKind::Listing {
                active: activation.active,
                listing_off: settings.listing == Mode::Off,
                listing_max_tokens: settings.listing_max_tokens,
                form_budgets: app.derived.form_budgets.clone(),
            },
            "Listing map",
        ),
    };
    // The listing's legend goes in the title, as long a one as fits.
    let room = (area.width as usize).saturating_sub(4);
    let title = match title {
        "Listing map" => [
            "Listing map █full ▓names ▒mixed ░groups",
            "Listing █full ▓names ▒mixed ░groups",
            "Listing █F ▓N ▒M ░G (full names mixed groups)",
            "Listing █full ▓names ▒mixed ░grp",
            "Listing █F ▓N ▒M ░G",
        ]
        .into_iter()
        .find(|t| schematax_engine::text::width(t) <= room)
        .unwrap_or("Listing")
        .to_string(),
        other => other.to_string(),
    };
    let block: Block = pane_block(&title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let map = ActivationMap {
        kind,
        context_length: activation.context.tokens,
        threshold_pct: activation.threshold_pct,
    };
    frame.render_widget(map, inner);
}

impl ActivationMap {
    /// Context length at plot column `column` of `width` (log scale, both ends included).
    fn context_at(column: u16, width: u16) -> u64 {
        let (low, high) = (X_RANGE.0 as f64, X_RANGE.1 as f64);
        let t = f64::from(column) / f64::from(width.saturating_sub(1).max(1));
        (low.ln() + t * (high.ln() - low.ln())).exp().round() as u64
    }

    /// The plot column nearest a context length.
    fn column_of(context: u64, width: u16) -> u16 {
        let (low, high) = (X_RANGE.0 as f64, X_RANGE.1 as f64);
        let t = ((context as f64).ln() - low.ln()) / (high.ln() - low.ln());
        let last = f64::from(width.saturating_sub(1));
        (t * last).round().clamp(0.0, last) as u16
    }

    /// threshold_pct at plot row `row` of `height` (row 0 is 100%, the last row 0%).
    fn pct_at(row: u16, height: u16) -> f64 {
        100.0 * (1.0 - f64::from(row) / f64::from(height.saturating_sub(1).max(1)))
    }

    /// The plot row nearest a threshold_pct.
    fn row_of(pct: f64, height: u16) -> u16 {
        let last = f64::from(height.saturating_sub(1));
        ((100.0 - pct) / 100.0 * last).round().clamp(0.0, last) as u16
    }

    /// Where the current setting goes: the nearest cell, or the next one over when that cell
    /// shows the setting's own verdict (or form) and the nearest does not.
    fn marker(&self, width: u16, height: u16) -> Option<(u16, u16)> {
        if !(X_RANGE.0..=X_RANGE.1).contains(&self.context_length) {
            return None;
        }
        let here = self.cell(self.context_length, self.threshold_pct).0;
        let exact_row = (100.0 - self.threshold_pct) / 100.0 * f64::from(height - 1);
        let (low, high) = (X_RANGE.0 as f64, X_RANGE.1 as f64);
        let exact_column = ((self.context_length as f64).ln() - low.ln()) / (high.ln() - low.ln())
            * f64::from(width - 1);
        let mut candidates: Vec<(u16, u16)> = Vec::new();
        for column in [
            exact_column.round(),
            exact_column.floor(),
            exact_column.ceil(),
        ] {
            for row in [exact_row.round(), exact_row.floor(), exact_row.ceil()] {
                let cell = (column as u16, row as u16);
                if !candidates.contains(&cell) {
                    candidates.push(cell);
                }
            }
        }
        candidates
            .iter()
            .copied()
            .find(|&(c, r)| {
                self.cell(Self::context_at(c, width), Self::pct_at(r, height))
                    .0
                    == here
            })
            .or(candidates.first().copied())
    }

    /// The symbol and style of the cell at `context` and `pct`.
    fn cell(&self, context: u64, pct: f64) -> (&'static str, Style) {
        match &self.kind {
            MapKind::Gate {
                mode,
                deferrable_tokens,
            } => {
                if is_active(*mode, *deferrable_tokens, context, pct) {
                    ("█", theme::GOOD)
                } else {
                    ("·", theme::DIM)
                }
            }
            MapKind::Listing {
                active,
                listing_off,
                listing_max_tokens,
                form_budgets,
            } => {
                let form = if !active || *listing_off {
                    ListingForm::None
                } else {
                    let budget = listing_budget(*listing_max_tokens, context, pct);
                    form_budgets
                        .iter()
                        .take_while(|(_, least)| *least <= budget)
                        .last()
                        .map_or(ListingForm::None, |(form, _)| *form)
                };
                theme::listing_form(form)
            }
        }
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
        for row in 0..plot.height {
            let pct = Self::pct_at(row, plot.height);
            for column in 0..plot.width {
                let (symbol, style) = self.cell(Self::context_at(column, plot.width), pct);
                buf[(plot.x + column, plot.y + row)]
                    .set_symbol(symbol)
                    .set_style(style);
            }
        }
        for pct in [100.0, 50.0, 0.0] {
            let row = Self::row_of(pct, plot.height);
            buf.set_string(
                area.x,
                plot.y + row,
                format!("{:>3}%", pct as u32),
                theme::DIM,
            );
        }
        let axis_y = plot.y + plot.height;
        buf.set_string(plot.x, axis_y, "─".repeat(plot.width as usize), theme::DIM);
        // Both ends first, then the middle labels that touch none already placed (a narrow
        // plot leaves some out rather than run them together).
        let mut placed: Vec<(u16, u16)> = Vec::new();
        for context in [8_000, 2_000_000, 128_000, 32_000, 400_000] {
            let label = context_label(context);
            let column = Self::column_of(context, plot.width);
            let x = (plot.x + column).min(plot.x + plot.width - label.len() as u16);
            let end = x + label.len() as u16;
            if placed.iter().any(|&(from, to)| x <= to && from <= end) {
                continue;
            }
            buf.set_string(x, axis_y + 1, &label, theme::DIM);
            placed.push((x, end));
        }
        if let Some((column, row)) = self.marker(plot.width, plot.height) {
            buf[(plot.x + column, plot.y + row)]
                .set_symbol("◆")
                .set_style(theme::MARK);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_are_monotonic_and_invert() {
        assert_eq!(ActivationMap::context_at(0, 30), X_RANGE.0);
        assert_eq!(ActivationMap::context_at(29, 30), X_RANGE.1);
        assert_eq!(ActivationMap::column_of(X_RANGE.0, 30), 0);
        assert_eq!(ActivationMap::column_of(X_RANGE.1, 30), 29);
        assert_eq!(ActivationMap::pct_at(0, 11), 100.0);
        assert_eq!(ActivationMap::pct_at(5, 11), 50.0);
        assert_eq!(ActivationMap::pct_at(10, 11), 0.0);
        for row in 0..11 {
            assert_eq!(
                ActivationMap::row_of(ActivationMap::pct_at(row, 11), 11),
                row
            );
        }
        for column in 0..30 {
            assert_eq!(
                ActivationMap::column_of(ActivationMap::context_at(column, 30), 30),
                column
            );
        }
    }

    #[test]
    fn the_marker_sits_on_the_row_of_its_threshold() {
        // 10% on an 11-row plot is row 9 (the row of 10%), not row 8 or 10.
        assert_eq!(ActivationMap::row_of(10.0, 11), 9);
        assert_eq!(
            ActivationMap::row_of(5.0, 11),
            10,
            "5% rounds to the 0% row"
        );
        assert_eq!(
            ActivationMap::row_of(15.0, 11),
            9,
            "15% rounds to the 10% row"
        );
    }

    #[test]
    fn the_marker_sits_on_a_cell_that_agrees_with_the_setting() {
        // 20,226 tokens at 200K and 10% is active; on 17 rows the nearest row (12.5%) is not,
        // so the marker takes the next row over (6.25%), which is.
        let map = ActivationMap {
            kind: MapKind::Gate {
                mode: Mode::Auto,
                deferrable_tokens: 20_226,
            },
            context_length: 200_000,
            threshold_pct: 10.0,
        };
        let (column, row) = map.marker(34, 17).unwrap();
        assert_eq!(row, 15);
        let cell = map.cell(
            ActivationMap::context_at(column, 34),
            ActivationMap::pct_at(row, 17),
        );
        assert_eq!(cell.0, "█");
    }

    #[test]
    fn cells_follow_the_gate() {
        let map = ActivationMap {
            kind: MapKind::Gate {
                mode: Mode::Auto,
                deferrable_tokens: 20_182,
            },
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

    #[test]
    fn listing_cells_show_the_form_of_their_budget() {
        let map = ActivationMap {
            kind: MapKind::Listing {
                active: true,
                listing_off: false,
                listing_max_tokens: 4000,
                form_budgets: vec![
                    (ListingForm::None, 0),
                    (ListingForm::Groups, 100),
                    (ListingForm::Names, 1000),
                    (ListingForm::Full, 3000),
                ],
            },
            context_length: 0,
            threshold_pct: 5.0,
        };
        assert_eq!(map.cell(200_000, 0.0).0, "·");
        assert_eq!(map.cell(200_000, 0.1).0, "░", "a 200-token budget");
        assert_eq!(map.cell(200_000, 1.0).0, "▓", "2,000 tokens");
        assert_eq!(map.cell(200_000, 50.0).0, "█", "capped at 4,000");
        assert_eq!(map.cell(8_000, 5.0).0, "░", "400 tokens");
    }
}
