//! The one theme: the colour and emphasis of every role a cell can play, as plain data,
//! and when to use colours at all (`--color auto|always|never` and the `NO_COLOR`
//! convention, <https://no-color.org>).
//!
//! A [`Paint`] is what a cell should look like (a [`Tone`] and emphasis), not how a terminal
//! is told so: the viewer maps it to a ratatui style, `dump` to an SGR sequence. Both ask
//! [`Theme`] for every cell, so a byte has the same colour on screen and in a dump. Without
//! colour, [`Theme`] keeps only emphasis (bold, italic, reversed, underlined) where it
//! carries meaning: an error byte is bold and italic (a lead byte is bold alone), the
//! cursor reversed.

use std::ffi::OsStr;

use super::glyph::GlyphClass;
use super::map::Shade;
use super::Role;
use crate::decode::ErrorKind;

/// One of the 16 colours every colour terminal has, or an entry of the 256-colour palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Tone {
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    Gray,
    DarkGray,
    LightRed,
    LightGreen,
    LightYellow,
    LightBlue,
    LightMagenta,
    LightCyan,
    White,
    /// An entry of the 256-colour palette.
    Indexed(u8),
}

impl Tone {
    /// The tone's number in the terminal's palette: 0 to 7 for the eight colours, 8 to 15
    /// for their light forms (the order of the SGR codes 30-37 and 90-97), or its entry of
    /// the 256-colour palette.
    pub const fn index(self) -> u8 {
        match self {
            Tone::Black => 0,
            Tone::Red => 1,
            Tone::Green => 2,
            Tone::Yellow => 3,
            Tone::Blue => 4,
            Tone::Magenta => 5,
            Tone::Cyan => 6,
            Tone::Gray => 7,
            Tone::DarkGray => 8,
            Tone::LightRed => 9,
            Tone::LightGreen => 10,
            Tone::LightYellow => 11,
            Tone::LightBlue => 12,
            Tone::LightMagenta => 13,
            Tone::LightCyan => 14,
            Tone::White => 15,
            Tone::Indexed(i) => i,
        }
    }
}

/// What a cell looks like: foreground and background tones and emphasis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Paint {
    /// The foreground, or the terminal's own.
    pub fg: Option<Tone>,
    /// The background, or the terminal's own.
    pub bg: Option<Tone>,
    /// Bold.
    pub bold: bool,
    /// Foreground and background swapped.
    pub reversed: bool,
    /// Underlined.
    pub underlined: bool,
    /// Italic.
    pub italic: bool,
}

impl Paint {
    /// The terminal's own colours, no emphasis.
    pub const PLAIN: Paint = Paint {
        fg: None,
        bg: None,
        bold: false,
        reversed: false,
        underlined: false,
        italic: false,
    };

    /// This paint in bold.
    pub const fn bold(self) -> Paint {
        Paint { bold: true, ..self }
    }

    /// This paint reversed.
    pub const fn reversed(self) -> Paint {
        Paint {
            reversed: true,
            ..self
        }
    }

    /// This paint underlined.
    pub const fn underlined(self) -> Paint {
        Paint {
            underlined: true,
            ..self
        }
    }

    /// This paint in italics.
    pub const fn italic(self) -> Paint {
        Paint {
            italic: true,
            ..self
        }
    }

    /// This paint with a background.
    pub const fn on(self, bg: Tone) -> Paint {
        Paint {
            bg: Some(bg),
            ..self
        }
    }
}

/// The paint of every role, with or without colour.
///
/// ```
/// use hexrune::view::theme::{Paint, Theme, Tone};
/// use hexrune::view::Role;
/// assert_eq!(Theme::COLOR.role(Role::Lead), Paint { fg: Some(Tone::LightYellow), bold: true, ..Paint::PLAIN });
/// // Without colour, an error byte is bold and italic, apart from a lead byte (bold).
/// assert_eq!(Theme::MONO.role(Role::Error), Paint::PLAIN.bold().italic());
/// assert_eq!(Theme::MONO.role(Role::Lead), Paint::PLAIN.bold());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether tones are used; without them only emphasis is left.
    pub color: bool,
}

