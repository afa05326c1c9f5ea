//! The Servers pane: one row per server with its cost, share and a bar.

use crate::view::theme;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use crate::app::App;
use crate::state::{Counting, Pane, SortOrder};
use crate::view::{is_focused, pane_block, visible_rows};
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::text::sanitize;
use schematax_report::thousands;

/// What the token column shows before the counts arrive (the header bar says counting).
const COUNTING: &str = "...";

/// One server's row as the pane shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerRow {
    /// Whether the server is connected.
    pub on: bool,
    /// Its name, made safe for the terminal.
    pub name: String,
    /// Tools (all of them when the server is off).
    pub tools: u64,
    /// chars/4 of its definitions (what it would cost when off).
    pub estimate: u64,
    /// The real count, `...` while counting, `-` when off, `n/a` when it failed.
    pub counted: String,
    /// Its share of the deferrable chars, when on.
    pub share: Option<f64>,
}

/// What the Servers pane shows: made from the app, drawn without it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServersView {
    /// The pane's title.
    pub title: String,
    /// Whether the pane has the focus.
    pub focused: bool,
    /// The short name of the tokenizer of the real counts (the column's heading).
    pub tokenizer: String,
    /// The rows that fit, in display order.
    pub rows: Vec<ServerRow>,
    /// The selected row among `rows`.
    pub selected: Option<usize>,
    /// The largest tools, chars/4 and real count of any server (so that scrolling never
    /// changes a column's width).
    pub widest: [u64; 3],
}

impl ServersView {
    /// The view of `app` with room for `lines` rows.
    pub fn of(app: &App, lines: u16) -> ServersView {
        let sort = match app.servers.sort {
            SortOrder::Cost => "by cost",
            SortOrder::Name => "by name",
        };
        let servers = app.session.servers();
        let costs = &app.derived.costs;
        let deferrable: u64 = costs.iter().map(|c| c.chars).sum();
        let order = app.server_order();
        let window = visible_rows(order.len(), Some(app.servers.selected), lines, 1);
        let rows = order[window.clone()]
            .iter()
            .map(|&s| {
                let on = app.session.is_connected(s);
                let cost = costs[s];
                // A server that is off shows what it would cost, dimmed.
                let chars = if on {
                    cost.chars
                } else {
                    app.derived.full_chars[s]
                };
                let counted = match (on, cost.counted, &app.counting) {
                    (true, Some(tokens), _) => thousands(tokens),
                    (_, _, Counting::Failed(_)) => "n/a".into(),
                    (false, _, _) => "-".into(),
                    (true, None, _) => COUNTING.into(),
                };
                ServerRow {
                    on,
                    name: sanitize(&servers[s].name).into_owned(),
                    tools: if on {
                        cost.tools
                    } else {
                        servers[s].tools.len()
                    } as u64,
                    estimate: estimate_tokens(chars),
                    counted,
                    share: on.then(|| {
                        if deferrable > 0 {
                            cost.chars as f64 * 100.0 / deferrable as f64
                        } else {
                            0.0
                        }
                    }),
                }
            })
            .collect();
        ServersView {
            title: format!("Servers ({sort})"),
            focused: is_focused(app, Pane::Servers),
            tokenizer: app.session.tokenizer().tokenizer.short_name(),
            rows,
            selected: app.servers.selected.checked_sub(window.start),
            widest: [
                servers
                    .iter()
                    .map(|s| s.tools.len() as u64)
                    .max()
                    .unwrap_or(0),
                estimate_tokens(app.derived.full_chars.iter().copied().max().unwrap_or(0)),
                costs.iter().filter_map(|c| c.counted).max().unwrap_or(0),
            ],
        }
    }
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    if app.session.servers().is_empty() {
        let block = pane_block("Servers (by cost)", is_focused(app, Pane::Servers));
        let text = "No MCP servers in this session.\n\nGive a hermes.yaml with mcp_servers and their captures (--tools DIR), or run schematax without arguments for the embedded sample.";
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }
    // Inside the borders, below the header row.
    let lines = area.height.saturating_sub(3);
    draw(&ServersView::of(app, lines), frame, area);
}

