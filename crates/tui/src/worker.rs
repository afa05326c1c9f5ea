//! The view's background work: one worker thread per kind of job, where the latest request
//! wins before it starts. A lint asked for while another lint runs waits; a third request
//! replaces the second, which is dropped without running. So a burst of server switches runs
//! at most two lints, not one per switch, and nothing superseded runs to the end first.
//!
//! A job that panics (a bug, or an input the engine should have refused) does not take its
//! worker down silently: the panic is caught and answered with [`Msg::WorkerFailed`], which
//! ends the view with one line and a non-zero exit.

use std::collections::HashMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use crate::msg::{Effect, Msg};
use crate::state::{AgentBuilt, AgentInputs};

use schematax_capture::CaptureError;
use schematax_engine::agents::search::AgentIndex;
use schematax_engine::agents::turn::AgentTurn;
use schematax_engine::analyses::eval::evaluate;
use schematax_engine::inputs::error::InputError;
use schematax_engine::nouns::tools::ServerCapture;
use schematax_engine::replay::catalog::{Server, ToolRef};
use schematax_engine::tokenizers::{LoadedTokenizer, Tokenizer, TokenizerError};
use schematax_releases::AgentRelease;
use schematax_report::agents::AgentColumn;

/// The kinds of background work, one worker each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JobKind {
    /// Real token counts.
    Count,
    /// The lint.
    Lint,
    /// The evaluation of a queries file.
    Evaluate,
    /// Re-indexing the catalog.
    Rebuild,
    /// The session of another release.
    BuildSession,
    /// Capturing the servers again.
    Recapture,
    /// The turn of another agent.
    AgentTurn,
}

impl JobKind {
    /// The worker an effect runs on; None for the one the event loop carries out itself.
    pub fn of(effect: &Effect) -> Option<JobKind> {
        Some(match effect {
            Effect::CountTokens { .. } => JobKind::Count,
            Effect::Lint { .. } => JobKind::Lint,
            Effect::Evaluate { .. } => JobKind::Evaluate,
            Effect::Rebuild { .. } => JobKind::Rebuild,
            Effect::BuildSession { .. } => JobKind::BuildSession,
            Effect::Recapture(_) => JobKind::Recapture,
            Effect::BuildAgentTurn { .. } => JobKind::AgentTurn,
            Effect::Suspend => return None,
        })
    }
}

impl fmt::Display for JobKind {
    /// What the job does, as a noun: "the view's {kind} failed".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JobKind::Count => "token count",
            JobKind::Lint => "lint",
            JobKind::Evaluate => "evaluation",
            JobKind::Rebuild => "re-indexing",
            JobKind::BuildSession => "release switch",
            JobKind::Recapture => "re-capture",
            JobKind::AgentTurn => "agent switch",
        })
    }
}

/// A background job that panicked: which kind, and what the panic said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the view's {job} failed: {message}; the view was closed")]
pub struct WorkerFailure {
    /// The kind of job.
    pub job: JobKind,
    /// The panic's message, on one line.
    pub message: String,
}

/// Longest panic message a [`WorkerFailure`] keeps, in characters.
const MAX_FAILURE_CHARS: usize = 300;

impl WorkerFailure {
    /// The failure of a `job` that panicked with `payload`.
    fn of_panic(job: JobKind, payload: &(dyn std::any::Any + Send)) -> WorkerFailure {
        let text = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic without a message");
        let line = schematax_engine::text::sanitize(text);
        let mut message: String = line.chars().take(MAX_FAILURE_CHARS).collect();
        if message.len() < line.len() {
            message.push('…');
        }
        WorkerFailure { job, message }
    }
}

/// How a worker carries out an effect: [`Effect::run`] in the view; another function in a test
/// that needs a job to fail.
pub type Runner = fn(Effect, &(dyn Fn(Msg) + Sync)) -> Option<Msg>;

/// The job waiting for a worker, and whether the worker should stop.
struct Mailbox<J> {
    next: Option<J>,
    closed: bool,
}

/// The state a worker and its submitters share.
struct Shared<J> {
    mailbox: Mutex<Mailbox<J>>,
    wake: Condvar,
}

/// One thread that runs jobs one at a time, always the latest one submitted.
pub struct Worker<J> {
    shared: Arc<Shared<J>>,
}