impl Theme {
    /// The theme with colours.
    pub const COLOR: Theme = Theme { color: true };
    /// The theme without colours.
    pub const MONO: Theme = Theme { color: false };

    /// `tone` if this theme has colours, the terminal's own otherwise.
    pub const fn fg(&self, tone: Tone) -> Paint {
        Paint {
            fg: if self.color { Some(tone) } else { None },
            ..Paint::PLAIN
        }
    }

    /// A byte in the hex pane, by its role (hexyl's categories for ASCII, extended with
    /// the roles a byte plays in UTF-8).
    pub const fn role(&self, role: Role) -> Paint {
        match role {
            Role::Null => self.fg(Tone::DarkGray),
            Role::AsciiPrintable => self.fg(Tone::Cyan),
            Role::AsciiWhitespace => self.fg(Tone::Green),
            Role::AsciiControl => self.fg(Tone::Magenta),
            Role::Lead => self.fg(Tone::LightYellow).bold(),
            Role::Continuation => self.fg(Tone::Yellow),
            // Without colour a lead byte is bold too: italics tell an error apart. Not
            // underlined (a finding, the cursor) nor reversed (the unit under the cursor).
            Role::Error if !self.color => Paint::PLAIN.bold().italic(),
            Role::Error => self.error(None).bold(),
        }
    }

    /// An error of `kind` (`None`: errors in general), as the class lane marks it.
    pub const fn error(&self, kind: Option<ErrorKind>) -> Paint {
        let tone = match kind {
            None | Some(ErrorKind::InvalidByte) => Tone::LightRed,
            Some(ErrorKind::UnexpectedContinuation) => Tone::Red,
            Some(ErrorKind::Truncated) => Tone::LightMagenta,
            Some(ErrorKind::TruncatedEof) => Tone::Magenta,
            Some(ErrorKind::Overlong) => Tone::Yellow,
            Some(ErrorKind::Surrogate) => Tone::LightCyan,
            Some(ErrorKind::OutOfRange) => Tone::LightBlue,
            Some(ErrorKind::UnpairedSurrogate) => Tone::Cyan,
            Some(ErrorKind::SurrogatePair) => Tone::Blue,
            // UTF-16 and UTF-32 kinds never meet their UTF-8 look-alikes in one dialect:
            // they share those colours (the lane's letters tell them apart).
            Some(ErrorKind::UnpairedHighSurrogate | ErrorKind::UnpairedLowSurrogate) => Tone::Cyan,
            Some(ErrorKind::TruncatedUnit) => Tone::Magenta,
            Some(ErrorKind::SurrogateUnit) => Tone::LightCyan,
            Some(ErrorKind::UndefinedByte) => Tone::LightRed,
            // The multi-byte legacy encodings' kinds meet only InvalidByte and TruncatedEof.
            Some(ErrorKind::BadTrail) => Tone::LightMagenta,
            Some(ErrorKind::Unmapped) => Tone::Yellow,
            Some(ErrorKind::BadEscape) => Tone::Red,
            Some(ErrorKind::RedundantEscape) => Tone::Cyan,
        };
        self.fg(tone)
    }

    /// The marker of an error of `kind` in the error lane and its name in a legend.
    pub const fn marker(&self, kind: ErrorKind) -> Paint {
        self.error(Some(kind)).bold()
    }

