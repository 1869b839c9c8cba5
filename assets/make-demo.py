#!/usr/bin/env python3
"""Writes assets/demo.utf8, the file hexrune opens when given none.

Every line says in its own words what its bytes show. Run from the repository root;
the result is committed, and tests check that it holds what it claims.
"""

def u(s):
    return s.encode("utf-8")

parts = [
    b"\xEF\xBB\xBF",  # a byte order mark: U+FEFF, first thing in the file
    u("<- that was a BOM (U+FEFF, EF BB BF). Welcome to hexrune's demo.\n"),
    u("Keys: arrows/hjkl move, w/b by unit, ] and [ jump to errors, d switches dialect,\n"),
    u("e reads the file in another encoding (the end shows why), ? lists every key, q quits.\n"),
    u("The detail pane below explains the unit under the cursor.\n"),
    u("\n== Scalars, by sequence length class ==\n"),
    u("class 1, ASCII: Hello, world! 0123\n"),
    u("class 2: caf\u00e9 na\u00efve \u03a9\u03bc\u03ad\u03b3\u03b1 \u0436\n"),
    u("class 3: \u20ac \u2122 \u2030 \u2192\n"),
    u("class 4: \U0001F600 \U0001D11E \U0001F389\n"),
    u("wide CJK (two columns each): \u4e2d\u6587 \u65e5\u672c\u8a9e \ud55c\uad6d\uc5b4\n"),
    u("combining sequence: e\u0301 (e + U+0301) n\u0303 a\u0308\n"),
    u("emoji ZWJ sequence: \U0001F469\u200d\U0001F4BB (woman, ZWJ, laptop) "
      "\u2764\ufe0f (heart + VS16) \U0001F44D\U0001F3FD (skin tone) \U0001F1EB\U0001F1F7 (flag)\n"),
    u("\n== Things that must not reach a terminal as they are ==\n"),
    u("controls: tab[\t] escape[\x1b[31m] bell[\x07] nul[\x00] del[\x7f] C1 NEL[\u0085]\n"),
    u("bidi override: [\u202eevil.exe\u202c] isolate: [\u2067abc\u2069] mark: [\u200f]\n"),
    u("zero width space: [a\u200bb] word joiner: [a\u2060b] soft hyphen: [co\u00adop]\n"),
    u("line separator: [\u2028] no-break space: [\u00a0]\n"),
    u("private use: [\ue000] unassigned: [\u0378] noncharacter: [\uffff]\n"),
    u("\n== Errors in UTF-8 (press ] to jump from one to the next) ==\n"),
    u("invalid byte: ["), b"\xff", u("] and ["), b"\xc0", u("]\n"),
    u("unexpected continuation byte: ["), b"\x80", u("]\n"),
    u("truncated sequence (a euro sign missing its last byte): ["), b"\xe2\x82", u("]\n"),
    u("overlong form of '/': ["), b"\xe0\x80\xaf", u("] and ["), b"\xc0\xaf", u("]\n"),
    u("out of range (above U+10FFFF): ["), b"\xf4\x90\x80\x80", u("]\n"),
    u("\n== Dialect differences (press d to switch dialect and watch these lines) ==\n"),
    u("lone surrogate U+D800: ["), b"\xed\xa0\x80",
    u("] error in utf8 and cesu8 (unpaired), fine in mutf8, wtf8, legacy\n"),
    u("CESU-8 pair for U+1F600: ["), b"\xed\xa0\xbd\xed\xb8\x80",
    u("] one scalar in cesu8 and mutf8, a surrogate_pair error in wtf8\n"),
    u("Modified UTF-8 NUL: ["), b"\xc0\x80", u("] U+0000 in mutf8, invalid elsewhere\n"),
    u("5-byte legacy form of U+200000: ["), b"\xf8\x88\x80\x80\x80",
    u("] a scalar only in legacy\n"),
    u("\n== Errors of other encodings (press e to read the whole file as one) ==\n"),
    u("The lines after this one are UTF-16LE: in UTF-8 they are letters between NUL bytes.\n"),
    u("Press e and pick UTF-16LE: the text above turns to nonsense (the same bytes, read\n"),
    u("two at a time) and these lines read as text, with UTF-16's own errors marked.\n"),
]
# UTF-16 reads two bytes at a time from the start: its section starts at an even offset.
def pad(parts, n):
    size = len(b"".join(parts))
    return [b" " * ((-size) % n)]

def utf16le(*pieces):
    """Text and raw code units (ints) as UTF-16LE."""
    out = b""
    for p in pieces:
        out += p.encode("utf-16-le") if isinstance(p, str) else p.to_bytes(2, "little")
    return out

def utf32le(*pieces):
    out = b""
    for p in pieces:
        if isinstance(p, str):
            out += p.encode("utf-32-le")
        else:
            out += p.to_bytes(4, "little")
    return out

parts += [
    u("\nIn windows-1253 (press e \u2192 windows-1253) the byte in ["), b"\xaa",
    u("] is an undefined_byte N:\nthe Greek code page gives it no character "
      "(in UTF-8 it is an unexpected continuation byte).\n"),
    u("In Shift_JIS (press e \u2192 Shift_JIS) the bytes in ["), b"\x82\x20",
    u("] are a bad_trail B: 82 leads a pair and a space cannot end it; in ["), b"\x85\x40",
    u("] an unmapped M:\na well-formed pair that no character is assigned to.\n"),
    u("In ISO-2022-JP (press e \u2192 ISO-2022-JP) the bytes in ["), b"\x1b\x28\x5a",
    u("] are a bad_escape X: ESC ( Z names no character set;\nin ["), b"\x1b\x28\x4a\x1b\x28\x42",
    u("] the first escape is a redundant_escape W: another follows it with nothing between.\n"),
]
parts += pad(parts, 2)
parts += [
    utf16le("UTF-16LE unpaired high surrogate: [", 0xD800, "] H, a high one with no low after it\n"),
    utf16le("UTF-16LE unpaired low surrogate: [", 0xDC00, "] L, a low one with no high before it\n"),
    utf16le("UTF-16LE surrogate pair for U+1F600: [", 0xD83D, 0xDE00, "] one unit, 4 bytes\n"),
    utf16le("The file's last byte is a truncated_unit Z: half a code unit.\n"),
]
parts += [u("\nThe next lines are UTF-32LE \u2192 press e and pick UTF-32LE to read them.\n")]
parts += pad(parts, 4)
parts += [
    utf32le("UTF-32LE surrogate as a unit: [", 0xD800, "] D, a code unit no scalar has\n"),
    utf32le("UTF-32LE above U+10FFFF: [", 0x110000, "] out of range\n"),
]
tail = u("\nThe file ends with a sequence cut by the end of the input (\u2192 UTF-8's truncated_eof, UTF-16's Z): ")
# An odd length, so that in UTF-16 the last byte is half a code unit.
if (len(b"".join(parts)) + len(tail) + 2) % 2 == 0:
    tail = u("\nThe file ends with a sequence cut by the end of the input (\u2192 UTF-8's truncated_eof, UTF-16's Z):  ")
parts += [tail, b"\xe2\x82"]

with open("assets/demo.utf8", "wb") as f:
    f.write(b"".join(parts))
