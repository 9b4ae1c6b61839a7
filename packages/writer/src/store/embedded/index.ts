/**
 * The embedded store: lowdb files under `data/`, the default engine.
 *
 *   data/.writer.lock        held by the one writer for its whole life (OS-released lock);
 *                            its pid, then the URL it listens at once recorded (`agora mcp`)
 *   data/.store.lock         taken for each write, by the writer and by CLI commands
 *   data/comments/<slug>.json one post's comments (see comments.ts)
 *   data/changes.jsonl       CLI changes the writer must pick up (see change-journal.ts)
 *   data/views.json + views.journal  view counts, each batch appended and synced before its PUTs are answered (views.ts)
 *   data/tokens.json, quotas.json, agents.json (agent blocks),
 *   agent-nonces.jsonl (signature nonces, synced before each is accepted)
 *
 * Opening as `server` claims the store (a second writer is refused), migrates the old
 * single-file layout, and checks every file, so a broken one stops the start with
 * the file and the fix instead of being overwritten later.
 */
import { mkdir } from 'node:fs/promises';
import { removeStaleTemps } from '@agora/generator/files';
import { join } from 'node:path';
import { StoreError, type Store, type StoreRole } from '../types.ts';
import { claimExclusive, readHolder, FileMutex, type HeldLock } from './os-lock.ts';
import { EmbeddedComments } from './comments.ts';
import { EmbeddedViews } from './views.ts';
import { EmbeddedTokens } from './tokens.ts';
import { EmbeddedQuotas } from './quotas.ts';
import { EmbeddedAgents } from './agents.ts';
import { ChangeJournal } from './change-journal.ts';
import { migrateV1, type MigrationReport } from './migrate-v1.ts';

export const COMMENTS_DIR = 'comments';

export interface EmbeddedStore extends Store {
  readonly dataDir: string;
  /** What the start-up migration did (null: nothing to migrate). */
  readonly migration: MigrationReport | null;
  /**
   * Record where this writer listens (`http://host:port`) in `data/.writer.lock`, after
   * its pid, so `agora mcp` reaches a writer on any port. Only a `server` store holds
   * the lock; elsewhere (and after `close`) this does nothing.
   */
  recordAddress(url: string): void;
}

/** The writer holding a data folder: its pid and the address it recorded (null until it records one). */
export interface RunningWriter {
  pid: number | null;
  url: string | null;
}

const LOCK_FILE = '.writer.lock';

/**
 * Hold a data folder as a writer does, for a command that must not run beside one
 * (`agora store copy`: a writer would write under the copy, or fold its view journal
 * away beneath it). Throws naming the folder, `why`, and the fix.
 */
export async function holdDataFolder(dataDir: string, why: string): Promise<HeldLock> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await claimExclusive(join(dataDir, LOCK_FILE), `the data folder \`${dataDir}\``);
  } catch (error) {
    if (!(error instanceof StoreError && error.code === 'locked')) throw error;
    const { pid } = await readHolder(join(dataDir, LOCK_FILE));
    throw new StoreError('locked', `A writer is running on \`${dataDir}\`${pid !== null ? ` (pid ${pid})` : ''}: ${why}. Stop it (SIGTERM), run this again, then start it.`);
  }
}

/** Whether a writer currently holds this data folder (the CLI then leaves rebuilding to it). */
export async function writerIsRunning(dataDir: string): Promise<boolean> {
  try {
    const lock = await claimExclusive(join(dataDir, LOCK_FILE), dataDir);
    await lock.release();
    return false;
  } catch {
    return true;
  }
}

/**
 * The writer holding this data folder, or null when none does. Its address is the
 * first recorded line that is an http(s) URL (a file written by an older writer has
 * only the pid: then null, and the caller falls back to the configured address).
 */
export async function runningWriter(dataDir: string): Promise<RunningWriter | null> {
  if (!(await writerIsRunning(dataDir))) return null;
  const { pid, url } = await readHolder(join(dataDir, LOCK_FILE));
  return { pid, url };
}

export async function openEmbeddedStore(dataDir: string, role: StoreRole): Promise<EmbeddedStore> {
  await mkdir(dataDir, { recursive: true });
  let held: HeldLock | null = role === 'server' ? await claimExclusive(join(dataDir, LOCK_FILE), `the data folder \`${dataDir}\``) : null;
  const mutex = new FileMutex(join(dataDir, '.store.lock'));
  const journal = new ChangeJournal(join(dataDir, 'changes.jsonl'));
  try {
    const commentsDir = join(dataDir, COMMENTS_DIR);
    const migration = await migrateV1(dataDir, commentsDir, mutex);
    const comments = new EmbeddedComments(commentsDir, mutex, role === 'server' ? null : journal);
    const views = new EmbeddedViews(join(dataDir, 'views.json'));
    const tokens = new EmbeddedTokens(join(dataDir, 'tokens.json'), mutex);
    const quotas = new EmbeddedQuotas(join(dataDir, 'quotas.json'));
    const agents = new EmbeddedAgents(join(dataDir, 'agents.json'), mutex);
    if (role === 'server') {
      // Check every small file now; the comment files are checked as the site loads them.
      await Promise.all([views.load(), tokens.list(), quotas.load(), agents.blocks()]);
      await mutex.run(() => journal.reset());
      // Temporary files of writes a killed process never finished (its pid is gone):
      // whole files are never among them, and they piled up with every SIGKILL.
      await removeStaleTemps(dataDir, { recursive: true });
      comments.startThreads();
    }
    return {
      engine: 'files',
      dataDir,
      migration,
      comments,
      views,
      tokens,
      quotas,
      agents,
      // A command announces a change under the post's lock, then writes it: the posts are read
      // once their locks are free, so never between a command's announcement and its write.
      changes: (onChange) => journal.follow((slugs) => void Promise.all([...slugs].map((slug) => mutex.runFor(slug, async () => {}))).catch(() => {}).then(() => onChange(slugs))),
      recordAddress(url) {
        held?.record([url]);
      },
      async close() {
        await comments.close().catch(() => {});
        await quotas.flush().catch(() => {});
        await views.close().catch(() => {});
        await agents.close().catch(() => {});
        await mutex.close();
        const lock = held;
        held = null;
        await lock?.release();
      },
    };
  } catch (error) {
    await mutex.close().catch(() => {});
    await held?.release();
    throw error;
  }
}
