//! The loading screen: drawn while a large catalog is read and indexed, so the view answers
//! at once and can be quit before it is ready.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;
use std::time::Duration;

use super::{framed, ACCENT};
use crate::text::clip;

/// What the loading screen shows: what is being read, and for how long.
#[derive(Debug, Clone, PartialEq)]
pub struct Loading {
    /// The inputs being read, as the person named them.
    pub inputs: String,
    /// Time since the view started.
    pub elapsed: Duration,
}

/// Draws the loading screen, centred, in any terminal size.
pub fn render(loading: &Loading, frame: &mut Frame) {
    let area = frame.area();
    let width = area.width.min(72);
    let [_, middle, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(6),
        Constraint::Fill(1),
    ])
    .areas(area);
    let [_, block_area, _] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(width),
        Constraint::Fill(1),
    ])
    .areas(middle);
    let inner_width = usize::from(block_area.width.saturating_sub(4));
    let lines = vec![
        Line::from(vec![
            Span::styled("Loading ", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(format!("{:.1} s", loading.elapsed.as_secs_f64())),
        ]),
        Line::from(clip(&loading.inputs, inner_width)),
        Line::from("reading the captures and building the catalog"),
        Line::from(Span::styled("q quit", Style::new().fg(ACCENT))),
    ];
    let block = framed(Line::from(" schematax "), true);
    let inner = padded(block.inner(block_area));
    frame.render_widget(block, block_area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}

/// `area` less one column on each side.
fn padded(area: Rect) -> Rect {
    Rect {
        x: area.x + 1.min(area.width),
        width: area.width.saturating_sub(2),
        ..area
    }
}
