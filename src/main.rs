//! The `hexrune` binary: parses the command line and dispatches to a mode.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use hexrune::cli::{self, report_error, Args, Config, Input, EXIT_ERROR, EXIT_OK};
use hexrune::source::{io_message, Opening};

fn main() -> ExitCode {
    let config = Args::parse_or_exit().into_config();
    let mut err = io::stderr();
    if let Config::View {
        input,
        dialect,
        color,
        fallback,
        escape,
        lints,
    } = &config
    {
        let options = hexrune::tui::Options {
            dialect: *dialect,
            color: *color,
            fallback: *fallback,
            escape: *escape,
            lints: lints.clone(),
        };
        return ExitCode::from(view(input.as_ref(), options, &mut err));
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let result = match &config {
        Config::Check(options) => cli::check::run(options, &mut out, &mut err),
        Config::At(options) => cli::at::run(options, &mut out, &mut err),
        Config::Detect(options) => cli::detect::run(options, &mut out, &mut err),
        Config::Explain(options) => cli::explain::run(options, &mut out, &mut err),
        Config::Dump(options) => cli::dump::run(options, &mut out, &mut err),
        Config::Repair(options) => cli::repair::run(options, &mut out, &mut err),
        Config::Generate(what) => hexrune::cli::generate(what, &mut out, &mut err),
        Config::View { .. } => unreachable!("handled above"),
    };
    let result = result.and_then(|code| match out.flush() {
        // `hexrune check big.txt | head`: the reader left; end quietly, with the answer.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(code),
        flushed => flushed.map(|()| code),
    });
    match result {
        Ok(code) => ExitCode::from(code),
        // A command that stopped because the reader left: end quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(err, "hexrune: <stdout>: {}", io_message(&e));
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// The interactive inspector on a file, on piped standard input, or on the built-in demo.
/// An input that cannot be opened is reported before the screen is taken over.
fn view(input: Option<&Input>, options: hexrune::tui::Options, err: &mut dyn Write) -> u8 {
    let (name, source) = match input {
        // The keyboard is no input to view: reading it would wait, on a blank line, for
        // keystrokes and Ctrl-D.
        Some(Input::Stdin) if io::stdin().is_terminal() => {
            let _ = writeln!(
                err,
                "hexrune: {}: is a terminal; pipe the bytes in (... | hexrune -) or name a file",
                Input::Stdin.display_name()
            );
            return EXIT_ERROR;
        }
        Some(input) => (input.display_name(), input.open_streaming()),
        None if !io::stdin().is_terminal() => {
            (Input::Stdin.display_name(), Input::Stdin.open_streaming())
        }
        None => (
            String::new(),
            Ok(Opening::Ready(hexrune::cli::demo::source())),
        ),
    };
    let source = match source {
        Ok(source) => source,
        Err(e) => {
            let _ = report_error(err, &name, &e);
            return EXIT_ERROR;
        }
    };
    let path = match input {
        Some(Input::Path(path)) => Some(path.clone()),
        _ => None,
    };
    match hexrune::tui::run_opening(source, options, path) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "hexrune: {}", io_message(&e));
            EXIT_ERROR
        }
    }
}
