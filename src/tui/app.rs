//! The TUI model: state in small per-pane structs, the messages that change it, and the one
//! `update` function. Rendering reads this state and never changes it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::keys::{action_for, Action, KeyContext};
use crate::capture::ServerSpec;
use crate::engine::activation::ContextSource;
use crate::engine::activation::{ContextLength, CONTEXT_PRESETS};
use crate::engine::capture_file::LoadedCaptures;
use crate::engine::catalog::ToolRef;
use crate::engine::config::{Config, ToolSearchSettings};
use crate::engine::eval::{evaluate, Evaluation, QuerySet};
use crate::engine::lint::Finding;
use crate::engine::search::SearchResult;
use crate::engine::session::Overrides;
use crate::engine::session::{Lookup, Session};
use crate::engine::tokens::{estimate_tokens, TokenCount, TokenizerError};
use crate::report::{pct_label, thousands};
use std::path::PathBuf;
use std::time::Duration;

/// What happens to the app.
#[derive(Debug, Clone)]
pub enum Msg {
    /// A key was pressed.
    Key(KeyEvent),
    /// The terminal was resized (the next frame lays out anew).
    Resize,
    /// The background token count finished, for the session of `generation`.
    Counted {
        /// The session generation it counted.
        generation: u64,
        /// The counts, or why there are none.
        result: Result<Vec<(ToolRef, TokenCount)>, TokenizerError>,
    },
    /// One server of a re-capture finished: its summary line, or why it failed.
    Captured {
        /// The server.
        server: String,
        /// Summary or error.
        result: Result<String, String>,
    },
    /// A re-capture finished and the capture folder was read again.
    Recaptured(Result<LoadedCaptures, String>),
    /// A background lint finished; `generation` tells whether it is still current.
    Linted {
        /// The catalog generation it linted.
        generation: u64,
        /// Its findings.
        findings: Vec<Finding>,
    },
}

/// Work the event loop starts for the model, off the UI thread.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Count every tool with both real tokenizers and answer with [`Msg::Counted`].
    CountTokens {
        /// The session generation to count.
        generation: u64,
    },
    /// Capture the servers of the config again, answering with [`Msg::Captured`] per server
    /// and [`Msg::Recaptured`] at the end.
    Recapture(RecaptureSource),
    /// Lint the current catalog and answer with [`Msg::Linted`] (the latest generation wins).
    Lint {
        /// The catalog generation to lint.
        generation: u64,
    },
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
}

/// Where a re-capture gets its servers and puts its files.
#[derive(Debug, Clone, PartialEq)]
pub struct RecaptureSource {
    /// The config (its mcp_servers, and the rules to rebuild the session).
    pub config: Config,
    /// The servers to capture.
    pub specs: Vec<ServerSpec>,
    /// The capture folder.
    pub out_dir: PathBuf,
    /// Seconds each server has to answer each request.
    pub timeout: Duration,
}

/// Progress of a running re-capture.
#[derive(Debug, Clone, PartialEq)]
pub struct RecaptureProgress {
    /// Servers asked for.
    pub total: usize,
    /// Finished servers: summary or error.
    pub done: Vec<(String, Result<String, String>)>,
}

/// State of the Lint pane.
#[derive(Debug, Clone, PartialEq)]
pub struct LintPane {
    /// Findings of the latest lint, most severe first.
    pub findings: Vec<Finding>,
    /// Catalog generation the findings belong to.
    pub linted: Option<u64>,
    /// Current catalog generation (bumped by every server toggle).
    pub generation: u64,
    /// Selected finding.
    pub selected: usize,
}

impl LintPane {
    /// Whether a newer lint is on its way.
    pub fn is_stale(&self) -> bool {
        self.linted != Some(self.generation)
    }
}

/// State of the Eval pane.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalPane {
    /// The queries file.
    pub set: QuerySet,
    /// Its evaluation in the current session at the current limit (refreshed after changes).
    pub evaluation: Evaluation,
    /// Selected query.
    pub selected: usize,
}

