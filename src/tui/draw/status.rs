//! The status line: the input, the cursor, the dialect, a running job or message, the
//! whole-input scan's progress, and the key hint, fitted to the width there is.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::*;

pub(super) fn draw_status(app: &App, area: Rect, theme: &Theme, buf: &mut Buffer) {
    buf.set_style(area, style(theme.0.status()));
    if let Some((line, _)) = prompt_line(app, area.width) {
        buf.set_line(area.x, area.y, &line, area.width);
        return;
    }
    // The right of the line: what is going on (a search, a message) and the scan's
    // progress must be seen; the left gives up detail to make room for them. The key hint
    // is shown only where there is room left.
    let width = |s: &str| unicode_width::UnicodeWidthStr::width(s) as u16;
    // Unsanitised, with the part that may be shortened (a search's pattern).
    let raw_action = match (&app.job, &app.message) {
        (Some(job), _) => Some(job_text(app, job)),
        (None, Some(m)) => Some(match m.cut_from.and_then(|at| m.text.get(..at)) {
            // Where the line is too narrow even for the part before `cut_from`, that
            // part is fitted as a message of its own.
            Some(before) if width(&m.text) + 2 > area.width => {
                let fits = width(before) + 4 <= area.width;
                let text = if fits {
                    m.text.clone()
                } else {
                    before.to_string()
                };
                (text, m.elide.clone().filter(|_| !fits))
            }
            _ => (m.text.clone(), m.elide.clone()),
        }),
        (None, None) => None,
    };
    let action = raw_action.as_ref().map(|(text, _)| sanitize(text));
    // A count being typed shows as vim's `showcmd` shows it, until its key comes.
    let count = app.count.map(|n| match n {
        crate::tui::app::COUNT_MAX => format!("count {n} (the largest)"),
        n => format!("count {n}"),
    });
    // While n / N repeat a `/~/` search, a tag that says so.
    let lookalike = app
        .last_search
        .as_ref()
        .filter(|p| p.lookalike.is_some() && app.job.is_none())
        .map(|_| LOOKALIKE_TAG.to_string());
    // What must be read whole (a count, a search, a message) comes first; the lint pass's
    // and the scan's progress and the `lookalike` tag give way to it, in that order, where
    // the line cannot hold them all beside the least the left gives up to.
    let mut parts: Vec<Option<String>> = vec![
        count,
        action,
        lookalike,
        scan_status(app),
        app.linting.status(),
    ];
    let least_left = width(&status_left(app, 0));
    let joined = |parts: &[Option<String>]| {
        let kept: Vec<&str> = parts.iter().flatten().map(String::as_str).collect();
        (!kept.is_empty()).then(|| format!("{} ", kept.join("  ")))
    };
    for drop in [4, 3, 2] {
        let fits = joined(&parts).is_none_or(|n| least_left + 2 + width(&n) <= area.width);
        if fits {
            break;
        }
        parts[drop] = None;
    }
    // Still too wide beside nothing: the message gives up its pattern, then its end,
    // each cut marked `…`, so that what a search found stays in view.
    if joined(&parts).is_some_and(|n| width(&n) + 2 > area.width) {
        if let Some((text, elide)) = &raw_action {
            let others: usize = [&parts[0], &parts[2], &parts[3], &parts[4]]
                .into_iter()
                .flatten()
                .map(|p| width(p) as usize + 2)
                .sum();
            let room = (area.width as usize).saturating_sub(3 + others);
            parts[1] = Some(fit_message(text, elide.clone(), room));
        }
    }
    let needed = joined(&parts);
    let style = if app.message.as_ref().is_some_and(|m| m.is_error) && app.job.is_none() {
        self::style(theme.0.status_error())
    } else {
        self::style(theme.0.status())
    };
    let room = needed
        .as_deref()
        .map_or(area.width, |n| area.width.saturating_sub(width(n) + 2));
    let mut left = status_left(app, room);
    if needed
        .as_deref()
        .is_some_and(|n| least_left + 2 + width(n) > area.width)
    {
        // A message longer than the line leaves beside the least of the left: the message
        // alone, for as long as it shows (the next key brings the left back).
        left = String::new();
    }
    if needed.is_none() {
        // The key hint is worth the exact size and the decimal offset (a newcomer at 80
        // columns sees how to get help and out), not the character number.
        let with_hint = status_left(app, area.width.saturating_sub(width(HINT) + 2));
        let position = app
            .char_position()
            .map(|(n, count)| format!("  char {n} of {count}"));
        let keeps_position = position.is_none_or(|p| with_hint.ends_with(&p));
        if keeps_position && width(&with_hint) + 2 + width(HINT) <= area.width {
            left = with_hint;
        }
    }
    let left_width = width(&left);
    buf.set_stringn(
        area.x,
        area.y,
        &left,
        area.width as usize,
        self::style(theme.0.status()),
    );
    let right = match needed {
        Some(needed) => {
            let with_hint = format!("{needed} {HINT}");
            let hint_fits = app.job.is_none()
                && app.message.is_none()
                && app.count.is_none()
                && left_width + 2 + width(&with_hint) <= area.width;
            if hint_fits {
                with_hint
            } else {
                needed
            }
        }
        None if left_width + 2 + width(HINT) <= area.width => HINT.to_string(),
        None => return,
    };
    let right_width = width(&right);
    if left_width + 2 + right_width <= area.width {
        buf.set_string(area.right() - right_width, area.y, &right, style);
    } else if left_width + 2 < area.width {
        let x = area.x + left_width + 2;
        buf.set_stringn(x, area.y, &right, (area.right() - x) as usize, style);
    }
}

