//! Command-line parsing and the one dispatch from a command to the engine and a renderer.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::capture::CaptureError;
use crate::engine::activation::{parse_context_length, Traffic, DEFAULT_TURNS_PER_DAY};
use crate::engine::catalog::Scope;
use crate::engine::compare::ProfileComparison;
use crate::engine::config::{Config, Mode, Scalar};
use crate::engine::error::InputError;
use crate::engine::eval::{evaluate, QuerySet};
use crate::engine::inputs::Inputs;
use crate::engine::lint::Severity;
use crate::engine::profile::{Profile, VersionMatch};
use crate::engine::search::resolve_limit;
use crate::engine::session::{Overrides, Session};
use crate::engine::tokenizer::{
    choose, hub_cache, LoadedTokenizer, Tokenizer, TokenizerChoice, TokenizerError, TokenizerOrigin,
};
use crate::report::card::{render_svg, CardFormat};
use crate::report::check::{Baseline, Budget, CheckFormat, CheckReport};
use crate::report::compare::CompareReport;
use crate::report::cost::CostReport;
use crate::report::count::CountReport;
use crate::report::describe::describe;
use crate::report::eval::EvalReport;
use crate::report::html::{OtherProfile, PageParts, PageReport};
use crate::report::lint::{LintFormat, LintReport};
use crate::report::markup::Theme;
use crate::report::profiles::ProfilesReport;
use crate::report::search::SearchReport;
use crate::report::sweep::SweepReport;
use crate::report::Format;
use crate::report::ReportFormat;
use crate::signals::Signal;
use crate::tui::Outcome;
use std::sync::Arc;