/// A scrollable text overlay: a tool's `tool_describe` payload or a `tool_search` payload.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailView {
    /// Title of the overlay.
    pub title: String,
    /// One line of costs by each method.
    pub summary: String,
    /// The payload, pretty-printed, one line each.
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
    /// A server's tools.
    ToolList(ToolListView),
    /// A payload; `back` is what Esc returns to.
    Detail(DetailView, Option<ToolListView>),
    /// Typing a context length.
    ContextPrompt(String),
}

/// The whole TUI state.
#[derive(Debug, Clone)]
pub struct App {
    /// The simulated session (engine state).
    pub session: Session,
    /// Where the inputs came from.
    pub source_label: String,
    /// Dollars per million input tokens.
    pub price_per_mtok: f64,
    /// Settings and context at start, to tell whether anything was tuned.
    pub baseline: (ToolSearchSettings, ContextLength),
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
    /// Bumped when the session is rebuilt from new captures.
    pub generation: u64,
    /// Where a re-capture would come from (a config file with mcp_servers).
    pub recapture: Option<RecaptureSource>,
    /// A running re-capture.
    pub capturing: Option<RecaptureProgress>,
    /// Set when the user quits.
    pub quit: bool,
}

/// Rows a page key moves.
pub const PAGE: usize = 10;
/// threshold_pct step of the coarse keys.
pub const THRESHOLD_STEP: f64 = 1.0;
/// threshold_pct step of the fine keys.
pub const THRESHOLD_FINE_STEP: f64 = 0.1;

