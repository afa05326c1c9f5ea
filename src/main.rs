//! The `schematax` binary: parse the command line, run it, print a failure as one line and exit
//! with its code.

#![deny(clippy::unwrap_used)]

use clap::Parser;
use std::process::ExitCode;

/// mimalloc: loading a large catalog makes millions of small allocations, which it serves
/// markedly faster than the system allocator. It is built not to ask for transparent huge
/// pages (`no_thp`), where one touched byte would keep 2 MiB resident.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (number 15 in its 2.x and 3.x headers): how long freed
/// pages are kept before they go back to the system, in milliseconds.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed pages are kept before they go back to the system: 10 ms rather than
/// mimalloc 3's default of a second, so the parse trees of a load do not stay resident beside
/// the session built from them (at 100,000 tools this lowers the peaks of `lint` and `eval` by
/// 20 to 45 MiB), yet not at once, which made every freed page an `madvise` and a flush of the
/// other cores' TLBs (at 100,000 tools 0 ms cost `report --estimate-only` a fifth more time and
/// `lint` a tenth, for 3 to 4 MiB less peak).
const PURGE_DELAY_MS: std::ffi::c_long = 10;

/// Sets [`PURGE_DELAY_MS`]. It overrides `MIMALLOC_PURGE_DELAY`.
fn purge_freed_pages_soon() {
    // SAFETY: mi_option_set only stores an option's value; it runs here before any other
    // thread exists.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MS) }
}

fn main() -> ExitCode {
    purge_freed_pages_soon();
    let cli = match schematax::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => exit_on_usage_error(&error),
    };
    match schematax::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!(
                "schematax: error: {}",
                schematax_engine::text::sanitize(&error.to_string())
            );
            ExitCode::from(error.exit_code())
        }
    }
}

/// The longest line of a command-line error: clap repeats the value it refused, which may be
/// of any length.
const MAX_USAGE_LINE: usize = 1_000;

/// Prints clap's help, version or usage error and exits as clap would, every line of an error
/// cut to [`MAX_USAGE_LINE`] characters.
fn exit_on_usage_error(error: &clap::Error) -> ! {
    let text = error.to_string();
    if !error.use_stderr()
        || text
            .lines()
            .all(|line| line.chars().count() <= MAX_USAGE_LINE)
    {
        error.exit();
    }
    for line in text.lines() {
        match line.char_indices().nth(MAX_USAGE_LINE) {
            Some((at, _)) => eprintln!("{}…", &line[..at]),
            None => eprintln!("{line}"),
        }
    }
    std::process::exit(error.exit_code())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_option_is_the_one_this_mimalloc_numbers_15() {
        // SAFETY: both only read mimalloc's version and an option's value.
        let (version, delay) = unsafe {
            (
                libmimalloc_sys::mi_version(),
                libmimalloc_sys::mi_option_get(PURGE_DELAY),
            )
        };
        // mimalloc 3 documents a default purge delay of 1000 ms; a newer release that
        // renumbers its options fails here rather than setting the wrong one.
        assert_eq!((version / 10_000, delay), (3, 1000), "mimalloc {version}");
    }
}
