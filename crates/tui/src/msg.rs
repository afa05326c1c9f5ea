//! What changes the app ([`Msg`]: keys, pastes, answers of background work, signals) and the
//! work it asks for ([`Effect`], carried out by [`super::worker`]).

use ratatui::crossterm::event::KeyEvent;
use std::sync::Arc;

use schematax_capture::signals::Signal;
use schematax_capture::CaptureError;
use schematax_engine::analyses::eval::{Evaluation, QuerySet};
use schematax_engine::analyses::lint::Findings;
use schematax_engine::inputs::capture_file::LoadedCaptures;
use schematax_engine::inputs::error::InputError;
use schematax_engine::inputs::Inputs;
use schematax_engine::replay::catalog::{Server, ToolRef};
use schematax_engine::replay::session::{BuiltCatalog, CatalogBuild, Overrides, Session};
use schematax_engine::tokenizers::{Tokenizer, TokenizerError};
use schematax_releases::{AgentRelease, Profile};

use crate::state::{AgentBuilt, AgentInputs, RecaptureSource};
use crate::worker::WorkerFailure;

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
    /// The turn of the agent chosen was built in the background.
    AgentBuilt {
        /// The agent-turn generation it was built for.
        generation: u64,
        /// The turn, its figures and its search.
        built: Arc<AgentBuilt>,
    },
    /// A background job panicked: the view ends, and the command fails with this one line.
    WorkerFailed(WorkerFailure),
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
    /// Build the turn of another agent over the servers on and answer with
    /// [`Msg::AgentBuilt`] (the latest generation wins).
    BuildAgentTurn {
        /// The agent-turn generation.
        generation: u64,
        /// The agent's rules.
        release: &'static AgentRelease,
        /// What to build it from.
        inputs: Box<AgentInputs>,
    },
    /// Give the terminal back to the shell, stop until continued (`fg`), then take the
    /// terminal again and redraw it whole. The event loop does this itself: it owns the
    /// terminal.
    Suspend,
}
