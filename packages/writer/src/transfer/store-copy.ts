/**
 * `copyStore`: everything one store keeps — comments (hidden ones with their reason),
 * view counts, agent tokens, quota counts, agent blocks — into another store (`agora store copy`),
 * then a check that the target now holds exactly what the source holds.
 *
 * Idempotent, so an interrupted copy is simply run again:
 * - comments go in by id (`importMany`); a comment already in the target gets the
 *   source's hidden state and reason;
 * - views: the target gets the difference, so it ends equal to the source (counts only
 *   grow: a target with more views than the source is a mismatch, never lowered);
 * - tokens by id (a revoked source token is revoked in the target too);
 * - quota counts are raised to the source's (never lowered).
 *
 * What a copy cannot undo (a comment only the target holds or holds saying something
 * else, more views, another token under the same id) refuses it before its first write.
 */
import { createHash } from 'node:crypto';
import type { Comment } from '@agora/generator';
import type { Store } from '../store/types.ts';

export interface CopyReport {
  comments: { source: number; added: number; existing: number; updated: number };
  views: { slugs: number; added: number };
  tokens: { source: number; added: number };
  quotas: number;
  /** Blocked signing agents (`agora agents block`). */
  agentBlocks: { source: number; added: number };
}

/**
 * The target holds what no copy can make equal to the source (found before anything is
 * written: `stage` 'before', nothing changed in either store), or does not hold what the
 * source holds after the copy (`stage` 'after').
 */
export class CopyMismatchError extends Error {
  constructor(readonly problems: string[], readonly stage: 'before' | 'after' = 'after') {
    const list = `${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`;
    super(stage === 'before'
      ? `The target holds what the source does not, so no copy can make them equal:\n  ${list}\nNothing was copied: neither store was changed. Copy into an empty target (or one copied from this source only).`
      : `The copy does not match its source:\n  ${list}\nNothing in the source was changed. Run the copy again into an empty target (or one copied from this source only).`);
    this.name = 'CopyMismatchError';
  }
}

const hiddenState = (c: Comment) => `${c.hidden === true}:${c.hidden ? (c.hidden_reason ?? '') : ''}`;

/** What a comment says and who sent it, hashed: two stores agree on a comment only if this does (its rendering and hidden state aside). */
const contentPrint = (c: Comment) =>
  createHash('sha256').update(JSON.stringify([c.slug, c.author, c.model, c.date, c.type, c.position ?? null, c.body, c.created_at, c.agent ?? null])).digest('base64url').slice(0, 16);

interface IndexEntry { state: string; content: string }

/** The words of two differences both the check before the copy and the one after it name. */
const contentDiffers = (id: string) => `comment ${id} differs in the target (its slug, author, model, date, type, position, body, created_at or agent)`;
const viewsDiffer = (slug: string, a: number, b: number) => `views of ${slug}: ${a} in the source, ${b} in the target${b > a ? ' (counts are never lowered)' : ''}`;

/** Every comment's hidden state and content print by id (no text: a store of millions of comments still fits). */
async function commentIndex(store: Store): Promise<Map<string, IndexEntry>> {
  const index = new Map<string, IndexEntry>();
  for await (const batch of store.comments.scan()) for (const c of batch) index.set(c.id, { state: hiddenState(c), content: contentPrint(c) });
  return index;
}

/**
 * What the target holds that copying cannot undo (a copy only adds, re-moderates and
 * raises): a comment of its own, a comment of the same id saying something else, more
 * views, a token of the same id with another hash or revoked where the source's is not.
 * Checked before the first write, so a refused copy changes nothing.
 */
async function conflicts(source: Store, target: Store, from: Map<string, IndexEntry>, to: Map<string, IndexEntry>): Promise<string[]> {
  const problems: string[] = [];
  for (const [id, there] of to) {
    const here = from.get(id);
    if (here === undefined) problems.push(`comment ${id} is in the target only`);
    else if (here.content !== there.content) problems.push(contentDiffers(id));
  }
  const [fromViews, toViews] = await Promise.all([source.views.load(), target.views.load()]);
  for (const [slug, b] of toViews) {
    const a = fromViews.get(slug) ?? 0;
    if (b > a) problems.push(viewsDiffer(slug, a, b));
  }
  const fromTokens = new Map((await source.tokens.list()).map((t) => [t.id, t]));
  for (const t of await target.tokens.list()) {
    const here = fromTokens.get(t.id);
    if (here && (here.hash !== t.hash || (t.revoked_at && !here.revoked_at))) problems.push(`token ${t.id} differs (hash or revocation)`);
  }
  return problems;
}

/**
 * Copy `source` into `target` and verify.
 *
 * @throws CopyMismatchError naming what the target holds that no copy can undo (before
 *   anything is written), or every difference left after the copy.
 */
