//! The overlays' contents: the bridge and listing the model sees, a search's payload, and one
//! tool's detail.

use schematax_engine::nouns::config::Mode;
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::replay::activation::Activation;
use schematax_engine::replay::catalog::ToolRef;
use schematax_engine::replay::listing::ListingForm;
use schematax_report::{context_label, pct_label, thousands};

use crate::app::App;
use crate::state::{DetailView, Overlay};

impl App {
    /// The bridge the model sees, as the release sends it (listing included, when it has one).
    pub(super) fn show_listing(&mut self) {
        let activation = &self.derived.activation;
        let profile = self.session.profile();
        let detail = match self.session.bridge_definitions() {
            Some(definitions) => {
                let form = activation
                    .listing
                    .as_ref()
                    .map_or(ListingForm::None, |l| l.listing.form);
                let description = definitions[0]["function"]["description"]
                    .as_str()
                    .unwrap_or_default();
                let heading = match profile.spec().listing {
                    Some(_) => format!("tool_search description ({form} listing):"),
                    None => format!(
                        "tool_search description (Hermes {} lists no tools; the listing came in 0.20):",
                        profile.releases_label()
                    ),
                };
                let mut lines: Vec<String> = vec![heading, String::new()];
                lines.extend(description.lines().map(str::to_string));
                lines.push(String::new());
                lines.push("The three definitions, as sent:".to_string());
                for definition in &definitions {
                    lines.extend(
                        schematax_report::to_json(definition)
                            .lines()
                            .map(str::to_string),
                    );
                }
                let listing = match form {
                    ListingForm::None => "no listing".to_string(),
                    form => format!("{form} listing"),
                };
                DetailView {
                    title: format!(
                        "The bridge as the model sees it ({}, {listing})",
                        self.session.profile(),
                    ),
                    summary: format!(
                        "3 tools, {} chars = {} tokens (chars/4), listing included",
                        thousands(activation.bridge_chars),
                        thousands(activation.bridge_tokens)
                    ),
                    lines,
                    scroll: 0,
                }
            }
            None => DetailView {
                title: "The bridge".to_string(),
                summary: "Tool Search is inactive: no bridge is sent".to_string(),
                lines: vec![why_inactive(activation)],
                scroll: 0,
            },
        };
        self.overlay = Some(Overlay::Detail(detail, None));
    }

    pub(super) fn show_payload(&mut self) {
        let payload = self
            .session
            .search_payload(&[(self.search.query.clone(), self.search.result.clone())]);
        let summary = format!(
            "{} of {}, via {}: this is all the model sees (no scores)",
            schematax_engine::text::count(self.search.result.hits.len(), "match", "matches"),
            schematax_engine::text::count(self.session.total_available(), "tool", "tools"),
            self.search.result.via.as_str()
        );
        self.overlay = Some(Overlay::Detail(
            DetailView::new(
                format!("tool_search {:?}", self.search.query),
                summary,
                &payload,
            ),
            None,
        ));
    }

    /// The detail of one tool: its `tool_describe` payload, cost by each method, and what
    /// Hermes's schema passes changed in it.
    pub(super) fn tool_detail(&self, place: ToolRef) -> DetailView {
        let entry = &self.session.servers()[place.server].tools[place.tool];
        let payload = match self.session.describe(&entry.name) {
            Ok(payload) | Err(payload) => payload,
        };
        let tokenizer = self.session.tokenizer().tokenizer.name();
        let counted = match self.session.token_count(place.server, place.tool) {
            Some(tokens) => format!("{} {tokenizer}", thousands(tokens)),
            None => format!("{tokenizer} counting..."),
        };
        let summary = format!(
            "{} chars, {} tokens by chars/4, {counted}",
            thousands(entry.chars),
            thousands(estimate_tokens(entry.chars))
        );
        let mut title = format!("tool_describe {}", entry.name);
        if !self.session.is_connected(place.server) {
            title.push_str(" (server off)");
        } else if self.session.catalog_position(place).is_none() {
            title.push_str(" (not in the catalog)");
        }
        let mut detail = DetailView::new(title, summary, &payload);
        if let Some(change) = schematax_report::describe::schema_change(entry) {
            detail.lines.push(String::new());
            detail.lines.push(change.summary(entry.chars));
            detail
                .lines
                .push("(- captured only, + what Hermes sends)".to_string());
            detail.lines.extend(change.diff);
        }
        detail
    }
}

/// Why Tool Search is inactive, as one sentence: `enabled: off`, nothing to defer, or (to
/// 0.19) the deferrable schemas below the threshold.
fn why_inactive(activation: &Activation) -> String {
    let sent = "so every tool is sent as it is";
    let have = thousands(activation.deferrable_tokens);
    match activation.threshold_tokens {
        _ if activation.mode == Mode::Off => "With enabled: off, every tool is sent as it is.".into(),
        _ if activation.deferrable_tools == 0 => {
            format!("No tool of the servers on can be deferred, {sent}.")
        }
        Some(threshold) if activation.context.tokens == 0 => format!(
            "With enabled: auto and an unknown context length, Tool Search needs {} chars/4 tokens of deferrable schemas; they have {have}, {sent}.",
            thousands(threshold)
        ),
        Some(threshold) => format!(
            "With enabled: auto, Tool Search activates when the deferrable schemas reach threshold_pct of the context: they have {have} chars/4 tokens, below {}% of {} ({} tokens), {sent}.",
            pct_label(activation.threshold_pct),
            context_label(activation.context.tokens),
            thousands(threshold)
        ),
        None => format!("Tool Search is inactive, {sent}."),
    }
}