/// The open prompt's line in `width` columns, and the column where the next character
/// typed goes (where the terminal's cursor is shown). Where the line is too narrow, what
/// was typed scrolls: its start gives way (`…` in its place) so that the end, where the
/// cursor is, stays in view; a label that would leave the typing fewer than half the
/// columns (at most 24) ends in `…` first. A chooser's offer (`e`, `T`) while nothing is
/// typed is the text: the label gives way to all of it (down to [`LABEL_LEAST`] columns),
/// and what still does not fit of the offer ends in `…`.
pub fn prompt_line(app: &App, width: u16) -> Option<(Line<'static>, u16)> {
    let prompt = app.prompt.as_ref()?;
    let label = match prompt.kind {
        PromptKind::Goto => "go to offset (#N: character N): ".to_string(),
        PromptKind::Encoding { .. } => {
            "encoding (Tab: next choice, or type a label; Enter): ".to_string()
        }
        PromptKind::Write if app.write.is_some_and(|f| f.confirm) => {
            "exists; Enter replaces it, Esc goes back: ".to_string()
        }
        PromptKind::Write => "write a repaired copy to: ".to_string(),
        PromptKind::Lints { .. } => "lints (Tab Space Enter, or type a list): ".to_string(),
        PromptKind::Search { backward, hex } => format!(
            "{}{} (Tab: {}): ",
            if backward { "\\" } else { "/" },
            match (hex, prompt.input.starts_with("~/")) {
                (true, _) => "hex bytes",
                (false, true) => "lookalike text",
                (false, false) => "text",
            },
            if hex { "text" } else { "hex" },
        ),
    };
    let columns = |s: &str| unicode_width::UnicodeWidthStr::width(s);
    let width = width as usize;
    let typed = sanitize(&prompt.input);
    // A chooser's offers, the fullest first; the first that fits beside the least of the
    // label is shown, or else the last, cut.
    let offers = match (prompt.kind, prompt.input.is_empty()) {
        (PromptKind::Encoding { choice }, true) => encoding_choice(app, choice),
        (PromptKind::Lints { choice }, true) => {
            vec![super::findings::chooser_text(app, choice)]
        }
        _ => Vec::new(),
    };
    let offer_room = width.saturating_sub(LABEL_LEAST + 1);
    let offer = match offers.iter().find(|o| columns(o) <= offer_room) {
        Some(offer) => offer.clone(),
        None => offers
            .last()
            .map_or_else(String::new, |o| cut_end(o, offer_room)),
    };
    // The cursor's cell is one column after what was typed.
    let (label, typed) = if columns(&label) + columns(&typed) + columns(&offer) < width {
        (label, typed)
    } else {
        let least = match offer.is_empty() {
            true => (width / 2).min(24),
            false => columns(&offer) + 1,
        };
        let label = match columns(&label) + least > width {
            // The `: ` that ends it stays, apart from what was typed.
            true => {
                let keep = width.saturating_sub(least + 2);
                format!("{}: ", cut_end(label.trim_end_matches(": "), keep))
            }
            false => label,
        };
        let room = width.saturating_sub(columns(&label) + 1);
        let typed = match room {
            _ if columns(&typed) < room => typed,
            0 => String::new(),
            1 => "\u{2026}".to_string(),
            _ => elide_start(&typed, room - 1),
        };
        (label, typed)
    };
    let cursor = (columns(&label) + columns(&typed)).min(width.saturating_sub(1)) as u16;
    let mut spans = vec![
        Span::raw(label),
        Span::raw(typed),
        Span::styled(" ", Style::new().add_modifier(Modifier::REVERSED)),
    ];
    if !offer.is_empty() {
        spans.push(Span::raw(offer));
    }
    Some((Line::from(spans), cursor))
}

