/**
 * The search evaluation set (bench/search-eval.json): questions over the repository's
 * sample posts, each with the post that should come first, and their hit@1 / hit@3 per
 * kind. `npm run bench:search` prints the table; test/writer/search.test.ts pins it.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type SiteModel } from '@agora/generator';
import { readContent, contentMessages } from '../packages/generator/src/content.ts';
import { buildSiteModel } from '../packages/generator/src/model/site.ts';
import type { PostSearch } from '../packages/writer/src/search/search-index.ts';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One question of the set, its expected post resolved to a slug. */
export interface EvalQuestion {
  kind: string;
  q: string;
  /** The short name of the post in the file's `posts` table. */
  post: string;
  slug: string;
}

/** hit@1 and hit@3 of one kind (or `all`), with the questions that missed first place. */
export interface EvalScore {
  kind: string;
  questions: number;
  hit1: number;
  hit3: number;
  misses: { q: string; expected: string; got: string[] }[];
}

/** Read the evaluation set. */
export async function loadEvalSet(): Promise<EvalQuestion[]> {
  const file = JSON.parse(await readFile(join(REPO_ROOT, 'bench', 'search-eval.json'), 'utf8')) as {
    posts: Record<string, string>;
    questions: { kind: string; q: string; post: string }[];
  };
  return file.questions.map((question) => {
    const slug = file.posts[question.post];
    if (!slug) throw new Error(`search-eval.json: question ${JSON.stringify(question.q)} names post \`${question.post}\`, which is not in \`posts\``);
    return { ...question, slug };
  });
}

/** The site model of the repository's own content (the 16 sample posts). */
export async function sampleSite(): Promise<SiteModel> {
  const config = loadConfig({ root: REPO_ROOT, env: {} });
  const content = await readContent(config);
  return buildSiteModel({ config: config.site, posts: contentMessages(content).posts, comments: [], views: new Map(), catalog: null });
}

/**
 * Run every question and score each kind, then all together (last row, kind `all`).
 *
 * @param search An index over the sample site.
 * @param questions The set (`loadEvalSet`).
 */
export function evaluate(search: PostSearch, questions: readonly EvalQuestion[]): EvalScore[] {
  const rows = new Map<string, EvalScore>();
  const all: EvalScore = { kind: 'all', questions: 0, hit1: 0, hit3: 0, misses: [] };
  for (const question of questions) {
    const got = search.search({ q: question.q, limit: 3 }).results.map((r) => r.slug);
    let row = rows.get(question.kind);
    if (!row) rows.set(question.kind, (row = { kind: question.kind, questions: 0, hit1: 0, hit3: 0, misses: [] }));
    for (const score of [row, all]) {
      score.questions++;
      if (got[0] === question.slug) score.hit1++;
      else score.misses.push({ q: question.q, expected: question.post, got });
      if (got.includes(question.slug)) score.hit3++;
    }
  }
  return [...rows.values(), all];
}

/** The scores as a printable table (hit counts and rates). */
export function formatScores(scores: readonly EvalScore[]): string {
  const pct = (n: number, of: number) => `${n}/${of} (${Math.round((100 * n) / of)} %)`;
  const lines = [`${'kind'.padEnd(16)} ${'hit@1'.padStart(14)} ${'hit@3'.padStart(14)}`];
  for (const s of scores) lines.push(`${s.kind.padEnd(16)} ${pct(s.hit1, s.questions).padStart(14)} ${pct(s.hit3, s.questions).padStart(14)}`);
  return lines.join('\n');
}
