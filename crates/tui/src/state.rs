//! The view's state, pane by pane: what each pane shows and where its background work is.

use schematax_report::words::Words;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use schematax_capture::{CaptureError, ServerSpec};
use schematax_engine::agents::hits::AgentSearch;
use schematax_engine::agents::search::{AgentIndex, NotReplayable};
use schematax_engine::agents::settings::AgentSettings;
use schematax_engine::agents::turn::AgentTurn;
use schematax_engine::analyses::eval::{Evaluation, QuerySet};
use schematax_engine::analyses::lint::Findings;
use schematax_engine::inputs::Inputs;
use schematax_engine::nouns::config::Config;
use schematax_engine::replay::activation::{Activation, FlipPoints};
use schematax_engine::replay::listing::ListingForm;
use schematax_engine::replay::search::{Admitted, SearchResult};
use schematax_engine::replay::session::{ServerCost, Session};
use schematax_engine::tokenizers::Tokenizer;
use schematax_releases::{Agent, AgentRelease, Profile};
use schematax_report::agents::AgentColumn;

/// The focusable panes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    /// The servers table.
    Servers,
    /// The query line and its hits.
    Search,
    /// Lint findings.
    Lint,
    /// Evaluation of a queries file (only with `--queries`).
    Eval,
}

/// How the servers table is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Heaviest first.
    Cost,
    /// By server key.
    Name,
}

/// Where the real token counts are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Counting {
    /// Still counting in the background.
    Pending,
    /// Every tool is counted.
    Done,
    /// The tokenizers could not be loaded.
    Failed(String),
}

/// State of the Servers pane.
#[derive(Debug, Clone, PartialEq)]
pub struct ServersPane {
    /// Selected row (display order).
    pub selected: usize,
    /// Row order.
    pub sort: SortOrder,
}

/// State of the Search pane.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchPane {
    /// The query as typed.
    pub query: String,
    /// Whether keys go to the query line.
    pub typing: bool,
    /// Hits at most, in [1, max_search_limit].
    pub limit: usize,
    /// Selected hit.
    pub selected: usize,
    /// The hits of `query` in the current session (refreshed after every change).
    pub result: SearchResult,
    /// The best tools the rarest-word gate turns away, and why (catalog positions).
    pub near_misses: Vec<(usize, Admitted)>,
}

/// Where a re-capture gets its servers and puts its files.
#[derive(Debug, Clone, PartialEq)]
pub struct RecaptureSource {
    /// The config (its mcp_servers, and the rules to rebuild the session).
    pub config: Config,
    /// The servers to capture.
    pub specs: Vec<ServerSpec>,
    /// The capture folder the new captures go to.
    pub out_dir: PathBuf,
    /// The capture files and folders the session is read from again afterwards (the
    /// session's own inputs, `out_dir` among them).
    pub reload: Vec<PathBuf>,
    /// Seconds each server has to answer each request.
    pub timeout: Duration,
}

/// Progress of a running re-capture.
#[derive(Debug, Clone, PartialEq)]
pub struct RecaptureProgress {
    /// Servers asked for.
    pub total: usize,
    /// Finished servers: summary or error.
    pub done: Vec<(String, Result<String, CaptureError>)>,
}

/// A background result that is recomputed whenever its inputs change.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Bumped by every change that makes the last result stale.
    pub generation: u64,
    /// The generation of the result held.
    pub done: Option<u64>,
}

impl Job {
    /// A job with no result yet.
    pub(super) fn new() -> Job {
        Job {
            generation: 0,
            done: None,
        }
    }

    /// Whether a newer result is on its way.
    pub fn is_stale(&self) -> bool {
        self.done != Some(self.generation)
    }

    /// Marks the result stale and returns the generation to compute.
    pub(super) fn bump(&mut self) -> u64 {
        self.generation += 1;
        self.generation
    }
}

/// State of the Lint pane.
#[derive(Debug, Clone)]
pub struct LintPane {
    /// Findings of the latest lint, most severe first (none until the first lint ends).
    pub findings: Option<Findings>,
    /// Whether they are current.
    pub job: Job,
    /// Selected finding.
    pub selected: usize,
}

impl LintPane {
    /// How many findings the latest lint found.
    pub fn count(&self) -> usize {
        self.findings.as_ref().map_or(0, Findings::len)
    }

    /// Whether a newer lint is on its way.
    pub fn is_stale(&self) -> bool {
        self.job.is_stale()
    }
}

/// State of the Eval pane.
#[derive(Debug, Clone)]
pub struct EvalPane {
    /// The queries file.
    pub set: Arc<QuerySet>,
    /// Its evaluation under the session's profile and the one set beside it, once computed.
    pub evaluations: Option<Box<[(Profile, Evaluation); 2]>>,
    /// Whether they are current.
    pub job: Job,
    /// Selected query.
    pub selected: usize,
    /// The k of recall@k, in [1, max_search_limit]: the search_default_limit at start, then
    /// the pane's own (it tunes no setting).
    pub k: usize,
}

impl EvalPane {
    /// The evaluation under `profile`, once computed.
    pub fn evaluation(&self, profile: Profile) -> Option<&Evaluation> {
        self.evaluations
            .as_ref()
            .and_then(|e| e.iter().find(|(p, _)| *p == profile))
            .map(|(_, evaluation)| evaluation)
    }

    /// The profiles evaluated, the session's first.
    pub fn profiles(&self) -> Option<[Profile; 2]> {
        self.evaluations.as_ref().map(|e| [e[0].0, e[1].0])
    }
}

