//! The Search pane: the query line and the ranked hits, matched terms highlighted.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;

use super::{is_focused, lower_block, theme};
use crate::engine::search::Via;
use crate::text::{clip, first_sentence, sanitize, width};
use crate::tui::app::App;
use crate::tui::state::Pane;

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = lower_block(app);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let search = &app.search;
    let gate_height = u16::from(search.result.gate.is_some());
    let [query_area, gate_area, results_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(gate_height),
        Constraint::Fill(1),
    ])
    .areas(inner);

    let via = match search.result.via {
        Via::Bm25 => "bm25",
        Via::Exact => "exact name",
        Via::Substring => "substring fallback",
        Via::None => "none",
    };
    let status = format!(
        " limit {}/{} · {} · {} tools",
        search.limit,
        app.session.settings().max_search_limit,
        via,
        crate::text::thousands(app.session.total_available() as u64)
    );
    let room = (inner.width as usize).saturating_sub(status.chars().count() + 3);
    let mut query_spans = vec![
        Span::styled("/ ", theme::HEADING),
        Span::raw(tail(&sanitize(&search.query), room)),
    ];
    if search.typing {
        query_spans.push(Span::styled("▏", theme::ACCENT));
    }
    let used: usize = query_spans.iter().map(|s| s.content.chars().count()).sum();
    query_spans.push(Span::raw(" ".repeat(
        (inner.width as usize).saturating_sub(used + status.chars().count()),
    )));
    query_spans.push(Span::styled(status, theme::DIM));
    frame.render_widget(Paragraph::new(Line::from(query_spans)), query_area);

    if let Some(gate) = &search.result.gate {
        let text = format!(
            "gate \"{}\" ({} tool{}) · a hit needs it and {} of {} word{}",
            gate.word,
            gate.document_frequency,
            if gate.document_frequency == 1 {
                ""
            } else {
                "s"
            },
            gate.required,
            gate.answerable,
            if gate.answerable == 1 { "" } else { "s" }
        );
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(
                clip(&text, inner.width as usize),
                theme::NOTICE,
            ))),
            gate_area,
        );
    }

    let empty = if app.session.total_available() == 0 {
        Some("The catalog is empty: no deferrable tools in this session. Switch a server on, or check the toolset scope.".to_string())
    } else if search.query.trim().is_empty() {
        Some("Type / and a query: the hits re-rank on every keystroke, as tool_search would rank them.".to_string())
    } else if search.result.hits.is_empty() {
        Some(match &search.result.gate {
            Some(gate) if gate.document_frequency == 0 => format!(
                "No tool holds \"{}\", the query's rarest word: the rarest-word gate admits nothing (no substring fallback).",
                sanitize(&gate.word)
            ),
            Some(_) => "No tool holds the rarest word and enough of the others.".to_string(),
            None => "No tool matched: no query word (ASCII letters and digits) is in any tool's name, description or parameter names, and the query is in no tool name.".to_string(),
        })
    } else {
        None
    };
    let misses = near_miss_lines(app, inner.width as usize);
    if let Some(message) = empty {
        let mut lines = vec![Line::from(Span::styled(message, theme::DIM))];
        lines.extend(misses);
        frame.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: true }),
            results_area,
        );
        return;
    }
    let [table_area, misses_area] = Layout::vertical([
        Constraint::Length(search.result.hits.len() as u16 + 1),
        Constraint::Fill(1),
    ])
    .areas(results_area);

    // Names and servers get the room they need; the description takes what is left.
    let names: Vec<(&str, &str)> = search
        .result
        .hits
        .iter()
        .map(|hit| {
            let (entry, _) = app.session.catalog_entry(hit.doc);
            (entry.name.as_str(), entry.server.as_str())
        })
        .collect();
    let longest = |server: bool| {
        names
            .iter()
            .map(|(name, srv)| width(if server { srv } else { name }))
            .max()
            .unwrap_or(0)
    };
    let fixed = 2 + 1 + 6 + 1 + 1;
    let available = (inner.width as usize).saturating_sub(fixed);
    let name_width = longest(false).max(4).min(available.saturating_sub(10));
    let server_width = longest(true).clamp(6, 16);
    let show_server = available >= name_width + server_width + 1 + 12;
    let rows = search.result.hits.iter().enumerate().map(|(i, hit)| {
        let (entry, _) = app.session.catalog_entry(hit.doc);
        let mut cells = vec![
            Cell::from(Line::from(format!("{}", i + 1)).right_aligned()),
            Cell::from(tail(&sanitize(&entry.name), name_width)),
        ];
        if show_server {
            cells.push(Cell::from(clip(&entry.server, server_width)));
        }
        let score = if hit.exact_name {
            "exact".to_string()
        } else {
            format!("{:.2}", hit.score)
        };
        cells.push(Cell::from(Line::from(score).right_aligned()));
        cells.push(Cell::from(highlight(
            first_sentence(&entry.description),
            &hit.matched_terms,
        )));
        Row::new(cells)
    });
    let mut widths = vec![Constraint::Length(2), Constraint::Length(name_width as u16)];
    let mut header = vec!["#", "name"];
    if show_server {
        widths.push(Constraint::Length(server_width as u16));
        header.push("server");
    }
    widths.extend([Constraint::Length(6), Constraint::Fill(1)]);
    header.extend(["score", "description"]);
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let selected = (is_focused(app, Pane::Search) || search.typing).then_some(search.selected);
    let mut state = TableState::default().with_selected(selected);
    frame.render_stateful_widget(table, table_area, &mut state);
    frame.render_widget(Paragraph::new(misses), misses_area);
}

