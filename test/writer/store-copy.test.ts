/**
 * Moving a site between store engines with the real CLI: `agora store copy --to
 * postgres` and back `--to files` (everything, verified, idempotent, loud on a
 * mismatch), and `agora comments export` from files → `import` into PostgreSQL giving
 * identical `/api/comments/{slug}` answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Comment } from '@agora/generator';
import { makeProject, REPO_ROOT } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';
import { makeComment } from '../store/contract.ts';
import { POSTGRES_MISSING, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { openEmbeddedStore } from '../../packages/writer/src/store/embedded/index.ts';
import { openPostgresStore } from '../../packages/writer/src/store/postgres/index.ts';
import type { Store } from '../../packages/writer/src/store/types.ts';

const run = promisify(execFile);
const AGORA = join(REPO_ROOT, 'bin', 'agora');
const SLUGS = ['2025-09-14-nginx-reverse-proxy-websocket-timeouts', '2025-08-19-should-agents-write-tests-first'];
const DAY = '2025-05-01';

const server = await startPostgres();

/** What a store holds, in a shape two engines can be compared by. */
async function contents(store: Store) {
  const comments: Comment[] = [];
  for await (const batch of store.comments.scan()) comments.push(...batch);
  comments.sort((a, b) => (a.id < b.id ? -1 : 1));
  const tokens = (await store.tokens.list()).sort((a, b) => (a.id < b.id ? -1 : 1));
  const quotas = (await store.quotas.counts()).sort((a, b) => (a.key < b.key ? -1 : 1));
  const agentBlocks = await store.agents.blocks();
  return { comments: comments.map((c) => ({ ...c, hidden: c.hidden === true, hidden_reason: c.hidden_reason ?? null })), views: Object.fromEntries([...(await store.views.load())].sort()), tokens, quotas, agentBlocks };
}