/// A scrollable text overlay: a tool's `tool_describe` payload, a `tool_search` payload, the
/// bridge definitions.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailView {
    /// Title of the overlay.
    pub title: String,
    /// One line of costs by each method.
    pub summary: String,
    /// The text, one line each.
    pub lines: Vec<String>,
    /// First visible line.
    pub scroll: usize,
}

/// The tools of one server, heaviest first.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolListView {
    /// The server.
    pub server: usize,
    /// Tool indices of that server, heaviest first.
    pub tools: Vec<usize>,
    /// Selected row.
    pub selected: usize,
}

/// What covers the panes.
#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// The key map, scrolled by this many lines.
    Help(usize),
    /// Every warning, scrolled by this many lines.
    Warnings(usize),
    /// A server's tools.
    ToolList(ToolListView),
    /// A payload; `back` is what Esc returns to.
    Detail(DetailView, Option<ToolListView>),
    /// Typing a context length.
    ContextPrompt(String),
}

/// What the panes show, computed once after each change (never while drawing).
#[derive(Debug, Clone)]
pub struct Derived {
    /// Activation of the current catalog and settings.
    pub activation: Activation,
    /// Each server's cost (index-aligned with the session's servers).
    pub costs: Vec<ServerCost>,
    /// Each server's full cost, on or off (to sort and to show what a server would cost).
    pub full_chars: Vec<u64>,
    /// The seed gate's flip points (auto mode).
    pub flip: Option<FlipPoints>,
    /// The newer listing's least budget per form.
    pub form_budgets: Vec<(ListingForm, u64)>,
    /// The real token count of the catalog in the session's tokenizer, once every tool is
    /// counted.
    pub counted: Option<u64>,
    /// Config fallbacks, skipped files, assembly notes and collisions, one line each.
    pub warnings: Vec<String>,
}

impl Derived {
    pub(super) fn of(session: &Session, inputs: &Inputs) -> Derived {
        let activation = session.activation();
        let costs = session.server_costs();
        let flip = activation.threshold_tokens.map(|_| {
            FlipPoints::find(
                activation.deferrable_tokens,
                activation.context.tokens,
                activation.threshold_pct,
            )
        });
        let mut warnings: Vec<String> = inputs
            .warnings(session.profile())
            .map(|w| w.words())
            .collect();
        warnings.extend(session.notes().iter().map(Words::words));
        warnings.extend(session.collisions().iter().map(Words::words));
        Derived {
            counted: costs.iter().map(|c| c.counted).sum(),
            full_chars: session.servers().iter().map(|s| s.chars).collect(),
            form_budgets: session.listing().form_budgets(),
            activation,
            costs,
            flip,
            warnings,
        }
    }
}

impl DetailView {
    /// A view of `payload`, pretty-printed with terminal controls escaped.
    pub fn new(title: String, summary: String, payload: &serde_json::Value) -> DetailView {
        let text = schematax_report::to_json(payload);
        DetailView {
            title,
            summary,
            lines: text.lines().map(str::to_string).collect(),
            scroll: 0,
        }
    }
}

/// An agent other than Hermes, as the view models it: its turn over the servers on, built on
/// a worker, and its own search of the query where that can be replayed.
#[derive(Debug, Clone)]
pub struct ChosenAgent {
    /// The agent's row.
    pub agent: &'static Agent,
    /// The release whose rules apply (the newest of the row).
    pub release: &'static AgentRelease,
    /// Its turn, once built for the current servers and context (the last one stays shown,
    /// marked stale, while a newer one is built).
    pub built: Option<Arc<AgentBuilt>>,
    /// What the turn on its way was built from, to tell when the view's servers or context
    /// changed since.
    pub requested: Option<AgentInputs>,
    /// Whether `built` is current.
    pub job: Job,
    /// The hits of the query in the agent's own search (None: no query, no turn yet, or a
    /// search that cannot be replayed).
    pub search: Option<AgentSearch>,
}

impl ChosenAgent {
    /// `agent@version`.
    pub fn label(&self) -> String {
        format!("{}@{}", self.agent.id, self.release.version)
    }
}

/// What an agent's turn depends on in the view: the inputs, the servers switched off, the
/// settings (the context window follows the view's) and the tokenizer it is counted in.
#[derive(Debug, Clone)]
pub struct AgentInputs {
    /// Config and captures.
    pub inputs: Arc<Inputs>,
    /// Names of the servers switched off.
    pub disconnected: Vec<String>,
    /// The agent's settings.
    pub settings: AgentSettings,
    /// The tokenizer of the token figures.
    pub tokenizer: Tokenizer,
}

impl AgentInputs {
    /// Whether a turn built from `self` is a turn of `other` too (the same inputs, not just
    /// equal ones).
    pub fn same_as(&self, other: &AgentInputs) -> bool {
        Arc::ptr_eq(&self.inputs, &other.inputs)
            && self.disconnected == other.disconnected
            && self.settings == other.settings
            && self.tokenizer == other.tokenizer
    }
}

/// One agent's turn, built on a worker: the turn, its figures in the report's words, and its
/// search index (or why its search cannot be replayed).
#[derive(Debug)]
pub struct AgentBuilt {
    /// The turn.
    pub turn: AgentTurn,
    /// Its figures, part by part, with the activation in words and the modelled parts.
    pub column: AgentColumn,
    /// The agent's search over what it defers, or why it cannot be replayed.
    pub index: Result<AgentIndex, NotReplayable>,
    /// The tokenizer the token figures are in, or why there are none (chars/4 then).
    pub tokenizer: Result<String, String>,
    /// The settings it was built with.
    pub settings: AgentSettings,
}
