//! Overlays: the help (generated from the key map), a server's tools, a payload, and the
//! context-length prompt.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Clear, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use crate::app::App;
use crate::keys::help_lines;
use crate::state::{DetailView, Overlay, ToolListView};
use crate::view::theme;
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::text::{clip, first_sentence};
use schematax_report::thousands;

/// Draws the overlay, if one is open.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    match &app.overlay {
        None => {}
        Some(Overlay::Help(scroll)) => render_help(*scroll, frame, area),
        Some(Overlay::Warnings(scroll)) => render_warnings(app, *scroll, frame, area),
        Some(Overlay::ToolList(list)) => render_tool_list(app, list, frame, area),
        Some(Overlay::Detail(detail, _)) => render_detail(detail, frame, area),
        Some(Overlay::ContextPrompt(text)) => render_prompt(text, frame, area),
    }
}

/// A cleared, framed popup of `width` x `height` percent of `area`.
fn popup(frame: &mut Frame, area: Rect, width: u16, height: u16, title: &str) -> Rect {
    let popup = area.centered(
        Constraint::Percentage(width),
        Constraint::Percentage(height),
    );
    let block = Block::bordered()
        .border_style(theme::ACCENT)
        .title(Span::styled(
            format!(" {} ", clip(title, popup.width.saturating_sub(4) as usize)),
            Style::new().add_modifier(Modifier::BOLD),
        ));
    let inner = block.inner(popup);
    frame.render_widget(Clear, popup);
    frame.render_widget(block, popup);
    inner
}

fn render_help(scroll: usize, frame: &mut Frame, area: Rect) {
    let inner = popup(frame, area, 90, 90, "Keys (↑↓ scroll, ? or Esc closes)");
    let lines: Vec<Line> = help_lines()
        .into_iter()
        .skip(scroll)
        .map(|(keys, text)| match keys {
            None => Line::from(Span::styled(text, theme::HEADING)),
            Some(keys) => Line::from(vec![
                Span::styled(
                    format!("  {keys:<12}"),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(text),
            ]),
        })
        .collect();
    // Two columns when the help is taller than the popup and both hold their widest line
    // whole; else one, scrolled.
    let height = inner.height as usize;
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    if lines.len() > height && usize::from(inner.width) > 2 * widest {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Fill(1)]).areas(inner);
        let mut left_lines = lines;
        let right_lines = left_lines.split_off(height.min(left_lines.len()));
        frame.render_widget(Paragraph::new(left_lines), left);
        frame.render_widget(Paragraph::new(right_lines), right);
    } else {
        frame.render_widget(Paragraph::new(lines), inner);
    }
}

fn render_warnings(app: &App, scroll: usize, frame: &mut Frame, area: Rect) {
    let warnings = &app.derived.warnings;
    let title = format!(
        "{} warning{} (↑↓ scroll, w or Esc closes)",
        warnings.len(),
        if warnings.len() == 1 { "" } else { "s" }
    );
    let inner = popup(frame, area, 90, 80, &title);
    let lines: Vec<Line> = if warnings.is_empty() {
        vec![Line::from(Span::styled(
            "No warnings: the config, the captures and the session assembled cleanly.",
            theme::DIM,
        ))]
    } else {
        warnings
            .iter()
            .skip(scroll)
            .map(|w| {
                Line::from(vec![
                    Span::styled("• ", theme::NOTICE),
                    Span::raw(schematax_engine::text::sanitize(w).into_owned()),
                ])
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

fn render_tool_list(app: &App, list: &ToolListView, frame: &mut Frame, area: Rect) {
    let server = &app.session.servers()[list.server];
    let title = format!(
        "{}: {}, heaviest first (Enter: detail, Esc: back)",
        server.name,
        schematax_engine::text::count(server.tools.len(), "tool", "tools")
    );
    let inner = popup(frame, area, 90, 85, &title);
    let name_width = list
        .tools
        .iter()
        .map(|&t| schematax_engine::text::width(&server.tools[t].raw_name))
        .max()
        .unwrap_or(4)
        .clamp(4, (inner.width as usize).saturating_sub(30).max(4));
    let rows = list.tools.iter().map(|&t| {
        let tool = &server.tools[t];
        let counted = app
            .session
            .token_count(list.server, t)
            .map_or("...".to_string(), thousands);
        Row::new(vec![
            Cell::from(clip(&tool.raw_name, name_width)),
            Cell::from(Line::from(thousands(estimate_tokens(tool.chars))).right_aligned()),
            Cell::from(Line::from(counted).right_aligned()),
            Cell::from(clip(first_sentence(&tool.description), 200)),
        ])
    });
    let tokenizer = app.session.tokenizer().tokenizer.short_name();
    let widths = [
        Constraint::Length(name_width as u16),
        Constraint::Length(7),
        Constraint::Length(schematax_engine::text::width(&tokenizer).max(7) as u16),
        Constraint::Fill(1),
    ];
    let header = Row::new(vec![
        Cell::from("tool"),
        Cell::from(Line::from("chars/4").right_aligned()),
        Cell::from(Line::from(tokenizer).right_aligned()),
        Cell::from("description"),
    ])
    .style(Style::new().add_modifier(Modifier::BOLD));
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state = TableState::default().with_selected(Some(list.selected));
    frame.render_stateful_widget(table, inner, &mut state);
}

fn render_detail(detail: &DetailView, frame: &mut Frame, area: Rect) {
    let inner = popup(frame, area, 92, 90, &detail.title);
    let [summary, body, position] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(
            clip(&detail.summary, summary.width as usize),
            theme::GOOD,
        ))),
        summary,
    );
    // Long lines wrap; scrolling moves by payload lines.
    let visible = body.height as usize;
    let lines: Vec<Line> = detail
        .lines
        .iter()
        .skip(detail.scroll)
        .take(visible)
        .map(|l| Line::from(l.as_str()))
        .collect();
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
    let text = format!(
        "from line {} of {}  ↑↓ PgUp PgDn scroll · Esc back",
        detail.scroll + 1,
        detail.lines.len()
    );
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(text, theme::DIM))),
        position,
    );
}

fn render_prompt(text: &str, frame: &mut Frame, area: Rect) {
    let popup = area.centered(Constraint::Length(50), Constraint::Length(4));
    let block = Block::bordered()
        .border_style(theme::ACCENT)
        .title(" Context length (Enter: set, Esc: cancel) ");
    let inner = block.inner(popup);
    frame.render_widget(Clear, popup);
    frame.render_widget(block, popup);
    let lines = vec![
        Line::from(vec![
            Span::raw("tokens: "),
            Span::raw(clip(text, 30)),
            Span::styled("▏", theme::ACCENT),
        ]),
        Line::from(Span::styled(
            "e.g. 200000, 200K, 1M; 0 = unknown",
            theme::DIM,
        )),
    ];
    frame.render_widget(Paragraph::new(lines), inner);
}
