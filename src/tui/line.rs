//! Editing the text of a prompt, readline's way, in one place for every prompt (`/`, `\`,
//! `:`, `e`, `T`, `W`): a character typed, Backspace, Ctrl-U, Ctrl-W.
//!
//! The text is edited as bytes, so that a path that is not UTF-8 (the default of `W` for
//! such a file) is edited in its own bytes; a step back takes one unit as the prompt
//! shows it ([`crate::view::safe::path_name`]): one character, or one byte that is not
//! UTF-8 (shown as `\xff`). Typed text is only ever UTF-8, so a `String` edited here
//! stays one. Nothing here knows the terminal or the app.

/// One edit of a prompt's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A character typed at the end.
    Push(char),
    /// Backspace: the last unit.
    Backspace,
    /// Ctrl-U: everything (the prompt has no cursor but the end, so everything before it).
    Clear,
    /// Ctrl-W: the word before the end: any spaces and `/` there, then back to (not
    /// including) the previous space or `/`, as readline's `unix-filename-rubout`.
    DeleteWord,
}

/// Applies `edit` to `text`.
///
/// ```
/// use hexrune::tui::line::{edit, Edit};
/// let mut text = b"dir/ev\xFF.txt".to_vec();
/// edit(&mut text, Edit::Backspace);
/// assert_eq!(text, b"dir/ev\xFF.tx");
/// edit(&mut text, Edit::DeleteWord);
/// assert_eq!(text, b"dir/");
/// edit(&mut text, Edit::DeleteWord);
/// assert_eq!(text, b"");
/// ```
pub fn edit(text: &mut Vec<u8>, edit: Edit) {
    match edit {
        Edit::Push(c) => text.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        Edit::Backspace => {
            let end = last_unit_start(text);
            text.truncate(end);
        }
        Edit::Clear => text.clear(),
        Edit::DeleteWord => {
            let is_gap = |b: &u8| b.is_ascii_whitespace() || *b == b'/';
            let word_end = text.iter().rposition(|b| !is_gap(b)).map_or(0, |i| i + 1);
            let word_start = text[..word_end]
                .iter()
                .rposition(is_gap)
                .map_or(0, |i| i + 1);
            text.truncate(word_start);
        }
    }
}

/// Applies `edit` to a `String` (a prompt whose text is only typed).
///
/// ```
/// use hexrune::tui::line::{edit_text, Edit};
/// let mut text = "il a dit  ".to_string();
/// edit_text(&mut text, Edit::DeleteWord);
/// assert_eq!(text, "il a ");
/// edit_text(&mut text, Edit::Backspace);
/// edit_text(&mut text, Edit::Push('é'));
/// assert_eq!(text, "il aé");
/// edit_text(&mut text, Edit::Clear);
/// assert_eq!(text, "");
/// ```
pub fn edit_text(text: &mut String, step: Edit) {
    let mut bytes = std::mem::take(text).into_bytes();
    edit(&mut bytes, step);
    // Whole characters only are removed from UTF-8, so this is always Ok.
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Where the last unit of `text` starts: its last character, or its last byte where that
/// is not UTF-8 (0 for an empty text).
fn last_unit_start(text: &[u8]) -> usize {
    let mut start = 0;
    let mut at = 0;
    for chunk in text.utf8_chunks() {
        let valid = chunk.valid();
        if let Some((i, _)) = valid.char_indices().next_back() {
            start = at + i;
        }
        at += valid.len();
        if let Some(last) = chunk.invalid().len().checked_sub(1) {
            start = at + last;
            at += last + 1;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(text: &[u8], steps: &[Edit]) -> Vec<u8> {
        let mut text = text.to_vec();
        for &step in steps {
            edit(&mut text, step);
        }
        text
    }

    #[test]
    fn backspace_takes_one_unit_as_the_prompt_shows_it() {
        use Edit::Backspace;
        assert_eq!(after(b"caf\xC3\xA9", &[Backspace]), b"caf");
        assert_eq!(after(b"a\xF0\x9F\x98\x80", &[Backspace]), b"a");
        // a truncated sequence is shown a byte at a time (`\xf0\x9f\x98`): a byte a step
        assert_eq!(after(b"a\xF0\x9F\x98", &[Backspace]), b"a\xF0\x9F");
        assert_eq!(
            after(b"a\xF0\x9F\x98", &[Backspace, Backspace, Backspace]),
            b"a"
        );
        // two lone bytes are two U+FFFD, two steps
        assert_eq!(after(b"a\xFF\xFE", &[Backspace]), b"a\xFF");
        assert_eq!(after(b"\xFFb", &[Backspace, Backspace]), b"");
        assert_eq!(after(b"", &[Backspace]), b"");
    }

    #[test]
    fn ctrl_w_stops_at_spaces_and_slashes() {
        use Edit::DeleteWord;
        assert_eq!(after(b"il a dit", &[DeleteWord]), b"il a ");
        assert_eq!(after(b"il a dit  ", &[DeleteWord]), b"il a ");
        assert_eq!(after(b"/tmp/d/notes.txt", &[DeleteWord]), b"/tmp/d/");
        assert_eq!(after(b"/tmp/d/", &[DeleteWord]), b"/tmp/");
        assert_eq!(after(b"/tmp/", &[DeleteWord]), b"/");
        assert_eq!(after(b"/", &[DeleteWord]), b"");
        assert_eq!(after(b"ev\xFF.txt", &[DeleteWord]), b"");
        assert_eq!(after(b"   ", &[DeleteWord]), b"");
        assert_eq!(after(b"", &[DeleteWord]), b"");
        // a tab is a space too
        assert_eq!(after(b"a\tb", &[DeleteWord]), b"a\t");
    }

    #[test]
    fn ctrl_u_clears_and_typing_appends() {
        assert_eq!(after(b"dir/ev\xFF", &[Edit::Clear]), b"");
        assert_eq!(
            after(b"", &[Edit::Push('a'), Edit::Push('€')]),
            "a€".as_bytes()
        );
    }
}
