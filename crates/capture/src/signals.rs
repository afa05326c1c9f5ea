//! The signals schematax handles, as values. A watcher thread (signal-hook's iterator) hands
//! each one to the code that asked for it: the interactive view turns them into messages for
//! its event loop, `schematax capture` stops its servers and exits.

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;

/// A signal schematax handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT: `kill -INT`, or Ctrl-C in a terminal in cooked mode.
    Interrupt,
    /// SIGTERM: asked to end.
    Terminate,
    /// SIGHUP: the terminal went away (or `kill -HUP`).
    Hangup,
    /// SIGTSTP: asked to suspend (`kill -TSTP`, or Ctrl-Z in cooked mode).
    Suspend,
}

impl Signal {
    /// The signals that end the program.
    pub const ENDING: [Signal; 3] = [Signal::Interrupt, Signal::Terminate, Signal::Hangup];

    /// The signal's number.
    pub fn number(self) -> i32 {
        match self {
            Signal::Interrupt => SIGINT,
            Signal::Terminate => SIGTERM,
            Signal::Hangup => SIGHUP,
            Signal::Suspend => SIGTSTP,
        }
    }

    /// Does what the signal does by default, as if no handler were installed: for
    /// [`Signal::Suspend`], stops the process until the shell continues it (SIGCONT).
    pub fn act_as_default(self) -> std::io::Result<()> {
        signal_hook::low_level::emulate_default_handler(self.number())
    }

    /// The signal with this number, when schematax handles it.
    pub fn from_number(number: i32) -> Option<Signal> {
        [
            Signal::Interrupt,
            Signal::Terminate,
            Signal::Hangup,
            Signal::Suspend,
        ]
        .into_iter()
        .find(|s| s.number() == number)
    }

    /// Its conventional name, `SIGTERM`.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::Hangup => "SIGHUP",
            Signal::Suspend => "SIGTSTP",
        }
    }

    /// The exit code of a program ended by it: 128 + its number, as shells report it.
    pub fn exit_code(self) -> u8 {
        // Every handled signal number is below 128.
        128 + self.number() as u8
    }
}

/// Catches `signals` from now on (their default action no longer happens) and calls
/// `on_signal` with each one as it arrives, on a thread of its own.
pub fn watch(
    signals: &[Signal],
    mut on_signal: impl FnMut(Signal) + Send + 'static,
) -> std::io::Result<()> {
    let numbers: Vec<i32> = signals.iter().map(|s| s.number()).collect();
    let mut incoming = Signals::new(&numbers)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for number in incoming.forever() {
                if let Some(signal) = Signal::from_number(number) {
                    on_signal(signal);
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_number() {
        assert_eq!(Signal::Hangup.exit_code(), 129);
        assert_eq!(Signal::Interrupt.exit_code(), 130);
        assert_eq!(Signal::Terminate.exit_code(), 143);
        for signal in Signal::ENDING {
            assert_eq!(Signal::from_number(signal.number()), Some(signal));
        }
        assert_eq!(Signal::from_number(signal_hook::consts::SIGUSR1), None);
    }

    #[test]
    fn a_watched_signal_is_handed_over_instead_of_ending_the_process() {
        let (sender, receiver) = std::sync::mpsc::channel();
        watch(&[Signal::Hangup], move |signal| {
            let _ = sender.send(signal);
        })
        .unwrap();
        signal_hook::low_level::raise(SIGHUP).unwrap();
        let got = receiver.recv_timeout(std::time::Duration::from_secs(30));
        assert_eq!(got, Ok(Signal::Hangup));
    }
}
