//! The panes while another agent than Hermes is modelled: the header names it and its
//! modelled parts, the Activation pane gives its rule and its turn's figures, the map its
//! threshold (or says it has none), and the Search pane ranks with its own search (or says in
//! one line why it cannot be replayed).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::app::App;
use crate::state::{AgentBuilt, ChosenAgent, Pane};
use crate::view::activation::gauge;
use crate::view::search::{HitRow, SearchView};
use crate::view::{is_focused, pane_block, theme};
use schematax_engine::agents::hits::MatchKind;
use schematax_engine::agents::turn::{Activation, ShareMeasure};
use schematax_engine::text::{clip, first_sentence, fit};
use schematax_releases::agents::{DeferralRule, RankingRule};
use schematax_report::agents::Size;
use schematax_report::{context_label, thousands};

/// Tokens when counted, else the chars/4 estimate.
fn best(size: &Size) -> u64 {
    size.tokens.unwrap_or(size.estimate_tokens)
}

/// The header's release, catalog and counting parts for the chosen agent.
pub(super) fn header_parts(chosen: &ChosenAgent) -> (String, String, String) {
    let Some(built) = &chosen.built else {
        return (
            format!("{} building...", chosen.label()),
            "its turn is on its way".to_string(),
            "building...".to_string(),
        );
    };
    let modelled = &built.column.modelled;
    let agent = if modelled.is_empty() {
        format!("{} (exact)", chosen.label())
    } else {
        format!("{} (modelled: {})", chosen.label(), modelled.join(", "))
    };
    let catalog = format!(
        "{} tools, {} deferred",
        thousands(built.turn.tools.len() as u64),
        thousands(built.turn.deferred() as u64)
    );
    let counts = match (&built.tokenizer, chosen.job.is_stale()) {
        (_, true) => "rebuilding...".to_string(),
        (Ok(name), false) => format!("{name} counted"),
        (Err(_), false) => "chars/4 only".to_string(),
    };
    (agent, catalog, counts)
}

/// The Activation pane: the agent's setting and context, its verdict and rule, and its
/// turn's figures (before and after, listing, fixed texts, instructions, one search's load).
pub(super) fn render_activation(chosen: &ChosenAgent, frame: &mut Frame, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let lines = match &chosen.built {
        Some(built) => activation_lines(chosen, built, width),
        None => vec![Line::from(Span::styled(
            clip(&format!("building {}'s turn...", chosen.agent.title), width),
            theme::DIM,
        ))],
    };
    frame.render_widget(
        Paragraph::new(lines).block(pane_block("Activation", false)),
        area,
    );
}

fn activation_lines(chosen: &ChosenAgent, built: &AgentBuilt, width: usize) -> Vec<Line<'static>> {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let context = context_label(built.settings.context_window);
    let setting = match chosen.release.rules.deferral {
        DeferralRule::SettingWithTokenShare { .. } => Some(format!(
            "ENABLE_TOOL_SEARCH={}",
            built
                .settings
                .enable_tool_search
                .as_deref()
                .unwrap_or("unset")
        )),
        _ => None,
    };
    // The setting goes before the agent's name, which the header gives too.
    let title = chosen.agent.title;
    let variants: Vec<(bool, String)> = match &setting {
        Some(setting) => vec![
            (true, format!(" · {setting} · context {context}")),
            (false, format!("{setting} · context {context}")),
            (false, format!("{setting} · {context}")),
            (false, setting.clone()),
        ],
        None => vec![(true, format!(" · context {context}")), (false, context)],
    };
    let room = |(titled, rest): &(bool, String)| {
        rest.chars().count() + if *titled { title.chars().count() } else { 0 }
    };
    let (titled, rest) = variants
        .iter()
        .find(|v| room(v) <= width)
        .or(variants.last())
        .cloned()
        .unwrap_or_default();
    let mut head = Vec::new();
    if titled {
        head.push(Span::styled(title.to_string(), bold));
    }
    head.push(Span::raw(clip(&rest, width)));
    let on = built.turn.activation.on();
    let word = if on { " ACTIVE " } else { " INACTIVE " };
    let deferred = format!(
        " {} of {} tools deferred",
        thousands(built.turn.deferred() as u64),
        thousands(built.turn.tools.len() as u64)
    );
    let mut lines = vec![
        Line::from(head),
        Line::from(vec![
            Span::styled(word, theme::badge(on)),
            Span::raw(clip(&deferred, width.saturating_sub(word.len()))),
        ]),
    ];
    lines.extend(
        wrapped(&format!("rule: {}", built.column.activation.why), width, 2)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, theme::DIM))),
    );
    lines.extend(figure_lines(built, width));
    lines
}

