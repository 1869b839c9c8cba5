//! The command line: clap's derive at the edge only. [`Args`] is parsed once and turned into
//! a plain [`Config`]; nothing else in hexrune sees clap.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand};

use super::at::AtOptions;
use super::check::{CheckOptions, Format};
use super::detect::DetectOptions;
use super::dump::{self, DumpOptions};
use super::explain::{ExplainOptions, Query};
use super::repair::{FromArg, RepairOptions, Target};
use super::walk::Walk;
use super::wire::Invocation;
use super::Input;
use crate::decode::Dialect;
use crate::lint::{Lints, Target as LintTarget};
use crate::repair::{Bom, Invalid, Policy};
use crate::view::fallback::{Escape, Fallback};
use crate::view::theme::ColorChoice;

use super::generate::Generate;

const FALLBACK_HELP: &str = "Also read each error unit in this legacy encoding: a WHATWG label (windows-1252, iso-8859-2, koi8-r, shift_jis, ...), ibm437, ibm850, or none";

const ESCAPE_HELP: &str = "Show each invalid byte b as the code point an escaping codec writes: pep383 (U+DC00+b, Python's surrogateescape) or optu8 (U+EF00+b)";

const DIALECT_HELP: &str =
    "Dialect: utf8 (RFC 3629), cesu8 (TR #26), mutf8 (Java Modified UTF-8), wtf8, legacy (RFC 2279), utf16le, utf16be, utf32le, utf32be";

const ENCODING_HELP: &str = "Read the input as this encoding: a dialect name, any WHATWG label (windows-1252, latin2, koi8-r, utf-16le, shift_jis, euc-kr, gbk, big5, ...), UTF-32LE/BE, IBM437, IBM850 (see docs/encodings.md)";

