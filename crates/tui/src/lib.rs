//! The interactive terminal UI: terminal set-up and restore, signals, and the event loop. The
//! loop is generic over the backend and fed by a channel, so tests drive it on a `TestBackend`.

#![warn(missing_docs)]
// A failure is an error value with a message, never a panic (unit tests may unwrap).
#![deny(clippy::unwrap_used)]

mod agent;
pub mod app;
mod detail;
pub mod keys;
pub mod msg;
pub mod state;
mod tuned;
pub mod view;
pub mod worker;

use ratatui::backend::{Backend, CrosstermBackend};
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, EnableBracketedPaste, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;
use std::io::{IsTerminal, Stdout};
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use app::App;
use msg::{Effect, Msg};
use schematax_capture::signals::Signal;
use worker::{WorkerFailure, Workers};

/// The signals the view handles: each becomes a [`Msg::Signal`].
pub const SIGNALS: [Signal; 4] = [
    Signal::Interrupt,
    Signal::Terminate,
    Signal::Hangup,
    Signal::Suspend,
];

/// Why the interactive view could not run.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// stdin or stdout is not a terminal.
    #[error("the interactive view needs a terminal (stdin and stdout); for a report to a pipe or file, run `schematax report`")]
    NotATerminal,
    /// The signal handlers could not be installed.
    #[error("cannot handle signals: {0}")]
    Signals(std::io::Error),
    /// The terminal failed while the view ran.
    #[error("terminal error: {0}")]
    Io(#[from] std::io::Error),
    /// A background job of the view failed (it panicked), and the view was closed.
    #[error(transparent)]
    Worker(#[from] WorkerFailure),
}

/// How long the view waits for its app before it opens on the loading screen: a quick load,
/// or an error in the inputs, never flashes the screen.
pub const LOADING_DELAY: Duration = Duration::from_millis(100);

/// How often the loading screen looks for the app and redraws its clock.
const LOADING_TICK: Duration = Duration::from_millis(40);

/// What opening the view came to.
pub enum Outcome<E> {
    /// The view ran; its final state (`ended_by` says which signal ended it, if one did).
    Ran(Box<App>),
    /// The app could not be built; the view closed before it showed anything but the
    /// loading screen.
    Failed(E),
    /// The person quit on the loading screen, or a signal ended it (which one).
    Cancelled(Option<Signal>),
}

/// Opens the TUI in the real terminal on the app `build` makes on a worker, and restores the
/// terminal however it ends (quit, error, panic, SIGINT, SIGTERM, SIGHUP; Ctrl-Z gives it
/// back until `fg`). When the app takes longer than [`LOADING_DELAY`], the view opens at
/// once on a loading screen naming `inputs`, which can be quit before the app is ready.
pub fn run<E: Send + 'static>(
    inputs: String,
    build: impl FnOnce() -> Result<App, E> + Send + 'static,
) -> Result<Outcome<E>, TerminalError> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        // Bad inputs are the first thing to hear about, terminal or not.
        return match build() {
            Err(error) => Ok(Outcome::Failed(error)),
            Ok(_) => Err(TerminalError::NotATerminal),
        };
    }
    let started = Instant::now();
    let (sender, receiver) = channel();
    let signals = sender.clone();
    schematax_capture::signals::watch(&SIGNALS, move |signal| {
        let _ = signals.send(Msg::Signal(signal));
    })
    .map_err(TerminalError::Signals)?;
    let (built_sender, built) = channel();
    let builder = std::thread::spawn(move || {
        let _ = built_sender.send(build());
    });
    let ready = match built.recv_timeout(LOADING_DELAY) {
        Ok(Ok(app)) => Some(app),
        Ok(Err(error)) => return Ok(Outcome::Failed(error)),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => resume_builder_panic(builder),
    };
    restore_on_panic();
    let restore = Restore::arm();
    let result = enter().and_then(|()| {
        // `leave` restores the terminal; ratatui's own restore on drop would report a terminal
        // that is gone (SIGHUP) on a stderr that is gone too.
        let mut terminal =
            ManuallyDrop::new(Terminal::new(CrosstermBackend::new(std::io::stdout()))?);
        spawn_input_reader(sender.clone());
        let app = match ready {
            Some(app) => app,
            None => {
                let loading = loading_loop(
                    &mut *terminal,
                    &inputs,
                    started,
                    &built,
                    &receiver,
                    &mut JobControl,
                )?;
                match loading {
                    Loaded::Ready(app) => *app,
                    Loaded::Failed(error) => return Ok(Some(Outcome::Failed(error))),
                    Loaded::Cancelled(signal) => return Ok(Some(Outcome::Cancelled(signal))),
                    Loaded::Lost => return Ok(None),
                }
            }
        };
        event_loop(&mut terminal, app, &sender, &receiver, &mut JobControl)
            .map(|app| Some(Outcome::Ran(Box::new(app))))
    });
    drop(restore);
    match result? {
        Some(outcome) => Ok(outcome),
        // The builder died without an app: its panic is the real story.
        None => resume_builder_panic(builder),
    }
}

