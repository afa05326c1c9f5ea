//! The TUI model: state in small per-pane structs, the messages that change it, and the one
//! `update` function. Rendering reads this state (and [`Derived`], what every pane needs,
//! recomputed after each change) and never changes it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::keys::{action_for, Action, KeyContext};
use crate::capture::{CaptureError, ServerSpec};
use crate::engine::activation::{
    Activation, ContextLength, ContextSource, FlipPoints, Traffic, CONTEXT_PRESETS,
};
use crate::engine::capture_file::LoadedCaptures;
use crate::engine::catalog::{Server, ToolRef};
use crate::engine::config::{Config, Mode, ToolSearchSettings};
use crate::engine::error::InputError;
use crate::engine::eval::{evaluate, Evaluation, QuerySet};
use crate::engine::inputs::Inputs;
use crate::engine::lint::Findings;
use crate::engine::listing::ListingForm;
use crate::engine::profile::Profile;
use crate::engine::search::{Admitted, SearchResult};
use crate::engine::session::{BuiltCatalog, CatalogBuild, Lookup, Overrides, ServerCost, Session};
use crate::engine::tokenizer::{LoadedTokenizer, Tokenizer, TokenizerError};
use crate::engine::tokens::estimate_tokens;
use crate::report::{pct_label, thousands};
use crate::signals::Signal;

/// What happens to the app.
#[derive(Debug)]
pub enum Msg {
    /// A key was pressed.
    Key(KeyEvent),
    /// Text to type as one edit: a bracketed paste, or a run of typed characters the event
    /// loop gathered (so a burst re-ranks once, not once a character).
    Paste(String),
    /// The terminal was resized (the next frame lays out anew).
    Resize,
    /// Real token counts of some tools arrived (the servers on screen come first), for the
    /// session of `generation`.
    Counted {
        /// The session generation it counted.
        generation: u64,
        /// The counts, or why there are none.
        result: Result<Vec<(ToolRef, u64)>, TokenizerError>,
    },
    /// One server of a re-capture finished: its summary line, or why it failed.
    Captured {
        /// The server.
        server: String,
        /// Summary or error.
        result: Result<String, CaptureError>,
    },
    /// A re-capture finished and the captures were read again.
    Recaptured(Result<LoadedCaptures, InputError>),
    /// A signal arrived: SIGTSTP suspends the view, the others end it.
    Signal(Signal),
    /// A background lint finished; `generation` tells whether it is still current.
    Linted {
        /// The lint generation it linted.
        generation: u64,
        /// Its findings (with their session, so boxed).
        findings: Box<Findings>,
    },
    /// A background evaluation of the queries file under the session's profile and the one
    /// set beside it finished.
    Evaluated {
        /// The evaluation generation it ran for.
        generation: u64,
        /// Each profile's evaluation: the session's first.
        evaluations: Box<[(Profile, Evaluation); 2]>,
    },
    /// The catalog was rebuilt in the background after a server was switched on or off.
    Rebuilt {
        /// The rebuild generation it was started for.
        generation: u64,
        /// The catalog, index and listing.
        built: Box<BuiltCatalog>,
    },
    /// A session for another profile was built in the background.
    SessionBuilt {
        /// The switch generation it was built for.
        generation: u64,
        /// The session.
        session: Box<Session>,
    },
}

/// How to build a session: the inputs, the overrides and the servers switched off.
#[derive(Debug, Clone)]
pub struct SessionRecipe {
    /// Config and captures.
    pub inputs: Arc<Inputs>,
    /// Command-line values and the view's tuning.
    pub overrides: Overrides,
    /// Names of the servers switched off.
    pub disconnected: Vec<String>,
}

impl SessionRecipe {
    /// Builds the session (as the engine does at start, then the servers switched off).
    pub fn build(&self) -> Session {
        let mut session = Session::new(&self.inputs.config, &self.inputs.captures, &self.overrides);
        if !self.disconnected.is_empty() {
            for server in 0..session.servers().len() {
                if self.disconnected.contains(&session.servers()[server].name) {
                    session.set_connected_later(server, false);
                }
            }
            session.rebuild();
        }
        session
    }
}

/// Work the event loop starts for the model, off the UI thread. Each effect carries the
/// snapshot it works on.
#[derive(Debug, Clone)]
pub enum Effect {
    /// Count every tool in the session's tokenizer and answer with [`Msg::Counted`]: once for
    /// the servers of `first`, then once for the rest.
    CountTokens {
        /// The session generation to count.
        generation: u64,
        /// The session's tools.
        servers: Arc<Vec<Server>>,
        /// The tokenizer.
        tokenizer: Tokenizer,
        /// The servers on screen, counted first.
        first: Vec<usize>,
    },
    /// Capture the servers of the config again, answering with [`Msg::Captured`] per server
    /// and [`Msg::Recaptured`] at the end.
    Recapture(RecaptureSource),
    /// Lint the session and answer with [`Msg::Linted`] (the latest generation wins).
    Lint {
        /// The lint generation.
        generation: u64,
        /// The session to lint.
        session: Box<Session>,
    },
    /// Evaluate the queries file in the session and under the other profile, answering with
    /// [`Msg::Evaluated`] (the latest generation wins).
    Evaluate {
        /// The evaluation generation.
        generation: u64,
        /// The session to evaluate.
        session: Box<Session>,
        /// How to build the other profile's session.
        other: SessionRecipe,
        /// The queries.
        set: Arc<QuerySet>,
        /// The k of recall@k.
        k: usize,
    },
    /// Rebuild the catalog after a change of servers and answer with [`Msg::Rebuilt`] (the
    /// latest generation wins).
    Rebuild {
        /// The rebuild generation.
        generation: u64,
        /// What to build from.
        build: Box<CatalogBuild>,
    },
    /// Build the session of another profile and answer with [`Msg::SessionBuilt`].
    BuildSession {
        /// The switch generation.
        generation: u64,
        /// What to build.
        recipe: SessionRecipe,
    },
    /// Give the terminal back to the shell, stop until continued (`fg`), then take the
    /// terminal again and redraw it whole. The event loop does this itself: it owns the
    /// terminal.
    Suspend,
}

