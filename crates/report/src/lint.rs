//! `schematax lint`: findings per tool as a table, JSON, Markdown or SARIF 2.1.0.

use crate::words::{Worded, Words};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;

use crate::table::{escape_markdown, Align, Table};
use schematax_engine::analyses::lint::{FindingDetails, Findings, Severity, RULES};
use schematax_engine::text::{sanitize, width};

/// How many findings' rows `lint --format json` makes at a time, side by side, before writing
/// them out.
const ROWS_RUN: usize = 4096;

/// `--format` of `lint`: the report formats plus SARIF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LintFormat {
    /// Aligned plain text.
    #[default]
    Table,
    /// JSON.
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// One finding as output.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FindingRow {
    /// Rule id.
    pub rule: &'static str,
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// Server key.
    pub server: String,
    /// Raw MCP tool name.
    pub tool: String,
    /// Hermes name (empty for a tool skipped by a collision).
    pub name: String,
    /// What is wrong and the fix.
    pub message: String,
    /// Hermes names of the tools involved.
    pub related: Vec<String>,
}

impl From<FindingDetails> for FindingRow {
    fn from(f: FindingDetails) -> FindingRow {
        FindingRow {
            rule: f.rule.id,
            severity: f.rule.severity.as_str(),
            server: f.server,
            tool: f.tool,
            name: f.name,
            message: f.problem.words(),
            related: f.related,
        }
    }
}

/// Counts by severity.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Default)]
pub struct Summary {
    /// Error findings.
    pub errors: usize,
    /// Warning findings.
    pub warnings: usize,
    /// Info findings.
    pub infos: usize,
}

/// The whole `lint` output. Its findings are held compactly and written out one at a time as
/// the report is written: at 100,000 tools their text runs to hundreds of megabytes.
#[derive(Debug, Clone)]
pub struct LintReport {
    /// Findings, most severe first.
    pub findings: Findings,
    /// Counts by severity.
    pub summary: Summary,
    /// Tools linted.
    pub tools: usize,
    /// The engine profile the findability rules ran under.
    pub profile: String,
    /// The Hermes releases the profile replays (`0.18.1, 0.18.2, 0.19.0`).
    pub hermes: String,
    /// The capture file of each server, for SARIF locations.
    pub sources: BTreeMap<String, String>,
}

impl LintReport {
    /// Builds the report from a lint's findings; `sources` maps servers to their capture
    /// files.
    pub fn build(findings: Findings, sources: BTreeMap<String, String>) -> LintReport {
        let mut summary = Summary::default();
        for finding in findings.iter() {
            match finding.rule.severity {
                Severity::Error => summary.errors += 1,
                Severity::Warning => summary.warnings += 1,
                Severity::Info => summary.infos += 1,
            }
        }
        LintReport {
            summary,
            tools: findings.tools(),
            profile: findings.profile().id().to_string(),
            hermes: findings.profile().releases_label(),
            findings,
            sources,
        }
    }

    /// Whether any finding is at least as severe as `level`.
    pub fn reaches(&self, level: Severity) -> bool {
        match level {
            Severity::Error => self.summary.errors > 0,
            Severity::Warning => self.summary.errors + self.summary.warnings > 0,
            Severity::Info => !self.findings.is_empty(),
        }
    }

    fn headline(&self) -> String {
        format!(
            "schematax lint: {}, {}, {}, {} (profile {} for Hermes {})",
            schematax_engine::text::count(self.tools, "tool", "tools"),
            schematax_engine::text::count(self.summary.errors, "error", "errors"),
            schematax_engine::text::count(self.summary.warnings, "warning", "warnings"),
            schematax_engine::text::count(self.summary.infos, "info", "infos"),
            self.profile,
            self.hermes
        )
    }

    /// The findings as a table, written a piece at a time, the pieces made side by side.
    fn write_table(&self, markdown: bool, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let row_of = |index: usize| {
            let f = FindingRow::from(self.findings.details(index).expect("a finding in range"));
            [
                f.severity.to_string(),
                f.rule.to_string(),
                f.server,
                f.tool,
                f.message,
            ]
        };
        empty_table().write_in_pieces_side_by_side(
            markdown,
            &self.column_widths(),
            self.findings.len(),
            row_of,
            out,
        )
    }

    /// The widest cell of each name column over all the findings (the message, last, is
    /// never padded).
    fn column_widths(&self) -> [usize; 4] {
        let mut widths = [0; 4];
        for f in self.findings.iter() {
            let (server, tool) = self.findings.subject(f);
            for (widest, cell) in
                widths
                    .iter_mut()
                    .zip([f.rule.severity.as_str(), f.rule.id, server, tool])
            {
                *widest = (*widest).max(width(&sanitize(cell)));
            }
        }
        widths
    }