/// hexrune: inspect the UTF-8 byte structure of a file.
#[derive(Debug, Parser)]
#[command(
    name = "hexrune",
    bin_name = "hexrune",
    version,
    about = "A terminal inspector for UTF-8 byte structure",
    long_about = "A terminal inspector for UTF-8 byte structure: raw bytes, decoded code points, \
a marker on every error and the sequence length class of every byte, in the UTF-8 family's \
dialects (UTF-8, CESU-8, Modified UTF-8, WTF-8, RFC 2279), and with --encoding in UTF-16, UTF-32, \
the single-byte and multi-byte legacy encodings. In the viewer, ? lists the keys (e chooses the encoding).",
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  hexrune check notes.txt          is it valid UTF-8? where are the errors?\n  hexrune check --json *.log       JSON Lines: each file's SHA-256, its errors, a summary\n  hexrune at dump.bin 0x1f3a       the unit containing offset 0x1f3a, as JSON\n  hexrune check -d cesu8 db.txt    validate CESU-8\n  hexrune -e utf-16le export.csv   view a file as UTF-16LE (any WHATWG label works)\n  hexrune explain e2 82 ac         the bits, roles and units of three bytes in every dialect\n  hexrune explain --char U+1F600   how one character is encoded, bit by bit\n  hexrune dump notes.txt           the viewer's panes as text, a marker under every error\n  hexrune detect *.csv             UTF-8, UTF-16, windows-1252 or binary? mojibake?\n  hexrune repair a.txt -o b.txt    a repaired copy of a.txt: U+FFFD for each error unit\n  hexrune completions bash         a completion script for your shell"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,

    /// File to inspect (`-` reads standard input; none opens the built-in demo)
    file: Option<PathBuf>,

    #[arg(short, long, value_name = "D", default_value = "utf8", value_parser = DialectParser, hide_possible_values = true, help = DIALECT_HELP)]
    dialect: Dialect,

    #[arg(short, long, value_name = "LABEL", value_parser = EncodingParser, conflicts_with = "dialect", help = ENCODING_HELP)]
    encoding: Option<Dialect>,

    /// When the viewer uses colours: auto (unless NO_COLOR is set or TERM is dumb), always, never
    #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = color_parser())]
    color: ColorChoice,

    #[arg(long, value_name = "LABEL", default_value = "windows-1252", value_parser = parse_fallback, help = FALLBACK_HELP)]
    fallback: FallbackArg,

    #[arg(long, value_name = "SCHEME", value_parser = parse_escape, help = ESCAPE_HELP)]
    escape: Option<Escape>,

    /// Mark what a storage target refuses (as check --target does): mysql-utf8mb3, postgres, xml-1.0, xml-1.1, json, i-json (repeat it or give a comma list; } and { step through the findings, T changes them)
    #[arg(long, value_name = "T", value_delimiter = ',', action = clap::ArgAction::Append, value_parser = parse_target)]
    target: Vec<LintTarget>,

    /// Mark security shapes (as check --security does): overlong ASCII, bidi controls, invisible characters, mixed-script words, Zalgo
    #[arg(long)]
    security: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check whether inputs are valid; list and count every error
    #[command(
        after_help = "Exit status: 0 if every input is valid, 1 if any is not (or, with --target or --security, has a lint finding of level error or warning; a U+FFFD already in the input is listed as a warning and leaves the status alone), 2 on a usage or I/O error (under -r, an unreadable file: 2 wins over 1).\n\nExamples:\n  hexrune check notes.txt\n  cat dump.txt | hexrune check\n  hexrune check --json --dialect mutf8 classes/*.bin\n  hexrune check -r src/\n  hexrune check -r --sarif . > utf8.sarif\n  hexrune check --csv *.log > findings.csv\n  hexrune check --security --target mysql-utf8mb3,xml-1.0 dump.sql"
    )]
    Check {
        #[arg(short, long, value_name = "D", default_value = "utf8", value_parser = DialectParser, hide_possible_values = true, help = DIALECT_HELP)]
        dialect: Dialect,

        #[arg(short, long, value_name = "LABEL", value_parser = EncodingParser, conflicts_with = "dialect", help = ENCODING_HELP)]
        encoding: Option<Dialect>,

        /// Print JSON Lines: per input an input record (size, SHA-256, mtime), one object per error unit and finding, then a summary
        #[arg(long, group = "format")]
        json: bool,

        /// Print CSV: a header, then one row per error unit and finding
        #[arg(long, group = "format")]
        csv: bool,

        /// Print one SARIF 2.1.0 log: one result per error unit and finding, each input an artifact with its SHA-256
        #[arg(long, group = "format")]
        sarif: bool,

        /// List every error (human output lists the first 20 per input)
        #[arg(long)]
        all: bool,

        #[arg(long, value_name = "LABEL", default_value = "windows-1252", value_parser = parse_fallback, help = FALLBACK_HELP)]
        fallback: FallbackArg,

        /// Check every file under each directory (files in parallel, reported in path order)
        #[arg(short, long)]
        recursive: bool,

        /// With -r: also check files that the tree's .gitignore files or .git/info/exclude leave out
        #[arg(long, requires = "recursive")]
        no_ignore: bool,

        /// With -r: also check hidden files and enter hidden directories
        #[arg(long, requires = "recursive")]
        hidden: bool,

        /// Also report what a storage target refuses: mysql-utf8mb3, postgres, xml-1.0, xml-1.1, json, i-json (repeat it or give a comma list)
        #[arg(long, value_name = "T", value_delimiter = ',', action = clap::ArgAction::Append, value_parser = parse_target)]
        target: Vec<LintTarget>,

        /// Also report security shapes: overlong ASCII, bidi controls (unpaired ones as in Trojan Source), invisible characters, mixed-script words, Zalgo
        #[arg(long)]
        security: bool,

        /// Files to check (`-` or none: standard input); with -r, directories (or files) to walk
        files: Vec<PathBuf>,
    },
    /// Say what each input most likely is: UTF-8, UTF-16/32, a legacy encoding or binary; BOMs, regions, mojibake
    #[command(
        long_about = "Say what each input most likely is: UTF-8 (with how many errors), UTF-16LE/BE or \
UTF-32LE/BE (by byte order mark, by where the zero bytes are if the units read as text, or by \
decoding text of any script; without any zero byte, only UTF-16 whose high bytes are controls, \
as Greek, Cyrillic, Hebrew and Arabic have), \
CESU-8, Modified UTF-8, WTF-8 or RFC 2279 (where check calls the input valid in that dialect), a legacy encoding as chardetng guesses it (or macintosh, IBM437, IBM850, \
IBM866 or KOI8-R where box drawing and letters say so), the encoding the input declares (an XML \
declaration, an HTML meta charset, a coding cookie, a CSS @charset) where its bytes are not UTF-8 \
and decode in it, or binary. Also the byte order mark or signature found (UTF-8, UTF-16, UTF-32, UTF-7, \
GB18030), U+FEFF found after the start, the regions of an input that mixes encodings, and mojibake: \
UTF-8 text that was read as windows-1252 (or ISO-8859-1, ISO-8859-15, windows-1250/1251/1253/\
1254/1257, ISO-8859-2, macintosh, IBM437, IBM850, IBM866, KOI8-R, KOI8-U, windows-1255/1256, \
windows-874) and written again, with the chain that undoes it and the repaired \
text. A valid UTF-8 input with at most 1% controls (NUL included) and no zero bytes where \
UTF-16 or UTF-32 puts them is always called UTF-8; so is one with any number of NUL bytes \
when each ends a record of text (find -print0, xargs -0): none at the start or after \
another, and no other control; and one whose NUL bytes pad it, as a crash or a \
preallocation leaves them in a log: runs of 16 or more, a line between each two.",
        after_help = "Exit status: 0, or 2 if an input could not be read.\n\nExamples:\n  hexrune detect notes.txt\n  hexrune detect --json *.csv\n  cat export.txt | hexrune detect"
    )]
    Detect {
        /// Print JSON Lines: one object per input
        #[arg(long)]
        json: bool,

        /// Files to look at (`-` or none: standard input)
        files: Vec<PathBuf>,
    },
    /// Print the unit containing a byte offset, as one JSON object
    #[command(
        after_help = "Examples:\n  hexrune at notes.txt 1234\n  hexrune at --dialect cesu8 db.txt 0x1f3a"
    )]
    At {
        #[arg(short, long, value_name = "D", default_value = "utf8", value_parser = DialectParser, hide_possible_values = true, help = DIALECT_HELP)]
        dialect: Dialect,

        #[arg(short, long, value_name = "LABEL", value_parser = EncodingParser, conflicts_with = "dialect", help = ENCODING_HELP)]
        encoding: Option<Dialect>,

        /// File to read (`-`: standard input)
        file: PathBuf,

        /// Byte offset, decimal or 0x-prefixed hex
        // A negative number reaches `parse_offset`, which says offsets have no sign.
        #[arg(value_parser = parse_offset, allow_negative_numbers = true)]
        offset: u64,

        #[arg(long, value_name = "LABEL", default_value = "windows-1252", value_parser = parse_fallback, help = FALLBACK_HELP)]
        fallback: FallbackArg,
    },
    /// Explain bytes (in hex), one character, or text's grapheme clusters
    #[command(
        long_about = "Explain bytes written in hex: each byte in hex, decimal, octal and binary (marker \
bits, then payload bits), its role, and the units every dialect (utf8, cesu8, mutf8, wtf8, \
legacy) cuts the bytes into, with names of characters and diagnoses of errors. With --char, \
explain one code point instead: how each dialect and UTF-16 write it, bit by bit. Given \
text (an argument that is not ASCII), break it into grapheme clusters and each cluster into \
its code points, with the rule of UAX #29 that joins them; bytes whose code points join get \
the same breakdown. An argument that is not UTF-8 (as $'\\xe9') is explained as its bytes, \
exactly as their hex spelling.",
        after_help = "Bytes: pairs of hex digits in any case, alone or after \\x or 0x, separated by spaces or \
commas or not at all. Quote \\x escapes so the shell keeps the backslashes.\n\n\
Examples:\n  hexrune explain e2 82 ac\n  hexrune explain 'c0 af'\n  hexrune explain '\\xed\\xa0\\xbd\\xed\\xb8\\x80'\n  \
hexrune explain 0xF8 0x88 0x80 0x80 0x80\n  hexrune explain --char €\n  hexrune explain --char U+1F600\n  \
hexrune explain --json --char U+D800\n  hexrune explain 🇫🇷",
        group(clap::ArgGroup::new("what").required(true).args(["bytes", "char"]))
    )]
    Explain {
        /// Bytes in hex: e2 82 ac, e282ac, \xe2\x82\xac, 0xE2 0x82 0xAC, %E2%82%AC; or text (not ASCII)
        #[arg(value_name = "BYTES", value_parser = clap::value_parser!(OsString))]
        bytes: Vec<OsString>,

        /// Explain one code point instead: a single character, or U+XXXX (up to U+7FFFFFFF)
        #[arg(short, long = "char", value_name = "C", value_parser = clap::value_parser!(OsString))]
        char: Option<OsString>,

        /// Print one JSON object
        #[arg(long)]
        json: bool,

        #[arg(long, value_name = "LABEL", default_value = "windows-1252", value_parser = parse_fallback, help = FALLBACK_HELP)]
        fallback: FallbackArg,
    },
    /// Print the viewer's panes as text: offset, hex, class lane, text, error markers
    #[command(
        long_about = "Print the viewer's panes as text: the offset, the bytes in hex coloured by role, \
the class lane, the decoded text with the viewer's safe placeholders, and under every row that \
holds an error a marker line naming each error's kind. Streams over inputs of any size, \
standard input included.",
        after_help = "Examples:\n  hexrune dump notes.txt\n  hexrune dump --offset 0x1b --length 32 notes.txt\n  \
cat db.txt | hexrune dump --dialect cesu8 --width 8\n  hexrune dump --ascii --color never big.log | head"
    )]
    Dump {
        #[arg(short, long, value_name = "D", default_value = "utf8", value_parser = DialectParser, hide_possible_values = true, help = DIALECT_HELP)]
        dialect: Dialect,

        #[arg(short, long, value_name = "LABEL", value_parser = EncodingParser, conflicts_with = "dialect", help = ENCODING_HELP)]
        encoding: Option<Dialect>,

        /// First byte to print, decimal or 0x-prefixed hex (inside a character: decoded from its start)
        #[arg(short, long, value_name = "N", default_value = "0", value_parser = parse_offset, allow_negative_numbers = true)]
        offset: u64,

        /// How many bytes to print, decimal or 0x-prefixed hex (default: to the end)
        #[arg(short = 'n', long, value_name = "N", value_parser = parse_offset, allow_negative_numbers = true)]
        length: Option<u64>,

        /// Bytes per row
        #[arg(short, long, value_name = "N", default_value = "16", value_parser = width_parser())]
        width: usize,

        /// When to colour: auto (a terminal, unless NO_COLOR is set or TERM is dumb), always, never
        #[arg(long, value_name = "WHEN", default_value = "auto", value_parser = color_parser())]
        color: ColorChoice,

        /// Print only ASCII (stand-ins for every other symbol; see docs/dump.md)
        #[arg(long)]
        ascii: bool,

        #[arg(long, value_name = "LABEL", default_value = "windows-1252", value_parser = parse_fallback, help = FALLBACK_HELP)]
        fallback: FallbackArg,

        #[arg(long, value_name = "SCHEME", value_parser = parse_escape, help = ESCAPE_HELP)]
        escape: Option<Escape>,

        /// Under each row where a grapheme cluster of several code points lies (a flag, an emoji sequence, a letter and its marks), a line that brackets its bytes
        #[arg(long)]
        clusters: bool,

        /// File to print (`-` or none: standard input)
        file: Option<PathBuf>,
    },
    /// Write a repaired copy of an input: error units replaced (or dropped, read in a legacy encoding, escaped), escapes undone, a dialect rewritten as UTF-8, BOMs handled; the input is never written
    #[command(
        long_about = "Write a repaired copy of IN to OUT. Each error unit (a maximal subpart, as hexrune \
shows them) follows --invalid; --unescape turns the escapes of an escaping codec back into \
bytes; --dialect reads IN in a dialect of the UTF-8 family and writes standard UTF-8; --bom \
keeps, strips or adds a byte order mark. IN is never written: OUT may not be IN (by device \
and inode, through links), an existing OUT is refused unless --force, and OUT is written to a \
temporary file beside it and renamed into place when complete (an error or Ctrl-C leaves \
nothing). A summary of the changes goes to stderr; --log writes each change as JSON Lines. \
See docs/repair.md.",
        after_help = "Policies of --invalid (default replace):\n  replace           one U+FFFD per error unit\n  drop              nothing\n  \
fallback[=LABEL]  the bytes read in a single-byte legacy encoding (LABEL, by default\n                    \
windows-1252), U+FFFD for a byte it leaves undefined\n  \
escape=optu8      U+EF00+b per byte (valid UTF-8, reversible)\n  escape=pep383     U+DC00+b per byte in WTF-8 (Python's surrogateescape; not UTF-8)\n  \
keep              the bytes as they are\n\nExit status: 0 when OUT was written, 2 on any error.\n\n\
Examples:\n  hexrune repair notes.txt -o fixed.txt\n  hexrune repair --invalid fallback=windows-1252 old.csv -o new.csv\n  \
hexrune repair --invalid escape=optu8 names.bin -o names.txt --log changes.jsonl\n  \
hexrune repair --unescape optu8 names.txt -o names.bin\n  hexrune repair --dialect cesu8 db.txt -o db-utf8.txt\n  \
cat in.txt | hexrune repair --bom strip - -o -"
    )]
    Repair {
        /// File to repair (`-`: standard input); never written
        #[arg(value_name = "IN")]
        file: PathBuf,

        /// Where to write the repaired copy (`-`: standard output)
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,

        /// Replace OUT (and the log) if it exists
        #[arg(long)]
        force: bool,

        /// What an error unit becomes: replace, drop, fallback[=LABEL], escape=optu8, escape=pep383, keep [default: replace; keep with --unescape]
        #[arg(long, value_name = "POLICY", value_parser = Invalid::parse)]
        invalid: Option<Invalid>,

        /// Turn the escapes of a codec back into the bytes they stand for: optu8 (U+EF80..U+EFFF) or pep383 (U+DC80..U+DCFF)
        #[arg(long, value_name = "SCHEME", value_parser = parse_escape)]
        unescape: Option<Escape>,

        /// Read IN in this dialect (utf8, cesu8, mutf8, wtf8, legacy) and write standard UTF-8; lone surrogates and values above U+10FFFF follow --invalid
        #[arg(short, long, value_name = "D", default_value = "utf8", value_parser = parse_family_dialect)]
        dialect: Dialect,

        /// Byte order mark: keep, strip (at the start and in mid-file), add (at the start)
        #[arg(long, value_name = "WHAT", default_value = "keep", value_parser = bom_parser())]
        bom: Bom,

        /// Write every change as JSON Lines to this file (a first record with both files' sizes and SHA-256, and under --from the encoding IN was read as and who chose it); `-`: standard output, when OUT is a file
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,

        /// IN is in this encoding (any WHATWG label such as windows-1252, utf-16le, shift_jis; UTF-32LE/BE; IBM437, IBM850; auto: what detect finds); a BOM at the start (UTF-8, UTF-16, UTF-32) overrides any label that names another encoding, as WHATWG decoding does; OUT is UTF-8, undecodable units follow --invalid
        #[arg(long, value_name = "LABEL", value_parser = FromArg::parse)]
        from: Option<FromArg>,

        /// Undo the mojibake detect finds (UTF-8 read as a legacy encoding and written again); only those regions change
        #[arg(long)]
        mojibake: bool,
    },
    /// Print a completion script for a shell
    #[command(
        after_help = "Examples:\n  hexrune completions bash > ~/.local/share/bash-completion/completions/hexrune\n  \
hexrune completions zsh > ~/.zfunc/_hexrune\n  hexrune completions fish > ~/.config/fish/completions/hexrune.fish"
    )]
    Completions {
        /// The shell
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a man page in roff, generated from this command line (docs/hexrune.1 is its output)
    #[command(hide = true)]
    Man {
        /// The command whose page to print (none: the page of hexrune itself)
        command: Option<String>,
    },
}

