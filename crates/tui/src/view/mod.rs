//! Drawing: one module per pane, every function reading `&App` only.
//!
//! ```text
//! ┌ header: source · servers on · tools · real counts ──────────┐
//! │ Servers (focusable)            │ Activation                 │
//! ├────────────────────────────────┼────────────────────────────┤
//! │ Search (focusable)             │ Activation map             │
//! └ hint bar (from the key map) or a status message ────────────┘
//!   overlays: help, a server's tools, a payload, the context prompt
//! ```

mod activation;
mod agent;
mod eval;
mod lint;
pub mod loading;
mod map;
mod overlay;
mod search;
mod servers;
pub mod theme;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::App;
use crate::keys::hints;
use crate::state::{Counting, Pane};
use schematax_engine::text::{clip, width};
use schematax_report::thousands;

/// Smallest terminal the layout is drawn in.
pub const MIN_WIDTH: u16 = 80;
/// Smallest terminal height the layout is drawn in.
pub const MIN_HEIGHT: u16 = 24;

/// Draws the whole screen.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        render_too_small(frame, area);
        return;
    }
    let [header, body, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let top_height = (body.height * 45 / 100).max(10);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(top_height), Constraint::Fill(1)]).areas(body);
    let servers_share = if area.width < 110 { 55 } else { 52 };
    let [servers_area, activation_area] =
        Layout::horizontal([Constraint::Percentage(servers_share), Constraint::Fill(1)]).areas(top);
    let search_share = if area.width < 110 { 64 } else { 66 };
    let [search_area, map_area] =
        Layout::horizontal([Constraint::Percentage(search_share), Constraint::Fill(1)])
            .areas(bottom);

    render_header(app, frame, header);
    servers::render(app, frame, servers_area);
    match &app.agent {
        Some(chosen) => agent::render_activation(chosen, frame, activation_area),
        None => activation::render(app, frame, activation_area),
    }
    match app.lower {
        Pane::Lint => lint::render(app, frame, search_area),
        Pane::Eval if app.eval.is_some() => eval::render(app, frame, search_area),
        _ => search::render(app, frame, search_area),
    }
    match &app.agent {
        Some(chosen) => agent::render_map(chosen, frame, map_area),
        None => map::render(app, frame, map_area),
    }
    render_footer(app, frame, footer);
    overlay::render(app, frame, area);
}

/// The rows of a long table that show in `lines` lines (`row_height` lines each) with the
/// `selected` row in view, as ratatui scrolls a table drawn from its top (a last row cut short
/// included): the panes build only these rows, so a list of 100,000 costs what a screenful does.
fn visible_rows(
    len: usize,
    selected: Option<usize>,
    lines: u16,
    row_height: u16,
) -> std::ops::Range<usize> {
    let row_height = usize::from(row_height.max(1));
    let fits = (usize::from(lines) / row_height).max(1);
    let start = match selected.map(|s| s.min(len.saturating_sub(1))) {
        Some(s) if s >= fits => s + 1 - fits,
        _ => 0,
    }
    .min(len);
    let mut end = (start + fits).min(len);
    if (end - start) * row_height < usize::from(lines) && end < len {
        end += 1;
    }
    start..end
}

/// A pane's frame, highlighted when focused.
fn pane_block(title: &str, focused: bool) -> Block<'static> {
    let title = Span::styled(
        format!(" {title} "),
        Style::new().add_modifier(Modifier::BOLD),
    );
    framed(Line::from(title), focused)
}

/// A bordered block: thick and in the accent colour when focused.
fn framed(title: Line<'static>, focused: bool) -> Block<'static> {
    let (border, style) = theme::border(focused);
    Block::bordered()
        .border_type(border)
        .border_style(style)
        .title(title)
}

/// The frame of the lower pane: tabs for Search, Lint and (with a queries file) Eval.
fn lower_block(app: &App) -> Block<'static> {
    let focused = app.overlay.is_none()
        && (app.focus == app.lower || (app.lower == Pane::Search && app.search.typing));
    let lint = if app.lint.is_stale() {
        "Lint ...".to_string()
    } else {
        format!("Lint {}", app.lint.count())
    };
    let mut tabs = vec![(Pane::Search, "Search".to_string()), (Pane::Lint, lint)];
    if let Some(eval) = &app.eval {
        let label = match eval.evaluation(app.session.profile()) {
            Some(e) if !eval.job.is_stale() => {
                format!("Eval r@{} {:.2}", e.overall.k, e.overall.recall_at_k)
            }
            _ => "Eval ...".to_string(),
        };
        tabs.push((Pane::Eval, label));
    }
    let mut title = vec![Span::raw(" ")];
    for (i, (pane, label)) in tabs.into_iter().enumerate() {
        if i > 0 {
            title.push(Span::styled(" │ ", theme::DIM));
        }
        let style = if pane == app.lower {
            theme::TAB_SHOWN
        } else {
            theme::MUTED
        };
        title.push(Span::styled(label, style));
    }
    title.push(Span::raw(" "));
    framed(Line::from(title), focused)
}

/// Whether `pane` has the focus (and no overlay covers it).
fn is_focused(app: &App, pane: Pane) -> bool {
    app.focus == pane && app.overlay.is_none()
}