impl<J: Send + 'static> Worker<J> {
    /// Starts the thread; it runs `run` on each job it takes.
    pub fn start(run: impl Fn(J) + Send + 'static) -> Worker<J> {
        let shared = Arc::new(Shared {
            mailbox: Mutex::new(Mailbox {
                next: None,
                closed: false,
            }),
            wake: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        std::thread::spawn(move || {
            while let Some(job) = theirs.take() {
                run(job);
            }
        });
        Worker { shared }
    }

    /// Gives the worker `job`, in place of one that has not started yet (true when one was
    /// dropped so).
    pub fn submit(&self, job: J) -> bool {
        let mut mailbox = self
            .shared
            .mailbox
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let replaced = mailbox.next.replace(job).is_some();
        self.shared.wake.notify_one();
        replaced
    }
}

impl<J> Shared<J> {
    /// Waits for the next job; None once the worker is closed.
    fn take(&self) -> Option<J> {
        let mut mailbox = self.mailbox.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(job) = mailbox.next.take() {
                return Some(job);
            }
            if mailbox.closed {
                return None;
            }
            mailbox = self
                .wake
                .wait(mailbox)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl<J> Drop for Worker<J> {
    /// Lets the thread end after the job it runs (a job waiting is dropped).
    fn drop(&mut self) {
        let mut mailbox = self
            .shared
            .mailbox
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        mailbox.closed = true;
        mailbox.next = None;
        self.shared.wake.notify_one();
    }
}

/// The view's workers, started as each kind of job is first asked for; their answers go to
/// the event loop's channel.
pub struct Workers {
    sender: Sender<Msg>,
    runner: Runner,
    by_kind: HashMap<JobKind, Worker<Effect>>,
}

impl Workers {
    /// No workers yet; answers will go to `sender`.
    pub fn new(sender: Sender<Msg>) -> Workers {
        Workers::with_runner(sender, Effect::run)
    }

    /// Workers that carry out each effect with `runner` (a panic in it is caught as in the
    /// view: answered with [`Msg::WorkerFailed`]).
    pub fn with_runner(sender: Sender<Msg>, runner: Runner) -> Workers {
        Workers {
            sender,
            runner,
            by_kind: HashMap::new(),
        }
    }

    /// Runs `effect` on the worker of its kind (the latest of a kind wins before it starts).
    /// An effect of no kind (a suspension) is not for a worker and is dropped here.
    pub fn submit(&mut self, effect: Effect) {
        let Some(kind) = JobKind::of(&effect) else {
            return;
        };
        let (sender, runner) = (&self.sender, self.runner);
        self.by_kind
            .entry(kind)
            .or_insert_with(|| {
                let sender = sender.clone();
                Worker::start(move |effect: Effect| {
                    let progress = |msg: Msg| {
                        let _ = sender.send(msg);
                    };
                    // The effect is consumed by the job: nothing of it is seen after a panic.
                    let answer = catch_unwind(AssertUnwindSafe(|| runner(effect, &progress)))
                        .unwrap_or_else(|payload| {
                            Some(Msg::WorkerFailed(WorkerFailure::of_panic(kind, &*payload)))
                        });
                    if let Some(msg) = answer {
                        let _ = sender.send(msg);
                    }
                })
            })
            .submit(effect);
    }
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
                findings: Box::new(schematax_engine::analyses::lint::lint(&session)),
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
                    |server: &str, result: &Result<schematax_capture::Saved, CaptureError>| {
                        progress(Msg::Captured {
                            server: server.to_string(),
                            result: result
                                .as_ref()
                                .map(schematax_capture::Saved::summary)
                                .map_err(Clone::clone),
                        });
                    };
                let created = std::fs::create_dir_all(&source.out_dir).map_err(|e| {
                    InputError::new(&source.out_dir, format!("cannot create the folder: {e}"))
                });
                if let Err(e) = created {
                    return Some(Msg::Recaptured(Err(e)));
                }
                schematax_capture::capture_all(
                    &source.specs,
                    source.timeout,
                    &source.out_dir,
                    &on_done,
                );
                Some(Msg::Recaptured(
                    schematax_engine::inputs::capture_file::load_paths(&source.reload),
                ))
            }
            Effect::BuildAgentTurn {
                generation,
                release,
                inputs,
            } => Some(Msg::AgentBuilt {
                generation,
                built: Arc::new(build_agent_turn(release, &inputs)),
            }),
            Effect::Suspend => None,
        }
    }
}

