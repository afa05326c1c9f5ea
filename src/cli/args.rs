//! The command line: every command's options, and how flags become the engine's overrides.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

use crate::cli::choices::{CardFormat, CheckFormat, Format, LintFormat, ReportFormat, Theme};
use crate::cli::CliError;
use schematax_engine::inputs::error::InputError;
use schematax_engine::inputs::{InputWarning, Inputs};
use schematax_engine::nouns::config::{ConfigProblem, ConfigWarning, Mode, THRESHOLD_PCT_RANGE};
use schematax_engine::replay::activation::{parse_context_length, Traffic, DEFAULT_TURNS_PER_DAY};
use schematax_engine::replay::catalog::Scope;
use schematax_engine::replay::session::{Overrides, SearchIndexing, Session};
use schematax_engine::tokenizers::{choose, hub_cache, TokenizerChoice, TokenizerOrigin};
use schematax_releases::{Agent, AgentChoice, AgentRelease, Profile, VersionMatch};
use schematax_report::words::Words;

/// Measure the schema tax of MCP tool definitions and replay Hermes Agent's Tool Search.
///
/// Without a command, opens the interactive view (on the embedded sample when no config is given).
#[derive(Debug, Parser)]
#[command(name = "schematax", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (default: the interactive view).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Inputs and overrides of the interactive view.
    #[command(flatten)]
    pub tui: TuiArgs,
}

/// Options of the interactive view.
#[derive(Debug, Clone, Args)]
pub struct TuiArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Price and traffic of the dollar figures.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// A queries file (as for `schematax eval`) for the Eval pane.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the interactive view (the default): live cost, activation and search panes.
    Tui(TuiArgs),
    /// Token cost per server, activation with its numbers, savings and warnings.
    Report(ReportArgs),
    /// The headline numbers and the heaviest servers as one 1200x630 SVG card, for READMEs
    /// and slides.
    Card(CardArgs),
    /// Rank the catalog for queries as one tool_search call would, with scores, matched words
    /// and (from 0.21.3) the rarest-word gate.
    Search(SearchArgs),
    /// Print the tool_describe payload of a tool (Hermes name, server/tool, or MCP name).
    Describe(DescribeArgs),
    /// Tool description quality and findability: findings per tool, with a rule, a severity
    /// and the fix.
    Lint(LintArgs),
    /// Retrieval evaluation of a queries file: recall@1, recall@k and MRR, by server and overall.
    Eval(EvalArgs),
    /// Capture tool lists from live MCP servers: those of a config, of MCP client configs, or
    /// one given here (`--name N -- COMMAND ARGS...` or `--name N --url URL`).
    Capture(CaptureArgs),
    /// The same inputs under several Hermes releases side by side (`--hermes 0.17,0.21.0,0.22`;
    /// default: seed and the config's release): cost, activation, tier and form, and with a
    /// queries file each query's rank under each, and what each release finds or loses
    /// against the first (old -> new: what an upgrade changes).
    #[command(alias = "diff-profiles")]
    Compare(CompareArgs),
    /// A budget gate for CI: exit 1 when the MCP tool schemas pass a token budget (in all or
    /// per server) or grew past --max-increase against a baseline report; 0 when within.
    Check(CheckArgs),
    /// Activation over a grid of context lengths and threshold_pct values: the threshold
    /// gate's flip points (up to Hermes 0.19), or the listing's forms and bridge cost.
    Sweep(SweepArgs),
    /// One text's size in every measure schematax knows: characters, chars/4 and each real
    /// tokenizer.
    Count(CountArgs),
    /// The Hermes releases schematax replays: each profile's id, the releases it covers, and
    /// what changed from the previous one.
    Profiles(ProfilesArgs),
    /// The agents schematax models beside Hermes (Claude Code, Codex, Copilot, Cursor, Gemini
    /// CLI, the APIs): the version each one's rules come from, and which parts are exact and
    /// which modelled.
    Agents(ProfilesArgs),
}