/// What hexrune was asked to do, free of clap.
#[derive(Debug)]
pub enum Config {
    /// Open the interactive inspector on a file, stdin, or the demo (`None`).
    View {
        /// The input; `None` opens the built-in demo.
        input: Option<Input>,
        /// The dialect to start in.
        dialect: Dialect,
        /// When to use colours.
        color: ColorChoice,
        /// The encoding error units are also read in (`None`: `--fallback none`).
        fallback: Option<Fallback>,
        /// How invalid bytes are shown in the text pane, if escaped.
        escape: Option<Escape>,
        /// The lints whose findings the viewer marks (`--target`, `--security`).
        lints: Lints,
    },
    /// `hexrune check`.
    Check(CheckOptions),
    /// `hexrune at`.
    At(AtOptions),
    /// `hexrune detect`.
    Detect(DetectOptions),
    /// `hexrune explain`.
    Explain(ExplainOptions),
    /// `hexrune dump`.
    Dump(DumpOptions),
    /// `hexrune repair`.
    Repair(RepairOptions),
    /// `hexrune completions` and `hexrune man`: text generated from the command line itself.
    Generate(Generate),
}

impl Args {
    /// Turns the parsed arguments into a [`Config`].
    pub fn into_config(self) -> Config {
        match self.command {
            None => Config::View {
                input: self.file.map(Input::from_arg),
                // The viewer can switch to another encoding: it asks for each unit.
                dialect: self.encoding.unwrap_or(self.dialect),
                color: self.color,
                fallback: self.fallback.0,
                escape: self.escape,
                lints: lints(self.target, self.security),
            },
            Some(Command::Check {
                dialect,
                encoding,
                json,
                csv,
                sarif,
                all,
                files,
                fallback,
                recursive,
                no_ignore,
                hidden,
                target,
                security,
            }) => Config::Check(CheckOptions {
                dialect: encoding.unwrap_or(dialect),
                format: match (json, csv, sarif) {
                    (true, _, _) => Format::Json,
                    (_, true, _) => Format::Csv,
                    (_, _, true) => Format::Sarif,
                    _ => Format::Human,
                },
                all,
                inputs: if recursive && files.is_empty() {
                    vec![Input::Path(PathBuf::from("."))]
                } else {
                    inputs(files)
                },
                threads: threads(),
                fallback: fallback.reading(encoding.unwrap_or(dialect)),
                walk: recursive.then_some(Walk { no_ignore, hidden }),
                invocation: Invocation::of_process(),
                lints: lints(target, security),
            }),
            Some(Command::Detect { json, files }) => Config::Detect(DetectOptions {
                json,
                inputs: inputs(files),
                threads: threads(),
            }),
            Some(Command::At {
                dialect,
                encoding,
                file,
                offset,
                fallback,
            }) => Config::At(AtOptions {
                dialect: encoding.unwrap_or(dialect),
                input: Input::from_arg(file),
                offset,
                fallback: fallback.reading(encoding.unwrap_or(dialect)),
            }),
            Some(Command::Explain {
                bytes,
                char,
                json,
                fallback,
            }) => Config::Explain(ExplainOptions {
                query: explain_query(bytes, char),
                json,
                fallback: fallback.0,
            }),
            Some(Command::Dump {
                dialect,
                encoding,
                offset,
                length,
                width,
                color,
                ascii,
                fallback,
                escape,
                clusters,
                file,
            }) => Config::Dump(DumpOptions {
                input: file.map_or(Input::Stdin, Input::from_arg),
                offset,
                length,
                color,
                format: dump::Format {
                    dialect: encoding.unwrap_or(dialect),
                    width,
                    color: false,
                    ascii,
                    fallback: fallback.reading(encoding.unwrap_or(dialect)),
                    escape,
                    clusters,
                },
            }),
            Some(Command::Repair {
                file,
                output,
                force,
                invalid,
                unescape,
                dialect,
                bom,
                log,
                from,
                mojibake,
            }) => Config::Repair(RepairOptions {
                input: Input::from_arg(file),
                output: Target::from_arg(output),
                force,
                log: log.map(Target::from_arg),
                from_label: from.as_ref().map(|f| f.label.clone()),
                policy: Policy {
                    invalid: invalid.unwrap_or(match unescape {
                        Some(_) => Invalid::Keep,
                        None => Invalid::Replace,
                    }),
                    unescape,
                    dialect,
                    bom,
                    from: from.map(|f| f.encoding),
                    mojibake,
                },
            }),
            Some(Command::Completions { shell }) => Config::Generate(Generate::Completions(shell)),
            Some(Command::Man { command }) => Config::Generate(Generate::Man(command)),
        }
    }
}

