//! Text generated from the command-line definition itself, so it cannot drift from it:
//! shell completion scripts (`clap_complete`) and man pages (`clap_mangen`).
//!
//! The man pages in `docs/` are this output, committed: `docs/hexrune.1` for hexrune
//! itself and `docs/hexrune-<command>.1` for each command (the page of hexrune refers to
//! them by those names). A test compares them with what this module generates.
//! Regenerate them with:
//!
//! ```sh
//! cargo run -q -- man > docs/hexrune.1
//! for c in check detect at explain dump repair completions; do cargo run -q -- man $c > docs/hexrune-$c.1; done
//! ```

use std::io::{self, Write};

use clap::CommandFactory;

use super::Args;
use crate::cli::{report_error, EXIT_ERROR, EXIT_OK};
use crate::view::safe::sanitize;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generate {
    /// A completion script for a shell.
    Completions(clap_complete::Shell),
    /// The man page of hexrune (`None`) or of one of its commands.
    Man(Option<String>),
}

/// Writes the generated text to `out`; exit 0, or 2 for a man page of an unknown command.
pub fn generate(what: &Generate, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<u8> {
    let mut cmd = Args::command();
    match what {
        Generate::Completions(shell) => {
            clap_complete::generate(*shell, &mut cmd, "hexrune", out);
            Ok(EXIT_OK)
        }
        Generate::Man(None) => {
            render(man_command(), out)?;
            Ok(EXIT_OK)
        }
        Generate::Man(Some(name)) => match man_command().find_subcommand(name) {
            Some(sub) if !sub.is_hide_set() => {
                render(sub.clone(), out)?;
                Ok(EXIT_OK)
            }
            _ => {
                let cause = format!(
                    "no command '{}' (commands: {})",
                    sanitize(name),
                    page_commands().join(", ")
                );
                report_error(err, "man", &cause)?;
                Ok(EXIT_ERROR)
            }
        },
    }
}

/// Writes the man page of a command, every page footed with hexrune's name and version (a
/// subcommand has no version of its own). The text after the options (`after_help`:
/// examples, tables of values) is laid out in columns, as `--help` shows it: it is kept
/// as typed (`.nf`), not filled and justified into one paragraph.
fn render(cmd: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd)
        .source(concat!("hexrune ", env!("CARGO_PKG_VERSION")))
        .render(&mut page)?;
    out.write_all(&keep_extra_as_typed(&String::from_utf8_lossy(&page)).into_bytes())
}

/// `page` with its `EXTRA` section (clap_mangen's for `after_help`) between `.nf` and
/// `.fi`: no filling, no adjusting, no hyphenation there.
///
/// ```text
/// .SH EXTRA          .SH EXTRA
/// Examples:    ->    .nf
///   hexrune ...      Examples:
/// .SH VERSION          hexrune ...
///                    .fi
///                    .SH VERSION
/// ```
fn keep_extra_as_typed(page: &str) -> String {
    let Some(start) = page.find(".SH EXTRA\n") else {
        return page.to_string();
    };
    let body = start + ".SH EXTRA\n".len();
    let end = page[body..]
        .find("\n.SH ")
        .map_or(page.len(), |k| body + k + 1);
    format!(
        "{}.nf\n{}.fi\n{}",
        &page[..body],
        &page[body..end],
        &page[end..]
    )
}

/// The visible commands, each of which has a man page `hexrune-<command>.1`.
pub fn page_commands() -> Vec<String> {
    man_command()
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .map(|s| s.get_name().to_string())
        .collect()
}

/// The command as the man pages show it: built, so subcommands know their full names
/// (`hexrune-explain`), and without clap's `help` subcommand, which has no page.
fn man_command() -> clap::Command {
    let mut cmd = Args::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

#[cfg(test)]
mod tests {
    use super::keep_extra_as_typed;

    #[test]
    fn the_extra_section_is_kept_as_typed() {
        let page = ".TH x 1\n.SH EXTRA\nExamples:\n  x a    b\n.SH VERSION\nv1\n";
        assert_eq!(
            keep_extra_as_typed(page),
            ".TH x 1\n.SH EXTRA\n.nf\nExamples:\n  x a    b\n.fi\n.SH VERSION\nv1\n"
        );
        // The last section.
        assert_eq!(
            keep_extra_as_typed(".SH EXTRA\nx\n"),
            ".SH EXTRA\n.nf\nx\n.fi\n"
        );
        assert_eq!(keep_extra_as_typed(".SH NAME\nx\n"), ".SH NAME\nx\n");
    }
}