/// The options of `schematax report`.
#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format; `html` is one self-contained page that makes no network request.
    #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// Write to FILE instead of stdout (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Price and traffic of the dollar figures.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Skip the real token count in the model's tokenizer; chars/4 only.
    #[arg(long)]
    pub estimate_only: bool,
    /// Colours of the HTML page (--format html).
    #[arg(long, value_enum, value_name = "THEME")]
    pub theme: Option<Theme>,
    /// A queries file (as for `schematax eval`): the page's eval section (--format html).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
}

/// The options of `schematax card`.
#[derive(Debug, Clone, Args)]
pub struct CardArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CardFormat::Svg)]
    pub format: CardFormat,
    /// Write to FILE instead of stdout (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Price and traffic of the dollar figures.
    #[command(flatten)]
    pub traffic: TrafficArgs,
    /// Colours.
    #[arg(long, value_enum, default_value_t = Theme::Light, value_name = "THEME")]
    pub theme: Theme,
}

/// The options of `schematax search`.
#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// The queries the model would send (one call; seed takes one query per call).
    #[arg(required = true, num_args = 1..)]
    pub queries: Vec<String>,
    /// Hits at most (the limit rule applies: clamped to [1, max_search_limit]).
    #[arg(long, allow_negative_numbers = true)]
    pub limit: Option<i64>,
    /// hermes.yaml (or ~/.hermes/config.yaml); without it and without --tools, the
    /// embedded sample.
    #[arg(long, value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: SessionArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax describe`.
