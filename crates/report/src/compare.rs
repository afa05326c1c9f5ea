//! `schematax compare` (alias `diff-profiles`): the same inputs under several Hermes releases
//! side by side, and with a queries file each query's rank under each and what each later
//! release finds or loses against the first.

use crate::words::Words;
use serde::Serialize;
use std::collections::BTreeMap;

use crate::cost::signed_thousands;
use crate::table::{escape_markdown, Align, Table};
use crate::{thousands, Format};
use schematax_engine::analyses::compare::ProfileComparison;
use schematax_engine::analyses::eval::Metrics;
use schematax_engine::inputs::Inputs;

/// One profile's figures.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ProfileColumn {
    /// The profile.
    pub profile: String,
    /// The releases it covers.
    pub releases: String,
    /// Deferrable tools in its catalog.
    pub deferrable_tools: usize,
    /// chars/4 tokens of their definitions (after its schema passes).
    pub tokens_before: u64,
    /// Whether Tool Search is active.
    pub active: bool,
    /// 0 inactive, 1 tools named, 2 not.
    pub tier: u8,
    /// The listing form (null for a release without a listing).
    pub listing_form: Option<String>,
    /// The listing budget (from 0.20.0, when active).
    pub listing_budget: Option<u64>,
    /// chars/4 tokens of the bridge, listing included.
    pub bridge_tokens: u64,
    /// Tokens sent for the deferrable tools.
    pub tokens_after: u64,
    /// Percent saved.
    pub savings_pct: f64,
    /// Retrieval of the queries file, overall.
    pub overall: Option<Metrics>,
    /// Retrieval per query style.
    pub by_style: BTreeMap<String, Metrics>,
}

/// One query under every profile compared.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QueryColumns {
    /// Id.
    pub id: String,
    /// Query.
    pub query: String,
    /// Style.
    pub style: String,
    /// Expected tools, `server/tool`.
    pub expected: Vec<String>,
    /// Rank under each profile, by profile id (null: a miss).
    pub ranks: BTreeMap<String, Option<usize>>,
}

/// The whole `compare` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CompareReport {
    /// Where the config came from: its path, `embedded sample` or `none`.
    pub config_path: String,
    /// What was loaded, in words: the config's path, `embedded sample`, or the captures given.
    pub inputs: String,
    /// The profiles, the first the baseline.
    pub profiles: Vec<ProfileColumn>,
    /// The k of recall@k.
    pub k: usize,
    /// Every query under every profile.
    pub queries: Vec<QueryColumns>,
    /// Per later profile, the queries whose expected tool it finds in the top k and the first
    /// does not.
    pub gained: BTreeMap<String, Vec<String>>,
    /// Per later profile, the queries whose expected tool the first finds in the top k and it
    /// does not.
    pub lost: BTreeMap<String, Vec<String>>,
    /// Skipped queries and expected tools not in a catalog.
    pub warnings: Vec<String>,
}

