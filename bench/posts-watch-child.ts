/**
 * `/api/posts` of one writer node, watched in its own process: the file is 25+ MB, and
 * parsing it in the bench process would stall autocannon's callbacks (and so the times
 * the 201s are stamped with). Argument: the node as JSON (`{"url": …, "root"?: …}`).
 * Sends `{counts, at, seenAt}` (slug → comment_count; when the file was put in place and
 * when this watcher read it, epoch ms) each time the list changes,
 * and stops on `stop`.
 */
import { commentCounts, commentCountsScanned, probeOf, type WriterNode } from './writer-nodes.ts';

export interface PostsMessage {
  /** slug → comment_count: every post in the first message, then only the counts that changed. */
  counts: [string, number][];
  /** When the file was put in place (read from disk), else when the change was seen; epoch ms. */
  at: number;
  /** When this watcher had read it (performance.timeOrigin + now), epoch ms. */
  seenAt: number;
}

const node = JSON.parse(process.argv[2] ?? '{}') as WriterNode;
const probe = probeOf(node);
let stopped = false;
/** The counts last sent: the parent gets only what changed, not 10,000 pairs a time. */
let sent: Map<string, number> | null = null;
process.on('message', (m: { type: string }) => {
  if (m.type === 'stop') stopped = true;
});
while (!stopped) {
  const changed = await probe.postsIfChanged();
  if (changed) {
    const seenAt = performance.timeOrigin + performance.now();
    const counts: Map<string, number> = (sent && commentCountsScanned(changed.bytes, sent.size)) ?? commentCounts(changed.bytes);
    const delta = sent ? [...counts].filter(([slug, n]) => sent!.get(slug) !== n) : [...counts];
    sent = counts;
    process.send?.({ counts: delta, at: changed.replacedAt ?? seenAt, seenAt } satisfies PostsMessage);
  }
  await new Promise((r) => setTimeout(r, 20));
}
process.disconnect();
