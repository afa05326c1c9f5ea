//! `schematax sweep`: activation over a grid of context lengths and threshold_pct values. For
//! releases before 0.20.0, the gate's verdict and its exact flip points; from 0.20.0, the
//! listing form and the bridge cost in each cell, and the budgets where the form changes.

use serde::Serialize;

use crate::table::{Align, Table};
use crate::{context_label, pct_label, thousands, Format};
use schematax_engine::replay::activation::{
    ContextLength, ContextLimit, ContextSource, FlipPoints, CONTEXT_PRESETS,
};
use schematax_engine::replay::listing::ListingForm;
use schematax_engine::replay::session::Session;
use schematax_engine::replay::threshold::threshold_tokens;

/// threshold_pct columns of the grid (the current value is added when missing).
pub const SWEEP_THRESHOLDS: [f64; 8] = [1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 50.0];

/// One context length of the grid.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepRow {
    /// Context length in tokens.
    pub context_length: u64,
    /// The verdict at each threshold of [`SweepReport::thresholds`].
    pub active: Vec<bool>,
    /// The listing form at each threshold (releases from 0.20.0; empty before).
    pub forms: Vec<&'static str>,
    /// Tokens sent for the deferrable tools at each threshold: the bridge (with its listing)
    /// when active, else the schemas.
    pub tokens_after: Vec<u64>,
}

/// The least listing budget of one form.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FormBudget {
    /// `full`, `names`, `mixed`, `groups` or `none`.
    pub form: &'static str,
    /// The least budget (tokens) at which the catalog's listing takes this form.
    pub min_budget: u64,
    /// The least threshold_pct (to 0.01) that gives that budget at the current context; null
    /// when unknown context, or when `listing_max_tokens` caps the budget below it.
    pub min_threshold_pct: Option<f64>,
}

/// The whole `sweep` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepReport {
    /// The engine profile.
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
    /// auto / on / off.
    pub mode: String,
    /// chars/4 tokens of the deferrable schemas.
    pub deferrable_tokens: u64,
    /// Current context length (0 = unknown).
    pub context_length: u64,
    /// Current threshold_pct.
    pub threshold_pct: f64,
    /// `listing_max_tokens` (releases from 0.20.0).
    pub listing_max_tokens: Option<u32>,
    /// The verdict at the current setting.
    pub active: bool,
    /// Column values.
    pub thresholds: Vec<f64>,
    /// Rows.
    pub grid: Vec<SweepRow>,
    /// Seed: largest threshold_pct (to 0.01) that activates at the current context (auto).
    pub max_threshold_pct: Option<f64>,
    /// Seed: largest context length that activates at the current threshold_pct (auto; null
    /// when none or every one does, see `every_context_activates`).
    pub max_context_length: Option<u64>,
    /// Seed: true when every context length activates (threshold_pct 0).
    pub every_context_activates: bool,
    /// Newer: where the listing form changes, by budget.
    pub form_budgets: Vec<FormBudget>,
}