/// The fewest columns a prompt's label is cut to, its `…: ` included, where a chooser's
/// offer needs the line.
const LABEL_LEAST: usize = 8;

/// The tag at the right of the status line while `n` and `N` repeat a lookalike search
/// (`/~/`).
pub(super) const LOOKALIKE_TAG: &str = "n N: lookalike search";

/// The key hint at the right of an idle status line.
pub(super) const HINT: &str = "? help  q quit ";

/// A running search or jump: `search "zzz"… 12% (Esc cancels)`, unsanitised, with the
/// part that may be shortened ([`fit_message`]).
pub(super) fn job_text(
    app: &App,
    job: &super::super::app::Job,
) -> (String, Option<std::ops::Range<usize>>) {
    let len = app.source.len();
    let (done, total) = if job.backward {
        (job.from.saturating_sub(job.reached), job.from)
    } else {
        (
            job.reached.saturating_sub(job.from),
            len.saturating_sub(job.from),
        )
    };
    let pct = if total == 0 {
        100.0
    } else {
        done as f64 * 100.0 / total as f64
    };
    (
        format!("{}… {pct:.0}% (Esc cancels)", job.what),
        job.elide.clone(),
    )
}

/// `text`, sanitised, in at most `room` columns: where it is wider, the part `elide` (a
/// byte range of `text`) is shortened first, keeping its start and ending in `…`, then the
/// end of the whole is cut, ending in `…`.
///
/// `search "a very long pattern": none found` in 30 columns is
/// `search "a very l…": none found`.
pub fn fit_message(text: &str, elide: Option<std::ops::Range<usize>>, room: usize) -> String {
    let width = unicode_width::UnicodeWidthStr::width;
    let whole = sanitize(text);
    if width(whole.as_str()) <= room {
        return whole;
    }
    let parts = elide.and_then(|r| {
        Some((
            text.get(..r.start)?,
            text.get(r.clone())?,
            text.get(r.end..)?,
        ))
    });
    if let Some((head, middle, tail)) = parts {
        let (head, middle, tail) = (sanitize(head), sanitize(middle), sanitize(tail));
        let fixed = width(head.as_str()) + width(tail.as_str());
        // At least one column of the pattern and its `…`.
        let keep = room.saturating_sub(fixed).max(2);
        let shortened = format!("{head}{}{tail}", cut_end(&middle, keep));
        return cut_end(&shortened, room);
    }
    cut_end(&whole, room)
}

