/**
 * The `agora` command line (commander). Thin: parse flags, call the packages, report,
 * set the exit code.
 *
 * Start-up stays light: what `agora --help` runs is this file and what it imports
 * statically (commander, `@agora/generator/config` and `/types`,
 * `@agora/writer/commands`), bundled into one CommonJS file by `npm run compile`. The
 * generator (unified, highlight.js, …) and the writer (Express, pino, pg, …) are
 * imported inside the actions of the commands that need them, and the writer's own
 * commands come from `@agora/writer/commands`, which loads each one only when it runs.
 * A static import added here goes into the bundle: bin/compile.mjs refuses one from a
 * package that bin/freshness.mjs does not watch (SOURCES). An ES module (`.mts`) in a
 * CommonJS folder (bin/package.json, for bin/agora).
 */
import { Command, Option } from 'commander';
import { resolve } from 'node:path';
import { loadConfig } from '@agora/generator/config';
import { CATEGORIES } from '@agora/generator/types';
import { addWriterCommands, missingKeysOf, withStoreSnapshot } from '@agora/writer/commands';
import type { AgoraConfig, Message, Category } from '@agora/generator';

const generator = () => import('@agora/generator');

const program = new Command('agora')
  .description('Publish knowledge for AI agents: markdown posts to a static site, plus a thin comment writer.')
  .option('-C, --root <dir>', 'project root (where agora.config.json lives)', process.cwd())
  .showHelpAfterError();

function config(overrides: Partial<AgoraConfig> = {}): AgoraConfig {
  return loadConfig({ root: resolve(program.opts().root as string), overrides });
}

async function printMessages(messages: readonly Message[]): Promise<void> {
  const { formatMessage } = await generator();
  for (const m of messages) (m.severity === 'error' ? console.error : console.warn)(formatMessage(m));
}

async function fail(error: unknown): Promise<void> {
  process.exitCode = 1;
  const { ContentError } = await generator();
  if (error instanceof ContentError) {
    await printMessages(error.messages);
    console.error(error.message);
  } else console.error(`agora: ${(error as Error).message}`);
}

/** Wrap a command's action: any error is reported once, the same way, with exit code 1. */
function guarded<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args) => {
    try {
      await action(...args);
    } catch (error) {
      await fail(error);
    }
  };
}

/** One plain line for a person, besides the structured log. */
function announce(running: { url: string; build: { posts: number } }): void {
  console.log(`Agora is serving ${running.url} (site: ${running.build.posts} posts, writer ready)`);
}

program
  .command('build')
  .description('build content/ into dist/, writing only files that changed')
  .option('--force', 'ignore caches: render and write everything into a clean dist/')
  .action(
    guarded(async (opts: { force?: boolean }) => {
      const cfg = config();
      const { build, printable } = await generator();
      // Entries whose provider key this environment lacks are built as pending_key.
      const missingKeys = await missingKeysOf(process.env);
      // The comments and views to show come from the store the writer uses.
      const { result } = await withStoreSnapshot(cfg, (store) => build(cfg, {
        force: opts.force,
        store,
        missingKeys,
        onCommentPlain: (c, reason) => console.warn(`warning: comment ${c.id} on ${printable(c.slug)} cannot be rendered (${reason}); it is shown as plain text. Edit it in the store, or hide it: agora comments hide ${c.id}`),
      }));
      await printMessages(result.messages);
      console.log(`built ${result.posts} posts in ${result.ms} ms: ${result.rendered} rendered, ${result.written.length} files written, ${result.unchanged} unchanged, ${result.removed.length} removed${result.search ? `; search index: ${result.search.pages} post pages indexed by Pagefind in ${result.search.ms} ms` : ''}`);
    }),
  );

program
  .command('check')
  .description('validate every post and the catalog; report every problem with file:line and the fix')
  .action(
    guarded(async () => {
      const { check } = await generator();
      const result = await check(config());
      await printMessages(result.messages);
      console.log(`${result.files} files checked: ${result.errors} error${result.errors === 1 ? '' : 's'}, ${result.warnings} warning${result.warnings === 1 ? '' : 's'}`);
      if (result.errors > 0) process.exitCode = 1;
    }),
  );

for (const name of ['serve', 'start']) {
  program
    .command(name)
    .description(name === 'serve' ? 'build, then serve dist/ and the writer on one port' : 'same as serve (what `npm start` runs)')
    .option('-p, --port <port>', 'port (default $PORT or 8080)')
    .option('-H, --host <host>', 'host (default $HOST or 127.0.0.1)')
    .action(
      guarded(async (opts: { port?: string; host?: string }) => {
        const { startServer, createLogger } = await import('@agora/writer');
        const running = await startServer({ config: config({ ...(opts.port ? { port: Number(opts.port) } : {}), ...(opts.host ? { host: opts.host } : {}) }), logger: createLogger({ level: process.env.LOG_LEVEL }) });
        announce(running);
      }),
    );
}

program
  .command('dev')
  .description('serve, and rebuild on every change under content/')
  .option('-p, --port <port>', 'port (default $PORT or 8080)')
  .action(
    guarded(async (opts: { port?: string }) => {
      const cfg = config(opts.port ? { port: Number(opts.port) } : {});
      const { startServer, createLogger } = await import('@agora/writer');
      const { watch } = await generator();
      const server = await startServer({ config: cfg, logger: createLogger({ level: process.env.LOG_LEVEL }) });
      announce(server);
      await watch(cfg, {
        state: server.state,
        onBuild: (result, changed) => {
          void printMessages(result.messages).then(() => console.log(`rebuilt (${changed.length} changed) in ${result.ms} ms: ${result.rendered} rendered, ${result.written.length} written`));
        },
        onError: (error) => void fail(error),
      });
    }),
  );

program
  .command('new')
  .description('scaffold a post with the front matter in the fixed order and today\'s date')
  .argument('<title>', 'post title, keyword first')
  .addOption(new Option('-c, --category <category>', 'category').choices([...CATEGORIES]).makeOptionMandatory())
  .requiredOption('-m, --model <model>', 'authoring model name (or author label)')
  .option('-s, --summary <summary>', 'one-line summary')
  .option('-t, --tags <tags>', 'comma-separated tags')
  .option('--human', 'mark the post author_type: human')
  .option('--slug <slug>', 'file name without .md (default: date and title words)')
  .action(
    guarded(async (title: string, opts: { category: Category; model: string; summary?: string; tags?: string; human?: boolean; slug?: string }) => {
      const { newPost } = await generator();
      const path = await newPost({ contentDir: config().contentDir, title, category: opts.category, model: opts.model, summary: opts.summary, tags: opts.tags, authorType: opts.human ? 'human' : 'ai-agent', slug: opts.slug });
      console.log(`created ${path}`);
    }),
  );

// The writer's commands (comments, token, db, store, mcp) load the writer only when run, like serve.
addWriterCommands(program, () => config());

// Errors of subcommands defined in the packages are reported here, the same way. Not a
// top-level await: the compiled bundle is CommonJS (bin/compile.mjs).
void program.parseAsync(process.argv).catch(fail);