#[derive(Debug, Clone, Args)]
pub struct DescribeArgs {
    /// The tool.
    pub name: String,
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax lint`.
#[derive(Debug, Clone, Args)]
pub struct LintArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LintFormat::Table)]
    pub format: LintFormat,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// A queries file (as for `schematax eval`): report each expected tool a query cannot
    /// reach, and why.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// The top-k a query must reach its tool in, 1 or more (default: search_default_limit).
    #[arg(long, value_parser = parse_k, allow_negative_numbers = true)]
    pub limit: Option<usize>,
    /// Exit 1 when any finding reaches this severity.
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,
}

/// The options of `schematax eval`.
#[derive(Debug, Clone, Args)]
pub struct EvalArgs {
    /// YAML file: `queries: [{id?, query, server?, expected, also_ok?}]`.
    pub queries: PathBuf,
    /// The k of recall@k, 1 or more (default: search_default_limit).
    #[arg(long, value_parser = parse_k, allow_negative_numbers = true)]
    pub limit: Option<usize>,
    /// Count `also_ok` tools as hits too.
    #[arg(long)]
    pub lenient: bool,
    /// Exit 1 when the overall recall@k is below R (0 to 1).
    #[arg(long, value_name = "R", value_parser = parse_recall, allow_negative_numbers = true)]
    pub min_recall: Option<f64>,
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax compare`.
#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// A queries file (as for `schematax eval`).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// The k of recall@k, 1 or more (default: search_default_limit).
    #[arg(long, value_parser = parse_k, allow_negative_numbers = true)]
    pub limit: Option<usize>,
    /// Skip the real token count (with `--agent`); chars/4 only.
    #[arg(long)]
    pub estimate_only: bool,
    /// Inputs and overrides (`--hermes` / `--profile` take the releases to compare,
    /// `--agent` the agents).
    #[command(flatten)]
    pub input: InputArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Most chars/4 tokens of all MCP tool schemas together (e.g. 20000 or 20K).
    #[arg(long, value_name = "N", value_parser = parse_token_count, allow_negative_numbers = true)]
    pub max_tokens: Option<u64>,
    /// Most chars/4 tokens of one server's schemas, as NAME=N (repeatable).
    #[arg(long = "max-server-tokens", value_name = "NAME=N", value_parser = parse_server_budget)]
    pub max_server_tokens: Vec<(String, u64)>,
    /// An earlier `schematax report --format json` of the same config.
    #[arg(long, value_name = "FILE", requires = "max_increase")]
    pub baseline: Option<PathBuf>,
    /// Largest growth against the baseline, in percent (in all and per server).
    #[arg(long, value_name = "PCT", requires = "baseline", value_parser = parse_increase, allow_negative_numbers = true)]
    pub max_increase: Option<f64>,
    /// Skip the real tokenizers (the gate is chars/4, as Hermes's own figures are).
    #[arg(long)]
    pub estimate_only: bool,
    /// Output format: a table, Markdown for a pull-request comment, JSON or SARIF.
    #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
    pub format: CheckFormat,
    /// Write to FILE instead of stdout (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// The options of `schematax sweep`.
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// Inputs and overrides.
    #[command(flatten)]
    pub input: InputArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax count`.
#[derive(Debug, Clone, Args)]
pub struct CountArgs {
    /// The text; `-` or nothing reads standard input.
    pub text: Option<String>,
    /// A tokenizer.json to count with too.
    #[command(flatten)]
    pub tokenizer: TokenizerArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// The options of `schematax profiles`.
#[derive(Debug, Clone, Args)]
pub struct ProfilesArgs {
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

impl Command {
    /// The session flags of a command that replays one release (all but `compare`, which
    /// takes several, and the commands without a session).
    pub fn one_release(&self) -> Option<&SessionArgs> {
        self.session_args()
    }

    /// Whether the command runs under an agent other than Hermes (`report`, `search`,
    /// `eval`, `lint`, and `compare` with several).
    pub fn models_other_agents(&self) -> bool {
        matches!(
            self,
            Command::Report(_)
                | Command::Search(_)
                | Command::Eval(_)
                | Command::Lint(_)
                | Command::Compare(_)
        )
    }

    fn session_args(&self) -> Option<&SessionArgs> {
        match self {
            Command::Tui(args) => Some(&args.input.session),
            Command::Search(args) => Some(&args.input),
            Command::Report(ReportArgs { input, .. })
            | Command::Card(CardArgs { input, .. })
            | Command::Describe(DescribeArgs { input, .. })
            | Command::Lint(LintArgs { input, .. })
            | Command::Eval(EvalArgs { input, .. })
            | Command::Sweep(SweepArgs { input, .. })
            | Command::Check(CheckArgs { input, .. }) => Some(&input.session),
            Command::Compare(_)
            | Command::Capture(_)
            | Command::Profiles(_)
            | Command::Agents(_)
            | Command::Count(_) => None,
        }
    }
}

/// Inputs and overrides shared by every command.
#[derive(Debug, Clone, Args, Default)]
pub struct InputArgs {
    /// hermes.yaml (or ~/.hermes/config.yaml); without it and without --tools, the embedded sample.
    #[arg(value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// The config, named as `search` names it (the same as CONFIG).
    #[arg(long = "config", value_name = "CONFIG", conflicts_with = "config")]
    pub config_option: Option<PathBuf>,
    /// Everything else about the inputs.
    #[command(flatten)]
    pub session: SessionArgs,
}

/// The inputs and overrides besides the config path (`search` takes its config as
/// `--config`, since its queries are the positional arguments).
#[derive(Debug, Clone, Args, Default)]
pub struct SessionArgs {
    /// Captured tool lists: a file or a directory (repeatable). Default: tools/ beside the config.
    #[arg(long = "tools", value_name = "PATH")]
    pub tools: Vec<PathBuf>,
    /// The Hermes release to replay (e.g. 0.21.4, 0.22.2.post1, v0.19.0): the profile that
    /// covers it (see `schematax profiles`); default: the config's `schematax.hermes`, else
    /// the newest verified release. `compare` takes several, comma-separated.
    #[arg(long, value_name = "VERSION", value_parser = parse_hermes, value_delimiter = ',', conflicts_with = "profile")]
    pub hermes: Vec<VersionMatch>,
    /// The agent whose handling of MCP tools to model: hermes (the default; `hermes@0.21.4`
    /// means --hermes 0.21.4), claude-code, codex, copilot-vscode, cursor, gemini-cli,
    /// anthropic-api, openai-responses, each optionally @VERSION (see `schematax agents`).
    /// `compare` takes several, comma-separated.
    #[arg(long, value_name = "AGENT", value_parser = parse_agent, value_delimiter = ',')]
    pub agent: Vec<AgentArg>,
    /// Claude Code's ENABLE_TOOL_SEARCH as its environment holds it (unset: always defer;
    /// `auto`, `auto:N`, `true`, `false`).
    #[arg(long, value_name = "VALUE")]
    pub enable_tool_search: Option<String>,
    /// An agent's MCP client config (Claude Code's .mcp.json, Codex's config.toml, Gemini
    /// CLI's settings.json, Cursor's or VS Code's mcp.json; repeatable): each agent takes the
    /// per-server settings of its own kind (alwaysLoad, tool lists, enabled).
    #[arg(long = "client-config", value_name = "PATH")]
    pub client_configs: Vec<PathBuf>,
    /// Engine profile by id (hermes-0.21.4, seed, ...; see `schematax profiles`). `compare`
    /// takes several, comma-separated.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profile_id, value_delimiter = ',')]
    pub profile: Vec<Profile>,
    /// Context length in tokens (e.g. 200000, 200K, 1M; 0 = unknown), instead of the config's.
    #[arg(long = "context", value_name = "N", value_parser = parse_context_length, allow_negative_numbers = true)]
    pub context: Option<u64>,
    /// tools.tool_search.threshold_pct, in [0, 100].
    #[arg(long, value_name = "P", value_parser = parse_threshold, allow_negative_numbers = true)]
    pub threshold_pct: Option<f64>,
    /// tools.tool_search.enabled.
    #[arg(long = "enabled", value_enum, value_name = "MODE")]
    pub mode: Option<ModeArg>,
    /// Only these toolsets are in the session (mcp-SERVER or the server key; comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub enabled_toolsets: Option<Vec<String>>,
    /// These toolsets are never in the session (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub disabled_toolsets: Vec<String>,
    /// Which tokenizer real counts are in.
    #[command(flatten)]
    pub tokenizer: TokenizerArgs,
}

/// Which tokenizer real token counts are in: the model's (from the config, or `--model`), or a
/// `tokenizer.json` given by path.
#[derive(Debug, Clone, Args, Default)]
pub struct TokenizerArgs {
    /// Count real tokens with this Hugging Face tokenizer.json instead of the model's.
    #[arg(long, value_name = "PATH", conflicts_with = "model")]
    pub tokenizer: Option<PathBuf>,
    /// Count real tokens as this model does (default: the config's model): a Claude or OpenAI
    /// model id, or a Hugging Face repository id whose tokenizer.json is in the local cache.
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
}

impl TokenizerArgs {
    /// The tokenizer for a config whose model is `configured`: `--tokenizer`, else `--model`'s
    /// or the configured model's, looked up by family and then in the local Hugging Face cache.
    /// A `--tokenizer` that is not a file, or a `--model` nothing is known of, is an error.
    pub fn choice(&self, configured: Option<&str>) -> Result<TokenizerChoice, CliError> {
        if let Some(path) = &self.tokenizer {
            if !path.is_file() {
                let reason = if path.exists() {
                    "not a file"
                } else {
                    "no such file"
                };
                return Err(InputError::new(path, reason).into());
            }
        }
        let hub = hub_cache(|name| std::env::var(name).ok());
        let model = self.model.as_deref().or(configured);
        let choice = choose(model, self.tokenizer.as_deref(), hub.as_deref());
        match (&self.model, &choice.origin) {
            (Some(model), TokenizerOrigin::UnknownModel { .. }) => Err(CliError::Usage(format!(
                "--model {}: no tokenizer is known for it (not a Claude or OpenAI model, and no tokenizer.json for it in the Hugging Face cache{}); give --tokenizer PATH",
                schematax_engine::text::sanitize(model),
                hub.map(|h| format!(" at {}", h.display())).unwrap_or_default()
            ))),
            _ => Ok(choice),
        }
    }
}

/// `--format` and `--output`.
#[derive(Debug, Clone, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to FILE instead of stdout (replaced atomically).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--price-per-mtok` and `--turns-per-day`.
#[derive(Debug, Clone, Args)]
pub struct TrafficArgs {
    /// Dollars per million input tokens, for the savings.
    #[arg(long, value_name = "DOLLARS", default_value_t = 3.0, value_parser = parse_price, allow_negative_numbers = true)]
    pub price_per_mtok: f64,
    /// Turns a day, for the monthly dollar figures.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TURNS_PER_DAY, value_parser = parse_turns, allow_negative_numbers = true)]
    pub turns_per_day: u64,
}

impl TrafficArgs {
    /// The traffic these flags describe.
    pub fn traffic(&self) -> Traffic {
        Traffic {
            price_per_mtok: self.price_per_mtok,
            turns_per_day: self.turns_per_day,
        }
    }
}

/// Options of `schematax capture`.
#[derive(Debug, Clone, Args)]
pub struct CaptureArgs {
    /// hermes.yaml whose mcp_servers to capture.
    #[arg(value_name = "CONFIG")]
    pub config: Option<PathBuf>,
    /// Only these servers of the config and the client configs (repeatable).
    #[arg(long = "server", value_name = "NAME")]
    pub servers: Vec<String>,
    /// Where capture files go (default: tools/ beside the config, else ./tools).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Seconds the whole capture of a server may take (every request and page together).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_CAPTURE_TIMEOUT, value_parser = parse_timeout, allow_negative_numbers = true)]
    pub timeout: f64,
    /// MCP config of Claude Desktop, Claude Code, Cursor, VS Code, Codex (config.toml) or
    /// Gemini CLI (settings.json) (repeatable).
    #[arg(long = "client-config", value_name = "PATH")]
    pub client_configs: Vec<PathBuf>,
    /// Name of a server given here.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Streamable HTTP endpoint of a server given here.
    #[arg(
        long,
        value_name = "URL",
        requires = "name",
        conflicts_with = "command"
    )]
    pub url: Option<String>,
    /// Command (after `--`) of a stdio server given here.
    #[arg(last = true, value_name = "COMMAND", requires = "name")]
    pub command: Vec<String>,
}