impl Args {
    /// The command line of this process, parsed; on a usage error, the error with the usage
    /// line of the command at fault ([`with_usage`]), printed as clap prints it, and exit 2.
    /// `--help` and `--version` print and exit 0, or, where standard output cannot take
    /// them (`stdout_closed` when the process started: `>&-`; a full disk), say so on one
    /// line and exit 2, as every command does.
    pub fn parse_or_exit(stdout_closed: bool) -> Args {
        let argv: Vec<OsString> = std::env::args_os().collect();
        Args::try_parse_from(&argv)
            .and_then(Args::not_a_mistyped_command)
            .and_then(Args::read_once)
            .unwrap_or_else(|e| {
                let e = with_usage(e, &argv);
                if e.exit_code() == 0 {
                    std::process::exit(print_shown(&e, stdout_closed).into());
                }
                e.exit()
            })
    }

    /// Refuses an input that can be read only once named twice: standard input (`check - -`,
    /// or `-` and `/dev/stdin`), or a pipe or FIFO by two names ([`super::input::named_twice`]):
    /// the second name would report an empty input that was never examined.
    fn read_once(self) -> Result<Args, clap::Error> {
        let (name, files) = match &self.command {
            // A walk reads no stream: it skips pipes and FIFOs, and refuses `-` itself.
            Some(Command::Check {
                recursive: true, ..
            }) => return Ok(self),
            Some(Command::Check { files, .. }) => ("check", files),
            Some(Command::Detect { files, .. }) => ("detect", files),
            _ => return Ok(self),
        };
        let Some(message) = super::input::named_twice(files) else {
            return Ok(self);
        };
        let kind = clap::error::ErrorKind::ArgumentConflict;
        // The command's own usage line, as clap gives with its own errors.
        let mut command = Args::command();
        command.build();
        Err(match command.find_subcommand_mut(name) {
            Some(sub) => sub.error(kind, message),
            None => Args::command().error(kind, message),
        })
    }

