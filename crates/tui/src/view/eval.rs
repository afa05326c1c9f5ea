//! The Eval pane: recall and MRR of the queries file under this release and the one it is
//! compared with, side by side (the current one first), recomputed in the background as
//! servers and the pane's k change; the per-query table shows the current profile's rank
//! beside the other's.

use crate::view::theme;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, TableState, Wrap};
use ratatui::Frame;
use schematax_report::words::Worded;

use crate::app::App;
use crate::state::Pane;
use crate::view::{is_focused, lower_block, visible_rows};
use schematax_engine::analyses::eval::{Evaluation, Metrics};
use schematax_engine::text::{clip, sanitize, thousands};
use schematax_releases::Profile;

/// A rank as the pane shows it, and its style.
fn rank_cell(rank: Option<usize>, k: usize) -> (String, Style) {
    let text = rank.map_or("miss".to_string(), |r| r.to_string());
    (text, theme::rank(rank, k))
}

/// What the Eval pane shows: made from the app, drawn without it.
#[derive(Debug, Clone, Copy)]
pub struct EvalView<'a> {
    /// The release shown.
    pub current: Profile,
    /// The release it is compared with.
    pub other: Profile,
    /// The evaluations under each, once both are made.
    pub evaluations: Option<(&'a Evaluation, &'a Evaluation)>,
    /// The selected query, when the pane has the focus.
    pub selected: Option<usize>,
    /// Whether a newer evaluation is on its way.
    pub updating: bool,
}

