//! The Activation pane. Seed: the gate's numbers, a gauge of deferrable tokens against the
//! threshold, the verdict and the distance to the flip. From 0.20.0: the listing budget, a
//! gauge of the listing against it, the form, the tier, and the budgets where the form
//! changes. Both: the tool array before and after, and the savings.

use crate::view::theme;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;
use schematax_report::words::Worded;

use crate::app::App;
use crate::view::pane_block;
use schematax_engine::nouns::config::Mode;
use schematax_engine::replay::activation::{Activation, ContextLimit, Cost, FlipPoints, Traffic};
use schematax_engine::replay::listing::ListingForm;
use schematax_engine::text::{clip, fit};
use schematax_engine::tokenizers::TokenizerChoice;
use schematax_report::{context_label, dollars, pct_label, thousands};

/// What the Activation pane shows: made from the app, drawn without it.
#[derive(Debug, Clone, Copy)]
pub struct ActivationView<'a> {
    /// Activation of the current catalog and settings.
    pub activation: &'a Activation,
    /// Price and traffic of the dollar figures.
    pub traffic: &'a Traffic,
    /// The seed gate's flip points (auto mode).
    pub flip: Option<&'a FlipPoints>,
    /// The newer listing's least budget per form.
    pub form_budgets: &'a [(ListingForm, u64)],
    /// `listing` as set (from 0.20.0).
    pub listing: Mode,
    /// `listing_max_tokens` as set (from 0.20.0).
    pub listing_max_tokens: u32,
    /// The tokenizer of the real counts.
    pub tokenizer: &'a TokenizerChoice,
    /// The real count of the catalog, once counted.
    pub counted: Option<u64>,
}

impl<'a> ActivationView<'a> {
    /// The view of `app`.
    pub fn of(app: &'a App) -> ActivationView<'a> {
        ActivationView {
            activation: &app.derived.activation,
            traffic: &app.traffic,
            flip: app.derived.flip.as_ref(),
            form_budgets: &app.derived.form_budgets,
            listing: app.session.settings().listing,
            listing_max_tokens: app.session.settings().listing_max_tokens,
            tokenizer: app.session.tokenizer(),
            counted: app.derived.counted,
        }
    }
}

/// Draws the pane.
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    draw(&ActivationView::of(app), frame, area);
}

/// Draws a view of the pane: the settings, the gate or the listing, the tool array before and
/// after, the real count, then what a taller pane has room for.
fn draw(view: &ActivationView, frame: &mut Frame, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = settings_lines(view, width);
    lines.extend(gate_lines(view, width));
    lines.extend(savings_lines(view, width));
    lines.push(counts_line(view, width));
    lines.extend(detail_lines(view, width));
    frame.render_widget(
        Paragraph::new(lines).block(pane_block("Activation", false)),
        area,
    );
}

/// The mode, threshold and context, and where the context length came from.
fn settings_lines(view: &ActivationView, width: usize) -> Vec<Line<'static>> {
    let activation = view.activation;
    let dim = theme::DIM;
    let bold = Style::new().add_modifier(Modifier::BOLD);
    // The settings line drops its labels rather than cut a number or a unit.
    let (mode, pct, context) = (
        activation.mode.to_string(),
        format!("{}%", pct_label(activation.threshold_pct)),
        context_label(activation.context.tokens),
    );
    let labelled = format!("{mode} · threshold {pct} · context {context}");
    let (threshold_label, context_label_text) = if labelled.chars().count() <= width {
        (" · threshold ", " · context ")
    } else {
        (" · ", " of ")
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(mode, bold),
        Span::raw(threshold_label),
        Span::styled(pct, bold),
        Span::raw(context_label_text),
        Span::styled(context, bold),
    ])];
    lines.push(Line::from(Span::styled(
        clip(
            &format!("context: {}", Worded(&activation.context.source)),
            width,
        ),
        dim,
    )));
    lines
}