/// Re-raises the panic of a builder that ended without an app (waiting for it to finish
/// unwinding), its report printed first when the view held it back.
fn resume_builder_panic(builder: std::thread::JoinHandle<()>) -> ! {
    match builder.join() {
        Err(panic) => {
            print_deferred_panics();
            std::panic::resume_unwind(panic)
        }
        Ok(()) => unreachable!("a builder that returned has sent its app"),
    }
}

/// What the loading screen ended with.
pub enum Loaded<E> {
    /// The app is ready.
    Ready(Box<App>),
    /// Building it failed.
    Failed(E),
    /// A quit key, or a signal (which one), ended the view first.
    Cancelled(Option<Signal>),
    /// The builder went away without an answer (it panicked).
    Lost,
}

/// Draws the loading screen until `built` answers, handling quit keys, signals and resizes
/// meanwhile; Ctrl-Z and SIGTSTP suspend through `suspend`.
pub fn loading_loop<B: Backend, E>(
    terminal: &mut Terminal<B>,
    inputs: &str,
    started: Instant,
    built: &Receiver<Result<App, E>>,
    receiver: &Receiver<Msg>,
    suspend: &mut impl Suspend<B>,
) -> Result<Loaded<E>, B::Error> {
    loop {
        let loading = view::loading::Loading {
            inputs: inputs.to_string(),
            elapsed: started.elapsed(),
        };
        terminal.draw(|frame| view::loading::render(&loading, frame))?;
        match built.recv_timeout(LOADING_TICK) {
            Ok(Ok(app)) => return Ok(Loaded::Ready(Box::new(app))),
            Ok(Err(error)) => return Ok(Loaded::Failed(error)),
            Err(RecvTimeoutError::Disconnected) => return Ok(Loaded::Lost),
            Err(RecvTimeoutError::Timeout) => {}
        }
        for msg in receiver.try_iter() {
            match msg {
                Msg::Key(key) => match keys::loading_action(&key) {
                    Some(keys::Action::Quit) => return Ok(Loaded::Cancelled(None)),
                    Some(keys::Action::Suspend) => suspend.suspend(terminal)?,
                    _ => {}
                },
                Msg::Signal(Signal::Suspend) => suspend.suspend(terminal)?,
                Msg::Signal(signal) => return Ok(Loaded::Cancelled(Some(signal))),
                _ => {}
            }
        }
    }
}

/// Raw mode and the alternate screen: all the view changes in the terminal besides the
/// cursor, which drawing hides.
fn enter() -> std::io::Result<()> {
    enable_raw_mode()?;
    // A paste arrives as one event, not as keys.
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableBracketedPaste
    )
}

/// Undoes [`enter`] and drawing: raw mode off, the alternate screen left, the cursor shown.
/// Each step is tried even when one fails: a terminal that hung up cannot be restored, and
/// that is no reason to stop.
fn leave() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        Show
    );
}

/// The thread that runs the view (draws and updates): a panic there ends the view.
static UI_THREAD: OnceLock<ThreadId> = OnceLock::new();
/// Whether the view holds the terminal (raw mode, the alternate screen).
static VIEW_ON: AtomicBool = AtomicBool::new(false);
/// Reports of panics on other threads while the view held the terminal, which would have
/// printed into the alternate screen and vanished with it. A worker's panic is answered by
/// its worker ([`Msg::WorkerFailed`]); these print only when a panic ends the process.
static DEFERRED_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());
/// Panic reports held back at most (the first ones).
const MAX_DEFERRED_PANICS: usize = 8;

