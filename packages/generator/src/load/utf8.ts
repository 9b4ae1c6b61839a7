/**
 * UTF-8 checks shared by post files (`load/posts.ts`) and comment documents
 * (`comments/parse-document.ts`): where the first byte that is not UTF-8 is, and what
 * line and column it is on, so the message can name it.
 */

/** Offset of the first byte that does not start a well-formed UTF-8 sequence (the Encoding Standard's rules), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // Continuation bytes after the lead byte, and the range of the first (no overlongs, surrogates or > U+10FFFF).
    const [n, lo, hi] = c >= 0xc2 && c <= 0xdf ? [1, 0x80, 0xbf] : c === 0xe0 ? [2, 0xa0, 0xbf] : c === 0xed ? [2, 0x80, 0x9f] : c >= 0xe1 && c <= 0xef ? [2, 0x80, 0xbf] : c === 0xf0 ? [3, 0x90, 0xbf] : c === 0xf4 ? [3, 0x80, 0x8f] : c >= 0xf1 && c <= 0xf3 ? [3, 0x80, 0xbf] : [0, 0, 0];
    if (n === 0) return i;
    for (let k = 1; k <= n; k++) {
      const d = bytes[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

/** A byte that is not UTF-8: its value and 1-based line and column (counted in characters before it). */
export interface InvalidByte {
  byte: number;
  line: number;
  column: number;
}

/** Where the first byte of `bytes` that is not UTF-8 is, or null when they are all UTF-8. */
export function findInvalidUtf8(bytes: Uint8Array): InvalidByte | null {
  const at = firstInvalidUtf8(bytes);
  if (at < 0) return null;
  const lines = new TextDecoder().decode(bytes.subarray(0, at)).split(/\r\n|\r|\n/);
  return { byte: bytes[at] ?? 0, line: lines.length, column: [...(lines.at(-1) ?? '')].length + 1 };
}