/// The listing (from 0.20.0), or the seed gate's gauge and verdict.
fn gate_lines(view: &ActivationView, width: usize) -> Vec<Line<'static>> {
    let activation = view.activation;
    let mut lines = Vec::new();
    match &activation.listing {
        Some(_) => lines.extend(listing_lines(view, width)),
        None if activation.threshold_tokens.is_none() => {
            lines.push(verdict(view, width));
        }
        None => {
            lines.push(gauge(
                activation.deferrable_tokens,
                activation.threshold_tokens.unwrap_or(0),
                activation.active,
                activation.mode == Mode::Auto,
                width,
            ));
            let of = format!(
                "{} of {} tokens",
                thousands(activation.deferrable_tokens),
                thousands(activation.threshold_tokens.unwrap_or(0))
            );
            lines.push(Line::from(fit(&[format!("{of} (chars/4)"), of], width)));
            lines.push(verdict(view, width));
        }
    }
    lines
}

/// The tool array before and after, and what that saves.
fn savings_lines(view: &ActivationView, width: usize) -> Vec<Line<'static>> {
    let activation = view.activation;
    let mut lines = Vec::new();
    let before = Cost::of(activation.tokens_before(), view.traffic);
    let after = Cost::of(activation.tokens_after(), view.traffic);
    let change = format!(
        "{} -> {} tokens",
        thousands(activation.tokens_before()),
        thousands(activation.tokens_after()),
    );
    let what = match (&activation.listing, activation.active) {
        (_, false) => "",
        (Some(l), true) if l.listing.form != ListingForm::None => " (bridge + listing)",
        (_, true) => " (bridge)",
    };
    lines.push(Line::from(fit(
        &[
            format!("tools {change}{what}"),
            format!("tools {change}"),
            change,
        ],
        width,
    )));
    let saved = before.minus(&after);
    lines.push(Line::from(vec![
        Span::styled(
            format!("saved {:.1}%", activation.savings_pct()),
            theme::verdict(activation.savings_pct() >= 0.0).add_modifier(Modifier::BOLD),
        ),
        Span::raw(fit(
            &[
                format!(
                    "  {}/turn  {}/month",
                    dollars(saved.per_turn),
                    dollars(saved.per_month)
                ),
                format!("  {}/month", dollars(saved.per_month)),
                format!("  {}/mo", dollars(saved.per_month)),
            ],
            width.saturating_sub(format!("saved {:.1}%", activation.savings_pct()).len()),
        )),
    ]));
    lines
}

/// The real count, in the named tokenizer, and why that tokenizer.
fn counts_line(view: &ActivationView, width: usize) -> Line<'static> {
    let name = view.tokenizer.tokenizer.name();
    let why = schematax_report::tokenizer::short_origin(view.tokenizer);
    let text = match view.counted {
        Some(tokens) => {
            let counts = format!("{} {name}", thousands(tokens));
            fit(
                &[
                    format!("{counts} tokens ({why})"),
                    format!("{counts} tokens"),
                    counts,
                ],
                width,
            )
        }
        None => fit(
            &[
                format!("{name} ({why}): counting..."),
                format!("{name}: counting..."),
            ],
            width,
        ),
    };
    Line::from(Span::styled(text, theme::DIM))
}

/// The flip point, the bridge's size and the dollars a turn, for taller panes.
fn detail_lines(view: &ActivationView, width: usize) -> Vec<Line<'static>> {
    let activation = view.activation;
    let before = Cost::of(activation.tokens_before(), view.traffic);
    let after = Cost::of(activation.tokens_after(), view.traffic);
    let mut lines = Vec::new();
    // Extra lines for taller panes.
    if let Some(flip) = view.flip {
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
    }
    let see = if activation.listing.is_some() {
        " (L: see it)"
    } else {
        ""
    };
    let bridge_tokens = thousands(activation.bridge_tokens);
    lines.push(Line::from(fit(
        &[
            format!(
                "bridge: 3 tools, {} chars = {bridge_tokens} tokens{see}",
                thousands(activation.bridge_chars)
            ),
            format!("bridge: 3 tools, {bridge_tokens} tokens{see}"),
            format!("bridge: {bridge_tokens} tokens"),
        ],
        width,
    )));
    let (before_turn, after_turn) = (dollars(before.per_turn), dollars(after.per_turn));
    lines.push(Line::from(Span::styled(
        fit(
            &[
                format!(
                    "before {before_turn}/turn, after {after_turn}/turn at ${:.2}/Mtok",
                    view.traffic.price_per_mtok
                ),
                format!("before {before_turn}/turn, after {after_turn}/turn"),
                format!("{before_turn} -> {after_turn} a turn"),
            ],
            width,
        ),
        theme::DIM,
    )));
    lines
}

