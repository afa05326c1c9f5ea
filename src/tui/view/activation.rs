//! The Activation pane: the gate's numbers, a gauge of deferrable tokens against the
//! threshold, the verdict, the distance to the flip, and the savings.

use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::pane_block;
use crate::engine::activation::{Activation, ContextLimit, Cost, FlipPoints};
use crate::engine::config::Mode;
use crate::engine::tokens::TokenCount;
use crate::report::{context_label, dollars, pct_label, thousands};
use crate::text::clip;
use crate::tui::app::App;

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let activation = app.session.activation();
    let width = area.width.saturating_sub(2) as usize;
    let dim = Style::new().fg(Color::DarkGray);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(
                activation.mode.to_string(),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw(" · threshold "),
            Span::styled(
                format!("{}%", pct_label(activation.threshold_pct)),
                Style::new().add_modifier(Modifier::BOLD),
            ),
            Span::raw(" · context "),
            Span::styled(
                context_label(activation.context.tokens),
                Style::new().add_modifier(Modifier::BOLD),
            ),
        ]),
        Line::from(Span::styled(
            clip(&format!("context: {}", activation.context.source), width),
            dim,
        )),
        gauge(&activation, width),
        Line::from(clip(
            &format!(
                "{} of {} tokens (chars/4)",
                thousands(activation.deferrable_tokens),
                thousands(activation.threshold_tokens.unwrap_or(0))
            ),
            width,
        )),
        verdict(&activation, width),
    ];
    let before = Cost::of(activation.tokens_before(), app.price_per_mtok);
    let after = Cost::of(activation.tokens_after(), app.price_per_mtok);
    lines.push(Line::from(clip(
        &format!(
            "tools {} -> {} tokens{}",
            thousands(activation.tokens_before()),
            thousands(activation.tokens_after()),
            if activation.active { " (bridge)" } else { "" }
        ),
        width,
    )));
    lines.push(Line::from(vec![
        Span::styled(
            format!("saved {:.1}%", activation.savings_pct()),
            Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        ),
        Span::raw(clip(
            &format!(
                "  {}/turn  {}/session",
                dollars(before.per_turn - after.per_turn),
                dollars(before.per_session - after.per_session)
            ),
            width.saturating_sub(12),
        )),
    ]));
    let counted: Option<TokenCount> = app.session.server_costs().iter().map(|c| c.counted).sum();
    lines.push(Line::from(Span::styled(
        clip(
            &match counted {
                Some(c) => format!(
                    "o200k {} · cl100k {} tokens",
                    thousands(c.o200k),
                    thousands(c.cl100k)
                ),
                None => "o200k/cl100k: counting...".to_string(),
            },
            width,
        ),
        dim,
    )));
    // Extra lines for taller panes.
    let flip = FlipPoints::find(
        activation.deferrable_tokens,
        activation.context.tokens,
        activation.threshold_pct,
    );
    if activation.mode == Mode::Auto {
        if let ContextLimit::UpTo(context) = flip.max_context_length {
            lines.push(Line::from(clip(
                &format!(
                    "largest active context at {}%: {}",
                    pct_label(activation.threshold_pct),
                    thousands(context)
                ),
                width,
            )));
        }
    }
    lines.push(Line::from(clip(
        &format!(
            "bridge: 3 tools, {} chars = {} tokens",
            thousands(activation.bridge_chars),
            thousands(activation.bridge_tokens)
        ),
        width,
    )));
    lines.push(Line::from(Span::styled(
        clip(
            &format!(
                "before {}/turn, after {}/turn at ${:.2}/Mtok",
                dollars(before.per_turn),
                dollars(after.per_turn),
                app.price_per_mtok
            ),
            width,
        ),
        dim,
    )));
    frame.render_widget(
        Paragraph::new(lines).block(pane_block("Activation", false)),
        area,
    );
}

/// Deferrable tokens as a bar, with the threshold marked.
fn gauge(activation: &Activation, width: usize) -> Line<'static> {
    let bar = width.saturating_sub(2).max(4);
    let scale = (activation
        .deferrable_tokens
        .max(activation.threshold_tokens.unwrap_or(0)) as f64
        * 1.25)
        .max(1.0);
    let filled = ((activation.deferrable_tokens as f64 / scale) * bar as f64).round() as usize;
    let mark =
        ((activation.threshold_tokens.unwrap_or(0) as f64 / scale) * bar as f64).round() as usize;
    let color = if activation.active {
        Color::Green
    } else {
        Color::Red
    };
    let mut spans = vec![Span::raw("[")];
    for i in 0..bar {
        spans.push(if activation.mode == Mode::Auto && i == mark.min(bar - 1) {
            Span::styled(
                "┃",
                Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            )
        } else if i < filled {
            Span::styled("█", Style::new().fg(color))
        } else {
            Span::styled("░", Style::new().fg(Color::DarkGray))
        });
    }
    spans.push(Span::raw("]"));
    Line::from(spans)
}

/// ACTIVE or INACTIVE, and how far away the flip is.
fn verdict(activation: &Activation, width: usize) -> Line<'static> {
    let (word, color) = if activation.active {
        (" ACTIVE ", Color::Green)
    } else {
        (" INACTIVE ", Color::Red)
    };
    let badge = Span::styled(
        word,
        Style::new()
            .bg(color)
            .fg(Color::Black)
            .add_modifier(Modifier::BOLD),
    );
    let detail = match (activation.mode, activation.tokens_to_flip()) {
        _ if activation.deferrable_tools == 0 => " nothing to defer".to_string(),
        (Mode::Auto, Some(tokens)) if activation.context.tokens > 0 => {
            let flip = FlipPoints::find(
                activation.deferrable_tokens,
                activation.context.tokens,
                activation.threshold_pct,
            );
            let pct = match (activation.active, flip.max_threshold_pct) {
                (true, Some(p)) => format!(" or >{}%", pct_label(p)),
                (false, Some(p)) => format!(" or ≤{}%", pct_label(p)),
                _ => String::new(),
            };
            let sign = if activation.active { '-' } else { '+' };
            format!(" flip: {sign}{} tok{pct}", thousands(tokens as u64))
        }
        (Mode::Auto, Some(tokens)) => format!(
            " unknown context: {} tokens from 20,000",
            thousands(tokens.unsigned_abs())
        ),
        (mode, _) => format!(" forced by mode {mode}"),
    };
    Line::from(vec![
        badge,
        Span::raw(clip(&detail, width.saturating_sub(word.len()))),
    ])
}