impl SweepReport {
    /// Sweeps the session's current tool set.
    pub fn build(session: &Session) -> SweepReport {
        let activation = session.activation();
        let settings = *session.settings();
        let mut thresholds = SWEEP_THRESHOLDS.to_vec();
        if !thresholds.contains(&activation.threshold_pct) {
            thresholds.push(activation.threshold_pct);
            thresholds.sort_by(f64::total_cmp);
        }
        let mut contexts = CONTEXT_PRESETS.to_vec();
        if activation.context.tokens > 0 && !contexts.contains(&activation.context.tokens) {
            contexts.push(activation.context.tokens);
            contexts.sort_unstable();
        }
        let newer = activation.threshold_tokens.is_none();
        let grid = contexts
            .iter()
            .map(|&context| {
                let cells: Vec<_> = thresholds
                    .iter()
                    .map(|&pct| {
                        let mut at = settings;
                        at.threshold_pct = pct;
                        session.activation_at(
                            &at,
                            ContextLength {
                                tokens: context,
                                source: ContextSource::Flag,
                            },
                        )
                    })
                    .collect();
                SweepRow {
                    context_length: context,
                    active: cells.iter().map(|a| a.active).collect(),
                    forms: if newer {
                        cells
                            .iter()
                            .map(|a| {
                                a.listing
                                    .as_ref()
                                    .map_or("none", |l| l.listing.form.as_str())
                            })
                            .collect()
                    } else {
                        Vec::new()
                    },
                    tokens_after: cells
                        .iter()
                        .map(schematax_engine::replay::activation::Activation::tokens_after)
                        .collect(),
                }
            })
            .collect();
        let flip = (!newer).then(|| {
            FlipPoints::find(
                activation.deferrable_tokens,
                activation.context.tokens,
                activation.threshold_pct,
            )
        });
        let context = activation.context.tokens;
        let form_budgets = if newer {
            session
                .listing()
                .form_budgets()
                .into_iter()
                .map(|(form, budget)| FormBudget {
                    form: form.as_str(),
                    min_budget: budget,
                    min_threshold_pct: min_pct(budget, context, settings.listing_max_tokens, form),
                })
                .collect()
        } else {
            Vec::new()
        };
        SweepReport {
            profile: session.profile().id().to_string(),
            hermes: session.profile().releases_label(),
            mode: activation.mode.to_string(),
            deferrable_tokens: activation.deferrable_tokens,
            context_length: context,
            threshold_pct: activation.threshold_pct,
            listing_max_tokens: newer.then_some(settings.listing_max_tokens),
            active: activation.active,
            thresholds,
            grid,
            max_threshold_pct: flip.and_then(|f| f.max_threshold_pct),
            max_context_length: match flip.map(|f| f.max_context_length) {
                Some(ContextLimit::UpTo(c)) => Some(c),
                _ => None,
            },
            every_context_activates: flip
                .is_some_and(|f| f.max_context_length == ContextLimit::Unbounded),
            form_budgets,
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let legend = if self.form_budgets.is_empty() && self.listing_max_tokens.is_none() {
            "● active  · inactive  [ ] current setting"
        } else {
            "F full  N names  M mixed  G groups  · no listing  - inactive  [ ] current setting"
        };
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!("{}\n\n", self.headline());
                out.push_str(&self.table().to_text());
                out.push_str(&format!("\n{legend}\n\n"));
                for line in self.lines() {
                    out.push_str(&format!("{line}\n"));
                }
                out
            }
            Format::Markdown => {
                let mut out = format!("# {}\n\n", self.headline());
                out.push_str(&self.table().to_markdown());
                out.push_str(&format!("\n{legend}\n\n"));
                for line in self.lines() {
                    out.push_str(&format!("- {line}\n"));
                }
                out
            }
        }
    }

    fn headline(&self) -> String {
        match self.listing_max_tokens {
            None => format!(
                "Activation sweep: {} deferrable tokens (chars/4), mode {}, profile {} for Hermes {}",
                thousands(self.deferrable_tokens),
                self.mode,
                self.profile,
                self.hermes
            ),
            Some(max) => format!(
                "Listing sweep: {} deferrable tokens (chars/4), mode {}, listing_max_tokens {}, profile {} for Hermes {}",
                thousands(self.deferrable_tokens),
                self.mode,
                thousands(u64::from(max)),
                self.profile,
                self.hermes
            ),
        }
    }

    fn table(&self) -> Table {
        let newer = self.listing_max_tokens.is_some();
        let second = if newer {
            format!("bridge at {}%", pct_label(self.threshold_pct))
        } else {
            format!("tokens at {}%", pct_label(self.threshold_pct))
        };
        let mut columns: Vec<(String, Align)> =
            vec![("context".into(), Align::Left), (second, Align::Right)];
        columns.extend(
            self.thresholds
                .iter()
                .map(|&t| (format!("{}%", pct_label(t)), Align::Right)),
        );
        let columns: Vec<(&str, Align)> = columns.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let mut table = Table::new(&columns);
        let current = self
            .thresholds
            .iter()
            .position(|&t| t == self.threshold_pct)
            .unwrap_or(0);
        for row in &self.grid {
            let second = if newer {
                thousands(row.tokens_after[current])
            } else {
                thousands(threshold_tokens(row.context_length, self.threshold_pct))
            };
            let mut cells = vec![context_label(row.context_length), second];
            for i in 0..self.thresholds.len() {
                let mark = match row.forms.get(i) {
                    Some(_) if !row.active[i] => "-",
                    Some(form) => form_letter(form),
                    None if row.active[i] => "●",
                    None => "·",
                };
                let here = row.context_length == self.context_length && i == current;
                cells.push(if here {
                    format!("[{mark}]")
                } else {
                    mark.to_string()
                });
            }
            table.row(cells);
        }
        table
    }

    fn lines(&self) -> Vec<String> {
        match self.listing_max_tokens {
            Some(max) => self.form_lines(max),
            None => self.flip_lines(),
        }
    }

    fn form_lines(&self, max: u32) -> Vec<String> {
        let context = context_label(self.context_length);
        let mut lines = vec![format!(
            "The listing budget is min(listing_max_tokens {}, context x threshold_pct / 100); the form changes at these budgets:",
            thousands(u64::from(max))
        )];
        for budget in &self.form_budgets {
            let at = match budget.min_threshold_pct {
                Some(pct) if self.context_length > 0 => {
                    format!("threshold_pct {} at {context}", pct_label(pct))
                }
                None if budget.min_budget > u64::from(max) => format!(
                    "out of reach: raise listing_max_tokens to {}",
                    thousands(budget.min_budget)
                ),
                _ => "any threshold_pct (context unknown: a 10,000-token leg)".to_string(),
            };
            lines.push(format!(
                "  {:<6} from {} tokens ({at})",
                budget.form,
                thousands(budget.min_budget)
            ));
        }
        lines
    }

    fn flip_lines(&self) -> Vec<String> {
        if self.mode != "auto" {
            return vec![format!(
                "Mode {} ignores the threshold: no flip points.",
                self.mode
            )];
        }
        let mut lines = Vec::new();
        let context = context_label(self.context_length);
        lines.push(match self.max_threshold_pct {
            _ if self.context_length == 0 => {
                "Context length unknown: auto mode activates at 20,000 deferrable tokens whatever threshold_pct.".to_string()
            }
            Some(pct) => format!("Largest threshold_pct that activates at {context}: {}", pct_label(pct)),
            None => format!("No threshold_pct activates at {context}: nothing is deferrable."),
        });
        let pct = pct_label(self.threshold_pct);
        lines.push(
            match (self.max_context_length, self.every_context_activates) {
                (_, true) => format!("At threshold_pct {pct} every context length activates."),
                (Some(c), _) => format!(
                    "Largest context length that activates at threshold_pct {pct}: {} tokens",
                    thousands(c)
                ),
                (None, _) => format!("No context length activates at threshold_pct {pct}."),
            },
        );
        lines
    }
}

/// The grid letter of a form.
fn form_letter(form: &str) -> &'static str {
    match form {
        "full" => "F",
        "names" => "N",
        "mixed" => "M",
        "groups" => "G",
        _ => "·",
    }
}

/// The least threshold_pct, to 0.01, whose budget reaches `budget` at `context`; `None` when
/// the context is unknown or `listing_max_tokens` caps the budget below it.
fn min_pct(budget: u64, context: u64, listing_max: u32, form: ListingForm) -> Option<f64> {
    if context == 0 || budget > u64::from(listing_max) {
        return None;
    }
    if form == ListingForm::None || budget == 0 {
        return Some(0.0);
    }
    // floor(context * pct / 100) >= budget: search the hundredths.
    let reaches = |hundredths: u64| {
        (context as f64 * (hundredths as f64 / 100.0) / 100.0).floor() as u64 >= budget
    };
    (0..=10_000u64)
        .find(|&h| reaches(h))
        .map(|h| h as f64 / 100.0)
}
