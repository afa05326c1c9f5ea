//! The Search pane: the query line and the ranked hits, matched terms highlighted.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;
use schematax_report::words::Words;

use crate::app::App;
use crate::state::Pane;
use crate::view::{is_focused, lower_block, theme};
use schematax_engine::replay::search::{Gate, Via};
use schematax_engine::text::{clip, first_sentence, sanitize};

/// One hit as the pane shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct HitRow<'a> {
    /// The Hermes name.
    pub name: &'a str,
    /// Its server.
    pub server: &'a str,
    /// The first sentence of its description.
    pub summary: &'a str,
    /// The score, or `exact` for an exact-name hit.
    pub score: String,
    /// The query words it holds.
    pub matched_terms: &'a [String],
}

/// What the Search pane shows: made from the app, drawn without it.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchView<'a> {
    /// The query as typed.
    pub query: &'a str,
    /// Whether keys go to the query line.
    pub typing: bool,
    /// The limit, the largest limit, the rule that made the hits and the catalog's size.
    pub status: String,
    /// The rarest-word gate of the query (from 0.21.3).
    pub gate: Option<&'a Gate>,
    /// Why there is no hit to show, when there is none.
    pub empty: Option<String>,
    /// The hits, best first.
    pub hits: Vec<HitRow<'a>>,
    /// The best tools the gate turns away: name and why.
    pub near_misses: Vec<(&'a str, String)>,
    /// The selected hit, when the pane has the focus or the query line is open.
    pub selected: Option<usize>,
}

impl<'a> SearchView<'a> {
    /// The view of `app`.
    pub fn of(app: &'a App) -> SearchView<'a> {
        let search = &app.search;
        let via = match search.result.via {
            Via::Bm25 => "bm25",
            Via::Exact => "exact name",
            Via::Substring => "substring fallback",
            Via::None => "none",
        };
        let hits = search
            .result
            .hits
            .iter()
            .map(|hit| {
                let (entry, _) = app.session.catalog_entry(hit.doc);
                HitRow {
                    name: &entry.name,
                    server: &entry.server,
                    summary: first_sentence(&entry.description),
                    score: if hit.exact_name {
                        "exact".to_string()
                    } else {
                        format!("{:.2}", hit.score)
                    },
                    matched_terms: &hit.matched_terms,
                }
            })
            .collect();
        SearchView {
            query: &search.query,
            typing: search.typing,
            status: format!(
                " limit {}/{} · {} · {}",
                search.limit,
                app.session.settings().max_search_limit,
                via,
                schematax_engine::text::count(app.session.total_available(), "tool", "tools")
            ),
            gate: search.result.gate.as_ref(),
            empty: empty_message(app),
            hits,
            near_misses: search
                .near_misses
                .iter()
                .map(|(doc, why)| (app.session.catalog_entry(*doc).0.name.as_str(), why.words()))
                .collect(),
            selected: (is_focused(app, Pane::Search) || search.typing).then_some(search.selected),
        }
    }
}

/// Why there is no hit to show: an empty catalog, no query yet, or a query nothing matched.
fn empty_message(app: &App) -> Option<String> {
    let search = &app.search;
    if app.session.total_available() == 0 {
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
    }
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = lower_block(app);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    match &app.agent {
        Some(chosen) => draw(&super::agent::search_view(app, chosen), frame, inner),
        None => draw(&SearchView::of(app), frame, inner),
    }
}

/// Draws a view of the pane inside its frame: the query line, the gate, then the hits (or why
/// there are none) and the tools the gate turned away.
fn draw(view: &SearchView, frame: &mut Frame, inner: Rect) {
    let [query_area, gate_area, results_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(u16::from(view.gate.is_some())),
        Constraint::Fill(1),
    ])
    .areas(inner);
    let width = inner.width as usize;
    frame.render_widget(Paragraph::new(query_line(view, width)), query_area);
    if let Some(gate) = view.gate {
        frame.render_widget(Paragraph::new(gate_line(gate, width)), gate_area);
    }
    let misses = near_miss_lines(view, width);
    if let Some(message) = &view.empty {
        let mut lines = vec![Line::from(Span::styled(message.clone(), theme::DIM))];
        lines.extend(misses);
        frame.render_widget(
            Paragraph::new(lines).wrap(Wrap { trim: true }),
            results_area,
        );
        return;
    }
    let [table_area, misses_area] = Layout::vertical([
        Constraint::Length(view.hits.len() as u16 + 1),
        Constraint::Fill(1),
    ])
    .areas(results_area);
    let mut state = TableState::default().with_selected(view.selected);
    frame.render_stateful_widget(hits_table(view, width), table_area, &mut state);
    frame.render_widget(Paragraph::new(misses), misses_area);
}