impl App {
    /// A new app on a session (with a queries file for the Eval pane); start
    /// [`App::startup_effects`] next.
    pub fn new(
        session: Session,
        source_label: String,
        price_per_mtok: f64,
        queries: Option<QuerySet>,
    ) -> App {
        let limit = session.settings().search_default_limit as usize;
        let baseline = (*session.settings(), session.context().clone());
        let mut app = App {
            session,
            source_label,
            price_per_mtok,
            baseline,
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
            },
            lint: LintPane {
                findings: Vec::new(),
                linted: None,
                generation: 0,
                selected: 0,
            },
            eval: queries.map(|set| EvalPane {
                evaluation: Evaluation::default(),
                set,
                selected: 0,
            }),
            lower: Pane::Search,
            overlay: None,
            counting: Counting::Pending,
            status: None,
            generation: 0,
            recapture: None,
            capturing: None,
            quit: false,
        };
        app.refresh();
        app
    }

    /// The work to start with the app.
    pub fn startup_effects(&self) -> Vec<Effect> {
        vec![
            Effect::CountTokens {
                generation: self.generation,
            },
            Effect::Lint {
                generation: self.lint.generation,
            },
        ]
    }

    /// The key context of the current state.
    pub fn key_context(&self) -> KeyContext {
        match &self.overlay {
            Some(Overlay::Help(_)) => KeyContext::Help,
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
                let total = |i: usize| servers[i].tools.iter().map(|t| t.chars).sum::<u64>();
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
                self.counting = Counting::Done;
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
            Msg::Linted {
                generation,
                findings,
            } => {
                if generation == self.lint.generation {
                    self.lint.findings = findings;
                    self.lint.linted = Some(generation);
                    self.lint.selected = self
                        .lint
                        .selected
                        .min(self.lint.findings.len().saturating_sub(1));
                }
            }
            Msg::Key(event) if event.kind != KeyEventKind::Release => return self.on_key(event),
            Msg::Key(_) => {}
        }
        Vec::new()
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
                "re-capture needs a config file with mcp_servers (run schematax CONFIG)".into(),
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
    fn adopt_captures(&mut self, loaded: Result<LoadedCaptures, String>) -> Vec<Effect> {
        let progress = self.capturing.take();
        let failed: Vec<String> = progress
            .iter()
            .flat_map(|p| p.done.iter())
            .filter_map(|(server, result)| result.as_ref().err().map(|e| format!("{server}: {e}")))
            .collect();
        let (Some(source), Ok(loaded)) = (&self.recapture, loaded) else {
            self.status = Some("re-capture: the capture folder could not be read".into());
            return Vec::new();
        };
        let settings = *self.session.settings();
        let overrides = Overrides {
            profile: Some(self.session.profile()),
            context_source: Some(self.session.context().source.clone()),
            context_length: Some(self.session.context().tokens)
                .filter(|_| self.session.context().source == ContextSource::Flag),
            threshold_pct: Some(settings.threshold_pct),
            mode: Some(settings.enabled),
            scope: self.session.scope().clone(),
        };
        let off: Vec<String> = (0..self.session.servers().len())
            .filter(|&s| !self.session.is_connected(s))
            .map(|s| self.session.servers()[s].name.clone())
            .collect();
        let mut session = Session::new(&source.config, &loaded.captures, &overrides);
        for s in 0..session.servers().len() {
            if off.contains(&session.servers()[s].name) {
                session.set_connected(s, false);
            }
        }
        self.session = session;
        self.generation += 1;
        self.lint.generation += 1;
        self.counting = Counting::Pending;
        self.servers.selected = self
            .servers
            .selected
            .min(self.session.servers().len().saturating_sub(1));
        self.refresh();
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
        vec![
            Effect::CountTokens {
                generation: self.generation,
            },
            Effect::Lint {
                generation: self.lint.generation,
            },
        ]
    }

    /// Carries out one action; returns the work to start.
    pub fn apply(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Quit => self.quit = true,
            Action::Recapture => return self.start_recapture(),
            Action::ToggleHelp => self.overlay = Some(Overlay::Help(0)),
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
            }
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
            Action::Open => return self.open(),
            Action::Back => self.back(),
            Action::LimitUp => self.set_limit(self.search.limit + 1),
            Action::LimitDown => self.set_limit(self.search.limit.saturating_sub(1)),
            Action::ShowPayload => {
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
            Action::Submit => match self.overlay.take() {
                Some(Overlay::ContextPrompt(text)) => match crate::cli::parse_context(&text) {
                    Ok(tokens) => self.session.set_context_length(tokens, ContextSource::View),
                    Err(reason) => self.status = Some(format!("context length: {reason}")),
                },
                other => {
                    self.overlay = other;
                    self.search.typing = false;
                }
            },
        }
        Vec::new()
    }

    fn nudge_threshold(&mut self, step: f64) {
        let current = self.session.settings().threshold_pct;
        // Round to the step's grid so repeated fine steps land on exact tenths.
        let next = ((current + step) * 10.0).round() / 10.0;
        self.session.set_threshold_pct(next);
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
        self.session.set_context_length(next, ContextSource::View);
    }

    fn set_limit(&mut self, limit: usize) {
        let max = self.session.settings().max_search_limit as usize;
        self.search.limit = limit.clamp(1, max);
        self.refresh();
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
        self.session.set_connected(server, !connected);
        self.refresh();
        self.lint.generation += 1;
        vec![Effect::Lint {
            generation: self.lint.generation,
        }]
    }

    fn move_selection(&mut self, delta: isize) {
        let step = |value: usize, len: usize| -> usize {
            if len == 0 {
                0
            } else {
                (value as isize + delta).clamp(0, len as isize - 1) as usize
            }
        };
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
            Some(Overlay::ContextPrompt(_)) => {}
            None => match self.focus {
                Pane::Servers => {
                    self.servers.selected =
                        step(self.servers.selected, self.session.servers().len())
                }
                Pane::Search => {
                    self.search.selected = step(self.search.selected, self.search.result.hits.len())
                }
                Pane::Lint => {
                    self.lint.selected = step(self.lint.selected, self.lint.findings.len())
                }
                Pane::Eval => {
                    if let Some(eval) = &mut self.eval {
                        eval.selected = step(eval.selected, eval.evaluation.queries.len());
                    }
                }
            },
        }
    }

    fn open(&mut self) -> Vec<Effect> {
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
                        .and_then(|e| e.evaluation.queries.get(e.selected))
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
        Vec::new()
    }

    /// The detail of the selected finding's tool, with the finding and the tools involved.
    fn open_finding(&mut self) {
        let Some(finding) = self.lint.findings.get(self.lint.selected) else {
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

    /// The detail of one tool: its `tool_describe` payload and cost by each method.
    fn tool_detail(&self, place: ToolRef) -> DetailView {
        let entry = &self.session.servers()[place.server].tools[place.tool];
        let payload = match self.session.describe(&entry.name) {
            Ok(payload) | Err(payload) => payload,
        };
        let counted = match self.session.token_count(place.server, place.tool) {
            Some(c) => format!(
                "{} o200k_base, {} cl100k_base",
                thousands(c.o200k),
                thousands(c.cl100k)
            ),
            None => "o200k/cl100k counting...".to_string(),
        };
        let summary = format!(
            "{} chars, {} tokens by chars/4, {counted}",
            thousands(entry.chars),
            thousands(estimate_tokens(entry.chars))
        );
        let mut title = format!("tool_describe {}", entry.name);
        if !self.session.is_connected(place.server) {
            title.push_str(" (server off)");
        }
        DetailView::new(title, summary, &payload)
    }

    /// Re-runs the current query (after the query changed).
    pub fn refresh_search(&mut self) {
        self.search.result = self.session.search(&self.search.query, self.search.limit);
        self.search.selected = self
            .search
            .selected
            .min(self.search.result.hits.len().saturating_sub(1));
    }

    /// Re-runs the query and the evaluation (after the catalog or the limit changed).
    pub fn refresh(&mut self) {
        self.refresh_search();
        if let Some(eval) = &mut self.eval {
            eval.evaluation = evaluate(&self.session, &eval.set, self.search.limit, false);
            eval.selected = eval
                .selected
                .min(eval.evaluation.queries.len().saturating_sub(1));
        }
    }

    /// Whether the tool_search settings or context differ from those at start.
    pub fn is_tuned(&self) -> bool {
        let settings = ToolSearchSettings {
            search_default_limit: self.search.limit as u32,
            ..*self.session.settings()
        };
        settings != self.baseline.0 || self.session.context().tokens != self.baseline.1.tokens
    }

    /// The YAML to paste into hermes.yaml for the tuned values.
    pub fn tuned_yaml(&self) -> String {
        let settings = self.session.settings();
        let mut yaml = String::new();
        if self.session.context().tokens != self.baseline.1.tokens {
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
        yaml
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::inputs::Inputs;
    use crate::engine::session::Overrides;

    fn sample_app() -> App {
        let inputs = Inputs::sample();
        let session = Session::new(&inputs.config, &inputs.captures, &Overrides::default());
        App::new(session, inputs.config_label, 3.0, None)
    }

    fn press(app: &mut App, code: KeyCode) {
        app.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
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
    }

    #[test]
    fn context_presets_cycle_and_prompt_parses() {
        let mut app = sample_app();
        press(&mut app, KeyCode::Char('c'));
        assert_eq!(app.session.context().tokens, 256_000);
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
        assert_eq!(
            app.startup_effects(),
            vec![
                Effect::CountTokens { generation: 0 },
                Effect::Lint { generation: 0 }
            ]
        );
        app.update(Msg::Counted {
            generation: 0,
            result: Err(TokenizerError {
                encoding: "o200k_base",
                reason: "boom".into(),
            }),
        });
        assert_eq!(
            app.counting,
            Counting::Failed("cannot load o200k_base: boom".into())
        );
        assert!(app.status.as_deref().unwrap().contains("boom"));
    }
}
