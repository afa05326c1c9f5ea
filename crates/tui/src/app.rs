//! The TUI model: [`App`], its `update` (a message in, the work to start out) and `apply` (an
//! action of the key map). The per-pane state is in [`super::state`], the messages and effects
//! in [`super::msg`], the overlays' contents in `tui::detail`, the tuned YAML in
//! `tui::tuned`, and the work itself in [`super::worker`]. Rendering reads this state and
//! never changes it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use schematax_report::words::Worded;
use std::sync::Arc;

use crate::keys::{action_for, Action, KeyContext};
use crate::msg::{Effect, Msg, SessionRecipe};
use crate::state::{
    ChosenAgent, Counting, Derived, EvalPane, Job, LintPane, Overlay, Pane, RecaptureProgress,
    RecaptureSource, SearchPane, ServersPane, SortOrder, ToolListView,
};
use crate::worker::{WorkerFailure, SERVERS_COUNTED_FIRST};
use schematax_capture::signals::Signal;
use schematax_engine::agents::settings::AgentSettings;
use schematax_engine::analyses::eval::QuerySet;
use schematax_engine::inputs::capture_file::LoadedCaptures;
use schematax_engine::inputs::error::InputError;
use schematax_engine::inputs::{InputWarning, Inputs};
use schematax_engine::nouns::config::{Mode, ToolSearchSettings};
use schematax_engine::replay::activation::{
    ContextLength, ContextSource, Traffic, CONTEXT_PRESETS,
};
use schematax_engine::replay::catalog::ToolRef;
use schematax_engine::replay::listing::ListingForm;
use schematax_engine::replay::search::SearchResult;
use schematax_engine::replay::session::{Lookup, Overrides, Session};
use schematax_releases::{GateRule, Profile};
use schematax_report::{context_label, pct_label, thousands};

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
    /// How the switch under way went round the end of the releases ([`ROUND_TO_OLDEST`],
    /// [`ROUND_TO_NEWEST`]), said in the status line when it lands.
    pub switching_round: Option<&'static str>,
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
    /// The background job whose failure ended the view, if one did.
    pub failed: Option<WorkerFailure>,
    /// The agent modelled beside Hermes's session, when one is chosen (`a`, `--agent`).
    pub agent: Option<ChosenAgent>,
    /// What another agent reads besides the catalog (the context window follows the view's).
    pub agent_settings: AgentSettings,
    /// Bumped by every build of an agent's turn asked for.
    pub agent_generation: u64,
}

/// The largest catalog rebuilt on the UI thread when a server is switched: about 5 ms of
/// index build on the 2-core machine the budgets are measured on.
pub const REBUILD_IN_PLACE_TOOLS: usize = 5_000;

/// Rows a page key moves.
pub const PAGE: usize = 10;
/// Longest query the search line keeps (a paste beyond it is cut, with a note): ranking a
/// query costs time with its length, and no tool_search query is longer.
pub const MAX_QUERY_CHARS: usize = 1_000;
/// threshold_pct steps of the coarse keys, by where the value is: 1 from 1% up, 0.1 from
/// 0.1%, 0.01 below. From Hermes 0.20 threshold_pct sizes the listing, whose forms change at
/// fractions of a percent; steps of a point would jump over them. The fine keys step a tenth
/// as far (never below 0.01, the finest threshold_pct a tuned YAML writes).
pub const THRESHOLD_STEPS: [(f64, f64); 3] = [(1.0, 1.0), (0.1, 0.1), (0.0, 0.01)];
/// The finest threshold_pct step.
pub const THRESHOLD_FINEST_STEP: f64 = 0.01;
/// listing_max_tokens step.
pub const LISTING_BUDGET_STEP: u32 = 500;
/// Near misses the Search pane explains.
pub const NEAR_MISSES: usize = 3;
/// What the status line says when `P` goes past the newest release.
pub const ROUND_TO_OLDEST: &str = "past the newest release, round to the oldest";
/// What the status line says when `P` or `O` is pressed while another agent is modelled.
pub const RELEASES_ARE_HERMES: &str =
    "P and O step through Hermes's releases: press a or A to come back to Hermes first";
/// What the status line says when `p` is pressed while another agent is modelled.
pub const PAYLOAD_IS_HERMES: &str =
    "p shows Hermes's tool_search payload; L shows what this agent sends, Enter a hit's definition";
