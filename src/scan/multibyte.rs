//! The scan of the multi-byte legacy encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR,
//! GBK, gb18030, Big5): runs of ASCII bytes are counted 8 at a time (outside ISO-2022-JP
//! every byte below 80 is a one-byte character when a unit starts on it), the rest decoded
//! unit by unit with the encoding's [`MultiByteTable`].
//!
//! These encodings are not self-synchronizing, so a range is scanned from a
//! [`Checkpoint`]: a unit boundary and the decoder state there. [`scan_multi_byte`] returns
//! the checkpoint where it stopped (the first boundary at or past the range's end), which
//! is where the next range starts; the block index (`scan::index`) records one at every
//! block start and fixes up blocks scanned in parallel that found no sync byte nearby
//! ([`start_of`]).

use super::{ClassCounts, Sink};
pub use crate::decode::{ascii_run, skip_short, Short};
use crate::decode::{Checkpoint, Family, MultiByteTable};

/// Scans the units that start in `from.at..stop`, pushing errors one by one and counting
/// scalars by length; returns the checkpoint after the last unit (at or past `stop`).
pub fn scan_multi_byte<S: Sink>(
    table: &MultiByteTable,
    bytes: &[u8],
    from: Checkpoint,
    stop: usize,
    sink: &mut S,
) -> Checkpoint {
    let stop = stop.min(bytes.len());
    let stateless = table.family() != Family::Iso2022Jp;
    let mut classes = ClassCounts::default();
    let (mut pos, mut state) = (from.at, from.state);
    while pos < stop {
        if stateless {
            let short = skip_short(table, bytes, pos, stop);
            classes[1] += short.ones;
            classes[2] += short.twos;
            pos = short.end;
            if pos >= stop {
                break;
            }
        }
        let (unit, next) = table.decode(bytes, pos, state);
        if unit.is_error() {
            sink.unit(bytes, &unit);
        } else {
            classes[unit.len as usize] += 1;
        }
        pos = unit.end();
        state = next;
    }
    sink.scalars(&classes);
    Checkpoint { at: pos, state }
}

/// The first checkpoint at or after `offset`, decoding forward from `from` (a checkpoint
/// at or before it).
pub fn start_of(
    table: &MultiByteTable,
    bytes: &[u8],
    from: Checkpoint,
    offset: usize,
) -> Checkpoint {
    let (mut at, mut state) = (from.at, from.state);
    let stateless = table.family() != Family::Iso2022Jp;
    while at < offset.min(bytes.len()) {
        if stateless {
            at = skip_short(table, bytes, at, offset).end;
            if at >= offset.min(bytes.len()) {
                break;
            }
        }
        let (unit, next) = table.decode(bytes, at, state);
        (at, state) = (unit.end(), next);
    }
    Checkpoint { at, state }
}
