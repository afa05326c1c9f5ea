//! The Activation map over context length (x, log scale, 8K to 2M) and threshold_pct (y) for
//! the servers now on, with the current setting marked: where the seed gate activates (y from
//! 0 to 100), or which form the listing takes (releases from 0.20.0; y on a log scale over
//! where the forms change, which is at fractions of a percent for a large context).
//!
//! Row `r` of `h` stands for threshold_pct `100 * (1 - r / (h - 1))` (linear) or
//! `high * (low / high)^(r / (h - 1))` (log), and column `c` of `w` for the context
//! `8K * (2M / 8K)^(c / (w - 1))`, so the axis labels and the marker sit exactly on the cells
//! they name.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::{Block, Widget};
use ratatui::Frame;

use crate::app::App;
use crate::view::{pane_block, theme};
use schematax_engine::nouns::config::Mode;
use schematax_engine::replay::activation::{is_active, CONTEXT_PRESETS};
use schematax_engine::replay::listing::{form_thresholds, listing_budget, ListingForm};
use schematax_report::{context_label, pct_label};

/// Smallest and largest context length of the x axis.
const X_RANGE: (u64, u64) = (
    CONTEXT_PRESETS[0],
    CONTEXT_PRESETS[CONTEXT_PRESETS.len() - 1],
);
/// The least threshold_pct of a log axis: the finest step of the keys.
const LOG_AXIS_LOW: f64 = 0.01;

/// The y axis: threshold_pct by plot row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PctAxis {
    /// 0% (the last row) to 100% (the first), evenly.
    Linear,
    /// `low` (the last row) to `high` (the first), a log scale.
    Log {
        /// threshold_pct of the last row.
        low: f64,
        /// threshold_pct of the first row.
        high: f64,
    },
}

impl PctAxis {
    /// The log axis over where the listing's form changes between the map's smallest and
    /// largest context, and over `threshold_pct`: from the least change (at 2M) to the
    /// greatest (at 8K), one step of the 1-2-5 series beyond each, within [0.01, 100].
    pub fn around_changes(
        form_budgets: &[(ListingForm, u64)],
        listing_max_tokens: u32,
        threshold_pct: f64,
    ) -> PctAxis {
        let changes = |context: u64| {
            form_thresholds(form_budgets, listing_max_tokens, context)
                .into_iter()
                .map(|(_, pct)| pct)
                .filter(|&pct| pct > 0.0)
        };
        let current = (threshold_pct > 0.0).then_some(threshold_pct);
        let least = changes(X_RANGE.1)
            .chain(current)
            .fold(f64::INFINITY, f64::min);
        let greatest = changes(X_RANGE.0).chain(current).fold(0.0, f64::max);
        if !least.is_finite() {
            return PctAxis::Log {
                low: LOG_AXIS_LOW,
                high: 100.0,
            };
        }
        // At least a decade, for a single value too.
        let low = nice_value(nice_index(least, false) - 1).max(LOG_AXIS_LOW);
        let high = nice_value(nice_index(greatest, true) + 1)
            .max(low * 10.0)
            .min(100.0);
        PctAxis::Log {
            low: low.min(high / 10.0),
            high,
        }
    }

    /// threshold_pct at plot row `row` of `height` (row 0 is the top).
    fn pct_at(self, row: u16, height: u16) -> f64 {
        let t = f64::from(row) / f64::from(height.saturating_sub(1).max(1));
        match self {
            PctAxis::Linear => 100.0 * (1.0 - t),
            PctAxis::Log { low, high } => (high.ln() - t * (high.ln() - low.ln())).exp(),
        }
    }

    /// The row of `pct` on a plot of `height`, unrounded (beyond the axis: its end).
    fn exact_row(self, pct: f64, height: u16) -> f64 {
        let last = f64::from(height.saturating_sub(1));
        let t = match self {
            PctAxis::Linear => (100.0 - pct) / 100.0,
            PctAxis::Log { low, high } => {
                (high.ln() - pct.clamp(low, high).ln()) / (high.ln() - low.ln())
            }
        };
        (t * last).clamp(0.0, last)
    }

    /// The plot row nearest a threshold_pct.
    fn row_of(self, pct: f64, height: u16) -> u16 {
        self.exact_row(pct, height).round() as u16
    }

    /// The threshold_pct values labelled, the ends first.
    fn labels(self) -> Vec<f64> {
        match self {
            PctAxis::Linear => vec![100.0, 0.0, 50.0],
            PctAxis::Log { low, high } => {
                // The decades strictly between the ends.
                let decades = (low.log10().floor() as i32..=high.log10().ceil() as i32)
                    .map(|power| 10f64.powi(power))
                    .filter(|&decade| low * 1.001 < decade && decade < high * 0.999);
                [high, low].into_iter().chain(decades).collect()
            }
        }
    }

