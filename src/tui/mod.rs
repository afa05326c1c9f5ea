//! The interactive terminal UI: terminal set-up and restore, and the event loop. The loop is
//! generic over the backend and fed by a channel, so tests drive it on a `TestBackend`.

pub mod app;
pub mod keys;
pub mod view;

use ratatui::backend::Backend;
use ratatui::crossterm::event::{self, Event};
use ratatui::Terminal;
use std::io::IsTerminal;
use std::sync::mpsc::{channel, Receiver, Sender};

use crate::engine::capture_file::load_paths;
use app::{App, Effect, Msg};

/// Opens the TUI on `app` in the real terminal, and restores the terminal however it ends
/// (quit, error, panic, Ctrl-C). Returns the final state.
pub fn run(app: App) -> Result<App, String> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(
            "the interactive view needs a terminal (stdin and stdout); for a report to a pipe or file, run `schematax report`".into(),
        );
    }
    // ratatui's init installs a panic hook that restores the terminal before the panic prints.
    let mut terminal = ratatui::try_init().map_err(|e| format!("cannot open the terminal: {e}"))?;
    let (sender, receiver) = channel();
    spawn_input_reader(sender.clone());
    let result = event_loop(&mut terminal, app, &sender, &receiver);
    ratatui::restore();
    result.map_err(|e| format!("terminal error: {e}"))
}

/// Reads terminal events on their own thread and forwards them as messages.
fn spawn_input_reader(sender: Sender<Msg>) {
    std::thread::spawn(move || loop {
        let msg = match event::read() {
            Ok(Event::Key(key)) => Msg::Key(key),
            Ok(Event::Resize(..)) => Msg::Resize,
            Ok(_) => continue,
            Err(_) => return,
        };
        if sender.send(msg).is_err() {
            return;
        }
    });
}

/// Starts an effect on a worker thread; its answer comes back as a message.
pub fn start_effect(effect: Effect, sender: &Sender<Msg>) {
    let sender = sender.clone();
    match effect {
        Effect::Recapture(source) => {
            std::thread::spawn(move || {
                let progress = sender.clone();
                let on_done =
                    move |server: &str, result: &Result<crate::capture::Saved, String>| {
                        let result = result
                            .as_ref()
                            .map(|saved| saved.summary())
                            .map_err(Clone::clone);
                        let _ = progress.send(Msg::Captured {
                            server: server.to_string(),
                            result,
                        });
                    };
                crate::capture::capture_all(
                    &source.specs,
                    source.timeout,
                    &source.out_dir,
                    &on_done,
                );
                let loaded =
                    load_paths(std::slice::from_ref(&source.out_dir)).map_err(|e| e.to_string());
                let _ = sender.send(Msg::Recaptured(loaded));
            });
        }
        other => {
            std::thread::spawn(move || {
                if let Some(msg) = other.run() {
                    let _ = sender.send(msg);
                }
            });
        }
    }
}

/// Draws, waits for messages, updates, until the app quits or the senders are gone. Messages
/// that queued up while drawing are all applied before the next frame.
pub fn event_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    mut app: App,
    sender: &Sender<Msg>,
    receiver: &Receiver<Msg>,
) -> Result<App, B::Error> {
    for effect in app.startup_effects() {
        start_effect(effect, sender);
    }
    while !app.quit {
        terminal.draw(|frame| view::render(&app, frame))?;
        let Ok(first) = receiver.recv() else { break };
        for msg in std::iter::once(first).chain(receiver.try_iter()) {
            for effect in app.update(msg) {
                start_effect(effect, sender);
            }
            if app.quit {
                break;
            }
        }
    }
    Ok(app)
}
