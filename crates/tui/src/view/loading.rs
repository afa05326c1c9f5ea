//! The loading screen: drawn while a large catalog is read and indexed, so the view answers
//! at once and can be quit before it is ready.

use ratatui::layout::Constraint;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Padding, Paragraph, Wrap};
use ratatui::Frame;
use std::time::Duration;

use crate::view::{framed, theme};
use schematax_engine::text::clip;

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
    let box_area = area.centered(
        Constraint::Length(area.width.min(72)),
        Constraint::Length(6),
    );
    let block = framed(Line::from(" schematax "), true).padding(Padding::horizontal(1));
    let inner = block.inner(box_area);
    let lines = vec![
        Line::from(vec![
            Span::styled("Loading ", Style::new().add_modifier(Modifier::BOLD)),
            Span::raw(format!("{:.1} s", loading.elapsed.as_secs_f64())),
        ]),
        Line::from(clip(&loading.inputs, usize::from(inner.width))),
        Line::from("reading the captures and building the catalog"),
        Line::from(Span::styled("q quit", theme::ACCENT)),
    ];
    frame.render_widget(block, box_area);
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
}
