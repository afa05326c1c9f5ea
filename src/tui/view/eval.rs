//! The Eval pane: recall and MRR of the queries file, live as servers and the limit change.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState};
use ratatui::Frame;

use super::{is_focused, lower_block};
use crate::text::{clip, sanitize};
use crate::tui::app::{App, Pane};

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = lower_block(app);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(eval) = &app.eval else { return };
    let overall = &eval.evaluation.overall;
    let [summary, servers_area, queries_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(eval.evaluation.by_server.len().min(4) as u16 + 1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    let headline = Line::from(vec![
        Span::styled(
            format!(
                "recall@1 {:.3}  recall@{} {:.3}  MRR {:.3}",
                overall.recall_at_1, overall.k, overall.recall_at_k, overall.mrr
            ),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!("  ({} queries)", overall.queries),
            Style::new().fg(Color::DarkGray),
        ),
    ]);
    frame.render_widget(Paragraph::new(headline), summary);

    let server_rows = eval.evaluation.by_server.iter().map(|(name, m)| {
        Row::new(vec![
            Cell::from(clip(name, 18)),
            Cell::from(Line::from(m.queries.to_string()).right_aligned()),
            Cell::from(Line::from(format!("{:.2}", m.recall_at_1)).right_aligned()),
            Cell::from(Line::from(format!("{:.2}", m.recall_at_k)).right_aligned()),
            Cell::from(Line::from(format!("{:.2}", m.mrr)).right_aligned()),
        ])
    });
    let k = format!("@{}", overall.k);
    let header = Row::new(vec!["server", "n", "@1", k.as_str(), "MRR"])
        .style(Style::new().add_modifier(Modifier::BOLD));
    let widths = [
        Constraint::Length(18),
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Length(5),
        Constraint::Length(5),
    ];
    frame.render_widget(
        Table::new(server_rows, widths)
            .header(header)
            .column_spacing(1),
        servers_area,
    );

    let rows = eval.evaluation.queries.iter().map(|q| {
        let (rank, color) = match q.rank {
            Some(r) if r <= overall.k => (r.to_string(), Color::Green),
            Some(r) => (r.to_string(), Color::Yellow),
            None => ("miss".to_string(), Color::Red),
        };
        let instead = if q.rank.is_some_and(|r| r <= overall.k) {
            String::new()
        } else {
            q.hits.first().cloned().unwrap_or_default()
        };
        Row::new(vec![
            Cell::from(Line::from(rank).right_aligned()).style(Style::new().fg(color)),
            Cell::from(sanitize(&q.query).into_owned()),
            Cell::from(sanitize(&instead).into_owned()).style(Style::new().fg(Color::DarkGray)),
        ])
    });
    let widths = [
        Constraint::Length(4),
        Constraint::Fill(2),
        Constraint::Fill(1),
    ];
    let header = Row::new(vec!["rank", "query", "came first instead"])
        .style(Style::new().add_modifier(Modifier::BOLD));
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let selected = is_focused(app, Pane::Eval).then_some(eval.selected);
    frame.render_stateful_widget(
        table,
        queries_area,
        &mut TableState::default().with_selected(selected),
    );
}