impl CompareReport {
    /// The report of a comparison.
    pub fn build(inputs: &Inputs, comparison: &ProfileComparison) -> CompareReport {
        let profiles = comparison
            .sides
            .iter()
            .map(|side| {
                let a = &side.activation;
                ProfileColumn {
                    profile: side.profile.id().to_string(),
                    releases: side.profile.releases_label(),
                    deferrable_tools: a.deferrable_tools,
                    tokens_before: a.tokens_before(),
                    active: a.active,
                    tier: a.tier(),
                    listing_form: side.profile.spec().listing.is_some().then(|| {
                        a.listing
                            .as_ref()
                            .map_or("none", |l| l.listing.form.as_str())
                            .to_string()
                    }),
                    listing_budget: a.listing.as_ref().map(|l| l.budget),
                    bridge_tokens: a.bridge_tokens,
                    tokens_after: a.tokens_after(),
                    savings_pct: a.savings_pct(),
                    overall: side.evaluation.as_ref().map(|e| e.overall),
                    by_style: side
                        .evaluation
                        .as_ref()
                        .map(|e| e.by_style.clone())
                        .unwrap_or_default(),
                }
            })
            .collect();
        let ids: Vec<String> = comparison
            .sides
            .iter()
            .map(|s| s.profile.id().to_string())
            .collect();
        let queries = comparison
            .queries
            .iter()
            .map(|q| QueryColumns {
                id: q.id.clone(),
                query: q.query.clone(),
                style: q.style.clone(),
                expected: q.expected.clone(),
                ranks: ids.iter().cloned().zip(q.ranks.iter().copied()).collect(),
            })
            .collect();
        let by_side = |test: &dyn Fn(
            &schematax_engine::analyses::compare::QueryComparison,
            usize,
        ) -> bool| {
            ids.iter()
                .enumerate()
                .skip(1)
                .map(|(side, id)| {
                    let matching: Vec<String> = comparison
                        .queries
                        .iter()
                        .filter(|q| test(q, side))
                        .map(|q| q.id.clone())
                        .collect();
                    (id.clone(), matching)
                })
                .collect()
        };
        let k = comparison.k;
        CompareReport {
            config_path: inputs.config_source(),
            inputs: inputs.config_label.clone(),
            profiles,
            k,
            queries,
            gained: by_side(&|q, side| q.gained_by(side, k)),
            lost: by_side(&|q, side| q.lost_by(side, k)),
            warnings: comparison.warnings.iter().map(Words::words).collect(),
        }
    }

    /// The side-by-side figures as rows of (label, one cell per profile).
    fn figure_rows(&self) -> Vec<(String, Vec<String>)> {
        let cell = |f: &dyn Fn(&ProfileColumn) -> String| -> Vec<String> {
            self.profiles.iter().map(f).collect()
        };
        let mut rows = vec![
            ("releases".to_string(), cell(&|p| p.releases.clone())),
            (
                "deferrable tools".to_string(),
                cell(&|p| thousands(p.deferrable_tools as u64)),
            ),
            (
                "tokens before".to_string(),
                cell(&|p| thousands(p.tokens_before)),
            ),
            (
                "activation".to_string(),
                cell(&|p| {
                    // Seed has no tiers (its JSON says tier 1 for any active session).
                    if p.active && p.listing_form.is_some() {
                        format!("ACTIVE, tier {}", p.tier)
                    } else if p.active {
                        "ACTIVE".to_string()
                    } else {
                        "INACTIVE".to_string()
                    }
                }),
            ),
            (
                "listing".to_string(),
                cell(&|p| match (&p.listing_form, p.listing_budget) {
                    (Some(form), Some(budget)) => {
                        format!("{form} (budget {})", thousands(budget))
                    }
                    (Some(form), None) => form.clone(),
                    (None, _) => "-".to_string(),
                }),
            ),
            (
                "bridge tokens".to_string(),
                cell(&|p| thousands(p.bridge_tokens)),
            ),
            (
                "tokens after".to_string(),
                cell(&|p| thousands(p.tokens_after)),
            ),
            (
                "saved".to_string(),
                cell(&|p| {
                    format!(
                        "{} ({:.1}%)",
                        signed_thousands(p.tokens_before as i64 - p.tokens_after as i64),
                        p.savings_pct
                    )
                }),
            ),
        ];
        let metric = |m: Option<&Metrics>| {
            m.map_or("-".to_string(), |m| {
                format!(
                    "recall@{} {:.3}, MRR {:.3} ({})",
                    self.k,
                    m.recall_at_k,
                    m.mrr,
                    schematax_engine::text::count(m.queries, "query", "queries")
                )
            })
        };
        if self.profiles.iter().any(|p| p.overall.is_some()) {
            rows.push(("queries".to_string(), cell(&|p| metric(p.overall.as_ref()))));
            let styles: Vec<&String> = self.profiles[0].by_style.keys().collect();
            if styles.len() > 1 {
                for style in styles {
                    rows.push((
                        format!("  style {style}"),
                        cell(&|p| metric(p.by_style.get(style))),
                    ));
                }
            }
        }
        rows
    }

