//! The `schematax` binary: parse the command line, run it, print a failure as one line and exit
//! with its code.

use clap::Parser;
use std::process::ExitCode;

/// mimalloc: loading a large catalog makes millions of small allocations, which it serves
/// markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = schematax::cli::Cli::parse();
    match schematax::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!(
                "schematax: error: {}",
                schematax::text::sanitize(&error.to_string())
            );
            ExitCode::from(error.exit_code())
        }
    }
}