/// The query line: the prompt, the query's end when it is long, the cursor, and the status.
fn query_line(view: &SearchView, width: usize) -> Line<'static> {
    let status = view.status.clone();
    let room = width.saturating_sub(status.chars().count() + 3);
    let mut spans = vec![
        Span::styled("/ ", theme::HEADING),
        Span::raw(tail(&sanitize(view.query), room)),
    ];
    if view.typing {
        spans.push(Span::styled("▏", theme::ACCENT));
    }
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    spans.push(Span::raw(
        " ".repeat(width.saturating_sub(used + status.chars().count())),
    ));
    spans.push(Span::styled(status, theme::DIM));
    Line::from(spans)
}

/// The rarest-word gate's rule for the query.
fn gate_line(gate: &Gate, width: usize) -> Line<'static> {
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
    Line::from(Span::styled(clip(&text, width), theme::NOTICE))
}

/// The hits: names and servers get the room they need; the description takes what is left.
fn hits_table(view: &SearchView, width: usize) -> Table<'static> {
    let longest = |server: bool| {
        view.hits
            .iter()
            .map(|hit| schematax_engine::text::width(if server { hit.server } else { hit.name }))
            .max()
            .unwrap_or(0)
    };
    let fixed = 2 + 1 + 6 + 1 + 1;
    let available = width.saturating_sub(fixed);
    let name_width = longest(false).max(4).min(available.saturating_sub(10));
    let server_width = longest(true).clamp(6, 16);
    let show_server = available >= name_width + server_width + 1 + 12;
    let rows: Vec<Row> = view
        .hits
        .iter()
        .enumerate()
        .map(|(i, hit)| {
            let mut cells = vec![
                Cell::from(Line::from(format!("{}", i + 1)).right_aligned()),
                Cell::from(tail(&sanitize(hit.name), name_width)),
            ];
            if show_server {
                cells.push(Cell::from(clip(hit.server, server_width)));
            }
            cells.push(Cell::from(Line::from(hit.score.clone()).right_aligned()));
            cells.push(Cell::from(highlight(hit.summary, hit.matched_terms)));
            Row::new(cells)
        })
        .collect();
    let mut widths = vec![Constraint::Length(2), Constraint::Length(name_width as u16)];
    let mut header = vec!["#", "name"];
    if show_server {
        widths.push(Constraint::Length(server_width as u16));
        header.push("server");
    }
    widths.extend([Constraint::Length(6), Constraint::Fill(1)]);
    header.extend(["score", "description"]);
    Table::new(rows, widths)
        .header(Row::new(header).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED))
}

/// The tools the rarest-word gate turns away for the query, best first, and why.
fn near_miss_lines(view: &SearchView, width: usize) -> Vec<Line<'static>> {
    if view.near_misses.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::from(Span::styled(
        "not admitted:",
        theme::DIM_HEADING,
    ))];
    for (name, why) in &view.near_misses {
        lines.push(Line::from(Span::styled(
            clip(&format!("  {} {why}", sanitize(name)), width),
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
            .filter(|(t, _)| t.chars().any(char::is_alphanumeric))
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