    /// Writes the report in `format` as it is made: JSON and SARIF go straight to `out`, so
    /// the text of a large report is never held whole.
    pub fn write(&self, format: LintFormat, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match format {
            LintFormat::Json => self.write_json_side_by_side(out),
            LintFormat::Sarif => super::write_json(&self.sarif(), out),
            LintFormat::Table | LintFormat::Markdown => {
                let markdown = format == LintFormat::Markdown;
                let headline = if markdown {
                    format!("# {}\n\n", escape_markdown(&self.headline()))
                } else {
                    format!("{}\n\n", self.headline())
                };
                out.write_all(headline.as_bytes())?;
                if self.findings.is_empty() {
                    out.write_all(b"No findings.\n")
                } else {
                    self.write_table(markdown, out)
                }
            }
        }
    }

    /// Writes the report as JSON: the bytes [`crate::write_json`] makes of it, with the
    /// findings' rows made [`ROWS_RUN`] at a time, side by side in shares of about
    /// `ROWS_RUN` / threads rows ([`crate::write_pieces_side_by_side`]).
    fn write_json_side_by_side(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(b"{\n  \"findings\": ")?;
        let rows = self.findings.len();
        if rows == 0 {
            out.write_all(b"[]")?;
        } else {
            out.write_all(b"[")?;
            let share = ROWS_RUN.div_ceil(rayon::current_num_threads());
            crate::write_pieces_side_by_side(
                rows,
                share,
                |indices| {
                    let mut part = Vec::new();
                    for index in indices {
                        part.extend_from_slice(if index == 0 { b"\n    " } else { b",\n    " });
                        let details = self.findings.details(index).expect("a finding in range");
                        crate::write_json_at(&FindingRow::from(details), 2, &mut part)?;
                    }
                    Ok(part)
                },
                out,
            )?;
            out.write_all(b"\n  ]")?;
        }
        out.write_all(b",\n  \"summary\": ")?;
        crate::write_json_at(&self.summary, 1, out)?;
        out.write_all(b",\n  \"tools\": ")?;
        crate::write_json_at(&self.tools, 1, out)?;
        out.write_all(b",\n  \"profile\": ")?;
        crate::write_json_at(&self.profile, 1, out)?;
        out.write_all(b",\n  \"hermes\": ")?;
        crate::write_json_at(&self.hermes, 1, out)?;
        out.write_all(b"\n}\n")
    }

    /// The findings as a SARIF 2.1.0 log, its results written out as it is serialised.
    fn sarif(&self) -> SarifLog<'_> {
        let rules = RULES
            .iter()
            .map(|r| {
                json!({
                    "id": r.id,
                    "shortDescription": {"text": r.summary},
                    "defaultConfiguration": {"level": sarif_level(r.severity)},
                })
            })
            .collect();
        SarifLog {
            schema: "https://json.schemastore.org/sarif-2.1.0.json",
            version: "2.1.0",
            runs: [SarifRun {
                tool: json!({"driver": {"name": "schematax", "version": env!("CARGO_PKG_VERSION"), "rules": Value::Array(rules)}}),
                results: SarifResults(self),
            }],
        }
    }

    /// One finding as a SARIF result.
    fn sarif_result(&self, f: FindingDetails) -> Value {
        let mut location = json!({
            "logicalLocations": [{"fullyQualifiedName": format!("{}/{}", f.server, f.tool), "kind": "function"}],
        });
        if let Some(uri) = self.sources.get(&f.server) {
            location["physicalLocation"] =
                json!({"artifactLocation": {"uri": crate::sarif_uri(uri)}});
        }
        json!({
            "ruleId": f.rule.id,
            "ruleIndex": RULES.iter().position(|r| r.id == f.rule.id).unwrap_or(0),
            "level": sarif_level(f.rule.severity),
            "message": {"text": format!("{}/{}: {}", f.server, f.tool, Worded(&f.problem))},
            "locations": [location],
        })
    }
}

/// The table of findings, with no row yet.
fn empty_table() -> Table {
    Table::new(&[
        ("severity", Align::Left),
        ("rule", Align::Left),
        ("server", Align::Left),
        ("tool", Align::Left),
        ("message", Align::Left),
    ])
    .clip_column("message", 400)
}

/// SARIF's level for a severity.
fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A SARIF 2.1.0 log of one run.
#[derive(Serialize)]
struct SarifLog<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [SarifRun<'a>; 1],
}