/// The turn of `release` over the servers of `inputs` still on, counted in its tokenizer
/// (chars/4 only, with the reason, when the tokenizer cannot be loaded or count), its figures
/// and its search index.
pub fn build_agent_turn(release: &'static AgentRelease, inputs: &AgentInputs) -> AgentBuilt {
    let captures: Vec<ServerCapture> = inputs
        .inputs
        .captures
        .iter()
        .filter(|c| !inputs.disconnected.contains(&c.server))
        .cloned()
        .collect();
    let counted = LoadedTokenizer::shared(&inputs.tokenizer).and_then(|tokenizer| {
        AgentTurn::build(release, &captures, &inputs.settings, Some(&*tokenizer))
    });
    let (turn, tokenizer) = match counted {
        Ok(turn) => (turn, Ok(inputs.tokenizer.short_name())),
        Err(reason) => (
            AgentTurn::build(release, &captures, &inputs.settings, None)
                .unwrap_or_else(|_| unreachable!("a turn without a tokenizer counts nothing")),
            Err(reason.to_string()),
        ),
    };
    AgentBuilt {
        column: AgentColumn::of_turn(&turn, inputs.settings.context_window),
        index: AgentIndex::build(&turn, &captures),
        turn,
        tokenizer,
        settings: inputs.settings.clone(),
    }
}

/// Servers counted before the rest: more than a tall terminal shows.
pub const SERVERS_COUNTED_FIRST: usize = 60;