    /// A glyph in the text pane, by its class.
    pub const fn glyph(&self, class: GlyphClass) -> Paint {
        match class {
            GlyphClass::Plain => Paint::PLAIN,
            GlyphClass::Space => self.fg(Tone::Green),
            GlyphClass::Control => self.fg(Tone::Magenta),
            GlyphClass::Format | GlyphClass::Selector => self.fg(Tone::LightMagenta),
            GlyphClass::Mark => self.fg(Tone::LightGreen),
            GlyphClass::Unassigned | GlyphClass::PrivateUse | GlyphClass::Cut => {
                self.fg(Tone::Blue)
            }
            GlyphClass::Surrogate | GlyphClass::NonUnicode => self.fg(Tone::LightCyan),
            GlyphClass::Error => self.error(None).bold(),
            // Not an error (not red, not bold): underlined, so that it stands apart from
            // an error unit's U+FFFD with colour and without.
            GlyphClass::Replacement => self.fg(Tone::LightYellow).underlined(),
            // Still an error byte (red), but standing for one byte, not a unit: not bold,
            // underlined.
            GlyphClass::Escaped => self.error(None).underlined(),
        }
    }

    /// What is there to read by, not to look at: offsets, fillers, frames, legends.
    pub const fn dim(&self) -> Paint {
        self.fg(Tone::DarkGray)
    }

    /// Pane titles and headings.
    pub const fn title(&self) -> Paint {
        self.fg(Tone::Gray).bold()
    }

    /// Keys and figures that the eye looks for first (the keys in the help, the bars of
    /// the statistics).
    pub const fn accent(&self) -> Paint {
        self.fg(Tone::LightYellow)
    }

    /// A byte of a mojibake region (UTF-8 text read as a legacy encoding and written again),
    /// in the class lane: magenta and underlined; underlined alone without colour.
    pub const fn mojibake(&self) -> Paint {
        self.fg(Tone::LightMagenta).underlined()
    }

    /// The map's mark of the part of the input on screen.
    pub const fn in_view(&self) -> Paint {
        self.fg(Tone::LightCyan).bold()
    }

    /// The status line; reversed without colour so that it still stands apart.
    pub const fn status(&self) -> Paint {
        if self.color {
            self.fg(Tone::Black).on(Tone::Gray)
        } else {
            Paint::PLAIN.reversed()
        }
    }

    /// The status line when it reports an error.
    pub const fn status_error(&self) -> Paint {
        if self.color {
            self.fg(Tone::Red).on(Tone::Gray).bold()
        } else {
            Paint::PLAIN.reversed().bold()
        }
    }

    /// The map's glyph and paint for a shade: glyphs alone tell the shades apart; colour
    /// adds red by error density, yellow by multi-byte share.
    pub const fn shade(&self, shade: Shade) -> (&'static str, Paint) {
        match shade {
            Shade::Unknown => ("\u{254E}", self.dim()),
            Shade::Empty => (" ", Paint::PLAIN),
            Shade::Ascii => ("\u{00B7}", self.dim()),
            Shade::SomeMultibyte => ("\u{2591}", self.fg(Tone::Yellow)),
            Shade::MostlyMultibyte => ("\u{2592}", self.fg(Tone::LightYellow)),
            Shade::FewErrors => ("!", self.fg(Tone::Indexed(124)).bold()),
            Shade::ManyErrors => ("\u{2593}", self.fg(Tone::Indexed(160))),
            Shade::DenseErrors => ("\u{2588}", self.fg(Tone::Indexed(196))),
        }
    }
}

/// How much a lint finding matters, as the theme tells findings apart (the lint layer's
/// levels; the view does not read that layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// Refused by the target, or an overlong form.
    Error,
    /// Likely wrong, or an attack shape.
    Warning,
    /// Worth a look.
    Note,
}

