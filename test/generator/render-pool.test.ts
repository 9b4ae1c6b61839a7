/** The render pool: workers give what this thread gives; prefetched bodies are claimed, not rendered twice. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RenderPool } from '../../packages/generator/src/render/pool.ts';
import { renderMarkdown } from '../../packages/generator/src/render/markdown.ts';
import type { RenderedPost } from '../../packages/generator/src/types.ts';

/** Every rendering `render` hands over, by key (the pool itself keeps none). */
async function collect(pool: RenderPool, list: readonly [string, string][], seen?: string[]): Promise<Map<string, RenderedPost>> {
  const out = new Map<string, RenderedPost>();
  await pool.render(list, (key, rendered) => {
    seen?.push(key);
    out.set(key, rendered);
  });
  return out;
}

const items: [string, string][] = Array.from({ length: 60 }, (_, i) => [`k${i}`, `# Post ${i}\n\nText with \`code\` ${i}.\n\n\`\`\`js\nconst n = ${i};\n\`\`\`\n`]);

test('RenderPool', async (t) => {
  const pool = RenderPool.start(2);
  t.after(() => pool.close());

  await t.test('should render on workers exactly what this thread renders', async () => {
    const seen: string[] = [];
    const out = await collect(pool, items, seen);
    assert.equal(out.size, items.length);
    assert.deepEqual([...seen].sort(), items.map(([k]) => k).sort());
    for (const [key, markdown] of items) assert.deepEqual(out.get(key), renderMarkdown(markdown));
  });

  await t.test('should let two callers wait for the same body', async () => {
    const [a, b] = await Promise.all([collect(pool, items.slice(0, 20)), collect(pool, items.slice(10, 30))]);
    assert.equal(a.size, 20);
    assert.equal(b.size, 20);
    assert.deepEqual(a.get('k15'), b.get('k15'));
  });
});

test('RenderPool with a failing worker', async (t) => {
  const pool = RenderPool.start(1);
  t.after(() => pool.close());
  await t.test('should reject render, and every later render, with the worker error', async () => {
    // Not a string: the worker's renderer throws, and the worker dies with it.
    await assert.rejects(collect(pool, [['bad', 42 as unknown as string]]));
    await assert.rejects(collect(pool, [['other', '# fine']]));
  });
});
