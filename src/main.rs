//! The `hexrune` binary: parses the command line and dispatches to a mode.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use hexrune::cli::{Args, Config};
use hexrune::cmd::{self, EXIT_ERROR};

fn main() -> ExitCode {
    let config = Args::parse().into_config();
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut err = io::stderr();
    let result = match &config {
        Config::Check(options) => cmd::check::run(options, &mut out, &mut err),
        Config::At(options) => cmd::at::run(options, &mut out, &mut err),
        Config::Explain(options) => cmd::explain::run(options, &mut out, &mut err),
        Config::Generate(what) => hexrune::cli::generate(what, &mut out, &mut err),
        Config::View { .. } => {
            let _ = writeln!(err, "hexrune: the interactive inspector is not part of this build yet; see `hexrune --help`");
            Ok(EXIT_ERROR)
        }
    };
    let result = result.and_then(|code| out.flush().map(|_| code));
    match result {
        Ok(code) => ExitCode::from(code),
        // `hexrune check big.txt | head`: the reader left; end quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(
                err,
                "hexrune: <stdout>: {}",
                hexrune::source::io_message(&e)
            );
            ExitCode::from(EXIT_ERROR)
        }
    }
}