/// Seconds the whole capture of a server may take, unless `--timeout` says otherwise.
pub const DEFAULT_CAPTURE_TIMEOUT: f64 = 30.0;

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 3600.0 => Ok(t),
        _ => Err(format!("{text:?} is not a number of seconds in (0, 3600]")),
    }
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Any error finding.
    Error,
    /// Any error or warning finding.
    Warning,
}

/// `--enabled` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Before Hermes 0.20: active when the deferrable schemas reach threshold_pct of the
    /// context. From 0.20: active whenever a tool can be deferred (threshold_pct sizes the
    /// listing).
    Auto,
    /// Always active.
    On,
    /// Never active.
    Off,
}

impl From<ModeArg> for Mode {
    fn from(mode: ModeArg) -> Mode {
        match mode {
            ModeArg::Auto => Mode::Auto,
            ModeArg::On => Mode::On,
            ModeArg::Off => Mode::Off,
        }
    }
}

/// One `--agent` value: an agent at a release, or Hermes at the release a version names.
#[derive(Debug, Clone, PartialEq)]
pub enum AgentArg {
    /// Hermes, at the release `hermes@VERSION` names (else --hermes or the config's).
    Hermes(Option<VersionMatch>),
    /// Another agent.
    Other(&'static AgentRelease, &'static Agent),
}