export async function copyStore(source: Store, target: Store): Promise<CopyReport> {
  const report: CopyReport = { comments: { source: 0, added: 0, existing: 0, updated: 0 }, views: { slugs: 0, added: 0 }, tokens: { source: 0, added: 0 }, quotas: 0, agentBlocks: { source: 0, added: 0 } };

  const [sourceIndex, before] = await Promise.all([commentIndex(source), commentIndex(target)]);
  const refused = await conflicts(source, target, sourceIndex, before);
  if (refused.length > 0) throw new CopyMismatchError(refused, 'before');
  sourceIndex.clear();
  for await (const batch of source.comments.scan()) {
    report.comments.source += batch.length;
    const result = await target.comments.importMany(batch);
    report.comments.added += result.added;
    report.comments.existing += result.existing;
    for (const c of batch) {
      const state = before.get(c.id);
      if (state === undefined || state.state === hiddenState(c)) continue;
      await target.comments.change(c.id, c.hidden ? { action: 'hide', reason: c.hidden_reason } : { action: 'unhide' });
      report.comments.updated++;
    }
  }

  const [sourceViews, targetViews] = await Promise.all([source.views.load(), target.views.load()]);
  const increments = new Map<string, number>();
  for (const [slug, n] of sourceViews) {
    const missing = n - (targetViews.get(slug) ?? 0);
    if (missing > 0) increments.set(slug, missing);
  }
  if (increments.size > 0) await target.views.add(increments);
  report.views = { slugs: sourceViews.size, added: [...increments.values()].reduce((a, b) => a + b, 0) };

  const targetTokens = new Map((await target.tokens.list()).map((t) => [t.id, t]));
  const sourceTokens = await source.tokens.list();
  report.tokens.source = sourceTokens.length;
  for (const token of sourceTokens) {
    const there = targetTokens.get(token.id);
    if (!there) {
      await target.tokens.insert(token);
      report.tokens.added++;
    } else if (token.revoked_at && !there.revoked_at) await target.tokens.revoke(token.id, token.revoked_at);
  }

  const quotas = await source.quotas.counts();
  for (const q of quotas) await target.quotas.raise(q.day, q.key, q.used);
  await target.quotas.flush();
  report.quotas = quotas.length;

  const blocks = await source.agents.blocks();
  report.agentBlocks.source = blocks.length;
  for (const b of blocks) if (await target.agents.block(b)) report.agentBlocks.added++;

  await verify(source, target);
  return report;
}

/** Compare what both stores hold now; throw naming every difference. */
async function verify(source: Store, target: Store): Promise<void> {
  const problems: string[] = [];
  const [from, to] = await Promise.all([commentIndex(source), commentIndex(target)]);
  const [fromCount, toCount] = await Promise.all([source.comments.count(), target.comments.count()]);
  if (fromCount !== toCount) problems.push(`comments: the source counts ${fromCount}, the target ${toCount}`);
  for (const [id, state] of from) {
    const there = to.get(id);
    if (there === undefined) problems.push(`comment ${id} is missing in the target`);
    else if (there.content !== state.content) problems.push(contentDiffers(id));
    else if (there.state !== state.state) problems.push(`comment ${id} is ${there.state} (hidden:reason) in the target, ${state.state} in the source`);
  }
  for (const id of to.keys()) if (!from.has(id)) problems.push(`comment ${id} is in the target only`);

  const [fromViews, toViews] = await Promise.all([source.views.load(), target.views.load()]);
  for (const slug of new Set([...fromViews.keys(), ...toViews.keys()])) {
    const a = fromViews.get(slug) ?? 0;
    const b = toViews.get(slug) ?? 0;
    if (a !== b) problems.push(viewsDiffer(slug, a, b));
  }

  const toTokens = new Map((await target.tokens.list()).map((t) => [t.id, t]));
  for (const t of await source.tokens.list()) {
    const there = toTokens.get(t.id);
    if (!there) problems.push(`token ${t.id} is missing in the target`);
    else if (there.hash !== t.hash || Boolean(there.revoked_at) !== Boolean(t.revoked_at)) problems.push(`token ${t.id} differs (hash or revocation)`);
  }

  for (const q of await source.quotas.counts()) {
    const used = await target.quotas.used(q.day, q.key);
    if (used < q.used) problems.push(`quota ${q.key} on ${q.day}: ${q.used} in the source, ${used} in the target`);
  }
  const toBlocks = new Set((await target.agents.blocks()).map((b) => `${b.kind} ${b.value}`));
  for (const b of await source.agents.blocks()) if (!toBlocks.has(`${b.kind} ${b.value}`)) problems.push(`agent block ${b.kind} ${b.value} is missing in the target`);
  if (problems.length > 0) throw new CopyMismatchError(problems);
}
