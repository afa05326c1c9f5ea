//! The Lint pane: findings by severity; Enter opens the tool's detail with the finding.

use crate::view::theme;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;
use schematax_report::words::Words;

use crate::app::App;
use crate::state::Pane;
use crate::view::{is_focused, lower_block, visible_rows};
use schematax_engine::text::{clip, sanitize};

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = lower_block(app);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lint = &app.lint;
    let findings = match &lint.findings {
        Some(findings) if !findings.is_empty() => findings,
        _ => {
            let message = if lint.is_stale() {
                "Linting the catalog in the background..."
            } else if app.session.total_available() == 0 {
                "The catalog is empty: nothing to lint."
            } else {
                "No findings: every tool in the catalog passes every rule."
            };
            frame.render_widget(
                Paragraph::new(message)
                    .style(theme::DIM)
                    .wrap(Wrap { trim: true }),
                inner,
            );
            return;
        }
    };
    // Two lines a finding: level, rule and tool; then the message.
    let width = inner.width as usize;
    let selected = is_focused(app, Pane::Lint).then_some(lint.selected);
    let window = visible_rows(findings.len(), selected, inner.height, 2);
    let rows = window.clone().filter_map(|i| findings.details(i)).map(|f| {
        let color = theme::severity(f.rule.severity);
        let head = Line::from(vec![
            Span::styled(
                format!("{:<8}", f.rule.severity.as_str()),
                color.add_modifier(Modifier::BOLD),
            ),
            Span::styled(
                format!("{:<21}", f.rule.id),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw(clip(
                &format!("{}/{}", f.server, f.tool),
                width.saturating_sub(29),
            )),
        ]);
        let message = Line::from(Span::styled(
            clip(&format!("  {}", sanitize(&f.problem.words())), width),
            theme::MUTED,
        ));
        Row::new(vec![Cell::from(vec![head, message])]).height(2)
    });
    let table = Table::new(rows, [Constraint::Fill(1)])
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let selected = selected.and_then(|s| s.checked_sub(window.start));
    frame.render_stateful_widget(
        table,
        inner,
        &mut TableState::default().with_selected(selected),
    );
}