/// The listing (releases from 0.20.0): a gauge of its size against the budget, the form, the tier.
fn listing_lines(view: &ActivationView, width: usize) -> Vec<Line<'static>> {
    let activation = view.activation;
    let Some(state) = &activation.listing else {
        return Vec::new();
    };
    let needed = state.listing.chars.div_ceil(4);
    let form = state.listing.form;
    let next = view
        .form_budgets
        .iter()
        .find(|(_, budget)| *budget > state.budget)
        .map(|(form, budget)| format!(" · {form} at {}", thousands(*budget)))
        .unwrap_or_default();
    let what = match form {
        ListingForm::Full => "every tool with a short description",
        ListingForm::Names => "every tool's name",
        ListingForm::Mixed => "names, largest servers summarised",
        ListingForm::Groups => "servers summarised, no names",
        ListingForm::None if view.listing == Mode::Off => "listing: off",
        ListingForm::None => "nothing fits",
    };
    vec![
        gauge(needed, state.budget, true, true, width),
        Line::from(fit(
            &[
                format!(
                    "listing {} of {} tokens (max {})",
                    thousands(needed),
                    thousands(state.budget),
                    thousands(u64::from(view.listing_max_tokens))
                ),
                format!(
                    "listing {} of {} tokens",
                    thousands(needed),
                    thousands(state.budget)
                ),
                format!("listing {}/{}", thousands(needed), thousands(state.budget)),
            ],
            width,
        )),
        verdict(view, width),
        // The next form's budget goes first, then the words.
        Line::from(fit(
            &[
                format!("{form}: {what}{next}"),
                format!("{form}: {what}"),
                format!("form: {form}"),
            ],
            width,
        )),
    ]
}

/// A bar of `value` against `mark`, the mark drawn in yellow when `show_mark`.
pub(super) fn gauge(
    value: u64,
    mark: u64,
    good: bool,
    show_mark: bool,
    width: usize,
) -> Line<'static> {
    let bar = width.saturating_sub(2).max(4);
    let scale = (value.max(mark) as f64 * 1.25).max(1.0);
    let filled = ((value as f64 / scale) * bar as f64).round() as usize;
    let at = ((mark as f64 / scale) * bar as f64).round() as usize;
    let color = theme::verdict(good);
    let mut spans = vec![Span::raw("[")];
    for i in 0..bar {
        spans.push(if show_mark && i == at.min(bar - 1) {
            Span::styled("┃", theme::MARK)
        } else if i < filled {
            Span::styled("█", color)
        } else {
            Span::styled("░", theme::DIM)
        });
    }
    spans.push(Span::raw("]"));
    Line::from(spans)
}

/// ACTIVE or INACTIVE, and how far away the flip is (seed) or the tier (newer).
fn verdict(view: &ActivationView, width: usize) -> Line<'static> {
    let activation = view.activation;
    let word = if activation.active {
        " ACTIVE "
    } else {
        " INACTIVE "
    };
    let badge = Span::styled(word, theme::badge(activation.active));
    let detail = match (activation.mode, activation.tokens_to_flip()) {
        _ if activation.deferrable_tools == 0 => " nothing to defer".to_string(),
        _ if activation.threshold_tokens.is_none() && activation.active => format!(
            " tier {}: {}",
            activation.tier(),
            if activation.tier() == 1 {
                "tools named in tool_search"
            } else {
                "no tool names listed"
            }
        ),
        _ if activation.threshold_tokens.is_none() => " enabled: off".to_string(),
        (Mode::Auto, Some(tokens)) if activation.context.tokens > 0 => {
            let tokens = thousands(tokens as u64);
            match (
                activation.active,
                view.flip.and_then(|f| f.max_threshold_pct),
            ) {
                (true, Some(p)) if p >= 100.0 => format!(
                    " always active, even at 100% of {}",
                    context_label(activation.context.tokens)
                ),
                (true, Some(p)) => format!(" flip: -{tokens} tok or >{}%", pct_label(p)),
                (false, Some(p)) => format!(" flip: +{tokens} tok or ≤{}%", pct_label(p)),
                (true, None) => format!(" flip: -{tokens} tok"),
                (false, None) => format!(" flip: +{tokens} tok"),
            }
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