/// What the status line says when `O` goes back past the oldest release.
pub const ROUND_TO_NEWEST: &str = "back past the oldest release, round to the newest";

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
            switching_round: None,
            rebuild: Job {
                generation: 0,
                done: Some(0),
            },
            rebuild_on_worker_above: REBUILD_IN_PLACE_TOOLS,
            recapture: None,
            capturing: None,
            quit: false,
            ended_by: None,
            failed: None,
            agent: None,
            agent_settings: AgentSettings::default(),
            agent_generation: 0,
        };
        if !app.derived.warnings.is_empty() {
            app.status = Some(app.warning_status());
        }
        app
    }

    /// The status line that points at the warnings.
    fn warning_status(&self) -> String {
        let n = self.derived.warnings.len();
        let first = schematax_engine::text::sanitize(&self.derived.warnings[0]).into_owned();
        format!(
            "{n} warning{}: {first}{} (w: all)",
            if n == 1 { "" } else { "s" },
            if n > 1 { " ..." } else { "" }
        )
    }

    /// The work to start with the app: token counts, lint and evaluation.
    pub fn startup_effects(&mut self) -> Vec<Effect> {
        let mut effects = self.session_effects();
        effects.extend(self.agent_effects());
        effects
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

    /// Applies a message; returns the work to start (the chosen agent's turn again, too, when
    /// the message changed what it is built from).
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut effects = self.update_model(msg);
        effects.extend(self.agent_effects());
        effects
    }

    fn update_model(&mut self, msg: Msg) -> Vec<Effect> {
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
            // What the failed job was for will never come: the view ends rather than wait
            // for it (a lint pane "linting..." for ever, a switch that never lands).
            Msg::WorkerFailed(failure) => {
                self.quit = true;
                self.failed = Some(failure);
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
                    let mut session = session;
                    // A tuning made while the session was built applies to it too.
                    session.retune(&self.overrides);
                    self.adopt_session(*session);
                    let round = self.switching_round.take();
                    self.status = Some(format!(
                        "{}{profile} (Hermes {}): {}",
                        round.map(|r| format!("{r}: ")).unwrap_or_default(),
                        profile.releases_label(),
                        profile.spec().changes
                    ));
                    return self.session_effects();
                }
            }
            Msg::AgentBuilt { generation, built } => self.adopt_agent_turn(generation, built),
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
                schematax_engine::text::thousands(MAX_QUERY_CHARS as u64)
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
                        schematax_engine::text::thousands(MAX_QUERY_CHARS as u64)
                    ));
                    return;
                }
                text.push(c);
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
        inputs.warnings = loaded
            .warnings
            .into_iter()
            .map(InputWarning::Load)
            .collect();
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
            Action::ShowListing if self.agent.is_some() => self.show_agent_texts(),
            Action::ShowListing => self.show_listing(),
            Action::NextRelease | Action::PreviousRelease if self.agent.is_some() => {
                self.status = Some(RELEASES_ARE_HERMES.to_string());
            }
            Action::NextRelease => return self.switch_profile(true),
            Action::PreviousRelease => return self.switch_profile(false),
            Action::NextAgent => return self.switch_agent(true),
            Action::PreviousAgent => return self.switch_agent(false),
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
            Action::ThresholdUp => self.nudge_threshold(true, false),
            Action::ThresholdDown => self.nudge_threshold(false, false),
            Action::ThresholdUpFine => self.nudge_threshold(true, true),
            Action::ThresholdDownFine => self.nudge_threshold(false, true),
            Action::ContextNext => self.step_context(true),
            Action::ContextPrev => self.step_context(false),
            Action::ContextEntry => self.overlay = Some(Overlay::ContextPrompt(String::new())),
            Action::CycleMode => {
                let mode = self.session.settings().enabled.cycled();
                self.tune(|tuning| tuning.mode = Some(mode));
                self.status = Some(mode_meaning(mode, self.session.profile()));
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
            Action::ShowPayload if self.agent.is_some() => {
                self.status = Some(PAYLOAD_IS_HERMES.to_string());
            }
            Action::ShowPayload => self.show_payload(),
            Action::Submit => match self.overlay.take() {
                Some(Overlay::ContextPrompt(text)) => {
                    match schematax_engine::replay::activation::parse_context_length(&text) {
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
    /// step through the releases, and round again (the status line says when).
    fn switch_profile(&mut self, forward: bool) -> Vec<Effect> {
        if let Some(profile) = self.switching {
            self.status = Some(format!("switching to {profile}..."));
            return Vec::new();
        }
        let current = self.session.profile();
        let (next, round_to, round) = if forward {
            (
                Profile::released().find(|p| *p > current),
                Profile::released().next(),
                ROUND_TO_OLDEST,
            )
        } else {
            (
                Profile::released().rev().find(|p| *p < current),
                Profile::released().next_back(),
                ROUND_TO_NEWEST,
            )
        };
        let (profile, round) = match next {
            Some(profile) => (profile, None),
            None => (round_to.unwrap_or(current), Some(round)),
        };
        self.switching = Some(profile);
        self.switching_round = round;
        self.status = Some(match round {
            Some(round) => format!("{round}: switching to {profile}..."),
            None => format!("switching to {profile}..."),
        });
        vec![Effect::BuildSession {
            generation: self.generation + 1,
            recipe: self.recipe(profile),
        }]
    }

    /// Changes the tuning (the one place it is kept) and applies it to the session.
    fn tune(&mut self, change: impl FnOnce(&mut Overrides)) {
        change(&mut self.overrides);
        self.session.retune(&self.overrides);
        self.refresh_derived();
    }

    /// threshold_pct one step up or down ([`next_threshold`]); from 0.20, the status line says
    /// which listing that gives and where the form changes on either side.
    fn nudge_threshold(&mut self, up: bool, fine: bool) {
        let next = next_threshold(self.session.settings().threshold_pct, up, fine);
        self.tune(|tuning| tuning.threshold_pct = Some(next));
        self.status = self.listing_status();
    }

    /// The listing threshold_pct gives at the current context, and the threshold_pct where the
    /// form changes on either side; None without a listing (before 0.20, inactive, or off).
    fn listing_status(&self) -> Option<String> {
        let activation = &self.derived.activation;
        let form = activation.listing.as_ref()?.listing.form;
        let settings = self.session.settings();
        if settings.listing == Mode::Off {
            return None;
        }
        let pct = activation.threshold_pct;
        let context = activation.context.tokens;
        if context == 0 {
            return Some(format!(
                "{}: with an unknown context length the budget is at most {} tokens, whatever threshold_pct",
                listing_words(form),
                thousands(schematax_engine::replay::listing::UNKNOWN_CONTEXT_LISTING_TOKENS)
            ));
        }
        let points = schematax_engine::replay::listing::form_thresholds(
            &self.derived.form_budgets,
            settings.listing_max_tokens,
            context,
        );
        let mut text = format!(
            "threshold {}% of {}: {}",
            pct_label(pct),
            context_label(context),
            listing_words(form)
        );
        let here = points.iter().rposition(|(_, at)| *at <= pct);
        let below = here.filter(|&here| here > 0).map(|here| {
            let (below, at) = (points[here - 1].0, points[here].1);
            format!("{} below {}%", form_word(below), pct_label(at))
        });
        let above = points
            .get(here.map_or(0, |here| here + 1))
            .map(|(next, at)| format!("{} from {}%", form_word(*next), pct_label(*at)));
        let sides: Vec<String> = below.into_iter().chain(above).collect();
        if !sides.is_empty() {
            text.push_str("; ");
            text.push_str(&sides.join(", "));
        }
        Some(text)
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
        self.tune(|tuning| tuning.listing = Some(listing));
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
        self.tune(|tuning| tuning.listing_max_tokens = Some(next));
    }

    fn set_context(&mut self, tokens: u64) {
        self.tune(|tuning| {
            tuning.context_length = Some(tokens);
            tuning.context_source = Some(ContextSource::View);
        });
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
                *scroll = step(*scroll, crate::keys::help_lines().len());
            }
            Some(Overlay::Warnings(scroll)) => *scroll = step(*scroll, warnings),
            Some(Overlay::ContextPrompt(_)) => {}
            None => match self.focus {
                Pane::Servers => {
                    self.servers.selected =
                        step(self.servers.selected, self.session.servers().len());
                }
                Pane::Search => {
                    self.search.selected = step(self.search.selected, self.search_hits());
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
                Pane::Search if self.agent.is_some() => self.show_agent_hit(),
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
            .and_then(|f| f.details(self.lint.selected))
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
            finding.rule.severity,
            finding.rule.id,
            Worded(&finding.problem)
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
        self.refresh_agent_search();
    }

    /// Recomputes what the panes show (after the catalog, settings or counts changed).
    pub fn refresh_derived(&mut self) {
        self.derived = Derived::of(&self.session, &self.inputs);
    }

    /// The context length in force.
    pub fn context(&self) -> &ContextLength {
        self.session.context()
    }
}

/// "full listing", "names listing", ..., "no listing".
fn listing_words(form: ListingForm) -> String {
    match form {
        ListingForm::None => "no listing".to_string(),
        form => format!("{form} listing"),
    }
}

/// "full", "names", ..., "no listing".
fn form_word(form: ListingForm) -> String {
    match form {
        ListingForm::None => "no listing".to_string(),
        form => form.to_string(),
    }
}

/// What `enabled: mode` means under `profile`, for the status line: before 0.20 auto is the
/// threshold gate; from 0.20 it is active whenever a tool can be deferred, and threshold_pct
/// sizes the listing instead.
pub fn mode_meaning(mode: Mode, profile: Profile) -> String {
    let release = format!("Hermes {}", profile.releases_label());
    let meaning = match (mode, profile.spec().gate) {
        (Mode::Off, _) => "never active: every tool is sent as it is",
        (Mode::On, GateRule::Threshold) => "always active when a tool can be deferred",
        (Mode::Auto, GateRule::Threshold) => {
            "active when the deferrable schemas reach threshold_pct of the context"
        }
        (Mode::On | Mode::Auto, GateRule::AnyDeferrable) => {
            "active whenever a tool can be deferred (auto and on alike); threshold_pct sizes the listing"
        }
    };
    format!("enabled: {mode} under {release}: {meaning}")
}

/// threshold_pct one step from `pct`, up or down ([`THRESHOLD_STEPS`]; a tenth as far when
/// `fine`), on the grid of hundredths and within [0, 100]. A step down stops at the start of
/// the range it leaves: from 1.5, `-` goes to 1, then to 0.9.
pub fn next_threshold(pct: f64, up: bool, fine: bool) -> f64 {
    let (from, coarse) = THRESHOLD_STEPS
        .iter()
        .copied()
        .find(|&(from, _)| if up { pct >= from } else { pct > from })
        .unwrap_or(THRESHOLD_STEPS[THRESHOLD_STEPS.len() - 1]);
    let step = if fine {
        (coarse / 10.0).max(THRESHOLD_FINEST_STEP)
    } else {
        coarse
    };
    let next = if up {
        pct + step
    } else {
        (pct - step).max(from)
    };
    ToolSearchSettings::clamp_threshold_pct((next * 100.0).round() / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schematax_engine::tokenizers::TokenizerError;

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
    fn threshold_steps_shrink_with_the_value() {
        let down = |pct| next_threshold(pct, false, false);
        let up = |pct| next_threshold(pct, true, false);
        let mut walk = vec![5.0];
        while walk[walk.len() - 1] > 0.0 {
            walk.push(down(walk[walk.len() - 1]));
        }
        assert_eq!(
            walk,
            [
                5.0, 4.0, 3.0, 2.0, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.09, 0.08,
                0.07, 0.06, 0.05, 0.04, 0.03, 0.02, 0.01, 0.0
            ]
        );
        let mut back = vec![0.0];
        while back[back.len() - 1] < 5.0 {
            back.push(up(back[back.len() - 1]));
        }
        walk.reverse();
        assert_eq!(back, walk, "up retraces the steps down");
        // A step down stops where its range starts; the fine keys step a tenth, 0.01 at least.
        assert_eq!(down(1.5), 1.0);
        assert_eq!(down(0.15), 0.1);
        assert_eq!(next_threshold(1.0, false, true), 0.99);
        assert_eq!(next_threshold(0.05, true, true), 0.06);
        assert_eq!(next_threshold(10.0, true, true), 10.1);
        assert_eq!(up(100.0), 100.0);
        assert_eq!(down(0.0), 0.0);
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
            "tools:\n  tool_search:\n    enabled: on\n    threshold_pct: 11\n",
            "only what changed"
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
            result: Err(TokenizerError(
                schematax_engine::inputs::error::InputError::new(
                    std::path::Path::new("tokenizer.json"),
                    "boom",
                ),
            )),
        });
        assert_eq!(
            app.counting,
            Counting::Failed("tokenizer.json: boom".into())
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
        assert!(
            !app.tuned_yaml().contains("listing_max_tokens"),
            "the listing budget was not changed"
        );
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
