//! `schematax eval`: recall@1, recall@k and MRR of a queries file, by server and overall.

use crate::words::Words;
use serde::Serialize;
use std::collections::BTreeMap;

use crate::table::{escape_markdown, Align, Table};
use crate::Format;
use schematax_engine::analyses::eval::{Evaluation, Metrics};
use schematax_releases::Profile;

/// One query's outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QueryRow {
    /// Id.
    pub id: String,
    /// Query text.
    pub query: String,
    /// How it is phrased (`natural`, `keyword`, ...).
    pub style: String,
    /// Expected names as written.
    pub expected: Vec<String>,
    /// 1-based rank of the first acceptable hit; null for a miss.
    pub rank: Option<usize>,
    /// Hermes names of the top k hits.
    pub hits: Vec<String>,
    /// For a miss under the rarest-word gate: why the rule does not admit the expected tool.
    pub why: Option<String>,
}

/// The whole `eval` output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EvalReport {
    /// The engine profile.
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
    /// All queries.
    pub overall: Metrics,
    /// Per server.
    pub by_server: BTreeMap<String, Metrics>,
    /// Per query style.
    pub by_style: BTreeMap<String, Metrics>,
    /// Per query.
    pub queries: Vec<QueryRow>,
    /// Skipped entries and expected tools not in the catalog.
    pub warnings: Vec<String>,
}

impl EvalReport {
    /// The report of an evaluation under `profile`.
    pub fn build(evaluation: Evaluation, profile: Profile) -> EvalReport {
        let queries = evaluation
            .queries()
            .map(|q| QueryRow {
                why: q.not_admitted.map(Words::words),
                id: q.query.id.clone(),
                query: q.query.query.clone(),
                style: q.query.style.clone(),
                expected: q.query.expected.clone(),
                rank: q.rank,
                hits: q
                    .hits
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect(),
            })
            .collect();
        EvalReport {
            profile: profile.id().to_string(),
            hermes: profile.releases_label(),
            overall: evaluation.overall,
            by_server: evaluation.by_server,
            by_style: evaluation.by_style,
            queries,
            warnings: evaluation.warnings.iter().map(Words::words).collect(),
        }
    }

    /// The table of queries, with no row yet.
    fn queries_table() -> Table {
        Table::new(&[
            ("id", Align::Left),
            ("rank", Align::Right),
            ("query", Align::Left),
            ("expected", Align::Left),
            ("came instead (misses)", Align::Left),
        ])
        .clip_column("query", 60)
    }

    /// Each query's row of the table of queries.
    fn query_rows(&self) -> impl Iterator<Item = [String; 5]> + '_ {
        let k = self.overall.k;
        self.queries.iter().map(move |q| {
            let instead = match (q.rank, &q.why) {
                (Some(r), _) if r <= k => String::new(),
                (_, Some(why)) if q.hits.is_empty() => format!("nothing: the expected tool {why}"),
                _ => q.hits.join(", "),
            };
            [
                q.id.clone(),
                q.rank.map_or("miss".to_string(), |r| r.to_string()),
                q.query.clone(),
                q.expected.join(", "),
                instead,
            ]
        })
    }

    /// Writes the table of queries, a piece at a time (10,000 queries make a large table).
    fn write_queries(&self, markdown: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let table = Self::queries_table();
        let widths = table.widths_of(self.query_rows());
        table.write_in_pieces(markdown, &widths, self.query_rows(), out)
    }

    /// The table of recall and MRR by server, by style and overall.
    fn servers_table(&self) -> Table {
        let k = self.overall.k;
        let mut servers = Table::new(&[
            ("server", Align::Left),
            ("queries", Align::Right),
            ("recall@1", Align::Right),
            (&format!("recall@{k}"), Align::Right),
            ("MRR", Align::Right),
        ]);
        let mut add = |name: &str, m: &Metrics| {
            servers.row([
                name.to_string(),
                m.queries.to_string(),
                format!("{:.3}", m.recall_at_1),
                format!("{:.3}", m.recall_at_k),
                format!("{:.3}", m.mrr),
            ]);
        };
        for (name, m) in &self.by_server {
            add(name, m);
        }
        if self.by_style.len() > 1 {
            for (style, m) in &self.by_style {
                add(&format!("style: {style}"), m);
            }
        }
        add("overall", &self.overall);
        servers
    }

    /// Writes the report in `format` as it is made: JSON goes straight to `out`, so the text of
    /// a large evaluation is never held whole.
    pub fn write(&self, format: Format, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let headline = format!(
            "schematax eval: {}, recall@1 {:.3}, recall@{} {:.3}, MRR {:.3} (profile {} for Hermes {})",
            schematax_engine::text::count(self.overall.queries, "query", "queries"),
            self.overall.recall_at_1,
            self.overall.k,
            self.overall.recall_at_k,
            self.overall.mrr,
            self.profile,
            self.hermes
        );
        match format {
            Format::Json => super::write_json(self, out),
            Format::Table => {
                out.write_all(format!("{headline}\n\n").as_bytes())?;
                self.write_queries(false, out)?;
                let mut text = format!("\n{}", self.servers_table().to_text());
                for warning in &self.warnings {
                    text.push_str(&format!(
                        "warning: {}\n",
                        schematax_engine::text::sanitize(warning)
                    ));
                }
                out.write_all(text.as_bytes())
            }
            Format::Markdown => {
                out.write_all(format!("# {}\n\n", escape_markdown(&headline)).as_bytes())?;
                self.write_queries(true, out)?;
                let mut text = format!("\n{}", self.servers_table().to_markdown());
                for warning in &self.warnings {
                    text.push_str(&format!("\n- {}", escape_markdown(warning)));
                }
                out.write_all(text.as_bytes())
            }
        }
    }
}
