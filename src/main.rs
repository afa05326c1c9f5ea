//! The `schematax` binary: parse the command line, run it, map errors to exit code 2.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = schematax::cli::Cli::parse();
    match schematax::cli::run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("schematax: error: {message}");
            ExitCode::from(schematax::cli::EXIT_USAGE)
        }
    }
}
