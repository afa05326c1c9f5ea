//! The agent switch: which agent the view models (Hermes, or a row of the agents table), the
//! turn of another agent built on a worker whenever its inputs change (the servers on, the
//! context, the captures), and its own search of the query.

use std::sync::Arc;

use schematax_engine::agents::settings::DEFAULT_CONTEXT_WINDOW;
use schematax_releases::{Agent, AgentRelease, AGENTS};
use schematax_report::thousands;

use crate::app::App;
use crate::msg::Effect;
use crate::state::{AgentBuilt, AgentInputs, ChosenAgent, DetailView, Job, Overlay};

impl App {
    /// Models `chosen` from now on (None: Hermes). Its turn is built by the effects of the
    /// next update (or [`App::startup_effects`]).
    pub fn choose_agent(&mut self, chosen: Option<(&'static AgentRelease, &'static Agent)>) {
        self.agent = chosen.map(|(release, agent)| ChosenAgent {
            agent,
            release,
            built: None,
            requested: None,
            job: Job::new(),
            search: None,
        });
    }

    /// The next (or previous) agent of the table, Hermes among them; returns the work to
    /// start.
    pub(super) fn switch_agent(&mut self, forward: bool) -> Vec<Effect> {
        let at = AGENTS
            .iter()
            .position(|row| match &self.agent {
                Some(chosen) => std::ptr::eq(row, chosen.agent),
                None => row.releases.is_empty(),
            })
            .unwrap_or(0);
        let next = if forward {
            (at + 1) % AGENTS.len()
        } else {
            (at + AGENTS.len() - 1) % AGENTS.len()
        };
        let row = &AGENTS[next];
        // Hermes is the row without releases of its own: its releases are the profiles.
        match row.releases.last() {
            Some(release) => {
                self.choose_agent(Some((release, row)));
                self.status = Some(format!(
                    "{} ({}@{}): building its turn...",
                    row.title, row.id, release.version
                ));
            }
            None => self.choose_agent(None),
        }
        self.agent_effects()
    }

    /// What the chosen agent's turn is built from now.
    pub fn agent_inputs(&self) -> AgentInputs {
        let context = self.session.context().tokens;
        let mut settings = self.agent_settings.clone();
        settings.context_window = if context > 0 {
            context
        } else {
            DEFAULT_CONTEXT_WINDOW
        };
        AgentInputs {
            inputs: Arc::clone(&self.inputs),
            disconnected: (0..self.session.servers().len())
                .filter(|&s| !self.session.is_connected(s))
                .map(|s| self.session.servers()[s].name.clone())
                .collect(),
            settings,
            tokenizer: self.session.tokenizer().tokenizer.clone(),
        }
    }

    /// The build of the chosen agent's turn, when none was asked for its current inputs.
    pub(super) fn agent_effects(&mut self) -> Vec<Effect> {
        if self.agent.is_none() {
            return Vec::new();
        }
        let inputs = self.agent_inputs();
        let Some(chosen) = self.agent.as_mut() else {
            return Vec::new();
        };
        if chosen
            .requested
            .as_ref()
            .is_some_and(|asked| asked.same_as(&inputs))
        {
            return Vec::new();
        }
        chosen.requested = Some(inputs.clone());
        self.agent_generation += 1;
        chosen.job.generation = self.agent_generation;
        vec![Effect::BuildAgentTurn {
            generation: self.agent_generation,
            release: chosen.release,
            inputs: Box::new(inputs),
        }]
    }

    /// Installs a turn built for the agent chosen, when it is the latest asked for.
    pub(super) fn adopt_agent_turn(&mut self, generation: u64, built: Arc<AgentBuilt>) {
        let Some(chosen) = self.agent.as_mut() else {
            return;
        };
        if generation != chosen.job.generation || !std::ptr::eq(built.turn.release, chosen.release)
        {
            return;
        }
        chosen.built = Some(built);
        chosen.job.done = Some(generation);
        if self
            .status
            .as_deref()
            .is_some_and(|s| s.ends_with("building its turn..."))
        {
            self.status = None;
        }
        self.refresh_agent_search();
    }

    /// The query in the chosen agent's own search, when it can be replayed.
    pub(super) fn refresh_agent_search(&mut self) {
        let query = self.search.query.trim().to_string();
        let Some(chosen) = self.agent.as_mut() else {
            return;
        };
        chosen.search = match chosen.built.as_ref().map(|b| &b.index) {
            Some(Ok(index)) if !query.is_empty() => Some(index.search(
                &self.search.query,
                chosen.release.rules.loading.default_results,
            )),
            _ => None,
        };
        if let Some(search) = &chosen.search {
            self.search.selected = self
                .search
                .selected
                .min(search.hits.len().saturating_sub(1));
        }
    }

    /// The hits the Search pane lists: the chosen agent's, or Hermes's.
    pub(super) fn search_hits(&self) -> usize {
        match &self.agent {
            Some(chosen) => chosen.search.as_ref().map_or(0, |s| s.hits.len()),
            None => self.search.result.hits.len(),
        }
    }

    /// What the agent sends besides full definitions: its listing, fixed tools and the
    /// servers' instructions, as sent.
    pub(super) fn show_agent_texts(&mut self) {
        let Some((chosen, built)) = self.chosen_turn() else {
            return;
        };
        let turn = &built.turn;
        let mut lines = Vec::new();
        for (heading, part) in [
            ("The listing of deferred tools", &turn.listing),
            ("Its search tool and fixed texts", &turn.fixed_tools),
            ("The servers' instructions", &turn.instructions),
        ] {
            lines.push(format!("{heading}:"));
            if part.texts.is_empty() {
                lines.push("  (none this turn)".to_string());
            }
            for text in &part.texts {
                lines.extend(text.lines().map(str::to_string));
            }
            lines.push(String::new());
        }
        let detail = DetailView {
            title: format!("What {} sends ({})", chosen.agent.title, chosen.label()),
            summary: format!(
                "{} of {} tools deferred; listing {} chars, fixed texts {} chars",
                thousands(turn.deferred() as u64),
                thousands(turn.tools.len() as u64),
                thousands(turn.listing.chars),
                thousands(turn.fixed_tools.chars)
            ),
            lines,
            scroll: 0,
        };
        self.overlay = Some(Overlay::Detail(detail, None));
    }

    /// The selected hit's definition, as the agent sends it whole.
    pub(super) fn show_agent_hit(&mut self) {
        let Some((chosen, built)) = self.chosen_turn() else {
            return;
        };
        let Some(hit) = chosen
            .search
            .as_ref()
            .and_then(|s| s.hits.get(self.search.selected))
        else {
            return;
        };
        let Some(tool) = built.turn.tools.iter().find(|t| t.name == hit.name) else {
            self.status = Some(format!(
                "{} is one of {}'s own tools",
                hit.name, chosen.agent.title
            ));
            return;
        };
        let payload: serde_json::Value = serde_json::from_str(&tool.definition).unwrap_or_default();
        let summary = format!(
            "{} chars sent whole; one search loads {} chars of it",
            thousands(tool.definition.chars().count() as u64),
            thousands(tool.loaded.chars().count() as u64)
        );
        let title = format!("{} as {} sends it", tool.name, chosen.agent.title);
        self.overlay = Some(Overlay::Detail(
            DetailView::new(title, summary, &payload),
            None,
        ));
    }

    /// The chosen agent and its built turn, cloned out of the app.
    fn chosen_turn(&self) -> Option<(ChosenAgent, Arc<AgentBuilt>)> {
        let chosen = self.agent.clone()?;
        let built = chosen.built.clone()?;
        Some((chosen, built))
    }
}
