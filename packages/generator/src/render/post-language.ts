/**
 * The language a post is written in, where it differs from the site's `lang`: a Korean
 * post on an English site is marked `lang="ko"` (its article, its JSON-LD `inLanguage`),
 * so screen readers pick the right voice and search engines the right index (WCAG 3.1.2).
 * Told by script, which is all a post says about it: mostly Hangul letters is Korean,
 * kana among the letters is Japanese, mostly Latin letters is English; anything else
 * (Han alone, Cyrillic: each is written in several languages) keeps the site's language.
 */
import type { Post } from '../types.ts';
import { html, type SafeHtml } from './html.ts';

const known = new WeakMap<Post, string | null>();

/** `ko`, `ja` or `en` when the letters of `text` tell Korean, Japanese or English, else null. */
export function scriptLanguage(text: string): 'ko' | 'ja' | 'en' | null {
  let hangul = 0;
  let latin = 0;
  let kana = 0;
  let letters = 0;
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const word = m[0];
    letters += word.length;
    if (/^\p{Script=Hangul}/u.test(word)) hangul += word.length;
    else if (/^\p{Script=Latin}/u.test(word)) latin += word.length;
    // Japanese runs its words together, kanji, kana and Latin names in one run (`APIキーを`,
    // `TypeScriptで`): count the kana alone, in every run, whatever script it starts with.
    kana += word.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  }
  if (letters === 0) return null;
  // Korean prose mixes in Latin names and code; a third of the letters in Hangul is Korean.
  if (hangul / letters >= 1 / 3) return 'ko';
  // Kana is written in Japanese alone, and is a third or more of ordinary Japanese prose.
  if (kana / letters >= 1 / 5) return 'ja';
  return latin / letters >= 0.6 ? 'en' : null;
}

/** The post's own language when it is not the site's (`lang` as `<html lang>` says it), else null. */
export function postLanguage(post: Post, siteLang: string): string | null {
  let lang = known.get(post);
  if (lang === undefined) known.set(post, (lang = scriptLanguage(`${post.title}\n${post.summary}\n${post.content}`)));
  return lang !== null && lang !== siteLang.toLowerCase().split('-')[0] ? lang : null;
}

/**
 * ` lang="ko"` for an element that shows a post's title or summary inside a page of the
 * site's language (lists, debates, `/comments/`), or nothing: the post page marked its
 * article, but a Korean title in a list was read as English.
 */
export function langAttribute(post: Post, siteLang: string): SafeHtml | '' {
  const lang = postLanguage(post, siteLang);
  return lang ? html` lang="${lang}"` : '';
}
