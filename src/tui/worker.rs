//! The view's background work: one worker thread per kind of job, where the latest request
//! wins before it starts. A lint asked for while another lint runs waits; a third request
//! replaces the second, which is dropped without running. So a burst of server switches runs
//! at most two lints, not one per switch, and nothing superseded runs to the end first.

use std::collections::HashMap;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::app::{Effect, Msg};

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
            Effect::Suspend => return None,
        })
    }
}

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
    by_kind: HashMap<JobKind, Worker<Effect>>,
}

impl Workers {
    /// No workers yet; answers will go to `sender`.
    pub fn new(sender: Sender<Msg>) -> Workers {
        Workers {
            sender,
            by_kind: HashMap::new(),
        }
    }

    /// Runs `effect` on the worker of its kind (the latest of a kind wins before it starts).
    /// An effect of no kind (a suspension) is not for a worker and is dropped here.
    pub fn submit(&mut self, effect: Effect) {
        let Some(kind) = JobKind::of(&effect) else {
            return;
        };
        let sender = &self.sender;
        self.by_kind
            .entry(kind)
            .or_insert_with(|| {
                let sender = sender.clone();
                Worker::start(move |effect: Effect| {
                    let progress = |msg: Msg| {
                        let _ = sender.send(msg);
                    };
                    if let Some(msg) = effect.run(&progress) {
                        let _ = sender.send(msg);
                    }
                })
            })
            .submit(effect);
    }
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
        let app = crate::tui::app::App::new(
            Arc::new(crate::engine::inputs::Inputs::sample()),
            crate::engine::session::Overrides::default(),
            crate::engine::activation::Traffic::default(),
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
}