/// The tools the rarest-word gate turns away for the query, best first, and why.
fn near_miss_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    if app.search.near_misses.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::from(Span::styled(
        "not admitted:",
        theme::DIM_HEADING,
    ))];
    for (doc, why) in &app.search.near_misses {
        let (entry, _) = app.session.catalog_entry(*doc);
        lines.push(Line::from(Span::styled(
            clip(&format!("  {} {why}", sanitize(&entry.name)), width),
            theme::DIM,
        )));
    }
    lines
}

/// The last `width` characters of `text`: the end of a long query or tool name stays visible.
fn tail(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        text.to_string()
    } else {
        let skip = count - width.saturating_sub(1);
        format!("…{}", text.chars().skip(skip).collect::<String>())
    }
}

/// `text` sanitised, with the words that match `terms` (lowercase tokens) highlighted.
pub fn highlight(text: &str, terms: &[String]) -> Line<'static> {
    let clean = sanitize(text);
    let mut spans = Vec::new();
    let mut word = String::new();
    let mut other = String::new();
    let flush_word = |word: &mut String, spans: &mut Vec<Span<'static>>| {
        if word.is_empty() {
            return;
        }
        let matched = terms.iter().any(|t| t.eq_ignore_ascii_case(word));
        let style = if matched {
            theme::MATCHED
        } else {
            Style::new()
        };
        spans.push(Span::styled(std::mem::take(word), style));
    };
    for c in clean.chars() {
        if c.is_ascii_alphanumeric() {
            if !other.is_empty() {
                spans.push(Span::raw(std::mem::take(&mut other)));
            }
            word.push(c);
        } else {
            flush_word(&mut word, &mut spans);
            other.push(c);
        }
    }
    flush_word(&mut word, &mut spans);
    if !other.is_empty() {
        spans.push(Span::raw(other));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_whole_tokens_only() {
        let line = highlight(
            "Scrape a page; scraped\u{1b}[31m PAGE",
            &["page".to_string()],
        );
        let styled: Vec<(&str, bool)> = line
            .spans
            .iter()
            .map(|s| (s.content.as_ref(), s.style == theme::MATCHED))
            .filter(|(t, _)| t.chars().any(|c| c.is_alphanumeric()))
            .collect();
        assert_eq!(
            styled,
            [
                ("Scrape", false),
                ("a", false),
                ("page", true),
                ("scraped", false),
                ("PAGE", true)
            ]
        );
    }

    #[test]
    fn long_queries_show_their_end() {
        assert_eq!(tail("abcdef", 4), "…def");
        assert_eq!(tail("abc", 4), "abc");
    }
}
