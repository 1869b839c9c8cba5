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

/// The characters of one and two bytes [`skip_short`] went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Short {
    /// Where they end: the first byte that is not one, or `stop`.
    pub end: usize,
    /// How many were of one byte.
    pub ones: u64,
    /// How many were of two bytes.
    pub twos: u64,
}

/// Goes from `pos` (a unit boundary) past the characters of one and two bytes that end at
/// or before `stop`, straight from the tables: first a run of bytes below 80 counted 8 at a
/// time, then single bytes and pairs one by one. Only for the stateless families (every
/// one but ISO-2022-JP, whose characters depend on the mode); the scan and the repair's
/// window cuts (`repair::from`) both skip with it.
///
/// ```
/// # use hexrune::encoding::resolve;
/// # use hexrune::scan::multibyte::{skip_short, Short};
/// let table = resolve("shift_jis").unwrap().multi_byte().unwrap();
/// // "ab", the pair 88 9F (亜), then a lead byte without its trail.
/// let bytes = b"ab\x88\x9F\x88";
/// assert_eq!(skip_short(table, bytes, 0, 5), Short { end: 4, ones: 2, twos: 1 });
/// // A pair that would end past `stop` is left for the decoder.
/// assert_eq!(skip_short(table, bytes, 0, 3), Short { end: 2, ones: 2, twos: 0 });
/// ```
#[inline]
pub fn skip_short(table: &MultiByteTable, bytes: &[u8], pos: usize, stop: usize) -> Short {
    let stop = stop.min(bytes.len());
    let run = ascii_run(&bytes[pos.min(stop)..stop]);
    let mut short = Short {
        end: pos + run,
        ones: run as u64,
        twos: 0,
    };
    while short.end < stop {
        let b0 = bytes[short.end];
        if table.is_single(b0) {
            short.ones += 1;
            short.end += 1;
        } else if short.end + 2 <= stop && table.is_pair(b0, bytes[short.end + 1]) {
            short.twos += 1;
            short.end += 2;
        } else {
            break;
        }
    }
    short
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
    while at < offset.min(bytes.len()) {
        let (unit, next) = table.decode(bytes, at, state);
        (at, state) = (unit.end(), next);
    }
    Checkpoint { at, state }
}

/// The number of bytes below 80 at the start of `hay`.
#[inline]
pub fn ascii_run(hay: &[u8]) -> usize {
    let mut n = 0;
    for word in hay.chunks_exact(8) {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
        let high = w & 0x8080_8080_8080_8080;
        if high != 0 {
            return n + (high.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + hay[n..].iter().take_while(|b| **b < 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_runs() {
        assert_eq!(ascii_run(b""), 0);
        assert_eq!(ascii_run(b"abc"), 3);
        assert_eq!(ascii_run(b"abcdefgh\x82ij"), 8);
        assert_eq!(ascii_run(b"abcdefghijk\xFF"), 11);
        assert_eq!(ascii_run(b"\x80"), 0);
    }
}