/// Restores the terminal before a panic of the view's own thread prints; holds back the
/// reports of the other threads' panics while the view runs: a worker's is caught and ends
/// the view with one line, and neither may touch the terminal under the view. A panic a
/// tokenizer call catches and turns into an error touches nothing: the view goes on.
fn restore_on_panic() {
    let _ = UI_THREAD.set(std::thread::current().id());
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if schematax_engine::tokenizers::panic_is_contained() {
            previous(info);
            return;
        }
        let on_ui_thread = UI_THREAD.get() == Some(&std::thread::current().id());
        if VIEW_ON.load(Ordering::SeqCst) && !on_ui_thread {
            let thread = std::thread::current();
            let report = format!("thread '{}' {info}", thread.name().unwrap_or("<unnamed>"));
            let mut deferred = DEFERRED_PANICS
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if deferred.len() < MAX_DEFERRED_PANICS {
                deferred.push(report);
            }
            return;
        }
        leave();
        previous(info);
    }));
}

/// Prints the panic reports held back while the view ran (on the restored terminal).
fn print_deferred_panics() {
    let deferred = std::mem::take(
        &mut *DEFERRED_PANICS
            .lock()
            .unwrap_or_else(PoisonError::into_inner),
    );
    for report in deferred {
        eprintln!("{report}");
    }
}

/// The terminal held by the view: given back when dropped, also when the view's thread
/// unwinds from a panic that started on another thread (whose report then prints).
struct Restore;

impl Restore {
    /// From now on the view holds the terminal.
    fn arm() -> Restore {
        VIEW_ON.store(true, Ordering::SeqCst);
        Restore
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        VIEW_ON.store(false, Ordering::SeqCst);
        leave();
        if std::thread::panicking() {
            print_deferred_panics();
        }
    }
}

/// How the event loop suspends the view (Ctrl-Z, SIGTSTP).
pub trait Suspend<B: Backend> {
    /// Gives the terminal back as the shell had it, stops the process until it is continued
    /// (`fg`), then takes the terminal again and redraws it whole.
    fn suspend(&mut self, terminal: &mut Terminal<B>) -> Result<(), B::Error>;
}

/// Job control in the real terminal: stops the process as SIGTSTP's default action would.
pub struct JobControl;

impl Suspend<CrosstermBackend<Stdout>> for JobControl {
    fn suspend(
        &mut self,
        terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    ) -> std::io::Result<()> {
        leave();
        // Returns when the shell continues the process (SIGCONT).
        Signal::Suspend.act_as_default()?;
        enter()?;
        // A resize to the current size clears the screen and forgets what was drawn, so the
        // next frame is drawn whole. (`Terminal::clear` would ask the terminal where its
        // cursor is, and the input thread would take the answer.)
        let size = terminal.size()?;
        terminal.resize(ratatui::layout::Rect::from((
            ratatui::layout::Position::ORIGIN,
            size,
        )))
    }
}

/// Reads terminal events on their own thread and forwards them as messages.
fn spawn_input_reader(sender: Sender<Msg>) {
    std::thread::spawn(move || {
        while let Some(msg) = next_input(&mut TerminalEvents) {
            if sender.send(msg).is_err() {
                return;
            }
        }
    });
}

/// Where the view's terminal events come from: the terminal, or a test's script.
pub trait EventSource {
    /// Waits for the next event.
    fn read(&mut self) -> std::io::Result<Event>;
    /// Whether an event is there within `timeout` (at once, when it came with the last one).
    fn poll(&mut self, timeout: Duration) -> std::io::Result<bool>;
}

/// The terminal's events, as crossterm reads and parses them.
struct TerminalEvents;

impl EventSource for TerminalEvents {
    fn read(&mut self) -> std::io::Result<Event> {
        event::read()
    }

    fn poll(&mut self, timeout: Duration) -> std::io::Result<bool> {
        event::poll(timeout)
    }
}

/// How long after a paste the input that follows is still taken as part of it. A terminal
/// writes a paste at once; a paste whose text holds the end marker `ESC[201~` looks ended
/// there, and the rest of its text follows at once, read as keys. No person types a key
/// this soon after a paste.
pub const PASTE_TAIL: Duration = Duration::from_millis(25);

/// Most bytes of text a paste's tail adds (more is read and dropped): the query line keeps
/// far less.
const MAX_PASTE_TAIL_BYTES: usize = 64 * 1024;

/// The next message from `source`; None once it fails (the terminal is gone). A paste takes
/// the input right behind it ([`PASTE_TAIL`]) as more of its text, never as keys: a paste
/// holding `ESC[201~` cannot quit, tune or switch anything.
pub fn next_input(source: &mut impl EventSource) -> Option<Msg> {
    loop {
        return Some(match source.read().ok()? {
            Event::Key(key) => Msg::Key(key),
            Event::Paste(text) => Msg::Paste(with_paste_tail(text, source)),
            Event::Resize(..) => Msg::Resize,
            _ => continue,
        });
    }
}

