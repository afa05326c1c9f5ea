//! `schematax report --format html`: one self-contained page (inline CSS, no script, no
//! request of any kind) made of the other reports' models: the cost report under both
//! profiles, the sweep of each, the lint report, the eval report and the inputs.
//!
//! Every piece of text that came from a config or a capture goes through
//! [`super::markup::escape`]; the page is well-formed XML as well as HTML, so tests can parse it.

use crate::words::Words;
use std::fmt::Write as _;

use crate::agents::{AgentColumn, AgentCompareReport, Size};
use crate::cost::{CostReport, ServerRow};
use crate::eval::EvalReport;
use crate::lint::LintReport;
use crate::markup::{compact, escape, escape_clipped, json_number, share, Theme};
use crate::sweep::SweepReport;
use crate::{context_label, dollars, pct_label, thousands};
use schematax_engine::analyses::eval::{evaluate, QuerySet};
use schematax_engine::analyses::lint::{Findings, Severity, RULES};
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::json_text::estimate_tokens;
use schematax_engine::replay::activation::{Cost, Traffic};
use schematax_engine::replay::session::Session;
use schematax_engine::text::count;
use schematax_releases::Profile;

/// Tools listed under each server, heaviest first.
pub const TOP_TOOLS: usize = 10;
/// Findings listed under each lint rule (the rest are counted).
pub const FINDINGS_PER_RULE: usize = 25;
/// Missed queries listed (the rest are counted).
pub const MISSES_LISTED: usize = 100;
/// Parameter names listed for a tool.
const PARAMETERS_LISTED: usize = 12;

/// One tool of a server's top list.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCost {
    /// Raw MCP name.
    pub tool: String,
    /// Hermes name.
    pub name: String,
    /// First sentence of the description sent.
    pub summary: String,
    /// Top-level parameter names.
    pub parameters: Vec<String>,
    /// Characters of the definition.
    pub chars: u64,
    /// chars/4 of them.
    pub estimate_tokens: u64,
    /// Tokens in the report's tokenizer, when counted.
    pub tokens: Option<u64>,
}

/// A server's heaviest tools, index-aligned with [`CostReport::servers`].
#[derive(Debug, Clone, PartialEq)]
pub struct ServerTools {
    /// The heaviest [`TOP_TOOLS`] tools.
    pub tools: Vec<ToolCost>,
    /// Tools of the server in the catalog.
    pub total: usize,
}

/// When a capture was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureDate {
    /// The capture's own `capturedAt`.
    Recorded(String),
    /// No date inside: the file's modification time.
    Modified(String),
    /// Neither.
    Unknown,
}

/// One capture the page was made from.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureRow {
    /// Server key.
    pub server: String,
    /// The file.
    pub source: String,
    /// `serverInfo.name@version`, when recorded.
    pub server_info: Option<String>,
    /// Tools listed in the file.
    pub tools: usize,
    /// When it was captured.
    pub date: CaptureDate,
}

/// What the page shows of the profile not chosen, read off its session, which can then be
/// given back: at 100,000 tools a second session costs as much as the first.
#[derive(Debug, Clone, PartialEq)]
pub struct OtherProfile {
    /// Which profile it is.
    pub profile: Profile,
    /// Its cost report.
    pub report: CostReport,
    /// Its sweep.
    pub sweep: SweepReport,
}

impl OtherProfile {
    /// Reads the page's parts off `session`, built from `inputs` under the other profile.
    pub fn of(inputs: &Inputs, session: &Session, traffic: &Traffic) -> OtherProfile {
        OtherProfile {
            profile: session.profile(),
            report: CostReport::build(inputs, session, traffic),
            sweep: SweepReport::build(session),
        }
    }
}

/// What the page is built from.
#[derive(Debug, Clone)]
pub struct PageParts<'a> {
    /// The inputs.
    pub inputs: &'a Inputs,
    /// The session under the chosen profile (with real token counts when counted).
    pub session: &'a Session,
    /// The lint of `session` (the caller runs it, so that it can show its progress).
    pub findings: Findings,
    /// The same inputs and overrides under the other profile.
    pub other: OtherProfile,
    /// A queries file, for the eval section and the query lint rule.
    pub queries: Option<&'a QuerySet>,
    /// Colours.
    pub theme: Theme,
    /// The catalog in every agent, as `compare --agent` of all of them builds it (no queries;
    /// Hermes at this page's release); `None` leaves the agents section out.
    pub agents: Option<AgentCompareReport>,
}

/// The whole page.
#[derive(Debug, Clone)]
pub struct PageReport {
    /// schematax's version.
    pub version: &'static str,
    /// Colours.
    pub theme: Theme,
    /// The cost report under the chosen profile, exactly as `report --format json` writes it.
    pub report: CostReport,
    /// The cost report under each profile, the older release first (one of them is `report`).
    pub profiles: Vec<CostReport>,
    /// The sweep under each profile, in the order of `profiles`.
    pub sweeps: Vec<SweepReport>,
    /// Each server's heaviest tools (chosen profile).
    pub top_tools: Vec<ServerTools>,
    /// Lint findings (chosen profile).
    pub lint: LintReport,
    /// The evaluation of the queries file (chosen profile).
    pub eval: Option<EvalReport>,
    /// The captures.
    pub captures: Vec<CaptureRow>,
    /// The catalog in every agent, for the agents section.
    pub agents: Option<AgentCompareReport>,
}

impl PageReport {
    /// Builds the page; `report` is the chosen profile's cost report as the JSON output has it
    /// (token counts and their warning included).
    pub fn build(parts: PageParts<'_>, report: CostReport) -> PageReport {
        let PageParts {
            inputs,
            session,
            findings,
            other,
            queries,
            theme,
            agents,
        } = parts;
        let sweep = SweepReport::build(session);
        let (profiles, sweeps) = if other.profile < session.profile() {
            (vec![other.report, report.clone()], vec![other.sweep, sweep])
        } else {
            (vec![report.clone(), other.report], vec![sweep, other.sweep])
        };
        let k = session.settings().search_default_limit as usize;
        let mut findings = findings;
        let eval = queries.map(|set| {
            findings.add_queries(set, k);
            EvalReport::build(evaluate(session, set, k, false), session.profile())
        });
        let sources = inputs
            .captures
            .iter()
            .map(|c| (c.server.clone(), c.source.display().to_string()))
            .collect();
        let lint = LintReport::build(findings, sources);
        PageReport {
            version: env!("CARGO_PKG_VERSION"),
            theme,
            top_tools: top_tools(session),
            report,
            profiles,
            sweeps,
            lint,
            eval,
            captures: inputs.captures.iter().map(capture_row).collect(),
            agents,
        }
    }

