//! When to use colours: the `--color auto|always|never` choice shared by the viewer and
//! `dump`, and the `NO_COLOR` convention (<https://no-color.org>).

use std::ffi::OsStr;

/// `--color`: whether to colour the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour a terminal, unless `NO_COLOR` is set to something.
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

    /// Whether to colour, for output that is (or is not) a terminal and the value of
    /// `NO_COLOR` (which turns `auto` off when set and not empty, as no-color.org asks).
    ///
    /// ```
    /// use hexrune::color::ColorChoice;
    /// use std::ffi::OsStr;
    /// assert!(ColorChoice::Auto.enabled(true, None));
    /// assert!(!ColorChoice::Auto.enabled(false, None));
    /// assert!(!ColorChoice::Auto.enabled(true, Some(OsStr::new("1"))));
    /// assert!(ColorChoice::Auto.enabled(true, Some(OsStr::new(""))));
    /// assert!(ColorChoice::Always.enabled(false, Some(OsStr::new("1"))));
    /// assert!(!ColorChoice::Never.enabled(true, None));
    /// ```
    pub fn enabled(self, terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(|v| v.is_empty()),
        }
    }

    /// [`ColorChoice::enabled`] with `NO_COLOR` read from the environment.
    pub fn enabled_here(self, terminal: bool) -> bool {
        self.enabled(terminal, std::env::var_os("NO_COLOR").as_deref())
    }
}