fn render_header(app: &App, frame: &mut Frame, area: Rect) {
    let servers = app.session.servers().len();
    let on = (0..servers)
        .filter(|&s| app.session.is_connected(s))
        .count();
    let tokenizer = app.session.tokenizer().tokenizer.short_name();
    let counts = match &app.counting {
        Counting::Pending => format!("{tokenizer} counting..."),
        Counting::Done => format!("{tokenizer} counted"),
        Counting::Failed(_) => format!("{tokenizer} unavailable"),
    };
    let profile = match app.switching {
        Some(next) => format!("{} -> {next}...", app.session.profile()),
        None => app.session.profile().to_string(),
    };
    let catalog = if app.rebuild.is_stale() {
        "re-indexing the catalog...".to_string()
    } else {
        format!("{} tools", thousands(app.session.total_available() as u64))
    };
    let (profile, catalog, counts) = match &app.agent {
        Some(chosen) => agent::header_parts(chosen),
        None => (profile, catalog, counts),
    };
    let core = format!(
        "{} │ {profile} │ {on}/{servers} servers on │ {catalog}",
        app.inputs.config_label,
    );
    let warnings = match app.derived.warnings.len() {
        0 => String::new(),
        1 => " ⚠ 1 warning (w) ".to_string(),
        n => format!(" ⚠ {n} warnings (w) "),
    };
    let room = (area.width as usize).saturating_sub(width(&warnings));
    // The program's name and then the counting state go before the release or a figure.
    let text = schematax_engine::text::fit(
        &[
            format!(" schematax │ {core} │ {counts}"),
            format!(" {core} │ {counts}"),
            format!(" {core}"),
        ],
        room,
    );
    let mut spans = vec![Span::raw(text)];
    if !warnings.is_empty() {
        let used = width(&spans[0].content);
        spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
        spans.push(Span::styled(warnings, theme::HEADER_WARNING));
    }
    let line = Line::from(spans).style(theme::HEADER);
    frame.render_widget(Paragraph::new(line).style(theme::HEADER), area);
}

fn render_footer(app: &App, frame: &mut Frame, area: Rect) {
    let capturing = app.capturing.as_ref().map(|progress| {
        let mut text = format!(
            " re-capturing: {}/{} done",
            progress.done.len(),
            progress.total
        );
        for (server, result) in &progress.done {
            text.push_str(&match result {
                Ok(_) => format!(" · {server} ok"),
                Err(e) => format!(" · {server} failed: {e}"),
            });
        }
        text
    });
    let line = match capturing.as_ref().or(app.status.as_ref()) {
        Some(status) => Line::from(Span::styled(
            clip(&format!(" {status}"), area.width as usize),
            theme::NOTICE,
        )),
        None => {
            let mut spans = Vec::new();
            let mut used = 0usize;
            for (keys, hint) in hints(app.key_context()) {
                let piece = format!(" {keys} {hint} ");
                if used + piece.chars().count() > area.width as usize {
                    break;
                }
                used += piece.chars().count();
                spans.push(Span::styled(format!(" {keys}"), theme::HEADING));
                spans.push(Span::raw(format!(" {hint} ")));
            }
            Line::from(spans)
        }
    };
    frame.render_widget(Paragraph::new(line), area);
}

fn render_too_small(frame: &mut Frame, area: Rect) {
    let text = format!(
        "Terminal too small: {}x{}.\nschematax needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\nEnlarge the window, or press q to quit.",
        area.width, area.height
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::widgets::{Row, Table, TableState};
    use ratatui::Terminal;

    /// Draws `len` numbered rows of `row_height` lines under a header, all of them and then
    /// only the window [`visible_rows`] picks, and checks the two screens are the same.
    fn same_screen(len: usize, selected: Option<usize>, height: u16, row_height: u16) {
        let mut terminal = Terminal::new(TestBackend::new(12, height)).unwrap();
        let mut screens = Vec::new();
        for windowed in [false, true] {
            terminal
                .draw(|frame| {
                    let area = frame.area();
                    let window = if windowed {
                        visible_rows(len, selected, area.height - 1, row_height)
                    } else {
                        0..len
                    };
                    let rows = window
                        .clone()
                        .map(|i| Row::new(vec![format!("row {i}")]).height(row_height));
                    let table = Table::new(rows, [Constraint::Fill(1)])
                        .header(Row::new(vec!["head"]))
                        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
                    let selected = selected.and_then(|s| s.checked_sub(window.start));
                    frame.render_stateful_widget(
                        table,
                        area,
                        &mut TableState::default().with_selected(selected),
                    );
                })
                .unwrap();
            screens.push(terminal.backend().buffer().clone());
        }
        assert_eq!(
            screens[0], screens[1],
            "{len} rows of {row_height}, selected {selected:?}, {height} lines"
        );
    }

    #[test]
    fn a_window_of_rows_draws_what_the_whole_table_draws() {
        for len in [0, 1, 5, 9, 10, 11, 40] {
            for height in [3, 6, 10, 11] {
                for row_height in [1, 2] {
                    for selected in [None, Some(0), Some(4), Some(9), Some(10), Some(39)] {
                        let selected = selected.filter(|&s| s < len);
                        same_screen(len, selected, height, row_height);
                    }
                }
            }
        }
    }
}
