//! Long work on a terminal: a progress line on stderr, rewritten in place and cleared at the
//! end (nothing at all when stderr is not a terminal), and Ctrl-C, SIGTERM or SIGHUP during
//! the work. The lint stops at once through the flag the engine reads; any other long work
//! (reading and building a catalog, counting tokens, the page's stages) writes nothing until
//! it is done, so a signal erases the line and ends the process as it would have.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use schematax_capture::signals::{watch, Signal};
use schematax_engine::analyses::lint::{lint, lint_watched, Findings, Interrupted, LintWatch};
use schematax_engine::replay::session::Session;
use schematax_engine::text::thousands;
use schematax_engine::tokenizers::LoadedTokenizer;

use crate::cli::CliError;

/// How often a count is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Moves to the start of the line and erases it.
const ERASE_LINE: &str = "\r\x1b[2K";

/// A progress line on stderr, drawn only when stderr is a terminal.
pub struct ProgressLine {
    shown: bool,
    drawn: bool,
    last: Option<Instant>,
}

impl ProgressLine {
    /// A line, shown when stderr is a terminal.
    pub fn on_stderr() -> ProgressLine {
        ProgressLine {
            shown: std::io::stderr().is_terminal(),
            drawn: false,
            last: None,
        }
    }

    /// Whether the line is drawn at all (stderr is a terminal).
    pub fn is_shown(&self) -> bool {
        self.shown
    }

    /// Draws `what: done of total noun` (`linting: 18,000 of 193,948 searches`), at most every
    /// [`REDRAW_EVERY`].
    pub fn update(&mut self, what: &str, (done, total): (usize, usize), noun: &str) {
        if !self.shown || self.last.is_some_and(|last| last.elapsed() < REDRAW_EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        self.draw(&format!(
            "{what}: {} of {} {noun}",
            thousands(done as u64),
            thousands(total as u64)
        ));
    }

    /// Draws `text` now: a stage of the work begins.
    pub fn stage(&mut self, text: &str) {
        if self.shown {
            self.last = None;
            self.draw(text);
        }
    }

    fn draw(&mut self, text: &str) {
        let mut err = std::io::stderr().lock();
        // A terminal that went away cannot be drawn on: the work goes on without it.
        let _ = write!(err, "{ERASE_LINE}{text}");
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

/// What an ending signal does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OnSignal {
    /// What it does by default, as if no handler had been installed.
    Default,
    /// Erases the progress line, then what it does by default.
    EraseAndEnd,
    /// Sets the flag the work reads.
    Cancel,
}

impl OnSignal {
    const ALL: [OnSignal; 3] = [OnSignal::Default, OnSignal::EraseAndEnd, OnSignal::Cancel];
}

/// What the signal watcher shares with the work: what a signal does now, the flag the work
/// reads, and the signal that set it.
struct Interruption {
    on_signal: AtomicU8,
    cancel: AtomicBool,
    signal: Mutex<Option<Signal>>,
}

/// The process's one signal watcher's state (a second watcher would act on its own).
static INTERRUPTION: Interruption = Interruption {
    on_signal: AtomicU8::new(OnSignal::Default as u8),
    cancel: AtomicBool::new(false),
    signal: Mutex::new(None),
};

impl Interruption {
    /// The watcher's state, the watcher started on the first call; none when it cannot start
    /// (the signals then end the process as they would have).
    fn watched() -> Option<&'static Interruption> {
        static WATCHING: OnceLock<bool> = OnceLock::new();
        let watching = *WATCHING
            .get_or_init(|| watch(&Signal::ENDING, |signal| INTERRUPTION.handle(signal)).is_ok());
        watching.then_some(&INTERRUPTION)
    }

    fn handle(&self, signal: Signal) {
        let now = self.on_signal.load(Ordering::SeqCst);
        match OnSignal::ALL.into_iter().find(|mode| *mode as u8 == now) {
            Some(OnSignal::Cancel) => {
                self.signal
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(signal);
                self.cancel.store(true, Ordering::SeqCst);
            }
            Some(OnSignal::EraseAndEnd) => {
                // stderr stays locked until the process ends: no line is drawn again between
                // the erasing and the end.
                let mut err = std::io::stderr().lock();
                if err.is_terminal() {
                    let _ = write!(err, "{ERASE_LINE}");
                    let _ = err.flush();
                }
                let _ = signal.act_as_default();
            }
            Some(OnSignal::Default) | None => {
                let _ = signal.act_as_default();
            }
        }
    }

    /// Runs `work` with signals doing `mode`, then what they did before.
    fn during<T>(&self, mode: OnSignal, work: impl FnOnce() -> T) -> T {
        let before = self.on_signal.swap(mode as u8, Ordering::SeqCst);
        let result = work();
        self.on_signal.store(before, Ordering::SeqCst);
        result
    }
}

/// Runs `work` with a flag that Ctrl-C, SIGTERM and SIGHUP set while it runs, and gives what
/// it returned and the signal that set the flag, if one did. Afterwards a signal does what it
/// did before. When the watcher cannot start, `work` runs with a flag that is never set (the
/// signals end the process).
fn interruptible<T>(work: impl FnOnce(&AtomicBool) -> T) -> (T, Option<Signal>) {
    let Some(shared) = Interruption::watched() else {
        return (work(&AtomicBool::new(false)), None);
    };
    shared.cancel.store(false, Ordering::SeqCst);
    let result = shared.during(OnSignal::Cancel, || work(&shared.cancel));
    let signal = shared
        .signal
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    (result, signal)
}

/// Runs `work`, which writes nothing until it is done, with its progress on a terminal when
/// `shown` ([`ProgressLine::is_shown`]): Ctrl-C, SIGTERM or SIGHUP meanwhile erase the line
/// and end the process as they would have. Off a terminal the signals are left alone.
pub fn ending_cleanly<T>(shown: bool, work: impl FnOnce() -> T) -> T {
    if !shown {
        return work();
    }
    match Interruption::watched() {
        Some(shared) => shared.during(OnSignal::EraseAndEnd, work),
        None => work(),
    }
}

/// Lints the session. On a terminal, `line` shows how many searches are done, and Ctrl-C (or
/// SIGTERM, SIGHUP) stops the lint at once: the line is cleared and the signal given back.
pub fn lint_showing_progress(
    session: &Session,
    line: &mut ProgressLine,
) -> Result<Findings, Signal> {
    if !line.is_shown() {
        return Ok(lint(session));
    }
    let (findings, signal) = interruptible(|cancel| {
        let watch = LintWatch {
            progress: &mut |done, total| line.update("linting", (done, total), "searches"),
            cancel,
        };
        lint_watched(session, watch)
    });
    line.clear();
    match (findings, signal) {
        // A signal as the last searches ended still stops the command.
        (_, Some(signal)) => Err(signal),
        (Ok(findings), None) => Ok(findings),
        (Err(Interrupted), None) => Err(Signal::Interrupt),
    }
}

/// Counts every tool of the session in its tokenizer; on a terminal, `line` shows how many
/// are counted, and a signal ends the count at once, the line erased.
pub fn count_showing_progress(
    session: &mut Session,
    line: &mut ProgressLine,
) -> Result<Arc<LoadedTokenizer>, CliError> {
    let counted = ending_cleanly(line.is_shown(), || {
        session.count_tokens_reporting(&mut |done, total| {
            line.update("counting tokens", (done, total), "tools");
        })
    });
    line.clear();
    Ok(counted?)
}
