//! `schematax card`: the headline of a cost report as one 1200x630 SVG (the social-card size),
//! for READMEs and slides: tokens a turn before and after Tool Search, the share saved, the
//! dollars a month, the heaviest servers as bars, and the range of tokens a turn the catalog
//! costs across the agents. Text only from the report, escaped.

use std::fmt::Write as _;

use crate::agents::AgentColumn;
use crate::cost::CostReport;
use crate::markup::{escape, escape_clipped, share, Palette, Theme};
use crate::{dollars, thousands};

/// Card width in pixels.
pub const WIDTH: u32 = 1200;
/// Card height in pixels.
pub const HEIGHT: u32 = 630;
/// Servers drawn as bars; the rest are summed in one line.
pub const BARS: usize = 5;
/// Top of the first server bar.
const BARS_TOP: usize = 340;
/// From one server bar to the next.
const BAR_PITCH: usize = 36;
/// Height of a server bar.
const BAR_HEIGHT: usize = 24;
/// Baseline of the agents line.
const AGENTS_Y: usize = 570;

/// `--format` of `card`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CardFormat {
    /// A standalone SVG document.
    #[default]
    Svg,
}

const FONT: &str =
    "system-ui, -apple-system, &#39;Segoe UI&#39;, Roboto, Helvetica, Arial, sans-serif";

/// The card of `report` in `theme`: the title, the three headline figures, the heaviest
/// servers as bars, the catalog in `agents` (chars/4; no line when empty), and what the
/// figures are.
pub fn render_svg(report: &CostReport, agents: &[AgentColumn], theme: Theme) -> String {
    let p = theme.palette();
    let mut out = String::with_capacity(8 * 1024);
    write_title(&mut out, report, theme, &p);
    write_figures(&mut out, report, &p);
    write_server_bars(&mut out, report, &p);
    write_agents(&mut out, agents, &p);
    write_footer(&mut out, report, &p);
    out
}

/// One line: the fewest and the most tokens a turn (chars/4, as sent) the catalog costs across
/// `agents`, and which agents those are.
fn write_agents(out: &mut String, agents: &[AgentColumn], p: &Palette) {
    let sent = |a: &&AgentColumn| a.parts.per_turn.estimate_tokens;
    let (Some(least), Some(most)) = (
        agents.iter().min_by_key(sent),
        agents.iter().max_by_key(sent),
    ) else {
        return;
    };
    let id = |a: &AgentColumn| a.agent.split('@').next().unwrap_or(&a.agent).to_string();
    let _ = writeln!(
        out,
        "<text x=\"60\" y=\"{AGENTS_Y}\" font-size=\"20\" fill=\"{}\">This catalog in {} agents: {}–{} tokens a turn ({} to {})</text>",
        p.text,
        agents.len(),
        thousands(least.parts.per_turn.estimate_tokens),
        thousands(most.parts.per_turn.estimate_tokens),
        escape(&id(least)),
        escape(&id(most)),
    );
}

/// The SVG's opening, its accessible title, and the card's heading.
fn write_title(out: &mut String, report: &CostReport, theme: Theme, p: &Palette) {
    let title = format!(
        "The schema tax of {}: {} tokens a turn, {} with Tool Search",
        report.inputs,
        thousands(report.tokens_before),
        thousands(report.tokens_after)
    );
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         role=\"img\" aria-labelledby=\"card-title\" font-family=\"{FONT}\" data-theme=\"{theme}\">\n\
         <title id=\"card-title\">{title}</title>\n\
         <rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"{bg}\"/>\n\
         <rect width=\"12\" height=\"{HEIGHT}\" fill=\"{after}\"/>\n\
         <text x=\"60\" y=\"68\" font-size=\"22\" letter-spacing=\"3\" fill=\"{muted}\">THE SCHEMA TAX</text>\n\
         <text x=\"60\" y=\"112\" font-size=\"34\" font-weight=\"700\" fill=\"{text}\">{config}</text>\n\
         <text x=\"60\" y=\"146\" font-size=\"22\" fill=\"{muted}\">{servers}, {tools} · profile {profile}</text>\n",
        theme = theme.as_str(),
        title = escape(&title),
        bg = p.background,
        after = p.after,
        muted = p.muted,
        text = p.text,
        config = escape_clipped(&report.inputs, 52),
        servers = schematax_engine::text::count(report.servers.len(), "MCP server", "MCP servers"),
        tools = schematax_engine::text::count(report.deferrable_tools, "tool", "tools"),
        profile = escape(&report.profile),
    );
}