/// The run: the tool with its rules, and the results.
#[derive(Serialize)]
struct SarifRun<'a> {
    tool: Value,
    results: SarifResults<'a>,
}

/// A report's findings as SARIF results, written out as they are serialised.
struct SarifResults<'a>(&'a LintReport);

impl Serialize for SarifResults<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(
            self.0
                .findings
                .all_details()
                .map(|f| self.0.sarif_result(f)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_engine::analyses::lint::lint;
    use schematax_engine::inputs::capture_file::parse_capture;
    use schematax_engine::nouns::config::Config;
    use schematax_engine::replay::session::{Overrides, Session};
    use serde::ser::SerializeStruct;

    /// The report serialised whole by serde, the reference that
    /// [`LintReport::write_json_side_by_side`] is held to.
    impl Serialize for LintReport {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut report = serializer.serialize_struct("LintReport", 5)?;
            report.serialize_field("findings", &Rows(&self.findings))?;
            report.serialize_field("summary", &self.summary)?;
            report.serialize_field("tools", &self.tools)?;
            report.serialize_field("profile", &self.profile)?;
            report.serialize_field("hermes", &self.hermes)?;
            report.end()
        }
    }

    /// The findings as output rows, written out as they are serialised.
    struct Rows<'a>(&'a Findings);

    impl Serialize for Rows<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.all_details().map(FindingRow::from))
        }
    }

    /// The lint report of one server `srv` whose tools are the given JSON objects.
    fn report_of(tools: &[String]) -> LintReport {
        let capture = parse_capture(
            format!(r#"{{"server":"srv","tools":[{}]}}"#, tools.join(",")).as_bytes(),
            "srv",
        )
        .unwrap();
        let session = Session::new(&Config::default(), &[capture], &Overrides::default());
        LintReport::build(lint(&session), BTreeMap::new())
    }

    #[test]
    fn the_table_of_many_findings_is_the_table_written_whole() {
        // More findings than a piece of a table holds, on names of many widths.
        let tools: Vec<String> = (0..4500)
            .map(|i| {
                let name = format!("t{i}_{}", "x".repeat(i % 37));
                format!(r#"{{"name":"{name}","description":"Short.","inputSchema":{{"type":"object"}}}}"#)
            })
            .collect();
        let report = report_of(&tools);
        let mut whole = empty_table();
        for f in report.findings.all_details().map(FindingRow::from) {
            whole.row([f.severity, f.rule, &f.server, &f.tool, &f.message]);
        }
        for (markdown, expected) in [(false, whole.to_text()), (true, whole.to_markdown())] {
            let mut pieces = Vec::new();
            report.write_table(markdown, &mut pieces).unwrap();
            assert!(
                String::from_utf8(pieces).unwrap() == expected,
                "markdown: {markdown}"
            );
        }
    }

    #[test]
    fn the_json_written_row_by_row_on_every_core_is_the_report_serialised_whole() {
        // More findings than a run of rows, with short descriptions (quoted in their findings'
        // messages) that must be escaped: a newline, a C1 control, a bidirectional override,
        // quotes.
        let tools: Vec<String> = (0..4500)
            .map(|i| {
                let description = match i % 4 {
                    0 => "Short.".to_string(),
                    1 => r#"A\nb \"q\" \u0085 \u202e."#.to_string(),
                    2 => format!("Lists the {i} things of a kind, with paging."),
                    _ => String::new(),
                };
                format!(
                    r#"{{"name":"t{i}_{}","description":"{description}","inputSchema":{{"type":"object"}}}}"#,
                    "é".repeat(i % 5)
                )
            })
            .collect();
        let report = report_of(&tools);
        assert!(
            report.findings.len() > ROWS_RUN,
            "{} findings",
            report.findings.len()
        );
        let empty = Session::new(&Config::default(), &[], &Overrides::default());
        let none = LintReport::build(lint(&empty), BTreeMap::new());
        let whole = crate::to_json(&report);
        for escaped in [r#"A\nb \"q\""#, r"\u0085", r"\u202e"] {
            assert!(whole.contains(escaped), "{escaped} is not in the report");
        }
        // One share a run, and shares that do not divide a run evenly.
        for threads in [1, 3, 7] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for report in [&report, &none] {
                let mut written = Vec::new();
                pool.install(|| report.write(LintFormat::Json, &mut written))
                    .unwrap();
                assert!(
                    String::from_utf8(written).unwrap() == crate::to_json(report),
                    "{threads} threads"
                );
            }
        }
    }
}