/// `--agent NAME[@VERSION]`.
fn parse_agent(text: &str) -> Result<AgentArg, String> {
    match AgentChoice::parse(text).map_err(|e| e.to_string())? {
        (AgentChoice::Hermes, None) => Ok(AgentArg::Hermes(None)),
        (AgentChoice::Hermes, Some(version)) => Profile::for_version(&version)
            .map(|m| AgentArg::Hermes(Some(m)))
            .map_err(|e| e.to_string()),
        (AgentChoice::Other { agent, release }, _) => Ok(AgentArg::Other(release, agent)),
    }
}

/// `--hermes VERSION`: the profile covering a Hermes release.
fn parse_hermes(text: &str) -> Result<VersionMatch, String> {
    Profile::for_version(text).map_err(|e| e.to_string())
}

/// `--profile ID`: a profile id or alias.
fn parse_profile_id(text: &str) -> Result<Profile, String> {
    Profile::from_id(text).ok_or_else(|| {
        let ids: Vec<&str> = Profile::all().map(Profile::id).collect();
        format!("{text:?} is not a profile ({})", ids.join(", "))
    })
}

/// The k of recall@k: 1 or more.
fn parse_k(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(k) if k >= 1 => Ok(k),
        _ => Err(format!("{text:?} is not a k of 1 or more")),
    }
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (THRESHOLD_PCT_RANGE.0..=THRESHOLD_PCT_RANGE.1).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a percentage in [0, 100]")),
    }
}

