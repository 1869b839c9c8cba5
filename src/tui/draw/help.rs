//! The key list overlay (`?`): every binding of [`super::super::keymap::KEYS`] and a legend of
//! the panes' symbols.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::*;

/// The error kinds in the help overlay's legend, in short words, in legend order.
pub(super) const LEGEND: [(ErrorKind, &str); 9] = [
    (ErrorKind::InvalidByte, "invalid byte"),
    (ErrorKind::UnexpectedContinuation, "stray continuation"),
    (ErrorKind::Truncated, "truncated"),
    (ErrorKind::TruncatedEof, "truncated at end"),
    (ErrorKind::Overlong, "overlong"),
    (ErrorKind::Surrogate, "surrogate"),
    (ErrorKind::OutOfRange, "out of range"),
    (ErrorKind::UnpairedSurrogate, "unpaired surrogate"),
    (ErrorKind::SurrogatePair, "surrogate pair"),
];

pub(super) fn draw_help(area: Rect, theme: &Theme, buf: &mut Buffer) {
    let key_width = KEYS
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = KEYS
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(
                    format!(" {keys:key_width$}  "),
                    style(theme.0.accent().bold()),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::from(Span::styled(
        " class lane: 1-6 at a lead, ₂..₆ = position in the sequence, ✗ error",
        theme.dim(),
    )));
    for (prefix, kinds) in [(" errors: ", &LEGEND[..4]), ("         ", &LEGEND[4..])] {
        // The letters come from the one table the panes and `dump` use.
        let entries: Vec<String> = kinds
            .iter()
            .map(|(kind, what)| format!("{} {what}", error_letter(*kind)))
            .collect();
        lines.push(Line::from(Span::styled(
            format!("{prefix}{}", entries.join("  ")),
            theme.dim(),
        )));
    }
    lines.push(Line::from(Span::styled(
        " map: ┃ on screen  · ASCII  ░ some multi-byte  ▒ mostly multi-byte  ╎ not scanned yet",
        theme.dim(),
    )));
    lines.push(Line::from(Span::styled(
        "      errors in ! up to 1%  ▓ up to 10%  █ over 10% of the characters",
        theme.dim(),
    )));
    let width = (lines.iter().map(Line::width).max().unwrap_or(0) + 2) as u16;
    let height = lines.len() as u16 + 2;
    let popup = Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width: width.min(area.width),
        height: height.min(area.height),
    };
    ratatui::widgets::Widget::render(Clear, popup, buf);
    let block = Block::bordered()
        .title(" keys (any key closes) ")
        .title_alignment(Alignment::Center);
    ratatui::widgets::Widget::render(Paragraph::new(lines).block(block), popup, buf);
}