impl Effect {
    /// Runs the effect (on a worker thread) and returns its answer; `progress` receives the
    /// messages sent on the way (one per server of a re-capture).
    pub fn run(self, progress: &(dyn Fn(Msg) + Sync)) -> Option<Msg> {
        match self {
            Effect::CountTokens {
                generation,
                servers,
                tokenizer,
                first,
            } => Some(Msg::Counted {
                generation,
                result: count_on_screen_first(&servers, &tokenizer, &first, &|counts| {
                    progress(Msg::Counted {
                        generation,
                        result: Ok(counts),
                    });
                }),
            }),
            Effect::Lint {
                generation,
                session,
            } => Some(Msg::Linted {
                generation,
                findings: Box::new(crate::engine::lint::lint(&session)),
            }),
            Effect::Evaluate {
                generation,
                session,
                other,
                set,
                k,
            } => {
                let mine = evaluate(&session, &set, k, false);
                let other = other.build();
                let theirs = evaluate(&other, &set, k, false);
                let evaluations = [(session.profile(), mine), (other.profile(), theirs)];
                Some(Msg::Evaluated {
                    generation,
                    evaluations: Box::new(evaluations),
                })
            }
            Effect::Rebuild { generation, build } => Some(Msg::Rebuilt {
                generation,
                built: Box::new(build.build()),
            }),
            Effect::BuildSession { generation, recipe } => Some(Msg::SessionBuilt {
                generation,
                session: Box::new(recipe.build()),
            }),
            Effect::Recapture(source) => {
                let on_done =
                    |server: &str, result: &Result<crate::capture::Saved, CaptureError>| {
                        progress(Msg::Captured {
                            server: server.to_string(),
                            result: result
                                .as_ref()
                                .map(|saved| saved.summary())
                                .map_err(Clone::clone),
                        })
                    };
                let created = std::fs::create_dir_all(&source.out_dir).map_err(|e| {
                    InputError::new(&source.out_dir, format!("cannot create the folder: {e}"))
                });
                if let Err(e) = created {
                    return Some(Msg::Recaptured(Err(e)));
                }
                crate::capture::capture_all(
                    &source.specs,
                    source.timeout,
                    &source.out_dir,
                    &on_done,
                );
                Some(Msg::Recaptured(crate::engine::capture_file::load_paths(
                    &source.reload,
                )))
            }
            Effect::Suspend => None,
        }
    }
}

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
    fn new() -> Job {
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
    fn bump(&mut self) -> u64 {
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
    fn of(session: &Session, inputs: &Inputs) -> Derived {
        let activation = session.activation();
        let costs = session.server_costs();
        let flip = activation.threshold_tokens.map(|_| {
            FlipPoints::find(
                activation.deferrable_tokens,
                activation.context.tokens,
                activation.threshold_pct,
            )
        });
        let mut warnings: Vec<String> = inputs.warnings(session.profile()).collect();
        warnings.extend(session.notes().iter().map(ToString::to_string));
        warnings.extend(session.collisions().iter().map(ToString::to_string));
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

/// The whole TUI state.
#[derive(Debug, Clone)]
pub struct App {
    /// The config and captures the sessions are built from.
    pub inputs: Arc<Inputs>,
    /// The simulated session (engine state).
    pub session: Session,
    /// What the panes show, kept in step with the session.
    pub derived: Derived,
    /// What the command line set: the baseline of "tuned".
    pub cli: Overrides,
    /// The command line's values plus the view's tuning, kept in step with the session.
    pub overrides: Overrides,
    /// The profile at start.
    pub start_profile: Profile,
    /// Price and traffic of the dollar figures.
    pub traffic: Traffic,
    /// Focused pane.
    pub focus: Pane,
    /// Servers pane state.
    pub servers: ServersPane,
    /// Search pane state.
    pub search: SearchPane,
    /// Lint pane state.
    pub lint: LintPane,
    /// Eval pane state, when a queries file was given.
    pub eval: Option<EvalPane>,
    /// Which of Search, Lint and Eval the lower pane shows.
    pub lower: Pane,
    /// Overlay, when one is open.
    pub overlay: Option<Overlay>,
    /// Real token counts.
    pub counting: Counting,
    /// A one-line message for the status bar.
    pub status: Option<String>,
    /// Bumped when the session is replaced (a profile switch, a re-capture).
    pub generation: u64,
    /// A profile switch under way.
    pub switching: Option<Profile>,
    /// The catalog rebuild after a server was switched on or off, when it runs on a worker.
    pub rebuild: Job,
    /// Catalogs of more tools than this are rebuilt on a worker after a server is switched on
    /// or off (the frame shows "re-indexing..." until it lands); smaller ones at once, within
    /// a frame.
    pub rebuild_on_worker_above: usize,
    /// Where a re-capture would come from (a config file with mcp_servers).
    pub recapture: Option<RecaptureSource>,
    /// A running re-capture.
    pub capturing: Option<RecaptureProgress>,
    /// Set when the user quits, or a signal ends the view.
    pub quit: bool,
    /// The signal that ended the view, if one did.
    pub ended_by: Option<Signal>,
}

/// The largest catalog rebuilt on the UI thread when a server is switched: about 5 ms of
/// index build on the 2-core machine the budgets are measured on.
pub const REBUILD_IN_PLACE_TOOLS: usize = 5_000;

/// Rows a page key moves.
pub const PAGE: usize = 10;
/// Longest query the search line keeps (a paste beyond it is cut, with a note): ranking a
/// query costs time with its length, and no tool_search query is longer.
pub const MAX_QUERY_CHARS: usize = 1_000;
/// threshold_pct step of the coarse keys.
pub const THRESHOLD_STEP: f64 = 1.0;
/// threshold_pct step of the fine keys.
pub const THRESHOLD_FINE_STEP: f64 = 0.1;
/// listing_max_tokens step.
pub const LISTING_BUDGET_STEP: u32 = 500;
/// Near misses the Search pane explains.
pub const NEAR_MISSES: usize = 3;

impl App {
    /// A new app on `inputs` with the command line's `overrides` (and a queries file for the
    /// Eval pane); start [`App::startup_effects`] next.
    pub fn new(
        inputs: Arc<Inputs>,
        overrides: Overrides,
        traffic: Traffic,
        queries: Option<QuerySet>,
    ) -> App {
        let session = Session::new(&inputs.config, &inputs.captures, &overrides);
        let limit = session.settings().search_default_limit as usize;
        let mut app = App {
            derived: Derived::of(&session, &inputs),
            start_profile: session.profile(),
            inputs,
            session,
            cli: overrides.clone(),
            overrides,
            traffic,
            focus: Pane::Servers,
            servers: ServersPane {
                selected: 0,
                sort: SortOrder::Cost,
            },
            search: SearchPane {
                query: String::new(),
                typing: false,
                limit,
                selected: 0,
                result: SearchResult::empty(),
                near_misses: Vec::new(),
            },
            lint: LintPane {
                findings: None,
                job: Job::new(),
                selected: 0,
            },
            eval: queries.map(|set| EvalPane {
                set: Arc::new(set),
                evaluations: None,
                job: Job::new(),
                selected: 0,
                k: limit,
            }),
            lower: Pane::Search,
            overlay: None,
            counting: Counting::Pending,
            status: None,
            generation: 0,
            switching: None,
            rebuild: Job {
                generation: 0,
                done: Some(0),
            },
            rebuild_on_worker_above: REBUILD_IN_PLACE_TOOLS,
            recapture: None,
            capturing: None,
            quit: false,
            ended_by: None,
        };
        if !app.derived.warnings.is_empty() {
            app.status = Some(app.warning_status());
        }
        app
    }

    /// The status line that points at the warnings.
    fn warning_status(&self) -> String {
        let n = self.derived.warnings.len();
        let first = crate::text::sanitize(&self.derived.warnings[0]).into_owned();
        format!(
            "{n} warning{}: {first}{} (w: all)",
            if n == 1 { "" } else { "s" },
            if n > 1 { " ..." } else { "" }
        )
    }

    /// The work to start with the app: token counts, lint and evaluation.
    pub fn startup_effects(&mut self) -> Vec<Effect> {
        self.session_effects()
    }

    /// The background work a new session needs.
    fn session_effects(&mut self) -> Vec<Effect> {
        let mut first = self.server_order();
        first.truncate(SERVERS_COUNTED_FIRST);
        first.extend(self.selected_server());
        let mut effects = vec![Effect::CountTokens {
            generation: self.generation,
            servers: self.session.shared_servers(),
            tokenizer: self.session.tokenizer().tokenizer.clone(),
            first,
        }];
        effects.extend(self.catalog_effects());
        effects
    }

    /// The background work a catalog change needs: lint and evaluation again.
    fn catalog_effects(&mut self) -> Vec<Effect> {
        let mut effects = vec![Effect::Lint {
            generation: self.lint.job.bump(),
            session: Box::new(self.session.clone()),
        }];
        effects.extend(self.evaluate_effect());
        effects
    }

    /// Evaluation of the queries file again (when there is one).
    fn evaluate_effect(&mut self) -> Option<Effect> {
        let other = self.recipe(self.session.profile().contrast());
        let session = Box::new(self.session.clone());
        let eval = self.eval.as_mut()?;
        let k = eval.k;
        Some(Effect::Evaluate {
            generation: eval.job.bump(),
            session,
            other,
            set: Arc::clone(&eval.set),
            k,
        })
    }

    /// How to build the session of `profile` with the current tuning and servers.
    pub fn recipe(&self, profile: Profile) -> SessionRecipe {
        SessionRecipe {
            inputs: Arc::clone(&self.inputs),
            overrides: Overrides {
                profile: Some(profile),
                ..self.overrides.clone()
            },
            disconnected: (0..self.session.servers().len())
                .filter(|&s| !self.session.is_connected(s))
                .map(|s| self.session.servers()[s].name.clone())
                .collect(),
        }
    }

    /// The key context of the current state.
    pub fn key_context(&self) -> KeyContext {
        match &self.overlay {
            Some(Overlay::Help(_)) => KeyContext::Help,
            Some(Overlay::Warnings(_)) => KeyContext::Warnings,
            Some(Overlay::ToolList(_)) => KeyContext::ToolList,
            Some(Overlay::Detail(..)) => KeyContext::Detail,
            Some(Overlay::ContextPrompt(_)) => KeyContext::Typing,
            None if self.search.typing => KeyContext::Typing,
            None => match self.focus {
                Pane::Servers => KeyContext::Servers,
                Pane::Search => KeyContext::Search,
                Pane::Lint => KeyContext::Lint,
                Pane::Eval => KeyContext::Eval,
            },
        }
    }

    /// The focusable panes in Tab order.
    pub fn panes(&self) -> Vec<Pane> {
        let mut panes = vec![Pane::Servers, Pane::Search, Pane::Lint];
        if self.eval.is_some() {
            panes.push(Pane::Eval);
        }
        panes
    }

    fn focus_pane(&mut self, pane: Pane) {
        self.focus = pane;
        if pane != Pane::Servers {
            self.lower = pane;
        }
    }

    /// Server indices in display order. Cost order uses each server's own total, so rows stay
    /// put when a server is switched off.
    pub fn server_order(&self) -> Vec<usize> {
        let servers = self.session.servers();
        let mut order: Vec<usize> = (0..servers.len()).collect();
        match self.servers.sort {
            SortOrder::Cost => {
                let total = |i: usize| self.derived.full_chars.get(i).copied().unwrap_or(0);
                order.sort_by(|&a, &b| total(b).cmp(&total(a)).then(a.cmp(&b)));
            }
            SortOrder::Name => order.sort_by(|&a, &b| servers[a].name.cmp(&servers[b].name)),
        }
        order
    }

    /// Applies a message; returns the work to start.
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        match msg {
            Msg::Resize => {}
            Msg::Counted { generation, .. } if generation != self.generation => {}
            Msg::Counted {
                result: Ok(counts), ..
            } => {
                self.session.set_token_counts(counts);
                if self.session.tokens_counted() {
                    self.counting = Counting::Done;
                }
                self.refresh_derived();
            }
            Msg::Counted {
                result: Err(reason),
                ..
            } => {
                self.status = Some(format!("real token counts unavailable: {reason}"));
                self.counting = Counting::Failed(reason.to_string());
            }
            Msg::Captured { server, result } => {
                if let Some(progress) = &mut self.capturing {
                    progress.done.push((server, result));
                }
            }
            Msg::Recaptured(loaded) => return self.adopt_captures(loaded),
            Msg::Signal(Signal::Suspend) => return vec![Effect::Suspend],
            Msg::Signal(signal) => {
                self.quit = true;
                self.ended_by = Some(signal);
            }
            Msg::Linted {
                generation,
                findings,
            } => {
                if generation == self.lint.job.generation {
                    self.lint.findings = Some(*findings);
                    self.lint.job.done = Some(generation);
                    self.lint.selected =
                        self.lint.selected.min(self.lint.count().saturating_sub(1));
                }
            }
            Msg::Evaluated {
                generation,
                evaluations,
            } => {
                if let Some(eval) = &mut self.eval {
                    if generation == eval.job.generation {
                        eval.evaluations = Some(evaluations);
                        eval.job.done = Some(generation);
                        let len = eval.set.queries.len();
                        eval.selected = eval.selected.min(len.saturating_sub(1));
                    }
                }
            }
            Msg::Rebuilt { generation, built } => {
                if generation == self.rebuild.generation && self.session.install(*built) {
                    self.rebuild.done = Some(generation);
                    self.refresh_derived();
                    self.refresh_search();
                    return self.catalog_effects();
                }
            }
            Msg::SessionBuilt {
                generation,
                session,
            } => {
                if generation == self.generation + 1 && self.switching == Some(session.profile()) {
                    self.switching = None;
                    let profile = session.profile();
                    self.overrides.profile = Some(profile);
                    self.adopt_session(*session);
                    self.status = Some(format!(
                        "{profile} (Hermes {}): {}",
                        profile.releases_label(),
                        profile.spec().changes
                    ));
                    return self.session_effects();
                }
            }
            Msg::Key(event) if event.kind != KeyEventKind::Release => return self.on_key(event),
            Msg::Key(_) => {}
            Msg::Paste(text) => self.paste(&text),
        }
        Vec::new()
    }

    /// Puts a new session in place: overlays that hold positions close, selections are kept in
    /// range, everything derived is recomputed.
    fn adopt_session(&mut self, session: Session) {
        let selected = self
            .selected_server()
            .map(|s| self.session.servers()[s].name.clone());
        self.session = session;
        self.generation += 1;
        // Built with the servers as switched now: a rebuild still on its way is for the old
        // session and will not be installed.
        self.rebuild.done = Some(self.rebuild.generation);
        self.counting = Counting::Pending;
        self.overlay = match self.overlay.take() {
            Some(Overlay::ToolList(_) | Overlay::Detail(..)) => None,
            other => other,
        };
        let max = self.session.settings().max_search_limit as usize;
        self.search.limit = self.search.limit.clamp(1, max);
        if let Some(eval) = self.eval.as_mut() {
            eval.k = eval.k.clamp(1, max);
        }
        self.lint.selected = 0;
        self.refresh_derived();
        // The selection follows its server into the new session, when it is still there.
        let order = self.server_order();
        self.servers.selected = selected
            .and_then(|name| {
                order
                    .iter()
                    .position(|&s| self.session.servers()[s].name == name)
            })
            .unwrap_or(self.servers.selected)
            .min(order.len().saturating_sub(1));
        self.refresh_search();
    }

    fn on_key(&mut self, event: KeyEvent) -> Vec<Effect> {
        let context = self.key_context();
        if let Some(action) = action_for(context, &event) {
            self.status = None;
            return self.apply(action);
        }
        if context == KeyContext::Typing {
            self.type_key(event);
        }
        Vec::new()
    }

    /// The character `event` types into the query line or the context prompt now, if any:
    /// what the event loop may gather into one [`Msg::Paste`].
    pub fn typed_char(&self, event: &KeyEvent) -> Option<char> {
        let context = self.key_context();
        match event.code {
            KeyCode::Char(c)
                if context == KeyContext::Typing
                    && event.kind != KeyEventKind::Release
                    && !event
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                    && action_for(context, event).is_none() =>
            {
                Some(c)
            }
            _ => None,
        }
    }

    /// Types `text` as one edit (line breaks and tabs as spaces, control characters dropped):
    /// into the prompt or query line being typed, else into a new search. The query keeps
    /// [`MAX_QUERY_CHARS`] at most, and says so when it cuts.
    fn paste(&mut self, text: &str) {
        if self.key_context() != KeyContext::Typing {
            if self.overlay.is_some() {
                return;
            }
            self.focus_pane(Pane::Search);
            self.search.typing = true;
        }
        let clean = text
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .filter(|c| !c.is_control());
        let line = match &mut self.overlay {
            Some(Overlay::ContextPrompt(prompt)) => prompt,
            _ => &mut self.search.query,
        };
        let room = MAX_QUERY_CHARS.saturating_sub(line.chars().count());
        let before = line.len();
        line.extend(clean.clone().take(room));
        if clean.count() > room {
            self.status = Some(format!(
                "the query keeps {} characters at most; the rest was left out",
                crate::text::thousands(MAX_QUERY_CHARS as u64)
            ));
        }
        if line.len() != before && !matches!(self.overlay, Some(Overlay::ContextPrompt(_))) {
            self.search.selected = 0;
            self.refresh_search();
        }
    }

    /// Text editing of the query line or the context prompt.
    fn type_key(&mut self, event: KeyEvent) {
        let text = match &mut self.overlay {
            Some(Overlay::ContextPrompt(text)) => text,
            _ => &mut self.search.query,
        };
        match event.code {
            KeyCode::Char(c)
                if !event
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                if text.chars().count() >= MAX_QUERY_CHARS {
                    self.status = Some(format!(
                        "the query keeps {} characters at most",
                        crate::text::thousands(MAX_QUERY_CHARS as u64)
                    ));
                    return;
                }
                text.push(c)
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char('u') if event.modifiers.contains(KeyModifiers::CONTROL) => text.clear(),
            _ => return,
        }
        if !matches!(self.overlay, Some(Overlay::ContextPrompt(_))) {
            self.search.selected = 0;
            self.refresh_search();
        }
    }

    /// Starts a re-capture of the config's servers, unless one is running or there is no config.
    fn start_recapture(&mut self) -> Vec<Effect> {
        let Some(source) = &self.recapture else {
            self.status = Some(
                "re-capture needs a config file with mcp_servers (run schematax CONFIG), and with --tools a folder among them".into(),
            );
            return Vec::new();
        };
        if self.capturing.is_some() {
            self.status = Some("a re-capture is already running".into());
            return Vec::new();
        }
        self.capturing = Some(RecaptureProgress {
            total: source.specs.len(),
            done: Vec::new(),
        });
        vec![Effect::Recapture(source.clone())]
    }

    /// Rebuilds the session from freshly captured tool lists, keeping the settings, the
    /// context, the scope and which servers are off.
    fn adopt_captures(&mut self, loaded: Result<LoadedCaptures, InputError>) -> Vec<Effect> {
        let progress = self.capturing.take();
        let failed: Vec<String> = progress
            .iter()
            .flat_map(|p| p.done.iter())
            .filter_map(|(server, result)| result.as_ref().err().map(|e| format!("{server}: {e}")))
            .collect();
        let loaded = match loaded {
            Ok(loaded) => loaded,
            Err(e) => {
                self.status = Some(format!("re-capture: cannot read the captures: {e}"));
                return Vec::new();
            }
        };
        let mut inputs = (*self.inputs).clone();
        inputs.captures = loaded.captures;
        inputs.warnings = loaded.warnings;
        self.inputs = Arc::new(inputs);
        let session = self.recipe(self.session.profile()).build();
        self.adopt_session(session);
        let total = progress.map_or(0, |p| p.total);
        self.status = Some(if failed.is_empty() {
            format!("re-captured {total} servers")
        } else {
            format!(
                "re-captured {} of {total} servers; failed: {}",
                total - failed.len(),
                failed.join("; ")
            )
        });
        self.session_effects()
    }

    /// Carries out one action; returns the work to start.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Quit => self.quit = true,
            Action::Suspend => return vec![Effect::Suspend],
            Action::Recapture => return self.start_recapture(),
            Action::ToggleHelp => self.overlay = Some(Overlay::Help(0)),
            Action::ShowWarnings => self.overlay = Some(Overlay::Warnings(0)),
            Action::ShowListing => self.show_listing(),
            Action::NextRelease => return self.switch_profile(true),
            Action::PreviousRelease => return self.switch_profile(false),
            Action::NextPane | Action::PrevPane => {
                let panes = self.panes();
                let at = panes.iter().position(|p| *p == self.focus).unwrap_or(0);
                let next = if action == Action::NextPane {
                    at + 1
                } else {
                    at + panes.len() - 1
                };
                self.focus_pane(panes[next % panes.len()]);
            }
            Action::ThresholdUp => self.nudge_threshold(THRESHOLD_STEP),
            Action::ThresholdDown => self.nudge_threshold(-THRESHOLD_STEP),
            Action::ThresholdUpFine => self.nudge_threshold(THRESHOLD_FINE_STEP),
            Action::ThresholdDownFine => self.nudge_threshold(-THRESHOLD_FINE_STEP),
            Action::ContextNext => self.step_context(true),
            Action::ContextPrev => self.step_context(false),
            Action::ContextEntry => self.overlay = Some(Overlay::ContextPrompt(String::new())),
            Action::CycleMode => {
                let mode = self.session.settings().enabled.cycled();
                self.session.set_mode(mode);
                self.overrides.mode = Some(mode);
                self.refresh_derived();
            }
            Action::ToggleListing => self.toggle_listing(),
            Action::ListingBudgetUp => self.nudge_listing_budget(true),
            Action::ListingBudgetDown => self.nudge_listing_budget(false),
            Action::StartSearch => {
                self.focus_pane(Pane::Search);
                self.search.typing = true;
            }
            Action::Up => self.move_selection(-1),
            Action::Down => self.move_selection(1),
            Action::PageUp => self.move_selection(-(PAGE as isize)),
            Action::PageDown => self.move_selection(PAGE as isize),
            Action::ToggleServer => return self.toggle_selected_server(),
            Action::CycleSort => {
                let selected = self.selected_server();
                self.servers.sort = match self.servers.sort {
                    SortOrder::Cost => SortOrder::Name,
                    SortOrder::Name => SortOrder::Cost,
                };
                if let Some(server) = selected {
                    self.servers.selected = self
                        .server_order()
                        .iter()
                        .position(|&s| s == server)
                        .unwrap_or(0);
                }
            }
            Action::Open => self.open(),
            Action::Back => self.back(),
            Action::LimitUp => return self.set_limit(self.search.limit + 1),
            Action::LimitDown => return self.set_limit(self.search.limit.saturating_sub(1)),
            Action::EvalKUp => {
                let k = self.eval.as_ref().map_or(0, |e| e.k);
                return self.set_eval_k(k + 1);
            }
            Action::EvalKDown => {
                let k = self.eval.as_ref().map_or(0, |e| e.k);
                return self.set_eval_k(k.saturating_sub(1));
            }
            Action::ShowPayload => self.show_payload(),
            Action::Submit => match self.overlay.take() {
                Some(Overlay::ContextPrompt(text)) => {
                    match crate::engine::activation::parse_context_length(&text) {
                        Ok(tokens) => self.set_context(tokens),
                        Err(reason) => self.status = Some(format!("context length: {reason}")),
                    }
                }
                other => {
                    self.overlay = other;
                    self.search.typing = false;
                }
            },
        }
        Vec::new()
    }

    /// Starts building the next (or previous) release's session in the background: P and O
    /// step through the releases, and round again.
    fn switch_profile(&mut self, forward: bool) -> Vec<Effect> {
        if let Some(profile) = self.switching {
            self.status = Some(format!("switching to {profile}..."));
            return Vec::new();
        }
        let current = self.session.profile();
        let profile = if forward {
            Profile::released()
                .find(|p| *p > current)
                .or_else(|| Profile::released().next())
        } else {
            Profile::released()
                .rev()
                .find(|p| *p < current)
                .or_else(|| Profile::released().next_back())
        }
        .unwrap_or(current);
        self.switching = Some(profile);
        self.status = Some(format!("switching to {profile}..."));
        vec![Effect::BuildSession {
            generation: self.generation + 1,
            recipe: self.recipe(profile),
        }]
    }

    /// The bridge the model sees, as the release sends it (listing included, when it has one).
    fn show_listing(&mut self) {
        let activation = &self.derived.activation;
        let profile = self.session.profile();
        let detail = match self.session.bridge_definitions() {
            Some(definitions) => {
                let form = activation
                    .listing
                    .as_ref()
                    .map_or(ListingForm::None, |l| l.listing.form);
                let description = definitions[0]["function"]["description"]
                    .as_str()
                    .unwrap_or_default();
                let heading = match profile.spec().listing {
                    Some(_) => format!("tool_search description ({form} listing):"),
                    None => format!(
                        "tool_search description (Hermes {} lists no tools; the listing came in 0.20):",
                        profile.releases_label()
                    ),
                };
                let mut lines: Vec<String> = vec![heading, String::new()];
                lines.extend(description.lines().map(str::to_string));
                lines.push(String::new());
                lines.push("The three definitions, as sent:".to_string());
                for definition in &definitions {
                    lines.extend(
                        crate::report::to_json(definition)
                            .lines()
                            .map(str::to_string),
                    );
                }
                DetailView {
                    title: format!(
                        "The bridge as the model sees it ({}, {} listing)",
                        self.session.profile(),
                        form
                    ),
                    summary: format!(
                        "3 tools, {} chars = {} tokens (chars/4), listing included",
                        thousands(activation.bridge_chars),
                        thousands(activation.bridge_tokens)
                    ),
                    lines,
                    scroll: 0,
                }
            }
            None => DetailView {
                title: "The bridge".to_string(),
                summary: "Tool Search is inactive: no bridge is sent".to_string(),
                lines: vec!["With enabled: off, every tool is sent as it is.".into()],
                scroll: 0,
            },
        };
        self.overlay = Some(Overlay::Detail(detail, None));
    }

    fn show_payload(&mut self) {
        let payload = self
            .session
            .search_payload(&[(self.search.query.clone(), self.search.result.clone())]);
        let summary = format!(
            "{} matches of {} tools, via {}: this is all the model sees (no scores)",
            self.search.result.hits.len(),
            self.session.total_available(),
            self.search.result.via.as_str()
        );
        self.overlay = Some(Overlay::Detail(
            DetailView::new(
                format!("tool_search {:?}", self.search.query),
                summary,
                &payload,
            ),
            None,
        ));
    }

    fn nudge_threshold(&mut self, step: f64) {
        let current = self.session.settings().threshold_pct;
        // Round to the step's grid so repeated fine steps land on exact tenths.
        let next = (((current + step) * 10.0).round() / 10.0).clamp(0.0, 100.0);
        self.session.set_threshold_pct(next);
        self.overrides.threshold_pct = Some(next);
        self.refresh_derived();
    }

    /// Whether the profile has a listing; says so in the status line when not.
    fn has_listing(&mut self) -> bool {
        let profile = self.session.profile();
        let lists = profile.spec().listing.is_some();
        if !lists {
            self.status = Some(format!(
                "{profile} has no listing: it came in Hermes 0.20 (P steps to the next release)"
            ));
        }
        lists
    }

    fn toggle_listing(&mut self) {
        if !self.has_listing() {
            return;
        }
        let listing = match self.session.settings().listing {
            Mode::Off => Mode::Auto,
            Mode::Auto | Mode::On => Mode::Off,
        };
        self.session.set_listing(listing);
        self.overrides.listing = Some(listing);
        self.refresh_derived();
    }

    fn nudge_listing_budget(&mut self, up: bool) {
        if !self.has_listing() {
            return;
        }
        let current = self.session.settings().listing_max_tokens;
        let next = if up {
            current.saturating_add(LISTING_BUDGET_STEP)
        } else {
            current.saturating_sub(LISTING_BUDGET_STEP)
        };
        self.session.set_listing_max_tokens(next);
        self.overrides.listing_max_tokens = Some(self.session.settings().listing_max_tokens);
        self.refresh_derived();
    }

    fn set_context(&mut self, tokens: u64) {
        self.session.set_context_length(tokens, ContextSource::View);
        self.overrides.context_length = Some(tokens);
        self.overrides.context_source = Some(ContextSource::View);
        self.refresh_derived();
    }

    fn step_context(&mut self, forward: bool) {
        let current = self.session.context().tokens;
        let next = if forward {
            CONTEXT_PRESETS
                .iter()
                .copied()
                .find(|&c| c > current)
                .unwrap_or(CONTEXT_PRESETS[0])
        } else {
            CONTEXT_PRESETS
                .iter()
                .rev()
                .copied()
                .find(|&c| c < current)
                .unwrap_or(CONTEXT_PRESETS[CONTEXT_PRESETS.len() - 1])
        };
        self.set_context(next);
    }

    fn set_limit(&mut self, limit: usize) -> Vec<Effect> {
        let max = self.session.settings().max_search_limit as usize;
        self.search.limit = limit.clamp(1, max);
        self.refresh_search();
        Vec::new()
    }

    /// Sets the Eval pane's k (clamped to [1, max_search_limit]) and evaluates again.
    fn set_eval_k(&mut self, k: usize) -> Vec<Effect> {
        let max = self.session.settings().max_search_limit as usize;
        let Some(eval) = self.eval.as_mut() else {
            return Vec::new();
        };
        eval.k = k.clamp(1, max);
        self.evaluate_effect().into_iter().collect()
    }

    /// The server under the selection.
    pub fn selected_server(&self) -> Option<usize> {
        self.server_order().get(self.servers.selected).copied()
    }

    fn toggle_selected_server(&mut self) -> Vec<Effect> {
        let Some(server) = self.selected_server() else {
            return Vec::new();
        };
        let connected = self.session.is_connected(server);
        if self
            .session
            .servers()
            .iter()
            .map(|s| s.tools.len())
            .sum::<usize>()
            > self.rebuild_on_worker_above
        {
            self.session.set_connected_later(server, !connected);
            return vec![Effect::Rebuild {
                generation: self.rebuild.bump(),
                build: Box::new(self.session.catalog_build()),
            }];
        }
        self.session.set_connected(server, !connected);
        self.refresh_derived();
        self.refresh_search();
        self.catalog_effects()
    }

    fn move_selection(&mut self, delta: isize) {
        let step = |value: usize, len: usize| -> usize {
            if len == 0 {
                0
            } else {
                (value as isize + delta).clamp(0, len as isize - 1) as usize
            }
        };
        let warnings = self.derived.warnings.len();
        match &mut self.overlay {
            Some(Overlay::Detail(detail, _)) => {
                detail.scroll = (detail.scroll as isize + delta)
                    .clamp(0, detail.lines.len().saturating_sub(1) as isize)
                    as usize;
            }
            Some(Overlay::ToolList(list)) => list.selected = step(list.selected, list.tools.len()),
            Some(Overlay::Help(scroll)) => {
                *scroll = step(*scroll, crate::tui::keys::help_lines().len())
            }
            Some(Overlay::Warnings(scroll)) => *scroll = step(*scroll, warnings),
            Some(Overlay::ContextPrompt(_)) => {}
            None => match self.focus {
                Pane::Servers => {
                    self.servers.selected =
                        step(self.servers.selected, self.session.servers().len())
                }
                Pane::Search => {
                    self.search.selected = step(self.search.selected, self.search.result.hits.len())
                }
                Pane::Lint => self.lint.selected = step(self.lint.selected, self.lint.count()),
                Pane::Eval => {
                    if let Some(eval) = &mut self.eval {
                        eval.selected = step(eval.selected, eval.set.queries.len());
                    }
                }
            },
        }
    }

    fn open(&mut self) {
        match self.overlay.take() {
            Some(Overlay::ToolList(list)) => {
                let detail = list.tools.get(list.selected).map(|&tool| {
                    self.tool_detail(ToolRef {
                        server: list.server,
                        tool,
                    })
                });
                self.overlay = match detail {
                    Some(detail) => Some(Overlay::Detail(detail, Some(list))),
                    None => Some(Overlay::ToolList(list)),
                };
            }
            Some(other) => self.overlay = Some(other),
            None => match self.focus {
                Pane::Servers => {
                    if let Some(server) = self.selected_server() {
                        let entries = &self.session.servers()[server].tools;
                        let mut tools: Vec<usize> = (0..entries.len()).collect();
                        tools.sort_by(|&a, &b| {
                            entries[b].chars.cmp(&entries[a].chars).then(a.cmp(&b))
                        });
                        self.overlay = Some(Overlay::ToolList(ToolListView {
                            server,
                            tools,
                            selected: 0,
                        }));
                    }
                }
                Pane::Search => {
                    if let Some(hit) = self.search.result.hits.get(self.search.selected) {
                        let place = self.session.catalog_ref(hit.doc);
                        self.overlay = Some(Overlay::Detail(self.tool_detail(place), None));
                    }
                }
                Pane::Lint => self.open_finding(),
                Pane::Eval => {
                    // The query goes to the Search pane, to see how it ranks.
                    let query = self
                        .eval
                        .as_ref()
                        .and_then(|e| e.set.queries.get(e.selected))
                        .map(|q| q.query.clone());
                    if let Some(query) = query {
                        self.search.query = query;
                        self.search.selected = 0;
                        self.focus_pane(Pane::Search);
                        self.refresh_search();
                    }
                }
            },
        }
    }

    /// The detail of the selected finding's tool, with the finding and the tools involved.
    fn open_finding(&mut self) {
        let Some(finding) = self
            .lint
            .findings
            .as_ref()
            .and_then(|f| f.text(self.lint.selected))
        else {
            return;
        };
        let Lookup::Found(position) = self.session.lookup(&finding.name) else {
            self.status = Some(format!(
                "{}/{} is not in the catalog",
                finding.server, finding.tool
            ));
            return;
        };
        let mut detail = self.tool_detail(self.session.catalog_ref(position));
        let mut head = vec![format!(
            "{} {}: {}",
            finding.rule.severity, finding.rule.id, finding.message
        )];
        if !finding.related.is_empty() {
            head.push(format!("involved: {}", finding.related.join(", ")));
        }
        head.push(String::new());
        detail.lines.splice(0..0, head);
        self.overlay = Some(Overlay::Detail(detail, None));
    }

    fn back(&mut self) {
        self.overlay = match self.overlay.take() {
            Some(Overlay::Detail(_, Some(list))) => Some(Overlay::ToolList(list)),
            Some(_) => None,
            None => {
                self.search.typing = false;
                None
            }
        };
    }

    /// The detail of one tool: its `tool_describe` payload, cost by each method, and what
    /// Hermes's schema passes changed in it.
    fn tool_detail(&self, place: ToolRef) -> DetailView {
        let entry = &self.session.servers()[place.server].tools[place.tool];
        let payload = match self.session.describe(&entry.name) {
            Ok(payload) | Err(payload) => payload,
        };
        let tokenizer = self.session.tokenizer().tokenizer.name();
        let counted = match self.session.token_count(place.server, place.tool) {
            Some(tokens) => format!("{} {tokenizer}", thousands(tokens)),
            None => format!("{tokenizer} counting..."),
        };
        let summary = format!(
            "{} chars, {} tokens by chars/4, {counted}",
            thousands(entry.chars),
            thousands(estimate_tokens(entry.chars))
        );
        let mut title = format!("tool_describe {}", entry.name);
        if !self.session.is_connected(place.server) {
            title.push_str(" (server off)");
        } else if self.session.catalog_position(place).is_none() {
            title.push_str(" (not in the catalog)");
        }
        let mut detail = DetailView::new(title, summary, &payload);
        if let Some(change) = crate::report::describe::schema_change(entry) {
            detail.lines.push(String::new());
            detail.lines.push(change.summary(entry.chars));
            detail
                .lines
                .push("(- captured only, + what Hermes sends)".to_string());
            detail.lines.extend(change.diff);
        }
        detail
    }

    /// Re-runs the current query (after the query changed).
    pub fn refresh_search(&mut self) {
        self.search.result = self.session.search(&self.search.query, self.search.limit);
        self.search.near_misses = if self.search.result.hits.len() < self.search.limit {
            self.session
                .near_misses(&self.search.query, NEAR_MISSES)
                .into_iter()
                .map(|(doc, _, why)| (doc, why))
                .collect()
        } else {
            Vec::new()
        };
        self.search.selected = self
            .search
            .selected
            .min(self.search.result.hits.len().saturating_sub(1));
    }

    /// Recomputes what the panes show (after the catalog, settings or counts changed).
    pub fn refresh_derived(&mut self) {
        self.derived = Derived::of(&self.session, &self.inputs);
    }

    /// The settings at start under the current profile (the command line's values).
    fn baseline(&self) -> ToolSearchSettings {
        self.cli
            .settings(&self.inputs.config, self.session.profile())
    }

    /// Whether the profile, the tool_search settings or the context differ from those at start.
    pub fn is_tuned(&self) -> bool {
        let settings = ToolSearchSettings {
            search_default_limit: self.search.limit as u32,
            ..*self.session.settings()
        };
        settings != self.baseline()
            || self.overrides.context_length != self.cli.context_length
            || self.session.profile() != self.start_profile
    }

    /// The YAML to paste into hermes.yaml for the tuned values: the keys of the current profile.
    pub fn tuned_yaml(&self) -> String {
        let settings = self.session.settings();
        let mut yaml = String::new();
        if self.overrides.context_length != self.cli.context_length {
            yaml.push_str(&format!(
                "model:\n  context_length: {}\n",
                self.session.context().tokens
            ));
        }
        yaml.push_str(&format!(
            "tools:\n  tool_search:\n    enabled: {}\n    threshold_pct: {}\n    search_default_limit: {}\n    max_search_limit: {}\n",
            settings.enabled,
            pct_label(settings.threshold_pct),
            self.search.limit,
            settings.max_search_limit
        ));
        if self.session.profile().spec().config.listing_keys {
            yaml.push_str(&format!(
                "    listing: {}\n    listing_max_tokens: {}\n",
                settings.listing, settings.listing_max_tokens
            ));
        }
        let profile = self.session.profile();
        if profile != self.start_profile {
            yaml.push_str("# schematax itself: replay this Hermes release\nschematax:\n");
            yaml.push_str(&match profile.spec().releases.first() {
                Some(release) => format!("  hermes: \"{}\"\n", release.version),
                None => format!("  profile: {profile}\n"),
            });
        }
        yaml
    }

    /// The context length in force.
    pub fn context(&self) -> &ContextLength {
        self.session.context()
    }
}