fn parse_recall(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("{text:?} is not a recall between 0 and 1")),
    }
}

fn parse_server_budget(text: &str) -> Result<(String, u64), String> {
    let (name, tokens) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("{text:?} is not NAME=N"))?;
    let tokens = parse_token_count(tokens)
        .map_err(|_| format!("{text:?}: {tokens:?} is not a number of tokens"))?;
    Ok((name.trim().to_string(), tokens))
}

/// A number of tokens as people write them: `20000`, `20_000`, `20,000`, `20K`, `2M`.
fn parse_token_count(text: &str) -> Result<u64, String> {
    let clean = text.trim().replace(['_', ','], "");
    let (digits, scale) = match clean.chars().last() {
        Some('k' | 'K') => (&clean[..clean.len() - 1], 1_000),
        Some('m' | 'M') => (&clean[..clean.len() - 1], 1_000_000),
        _ => (clean.as_str(), 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("{text:?} is not a number of tokens (e.g. 20000 or 20K)"))
}

/// The largest growth `check --max-increase` takes, in percent.
const MAX_INCREASE_PCT: f64 = 1_000_000.0;

fn parse_increase(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches('%').parse::<f64>() {
        // `+ 0.0` turns a -0 into 0, so it shows as +0%.
        Ok(p) if (0.0..=MAX_INCREASE_PCT).contains(&p) => Ok(p + 0.0),
        _ => Err(format!(
            "{text:?} is not a percentage from 0 to {}",
            schematax_engine::text::thousands(MAX_INCREASE_PCT as u64)
        )),
    }
}

fn parse_turns(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("{text:?} is not a whole number of turns (0 or more)"))
}

fn parse_price(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(format!("{text:?} is not a non-negative price")),
    }
}

impl InputArgs {
    /// The overrides these flags give for the inputs read.
    pub fn overrides(&self, inputs: &Inputs) -> Result<Overrides, CliError> {
        self.session.overrides(inputs)
    }

    /// The config path, given as CONFIG or as `--config`.
    pub fn config_path(&self) -> Option<&Path> {
        self.config.as_deref().or(self.config_option.as_deref())
    }

    /// Reads the inputs.
    pub fn inputs(&self) -> Result<Inputs, CliError> {
        self.session.inputs(self.config_path())
    }

    /// Reads the inputs and builds the session of a command that shows costs (see
    /// [`SessionArgs::costs_session`]).
    pub fn costs_session(&self) -> Result<(Inputs, Session), CliError> {
        self.session.costs_session(self.config_path())
    }
}

impl SessionArgs {
    /// The profiles `--profile`, `--hermes` or `--agent hermes@VERSION` name, in order.
    pub fn profiles(&self) -> Vec<Profile> {
        match self.profile.as_slice() {
            [] => self
                .hermes
                .iter()
                .chain(self.agent.iter().filter_map(|a| match a {
                    AgentArg::Hermes(Some(m)) => Some(m),
                    _ => None,
                }))
                .map(|m| m.profile)
                .collect(),
            ids => ids.to_vec(),
        }
    }