/// Tokens a turn before and after Tool Search, and the share saved.
fn write_figures(out: &mut String, report: &CostReport, p: &Palette) {
    let state = if report.active {
        "with Tool Search"
    } else {
        "Tool Search inactive"
    };
    let figures = [
        (
            thousands(report.tokens_before),
            p.before,
            "tokens a turn without Tool Search".to_string(),
        ),
        (
            thousands(report.tokens_after),
            p.after,
            format!("tokens a turn {state}"),
        ),
        (
            format!("{:.1}%", report.savings_pct),
            p.after,
            format!("saved: {} a month", dollars(report.dollars_saved.per_month)),
        ),
    ];
    for (i, (figure, colour, label)) in figures.iter().enumerate() {
        let x = 60 + i * 370;
        // Digits are about 0.58 em wide: a long figure gets a smaller size to fit its column.
        let size = (340.0 / (0.58 * figure.chars().count() as f64)).min(76.0) as u32;
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"248\" font-size=\"{size}\" font-weight=\"800\" fill=\"{colour}\">{}</text>\n\
             <text x=\"{x}\" y=\"286\" font-size=\"20\" fill=\"{muted}\">{}</text>\n",
            escape(figure),
            escape(label),
            muted = p.muted,
        );
    }
    let _ = writeln!(
        out,
        "<line x1=\"60\" y1=\"322\" x2=\"1140\" y2=\"322\" stroke=\"{}\" stroke-width=\"2\"/>",
        p.rule
    );
}

/// The heaviest servers as bars (chars/4), and how many more there are.
fn write_server_bars(out: &mut String, report: &CostReport, p: &Palette) {
    let mut servers: Vec<_> = report.servers.iter().collect();
    servers.sort_by(|a, b| {
        b.estimate_tokens
            .cmp(&a.estimate_tokens)
            .then_with(|| a.server.cmp(&b.server))
    });
    let scale = servers.first().map_or(0, |s| s.estimate_tokens);
    let (bar_x, bar_max) = (370.0, 640.0);
    for (i, s) in servers.iter().take(BARS).enumerate() {
        let y = BARS_TOP + i * BAR_PITCH;
        let width = (share(s.estimate_tokens, scale) / 100.0 * bar_max).max(3.0);
        let _ = write!(
            out,
            "<text x=\"60\" y=\"{ty}\" font-size=\"22\" fill=\"{text}\">{name}</text>\n\
             <rect x=\"{bar_x}\" y=\"{y}\" width=\"{bar_max}\" height=\"{BAR_HEIGHT}\" rx=\"6\" fill=\"{panel}\"/>\n\
             <rect x=\"{bar_x}\" y=\"{y}\" width=\"{width:.1}\" height=\"{BAR_HEIGHT}\" rx=\"6\" fill=\"{before}\"/>\n\
             <text x=\"1140\" y=\"{ty}\" font-size=\"22\" text-anchor=\"end\" fill=\"{text}\">{tokens}</text>\n",
            ty = y + 20,
            text = p.text,
            name = escape_clipped(&s.server, 24),
            panel = p.panel,
            before = p.before,
            tokens = thousands(s.estimate_tokens),
        );
    }
    if servers.len() > BARS {
        let rest: u64 = servers[BARS..].iter().map(|s| s.estimate_tokens).sum();
        let _ = writeln!(
            out,
            "<text x=\"60\" y=\"{}\" font-size=\"20\" fill=\"{}\">and {} more servers: {} tokens</text>",
            BARS_TOP + BARS * BAR_PITCH + 18,
            p.muted,
            thousands((servers.len() - BARS) as u64),
            thousands(rest)
        );
    } else if servers.is_empty() {
        let _ = writeln!(
            out,
            "<text x=\"60\" y=\"380\" font-size=\"22\" fill=\"{}\">No MCP servers are connected: nothing to defer.</text>",
            p.muted
        );
    }
}

/// What the figures are, and the SVG's end.
fn write_footer(out: &mut String, report: &CostReport, p: &Palette) {
    let _ = write!(
        out,
        "<text x=\"60\" y=\"604\" font-size=\"18\" fill=\"{muted}\">Tokens per server a turn, chars/4 estimate · \
         ${price:.2} per million input tokens, {turns} turns a day</text>\n\
         <text x=\"1140\" y=\"604\" font-size=\"18\" font-weight=\"700\" text-anchor=\"end\" fill=\"{muted}\">schematax</text>\n\
         </svg>\n",
        muted = p.muted,
        price = report.price_per_mtok,
        turns = thousands(report.turns_per_day),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{ActivationRow, Size, TurnParts};

    fn column(agent: &str, sent: u64) -> AgentColumn {
        let size = |estimate_tokens| Size {
            chars: estimate_tokens * 4,
            estimate_tokens,
            tokens: None,
        };
        AgentColumn {
            agent: agent.into(),
            activation: ActivationRow {
                on: true,
                why: String::new(),
            },
            tools: 1,
            deferred: 1,
            parts: TurnParts {
                eager: size(0),
                listing: size(sent),
                fixed_tools: size(0),
                instructions: size(0),
                per_turn: size(sent),
                without_deferral: size(5000),
                one_search: size(0),
            },
            modelled: Vec::new(),
            eval: None,
            not_searched: None,
        }
    }

    #[test]
    fn the_agents_line_names_the_least_and_the_most() {
        let p = Theme::Light.palette();
        let mut out = String::new();
        let agents = [
            column("hermes@0.22.2", 1378),
            column("codex@0.171.0", 12),
            column("gemini-cli@0.61.0", 20012),
        ];
        write_agents(&mut out, &agents, &p);
        assert!(out.contains(
            ">This catalog in 3 agents: 12–20,012 tokens a turn (codex to gemini-cli)</text>"
        ));
        let mut none = String::new();
        write_agents(&mut none, &[], &p);
        assert!(none.is_empty(), "no agents, no line");
    }
}