    /// The viewer's one file, unless it does not exist and its name is close to a command's
    /// (`hexrune chek`): then the error clap gives for an unknown command, with the tip.
    ///
    /// clap cannot tell these apart itself: with a positional file beside the subcommands,
    /// any word that is not a command is taken for the file.
    fn not_a_mistyped_command(self) -> Result<Args, clap::Error> {
        let (None, Some(file)) = (&self.command, &self.file) else {
            return Ok(self);
        };
        let Some(word) = file.to_str() else {
            return Ok(self);
        };
        if word == "-" || word.contains(std::path::is_separator) || file.symlink_metadata().is_ok()
        {
            return Ok(self);
        }
        let command = Args::command();
        let similar = command
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name())
            .map(|name| (strsim::jaro(word, name), name))
            .filter(|(confidence, _)| *confidence > 0.7)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match similar {
            Some((_, name)) => Err(Args::command().error(
                clap::error::ErrorKind::InvalidSubcommand,
                format!(
                    "unrecognized subcommand '{}'\n\n  tip: a similar subcommand exists: '{name}'",
                    crate::view::safe::sanitize(word)
                ),
            )),
            None => Ok(self),
        }
    }
}

/// Prints the help or version text clap made (`shown`, with clap's styles where standard
/// output is a terminal and clap would colour it); the exit status: 0, or 2 with the cause
/// on stderr where standard output cannot take it. A reader that left (`| head`) is no
/// failure.
fn print_shown(shown: &clap::Error, stdout_closed: bool) -> u8 {
    use std::io::{IsTerminal, Write};
    let rendered = shown.render();
    let styled = ColorChoice::Auto.enabled_here(std::io::stdout().is_terminal());
    let text = match styled {
        true => rendered.ansi().to_string(),
        false => rendered.to_string(),
    };
    let written = match stdout_closed {
        true => Err(std::io::Error::from_raw_os_error(libc::EBADF)),
        false => super::stdout_writable().and_then(|()| {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }),
    };
    match written {
        Ok(()) => super::EXIT_OK,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => super::EXIT_OK,
        Err(e) => {
            let cause = crate::source::io_message(&e);
            let _ = writeln!(std::io::stderr(), "hexrune: <stdout>: {cause}");
            super::EXIT_ERROR
        }
    }
}