/// `text` with the pastes and typed characters that arrive within [`PASTE_TAIL`] of each
/// other after it (other keys, resizes and mouse events among them are dropped).
fn with_paste_tail(mut text: String, source: &mut impl EventSource) -> String {
    while let Ok(true) = source.poll(PASTE_TAIL) {
        let more = match source.read() {
            Ok(Event::Paste(more)) => more,
            Ok(Event::Key(key)) => key_as_text(&key).map(String::from).unwrap_or_default(),
            Ok(_) => continue,
            Err(_) => break,
        };
        if text.len() < MAX_PASTE_TAIL_BYTES {
            text.push_str(&more);
        }
    }
    text
}

/// The text a key stands for in a paste: a character, a line break or a tab; nothing for
/// the other keys and for keys held with Ctrl or Alt.
fn key_as_text(key: &KeyEvent) -> Option<char> {
    if key.kind == KeyEventKind::Release
        || key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    match key.code {
        KeyCode::Char(c) => Some(c),
        KeyCode::Enter => Some('\n'),
        KeyCode::Tab => Some('\t'),
        _ => None,
    }
}

/// Carries out an effect: a suspension here (it needs the terminal), any other on the worker
/// of its kind, whose messages come back through the event loop's channel.
fn perform<B: Backend>(
    effect: Effect,
    workers: &mut Workers,
    terminal: &mut Terminal<B>,
    suspend: &mut impl Suspend<B>,
) -> Result<(), B::Error> {
    if let Effect::Suspend = effect {
        return suspend.suspend(terminal);
    }
    workers.submit(effect);
    Ok(())
}

/// Draws, waits for messages, updates, until the app quits or the senders are gone. Messages
/// that queued up while drawing are all applied before the next frame. `suspend` is how
/// Ctrl-Z and SIGTSTP stop the view.
pub fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: App,
    sender: &Sender<Msg>,
    receiver: &Receiver<Msg>,
    suspend: &mut impl Suspend<B>,
) -> Result<App, B::Error> {
    event_loop_on(
        terminal,
        app,
        Workers::new(sender.clone()),
        receiver,
        suspend,
    )
}

/// [`event_loop`] with its background work carried out by `workers` (whose answers must come
/// to `receiver`).
pub fn event_loop_on<B: Backend>(
    terminal: &mut Terminal<B>,
    mut app: App,
    mut workers: Workers,
    receiver: &Receiver<Msg>,
    suspend: &mut impl Suspend<B>,
) -> Result<App, B::Error> {
    // The first frame is drawn before the background work starts competing for the cores.
    terminal.draw(|frame| view::render(&app, frame))?;
    for effect in app.startup_effects() {
        perform(effect, &mut workers, terminal, suspend)?;
    }
    while !app.quit {
        terminal.draw(|frame| view::render(&app, frame))?;
        let Ok(first) = receiver.recv() else { break };
        let queued: Vec<Msg> = std::iter::once(first).chain(receiver.try_iter()).collect();
        // Signals first, whatever queued before them; then the rest, with each run of typed
        // characters as one edit (one re-rank for a burst of keys).
        let (signals, rest): (Vec<Msg>, Vec<Msg>) = queued
            .into_iter()
            .partition(|msg| matches!(msg, Msg::Signal(_)));
        let mut typed = String::new();
        for msg in signals.into_iter().chain(rest).map(Some).chain([None]) {
            if let Some(Msg::Key(key)) = &msg {
                if let Some(c) = app.typed_char(key) {
                    typed.push(c);
                    continue;
                }
            }
            let text = (!typed.is_empty()).then(|| Msg::Paste(std::mem::take(&mut typed)));
            for msg in text.into_iter().chain(msg) {
                for effect in app.update(msg) {
                    perform(effect, &mut workers, terminal, suspend)?;
                }
                if app.quit {
                    return Ok(app);
                }
            }
        }
    }
    Ok(app)
}

/// The width in columns of the terminal stdout writes to, when it writes to one.
pub fn stdout_columns() -> Option<usize> {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::size()
        .ok()
        .map(|(columns, _)| usize::from(columns))
        .filter(|columns| *columns > 0)
}