/** A files store with a bit of everything: comments (one hidden with a reason), views, tokens (one revoked), quotas. */
async function fillFiles(dataDir: string): Promise<void> {
  const store = await openEmbeddedStore(dataDir, 'tool');
  try {
    const comments = Array.from({ length: 30 }, (_, i) => makeComment({ slug: SLUGS[i % 2]!, author: `agent-${i}`, body: `Comment number ${i} with enough text to pass.` }));
    // A comment of a verified signing agent (Web Bot Auth): the agent travels with it.
    comments[5] = { ...comments[5]!, agent: { origin: 'https://agent.example', keyid: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U' } };
    await store.comments.importMany(comments);
    await store.comments.change(comments[3]!.id, { action: 'hide', reason: 'spam' });
    await store.comments.change(comments[4]!.id, { action: 'hide' });
    await store.views.add(new Map([[SLUGS[0]!, 42], [SLUGS[1]!, 7]]));
    await store.tokens.insert({ id: 'tok_1', label: 'one', hash: 'a'.repeat(64), created_at: '2025-05-01T00:00:00.000Z', revoked_at: null });
    await store.tokens.insert({ id: 'tok_2', label: 'two', hash: 'b'.repeat(64), created_at: '2025-05-01T00:00:00.000Z', revoked_at: null });
    await store.tokens.revoke('tok_2', '2025-05-02T00:00:00.000Z');
    for (let i = 0; i < 3; i++) await store.quotas.take(DAY, [{ key: 'service:weather', limit: 10 }, { key: 'token:tok_1', limit: 10 }]);
    await store.quotas.flush();
    await store.agents.block({ kind: 'origin', value: 'https://blocked.example', created_at: '2025-05-01T00:00:00.000Z' });
  } finally {
    await store.close();
  }
}

/** The CLI with the store settings of `env` only (none inherited from the test's environment). */
const cli = (root: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
  const { AGORA_STORE: _store, DATABASE_URL: _url, ...inherited } = process.env;
  return run(process.execPath, [AGORA, '--root', root, ...args], { env: { ...inherited, AGORA_BASE_URL: 'https://agora.example', ...env } });
};

if (!server) {
  test('agora store copy', { skip: POSTGRES_MISSING }, () => {});
} else {
  const db: PostgresServer = server;
  test('agora store copy and comments export/import across engines', async (t) => {
    t.after(() => db.remove());
    const project = await makeProject({ samplePosts: true });
    const back = await mkdtemp(join(tmpdir(), 'agora-copy-'));
    t.after(async () => {
      await project.remove();
      await rm(back, { recursive: true, force: true });
    });
    await fillFiles(project.config.dataDir);
    const source = await openEmbeddedStore(project.config.dataDir, 'tool');
    const expected = await contents(source);
    await source.close();
    assert.equal(expected.comments.filter((c) => c.hidden).length, 2);
    assert.equal(expected.comments.filter((c) => c.agent).length, 1);

    const url = await db.createDatabase();

    await t.test('should copy files → postgres, verified, and again without change', async () => {
      const { stdout } = await cli(project.root, ['store', 'copy', '--to', 'postgres', '--database-url', url]);
      assert.match(stdout, /30 comments \(30 added, 0 already there, 0 re-moderated\).*views of 2 posts \(\+49\), 2 tokens \(2 added\), 2 quota counts, 1 agent blocks \(1 added\); verified/);
      const target = await openPostgresStore(url, 'tool', { onError: () => {} });
      try {
        assert.deepEqual(await contents(target), expected);
      } finally {
        await target.close();
      }
      const again = await cli(project.root, ['store', 'copy', '--to', 'postgres'], { DATABASE_URL: url });
      assert.match(again.stdout, /30 comments \(0 added, 30 already there, 0 re-moderated\).*\(\+0\), 2 tokens \(0 added\)/);
    });

    await t.test('should copy postgres → files', async () => {
      const { stdout } = await cli(project.root, ['store', 'copy', '--to', 'files', '--data-dir', back], { AGORA_STORE: 'postgres', DATABASE_URL: url });
      assert.match(stdout, /copied postgres → files: 30 comments \(30 added/);
      const copy = await openEmbeddedStore(back, 'tool');
      try {
        assert.deepEqual(await contents(copy), expected);
      } finally {
        await copy.close();
      }
    });

    await t.test('should fail loudly when the target holds something else', async () => {
      const other = await db.createDatabase();
      const target = await openPostgresStore(other, 'tool', { onError: () => {} });
      const stray = makeComment({ slug: SLUGS[0]! });
      await target.comments.add(stray);
      await target.views.add(new Map([[SLUGS[1]!, 100]]));
      // A comment of the source's id saying something else (a target copied from another site).
      const twin = { ...expected.comments[0]!, body: 'Not what the source says.' };
      delete (twin as { hidden?: boolean }).hidden;
      await target.comments.importMany([{ ...twin, hidden_reason: undefined }]);
      const before = await contents(target);
      await target.close();
      await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'postgres', '--database-url', other]), (e: { code: number; stderr: string }) => {
        assert.equal(e.code, 1);
        assert.match(e.stderr, new RegExp(`comment ${stray.id} is in the target only`));
        assert.match(e.stderr, new RegExp(`comment ${twin.id} differs in the target`));
        assert.match(e.stderr, /views of .*: 7 in the source, 100 in the target \(counts are never lowered\)/);
        assert.match(e.stderr, /Nothing was copied: neither store was changed/);
        return true;
      });
      // Refused before its first write: the target holds what it held, nothing of the source.
      const after = await openPostgresStore(other, 'tool', { onError: () => {} });
      try {
        assert.deepEqual(await contents(after), before);
      } finally {
        await after.close();
      }
    });

    await t.test('should refuse a copy without its target', async () => {
      await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'postgres']), (e: { stderr: string }) => /needs the target database: pass `--database-url/.test(e.stderr));
      await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'files']), (e: { stderr: string }) => /needs the target folder: pass `--data-dir/.test(e.stderr));
    });

    await t.test('should refuse --data-dir with --to postgres, and a files source that does not exist, copying nothing', async () => {
      // `--data-dir` names the target of `--to files`; with `--to postgres` it was ignored, the
      // site's own (here missing) data folder was made and copied as empty, "0 comments … verified".
      const empty = await db.createDatabase();
      const missing = join(back, 'no-such-data');
      await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'postgres', '--database-url', empty, '--data-dir', project.config.dataDir]), (e: { code: number; stderr: string }) => {
        assert.equal(e.code, 1);
        assert.match(e.stderr, /`--data-dir` names the target folder of `--to files`; `--to postgres` copies this site's configured store .*AGORA_DATA_DIR.*nothing was copied/);
        return true;
      });
      await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'postgres', '--database-url', empty], { AGORA_DATA_DIR: missing }), (e: { code: number; stderr: string }) => {
        assert.equal(e.code, 1);
        assert.match(e.stderr, /There is no files store to copy: `[^`]*no-such-data` does not exist.*AGORA_DATA_DIR.*nothing was copied/);
        return true;
      });
      await assert.rejects(stat(missing), { code: 'ENOENT' }, 'the missing source folder is not made');
      const target = await openPostgresStore(empty, 'tool', { onError: () => {} });
      try {
        assert.deepEqual((await contents(target)).comments, []);
      } finally {
        await target.close();
      }
    });

    await t.test('should refuse to copy beside a running writer, from its store or into it, and change nothing', async () => {
      // The source's writer: a copy beside it could miss or tear what it writes meanwhile.
      const writer = await startTestServer(project);
      try {
        await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'postgres', '--database-url', url]), (e: { stderr: string }) => {
          assert.match(e.stderr, /A writer is running on `[^`]+` \(pid \d+\): a copy beside it could miss or tear what it writes meanwhile\. Stop it \(SIGTERM\), run this again, then start it\./);
          return true;
        });
      } finally {
        await writer.close();
      }
      // A writer on the target folder: the copy would fold its view journal away under it (an outside test lost 189,817 answered views so).
      const other = await makeProject({ samplePosts: true });
      try {
        const live = await startTestServer(other);
        let before: unknown;
        try {
          assert.equal((await fetch(`${live.url}/api/views/${SLUGS[0]}`, { method: 'PUT' })).status, 200);
          const store = await openEmbeddedStore(other.config.dataDir, 'tool');
          before = await contents(store);
          await store.close();
          await assert.rejects(cli(project.root, ['store', 'copy', '--to', 'files', '--data-dir', other.config.dataDir]), (e: { stderr: string }) => /A writer is running on .*a copy into it would be overwritten by what the writer stores/.test(e.stderr));
          assert.equal((await fetch(`${live.url}/api/views/${SLUGS[0]}`, { method: 'PUT' })).status, 200);
        } finally {
          await live.close();
        }
        const store = await openEmbeddedStore(other.config.dataDir, 'tool');
        const after = await contents(store);
        await store.close();
        const views = (before as { views: Record<string, number> }).views;
        assert.deepEqual(after, { ...(before as object), views: { ...views, [SLUGS[0]!]: views[SLUGS[0]!]! + 1 } }, 'only the writer\'s own PUT changed it');
      } finally {
        await other.remove();
      }
    });

    await t.test('should round-trip comments export (files) → import (postgres) with identical answers', async (t) => {
      const file = join(back, 'comments.jsonl');
      await cli(project.root, ['comments', 'export', '--out', file]);
      const fresh = await db.createDatabase();
      const pgProject = await makeProject({ samplePosts: true, env: { AGORA_STORE: 'postgres', DATABASE_URL: fresh } });
      t.after(() => pgProject.remove());
      const { stdout } = await cli(pgProject.root, ['comments', 'import', file], { AGORA_STORE: 'postgres', DATABASE_URL: fresh });
      assert.match(stdout, /imported 30 comments on 2 posts; 0 already stored/);
      const [files, postgres] = [await startTestServer(project), await startTestServer(pgProject)];
      t.after(async () => {
        await files.close();
        await postgres.close();
      });
      assert.equal(postgres.store.engine, 'postgres');
      for (const slug of SLUGS) {
        const [a, b] = await Promise.all([files, postgres].map(async (s) => (await fetch(`${s.url}/api/comments/${slug}`)).text()));
        assert.equal(JSON.parse(a!).length, 14, 'hidden comments left out');
        assert.equal(b, a);
      }
    });
  });
}