/// `explain`'s arguments as a [`Query`]: text where the shell passed UTF-8, else the bytes
/// as they are (arguments joined by a space, as text arguments are).
fn explain_query(bytes: Vec<OsString>, char: Option<OsString>) -> Query {
    if let Some(c) = char {
        return match c.into_string() {
            Ok(text) => Query::Char(text),
            Err(raw) => Query::RawChar(os_bytes(raw)),
        };
    }
    let texts: Result<Vec<String>, OsString> =
        bytes.iter().map(|a| a.clone().into_string()).collect();
    match texts {
        Ok(texts) => Query::Bytes(texts.join(" ")),
        Err(_) => {
            let raw: Vec<Vec<u8>> = bytes.into_iter().map(os_bytes).collect();
            Query::Raw(raw.join(&b' '))
        }
    }
}

/// The bytes of an argument as the operating system passed them (on Unix, exactly;
/// elsewhere lossily, where arguments are UTF-16 and rarely invalid).
fn os_bytes(arg: OsString) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        arg.into_vec()
    }
    #[cfg(not(unix))]
    {
        arg.to_string_lossy().into_owned().into_bytes()
    }
}

/// `error` from parsing `argv`, said in hexrune's words where clap's would mislead, and with
/// the usage line of the command at fault where clap leaves it out (as for a value it does
/// not accept).
///
/// The command at fault is the subcommand clap itself finds in `argv` when told to parse
/// past errors, never a second reading of `argv` by hand.
pub fn with_usage(error: clap::Error, argv: &[OsString]) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let shown = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if shown {
        return error;
    }
    if let Some(second) = second_file(&error) {
        return Args::command().error(
            ErrorKind::TooManyValues,
            format!(
                "the viewer takes one file ('{}' is a second one); to check several: hexrune check FILE...",
                crate::cli::report::safe_name(&second)
            ),
        );
    }
    let mut command = Args::command();
    let at_fault = command
        .clone()
        .ignore_errors(true)
        .try_get_matches_from(argv)
        .ok()
        .and_then(|m| m.subcommand_name().map(str::to_string));
    command.build();
    // clap cannot say which argument: say what must be UTF-8 and what need not.
    if error.kind() == ErrorKind::InvalidUtf8 {
        let message = "an argument is not UTF-8: offsets, labels and option values are \
                       text; a file name may be any bytes, and explain takes bytes as hex or \
                       as the shell passes them";
        return match at_fault
            .as_deref()
            .and_then(|n| command.find_subcommand_mut(n))
        {
            Some(sub) => sub.error(ErrorKind::InvalidUtf8, message),
            None => command.error(ErrorKind::InvalidUtf8, message),
        };
    }
    let error = with_values_shown_safely(error);
    if error.get(ContextKind::Usage).is_some() {
        return error;
    }
    let usage =
        at_fault.and_then(|name| command.find_subcommand_mut(&name).map(|s| s.render_usage()));
    let usage = usage.unwrap_or_else(|| command.render_usage());
    let mut error = error;
    error.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    error
}