impl Theme {
    /// A byte or glyph covered by a lint finding, in the hex and text panes: underlined
    /// (apart from errors, which are bold and red), on a dark background by severity
    /// (red, olive, blue). Without colour, underlined only.
    ///
    /// ```
    /// use hexrune::view::theme::{Paint, Severity, Theme, Tone};
    /// assert_eq!(Theme::MONO.finding(Severity::Warning), Paint::PLAIN.underlined());
    /// assert_eq!(Theme::COLOR.finding(Severity::Error).bg, Some(Tone::Indexed(52)));
    /// ```
    pub const fn finding(&self, severity: Severity) -> Paint {
        if !self.color {
            return Paint::PLAIN.underlined();
        }
        let bg = match severity {
            Severity::Error => Tone::Indexed(52),
            Severity::Warning => Tone::Indexed(58),
            Severity::Note => Tone::Indexed(17),
        };
        Paint::PLAIN.underlined().on(bg)
    }

    /// A finding's marker in the errors lane and its name in the detail pane: pink for
    /// an error, orange for a warning, blue for a note; bold for an error without colour.
    pub const fn finding_marker(&self, severity: Severity) -> Paint {
        let tone = match severity {
            Severity::Error => Tone::Indexed(205),
            Severity::Warning => Tone::Indexed(214),
            Severity::Note => Tone::Indexed(75),
        };
        match severity {
            Severity::Error => self.fg(tone).bold(),
            _ => self.fg(tone),
        }
    }
}

/// `paint` for a cell of the unit under the cursor (`selected`: reversed) or the cursor
/// byte itself (also bold and underlined).
pub const fn select(paint: Paint, selected: bool, cursor: bool) -> Paint {
    match (selected, cursor) {
        (_, true) => paint.reversed().bold().underlined(),
        (true, false) => paint.reversed(),
        _ => paint,
    }
}

/// `--color`: whether to colour the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour a terminal, unless `NO_COLOR` is set to something or `TERM` is `dumb`.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Every choice's name, as `--color` takes it.
    pub const NAMES: [&'static str; 3] = ["auto", "always", "never"];

    /// Parses `auto`, `always` or `never`.
    pub fn from_name(name: &str) -> Option<ColorChoice> {
        match name {
            "auto" => Some(ColorChoice::Auto),
            "always" => Some(ColorChoice::Always),
            "never" => Some(ColorChoice::Never),
            _ => None,
        }
    }

    /// Whether to colour, for output that is (or is not) a terminal, the value of
    /// `NO_COLOR` (which turns `auto` off when set and not empty, as no-color.org asks)
    /// and the value of `TERM` (`dumb`, a terminal that shows escape sequences as they
    /// are, turns `auto` off too).
    ///
    /// ```
    /// use hexrune::view::theme::ColorChoice;
    /// use std::ffi::OsStr;
    /// let xterm = Some(OsStr::new("xterm-256color"));
    /// assert!(ColorChoice::Auto.enabled(true, None, xterm));
    /// assert!(ColorChoice::Auto.enabled(true, None, None));
    /// assert!(!ColorChoice::Auto.enabled(false, None, xterm));
    /// assert!(!ColorChoice::Auto.enabled(true, Some(OsStr::new("1")), xterm));
    /// assert!(ColorChoice::Auto.enabled(true, Some(OsStr::new("")), xterm));
    /// assert!(!ColorChoice::Auto.enabled(true, None, Some(OsStr::new("dumb"))));
    /// assert!(ColorChoice::Always.enabled(false, Some(OsStr::new("1")), None));
    /// assert!(ColorChoice::Always.enabled(true, None, Some(OsStr::new("dumb"))));
    /// assert!(!ColorChoice::Never.enabled(true, None, xterm));
    /// ```
    pub fn enabled(self, terminal: bool, no_color: Option<&OsStr>, term: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                terminal
                    && no_color.is_none_or(|v| v.is_empty())
                    && term != Some(OsStr::new("dumb"))
            }
        }
    }

    /// [`ColorChoice::enabled`] with `NO_COLOR` and `TERM` read from the environment:
    /// how the viewer and `dump` decide.
    pub fn enabled_here(self, terminal: bool) -> bool {
        self.enabled(
            terminal,
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("TERM").as_deref(),
        )
    }
}