    fn figures_table(&self) -> Table {
        let mut columns: Vec<(&str, Align)> = vec![("", Align::Left)];
        columns.extend(
            self.profiles
                .iter()
                .map(|p| (p.profile.as_str(), Align::Right)),
        );
        let mut table = Table::new(&columns);
        for (label, cells) in self.figure_rows() {
            table.row(std::iter::once(label).chain(cells));
        }
        table
    }

    fn queries_table(&self) -> Table {
        let mut columns: Vec<(&str, Align)> = vec![
            ("id", Align::Left),
            ("style", Align::Left),
            ("query", Align::Left),
            ("expected", Align::Left),
        ];
        columns.extend(
            self.profiles
                .iter()
                .map(|p| (p.profile.as_str(), Align::Right)),
        );
        let mut table = Table::new(&columns).clip_column("query", 48);
        for q in &self.queries {
            let ranks = self.profiles.iter().map(|p| {
                q.ranks
                    .get(&p.profile)
                    .copied()
                    .flatten()
                    .map_or("miss".to_string(), |r| r.to_string())
            });
            table.row(
                [
                    q.id.clone(),
                    q.style.clone(),
                    q.query.clone(),
                    q.expected.join(", "),
                ]
                .into_iter()
                .chain(ranks),
            );
        }
        table
    }

    fn found_lines(&self) -> Vec<String> {
        let first = self.profiles.first().map_or("", |p| p.profile.as_str());
        let list = |ids: &[String]| {
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        };
        self.profiles
            .iter()
            .skip(1)
            .flat_map(|p| {
                let id = p.profile.as_str();
                let gained = self.gained.get(id).map_or(&[][..], Vec::as_slice);
                let lost = self.lost.get(id).map_or(&[][..], Vec::as_slice);
                [
                    format!(
                        "Found in the top {} by {id}, not by {first}: {}",
                        self.k,
                        list(gained)
                    ),
                    format!(
                        "Found in the top {} by {first}, not by {id}: {}",
                        self.k,
                        list(lost)
                    ),
                ]
            })
            .collect()
    }

    /// Renders in `format`.
    pub fn render(&self, format: Format) -> String {
        let ids: Vec<&str> = self.profiles.iter().map(|p| p.profile.as_str()).collect();
        let headline = format!(
            "schematax compare: {} under {}",
            schematax_engine::text::sanitize(&self.inputs),
            ids.join(", ")
        );
        match format {
            Format::Json => super::to_json(self),
            Format::Table => {
                let mut out = format!(
                    "{}\n\n{}",
                    schematax_engine::text::sanitize(&headline),
                    self.figures_table().to_text()
                );
                if !self.queries.is_empty() {
                    out.push_str(&format!(
                        "\nRank of the expected tool under each profile (miss: not among its max_search_limit hits)\n\n{}\n",
                        self.queries_table().to_text()
                    ));
                    for line in self.found_lines() {
                        out.push_str(&format!("{line}\n"));
                    }
                }
                if !self.warnings.is_empty() {
                    out.push_str("\nwarnings\n");
                    for warning in &self.warnings {
                        out.push_str(&format!(
                            "  - {}\n",
                            schematax_engine::text::sanitize(warning)
                        ));
                    }
                }
                out
            }
            Format::Markdown => {
                let mut out = format!(
                    "# {}\n\n{}",
                    escape_markdown(&headline),
                    self.figures_table().to_markdown()
                );
                if !self.queries.is_empty() {
                    out.push_str(&format!(
                        "\n## Queries\n\n{}\n",
                        self.queries_table().to_markdown()
                    ));
                    for line in self.found_lines() {
                        out.push_str(&format!("- {}\n", escape_markdown(&line)));
                    }
                }
                if !self.warnings.is_empty() {
                    out.push_str("\n## Warnings\n\n");
                    for warning in &self.warnings {
                        out.push_str(&format!("- {}\n", escape_markdown(warning)));
                    }
                }
                out
            }
        }
    }
}
