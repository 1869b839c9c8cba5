//! `hexrune [FILE] [--dialect D]`: the viewer. (The full command line lives on main.)

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use hexrune::decode::Dialect;
use hexrune::source::Source;

#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// The file to inspect; standard input when piped, the built-in demo otherwise.
    file: Option<PathBuf>,
    /// The dialect to decode: utf8, cesu8, mutf8, wtf8 or legacy.
    #[arg(long, short, default_value = "utf8", value_parser = parse_dialect)]
    dialect: Dialect,
}

fn parse_dialect(name: &str) -> Result<Dialect, String> {
    Dialect::from_name(name).ok_or_else(|| format!("unknown dialect: {name}"))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let (name, source) = match &args.file {
        Some(path) => (path.display().to_string(), Source::open(path)),
        None if !std::io::stdin().is_terminal() => ("<stdin>".to_string(), Source::stdin()),
        None => (String::new(), Ok(hexrune::demo::source())),
    };
    let source = match source {
        Ok(source) => source,
        Err(e) => {
            eprintln!("hexrune: {name}: {e}");
            return ExitCode::from(2);
        }
    };
    match hexrune::tui::run(source, args.dialect) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexrune: {}", hexrune::source::io_message(&e));
            ExitCode::from(2)
        }
    }
}