    /// The page.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(64 * 1024);
        self.head(&mut out);
        out.push_str("<body>\n");
        self.header(&mut out);
        out.push_str("<main>\n");
        self.headline(&mut out);
        self.servers(&mut out);
        self.activation(&mut out);
        if let Some(agents) = &self.agents {
            agents_section(&mut out, agents);
        }
        self.lint_section(&mut out);
        if let Some(eval) = &self.eval {
            eval_section(&mut out, eval);
        }
        self.inputs_section(&mut out);
        out.push_str("</main>\n");
        let _ = writeln!(
            out,
            "<footer><p>Made by schematax {} from the engine numbers of <code>schematax report --format json</code>. \
             This page loads nothing: no script, font, image or style from anywhere.</p></footer>",
            escape(self.version)
        );
        out.push_str("</body>\n</html>\n");
        out
    }

    fn head(&self, out: &mut String) {
        let r = &self.report;
        let _ = write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\" data-theme=\"{theme}\">\n<head>\n\
             <meta charset=\"utf-8\" />\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\" />\n\
             <meta name=\"generator\" content=\"schematax {version}\" />\n\
             <title>schematax report: {config}</title>\n\
             <link rel=\"icon\" href=\"data:,\" />\n\
             <style>\n{css}</style>\n</head>\n",
            theme = self.theme.as_str(),
            version = escape(self.version),
            config = escape(&r.inputs),
            css = stylesheet(self.theme),
        );
    }

    fn header(&self, out: &mut String) {
        let r = &self.report;
        let _ = write!(
            out,
            "<header>\n<p class=\"kicker\">schematax report</p>\n\
             <h1>The schema tax of <span class=\"config\">{config}</span></h1>\n\
             <p class=\"sub\">{servers}, {tools} · profile <b id=\"profile\">{profile}</b> · \
             context {context} · threshold_pct {pct} · mode {mode} · schematax {version}</p>\n</header>\n",
            config = escape(&r.inputs),
            servers = count(r.servers.len(), "server", "servers"),
            tools = count(r.deferrable_tools, "tool", "tools"),
            profile = escape(&r.profile),
            context = escape(&context_label(r.context_length)),
            pct = pct_label(r.config.threshold_pct),
            mode = escape(&r.config.enabled),
            version = escape(self.version),
        );
    }

    fn headline(&self, out: &mut String) {
        let r = &self.report;
        let state = verdict(r);
        let _ = write!(
            out,
            "<section id=\"headline\">\n<h2>Every turn, before the user says a word</h2>\n\
             <div class=\"figures\">\n\
             <div class=\"figure before\"><p class=\"label\">MCP tool schemas a turn without Tool Search</p>\
             <p class=\"big\">{before} <small>tokens</small></p></div>\n\
             <div class=\"figure after\"><p class=\"label\">with Tool Search ({state})</p>\
             <p class=\"big\">{after} <small>tokens</small></p></div>\n\
             <div class=\"figure saved\"><p class=\"label\">saved</p>\
             <p class=\"big\">{pct}</p></div>\n</div>\n",
            before = data("tokens-before", json_number(r.tokens_before), &thousands(r.tokens_before)),
            after = data("tokens-after", json_number(r.tokens_after), &thousands(r.tokens_after)),
            pct = data(
                "savings-pct",
                json_number(r.savings_pct),
                &format!("{:.1}%", r.savings_pct)
            ),
            state = escape(&state),
        );
        out.push_str(
            "<div class=\"scroll\"><table class=\"money\">\n<thead><tr><th></th><th>a turn</th>\
             <th>a session</th><th>a month</th></tr></thead>\n<tbody>\n",
        );
        for (label, id, cost) in [
            ("without Tool Search", "dollars-before", &r.dollars_before),
            ("with Tool Search", "dollars-after", &r.dollars_after),
            ("saved", "dollars-saved", &r.dollars_saved),
        ] {
            money_row(out, label, id, cost);
        }
        let _ = write!(
            out,
            "</tbody></table></div>\n<p class=\"note\">At <data id=\"price-per-mtok\" value=\"{price}\">${price_label}</data> \
             per million input tokens; a session is {session} turns, a month 30 days of \
             <data id=\"turns-per-day\" value=\"{turns}\">{turns}</data> turns. Tokens here are the \
             chars/4 estimate Hermes&#39;s gate uses.</p>\n",
            price = json_number(r.price_per_mtok),
            price_label = format_args!("{:.2}", r.price_per_mtok),
            session = r.turns_per_session,
            turns = r.turns_per_day,
        );
        self.profiles_table(out);
        out.push_str("</section>\n");
    }

    fn profiles_table(&self, out: &mut String) {
        out.push_str(
            "<h3>Both engine profiles, same inputs</h3>\n<div class=\"scroll\"><table class=\"profiles\">\n<thead><tr><th></th>",
        );
        for p in &self.profiles {
            let chosen = if p.profile == self.report.profile {
                " class=\"chosen\""
            } else {
                ""
            };
            let _ = write!(out, "<th{chosen}>{}</th>", escape(&p.profile));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        type Cell = fn(&CostReport) -> (String, String);
        let rows: [(&str, &str, Cell); 6] = [
            ("Tool Search", "state", |p| {
                (json_number(p.active), verdict(p))
            }),
            ("tokens before", "tokens-before", |p| {
                (json_number(p.tokens_before), thousands(p.tokens_before))
            }),
            ("tokens after", "tokens-after", |p| {
                (json_number(p.tokens_after), thousands(p.tokens_after))
            }),
            ("saved", "savings-pct", |p| {
                (json_number(p.savings_pct), format!("{:.1}%", p.savings_pct))
            }),
            ("saved a turn", "dollars-saved-turn", |p| {
                (
                    json_number(p.dollars_saved.per_turn),
                    dollars(p.dollars_saved.per_turn),
                )
            }),
            ("saved a month", "dollars-saved-month", |p| {
                (
                    json_number(p.dollars_saved.per_month),
                    dollars(p.dollars_saved.per_month),
                )
            }),
        ];
        for (label, key, cell) in rows {
            let _ = write!(out, "<tr><th>{label}</th>");
            for p in &self.profiles {
                let (value, text) = cell(p);
                let id = format!("{}-{key}", p.profile);
                let _ = write!(out, "<td>{}</td>", data(&id, value, &text));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div>\n");
    }

    fn servers(&self, out: &mut String) {
        let r = &self.report;
        out.push_str("<section id=\"servers\">\n<h2>Cost per server, heaviest first</h2>\n");
        if r.servers.is_empty() {
            out.push_str("<p>No MCP servers are connected: nothing to defer.</p>\n</section>\n");
            return;
        }
        let counted = r.servers.iter().all(|s| s.tokens.is_some());
        let _ = write!(
            out,
            "<p class=\"legend\"><span class=\"key est\"></span> chars/4 estimate (what the gate uses){}</p>\n<ol class=\"bars\">\n",
            if counted {
                format!(
                    " <span class=\"key tok\"></span> <span class=\"tokenizer\">{}</span> count: {}",
                    escape(&r.tokenizer.name),
                    escape(&r.tokenizer.detail)
                )
            } else {
                format!(
                    " · {} counts not made (<code>--estimate-only</code> or unavailable)",
                    escape(&r.tokenizer.name)
                )
            }
        );
        let mut order: Vec<usize> = (0..r.servers.len()).collect();
        order.sort_by(|&a, &b| {
            r.servers[b]
                .estimate_tokens
                .cmp(&r.servers[a].estimate_tokens)
                .then_with(|| r.servers[a].server.cmp(&r.servers[b].server))
        });
        let scale = r
            .servers
            .iter()
            .map(|s| s.estimate_tokens.max(s.tokens.unwrap_or(0)))
            .max()
            .unwrap_or(0);
        for index in order {
            let row = &r.servers[index];
            server_item(
                out,
                row,
                self.top_tools.get(index),
                scale,
                &r.tokenizer.name,
            );
        }
        out.push_str("</ol>\n</section>\n");
    }

    fn activation(&self, out: &mut String) {
        out.push_str(
            "<section id=\"activation\">\n<h2>Where Tool Search activates</h2>\n\
             <p>Tokens sent for the MCP tools a turn over context length and <code>threshold_pct</code>, \
             for the servers of this report. Cooler is cheaper; <span class=\"here-key\">◆</span> is the current setting.</p>\n",
        );
        for sweep in &self.sweeps {
            heat_map(out, sweep);
        }
        out.push_str(
            "<p class=\"legend\"><span class=\"swatch h0\"></span> inactive: every schema sent \
             <span class=\"swatch h1\"></span> under 50% saved <span class=\"swatch h2\"></span> 50–90% \
             <span class=\"swatch h3\"></span> 90–97% <span class=\"swatch h4\"></span> 97% or more \
             <span class=\"swatch hn\"></span> costs more than it saves</p>\n</section>\n",
        );
    }

    fn lint_section(&self, out: &mut String) {
        let l = &self.lint;
        let _ = write!(
            out,
            "<section id=\"lint\">\n<h2>Lint: will the agent find these tools?</h2>\n\
             <p>{} under profile {}: <data id=\"lint-errors\" value=\"{}\">{}</data>, \
             <data id=\"lint-warnings\" value=\"{}\">{}</data>, \
             <data id=\"lint-infos\" value=\"{}\">{}</data>. The same findings as <code>schematax lint</code>.</p>\n",
            count(l.tools, "tool", "tools"),
            escape(&l.profile),
            l.summary.errors,
            count(l.summary.errors, "error", "errors"),
            l.summary.warnings,
            count(l.summary.warnings, "warning", "warnings"),
            l.summary.infos,
            count(l.summary.infos, "info", "infos"),
        );
        if l.findings.is_empty() {
            out.push_str("<p>No findings.</p>\n</section>\n");
            return;
        }
        for severity in [Severity::Error, Severity::Warning, Severity::Info] {
            let of_severity = l
                .findings
                .iter()
                .filter(|f| f.rule.severity == severity)
                .count();
            if of_severity == 0 {
                continue;
            }
            let _ = writeln!(
                out,
                "<h3 class=\"sev {s}\">{s}: {}</h3>",
                thousands(of_severity as u64),
                s = severity.as_str()
            );
            for rule in RULES.iter().filter(|r| r.severity == severity) {
                let of_rule: Vec<usize> = (l.findings.iter().enumerate())
                    .filter(|(_, f)| f.rule.id == rule.id)
                    .map(|(position, _)| position)
                    .collect();
                if of_rule.is_empty() {
                    continue;
                }
                let _ = write!(
                    out,
                    "<details class=\"rule\"><summary><code>{}</code> {} <span class=\"count\">{}</span></summary>\n<ul>\n",
                    escape(rule.id),
                    escape(rule.summary),
                    thousands(of_rule.len() as u64)
                );
                for f in of_rule
                    .iter()
                    .filter_map(|&i| l.findings.details(i))
                    .take(FINDINGS_PER_RULE)
                {
                    let _ = writeln!(
                        out,
                        "<li><code>{}/{}</code> {}</li>",
                        escape(&f.server),
                        escape(&f.tool),
                        escape_clipped(&f.problem.words(), 400)
                    );
                }
                if of_rule.len() > FINDINGS_PER_RULE {
                    let _ = writeln!(
                        out,
                        "<li class=\"more\">and {} more: <code>schematax lint</code> lists them all</li>",
                        thousands((of_rule.len() - FINDINGS_PER_RULE) as u64)
                    );
                }
                out.push_str("</ul></details>\n");
            }
        }
        out.push_str("</section>\n");
    }

    fn inputs_section(&self, out: &mut String) {
        let r = &self.report;
        let counted = r.servers.iter().all(|s| s.tokens.is_some());
        let _ = write!(
            out,
            "<section id=\"inputs\">\n<h2>Inputs</h2>\n<dl>\n\
             <dt>config</dt><dd><code id=\"config-path\">{config}</code></dd>\n\
             <dt>profile</dt><dd>{profile}</dd>\n\
             <dt>settings</dt><dd>enabled {mode}, threshold_pct {pct}, search_default_limit {limit}, max_search_limit {max}{listing}</dd>\n\
             <dt>context length</dt><dd>{context} ({source})</dd>\n\
             <dt>schematax</dt><dd>{version}</dd>\n\
             <dt>estimates</dt><dd>Every token figure of the headline, the heat map and the card is chars/4 of the \
             definitions Hermes sends: the estimate its gate uses.</dd>\n\
             <dt>tokenizer counts</dt><dd>{counted}</dd>\n</dl>\n",
            config = escape(&r.config_path),
            profile = escape(&r.profile),
            mode = escape(&r.config.enabled),
            pct = pct_label(r.config.threshold_pct),
            limit = r.config.search_default_limit,
            max = r.config.max_search_limit,
            listing = match (&r.config.listing, r.config.listing_max_tokens) {
                (Some(listing), Some(max)) => format!(
                    ", listing {}, listing_max_tokens {}",
                    escape(listing),
                    thousands(u64::from(max))
                ),
                _ => String::new(),
            },
            context = if r.context_length == 0 {
                "unknown".to_string()
            } else {
                thousands(r.context_length)
            },
            source = escape(&r.context_source_detail),
            version = escape(self.version),
            counted = if counted {
                format!(
                    "The {} figures of the server chart are real tokenizer counts of the same definitions: {}.",
                    escape(&r.tokenizer.name),
                    escape(&r.tokenizer.detail)
                )
            } else {
                format!(
                    "None: {} counts were not made.",
                    escape(&r.tokenizer.name)
                )
            },
        );
        out.push_str(
            "<h3>Captures</h3>\n<div class=\"scroll\"><table class=\"captures\">\n<thead><tr><th>server</th>\
             <th>file</th><th>server info</th><th class=\"num\">tools</th><th>captured</th></tr></thead>\n<tbody>\n",
        );
        for c in &self.captures {
            let date = match &c.date {
                CaptureDate::Recorded(at) => escape(at),
                CaptureDate::Modified(at) => format!("{} (file modified)", escape(at)),
                CaptureDate::Unknown => "unknown".to_string(),
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td>{date}</td></tr>",
                escape(&c.server),
                escape(&c.source),
                c.server_info.as_deref().map_or("-".to_string(), escape),
                thousands(c.tools as u64),
            );
        }
        out.push_str("</tbody></table></div>\n");
        if !r.warnings.is_empty() {
            out.push_str("<h3>Warnings</h3>\n<ul class=\"warnings\">\n");
            for warning in &r.warnings {
                let _ = writeln!(out, "<li>{}</li>", escape(warning));
            }
            out.push_str("</ul>\n");
        }
        out.push_str("</section>\n");
    }
}

/// `<data id value>text</data>`: a figure a test or a script can read exactly.
fn data(id: &str, value: String, text: &str) -> String {
    format!(
        "<data id=\"{}\" value=\"{}\">{}</data>",
        escape(id),
        escape(&value),
        escape(text)
    )
}

fn money_row(out: &mut String, label: &str, id: &str, cost: &Cost) {
    let _ = write!(out, "<tr><th>{label}</th>");
    for (suffix, amount) in [
        ("turn", cost.per_turn),
        ("session", cost.per_session),
        ("month", cost.per_month),
    ] {
        let _ = write!(
            out,
            "<td>{}</td>",
            data(
                &format!("{id}-{suffix}"),
                json_number(amount),
                &dollars(amount)
            )
        );
    }
    out.push_str("</tr>\n");
}

/// ACTIVE or INACTIVE, with the tier and the listing form (from 0.20.0).
fn verdict(r: &CostReport) -> String {
    match (r.active, &r.listing_form) {
        (true, Some(form)) => format!("active, tier {}, {form} listing", r.tier),
        (true, None) => "active".to_string(),
        (false, _) => "inactive".to_string(),
    }
}

fn server_item(
    out: &mut String,
    row: &ServerRow,
    tools: Option<&ServerTools>,
    scale: u64,
    tokenizer: &str,
) {
    let counted = |n: Option<u64>| n.map_or("-".to_string(), thousands);
    let _ = write!(
        out,
        "<li>\n<div class=\"row\"><span class=\"name\">{name}</span><span class=\"nums\">\
         {est} chars/4 · {tokens} {tokenizer} · {tools} tools · {share:.1}%</span></div>\n\
         <div class=\"track\"><div class=\"bar est\" style=\"width:{w_est:.2}%\"></div></div>\n",
        name = escape(&row.server),
        est = thousands(row.estimate_tokens),
        tokens = counted(row.tokens),
        tokenizer = escape(tokenizer),
        tools = thousands(row.tools as u64),
        share = row.share_pct,
        w_est = share(row.estimate_tokens, scale),
    );
    if let Some(tokens) = row.tokens {
        let _ = writeln!(
            out,
            "<div class=\"track\"><div class=\"bar tok\" style=\"width:{:.2}%\"></div></div>",
            share(tokens, scale)
        );
    }
    if let Some(tools) = tools.filter(|t| !t.tools.is_empty()) {
        let what = match (tools.tools.len(), tools.total) {
            (1, 1) => "the tool".to_string(),
            (n, total) if n == total => format!("its {n} tools, heaviest first"),
            (n, total) => format!("the {n} heaviest of {} tools", thousands(total as u64)),
        };
        let _ = write!(
            out,
            "<details><summary>{what}</summary>\n<div class=\"scroll\"><table class=\"tools\">\n\
             <thead><tr><th>tool</th><th class=\"num\">chars/4</th><th class=\"num\">{tokenizer}</th>\
             <th>parameters</th><th>description</th></tr></thead>\n<tbody>\n",
            tokenizer = escape(tokenizer)
        );
        for t in &tools.tools {
            let mut parameters: Vec<String> = t
                .parameters
                .iter()
                .take(PARAMETERS_LISTED)
                .map(|p| escape_clipped(p, 40))
                .collect();
            if t.parameters.len() > PARAMETERS_LISTED {
                parameters.push(format!("+{}", t.parameters.len() - PARAMETERS_LISTED));
            }
            let _ = writeln!(
                out,
                "<tr><td><code title=\"{name}\">{tool}</code></td><td class=\"num\">{est}</td>\
                 <td class=\"num\">{tokens}</td><td class=\"params\">{params}</td><td>{summary}</td></tr>",
                name = escape(&t.name),
                tool = escape_clipped(&t.tool, 64),
                est = thousands(t.estimate_tokens),
                tokens = counted(t.tokens),
                params = parameters.join(", "),
                summary = escape_clipped(&t.summary, 160),
            );
        }
        out.push_str("</tbody></table></div></details>\n");
    }
    out.push_str("</li>\n");
}

/// The heat class of a cell: `h0` inactive; `h1`..`h4` by share saved; `hn` when the bridge
/// costs more than the schemas it replaces.
fn heat_class(active: bool, before: u64, after: u64) -> &'static str {
    if !active || before == 0 {
        return "h0";
    }
    let saved = 100.0 - share(after, before);
    match saved {
        s if s < 0.0 => "hn",
        s if s < 50.0 => "h1",
        s if s < 90.0 => "h2",
        s if s < 97.0 => "h3",
        _ => "h4",
    }
}

fn heat_map(out: &mut String, sweep: &SweepReport) {
    let newer = sweep.listing_max_tokens.is_some();
    let _ = write!(
        out,
        "<h3>{profile}{what}</h3>\n<div class=\"scroll\"><table class=\"heat\" data-profile=\"{profile}\">\n\
         <thead><tr><th class=\"corner\">context \\ threshold_pct</th>",
        profile = escape(&sweep.profile),
        what = if newer {
            ": the listing form in each cell"
        } else {
            ": the threshold gate"
        },
    );
    for &t in &sweep.thresholds {
        let class = if t == sweep.threshold_pct {
            " class=\"current\""
        } else {
            ""
        };
        let _ = write!(out, "<th{class}>{}%</th>", pct_label(t));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &sweep.grid {
        let current_row = row.context_length == sweep.context_length;
        let _ = write!(
            out,
            "<tr><th{}>{}</th>",
            if current_row {
                " class=\"current\""
            } else {
                ""
            },
            escape(&context_label(row.context_length))
        );
        for (i, &pct) in sweep.thresholds.iter().enumerate() {
            let active = row.active.get(i).copied().unwrap_or(false);
            let after = row.tokens_after.get(i).copied().unwrap_or(0);
            let here = current_row && pct == sweep.threshold_pct;
            let form = row.forms.get(i).copied();
            let word = match (active, form) {
                (false, _) => "off",
                (true, Some(form)) => form,
                (true, None) => "on",
            };
            let title = format!(
                "{} context, threshold_pct {}: {}{}, {} tokens sent{}",
                context_label(row.context_length),
                pct_label(pct),
                if active { "active" } else { "inactive" },
                form.filter(|_| active)
                    .map_or(String::new(), |f| format!(", {f} listing")),
                thousands(after),
                if here { " (current setting)" } else { "" }
            );
            let _ = write!(
                out,
                "<td class=\"{heat}{here}\" title=\"{title}\"><b>{mark}{word}</b><span>{tokens}</span></td>",
                heat = heat_class(active, sweep.deferrable_tokens, after),
                here = if here { " here" } else { "" },
                title = escape(&title),
                mark = if here { "◆ " } else { "" },
                tokens = compact(after),
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    if sweep.context_length == 0 {
        out.push_str(
            "<p class=\"note\">The context length is unknown, so no cell is the current setting.</p>\n",
        );
    }
}

/// A part's figure as the page shows it: tokens when counted, else the chars/4 estimate,
/// marked `~` as `compare --agent` marks it.
fn agent_figure(size: &Size) -> (u64, String) {
    match size.tokens {
        Some(tokens) => (tokens, thousands(tokens)),
        None => (
            size.estimate_tokens,
            format!("~{}", thousands(size.estimate_tokens)),
        ),
    }
}

/// The agent's id in a column's `id@version`.
fn agent_id(column: &AgentColumn) -> &str {
    column.agent.split('@').next().unwrap_or(&column.agent)
}

/// The agents section: per agent, the tokens a turn as sent and with nothing deferred as
/// bars, and every part of its turn in a table, each figure a `<data>` element.
fn agents_section(out: &mut String, agents: &AgentCompareReport) {
    let measure = match &agents.tokenizer {
        Some(name) => format!(
            "Tokens in <span class=\"tokenizer\">{}</span>, the tokenizer this page counts in; \
             <b>~</b> marks a chars/4 estimate where a part is not counted.",
            escape(name)
        ),
        None => "Every figure is the chars/4 estimate (<b>~</b>): this page counts no tokens."
            .to_string(),
    };
    let ids: Vec<&str> = agents.agents.iter().map(agent_id).collect();
    let _ = write!(
        out,
        "<section id=\"agents\">\n<h2>This catalog in {count} agents</h2>\n\
         <p>What each agent sends for these MCP tools every turn: as it defers them, and with \
         nothing deferred (every definition and the servers&#39; instructions). The same figures \
         as <code>schematax compare --agent {ids}</code>; Hermes is this report&#39;s release.</p>\n\
         <p class=\"note\">{measure} <span class=\"modelled\">modelled</span>: parts of the \
         agent&#39;s rules are taken from its documentation or source and not checked against a \
         shipped build (<code>schematax agents</code> says which).</p>\n\
         <p class=\"legend\"><span class=\"key sent\"></span> a turn as sent \
         <span class=\"key est\"></span> a turn with nothing deferred</p>\n<ol class=\"bars agents\">\n",
        count = data(
            "agent-count",
            json_number(agents.agents.len()),
            &agents.agents.len().to_string()
        ),
        ids = escape(&ids.join(",")),
    );
    let scale = agents
        .agents
        .iter()
        .map(|a| {
            agent_figure(&a.parts.per_turn)
                .0
                .max(agent_figure(&a.parts.without_deferral).0)
        })
        .max()
        .unwrap_or(0);
    for column in &agents.agents {
        agent_bars(out, column, scale);
    }
    out.push_str("</ol>\n");
    agents_table(out, agents);
    out.push_str("</section>\n");
}

/// The agent's label: `id@version`, whether it is this report's release, and whether any part
/// is modelled.
fn agent_label(column: &AgentColumn) -> String {
    let mut label = format!("<code>{}</code>", escape(&column.agent));
    if agent_id(column) == "hermes" {
        label.push_str(" <span class=\"this\">this report</span>");
    }
    if !column.modelled.is_empty() {
        let _ = write!(
            label,
            " <span class=\"modelled\" title=\"modelled: {}\">modelled</span>",
            escape(&column.modelled.join(", "))
        );
    }
    label
}

/// One agent's two bars, on the scale of the heaviest figure of the chart.
fn agent_bars(out: &mut String, column: &AgentColumn, scale: u64) {
    let (sent, sent_text) = agent_figure(&column.parts.per_turn);
    let (whole, whole_text) = agent_figure(&column.parts.without_deferral);
    let saved = if whole == 0 {
        "-".to_string()
    } else {
        format!(
            "{:.1}%",
            (whole as f64 - sent as f64) * 100.0 / whole as f64
        )
    };
    let _ = write!(
        out,
        "<li data-agent=\"{id}\">\n<div class=\"row\"><span class=\"name\">{label}</span><span class=\"nums\">\
         {sent_text} as sent · {whole_text} nothing deferred · {saved} saved</span></div>\n\
         <div class=\"track\"><div class=\"bar sent\" style=\"width:{w_sent:.2}%\"></div></div>\n\
         <div class=\"track\"><div class=\"bar est\" style=\"width:{w_whole:.2}%\"></div></div>\n</li>\n",
        id = escape(agent_id(column)),
        label = agent_label(column),
        sent_text = escape(&sent_text),
        whole_text = escape(&whole_text),
        w_sent = share(sent, scale),
        w_whole = share(whole, scale),
    );
}

/// Every part of each agent's turn: `<data id="agent-ID-PART">`, PART the JSON key of
/// `compare --agent` with `-` for `_`.
fn agents_table(out: &mut String, agents: &AgentCompareReport) {
    out.push_str(
        "<div class=\"scroll\"><table class=\"agents\">\n<thead><tr><th>agent</th>\
         <th class=\"num\">as sent</th><th class=\"num\">nothing deferred</th>\
         <th class=\"num\">sent whole</th><th class=\"num\">listing</th>\
         <th class=\"num\">fixed texts</th><th class=\"num\">instructions</th>\
         <th class=\"num\">one search</th><th>modelled</th></tr></thead>\n<tbody>\n",
    );
    for column in &agents.agents {
        let p = &column.parts;
        let _ = write!(out, "<tr><th><code>{}</code></th>", escape(&column.agent));
        for (key, size) in [
            ("per-turn", &p.per_turn),
            ("without-deferral", &p.without_deferral),
            ("eager", &p.eager),
            ("listing", &p.listing),
            ("fixed-tools", &p.fixed_tools),
            ("instructions", &p.instructions),
            ("one-search", &p.one_search),
        ] {
            let (value, mut text) = agent_figure(size);
            if key == "one-search" && size.chars == 0 {
                text = "-".into();
            }
            let id = format!("agent-{}-{key}", agent_id(column));
            let _ = write!(
                out,
                "<td class=\"num\">{}</td>",
                data(&id, json_number(value), &text)
            );
        }
        let modelled = if column.modelled.is_empty() {
            "none".to_string()
        } else {
            column.modelled.join(", ")
        };
        let _ = writeln!(out, "<td class=\"parts\">{}</td></tr>", escape(&modelled));
    }
    out.push_str(
        "</tbody></table></div>\n<p class=\"note\">Tokens a turn as sent and with nothing \
         deferred, and their parts: sent whole, the definitions sent in full every turn; \
         listing, what the model sees of the deferred tools; fixed texts, the search tool and \
         the agent&#39;s other fixed texts; one search, what one search loads.</p>\n",
    );
}

fn eval_section(out: &mut String, eval: &EvalReport) {
    let o = &eval.overall;
    let _ = write!(
        out,
        "<section id=\"eval\">\n<h2>Eval: do the queries find their tools?</h2>\n\
         <p>{} queries under profile {}: recall@1 <data id=\"eval-recall-1\" value=\"{}\">{:.3}</data>, \
         recall@{k} <data id=\"eval-recall-k\" value=\"{}\">{:.3}</data>, MRR <data id=\"eval-mrr\" value=\"{}\">{:.3}</data>.</p>\n\
         <div class=\"scroll\"><table class=\"eval\">\n<thead><tr><th>server</th><th class=\"num\">queries</th>\
         <th class=\"num\">recall@1</th><th class=\"num\">recall@{k}</th><th class=\"num\">MRR</th></tr></thead>\n<tbody>\n",
        thousands(o.queries as u64),
        escape(&eval.profile),
        json_number(o.recall_at_1),
        o.recall_at_1,
        json_number(o.recall_at_k),
        o.recall_at_k,
        json_number(o.mrr),
        o.mrr,
        k = o.k,
    );
    for (server, m) in eval.by_server.iter().chain([(&"overall".to_string(), o)]) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3}</td><td class=\"num\">{:.3}</td><td class=\"num\">{:.3}</td></tr>",
            escape(server),
            m.queries,
            m.recall_at_1,
            m.recall_at_k,
            m.mrr
        );
    }
    out.push_str("</tbody></table></div>\n");
    let misses: Vec<_> = eval
        .queries
        .iter()
        .filter(|q| q.rank.is_none_or(|r| r > o.k))
        .collect();
    let _ = writeln!(
        out,
        "<h3>Misses: {} of {} not in the top {}</h3>",
        thousands(misses.len() as u64),
        schematax_engine::text::count(eval.queries.len(), "query", "queries"),
        o.k
    );
    if !misses.is_empty() {
        out.push_str(
            "<div class=\"scroll\"><table class=\"misses\">\n<thead><tr><th>id</th><th>query</th><th>expected</th>\
             <th class=\"num\">rank</th><th>came instead</th></tr></thead>\n<tbody>\n",
        );
        for q in misses.iter().take(MISSES_LISTED) {
            let instead = match (&q.why, q.hits.is_empty()) {
                (Some(why), true) => format!("nothing: the expected tool {why}"),
                _ => q.hits.join(", "),
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td></tr>",
                escape(&q.id),
                escape_clipped(&q.query, 200),
                escape(&q.expected.join(", ")),
                q.rank.map_or("miss".to_string(), |r| r.to_string()),
                escape_clipped(&instead, 300)
            );
        }
        out.push_str("</tbody></table></div>\n");
        if misses.len() > MISSES_LISTED {
            let _ = writeln!(
                out,
                "<p class=\"more\">and {} more: <code>schematax eval</code> lists them all</p>",
                thousands((misses.len() - MISSES_LISTED) as u64)
            );
        }
    }
    for warning in &eval.warnings {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", escape(warning));
    }
    out.push_str("</section>\n");
}

/// Each connected server's heaviest tools, aligned with [`CostReport::servers`].
fn top_tools(session: &Session) -> Vec<ServerTools> {
    let servers = session.servers();
    let mut by_server: Vec<Vec<(usize, usize)>> = vec![Vec::new(); servers.len()];
    for doc in 0..session.catalog().len() {
        let place = session.catalog_ref(doc);
        by_server[place.server].push((place.server, place.tool));
    }
    servers
        .iter()
        .enumerate()
        .filter(|(i, _)| session.is_connected(*i))
        .map(|(i, server)| {
            let mut tools = std::mem::take(&mut by_server[i]);
            let total = tools.len();
            tools.sort_by(|a, b| {
                let (ta, tb) = (&server.tools[a.1], &server.tools[b.1]);
                tb.chars.cmp(&ta.chars).then_with(|| ta.name.cmp(&tb.name))
            });
            let tools = tools
                .into_iter()
                .take(TOP_TOOLS)
                .map(|(s, t)| {
                    let entry = &servers[s].tools[t];
                    ToolCost {
                        tool: entry.raw_name.clone(),
                        name: entry.name.clone(),
                        summary: schematax_engine::text::first_sentence(&entry.description)
                            .to_string(),
                        parameters: entry.parameter_names().map(String::from).collect(),
                        chars: entry.chars,
                        estimate_tokens: estimate_tokens(entry.chars),
                        tokens: session.token_count(s, t),
                    }
                })
                .collect();
            ServerTools { tools, total }
        })
        .collect()
}

fn capture_row(capture: &schematax_engine::nouns::tools::ServerCapture) -> CaptureRow {
    let date = match &capture.captured_at {
        Some(at) => CaptureDate::Recorded(at.clone()),
        None => std::fs::metadata(&capture.source)
            .and_then(|m| m.modified())
            .map_or(CaptureDate::Unknown, |t| {
                CaptureDate::Modified(schematax_engine::text::utc_timestamp(t))
            }),
    };
    CaptureRow {
        server: capture.server.clone(),
        source: capture.source.display().to_string(),
        server_info: capture.server_info.clone(),
        tools: capture.tools.len(),
        date,
    }
}

/// The page's stylesheet: the theme's colours as custom properties, a narrow-screen layout and
/// a print layout (light colours, bars and heat cells printed in colour, the contents of closed
/// `<details>` printed where the browser allows it, no page-split rows).
fn stylesheet(theme: Theme) -> String {
    let p = theme.palette();
    let light = Theme::Light.palette();
    format!(
        ":root {{ --bg: {bg}; --panel: {panel}; --text: {text}; --muted: {muted}; --rule: {rule}; \
         --before: {before}; --counted: {counted}; --after: {after}; --error: {error}; --warning: {warning}; }}\n\
         @media print {{ :root {{ --bg: #fff; --panel: {lpanel}; --text: #000; --muted: {lmuted}; --rule: {lrule}; \
         --before: {lbefore}; --counted: {lcounted}; --after: {lafter}; --error: {lerror}; --warning: {lwarning}; }} }}\n{CSS}",
        bg = p.background,
        panel = p.panel,
        text = p.text,
        muted = p.muted,
        rule = p.rule,
        before = p.before,
        counted = p.counted,
        after = p.after,
        error = p.error,
        warning = p.warning,
        lpanel = light.panel,
        lmuted = light.muted,
        lrule = light.rule,
        lbefore = light.before,
        lcounted = light.counted,
        lafter = light.after,
        lerror = light.error,
        lwarning = light.warning,
    )
}

/// The theme-independent rules.
const CSS: &str = r#"* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 28px; }
h1 { font-size: clamp(1.5rem, 4vw, 2.3rem); line-height: 1.2; margin: 0 0 6px; overflow-wrap: anywhere; }
h2 { font-size: 1.35rem; margin: 36px 0 10px; padding-top: 8px; border-top: 1px solid var(--rule); }
h3 { font-size: 1.05rem; margin: 22px 0 8px; }
.kicker { margin: 0; text-transform: uppercase; letter-spacing: .08em; font-size: .8rem; color: var(--muted); }
.sub, .note, .legend, footer { color: var(--muted); font-size: .9rem; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88em; overflow-wrap: anywhere; }
.figures { display: flex; flex-wrap: wrap; gap: 14px; }
.figure { flex: 1 1 220px; background: var(--panel); border-radius: 10px; padding: 14px 18px; border-left: 6px solid var(--rule); }
.figure.before { border-left-color: var(--before); }
.figure.after, .figure.saved { border-left-color: var(--after); }
.figure .label { margin: 0; color: var(--muted); font-size: .9rem; }
.figure .big { margin: 4px 0 0; font-size: clamp(1.8rem, 6vw, 2.8rem); font-weight: 700; line-height: 1.1; font-variant-numeric: tabular-nums; }
.figure .big small { font-size: .9rem; font-weight: 400; color: var(--muted); }
.figure.saved .big { color: var(--after); }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; margin: 10px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 5px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--rule); }
thead th { font-size: .85rem; color: var(--muted); font-weight: 600; }
.num, .money td, .profiles td { text-align: right; white-space: nowrap; }
.money th, .profiles tbody th { font-weight: 500; }
.profiles th.chosen { color: var(--text); }
.profiles th.chosen::after { content: " (this report)"; font-weight: 400; color: var(--muted); }
ol.bars { list-style: none; padding: 0; margin: 0; }
ol.bars > li { padding: 8px 0; border-bottom: 1px solid var(--rule); break-inside: avoid; }
.row { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 2px 12px; }
.row .name { font-weight: 600; overflow-wrap: anywhere; }
.row .nums { color: var(--muted); font-size: .85rem; font-variant-numeric: tabular-nums; }
.track { background: var(--panel); height: 10px; border-radius: 5px; margin: 3px 0; overflow: hidden; }
.bar { height: 100%; border-radius: 5px; min-width: 2px; }
.bar.est, .key.est { background: var(--before); }
.bar.tok, .key.tok { background: var(--counted); }
.bar.sent, .key.sent { background: var(--after); }
.modelled { display: inline-block; font-size: .75rem; font-weight: 500; line-height: 1.3; padding: 0 6px; border: 1px solid var(--warning); border-radius: 4px; color: var(--warning); }
.this { font-size: .8rem; font-weight: 400; color: var(--muted); }
table.agents { font-size: .9rem; }
table.agents tbody th { font-weight: 500; }
table.agents td.parts { min-width: 11em; }
.key, .swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; vertical-align: -2px; margin-left: 8px; }
details { margin: 6px 0; }
summary { cursor: pointer; color: var(--muted); font-size: .9rem; }
table.tools { font-size: .85rem; }
table code { overflow-wrap: break-word; }
table.tools td.params { color: var(--muted); max-width: 260px; overflow-wrap: anywhere; }
table.heat { font-size: .8rem; }
table.heat th, table.heat td { text-align: center; border: 2px solid var(--bg); padding: 4px 6px; }
table.heat th.corner { font-weight: 400; white-space: nowrap; }
table.heat th.current { color: var(--text); text-decoration: underline; }
table.heat td b { display: block; font-weight: 600; }
table.heat td span { display: block; opacity: .85; }
.h0, .swatch.h0 { background: color-mix(in srgb, var(--before) 70%, var(--bg)); }
.hn, .swatch.hn { background: color-mix(in srgb, var(--error) 55%, var(--bg)); }
.h1, .swatch.h1 { background: color-mix(in srgb, var(--after) 25%, var(--bg)); }
.h2, .swatch.h2 { background: color-mix(in srgb, var(--after) 45%, var(--bg)); }
.h3, .swatch.h3 { background: color-mix(in srgb, var(--after) 65%, var(--bg)); }
.h4, .swatch.h4 { background: color-mix(in srgb, var(--after) 85%, var(--bg)); }
table.heat td.here { outline: 3px solid var(--text); outline-offset: -3px; }
.here-key { font-weight: 700; }
h3.sev.error { color: var(--error); }
h3.sev.warning { color: var(--warning); }
details.rule summary { color: var(--text); }
details.rule .count { color: var(--muted); }
details.rule ul { margin: 4px 0 10px; padding-left: 22px; font-size: .9rem; }
.more { color: var(--muted); }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
ul.warnings { font-size: .9rem; }
footer { padding-top: 24px; padding-bottom: 40px; }
@media (max-width: 600px) {
  header, main, footer { padding: 0 12px; }
  dl { grid-template-columns: 1fr; }
  dd { margin-bottom: 6px; }
  th, td { padding: 4px 6px; }
}
@media print {
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  body { font-size: 11pt; }
  header, main, footer { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  section, table, .figures { break-inside: avoid-page; }
  .scroll { overflow: visible; }
  summary { color: var(--text); }
  details::details-content { content-visibility: visible; display: block; }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_engine::replay::session::Overrides;

    /// The sample in every agent, chars/4 only, as `compare --agent` builds it.
    fn sample_agents(inputs: &Inputs, hermes: &CostReport) -> AgentCompareReport {
        use schematax_engine::agents::settings::AgentSettings;
        use schematax_engine::agents::turn::AgentTurn;
        let settings = AgentSettings::default();
        let agents = schematax_releases::AGENTS
            .iter()
            .map(|agent| match agent.releases.last() {
                None => AgentColumn::of_hermes(hermes, None),
                Some(release) => {
                    let turn = AgentTurn::build(release, &inputs.captures, &settings, None)
                        .expect("chars/4 needs no tokenizer");
                    AgentColumn::of_turn(&turn, settings.context_window)
                }
            })
            .collect();
        AgentCompareReport {
            tokenizer: None,
            agents,
            differences: Vec::new(),
        }
    }

    fn sample_page(theme: Theme) -> PageReport {
        let inputs = Inputs::sample();
        let session = Session::new(&inputs.config, &inputs.captures, &Overrides::default());
        let other = Session::new(
            &inputs.config,
            &inputs.captures,
            &Overrides {
                profile: Some(schematax_releases::Profile::seed()),
                ..Overrides::default()
            },
        );
        let traffic = Traffic::default();
        let report = CostReport::build(&inputs, &session, &traffic);
        let agents = sample_agents(&inputs, &report);
        PageReport::build(
            PageParts {
                inputs: &inputs,
                session: &session,
                findings: schematax_engine::analyses::lint::lint(&session),
                other: OtherProfile::of(&inputs, &other, &traffic),
                queries: None,
                theme,
                agents: Some(agents),
            },
            report,
        )
    }

    #[test]
    fn the_sample_page_has_every_section() {
        let page = sample_page(Theme::Light);
        assert_eq!(page.profiles.len(), 2);
        assert_eq!(page.profiles[0].profile, "seed");
        assert_eq!(page.profiles[1].profile, Profile::newest().id());
        assert_eq!(page.profiles[1], page.report);
        assert_eq!(page.top_tools.len(), 5);
        assert_eq!(page.top_tools[0].total, 26);
        assert!(page.top_tools[0]
            .tools
            .windows(2)
            .all(|w| w[0].chars >= w[1].chars));
        let html = page.render();
        for id in [
            "id=\"headline\"",
            "id=\"servers\"",
            "id=\"activation\"",
            "id=\"lint\"",
            "id=\"inputs\"",
            "<data id=\"tokens-before\" value=\"20366\">20,366</data>",
            "data-profile=\"seed\"",
            "2026-12-02T19:17:51Z",
        ] {
            assert!(html.contains(id), "{id}");
        }
        assert!(!html.contains("id=\"eval\""));
        assert_eq!(html.matches("class=\"heat").count(), 2);
        assert_eq!(html.matches(" here\"").count(), 2, "one current cell a map");
        assert!(html.len() < 200_000);
    }

    #[test]
    fn the_agents_section_has_every_agent() {
        let page = sample_page(Theme::Light);
        let html = page.render();
        let section = html
            .split("<section id=\"agents\">")
            .nth(1)
            .and_then(|s| s.split("</section>").next())
            .expect("the agents section");
        let n = schematax_releases::AGENTS.len();
        assert!(section.contains(&format!(
            "<h2>This catalog in <data id=\"agent-count\" value=\"{n}\">{n}</data> agents</h2>"
        )));
        assert_eq!(section.matches("<li data-agent=").count(), n);
        assert_eq!(section.matches("class=\"bar sent\"").count(), n);
        assert_eq!(section.matches("class=\"bar est\"").count(), n);
        let agents = page.agents.as_ref().unwrap();
        for column in &agents.agents {
            let id = agent_id(column);
            assert!(section.contains(&format!("<code>{}</code>", column.agent)));
            let p = &column.parts;
            assert!(section.contains(&format!(
                "<data id=\"agent-{id}-per-turn\" value=\"{}\">~{}</data>",
                p.per_turn.estimate_tokens,
                thousands(p.per_turn.estimate_tokens)
            )));
            let marked = section
                .split(&format!("<li data-agent=\"{id}\">"))
                .nth(1)
                .unwrap()
                .split("</li>")
                .next()
                .unwrap()
                .contains("class=\"modelled\"");
            assert_eq!(marked, !column.modelled.is_empty(), "{id}");
        }
        assert!(section.contains("<code>hermes@"));
        assert!(section.contains("this page counts no tokens"));
        // The heaviest figure fills its track; no bar is wider.
        assert!(section.contains("width:100.00%"));
        assert!(!section.contains("width:1000"));
    }

    #[test]
    fn without_agents_there_is_no_agents_section() {
        let mut page = sample_page(Theme::Light);
        page.agents = None;
        assert!(!page.render().contains("id=\"agents\""));
    }

    #[test]
    fn themes_differ_only_in_colours() {
        let light = sample_page(Theme::Light).render();
        let dark = sample_page(Theme::Dark).render();
        assert_ne!(light, dark);
        assert!(dark.contains("data-theme=\"dark\""));
        assert!(dark.contains(Theme::Dark.palette().background));
    }

    #[test]
    fn heat_classes() {
        assert_eq!(heat_class(false, 100, 100), "h0");
        assert_eq!(heat_class(true, 100, 120), "hn");
        assert_eq!(heat_class(true, 100, 60), "h1");
        assert_eq!(heat_class(true, 100, 20), "h2");
        assert_eq!(heat_class(true, 100, 5), "h3");
        assert_eq!(heat_class(true, 100, 2), "h4");
    }
}