/// `error` with the words of the command line it quotes (an argument it does not know, a
/// value it refuses, a command) passed through the sanitiser: clap would print them as
/// they are, escape sequences and bidi controls included, on a terminal (and strip the
/// sequences from them elsewhere, misquoting them).
fn with_values_shown_safely(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let quoted = [
        ContextKind::InvalidArg,
        ContextKind::InvalidValue,
        ContextKind::InvalidSubcommand,
        ContextKind::PriorArg,
    ];
    for kind in quoted {
        if let Some(ContextValue::String(text)) = error.get(kind) {
            let safe = crate::view::safe::sanitize(text);
            error.insert(kind, ContextValue::String(safe));
        }
    }
    // The tip after the error quotes the argument again (`to pass '--x' as a value, use
    // '-- --x'`), where a file name a shell glob made an argument brings its escape
    // sequences: said again with the argument as the error line shows it, every other tip
    // without what a terminal would read as a sequence.
    if let Some(ContextValue::StyledStrs(tips)) = error.get(ContextKind::Suggested) {
        let arg = match error.get(ContextKind::InvalidArg) {
            Some(ContextValue::String(arg)) => Some(arg.clone()),
            _ => None,
        };
        let safe = tips
            .iter()
            .map(|tip| {
                let plain = tip.to_string();
                match &arg {
                    Some(arg) if plain.starts_with("to pass '") => {
                        format!("to pass '{arg}' as a value, use '-- {arg}'").into()
                    }
                    _ => crate::view::safe::sanitize(&plain).into(),
                }
            })
            .collect();
        error.insert(ContextKind::Suggested, ContextValue::StyledStrs(safe));
    }
    error
}

/// The word clap took for a subcommand after the viewer's file (`hexrune a.txt b.txt`).
fn second_file(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::ArgumentConflict {
        return None;
    }
    let prior = match error.get(ContextKind::PriorArg)? {
        ContextValue::String(s) => s.as_str(),
        _ => return None,
    };
    match error.get(ContextKind::InvalidSubcommand)? {
        ContextValue::String(sub) if prior == "[FILE]" => Some(sub.clone()),
        _ => None,
    }
}

/// Parses a dialect by any of its names ([`Dialect::from_name`]), and offers the canonical
/// ones to completions.
#[derive(Clone, Copy, Debug)]
struct DialectParser;

impl clap::builder::TypedValueParser for DialectParser {
    type Value = Dialect;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Dialect, clap::Error> {
        parse_dialect.parse_ref(command, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            Dialect::ALL
                .iter()
                .map(|d| clap::builder::PossibleValue::new(d.name())),
        ))
    }
}

/// Parses an encoding label ([`crate::encoding::resolve`]) into the dialect that reads it.
#[derive(Clone, Copy, Debug)]
struct EncodingParser;

impl clap::builder::TypedValueParser for EncodingParser {
    type Value = Dialect;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Dialect, clap::Error> {
        let parse =
            |text: &str| crate::encoding::resolve(text).map_err(crate::view::safe::encoding_error);
        parse.parse_ref(command, arg, value)
    }
}

/// `auto`, `always` or `never`, as a [`ColorChoice`].
fn color_parser() -> impl clap::builder::TypedValueParser<Value = ColorChoice> {
    use clap::builder::TypedValueParser as _;
    // The listed names are exactly the ones `from_name` knows.
    clap::builder::PossibleValuesParser::new(ColorChoice::NAMES)
        .map(|name| ColorChoice::from_name(&name).unwrap_or_default())
}

/// `keep`, `strip` or `add`, as a [`Bom`].
fn bom_parser() -> impl clap::builder::TypedValueParser<Value = Bom> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["keep", "strip", "add"])
        .map(|name| Bom::from_name(&name).unwrap_or_default())
}

/// A row width `dump` accepts, in bytes.
fn width_parser() -> impl clap::builder::TypedValueParser<Value = usize> {
    use clap::builder::TypedValueParser as _;
    // The names of `dump::WIDTHS`.
    clap::builder::PossibleValuesParser::new(["8", "16", "32"]).map(|w| w.parse().unwrap_or(16))
}

/// `--fallback LABEL`: an encoding, or `none`.
#[derive(Clone, Copy, Debug)]
struct FallbackArg(Option<Fallback>);

