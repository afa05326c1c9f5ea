//! `schematax sweep`: the gate over a grid of context lengths and threshold_pct values, and the
//! exact flip points for the current tool set.

use serde::Serialize;

use super::table::{Align, Table};
use super::{context_label, pct_label, thousands, Format};
use crate::engine::activation::{
    is_active, threshold_tokens, ContextLimit, FlipPoints, CONTEXT_PRESETS,
};
use crate::engine::session::Session;

/// threshold_pct columns of the grid (the current value is added when missing).
pub const SWEEP_THRESHOLDS: [f64; 8] = [1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 50.0];

/// One context length of the grid.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepRow {
    /// Context length in tokens.
    pub context_length: u64,
    /// The verdict at each threshold of [`SweepReport::thresholds`].
    pub active: Vec<bool>,
}

/// The whole `sweep` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SweepReport {
    /// auto / on / off.
    pub mode: String,
    /// chars/4 tokens of the deferrable schemas.
    pub deferrable_tokens: u64,
    /// Current context length (0 = unknown).
    pub context_length: u64,
    /// Current threshold_pct.
    pub threshold_pct: f64,
    /// The verdict at the current setting.
    pub active: bool,
    /// Column values.
    pub thresholds: Vec<f64>,
    /// Rows.
    pub grid: Vec<SweepRow>,
    /// Largest threshold_pct (to 0.01) that activates at the current context (auto mode).
    pub max_threshold_pct: Option<f64>,
    /// Largest context length that activates at the current threshold_pct (auto mode; null
    /// when none or every one does, see `every_context_activates`).
    pub max_context_length: Option<u64>,
    /// True when every context length activates (threshold_pct 0).
    pub every_context_activates: bool,
}

impl SweepReport {
    /// Sweeps the gate for the session's current tool set.
    pub fn build(session: &Session) -> SweepReport {
        let activation = session.activation();
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
        let grid = contexts
            .iter()
            .map(|&context| SweepRow {
                context_length: context,
                active: thresholds
                    .iter()
                    .map(|&pct| {
                        is_active(activation.mode, activation.deferrable_tokens, context, pct)
                    })
                    .collect(),
            })
            .collect();
        let flip = FlipPoints::find(
            activation.deferrable_tokens,
            activation.context.tokens,
            activation.threshold_pct,
        );
        SweepReport {
            mode: activation.mode.to_string(),
            deferrable_tokens: activation.deferrable_tokens,
            context_length: activation.context.tokens,
            threshold_pct: activation.threshold_pct,
            active: activation.active,
            thresholds,
            grid,
            max_threshold_pct: flip.max_threshold_pct,
            max_context_length: match flip.max_context_length {
                ContextLimit::UpTo(c) => Some(c),
                _ => None,
            },
            every_context_activates: flip.max_context_length == ContextLimit::Unbounded,
        }
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!("{}\n\n", self.headline());
                out.push_str(&self.table().to_text());
                out.push_str("\n● active  · inactive  [ ] current setting\n\n");
                for line in self.flip_lines() {
                    out.push_str(&format!("{line}\n"));
                }
                out
            }
            Format::Markdown => {
                let mut out = format!("# {}\n\n", self.headline());
                out.push_str(&self.table().to_markdown());
                out.push_str("\n● active, · inactive, [ ] current setting\n\n");
                for line in self.flip_lines() {
                    out.push_str(&format!("- {line}\n"));
                }
                out
            }
        }
    }

    fn headline(&self) -> String {
        format!(
            "Activation sweep: {} deferrable tokens (chars/4), mode {}",
            thousands(self.deferrable_tokens),
            self.mode
        )
    }

    fn table(&self) -> Table {
        let mut columns: Vec<(String, Align)> = vec![
            ("context".into(), Align::Left),
            (
                format!("tokens at {}%", pct_label(self.threshold_pct)),
                Align::Right,
            ),
        ];
        columns.extend(
            self.thresholds
                .iter()
                .map(|&t| (format!("{}%", pct_label(t)), Align::Right)),
        );
        let columns: Vec<(&str, Align)> = columns.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let mut table = Table::new(&columns);
        for row in &self.grid {
            // The second column is the threshold in tokens at the current threshold_pct.
            let mut cells = vec![
                context_label(row.context_length),
                thousands(threshold_tokens(row.context_length, self.threshold_pct)),
            ];
            for (i, &active) in row.active.iter().enumerate() {
                let mark = if active { "●" } else { "·" };
                let current = row.context_length == self.context_length
                    && self.thresholds[i] == self.threshold_pct;
                cells.push(if current {
                    format!("[{mark}]")
                } else {
                    mark.to_string()
                });
            }
            table.row(cells);
        }
        table
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
