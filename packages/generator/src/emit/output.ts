/** One file of the built site. */
export interface Output {
  /** Path relative to `dist/`, `/`-separated; every segment already safe (see paths.ts). */
  path: string;
  /**
   * The content: text, or byte chunks written one after the other (the big JSON lists
   * are assembled from memoised per-post chunks without ever joining them).
   */
  body: string | readonly Uint8Array[];
}

/** Length in bytes of a chunked body. */
export function chunksLength(chunks: readonly Uint8Array[]): number {
  let n = 0;
  for (const c of chunks) n += c.length;
  return n;
}

/** An output whose body is text (most pages and documents). */
export type TextOutput = Output & { body: string };