/// The turn's figures, most telling first.
fn figure_lines(built: &AgentBuilt, width: usize) -> Vec<Line<'static>> {
    let parts = &built.column.parts;
    let (before, after) = (best(&parts.without_deferral), best(&parts.per_turn));
    let unit = match &built.tokenizer {
        Ok(name) => format!("{name} tokens"),
        Err(_) => "chars/4".to_string(),
    };
    let change = format!("{} -> {}", thousands(before), thousands(after));
    let saved = if before == 0 {
        0.0
    } else {
        (before as f64 - after as f64) * 100.0 / before as f64
    };
    let mut lines = vec![
        Line::from(fit(
            &[
                format!("a turn {change} {unit}"),
                format!("a turn {change} tokens"),
                change.clone(),
            ],
            width,
        )),
        Line::from(Span::styled(
            format!("saved {saved:.1}%"),
            theme::verdict(saved >= 0.0).add_modifier(Modifier::BOLD),
        )),
    ];
    let pairs = [
        (
            ("listing", &parts.listing),
            ("fixed texts", &parts.fixed_tools),
        ),
        (
            ("instructions", &parts.instructions),
            ("one search", &parts.one_search),
        ),
    ];
    for ((a, size_a), (b, size_b)) in pairs {
        let (a_tokens, b_tokens) = (thousands(best(size_a)), thousands(best(size_b)));
        lines.push(Line::from(fit(
            &[
                format!("{a} {a_tokens} · {b} {b_tokens}"),
                format!("{a} {a_tokens}"),
            ],
            width,
        )));
    }
    lines.push(Line::from(fit(
        &[format!("sent whole {}", thousands(best(&parts.eager)))],
        width,
    )));
    let counted = match &built.tokenizer {
        Ok(name) => format!("counted in {name}, the view's tokenizer"),
        Err(reason) => format!("chars/4: {reason}"),
    };
    lines.push(Line::from(Span::styled(clip(&counted, width), theme::DIM)));
    lines.push(Line::from(Span::styled(
        clip(
            &format!("its display: {}", built.turn.release.rules.context_display),
            width,
        ),
        theme::DIM,
    )));
    lines
}

/// `text` in lines of `width` at most, broken between words, `max` lines at most (the last
/// one clipped).
fn wrapped(text: &str, width: usize, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if candidate.chars().count() > width && !line.is_empty() {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = candidate;
        }
    }
    lines.push(line);
    if lines.len() > max {
        let rest = lines[max - 1..].join(" ");
        lines.truncate(max - 1);
        lines.push(rest);
    }
    lines.into_iter().map(|l| clip(&l, width)).collect()
}

/// The map pane: the agent's threshold against its deferrable tools, or one line saying it
/// has none.
pub(super) fn render_map(chosen: &ChosenAgent, frame: &mut Frame, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let title = chosen.agent.title;
    let lines = match chosen.built.as_ref().map(|b| (&b.turn.activation, b)) {
        None => vec![Line::from(Span::styled(
            format!("building {title}'s turn..."),
            theme::DIM,
        ))],
        Some((
            Activation::TokenShare {
                pct,
                threshold,
                measure,
                on,
                ..
            },
            built,
        )) => {
            let (value, mark, unit) = match *measure {
                ShareMeasure::Tokens { counted, overhead } => {
                    (counted.saturating_sub(overhead), *threshold, "tokens")
                }
                ShareMeasure::Chars { chars, needed } => (chars, needed, "chars"),
            };
            vec![
                Line::from(format!(
                    "auto:{pct} threshold: {pct}% of {}",
                    context_label(built.settings.context_window)
                )),
                gauge(value, mark, *on, true, width),
                Line::from(fit(
                    &[
                        format!("{} of {} {unit}", thousands(value), thousands(mark)),
                        format!("{}/{}", thousands(value), thousands(mark)),
                    ],
                    width,
                )),
                Line::from(Span::styled(
                    if *on { " ACTIVE " } else { " INACTIVE " },
                    theme::badge(*on),
                )),
            ]
        }
        Some((_, built)) => vec![Line::from(format!(
            "{title} has no threshold: {}",
            built.column.activation.why
        ))],
    };
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(pane_block("Activation map", false)),
        area,
    );
}

