/**
 * CJK-friendly emphasis and strikethrough (issue 20, item 6), for posts and comments.
 *
 * CommonMark decides whether `**` opens or closes emphasis from the characters on its
 * two sides, and treats a Hangul, kana or Han character next to punctuation like a
 * letter of a word: `**설정 파일(config.yaml)**을` and `**Kiwi 0.17.**이` close after
 * punctuation and before a letter, so they stay literal asterisks, although a Korean
 * writer means bold (particles such as 을/이 attach to the word without a space). The
 * micromark extensions of `markdown-cjk-friendly` amend the flanking rules only when a
 * CJK character is next to the delimiter run
 * (https://github.com/tats-u/markdown-cjk-friendly/blob/main/specification.md), so
 * text without CJK renders exactly as before (test/generator/cjk-friendly.test.ts
 * holds every post of the bench corpus to that, byte for byte).
 */
import { cjkFriendlyExtension } from 'micromark-extension-cjk-friendly';
import { gfmStrikethroughCjkFriendly } from 'micromark-extension-cjk-friendly-gfm-strikethrough';
import type { Processor } from 'unified';

export interface CjkFriendlyOptions {
  /**
   * Also amend GFM strikethrough (`~~`). Only with the GFM parts (`gfm.ts`) registered
   * before this plugin: the extension replaces their strikethrough tokenizer, which
   * micromark tries in reverse order of registration.
   */
  strikethrough?: boolean;
}

interface ParserData {
  micromarkExtensions?: unknown[];
}

/**
 * unified plugin: register CJK-friendly emphasis (and, with `strikethrough`, GFM
 * strikethrough) for parsing. The mdast nodes are the usual `emphasis`, `strong` and
 * `delete`, so nothing downstream changes.
 *
 * @param options Whether `~~` is amended too (optional).
 * @example
 * unified().use(remarkParse).use(remarkGfmParts).use(remarkCjkFriendly, { strikethrough: true })
 */
export function remarkCjkFriendly(this: Processor, options: CjkFriendlyOptions = {}): void {
  const data = this.data() as ParserData;
  const list = (data.micromarkExtensions ??= []);
  list.push(cjkFriendlyExtension());
  // Posts and comments only strike through with `~~` (see gfm.ts): the same here.
  if (options.strikethrough) list.push(gfmStrikethroughCjkFriendly({ singleTilde: false }));
}