impl DetailView {
    /// A view of `payload`, pretty-printed with terminal controls escaped.
    pub fn new(title: String, summary: String, payload: &serde_json::Value) -> DetailView {
        let text = crate::report::to_json(payload);
        DetailView {
            title,
            summary,
            lines: text.lines().map(str::to_string).collect(),
            scroll: 0,
        }
    }
}

/// Servers counted before the rest: more than a tall terminal shows.
const SERVERS_COUNTED_FIRST: usize = 60;

/// Counts the tools of the servers of `first` and hands them to `early`, then counts the
/// rest and returns them; the tokenizer is loaded once per process.
fn count_on_screen_first(
    servers: &[Server],
    tokenizer: &Tokenizer,
    first: &[usize],
    early: &dyn Fn(Vec<(ToolRef, u64)>),
) -> Result<Vec<(ToolRef, u64)>, TokenizerError> {
    let tokenizer = LoadedTokenizer::shared(tokenizer)?;
    let order = crate::engine::session::tools_in_order(servers, first);
    let mut on_screen_servers: Vec<usize> = first.to_vec();
    on_screen_servers.sort_unstable();
    on_screen_servers.dedup();
    let early_tools: usize = on_screen_servers
        .iter()
        .filter_map(|&server| servers.get(server))
        .map(|s| s.tools.len())
        .sum();
    let (on_screen, rest) = order.split_at(early_tools.min(order.len()));
    if !rest.is_empty() {
        early(crate::engine::session::count_tools(
            servers, on_screen, &tokenizer,
        ));
        return Ok(crate::engine::session::count_tools(
            servers, rest, &tokenizer,
        ));
    }
    Ok(crate::engine::session::count_tools(
        servers, on_screen, &tokenizer,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded sample under the seed engine (the tests below name tools `mcp_S_T`).
    fn sample_app() -> App {
        sample_app_at(Profile::seed())
    }

    fn sample_app_at(profile: Profile) -> App {
        App::new(
            Arc::new(Inputs::sample()),
            Overrides {
                profile: Some(profile),
                ..Overrides::default()
            },
            Traffic::default(),
            None,
        )
    }

    fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
    }

    fn type_text(app: &mut App, text: &str) {
        for c in text.chars() {
            press(app, KeyCode::Char(c));
        }
    }

    #[test]
    fn fine_steps_land_on_tenths() {
        let mut app = sample_app();
        for _ in 0..3 {
            press(&mut app, KeyCode::Char(']'));
        }
        assert_eq!(app.session.settings().threshold_pct, 10.3);
        press(&mut app, KeyCode::Char('-'));
        assert_eq!(app.session.settings().threshold_pct, 9.3);
        for _ in 0..200 {
            press(&mut app, KeyCode::Char('+'));
        }
        assert_eq!(app.session.settings().threshold_pct, 100.0);
        assert_eq!(
            app.derived.activation.threshold_pct, 100.0,
            "derived follows"
        );
    }

    #[test]
    fn context_presets_cycle_and_prompt_parses() {
        let mut app = sample_app();
        press(&mut app, KeyCode::Char('c'));
        assert_eq!(app.session.context().tokens, 256_000);
        assert_eq!(app.session.context().source, ContextSource::View);
        press(&mut app, KeyCode::Char('C'));
        press(&mut app, KeyCode::Char('C'));
        assert_eq!(app.session.context().tokens, 128_000);
        press(&mut app, KeyCode::Char('x'));
        type_text(&mut app, "64k");
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.session.context().tokens, 64_000);
        press(&mut app, KeyCode::Char('x'));
        type_text(&mut app, "lots");
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.session.context().tokens, 64_000);
        assert!(app.status.as_deref().unwrap().contains("not a token count"));
    }

    #[test]
    fn typing_q_in_the_query_does_not_quit() {
        let mut app = sample_app();
        press(&mut app, KeyCode::Char('/'));
        type_text(&mut app, "query docs");
        assert!(!app.quit);
        assert_eq!(app.search.query, "query docs");
        press(&mut app, KeyCode::Backspace);
        assert_eq!(app.search.query, "query doc");
        press(&mut app, KeyCode::Enter);
        assert!(!app.search.typing);
        press(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }

    #[test]
    fn limit_stays_within_bounds() {
        let mut app = sample_app();
        app.focus = Pane::Search;
        for _ in 0..30 {
            press(&mut app, KeyCode::Char('>'));
        }
        assert_eq!(app.search.limit, 20);
        for _ in 0..30 {
            press(&mut app, KeyCode::Char('<'));
        }
        assert_eq!(app.search.limit, 1);
    }

    #[test]
    fn tool_list_and_detail_navigate_back() {
        let mut app = sample_app();
        press(&mut app, KeyCode::Enter);
        let Some(Overlay::ToolList(list)) = &app.overlay else {
            panic!("{:?}", app.overlay)
        };
        let server = &app.session.servers()[list.server];
        assert_eq!(server.name, "firecrawl", "heaviest server first");
        let chars: Vec<u64> = list.tools.iter().map(|&t| server.tools[t].chars).collect();
        assert!(
            chars.windows(2).all(|w| w[0] >= w[1]),
            "heaviest tools first"
        );
        press(&mut app, KeyCode::Enter);
        assert!(
            matches!(&app.overlay, Some(Overlay::Detail(d, Some(_))) if d.title.starts_with("tool_describe mcp_firecrawl_"))
        );
        press(&mut app, KeyCode::Esc);
        assert!(matches!(app.overlay, Some(Overlay::ToolList(_))));
        press(&mut app, KeyCode::Esc);
        assert!(app.overlay.is_none());
    }

    #[test]
    fn tuned_yaml_only_after_tuning() {
        let mut app = sample_app();
        assert!(!app.is_tuned());
        press(&mut app, KeyCode::Char('+'));
        press(&mut app, KeyCode::Char('m'));
        assert!(app.is_tuned());
        assert_eq!(
            app.tuned_yaml(),
            "tools:\n  tool_search:\n    enabled: on\n    threshold_pct: 11\n    search_default_limit: 5\n    max_search_limit: 20\n"
        );
        press(&mut app, KeyCode::Char('c'));
        assert!(app
            .tuned_yaml()
            .starts_with("model:\n  context_length: 256000\n"));
    }

    #[test]
    fn counts_arrive_later() {
        let mut app = sample_app();
        assert_eq!(app.counting, Counting::Pending);
        let effects = app.startup_effects();
        assert!(matches!(
            effects.as_slice(),
            [
                Effect::CountTokens { generation: 0, .. },
                Effect::Lint { generation: 1, .. }
            ]
        ));
        app.update(Msg::Counted {
            generation: 0,
            result: Err(TokenizerError::BuiltIn {
                tokenizer: "o200k_base".into(),
                reason: "boom".into(),
            }),
        });
        assert_eq!(
            app.counting,
            Counting::Failed("cannot load o200k_base: boom".into())
        );
        assert!(app.status.as_deref().unwrap().contains("boom"));
    }

    #[test]
    fn the_servers_on_screen_are_counted_first() {
        let mut app = sample_app();
        app.servers.selected = 1;
        let Some(count) = app
            .startup_effects()
            .into_iter()
            .find(|e| matches!(e, Effect::CountTokens { .. }))
        else {
            panic!("no count at startup");
        };
        let Effect::CountTokens { first, .. } = &count else {
            unreachable!()
        };
        let order = app.server_order();
        assert_eq!(first[..order.len().min(SERVERS_COUNTED_FIRST)], order[..]);
        let early = std::sync::Mutex::new(Vec::new());
        let last = count.run(&|msg| early.lock().unwrap().push(msg));
        // The sample fits on one screen: every server comes in the first answer.
        let early = early.into_inner().unwrap();
        assert!(early.is_empty(), "{early:?}");
        app.update(last.unwrap());
        assert_eq!(app.counting, Counting::Done);
        assert!(app.derived.counted.unwrap() > 0);
    }

    #[test]
    fn counting_splits_on_screen_from_the_rest() {
        let app = sample_app();
        let servers = app.session.shared_servers();
        let tokenizer = app.session.tokenizer().tokenizer.clone();
        let early = std::sync::Mutex::new(Vec::new());
        let rest = count_on_screen_first(&servers, &tokenizer, &[2, 0, 2], &|counts| {
            early.lock().unwrap().push(counts)
        })
        .unwrap();
        let early = early.into_inner().unwrap();
        assert_eq!(early.len(), 1);
        let servers_of = |counts: &[(ToolRef, u64)]| {
            let mut s: Vec<usize> = counts.iter().map(|(r, _)| r.server).collect();
            s.dedup();
            s
        };
        assert_eq!(servers_of(&early[0]), vec![2, 0]);
        assert!(!servers_of(&rest).contains(&0) && !servers_of(&rest).contains(&2));
        let total: usize = servers.iter().map(|s| s.tools.len()).sum();
        assert_eq!(early[0].len() + rest.len(), total);
    }

    /// Runs effects in place, as the event loop would on its workers (all but the slow
    /// tokenizer count).
    fn run_effects(app: &mut App, effects: Vec<Effect>) {
        for effect in effects {
            if matches!(effect, Effect::CountTokens { .. }) {
                continue;
            }
            if let Some(msg) = effect.run(&|_| {}) {
                let more = app.update(msg);
                run_effects(app, more);
            }
        }
    }

    #[test]
    fn the_profile_switches_on_a_worker_and_keeps_the_tuning() {
        let before = Profile::from_id("hermes-0.18.1").unwrap();
        let next = Profile::from_id("hermes-0.20.0").unwrap();
        let mut app = sample_app_at(before);
        press(&mut app, KeyCode::Char('+'));
        app.servers.selected = 4;
        press(&mut app, KeyCode::Char(' '));
        let off = app.selected_server().unwrap();
        assert!(!app.session.is_connected(off));
        let effects = press(&mut app, KeyCode::Char('P'));
        assert_eq!(app.switching, Some(next), "P steps to the next release");
        assert_eq!(
            app.session.profile(),
            before,
            "not until the worker answers"
        );
        run_effects(&mut app, effects);
        assert_eq!(app.session.profile(), next);
        assert_eq!(
            app.session.settings().threshold_pct,
            11.0,
            "the tuned value"
        );
        let name = &app.session.servers()[off].name;
        assert!(
            !app.session.is_connected(off),
            "{name} stays off across the switch"
        );
        assert!(app.derived.activation.listing.is_some());
        assert!(app.is_tuned());
        assert!(app.tuned_yaml().contains("listing_max_tokens: 4000"));
        assert!(
            app.tuned_yaml().contains("hermes: \"0.20.0.post2\""),
            "{}",
            app.tuned_yaml()
        );
        // A stale answer (another switch generation) is dropped.
        let stale = Box::new(app.recipe(before).build());
        app.update(Msg::SessionBuilt {
            generation: 99,
            session: stale,
        });
        assert_eq!(app.session.profile(), next);
    }

    #[test]
    fn listing_keys_tune_the_newer_profile_only() {
        let mut app = sample_app_at(Profile::from_id("hermes-0.18.1").unwrap());
        press(&mut app, KeyCode::Char('}'));
        assert!(app.status.as_deref().unwrap().contains("no listing"));
        let effects = press(&mut app, KeyCode::Char('P'));
        run_effects(&mut app, effects);
        press(&mut app, KeyCode::Char('}'));
        assert_eq!(app.session.settings().listing_max_tokens, 4500);
        press(&mut app, KeyCode::Char('l'));
        assert_eq!(app.session.settings().listing, Mode::Off);
        let form = app
            .derived
            .activation
            .listing
            .as_ref()
            .unwrap()
            .listing
            .form;
        assert_eq!(form, ListingForm::None);
    }
}