impl FallbackArg {
    /// The fallback for a command that reads in `dialect`: none where its error units are
    /// not bytes another encoding could have written ([`Fallback::reads_errors_of`]).
    fn reading(self, dialect: Dialect) -> Option<Fallback> {
        self.0.filter(|_| Fallback::reads_errors_of(dialect))
    }
}

/// The inputs of a command that takes several files: standard input when none is named.
fn inputs(files: Vec<PathBuf>) -> Vec<Input> {
    if files.is_empty() {
        vec![Input::Stdin]
    } else {
        files.into_iter().map(Input::from_arg).collect()
    }
}

/// The worker threads of a command that checks several inputs or one large one.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn parse_target(text: &str) -> Result<LintTarget, String> {
    LintTarget::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = LintTarget::ALL.iter().map(|t| t.name()).collect();
        match text.is_empty() {
            // `json,` or `json,,xml-1.0`: the list is split at commas before this.
            true => format!(
                "an empty name in the list (a comma at its start or end, or two in a row); expected {}",
                names.join(", ")
            ),
            false => format!(
                "unknown target '{}' (expected {})",
                crate::view::safe::sanitize(text),
                names.join(", ")
            ),
        }
    })
}

/// The lints of `--target` (each once, in [`LintTarget::ALL`] order) and `--security`.
fn lints(mut targets: Vec<LintTarget>, security: bool) -> Lints {
    targets.sort();
    targets.dedup();
    Lints { targets, security }
}

fn parse_fallback(text: &str) -> Result<FallbackArg, String> {
    Fallback::from_label(text)
        .map(FallbackArg)
        .map_err(|e| e.to_string())
}

fn parse_escape(text: &str) -> Result<Escape, String> {
    Escape::from_name(text).ok_or_else(|| {
        format!(
            "unknown escape '{}' (expected pep383 or optu8)",
            crate::view::safe::sanitize(text)
        )
    })
}

fn parse_dialect(text: &str) -> Result<Dialect, String> {
    Dialect::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        format!(
            "unknown dialect '{}' (expected one of {})",
            crate::view::safe::sanitize(text),
            names.join(", ")
        )
    })
}

/// Parses a dialect of the UTF-8 family, the ones `repair` rewrites as UTF-8 byte runs.
fn parse_family_dialect(text: &str) -> Result<Dialect, String> {
    let names: Vec<&str> = Dialect::UTF8_FAMILY.iter().map(|d| d.name()).collect();
    match Dialect::from_name(text) {
        Some(d) if Dialect::UTF8_FAMILY.contains(&d) => Ok(d),
        Some(d) => Err(format!(
            "--dialect is for the UTF-8 family ({}); {} is another encoding: give --from {} \
             to convert it to UTF-8",
            names.join(", "),
            d.name(),
            d.encoding_name()
        )),
        None => Err(format!(
            "unknown dialect '{}' (expected one of {})",
            crate::view::safe::sanitize(text),
            names.join(", ")
        )),
    }
}

/// Parses a byte offset: decimal, or hex with a `0x` prefix; no sign (`+3` is no offset
/// from the start, as the viewer's `:+3` is from the cursor).
pub fn parse_offset(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let shown = crate::view::safe::sanitize(text);
    if trimmed.starts_with(['+', '-']) {
        return Err(format!(
            "'{shown}' is not a byte offset (decimal, or hex with 0x, counted from the start: no sign)"
        ));
    }
    let (digits, radix) = match trimmed
        .strip_prefix("0x")
        .or_else(|| trimmed.strip_prefix("0X"))
    {
        Some(hex) => (hex.replace('_', ""), 16),
        None => (trimmed.replace('_', ""), 10),
    };
    // Digits only: Rust's parsers take a sign too.
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!(
            "'{shown}' is not a byte offset (decimal, or hex with 0x)"
        ));
    }
    u64::from_str_radix(&digits, radix).map_err(|_| {
        format!(
            "'{shown}' is too large for a byte offset (the largest is {})",
            u64::MAX
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_definition_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn offsets() {
        assert_eq!(parse_offset("1234"), Ok(1234));
        assert_eq!(parse_offset("0x1f3A"), Ok(0x1F3A));
        assert_eq!(parse_offset("1_000"), Ok(1000));
        assert_eq!(parse_offset(" 12 "), Ok(12));
        assert_eq!(
            parse_offset("-1"),
            Err("'-1' is not a byte offset (decimal, or hex with 0x, counted from the start: no sign)".into())
        );
        assert_eq!(
            parse_offset("+3"),
            Err("'+3' is not a byte offset (decimal, or hex with 0x, counted from the start: no sign)".into())
        );
        assert_eq!(
            parse_offset("0x+3"),
            Err("'0x+3' is not a byte offset (decimal, or hex with 0x)".into())
        );
        assert_eq!(
            parse_offset("1\u{1b}[2J"),
            Err("'1\\u{1b}[2J' is not a byte offset (decimal, or hex with 0x)".into())
        );
        assert!(parse_offset("0xZZ").is_err());
        assert_eq!(
            parse_offset("99999999999999999999"),
            Err(
                "'99999999999999999999' is too large for a byte offset (the largest is 18446744073709551615)"
                    .to_string()
            )
        );
    }
}
