//! The Servers pane: one row per server with its cost, share and a bar.

use super::theme;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use super::{is_focused, pane_block, visible_rows};
use crate::engine::tokens::estimate_tokens;
use crate::report::thousands;
use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::state::{Counting, Pane, SortOrder};

/// What the o200k column shows before the counts arrive (the header bar says counting).
const COUNTING: &str = "...";

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let sort = match app.servers.sort {
        SortOrder::Cost => "by cost",
        SortOrder::Name => "by name",
    };
    let block = pane_block(&format!("Servers ({sort})"), is_focused(app, Pane::Servers));
    let servers = app.session.servers();
    if servers.is_empty() {
        let text = "No MCP servers in this session.\n\nGive a hermes.yaml with mcp_servers and their captures (--tools DIR), or run schematax without arguments for the embedded sample.";
        frame.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
            area,
        );
        return;
    }
    let costs = &app.derived.costs;
    let deferrable: u64 = costs.iter().map(|c| c.chars).sum();
    let wide = area.width >= 60;
    let bar_width = if wide {
        (area.width as usize).saturating_sub(50).clamp(4, 20)
    } else {
        0
    };
    // Inside the borders, below the header row.
    let lines = block.inner(area).height.saturating_sub(1);
    let order = app.server_order();
    let window = visible_rows(order.len(), Some(app.servers.selected), lines, 1);
    let rows = order[window.clone()].iter().map(|&s| {
        let server = &servers[s];
        let on = app.session.is_connected(s);
        let cost = costs[s];
        // A server that is off shows what it would cost, dimmed.
        let chars = if on {
            cost.chars
        } else {
            app.derived.full_chars[s]
        };
        let tools = if on { cost.tools } else { server.tools.len() };
        let counted = match (on, cost.counted, &app.counting) {
            (true, Some(tokens), _) => thousands(tokens),
            (_, _, Counting::Failed(_)) => "n/a".into(),
            (false, _, _) => "-".into(),
            (true, None, _) => COUNTING.into(),
        };
        let share = if on && deferrable > 0 {
            cost.chars as f64 * 100.0 / deferrable as f64
        } else {
            0.0
        };
        let share_label = match (on, share) {
            (false, _) => "off".to_string(),
            (true, s) if s >= 99.95 => "100%".to_string(),
            (true, s) => format!("{s:.1}%"),
        };
        let filled = (share / 100.0 * bar_width as f64).round() as usize;
        let mut cells = vec![
            Cell::from(if on { "●" } else { "○" }).style(if on { theme::GOOD } else { theme::DIM }),
            Cell::from(sanitize(&server.name).into_owned()),
            Cell::from(Line::from(thousands(tools as u64)).right_aligned()),
            Cell::from(Line::from(thousands(estimate_tokens(chars))).right_aligned()),
            Cell::from(Line::from(counted).right_aligned()),
            Cell::from(Line::from(share_label).right_aligned()),
        ];
        if wide {
            cells.push(Cell::from("█".repeat(filled)).style(theme::BAR));
        }
        let style = if on { Style::new() } else { theme::DIM };
        Row::new(cells).style(style)
    });
    // Each number column as wide as its largest value over every server (so that scrolling
    // never changes it), and at least `least`.
    let width_of = |largest: u64, least: usize| {
        let digits = thousands(largest).chars().count().max(least);
        Constraint::Length(digits as u16)
    };
    let most_tools = servers.iter().map(|s| s.tools.len() as u64).max();
    let most_chars = app.derived.full_chars.iter().copied().max();
    let most_counted = costs.iter().filter_map(|c| c.counted).max();
    let tokenizer = app.session.tokenizer().tokenizer.short_name();
    let mut widths = vec![
        Constraint::Length(1),
        Constraint::Fill(1),
        width_of(most_tools.unwrap_or(0), 5),
        width_of(estimate_tokens(most_chars.unwrap_or(0)), 7),
        width_of(
            most_counted.unwrap_or(0),
            crate::text::width(&tokenizer).max(6),
        ),
        Constraint::Length(5),
    ];
    let mut header = vec![
        "",
        "server",
        "tools",
        "chars/4",
        tokenizer.as_str(),
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
    let selected = app.servers.selected.checked_sub(window.start);
    let mut state = TableState::default().with_selected(selected);
    frame.render_stateful_widget(table, area, &mut state);
}
