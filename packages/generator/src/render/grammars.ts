/**
 * Lazily registered highlight.js grammars for the post renderer. `languages.ts` imports
 * lowlight's `common` set, which loads and registers ~40 grammar modules in every
 * thread (~0.3 s of start-up per render worker) although posts use a handful. Here a
 * grammar is loaded (synchronously, highlight.js's CommonJS build) the first time a
 * code block asks for it, together with the grammars it embeds, so every highlight
 * sees the same registered languages as with the whole set. The tables below are
 * derived from the grammars of `languages.ts`; test/generator/render-identity.test.ts
 * derives them again and fails when they drift (e.g. after a highlight.js upgrade).
 */
import { createRequire } from 'node:module';
import type { LanguageFn } from 'highlight.js';
import type { Root } from 'hast';

/** Fence tags shown as plain text without a warning. */
export const PLAIN_TEXT = ['text', 'txt', 'plain', 'console', 'output', 'log', 'csv', 'env'];

/** Every grammar of `LANGUAGES` (languages.ts), in its registration order. */
export const GRAMMAR_NAMES = [
  'arduino', 'bash', 'c', 'cpp', 'csharp', 'css', 'diff', 'go', 'graphql', 'ini', 'java', 'javascript', 'json', 'kotlin', 'less', 'lua',
  'makefile', 'markdown', 'objectivec', 'perl', 'php', 'php-template', 'plaintext', 'python', 'python-repl', 'r', 'ruby', 'rust', 'scss',
  'shell', 'sql', 'swift', 'typescript', 'vbnet', 'wasm', 'xml', 'yaml', 'nginx', 'dockerfile', 'http',
] as const;

/** Aliases the grammars declare (lower case), to the grammar name; the last registered wins, as in highlight.js. */
export const GRAMMAR_ALIASES: Readonly<Record<string, string>> = {
  ino: 'arduino', sh: 'bash', zsh: 'bash', h: 'c', cc: 'cpp', 'c++': 'cpp', 'h++': 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', cxx: 'cpp',
  cs: 'csharp', 'c#': 'csharp', patch: 'diff', golang: 'go', gql: 'graphql', toml: 'ini', jsp: 'java', js: 'javascript', jsx: 'javascript',
  mjs: 'javascript', cjs: 'javascript', jsonc: 'json', json5: 'json', kt: 'kotlin', kts: 'kotlin', pluto: 'lua', mk: 'makefile',
  mak: 'makefile', make: 'makefile', md: 'markdown', mkdown: 'markdown', mkd: 'markdown', mm: 'objectivec', objc: 'objectivec',
  'obj-c': 'objectivec', 'obj-c++': 'objectivec', 'objective-c++': 'objectivec', pl: 'perl', pm: 'perl', text: 'plaintext',
  txt: 'plaintext', py: 'python', gyp: 'python', ipython: 'python', pycon: 'python-repl', rb: 'ruby', gemspec: 'ruby', podspec: 'ruby',
  thor: 'ruby', irb: 'ruby', rs: 'rust', console: 'shell', shellsession: 'shell', ts: 'typescript', tsx: 'typescript', mts: 'typescript',
  cts: 'typescript', vb: 'vbnet', html: 'xml', xhtml: 'xml', rss: 'xml', atom: 'xml', xjb: 'xml', xsd: 'xml', xsl: 'xml', plist: 'xml',
  wsf: 'xml', svg: 'xml', yml: 'yaml', nginxconf: 'nginx', docker: 'dockerfile', https: 'http',
};

/**
 * Grammars each grammar hands parts of its code to (`subLanguage`), among `GRAMMAR_NAMES`.
 * `'*'`: an empty `subLanguage` list, i.e. auto-detection over every registered grammar.
 */
export const GRAMMAR_EMBEDS: Readonly<Record<string, readonly string[]>> = {
  javascript: ['xml', 'css', 'graphql'], markdown: ['xml'], 'php-template': ['xml', 'php'], 'python-repl': ['python'], shell: ['bash'],
  typescript: ['xml', 'css', 'graphql'], xml: ['css', 'javascript'], yaml: ['ruby'], dockerfile: ['bash'], http: ['*'],
};

const require = createRequire(import.meta.url);

/** A grammar by name (highlight.js's CommonJS module; the same function as its ES build). */
export function loadGrammar(name: string): LanguageFn {
  return require(`highlight.js/lib/languages/${name}`) as LanguageFn;
}

/** The grammar a fence tag resolves to (highlight.js's own lookup: case-insensitive, name before alias). */
export function grammarOf(tag: string): string | undefined {
  const lower = tag.toLowerCase();
  return (GRAMMAR_NAMES as readonly string[]).includes(lower) ? lower : GRAMMAR_ALIASES[lower];
}

interface Lowlight {
  highlight(language: string, value: string, options?: { prefix?: string }): Root;
  register(name: string, grammar: LanguageFn): void;
}

// lowlight's package entry also loads its `common` grammars; its core (lib/index.js) does not.
const { createLowlight } = (await import(new URL('./lib/index.js', import.meta.resolve('lowlight')).href)) as { createLowlight: () => Lowlight };

/**
 * Highlighters with grammars registered on demand. A grammar that auto-detects over
 * every language (`'*'`) gets its own instance with all of them, registered in the
 * order of `GRAMMAR_NAMES` (auto-detection breaks ties by registration order).
 */
export function createLazyHighlighter(): (grammar: string, code: string) => Root {
  const lazy = createLowlight();
  const registered = new Set<string>();
  let full: Lowlight | undefined;
  const need = (name: string): boolean => {
    if (registered.has(name)) return true;
    const embeds = GRAMMAR_EMBEDS[name] ?? [];
    if (embeds.includes('*')) return false;
    lazy.register(name, loadGrammar(name));
    registered.add(name);
    for (const inner of embeds) need(inner);
    return true;
  };
  return (grammar, code) => {
    if (need(grammar)) return lazy.highlight(grammar, code);
    if (!full) {
      full = createLowlight();
      for (const name of GRAMMAR_NAMES) full.register(name, loadGrammar(name));
    }
    return full.highlight(grammar, code);
  };
}