impl<'a> EvalView<'a> {
    /// The view of `app`; None without a queries file.
    pub fn of(app: &'a App) -> Option<EvalView<'a>> {
        let eval = app.eval.as_ref()?;
        let current = app.session.profile();
        let other = current.contrast();
        Some(EvalView {
            current,
            other,
            evaluations: eval.evaluation(current).zip(eval.evaluation(other)),
            selected: is_focused(app, Pane::Eval).then_some(eval.selected),
            updating: eval.job.is_stale(),
        })
    }
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = lower_block(app);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if let Some(view) = EvalView::of(app) {
        draw(&view, frame, inner);
    }
}

/// Draws a view of the pane inside its frame: the figures of both releases, then each query.
fn draw(view: &EvalView, frame: &mut Frame, inner: Rect) {
    let (current, other) = (view.current, view.other);
    let Some((mine, theirs)) = view.evaluations else {
        frame.render_widget(
            Paragraph::new(format!(
                "Evaluating the queries file under {current} and {other}..."
            ))
            .style(theme::DIM)
            .wrap(Wrap { trim: true }),
            inner,
        );
        return;
    };
    let styles = mine.by_style.len();
    let summary_rows = 2 + if styles > 1 { 2 * styles } else { 0 };
    let [summary, queries_area] = Layout::vertical([
        Constraint::Length(summary_rows as u16 + 1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    frame.render_widget(summary_table(view, mine, theirs), summary);
    draw_queries(view, mine, theirs, frame, queries_area);
    if view.updating {
        let note = Span::styled(" updating...", theme::NOTICE);
        frame.render_widget(
            Paragraph::new(Line::from(note)).right_aligned(),
            Rect::new(inner.x, inner.y, inner.width, 1),
        );
    }
}

/// recall@1, recall@k and MRR under each release, overall and by query style.
fn summary_table(view: &EvalView, mine: &Evaluation, theirs: &Evaluation) -> Table<'static> {
    let (current, other) = (view.current, view.other);
    let styles: Vec<&String> = mine.by_style.keys().collect();
    let k = mine.overall.k;
    let metric = |m: Option<&Metrics>| -> Vec<Cell<'static>> {
        match m {
            Some(m) => vec![
                Cell::from(Line::from(thousands(m.queries as u64)).right_aligned()),
                Cell::from(Line::from(format!("{:.3}", m.recall_at_1)).right_aligned()),
                Cell::from(Line::from(format!("{:.3}", m.recall_at_k)).right_aligned()),
                Cell::from(Line::from(format!("{:.3}", m.mrr)).right_aligned()),
            ],
            None => Vec::new(),
        }
    };
    let mut rows = Vec::new();
    for (profile, evaluation) in [(current, mine), (other, theirs)] {
        let label = if profile == current {
            format!("{profile} (now)")
        } else {
            profile.to_string()
        };
        let mut cells = vec![Cell::from(label)];
        cells.extend(metric(Some(&evaluation.overall)));
        let style = if profile == current {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        rows.push(Row::new(cells).style(style));
    }
    if styles.len() > 1 {
        for style in &styles {
            for (profile, evaluation) in [(current, mine), (other, theirs)] {
                let mut cells = vec![Cell::from(format!("  {style}, {}", short(profile)))];
                cells.extend(metric(evaluation.by_style.get(*style)));
                rows.push(Row::new(cells).style(theme::MUTED));
            }
        }
    }
    // Figures are right-aligned, and so are their headings.
    let heading = |text: String| Cell::from(Line::from(text).right_aligned());
    let header = Row::new(vec![
        Cell::from("profile"),
        heading("queries".into()),
        heading("r@1".into()),
        heading(format!("r@{k}")),
        heading("MRR".into()),
    ])
    .style(Style::new().add_modifier(Modifier::BOLD));
    // The count as large as a queries file holds ("100,000").
    let widths = [
        Constraint::Length(26),
        Constraint::Length(7),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(6),
    ];
    Table::new(rows, widths).header(header).column_spacing(1)
}

/// Each query's rank under both releases, and what came first instead.
fn draw_queries(
    view: &EvalView,
    mine: &Evaluation,
    theirs: &Evaluation,
    frame: &mut Frame,
    queries_area: Rect,
) {
    let (current, other) = (view.current, view.other);
    let k = mine.overall.k;
    let selected = view.selected;
    // Below the header row.
    let lines = queries_area.height.saturating_sub(1);
    let window = visible_rows(mine.len(), selected, lines, 1);
    // Only the rows on screen are made, however many queries there are.
    let cells: Vec<_> = window
        .clone()
        .filter_map(|i| Some((mine.query(i)?, theirs.query(i)?)))
        .map(|(q, o)| {
            let instead = match (q.not_admitted, q.rank) {
                (_, Some(r)) if r <= k => String::new(),
                (Some(why), _) if q.hits.is_empty() => format!("expected tool {}", Worded(why)),
                _ => q
                    .hits
                    .first()
                    .map_or_else(String::new, std::string::ToString::to_string),
            };
            (
                rank_cell(q.rank, k),
                rank_cell(o.rank, k),
                sanitize(&q.query.query).into_owned(),
                sanitize(&instead).into_owned(),
            )
        })
        .collect();
    // A rank under each profile, headed by its short name (`0.22.2`, `seed`); then the query
    // and what came instead, each whole when both fit, else sharing the room by their sizes.
    let room = queries_area.width.saturating_sub(6 + 6 + 3);
    let longest = |column: &dyn Fn(&(_, _, String, String)) -> &String| {
        cells
            .iter()
            .map(|c| schematax_engine::text::width(column(c)) as u16)
            .max()
            .unwrap_or(0)
    };
    let (query_needs, instead_needs) = (longest(&|c| &c.2).max(5), longest(&|c| &c.3).max(24));
    let query_width = if query_needs + instead_needs <= room {
        query_needs
    } else {
        (u32::from(room) * u32::from(query_needs) / u32::from(query_needs + instead_needs)) as u16
    };
    let widths = [
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(query_width),
        Constraint::Fill(1),
    ];
    let rows = cells.into_iter().map(
        |((rank, color), (other_rank, other_color), query, instead)| {
            Row::new(vec![
                Cell::from(Line::from(rank).right_aligned()).style(color),
                Cell::from(Line::from(other_rank).right_aligned()).style(other_color),
                Cell::from(query),
                Cell::from(instead).style(theme::DIM),
            ])
        },
    );
    let other_header = clip(short(other), 6);
    let header = Row::new(vec![
        Cell::from(Line::from(clip(short(current), 6)).right_aligned()),
        Cell::from(Line::from(other_header).right_aligned()),
        Cell::from("query"),
        Cell::from("came first instead / why"),
    ])
    .style(Style::new().add_modifier(Modifier::BOLD));
    let table = Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let selected = selected.and_then(|s| s.checked_sub(window.start));
    frame.render_stateful_widget(
        table,
        queries_area,
        &mut TableState::default().with_selected(selected),
    );
}

/// A short name of a profile for narrow columns: its first release (`0.21.4`).
fn short(profile: Profile) -> &'static str {
    profile.short_label()
}