/// Exit code of bad usage or unreadable input.
pub const EXIT_USAGE: u8 = 2;
/// Exit code of a command that ran but found a failure (e.g. `describe` of an unknown tool).
pub const EXIT_FAILURE: u8 = 1;

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
    Report {
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output format; `html` is one self-contained page that makes no network request.
        #[arg(long, value_enum, default_value_t = ReportFormat::Table)]
        format: ReportFormat,
        /// Write to FILE instead of stdout (replaced atomically).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Price and traffic of the dollar figures.
        #[command(flatten)]
        traffic: TrafficArgs,
        /// Skip the real tokenizer counts (o200k_base, cl100k_base); chars/4 only.
        #[arg(long)]
        estimate_only: bool,
        /// Colours of the HTML page (--format html).
        #[arg(long, value_enum, value_name = "THEME")]
        theme: Option<Theme>,
        /// A queries file (as for `schematax eval`): the page's eval section (--format html).
        #[arg(long, value_name = "FILE")]
        queries: Option<PathBuf>,
    },
    /// The headline numbers and the heaviest servers as one 1200x630 SVG card, for READMEs
    /// and slides.
    Card {
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CardFormat::Svg)]
        format: CardFormat,
        /// Write to FILE instead of stdout (replaced atomically).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Price and traffic of the dollar figures.
        #[command(flatten)]
        traffic: TrafficArgs,
        /// Colours.
        #[arg(long, value_enum, default_value_t = Theme::Light, value_name = "THEME")]
        theme: Theme,
    },
    /// Rank the catalog for queries as one tool_search call would, with scores, matched words
    /// and (from 0.21.3) the rarest-word gate.
    Search {
        /// The queries the model would send (one call; seed takes one query per call).
        #[arg(required = true, num_args = 1..)]
        queries: Vec<String>,
        /// Hits at most (the limit rule applies: clamped to [1, max_search_limit]).
        #[arg(long, allow_negative_numbers = true)]
        limit: Option<i64>,
        /// hermes.yaml (or ~/.hermes/config.yaml); without it and without --tools, the
        /// embedded sample.
        #[arg(long, value_name = "CONFIG")]
        config: Option<PathBuf>,
        /// Inputs and overrides.
        #[command(flatten)]
        input: SessionArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Print the tool_describe payload of a tool (Hermes name, server/tool, or MCP name).
    Describe {
        /// The tool.
        name: String,
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Tool description quality and findability: findings per tool, with a rule, a severity
    /// and the fix.
    Lint {
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = LintFormat::Table)]
        format: LintFormat,
        /// Write to FILE instead of stdout.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// A queries file (as for `schematax eval`): report each expected tool a query cannot
        /// reach, and why.
        #[arg(long, value_name = "FILE")]
        queries: Option<PathBuf>,
        /// The top-k a query must reach its tool in (default: search_default_limit).
        #[arg(long)]
        limit: Option<usize>,
        /// Exit 1 when any finding reaches this severity.
        #[arg(long, value_enum, value_name = "SEVERITY")]
        fail_on: Option<FailOn>,
    },
    /// Retrieval evaluation of a queries file: recall@1, recall@k and MRR, by server and overall.
    Eval {
        /// YAML file: `queries: [{id?, query, server?, expected, also_ok?}]`.
        queries: PathBuf,
        /// The k of recall@k (default: search_default_limit).
        #[arg(long)]
        limit: Option<usize>,
        /// Count `also_ok` tools as hits too.
        #[arg(long)]
        lenient: bool,
        /// Exit 1 when the overall recall@k is below R (0 to 1).
        #[arg(long, value_name = "R", value_parser = parse_recall, allow_negative_numbers = true)]
        min_recall: Option<f64>,
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// Capture tool lists from live MCP servers: those of a config, of MCP client configs, or
    /// one given here (`--name N -- COMMAND ARGS...` or `--name N --url URL`).
    Capture(CaptureArgs),
    /// The same inputs under several Hermes releases side by side (`--hermes 0.17,0.21.0,0.22`;
    /// default: seed and the config's release): cost, activation, tier and form, and with a
    /// queries file each query's rank under each, and what each release finds or loses
    /// against the first (old -> new: what an upgrade changes).
    #[command(alias = "diff-profiles")]
    Compare {
        /// A queries file (as for `schematax eval`).
        #[arg(long, value_name = "FILE")]
        queries: Option<PathBuf>,
        /// The k of recall@k (default: search_default_limit).
        #[arg(long)]
        limit: Option<usize>,
        /// Inputs and overrides (`--hermes` / `--profile` take the releases to compare).
        #[command(flatten)]
        input: InputArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// A budget gate for CI: exit 1 when the MCP tool schemas pass a token budget (in all or
    /// per server) or grew past --max-increase against a baseline report; 0 when within.
    Check {
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Most chars/4 tokens of all MCP tool schemas together.
        #[arg(long, value_name = "N")]
        max_tokens: Option<u64>,
        /// Most chars/4 tokens of one server's schemas, as NAME=N (repeatable).
        #[arg(long = "max-server-tokens", value_name = "NAME=N", value_parser = parse_server_budget)]
        max_server_tokens: Vec<(String, u64)>,
        /// An earlier `schematax report --format json` of the same config.
        #[arg(long, value_name = "FILE", requires = "max_increase")]
        baseline: Option<PathBuf>,
        /// Largest growth against the baseline, in percent (in all and per server).
        #[arg(long, value_name = "PCT", requires = "baseline", value_parser = parse_increase, allow_negative_numbers = true)]
        max_increase: Option<f64>,
        /// Skip the real tokenizers (the gate is chars/4, as Hermes's own figures are).
        #[arg(long)]
        estimate_only: bool,
        /// Output format: a table, Markdown for a pull-request comment, JSON or SARIF.
        #[arg(long, value_enum, default_value_t = CheckFormat::Table)]
        format: CheckFormat,
        /// Write to FILE instead of stdout (replaced atomically).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Activation over a grid of context lengths and threshold_pct values: the threshold
    /// gate's flip points (up to Hermes 0.19), or the listing's forms and bridge cost.
    Sweep {
        /// Inputs and overrides.
        #[command(flatten)]
        input: InputArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// One text's size in every measure schematax knows: characters, chars/4 and each real
    /// tokenizer.
    Count {
        /// The text; `-` or nothing reads standard input.
        text: Option<String>,
        /// A tokenizer.json to count with too.
        #[command(flatten)]
        tokenizer: TokenizerArgs,
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
    /// The Hermes releases schematax replays: each profile's id, the releases it covers, and
    /// what changed from the previous one.
    Profiles {
        /// Output options.
        #[command(flatten)]
        output: OutputArgs,
    },
}

impl Command {
    /// The session flags of a command that replays one release (all but `compare`, which
    /// takes several, and the commands without a session).
    fn one_release(&self) -> Option<&SessionArgs> {
        match self {
            Command::Tui(args) => Some(&args.input.session),
            Command::Search { input, .. } => Some(input),
            Command::Report { input, .. }
            | Command::Card { input, .. }
            | Command::Describe { input, .. }
            | Command::Lint { input, .. }
            | Command::Eval { input, .. }
            | Command::Sweep { input, .. }
            | Command::Check { input, .. } => Some(&input.session),
            Command::Compare { .. }
            | Command::Capture(_)
            | Command::Profiles { .. }
            | Command::Count { .. } => None,
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
                crate::text::sanitize(model),
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
    /// Only these servers of the config (repeatable).
    #[arg(long = "server", value_name = "NAME")]
    pub servers: Vec<String>,
    /// Where capture files go (default: tools/ beside the config, else ./tools).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Seconds the whole capture of a server may take (every request and page together).
    #[arg(long, value_name = "SECS", default_value_t = DEFAULT_CAPTURE_TIMEOUT, value_parser = parse_timeout, allow_negative_numbers = true)]
    pub timeout: f64,
    /// Claude Desktop, Claude Code, Cursor or VS Code MCP config (repeatable).
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
    /// Active when the schemas reach threshold_pct of the context.
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

/// `--hermes VERSION`: the profile covering a Hermes release.
fn parse_hermes(text: &str) -> Result<VersionMatch, String> {
    Profile::for_version(text).map_err(|e| e.to_string())
}

/// `--profile ID`: a profile id or alias.
fn parse_profile_id(text: &str) -> Result<Profile, String> {
    Profile::from_id(text).ok_or_else(|| {
        let ids: Vec<&str> = Profile::all().map(|p| p.id()).collect();
        format!("{text:?} is not a profile ({})", ids.join(", "))
    })
}

fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p.is_finite() && (0.0..=100.0).contains(&p) => Ok(p),
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
    let tokens = tokens
        .trim()
        .replace(['_', ','], "")
        .parse::<u64>()
        .map_err(|_| format!("{text:?}: {tokens:?} is not a number of tokens"))?;
    Ok((name.trim().to_string(), tokens))
}

fn parse_increase(text: &str) -> Result<f64, String> {
    match text.trim().trim_end_matches('%').parse::<f64>() {
        Ok(p) if p.is_finite() && p >= 0.0 => Ok(p),
        _ => Err(format!("{text:?} is not a percentage of 0 or more")),
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

    /// Reads the inputs and builds the session.
    pub fn session(&self) -> Result<(Inputs, Session), CliError> {
        self.session.session(self.config_path())
    }
}

impl SessionArgs {
    /// The profiles `--profile` or `--hermes` name, in order.
    pub fn profiles(&self) -> Vec<Profile> {
        match self.profile.as_slice() {
            [] => self.hermes.iter().map(|m| m.profile).collect(),
            ids => ids.to_vec(),
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
            inputs.warnings.insert(
                0,
                format!(
                    "--hermes: newer than every verified release; replaying {} (Hermes {}), the newest",
                    found.profile, found.release.version
                ),
            );
        }
        Ok(inputs)
    }

    /// Reads the inputs and builds the session.
    pub fn session(&self, config: Option<&Path>) -> Result<(Inputs, Session), CliError> {
        let inputs = self.inputs(config)?;
        let session = Session::new(&inputs.config, &inputs.captures, &self.overrides(&inputs)?);
        Ok((inputs, session))
    }
}

/// Standard input as text (64 MiB at most), refused when it is a terminal nobody is typing into.
fn read_stdin() -> Result<String, CliError> {
    use std::io::Read;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(CliError::Usage(
            "count: give the text as an argument, or pipe it in (`-` reads standard input)".into(),
        ));
    }
    let limit = crate::engine::capture_file::MAX_CAPTURE_BYTES;
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Usage(format!("count: cannot read standard input: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(CliError::Usage(format!(
            "count: standard input is over {} MiB",
            limit / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes)
        .map_err(|e| CliError::Usage(format!("count: standard input is not UTF-8 text ({e})")))
}

/// Counts every definition in the session's tokenizer, and returns it for further counts.
pub fn count_tokens(session: &mut Session) -> Result<Arc<LoadedTokenizer>, CliError> {
    Ok(session.count_tokens()?)
}

/// Why a command could not run: one line, and the exit code it carries.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An input file could not be used.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// The output could not be written.
    #[error("cannot write {target}: {reason}")]
    Output {
        /// Where the output was going.
        target: String,
        /// Why it failed, one line.
        reason: String,
    },
    /// The interactive view could not run.
    #[error(transparent)]
    Terminal(#[from] crate::tui::TerminalError),
    /// A capture could not start.
    #[error(transparent)]
    Capture(#[from] crate::capture::CaptureError),
    /// A tokenizer could not be loaded.
    #[error(transparent)]
    Tokenizer(#[from] TokenizerError),
}

impl CliError {
    /// The process exit code: 2 (bad usage, unreadable input, unwritable output).
    pub fn exit_code(&self) -> u8 {
        EXIT_USAGE
    }
}

/// The interactive view's model, built from the command line exactly as the binary builds it.
pub fn build_app(args: &TuiArgs) -> Result<crate::tui::app::App, CliError> {
    let inputs = args.input.inputs()?;
    let queries = load_queries(args.queries.as_deref())?;
    let recapture = recapture_source(&inputs, &args.input.session.tools);
    let overrides = args.input.overrides(&inputs)?;
    if let Some(choice) = overrides.tokenizer.as_ref() {
        if matches!(choice.tokenizer, Tokenizer::HuggingFace(_)) {
            // A tokenizer.json that does not load stops the view before it opens (this runs
            // behind the loading screen); the view's counting then finds it loaded.
            LoadedTokenizer::shared(&choice.tokenizer)?;
        }
    }
    let mut app =
        crate::tui::app::App::new(Arc::new(inputs), overrides, args.traffic.traffic(), queries);
    app.recapture = recapture;
    Ok(app)
}

/// The inputs a command reads, as the person named them: the config and `--tools` paths, or
/// the embedded sample.
fn describe_inputs(input: &InputArgs) -> String {
    let paths: Vec<String> = input
        .config_path()
        .into_iter()
        .chain(input.session.tools.iter().map(PathBuf::as_path))
        .map(|p| p.display().to_string())
        .collect();
    if paths.is_empty() {
        "the embedded sample".to_string()
    } else {
        paths.join(", ")
    }
}

/// Where the view's `R` captures from and to: the enabled servers of a config file on disk,
/// into the `tools/` folder beside it (or the first folder given with `--tools`), reading the
/// session's own capture paths again afterwards. None without a config file, without enabled
/// servers, or when `--tools` names only files.
fn recapture_source(
    inputs: &crate::engine::inputs::Inputs,
    tools: &[PathBuf],
) -> Option<crate::tui::app::RecaptureSource> {
    let config_path = inputs.config_path.as_ref()?;
    let specs = crate::capture::specs_from_config(&inputs.config, &[]).ok()?;
    if specs.is_empty() {
        return None;
    }
    let (out_dir, reload) = if tools.is_empty() {
        let beside = config_path.parent().unwrap_or(Path::new(".")).join("tools");
        (beside.clone(), vec![beside])
    } else {
        (tools.iter().find(|p| p.is_dir())?.clone(), tools.to_vec())
    };
    Some(crate::tui::app::RecaptureSource {
        config: inputs.config.clone(),
        specs,
        out_dir,
        reload,
        timeout: std::time::Duration::from_secs_f64(DEFAULT_CAPTURE_TIMEOUT),
    })
}

/// Reads a queries file given with `--queries`.
fn load_queries(path: Option<&Path>) -> Result<Option<QuerySet>, CliError> {
    Ok(match path {
        Some(path) => Some(QuerySet::load(path)?),
        None => None,
    })
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let command = cli.command.unwrap_or(Command::Tui(cli.tui));
    if command
        .one_release()
        .is_some_and(|args| args.profiles().len() > 1)
    {
        return Err(CliError::Usage(
            "--hermes and --profile name one release here; `schematax compare` takes several"
                .into(),
        ));
    }
    match command {
        Command::Tui(args) => {
            let inputs = describe_inputs(&args.input);
            let outcome = crate::tui::run(inputs, move || build_app(&args));
            // Servers of a re-capture still running when the view closed are stopped, and
            // its half-written files removed.
            crate::capture::cleanup::abort();
            let app = match outcome? {
                Outcome::Ran(app) => app,
                Outcome::Failed(error) => return Err(error),
                Outcome::Cancelled(Some(signal)) => return Ok(ExitCode::from(signal.exit_code())),
                Outcome::Cancelled(None) => return Ok(ExitCode::SUCCESS),
            };
            if app.ended_by == Some(Signal::Hangup) {
                // The terminal is gone: nobody is left to read anything.
                return Ok(ExitCode::from(Signal::Hangup.exit_code()));
            }
            for warning in &app.derived.warnings {
                eprintln!("schematax: warning: {}", crate::text::sanitize(warning));
            }
            if app.is_tuned() {
                // Printed after a SIGINT or SIGTERM too, so the tuning is not lost.
                emit(
                    &format!(
                        "# Tuned in schematax; paste into hermes.yaml:\n{}",
                        app.tuned_yaml()
                    ),
                    None,
                )?;
            }
            Ok(match app.ended_by {
                Some(signal) => ExitCode::from(signal.exit_code()),
                None => ExitCode::SUCCESS,
            })
        }
        Command::Report {
            input,
            format,
            output,
            traffic,
            estimate_only,
            theme,
            queries,
        } => {
            let plain = format.plain();
            if plain.is_some() && (theme.is_some() || queries.is_some()) {
                return Err(CliError::Usage(
                    "--theme and --queries apply to --format html (for the figures of a queries file, see `schematax eval`)".into(),
                ));
            }
            let inputs = input.inputs()?;
            let traffic = traffic.traffic();
            let overrides = input.overrides(&inputs)?;
            // The page also shows the other profile: its session is built, read and given
            // back before the chosen one is built, so two are never held at once.
            let other = plain.is_none().then(|| {
                let chosen = overrides.profile_for(&inputs.config);
                let other_profile = chosen.contrast();
                let other = Session::new(
                    &inputs.config,
                    &inputs.captures,
                    &Overrides {
                        profile: Some(other_profile),
                        ..overrides.clone()
                    },
                );
                OtherProfile::of(&inputs, &other, &traffic)
            });
            let mut session = Session::new(&inputs.config, &inputs.captures, &overrides);
            if !estimate_only {
                count_tokens(&mut session)?;
            }
            let report = CostReport::build(&inputs, &session, &traffic);
            match other {
                // Without the page's other profile, `plain` is the format asked for.
                None => {
                    drop((session, inputs));
                    let format = plain.unwrap_or_default();
                    emit_with(output.as_deref(), |out| report.write(format, out))
                }
                Some(other) => {
                    let set = load_queries(queries.as_deref())?;
                    let parts = PageParts {
                        inputs: &inputs,
                        session: &session,
                        other,
                        queries: set.as_ref(),
                        theme: theme.unwrap_or_default(),
                    };
                    emit(
                        &PageReport::build(parts, report).render(),
                        output.as_deref(),
                    )
                }
            }
        }
        Command::Card {
            input,
            format: CardFormat::Svg,
            output,
            traffic,
            theme,
        } => {
            let (inputs, session) = input.session()?;
            let report = CostReport::build(&inputs, &session, &traffic.traffic());
            emit(&render_svg(&report, theme), output.as_deref())
        }
        Command::Search {
            queries,
            limit,
            config,
            input,
            output,
        } => {
            for query in queries.iter().filter(|q| Path::new(q.as_str()).is_file()) {
                eprintln!(
                    "schematax: warning: the query {:?} names a file; to read it as the config, pass --config {}",
                    crate::text::sanitize(query),
                    crate::text::sanitize(query)
                );
            }
            let (_, session) = input.session(config.as_deref())?;
            let raw = limit.map_or(Scalar::Null, |l| Scalar::Int(i128::from(l)));
            let limit = resolve_limit(&raw, session.settings());
            let report = SearchReport::build(&session, &queries, limit);
            emit(
                &report.render(output.format, &session),
                output.output.as_deref(),
            )
        }
        Command::Describe {
            name,
            input,
            output,
        } => {
            let (_, mut session) = input.session()?;
            count_tokens(&mut session)?;
            match describe(&session, &name) {
                Ok(report) => emit(&report.render(output.format), output.output.as_deref()),
                Err(error) => {
                    emit(&error.render(output.format), output.output.as_deref())?;
                    Ok(ExitCode::from(EXIT_FAILURE))
                }
            }
        }
        Command::Lint {
            input,
            format,
            output,
            fail_on,
            queries,
            limit,
        } => {
            let (inputs, session) = input.session()?;
            let set = load_queries(queries.as_deref())?;
            let sources = inputs
                .captures
                .iter()
                .map(|c| (c.server.clone(), c.source.display().to_string()))
                .collect();
            // The session holds all the rules read: the captures' parsed JSON is given back
            // before the lint starts.
            drop(inputs);
            let mut findings = crate::engine::lint::lint(&session);
            if let Some(set) = set {
                let k = limit.unwrap_or(session.settings().search_default_limit as usize);
                findings.add_queries(&set, k);
            }
            drop(session);
            let report = LintReport::build(findings, sources);
            emit_with(output.as_deref(), |out| report.write(format, out))?;
            let level = fail_on.map(|f| match f {
                FailOn::Error => Severity::Error,
                FailOn::Warning => Severity::Warning,
            });
            Ok(match level {
                Some(level) if report.reaches(level) => ExitCode::from(EXIT_FAILURE),
                _ => ExitCode::SUCCESS,
            })
        }
        Command::Eval {
            queries,
            limit,
            lenient,
            min_recall,
            input,
            output,
        } => {
            // The queries file first: its YAML tree is given back before the catalog loads.
            let set = QuerySet::load(&queries)?;
            let (_, session) = input.session()?;
            let k = limit.unwrap_or(session.settings().search_default_limit as usize);
            let evaluation = evaluate(&session, &set, k, lenient);
            let profile = session.profile();
            // The outcomes hold all the report prints: the catalog's memory is given back
            // before the report is made from them.
            drop((session, set));
            let overall = evaluation.overall;
            let report = EvalReport::build(evaluation, profile);
            emit_with(output.output.as_deref(), |out| {
                report.write(output.format, out)
            })?;
            Ok(match min_recall {
                Some(min) if overall.recall_at_k < min => {
                    eprintln!(
                        "schematax: recall@{} {:.3} is below --min-recall {min}",
                        overall.k, overall.recall_at_k
                    );
                    ExitCode::from(EXIT_FAILURE)
                }
                _ => ExitCode::SUCCESS,
            })
        }
        Command::Compare {
            queries,
            limit,
            input,
            output,
        } => {
            let inputs = input.inputs()?;
            let set = load_queries(queries.as_deref())?;
            let profiles = match input.session.profiles().as_slice() {
                [] | [_] => {
                    let chosen = input.overrides(&inputs)?.profile_for(&inputs.config);
                    vec![chosen.contrast().min(chosen), chosen.contrast().max(chosen)]
                }
                many => many.to_vec(),
            };
            let comparison = ProfileComparison::build(
                &inputs.config,
                &inputs.captures,
                &input.overrides(&inputs)?,
                &profiles,
                set.as_ref(),
                limit,
            );
            let report = CompareReport::build(&inputs, &comparison);
            emit(&report.render(output.format), output.output.as_deref())
        }
        Command::Capture(args) => run_capture(&args),
        Command::Check {
            input,
            max_tokens,
            max_server_tokens,
            baseline,
            max_increase,
            estimate_only,
            format,
            output,
        } => {
            if max_tokens.is_none() && max_server_tokens.is_empty() && baseline.is_none() {
                return Err(CliError::Usage(
                    "check needs a budget: --max-tokens N, --max-server-tokens NAME=N, or --baseline FILE with --max-increase PCT".into(),
                ));
            }
            let inputs = input.inputs()?;
            let mut session =
                Session::new(&inputs.config, &inputs.captures, &input.overrides(&inputs)?);
            if let Some(unknown) = max_server_tokens
                .iter()
                .find(|(name, _)| !session.servers().iter().any(|s| s.name == *name))
            {
                return Err(CliError::Usage(format!(
                    "--max-server-tokens: no server {:?} in this session",
                    unknown.0
                )));
            }
            let tokenizer = if estimate_only {
                None
            } else {
                Some(count_tokens(&mut session)?)
            };
            let report = CostReport::build(&inputs, &session, &Traffic::default());
            let baseline = match &baseline {
                Some(path) => {
                    let loaded = Baseline::load(path)?;
                    loaded.check_config(path, &report)?;
                    Some(loaded)
                }
                None => None,
            };
            let budget = Budget {
                max_tokens,
                per_server: max_server_tokens,
                max_increase_pct: max_increase,
            };
            // Where each figure comes from: the config for the total, the captures per server.
            let mut sources: std::collections::BTreeMap<String, String> = inputs
                .captures
                .iter()
                .map(|c| (c.server.clone(), c.source.display().to_string()))
                .collect();
            if let Some(config) = &inputs.config_path {
                sources.insert("total".into(), config.display().to_string());
            }
            let check = CheckReport::build(
                &report,
                baseline.as_ref(),
                &budget,
                tokenizer.as_deref(),
                sources,
            );
            emit(&check.render(format), output.as_deref())?;
            Ok(if check.pass {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FAILURE)
            })
        }
        Command::Count {
            text,
            tokenizer,
            output,
        } => {
            let choice = match (&tokenizer.tokenizer, &tokenizer.model) {
                (None, None) => None,
                _ => Some(tokenizer.choice(None)?),
            };
            let text = match text.as_deref() {
                Some("-") | None => read_stdin()?,
                Some(text) => text.to_string(),
            };
            // A Claude or OpenAI model's tokenizer is a row already; a file is added.
            let files = match choice.map(|c| c.tokenizer) {
                Some(file @ Tokenizer::HuggingFace(_)) => {
                    vec![(file.name(), LoadedTokenizer::shared(&file)?)]
                }
                _ => Vec::new(),
            };
            let report = CountReport::build(&text, &files)?;
            emit(&report.render(output.format), output.output.as_deref())
        }
        Command::Profiles { output } => emit(
            &ProfilesReport::build().render(output.format),
            output.output.as_deref(),
        ),
        Command::Sweep { input, output } => {
            let (_, session) = input.session()?;
            emit(
                &SweepReport::build(&session).render(output.format),
                output.output.as_deref(),
            )
        }
    }
}

/// `schematax capture`: 0 when every server was captured, 1 when some failed; SIGINT, SIGTERM
/// or SIGHUP stop every server and remove half-written files, then exit with 128 + the signal.
fn run_capture(args: &CaptureArgs) -> Result<ExitCode, CliError> {
    use crate::capture::{capture_all, client_config, specs_from_config, ServerSpec};
    use crate::engine::config::Transport;
    let usage = |text: &str| CliError::Usage(text.to_string());
    let mut specs: Vec<ServerSpec> = Vec::new();
    let ad_hoc = !args.command.is_empty() || args.url.is_some();
    match (&args.name, ad_hoc) {
        (Some(name), true) => specs.push(ServerSpec {
            name: name.clone(),
            transport: match &args.url {
                Some(url) => Transport::Http {
                    url: url.clone(),
                    headers: Vec::new(),
                },
                None => Transport::Stdio {
                    command: args.command[0].clone(),
                    args: args.command[1..].to_vec(),
                    env: Vec::new(),
                },
            },
            secrets: Vec::new(),
        }),
        (Some(_), false) => return Err(usage("--name needs a command after `--` or --url")),
        (None, _) => {}
    }
    if let Some(path) = &args.config {
        let config = Config::load(path)?;
        for warning in &config.warnings {
            eprintln!("schematax: warning: {}", crate::text::sanitize(warning));
        }
        let chosen = specs_from_config(&config, &args.servers)
            .map_err(|e| InputError::new(path, e.to_string()))?;
        specs.extend(chosen);
    } else if !args.servers.is_empty() {
        return Err(usage("--server needs a CONFIG"));
    }
    for path in &args.client_configs {
        specs.extend(client_config::load(path)?);
    }
    if specs.is_empty() {
        return Err(usage("nothing to capture: give a CONFIG with mcp_servers, --client-config, or --name with a command or --url"));
    }
    let out = match (&args.out, &args.config) {
        (Some(out), _) => out.clone(),
        (None, Some(config)) => config.parent().unwrap_or(Path::new(".")).join("tools"),
        (None, None) => PathBuf::from("tools"),
    };
    // The folder is made by the first capture saved: a run where all fail leaves none.
    crate::signals::watch(&Signal::ENDING, |signal| {
        crate::capture::cleanup::abort();
        eprintln!(
            "schematax: {}: capture stopped; servers ended",
            signal.name()
        );
        std::process::exit(i32::from(signal.exit_code()));
    })
    .map_err(|e| CliError::Usage(format!("cannot handle signals: {e}")))?;
    let timeout = std::time::Duration::from_secs_f64(args.timeout);
    // Progress goes to a terminal only: the summary below reports each server once.
    let interactive = std::io::stderr().is_terminal();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = specs.len();
    let report = |name: &str, result: &Result<crate::capture::Saved, CaptureError>| {
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if interactive {
            eprintln!(
                "schematax: {n}/{total} done: {} {}",
                crate::text::sanitize(name),
                if result.is_ok() { "captured" } else { "failed" }
            );
        }
    };
    let results = capture_all(&specs, timeout, &out, &report);
    let mut text = String::new();
    let mut failed = 0;
    for (spec, result) in specs.iter().zip(&results) {
        match result {
            Ok(saved) => {
                text.push_str(&format!("{}\n", crate::text::sanitize(&saved.summary())));
                for note in &saved.notes {
                    text.push_str(&format!("  note: {}\n", crate::text::sanitize(note)));
                }
            }
            Err(e) => {
                failed += 1;
                text.push_str(&format!(
                    "{}: FAILED: {}\n",
                    crate::text::sanitize(&spec.name),
                    crate::text::sanitize(&e.to_string())
                ));
            }
        }
    }
    emit(&text, None)?;
    Ok(if failed > 0 {
        ExitCode::from(EXIT_FAILURE)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes to `output` (atomically: a temporary file renamed over it) or to stdout, where a
/// closed pipe (`| head`) ends quietly.
pub fn emit(text: &str, output: Option<&Path>) -> Result<ExitCode, CliError> {
    emit_with(output, |out| out.write_all(text.as_bytes()))
}

/// Like [`emit`], with the text written by `write` as it is made, through a buffer: a large
/// report is never held whole in memory.
pub fn emit_with(
    output: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<ExitCode, CliError> {
    let failed = |target: &Path, e: std::io::Error| CliError::Output {
        target: target.display().to_string(),
        reason: crate::engine::error::one_line(&e.to_string()),
    };
    if let Some(path) = output {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let temp = dir.join(format!(
            ".{}.schematax-{}.tmp",
            path.file_name()
                .map_or("output".into(), |n| n.to_string_lossy()),
            std::process::id()
        ));
        let written = std::fs::File::create(&temp).and_then(|file| {
            let mut out = std::io::BufWriter::new(file);
            write(&mut out)?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()
        });
        return written
            .and_then(|_| std::fs::rename(&temp, path))
            .map(|_| ExitCode::SUCCESS)
            .map_err(|e| {
                let _ = std::fs::remove_file(&temp);
                failed(path, e)
            });
    }
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut stdout).and_then(|_| stdout.flush()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(failed(Path::new("stdout"), e)),
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