/// The Search pane's view under the agent's own search.
pub(super) fn search_view<'a>(app: &'a App, chosen: &'a ChosenAgent) -> SearchView<'a> {
    let search = &app.search;
    let title = chosen.agent.title;
    let results = chosen.release.rules.loading.default_results;
    let ranking = match chosen.release.rules.ranking {
        RankingRule::Keywords { .. } => "keywords",
        RankingRule::Bm25Crate { .. } => "bm25",
        RankingRule::ServerSide => "server-side",
        RankingRule::OwnTools | RankingRule::None => "no search",
    };
    let found = chosen.search.as_ref();
    let via = found.map_or(ranking, |s| match s.kind {
        MatchKind::Keywords => "keywords",
        MatchKind::ExactName => "exact name",
        MatchKind::NamePrefix => "name prefix",
        MatchKind::Select => "select:",
        MatchKind::Bm25 => "bm25",
    });
    let deferred = chosen
        .built
        .as_ref()
        .map_or(0, |b| b.turn.deferred() as u64);
    let ties = if found.is_some_and(|s| s.tied_at_cut) {
        " · ties at the cut"
    } else {
        ""
    };
    let hits = found.map_or_else(Vec::new, |s| {
        s.hits
            .iter()
            .map(|hit| HitRow {
                name: &hit.name,
                server: &hit.server,
                summary: description(app, &hit.server, &hit.tool),
                score: hit
                    .score
                    .map_or_else(|| "exact".to_string(), |s| format!("{s:.2}")),
                matched_terms: &[],
            })
            .collect()
    });
    let empty = match chosen.built.as_ref().map(|b| &b.index) {
        None => Some(format!("Building {title}'s turn...")),
        Some(Err(why)) => Some(format!(
            "{title} {why}; its search is not replayed."
        )),
        Some(Ok(_)) if search.query.trim().is_empty() => Some(format!(
            "Type / and a query: the hits re-rank on every keystroke, as {title}'s own search ({ranking}) ranks them."
        )),
        Some(Ok(_)) if hits.is_empty() => Some(format!("No tool matched in {title}'s search.")),
        Some(Ok(_)) => None,
    };
    SearchView {
        query: &search.query,
        typing: search.typing,
        status: match chosen.built.as_ref().map(|b| b.index.is_ok()) {
            Some(true) => format!(
                " {} · {via} · {results} results{ties} · {} deferred",
                chosen.agent.id,
                thousands(deferred)
            ),
            _ => format!(
                " {} · {via} · {} deferred",
                chosen.agent.id,
                thousands(deferred)
            ),
        },
        gate: None,
        empty,
        hits,
        near_misses: Vec::new(),
        selected: (is_focused(app, Pane::Search) || search.typing).then_some(search.selected),
    }
}

/// The first sentence of a tool's description, from the captures.
fn description<'a>(app: &'a App, server: &str, tool: &str) -> &'a str {
    app.inputs
        .captures
        .iter()
        .find(|c| c.server == server)
        .and_then(|c| c.tools.iter().find(|t| t.name == tool))
        .and_then(|t| t.description.as_deref())
        .map_or("", first_sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_wraps_between_words_and_clips_its_last_line() {
        assert_eq!(wrapped("one two three", 7, 2), ["one two", "three"]);
        assert_eq!(wrapped("one two three four", 7, 2), ["one two", "three …"]);
        assert_eq!(wrapped("short", 20, 2), ["short"]);
        assert_eq!(wrapped("unbreakableword", 5, 2), ["unbr…"]);
    }
}