/// `text` in at most `room` columns, its last one `…` where it is cut.
fn cut_end(text: &str, room: usize) -> String {
    if unicode_width::UnicodeWidthStr::width(text) <= room {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w + 1 > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if room > 0 {
        out.push('\u{2026}');
    }
    out
}

/// The chooser's offer while nothing is typed: `windows-1251 (chardetng's guess)  1/28`,
/// then, for a narrow line, the same without why it comes first.
fn encoding_choice(app: &App, choice: usize) -> Vec<String> {
    let (choices, why) = &app.encoding_choices;
    let Some(d) = choices.get(choice) else {
        return Vec::new();
    };
    let name = d.encoding_name();
    let count = format!("{}/{}", choice + 1, choices.len());
    let mut offers = Vec::new();
    if choice == 0 {
        offers.push(format!(" {name} ({why})  {count}"));
    }
    offers.push(format!(" {name}  {count}"));
    offers
}

/// The left of the status line: name, size, cursor offset (hex and decimal), percentage,
/// dialect, and once the scan is done the cursor's character number. When that is wider
/// than `width`, the size in bytes goes first, then the decimal offset, then the character
/// number, then the start of the name.
///
/// `" demo  1.6 KiB (1673 B)  0x28D (653)  39%  utf8  char 640 of 1590"`
pub fn status_left(app: &App, width: u16) -> String {
    let len = app.source.len();
    // The part of the input up to and including the cursor's byte, rounded down: `100%`
    // is the last byte and no other (rounded, 3781 of 3800 bytes would say it too).
    let percent = if len == 0 {
        100
    } else {
        (u128::from(app.cursor) + 1) * 100 / u128::from(len)
    };
    let position = app
        .char_position()
        .map(|(n, count)| format!("  char {n} of {count}"))
        .unwrap_or_default();
    // A path as the commands show it (`\xff` for a byte that is no UTF-8), where the
    // source's name has a U+FFFD.
    let name = match &app.input_path {
        Some(path) => crate::view::safe::path_name(path),
        None => sanitize(app.source.name()),
    };
    let line = |name: &str, exact_size: bool, decimal: bool, position: &str| {
        let size = if exact_size || len < 1024 {
            human_size(len)
        } else {
            human_size(len)
                .split(" (")
                .next()
                .unwrap_or_default()
                .to_string()
        };
        let decimal = if decimal {
            format!(" ({})", app.cursor)
        } else {
            String::new()
        };
        let size = if app.changed {
            format!("{size}, truncated on disk")
        } else if app.written {
            format!("{size}, changed on disk")
        } else if app.replaced {
            format!("{size}, replaced on disk")
        } else if app.removed {
            format!("{size}, removed from disk")
        } else if app.grew {
            format!("{size}, grew on disk")
        } else if app.source.partial().is_some() {
            format!("{size}, more not read")
        } else {
            size
        };
        // An empty input has no byte for the cursor to be on.
        let at = match len {
            0 => "\u{2014}".to_string(),
            _ => format!("0x{:X}{decimal}  {percent}%", app.cursor),
        };
        format!(" {name}  {size}  {at}  {}{position}", app.dialect.name())
    };
    let fits = |l: &String| unicode_width::UnicodeWidthStr::width(l.as_str()) <= width as usize;
    // The character number goes before the name gives up anything: a message at the
    // right ("search wrapped") must be read whole.
    if let Some(l) = [
        line(&name, true, true, &position),
        line(&name, false, true, &position),
        line(&name, false, false, &position),
    ]
    .into_iter()
    .find(fits)
    {
        return l;
    }
    let shortest = line(&name, false, false, "");
    let over =
        unicode_width::UnicodeWidthStr::width(shortest.as_str()).saturating_sub(width as usize);
    if over == 0 {
        return shortest;
    }
    let name_width = unicode_width::UnicodeWidthStr::width(name.as_str());
    // Then the name gives up its start (the directories first), keeping at least 8
    // columns of it.
    let keep = name_width.saturating_sub(over + 1).max(8);
    match keep < name_width {
        true => line(&elide_start(&name, keep), false, false, ""),
        false => shortest,
    }
}

/// The end of `text` that fits in `keep` columns, after `…`.
pub(super) fn elide_start(text: &str, keep: usize) -> String {
    let mut width = 0;
    let mut start = text.len();
    for (i, c) in text.char_indices().rev() {
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width > keep {
            break;
        }
        start = i;
    }
    format!("…{}", &text[start..])
}

/// The scan's part of the status line while it runs (`scanning 42%  1.9 GB/s  8s left`),
/// or `None` once it is done.
pub fn scan_status(app: &App) -> Option<String> {
    match &app.scan {
        Scan::Wanted => Some("scanning…".to_string()),
        Scan::Running(run) => Some(progress_text_since(
            run.done,
            app.source.len(),
            run.elapsed,
            run.since,
        )),
        Scan::Ready(_) | Scan::Failed(_) => None,
    }
}

/// [`progress_text`] with the speed measured since an earlier report `since` (time taken,
/// bytes done), where that is at least half a second before: the speed of the last few
/// seconds, not of the whole scan.
pub(super) fn progress_text_since(
    done: u64,
    len: u64,
    elapsed: std::time::Duration,
    since: (std::time::Duration, u64),
) -> String {
    let span = elapsed.saturating_sub(since.0);
    if span.as_secs_f64() < 0.5 || since.1 > done {
        return progress_text(done, len, elapsed);
    }
    let percent = if len == 0 {
        100
    } else {
        (done as u128 * 100 / len as u128) as u64
    };
    let speed = (done - since.1) as f64 / span.as_secs_f64();
    if speed <= 0.0 {
        return format!("scanning… {percent}%");
    }
    let left = (len - done.min(len)) as f64 / speed;
    format!(
        "scanning… {percent}%  {}  {} left",
        human_speed(speed),
        human_duration(left)
    )
}

/// `scanning 42%`, then with speed and time left once there is a measure of them.
pub(super) fn progress_text(done: u64, len: u64, elapsed: std::time::Duration) -> String {
    let percent = if len == 0 {
        100
    } else {
        (done as u128 * 100 / len as u128) as u64
    };
    let seconds = elapsed.as_secs_f64();
    if done == 0 || seconds < 0.1 {
        return format!("scanning… {percent}%");
    }
    let speed = done as f64 / seconds;
    let left = (len - done.min(len)) as f64 / speed;
    format!(
        "scanning… {percent}%  {}  {} left",
        human_speed(speed),
        human_duration(left)
    )
}

/// `850 MB/s`, `1.9 GB/s` (decimal units, as disks and networks are measured).
pub(super) fn human_speed(bytes_per_second: f64) -> String {
    if bytes_per_second >= 1e9 {
        format!("{:.1} GB/s", bytes_per_second / 1e9)
    } else if bytes_per_second >= 1e6 {
        format!("{:.0} MB/s", bytes_per_second / 1e6)
    } else {
        format!("{:.0} kB/s", bytes_per_second / 1e3)
    }
}

/// `2.0 ms`, `48.0 s`.
pub(super) fn human_elapsed(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1e3)
    } else {
        format!("{seconds:.1} s")
    }
}

/// `<1s`, `8s`, `3m05s`, `1h02m`.
pub(super) fn human_duration(seconds: f64) -> String {
    let s = seconds.ceil() as u64;
    match s {
        0 | 1 if seconds < 1.0 => "<1s".to_string(),
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// `1673 B`, `16.0 GiB`: [`human_size`] without the exact count.
pub fn short_size(len: u64) -> String {
    let size = human_size(len);
    match size.split_once(" (") {
        Some((short, _)) => short.to_string(),
        None => size,
    }
}

/// `1673 B`, `16.0 GiB (17179869184 B)`.
pub(super) fn human_size(len: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if len < 1024 {
        return format!("{len} B");
    }
    let mut value = len as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {} ({len} B)", UNITS[unit])
}