    /// Columns of the y labels ("100% ", "0.01% ").
    fn label_width(self) -> u16 {
        match self {
            PctAxis::Linear => 5,
            PctAxis::Log { .. } => 6,
        }
    }
}

/// The `index`th value of the 1-2-5 series (0 is 1, 1 is 2, 2 is 5, 3 is 10, -1 is 0.5).
fn nice_value(index: i32) -> f64 {
    let mantissa = [1.0, 2.0, 5.0][index.rem_euclid(3) as usize];
    mantissa * 10f64.powi(index.div_euclid(3))
}

/// The index in the 1-2-5 series of the greatest value at most `value` (or, `up`, of the
/// least value at least `value`).
fn nice_index(value: f64, up: bool) -> i32 {
    let start = 3 * (value.log10().floor() as i32);
    // Within a hair, a value is its nice neighbour (0.1 is 10^-1, not just above it).
    let close = |nice: f64| (nice - value).abs() <= value * 1e-9;
    if up {
        (start..=start + 3)
            .find(|&i| nice_value(i) >= value || close(nice_value(i)))
            .unwrap_or(start)
    } else {
        (start - 3..=start + 3)
            .rev()
            .find(|&i| nice_value(i) <= value || close(nice_value(i)))
            .unwrap_or(start)
    }
}

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
    /// The threshold_pct of each row.
    pub axis: PctAxis,
    /// Current context length (marked when on the axis).
    pub context_length: u64,
    /// Current threshold_pct.
    pub threshold_pct: f64,
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let activation = &app.derived.activation;
    let settings = app.session.settings();
    let (kind, axis, title) = match activation.threshold_tokens {
        Some(_) => (
            MapKind::Gate {
                mode: activation.mode,
                deferrable_tokens: activation.deferrable_tokens,
            },
            PctAxis::Linear,
            "Activation map",
        ),
        None => (
            MapKind::Listing {
                active: activation.active,
                listing_off: settings.listing == Mode::Off,
                listing_max_tokens: settings.listing_max_tokens,
                form_budgets: app.derived.form_budgets.clone(),
            },
            PctAxis::around_changes(
                &app.derived.form_budgets,
                settings.listing_max_tokens,
                activation.threshold_pct,
            ),
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
        axis,
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

    /// Where the current setting goes: the nearest cell, or the next one over when that cell
    /// shows the setting's own verdict (or form) and the nearest does not.
    fn marker(&self, width: u16, height: u16) -> Option<(u16, u16)> {
        if !(X_RANGE.0..=X_RANGE.1).contains(&self.context_length) {
            return None;
        }
        let here = self.cell(self.context_length, self.threshold_pct).0;
        let exact_row = self.axis.exact_row(self.threshold_pct, height);
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
                self.cell(Self::context_at(c, width), self.axis.pct_at(r, height))
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
        let label_width = self.axis.label_width();
        if area.width < label_width + 8 || area.height < 4 {
            return;
        }
        let plot = Rect::new(
            area.x + label_width,
            area.y,
            area.width - label_width,
            area.height - 2,
        );
        for row in 0..plot.height {
            let pct = self.axis.pct_at(row, plot.height);
            for column in 0..plot.width {
                let (symbol, style) = self.cell(Self::context_at(column, plot.width), pct);
                buf[(plot.x + column, plot.y + row)]
                    .set_symbol(symbol)
                    .set_style(style);
            }
        }
        let mut labelled: Vec<u16> = Vec::new();
        for pct in self.axis.labels() {
            let row = self.axis.row_of(pct, plot.height);
            if labelled.contains(&row) {
                continue;
            }
            labelled.push(row);
            let label = format!("{}%", pct_label(pct));
            buf.set_string(
                area.x,
                plot.y + row,
                format!("{label:>width$}", width = usize::from(label_width - 1)),
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
        assert_eq!(PctAxis::Linear.pct_at(0, 11), 100.0);
        assert_eq!(PctAxis::Linear.pct_at(5, 11), 50.0);
        assert_eq!(PctAxis::Linear.pct_at(10, 11), 0.0);
        for row in 0..11 {
            assert_eq!(
                PctAxis::Linear.row_of(PctAxis::Linear.pct_at(row, 11), 11),
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
        assert_eq!(PctAxis::Linear.row_of(10.0, 11), 9);
        assert_eq!(
            PctAxis::Linear.row_of(5.0, 11),
            10,
            "5% rounds to the 0% row"
        );
        assert_eq!(
            PctAxis::Linear.row_of(15.0, 11),
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
            axis: PctAxis::Linear,
            context_length: 200_000,
            threshold_pct: 10.0,
        };
        let (column, row) = map.marker(34, 17).unwrap();
        assert_eq!(row, 15);
        let cell = map.cell(
            ActivationMap::context_at(column, 34),
            PctAxis::Linear.pct_at(row, 17),
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
            axis: PctAxis::Linear,
            context_length: 200_000,
            threshold_pct: 10.0,
        };
        let area = Rect::new(0, 0, 30, 12);
        let mut buf = Buffer::empty(area);
        map.render(area, &mut buf);
        let plot_height = area.height - 2;
        let label = PctAxis::Linear.label_width();
        for row in 0..plot_height {
            for column in 0..area.width - label {
                let expected = is_active(
                    Mode::Auto,
                    20_182,
                    ActivationMap::context_at(column, area.width - label),
                    PctAxis::Linear.pct_at(row, plot_height),
                );
                let symbol = buf[(label + column, row)].symbol();
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
            axis: PctAxis::Linear,
            context_length: 0,
            threshold_pct: 5.0,
        };
        assert_eq!(map.cell(200_000, 0.0).0, "·");
        assert_eq!(map.cell(200_000, 0.1).0, "░", "a 200-token budget");
        assert_eq!(map.cell(200_000, 1.0).0, "▓", "2,000 tokens");
        assert_eq!(map.cell(200_000, 50.0).0, "█", "capped at 4,000");
        assert_eq!(map.cell(8_000, 5.0).0, "░", "400 tokens");
    }

    /// The sample's listing under the newest release: its forms change at 75, 300 and 660
    /// tokens (0.05%, 0.2% and 0.44% of 150K).
    fn sample_listing(threshold_pct: f64) -> ActivationMap {
        let form_budgets = vec![
            (ListingForm::None, 0),
            (ListingForm::Groups, 75),
            (ListingForm::Names, 300),
            (ListingForm::Full, 660),
        ];
        ActivationMap {
            axis: PctAxis::around_changes(&form_budgets, 4000, threshold_pct),
            kind: MapKind::Listing {
                active: true,
                listing_off: false,
                listing_max_tokens: 4000,
                form_budgets,
            },
            context_length: 150_000,
            threshold_pct,
        }
    }

    #[test]
    fn the_listing_axis_spans_where_the_forms_change() {
        // From 0.01% (the least step; 200 tokens at 2M) to a step past 8.25% (660 at 8K).
        let map = sample_listing(5.0);
        assert_eq!(
            map.axis,
            PctAxis::Log {
                low: 0.01,
                high: 20.0
            }
        );
        assert_eq!(map.axis.labels(), [20.0, 0.01, 0.1, 1.0, 10.0]);
        // The current setting widens it; a decade at least.
        let wide = PctAxis::around_changes(&[], 4000, 50.0);
        assert_eq!(
            wide,
            PctAxis::Log {
                low: 10.0,
                high: 100.0
            }
        );
        let empty = PctAxis::around_changes(&[], 4000, 0.0);
        assert_eq!(
            empty,
            PctAxis::Log {
                low: 0.01,
                high: 100.0
            }
        );
        for row in 0..12 {
            let pct = map.axis.pct_at(row, 12);
            assert_eq!(map.axis.row_of(pct, 12), row);
        }
        assert_eq!(map.axis.row_of(0.0, 12), 11, "0% sits on the last row");
        assert_eq!((nice_index(0.1, false), nice_index(8.25, true)), (-3, 3));
    }

    #[test]
    fn every_form_of_the_listing_has_rows_and_the_marker_sits_on_its_own() {
        let map = sample_listing(0.2);
        // On a plot of 12 rows, the column of 150K passes through every form.
        let forms: Vec<&str> = (0..12)
            .map(|row| map.cell(150_000, map.axis.pct_at(row, 12)).0)
            .collect();
        for form in [
            ListingForm::Full,
            ListingForm::Names,
            ListingForm::Groups,
            ListingForm::None,
        ] {
            let glyph = theme::listing_form(form).0;
            assert!(forms.contains(&glyph), "{form}: {forms:?}");
        }
        // 0.2% of 150K is names: so is the cell under the marker (on the 0-to-100 axis it
        // was the bottom row, no listing).
        assert_eq!(
            map.cell(150_000, 0.2).0,
            theme::listing_form(ListingForm::Names).0
        );
        let (column, row) = map.marker(60, 12).unwrap();
        assert_eq!(
            map.cell(
                ActivationMap::context_at(column, 60),
                map.axis.pct_at(row, 12)
            )
            .0,
            theme::listing_form(ListingForm::Names).0
        );
        let linear = ActivationMap {
            axis: PctAxis::Linear,
            ..sample_listing(0.2)
        };
        let (_, row) = linear.marker(60, 12).unwrap();
        assert_eq!(row, 11, "the old axis put it on the bottom row");
    }
}
