/**
 * `agora store copy --to postgres|files`: move a site between store engines. Thin:
 * opens the configured store (the source) and the target, calls `copyStore`, prints
 * the report; any mismatch left after the copy fails with exit code 1. A files store on
 * either side is held as a writer holds it, so the copy refuses to run beside a writer.
 */
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { AgoraConfig } from '@agora/generator';
import { openStore } from '../store/open.ts';
import { holdDataFolder, openEmbeddedStore } from '../store/embedded/index.ts';
import type { Store } from '../store/types.ts';
import { copyStore } from '../transfer/store-copy.ts';

interface CopyOptions {
  to: 'postgres' | 'files';
  databaseUrl?: string;
  dataDir?: string;
}

/** Open the target named by the flags, or fail naming the missing one. */
async function openTarget(config: AgoraConfig, options: CopyOptions): Promise<Store> {
  if (options.to === 'postgres') {
    const url = options.databaseUrl ?? process.env.DATABASE_URL;
    if (!url || !/^postgres(ql)?:\/\//.test(url)) throw new Error('`--to postgres` needs the target database: pass `--database-url postgres://user:secret@host:5432/agora` or set `DATABASE_URL`');
    if (config.store.engine === 'postgres' && url === config.store.databaseUrl) throw new Error('The target database is the configured store itself: copy from the files store (unset `AGORA_STORE`) or pass another `--database-url`');
    const { openPostgresStore } = await import('../store/postgres/index.ts');
    return openPostgresStore(url, 'tool');
  }
  if (!options.dataDir) throw new Error('`--to files` needs the target folder: pass `--data-dir <dir>` (a new folder; not the data/ of a running writer)');
  const dir = resolve(options.dataDir);
  if (config.store.engine === 'files' && dir === resolve(config.dataDir)) throw new Error(`\`--data-dir ${options.dataDir}\` is the source store itself: name another folder`);
  return openEmbeddedStore(dir, 'tool');
}

/**
 * Refuse what would copy something other than the operator meant, before any folder is
 * held (holding one makes it). `--data-dir` with `--to postgres` was ignored: the site's
 * own data folder was copied instead; a files source that does not exist was made empty
 * and copied as "0 comments … verified".
 */
async function checkSource(config: AgoraConfig, options: CopyOptions): Promise<void> {
  const shown = (dir: string) => relative(process.cwd(), dir) || '.';
  if (options.to === 'postgres' && options.dataDir !== undefined) {
    const source = config.store.engine === 'files' ? `the files store in \`${shown(config.dataDir)}\`` : 'PostgreSQL';
    throw new Error(`\`--data-dir\` names the target folder of \`--to files\`; \`--to postgres\` copies this site's configured store (${source}): to copy another data folder, set \`AGORA_DATA_DIR=${options.dataDir}\` instead (or run the copy in its site with \`-C <site>\`); nothing was copied`);
  }
  if (config.store.engine !== 'files') return;
  const info = await stat(config.dataDir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new Error(`There is no files store to copy: \`${shown(config.dataDir)}\` ${info ? 'is not a folder' : 'does not exist'} (this site's data folder by its settings). Run the copy in the site whose writer stored the comments (\`-C <site>\`), or set \`AGORA_DATA_DIR\` to the folder it used; nothing was copied`);
  }
}

/**
 * Hold every files store of the copy as a writer holds it, so the copy refuses to run
 * beside a writer: one on the target would overwrite the copy and fold its view journal
 * away under it, one on the source would change it while it is read (a torn copy,
 * verified against itself). Returns the release.
 */
async function holdFileStores(config: AgoraConfig, options: CopyOptions): Promise<() => Promise<void>> {
  const dirs: [string, string][] = [];
  if (config.store.engine === 'files') dirs.push([resolve(config.dataDir), 'a copy beside it could miss or tear what it writes meanwhile']);
  // The source itself as the target is refused by `openTarget`, with its own message.
  if (options.to === 'files' && options.dataDir && !dirs.some(([dir]) => dir === resolve(options.dataDir!))) dirs.push([resolve(options.dataDir), 'a copy into it would be overwritten by what the writer stores']);
  const held: { release(): Promise<void> }[] = [];
  const release = async () => {
    for (const lock of held.splice(0)) await lock.release();
  };
  try {
    for (const [dir, why] of dirs) held.push(await holdDataFolder(dir, why));
  } catch (error) {
    await release();
    throw error;
  }
  return release;
}

/**
 * The `store` command.
 *
 * @param loadConfig Reads the configuration when a subcommand runs (so `-C <root>` applies).
 * @example program.addCommand(storeCommand(() => config()));
 */
export function storeCommand(loadConfig: () => AgoraConfig): Command {
  const store = new Command('store').description('move comments, views, tokens and quotas between store engines');
  store
    .command('copy')
    .description('copy everything of the configured store into another engine (idempotent; verified at the end)')
    .addOption(new Option('--to <engine>', 'target engine').choices(['postgres', 'files']).makeOptionMandatory())
    .option('--database-url <url>', 'target database for --to postgres (default $DATABASE_URL)')
    .option('--data-dir <dir>', 'target folder for --to files')
    .action(async (options: CopyOptions) => {
      const config = loadConfig();
      await checkSource(config, options);
      const release = await holdFileStores(config, options);
      try {
        await copyInto(config, options);
      } finally {
        await release();
      }
    });
  return store;
}

/** Open both stores, copy, print the report (`copyStore` verifies it). */
async function copyInto(config: AgoraConfig, options: CopyOptions): Promise<void> {
  const target = await openTarget(config, options);
  try {
    const source = await openStore(config, 'tool');
    try {
      const r = await copyStore(source, target);
      process.stdout.write(
        `copied ${config.store.engine} → ${options.to}: ${r.comments.source} comments (${r.comments.added} added, ${r.comments.existing} already there, ${r.comments.updated} re-moderated), ` +
          `views of ${r.views.slugs} posts (+${r.views.added}), ${r.tokens.source} tokens (${r.tokens.added} added), ${r.quotas} quota counts, ${r.agentBlocks.source} agent blocks (${r.agentBlocks.added} added); verified\n`,
      );
    } finally {
      await source.close();
    }
  } finally {
    await target.close();
  }
}