    /// The one agent other than Hermes a command models: the first `--agent`, else the
    /// config's `schematax.agent` unless `--hermes` or `--profile` is given; `None` for Hermes.
    pub fn other_agent(&self, inputs: &Inputs) -> Option<(&'static AgentRelease, &'static Agent)> {
        match self.agent.first() {
            Some(AgentArg::Other(release, agent)) => Some((release, agent)),
            Some(AgentArg::Hermes(_)) => None,
            None if self.hermes.is_empty() && self.profile.is_empty() => {
                match inputs.config.agent {
                    Some(AgentChoice::Other { agent, release }) => Some((release, agent)),
                    _ => None,
                }
            }
            None => None,
        }
    }

    /// The overrides these flags give for the inputs read (the first profile named; `compare`
    /// reads them all).
    pub fn overrides(&self, inputs: &Inputs) -> Result<Overrides, CliError> {
        Ok(Overrides {
            profile: self.profiles().first().copied(),
            context_length: self.context,
            context_source: None,
            threshold_pct: self.threshold_pct,
            mode: self.mode.map(Mode::from),
            listing: None,
            listing_max_tokens: None,
            scope: Scope {
                enabled_toolsets: self.enabled_toolsets.clone(),
                disabled_toolsets: self.disabled_toolsets.clone(),
            },
            tokenizer: Some(self.tokenizer.choice(inputs.config.model.id.as_deref())?),
        })
    }

    /// Reads the inputs of `config` and these flags (a `--hermes` newer than every verified
    /// release adds a warning).
    pub fn inputs(&self, config: Option<&Path>) -> Result<Inputs, CliError> {
        let mut inputs = Inputs::load(config, &self.tools)?;
        for found in self.hermes.iter().filter(|m| m.newer_than_verified) {
            let warning = ConfigWarning {
                key: "--hermes".into(),
                problem: ConfigProblem::NewerThanVerified {
                    version: found.asked.clone(),
                    profile: found.profile,
                    release: found.release.version,
                },
            };
            inputs.warnings.insert(0, InputWarning::Config(warning));
        }
        Ok(inputs)
    }

    /// Reads the inputs and builds the session of a command that shows costs, whose catalog
    /// is indexed for search only if a search asks.
    /// The commands that build a session here print no warnings of their own: the config's
    /// and the captures' go to stderr, one line each.
    pub fn costs_session(&self, config: Option<&Path>) -> Result<(Inputs, Session), CliError> {
        self.session_indexed(self.inputs(config)?, SearchIndexing::OnFirstSearch)
    }

    /// Builds the session of inputs already read for a command that searches, its catalog
    /// indexed on every core as it is built (warnings on stderr as [`Self::costs_session`]).
    pub fn searching_session(&self, inputs: Inputs) -> Result<(Inputs, Session), CliError> {
        self.session_indexed(inputs, SearchIndexing::WithCatalog)
    }

    /// The session of `inputs`, indexed for search as `indexing` says; warnings on stderr.
    fn session_indexed(
        &self,
        inputs: Inputs,
        indexing: SearchIndexing,
    ) -> Result<(Inputs, Session), CliError> {
        let overrides = self.overrides(&inputs)?;
        let session = Session::indexed(&inputs.config, &inputs.captures, &overrides, indexing);
        warn_on_stderr(&inputs, session.profile());
        Ok((inputs, session))
    }
}

/// Prints what the inputs say was read otherwise than written, or skipped, under `profile`:
/// one line each on stderr, as `report` lists them.
pub fn warn_on_stderr(inputs: &Inputs, profile: Profile) {
    for warning in inputs.warnings(profile) {
        eprintln!(
            "schematax: warning: {}",
            schematax_engine::text::sanitize(&warning.words())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_and_price_values() {
        assert_eq!(parse_threshold("12.5"), Ok(12.5));
        assert!(parse_threshold("101").is_err());
        assert!(parse_threshold("nan").is_err());
        assert!(parse_price("-1").is_err());
        assert_eq!(parse_turns("100"), Ok(100));
        assert!(parse_turns("-1").is_err());
    }

    #[test]
    fn cli_shape_is_valid() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