/// Draws a view of the pane.
fn draw(view: &ServersView, frame: &mut Frame, area: Rect) {
    let block = pane_block(&view.title, view.focused);
    let wide = area.width >= 60;
    let bar_width = if wide {
        (area.width as usize).saturating_sub(50).clamp(4, 20)
    } else {
        0
    };
    let rows = view.rows.iter().map(|row| {
        let share_label = match row.share {
            None => "off".to_string(),
            Some(s) if s >= 99.95 => "100%".to_string(),
            Some(s) => format!("{s:.1}%"),
        };
        let filled = (row.share.unwrap_or(0.0) / 100.0 * bar_width as f64).round() as usize;
        let mut cells = vec![
            Cell::from(if row.on { "●" } else { "○" }).style(if row.on {
                theme::GOOD
            } else {
                theme::DIM
            }),
            Cell::from(row.name.clone()),
            Cell::from(Line::from(thousands(row.tools)).right_aligned()),
            Cell::from(Line::from(thousands(row.estimate)).right_aligned()),
            Cell::from(Line::from(row.counted.clone()).right_aligned()),
            Cell::from(Line::from(share_label).right_aligned()),
        ];
        if wide {
            cells.push(Cell::from("█".repeat(filled)).style(theme::BAR));
        }
        Row::new(cells).style(if row.on { Style::new() } else { theme::DIM })
    });
    // Each number column as wide as its largest value over every server, and at least `least`.
    let width_of = |largest: u64, least: usize| {
        let digits = thousands(largest).chars().count().max(least);
        Constraint::Length(digits as u16)
    };
    let [most_tools, most_estimate, most_counted] = view.widest;
    let mut widths = vec![
        Constraint::Length(1),
        Constraint::Fill(1),
        width_of(most_tools, 5),
        width_of(most_estimate, 7),
        width_of(
            most_counted,
            schematax_engine::text::width(&view.tokenizer).max(6),
        ),
        Constraint::Length(5),
    ];
    let mut header = vec![
        "",
        "server",
        "tools",
        "chars/4",
        view.tokenizer.as_str(),
        "share",
    ];
    if wide {
        widths.push(Constraint::Length(bar_width as u16));
        header.push("");
    }
    let header = Row::new(header.into_iter().enumerate().map(|(i, h)| {
        let line = Line::from(h);
        Cell::from(if (2..6).contains(&i) {
            line.right_aligned()
        } else {
            line
        })
    }))
    .style(Style::new().add_modifier(Modifier::BOLD));
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED))
        .block(block);
    let mut state = TableState::default().with_selected(view.selected);
    frame.render_stateful_widget(table, area, &mut state);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Action;
    use schematax_engine::inputs::Inputs;
    use schematax_engine::replay::activation::Traffic;
    use schematax_engine::replay::session::Overrides;
    use std::sync::Arc;

    #[test]
    fn the_view_holds_what_the_rows_show() {
        let mut app = App::new(
            Arc::new(Inputs::sample()),
            Overrides::default(),
            Traffic::default(),
            None,
        );
        let view = ServersView::of(&app, 20);
        assert_eq!(view.rows.len(), 5);
        assert!(view.rows.iter().all(|r| r.on && r.counted == COUNTING));
        let shares: f64 = view.rows.iter().filter_map(|r| r.share).sum();
        assert!((shares - 100.0).abs() < 1e-9);
        assert_eq!(view.selected, Some(0));
        // The first row (the heaviest) off: no share, no count, what it would cost.
        app.apply(Action::ToggleServer);
        let off = &ServersView::of(&app, 20).rows[0];
        assert_eq!(
            (off.on, off.share, off.counted.as_str()),
            (false, None, "-")
        );
        assert_eq!(off.estimate, view.rows[0].estimate);
        // Two rows of room: the window follows the selection.
        assert_eq!(ServersView::of(&app, 2).rows.len(), 2);
    }
}