/// Counts the tools of the servers of `first` and hands them to `early`, then counts the
/// rest and returns them; the tokenizer is loaded once per process.
pub fn count_on_screen_first(
    servers: &[Server],
    tokenizer: &Tokenizer,
    first: &[usize],
    early: &dyn Fn(Vec<(ToolRef, u64)>),
) -> Result<Vec<(ToolRef, u64)>, TokenizerError> {
    let tokenizer = LoadedTokenizer::shared(tokenizer)?;
    let order = schematax_engine::replay::session::tools_in_order(servers, first);
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
        early(schematax_engine::replay::session::count_tools(
            servers,
            on_screen,
            &tokenizer,
            &mut |_, _| {},
        )?);
        return schematax_engine::replay::session::count_tools(
            servers,
            rest,
            &tokenizer,
            &mut |_, _| {},
        );
    }
    schematax_engine::replay::session::count_tools(servers, on_screen, &tokenizer, &mut |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    #[test]
    fn the_latest_job_wins_before_it_starts() {
        let (started, started_rx) = channel::<u32>();
        let (release, release_rx) = channel::<()>();
        let release_rx = Mutex::new(release_rx);
        let worker = Worker::start(move |job: u32| {
            started.send(job).unwrap();
            // Each job runs until the test lets it finish.
            release_rx.lock().unwrap().recv().unwrap();
        });
        assert!(!worker.submit(1));
        assert_eq!(started_rx.recv_timeout(Duration::from_secs(10)), Ok(1));
        // While 1 runs: 2 waits, 3 replaces it, 4 replaces 3.
        assert!(!worker.submit(2));
        assert!(worker.submit(3));
        assert!(worker.submit(4));
        release.send(()).unwrap();
        assert_eq!(started_rx.recv_timeout(Duration::from_secs(10)), Ok(4));
        release.send(()).unwrap();
        // Nothing else ran: 2 and 3 were dropped.
        drop(worker);
        assert!(started_rx.recv_timeout(Duration::from_millis(200)).is_err());
    }

    #[test]
    fn a_worker_per_kind_answers_on_the_channel() {
        let (sender, receiver) = channel();
        let mut workers = Workers::new(sender);
        let app = crate::app::App::new(
            Arc::new(schematax_engine::inputs::Inputs::sample()),
            schematax_engine::replay::session::Overrides::default(),
            schematax_engine::replay::activation::Traffic::default(),
            None,
        );
        let mut app = app;
        for effect in app.startup_effects() {
            workers.submit(effect);
        }
        assert_eq!(workers.by_kind.len(), 2, "a count and a lint");
        let mut kinds = Vec::new();
        while kinds.len() < 2 {
            match receiver.recv_timeout(Duration::from_secs(60)).unwrap() {
                Msg::Counted { .. } => kinds.push("count"),
                Msg::Linted { .. } => kinds.push("lint"),
                _ => {}
            }
        }
        kinds.sort_unstable();
        assert_eq!(kinds, ["count", "lint"]);
        workers.submit(Effect::Suspend);
        assert_eq!(workers.by_kind.len(), 2);
    }

    /// Panics on a lint, runs anything else.
    fn lint_panics(effect: Effect, progress: &(dyn Fn(Msg) + Sync)) -> Option<Msg> {
        match effect {
            Effect::Lint { generation: 1, .. } => panic!("lint {}", "exploded\non two lines"),
            Effect::Lint { .. } => panic!("{}", 42),
            other => other.run(progress),
        }
    }

    #[test]
    fn a_job_that_panics_is_answered_with_its_failure_and_the_worker_lives_on() {
        let (sender, receiver) = channel();
        let mut workers = Workers::with_runner(sender, lint_panics);
        let mut app = crate::app::App::new(
            Arc::new(schematax_engine::inputs::Inputs::sample()),
            schematax_engine::replay::session::Overrides::default(),
            schematax_engine::replay::activation::Traffic::default(),
            None,
        );
        let lint = |app: &mut crate::app::App| {
            app.startup_effects()
                .into_iter()
                .find(|e| matches!(e, Effect::Lint { .. }))
                .unwrap()
        };
        let failure = |receiver: &std::sync::mpsc::Receiver<Msg>| loop {
            match receiver.recv_timeout(Duration::from_secs(60)).unwrap() {
                Msg::WorkerFailed(failure) => return failure,
                _ => continue,
            }
        };
        workers.submit(lint(&mut app));
        let first = failure(&receiver);
        assert_eq!(
            first,
            WorkerFailure {
                job: JobKind::Lint,
                message: "lint exploded on two lines".into()
            }
        );
        assert_eq!(
            first.to_string(),
            "the view's lint failed: lint exploded on two lines; the view was closed"
        );
        // The same worker takes the next job.
        workers.submit(lint(&mut app));
        assert_eq!(failure(&receiver).message, "42");
    }

    #[test]
    fn an_agent_turn_without_its_tokenizer_is_counted_in_chars_and_says_why() {
        let mut app = crate::app::App::new(
            Arc::new(schematax_engine::inputs::Inputs::sample()),
            schematax_engine::replay::session::Overrides::default(),
            schematax_engine::replay::activation::Traffic::default(),
            None,
        );
        let codex = schematax_releases::AGENTS
            .iter()
            .find(|a| a.id == "codex")
            .unwrap();
        app.choose_agent(Some((&codex.releases[0], codex)));
        let mut inputs = app.agent_inputs();
        inputs.tokenizer = Tokenizer::HuggingFace("/no/such/tokenizer.json".into());
        let built = build_agent_turn(&codex.releases[0], &inputs);
        let reason = built.tokenizer.clone().unwrap_err();
        assert!(reason.contains("tokenizer.json"), "{reason}");
        assert_eq!(built.turn.listing.tokens, None);
        assert_eq!(
            built.turn,
            AgentTurn::build(
                &codex.releases[0],
                &app.inputs.captures,
                &inputs.settings,
                None
            )
            .unwrap()
        );
        assert!(built.index.is_ok());
    }

    #[test]
    fn counting_splits_on_screen_from_the_rest() {
        let app = crate::app::App::new(
            Arc::new(schematax_engine::inputs::Inputs::sample()),
            schematax_engine::replay::session::Overrides::default(),
            schematax_engine::replay::activation::Traffic::default(),
            None,
        );
        let servers = app.session.shared_servers();
        let tokenizer = app.session.tokenizer().tokenizer.clone();
        let early = std::sync::Mutex::new(Vec::new());
        let rest = count_on_screen_first(&servers, &tokenizer, &[2, 0, 2], &|counts| {
            early.lock().unwrap().push(counts);
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
}
