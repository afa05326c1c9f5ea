//! Long work on a terminal: a progress line on stderr, rewritten in place and cleared at the
//! end (nothing at all when stderr is not a terminal), and Ctrl-C, SIGTERM or SIGHUP during
//! the work stopping it at once through the flag the engine reads.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use schematax_capture::signals::{watch, Signal};
use schematax_engine::analyses::lint::{lint, lint_watched, Findings, Interrupted, LintWatch};
use schematax_engine::replay::session::Session;
use schematax_engine::text::thousands;

/// How often the line is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Moves to the start of the line and erases it.
const ERASE_LINE: &str = "\r\x1b[2K";

/// A progress line on stderr, drawn only when stderr is a terminal.
pub struct ProgressLine {
    /// What is under way, e.g. `linting`.
    what: &'static str,
    shown: bool,
    drawn: bool,
    last: Option<Instant>,
}

impl ProgressLine {
    /// A line about `what`, shown when stderr is a terminal.
    pub fn on_stderr(what: &'static str) -> ProgressLine {
        ProgressLine {
            what,
            shown: std::io::stderr().is_terminal(),
            drawn: false,
            last: None,
        }
    }

    /// Whether the line is drawn at all (stderr is a terminal).
    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// Draws `what: done of total tools`, at most every [`REDRAW_EVERY`].
    pub fn update(&mut self, done: usize, total: usize) {
        if !self.shown || self.last.is_some_and(|last| last.elapsed() < REDRAW_EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        let mut err = std::io::stderr().lock();
        // A terminal that went away cannot be drawn on: the work goes on without it.
        let _ = write!(
            err,
            "{ERASE_LINE}{}: {} of {} tools",
            self.what,
            thousands(done as u64),
            thousands(total as u64)
        );
        let _ = err.flush();
        self.drawn = true;
    }

    /// Erases the line, if drawn.
    pub fn clear(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "{ERASE_LINE}");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.clear();
    }
}

/// What the signal watcher shares with the work: whether the work still runs, the flag it
/// reads, and the signal that set it.
#[derive(Default)]
struct Interruption {
    running: AtomicBool,
    cancel: AtomicBool,
    signal: Mutex<Option<Signal>>,
}

/// Runs `work` with a flag that Ctrl-C, SIGTERM and SIGHUP set while it runs, and gives what
/// it returned and the signal that set the flag, if one did. A signal that comes after the
/// work does what it does by default, as if no handler had been installed. When the watcher
/// cannot start, `work` runs with a flag that is never set (the signals end the process).
pub fn interruptible<T>(work: impl FnOnce(&AtomicBool) -> T) -> (T, Option<Signal>) {
    let shared = Arc::new(Interruption::default());
    shared.running.store(true, Ordering::SeqCst);
    let watcher = Arc::clone(&shared);
    let watched = watch(&Signal::ENDING, move |signal| {
        if watcher.running.load(Ordering::SeqCst) {
            if let Ok(mut first) = watcher.signal.lock() {
                first.get_or_insert(signal);
            }
            watcher.cancel.store(true, Ordering::SeqCst);
        } else {
            // Nothing listens any more: the signal ends the process as it would have.
            let _ = signal.act_as_default();
        }
    });
    if watched.is_err() {
        return (work(&AtomicBool::new(false)), None);
    }
    let result = work(&shared.cancel);
    shared.running.store(false, Ordering::SeqCst);
    let signal = shared.signal.lock().ok().and_then(|first| *first);
    (result, signal)
}

/// Lints the session. On a terminal, stderr shows how many tools are linted, and Ctrl-C (or
/// SIGTERM, SIGHUP) stops the lint at once: the line is cleared and the signal given back.
pub fn lint_showing_progress(session: &Session) -> Result<Findings, Signal> {
    let mut line = ProgressLine::on_stderr("linting");
    if !line.is_shown() {
        return Ok(lint(session));
    }
    let (findings, signal) = interruptible(|cancel| {
        let watch = LintWatch {
            progress: &mut |done, total| line.update(done, total),
            cancel,
        };
        lint_watched(session, watch)
    });
    line.clear();
    match (findings, signal) {
        (Ok(findings), _) => Ok(findings),
        (Err(Interrupted), signal) => Err(signal.unwrap_or(Signal::Interrupt)),
    }
}
