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
import { loadConfig, missingSite } from '@agora/generator/config';
import { CATEGORIES } from '@agora/generator/types';
import { addWriterCommands, missingKeysOf, withStoreSnapshot } from '@agora/writer/commands';
import type { AgoraConfig, LoadConfigOptions, Message, Category } from '@agora/generator';

const generator = () => import('@agora/generator');

// Output piped into a reader that stops early (`agora comments list | head`): stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = new Command('agora')
  .description('Publish knowledge for AI agents: markdown posts to a static site, plus a thin comment writer.')
  .option('-C, --root <dir>', 'project root (where agora.config.json lives; default: AGORA_ROOT, else the current folder)')
  .option('-v, --version', 'print the version of agora and exit');

// Read only when asked: `agora --help` stays three files.
program.on('option:version', () => {
  console.log(agoraVersion());
  process.exit(0);
});

/**
 * The `version` of the package that holds this CLI: the first package.json named `agora`
 * above the script Node ran (bin/agora, through any npm link or npx symlink).
 */
function agoraVersion(): string {
  const fs = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  let dir = path.dirname(fs.realpathSync(process.argv[1] ?? '.'));
  for (;;) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'agora' && pkg.version) return `agora ${pkg.version} (Node.js ${process.versions.node})`;
    } catch {
      // no package.json here: go up
    }
    const up = path.dirname(dir);
    if (up === dir) return `agora (version unknown) (Node.js ${process.versions.node})`;
    dir = up;
  }
}

/** `-C <dir>`, else `AGORA_ROOT`, else the current folder. */
function projectRoot(): string {
  return resolve((program.opts().root as string | undefined) ?? process.env.AGORA_ROOT ?? process.cwd());
}

function config(overrides: LoadConfigOptions['overrides'] = {}): AgoraConfig {
  return loadConfig({ root: projectRoot(), overrides });
}

/** The configuration of a folder that must hold a site (build, dev, serve, start); else stop with what is missing and the fix. */
function siteConfig(overrides: LoadConfigOptions['overrides'] = {}): AgoraConfig {
  const cfg = config(overrides);
  const missing = missingSite(cfg);
  if (missing) throw new Error(missing);
  return cfg;
}

/**
 * The configuration of a writer command (comments, token, agents, store, db, mcp). With
 * the files store its data lives in the site's `data/`, so the folder must be a site:
 * run elsewhere, a command made a second, empty store there that no writer reads.
 */
function storeConfig(): AgoraConfig {
  const cfg = config();
  return cfg.store.engine === 'files' ? siteConfig() : cfg;
}

/** `-p/--port` and `-H/--host` as configuration overrides. */
function listenOverrides(opts: { port?: string; host?: string }): { port?: string; host?: string } {
  // As typed: `loadConfig` checks it and quotes it (`-p abc` said `NaN`).
  return { ...(opts.port ? { port: opts.port } : {}), ...(opts.host ? { host: opts.host } : {}) };
}

/** Messages as diagnostics on stderr (a build's, dev's), or as the report itself on stdout (`agora check`'s). */
async function printMessages(messages: readonly Message[], toStdout = false): Promise<void> {
  const { formatMessage } = await generator();
  for (const m of messages) (toStdout ? console.log : m.severity === 'error' ? console.error : console.warn)(formatMessage(m));
}

async function fail(error: unknown): Promise<void> {
  process.exitCode = 1;
  const { ContentError } = await generator();
  if (error instanceof ContentError) {
    await printMessages(error.messages);
    console.error(error.message);
  } else console.error(`agora: ${(error as Error).message}${diskHint(error)}`);
}

/**
 * The fix for a bare system error that names no file and no fix (a write's ENOSPC): a
 * full disk while a command writes `data/`, `dist/` or `.cache/`. Errors that already
 * say what to do (the store's) get nothing added.
 */
function diskHint(error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return '';
  return `${path ? ` (\`${path}\`)` : ''}: the disk holding the site's data/, dist/ or .cache/ folder is full. Free some space on it, then run the command again.`;
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
  console.log(`Agora is serving ${running.url} (site: ${running.build.posts} post${running.build.posts === 1 ? '' : 's'}, writer ready)`);
}

program
  .command('build')
  .description('build content/ into dist/, writing only files that changed')
  .option('--force', 'ignore caches: render and write everything into a clean dist/')
  .action(
    guarded(async (opts: { force?: boolean }) => {
      const cfg = siteConfig();
      const { build, printable, describeBuild, limitHeapGrowth } = await generator();
      // A one-off build's peak memory follows when V8 collects: collect sooner (heap-growth.ts).
      limitHeapGrowth();
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
      console.log(describeBuild(result, `built ${result.posts} post${result.posts === 1 ? '' : 's'}`));
    }),
  );

program
  .command('check')
  .description('validate every post and the catalog; report every problem with file:line and the fix')
  .action(
    guarded(async () => {
      const { check } = await generator();
      // Not a site: refused as build is (a folder with nothing to check passed with 0 files).
      const result = await check(siteConfig());
      // The report is the output: `agora check | less` showed the count alone.
      await printMessages(result.messages, true);
      console.log(`${result.files} file${result.files === 1 ? '' : 's'} checked: ${result.errors} error${result.errors === 1 ? '' : 's'}, ${result.warnings} warning${result.warnings === 1 ? '' : 's'}`);
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
        const config = siteConfig(listenOverrides(opts));
        // Sustained comment load grew V8's heap to 1.2 GB and it kept it: collect sooner (heap-growth.ts).
        const { limitHeapGrowth, WRITER_HEAP_GROWING_PERCENT } = await generator();
        limitHeapGrowth(process.env, WRITER_HEAP_GROWING_PERCENT);
        const { startServer, createLogger } = await import('@agora/writer');
        const running = await startServer({ config, logger: createLogger({ level: process.env.LOG_LEVEL }) });
        announce(running);
      }),
    );
}

program
  .command('dev')
  .description('serve, rebuild on every change under content/, and reload the open page (live reload)')
  .option('-p, --port <port>', 'port (default $PORT or 8080)')
  .option('-H, --host <host>', 'host (default $HOST or 127.0.0.1)')
  .action(
    guarded(async (opts: { port?: string; host?: string }) => {
      const cfg = siteConfig(listenOverrides(opts));
      const { watch, nextContentChange, describeBuild, describeSearchRun, LiveReload, limitHeapGrowth, ContentError } = await generator();
      limitHeapGrowth();
      const { startServer, createLogger } = await import('@agora/writer');
      // Live reload: only this command serves the script and adds it to pages; dist/ never has it.
      const live = new LiveReload(cfg.distDir);
      // Comments and moderation rewrite pages too: an open one reloads as after an edit.
      const start = () => startServer({ config: cfg, logger: createLogger({ level: process.env.LOG_LEVEL }), handlers: [live.handler], onWritten: (paths) => live.rewritten(paths) });
      let server: Awaited<ReturnType<typeof start>>;
      // Content with errors at the start: say them, show them in the browser on the port
      // meanwhile, and start once an edit fixes them.
      let tried: number;
      for (;;) {
        tried = Date.now();
        try {
          server = await start();
          // Built: pages that showed the errors reload when they connect again.
          live.built([]);
          break;
        } catch (error) {
          if (!(error instanceof ContentError)) throw error;
          await printMessages(error.messages);
          live.failed(error.messages);
          const stop = cfg.port === 0 ? null : await live.serveWhileBroken(cfg.host, cfg.port);
          const where = stop ? `; http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port} shows them meanwhile` : '';
          console.error(`agora dev: ${error.message}. Waiting for a fix: dev starts as soon as the content passes (edit the files above)${where}.`);
          // Edits since this try count too (the watcher takes a moment to start).
          await nextContentChange(cfg, tried);
          await stop?.();
        }
      }
      // Before the server's own handler closes it: open event streams would hold the close.
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.prependOnceListener(signal, () => live.close());
      announce(server);
      watchConfigFile(cfg.root, listenOverrides(opts), JSON.stringify(cfg.file));
      // The search index follows edits in the background: say when it has caught up, and how far behind it was.
      server.state.onSearchIndexed((result, status, error) => (error ? console.warn : console.log)(describeSearchRun(result, status, error)));
      await watch(cfg, {
        state: server.state,
        // An edit saved while the site was built, or before the watcher was ready (just after "Agora is serving"), is built now.
        since: tried,
        // The edited page reloads as soon as its file is written; the lists when they are.
        onPages: (pages) => live.built([...pages.written, ...pages.removed]),
        onBuild: async (result, changed) => {
          // A post new to the model (added, or moved away and back) gets the comments and views
          // the store holds for it. The pages that rewrites reload through the writer's
          // `onWritten`; a post with none is written nothing, and its page, which reloaded with
          // the first half, does not reload again.
          if (result.appeared) await server.postsAppeared(result.appeared);
          const first = new Set([...(result.pages?.written ?? []), ...(result.pages?.removed ?? [])]);
          live.built([...result.written, ...result.removed].filter((p) => !first.has(p)));
          const page = result.pages ? `; edited pages in dist/ after ${result.pages.ms} ms` : '';
          void printMessages(result.messages).then(() => console.log(`${describeBuild(result, `rebuilt after ${changed.length} changed file${changed.length === 1 ? '' : 's'}`)}${page}`));
        },
        onError: (error, messages) => {
          live.failed(messages, error);
          void fail(error);
        },
      });
    }),
  );

/**
 * `agora dev` rebuilds on edits under `content/`; an edit of `agora.config.json` changed
 * nothing and said nothing (an invalid key too, which `agora check` refused). Say whether
 * it is valid, and that a restart applies it: the port, the folders and every page's
 * shell hang on it.
 */
function watchConfigFile(root: string, overrides: LoadConfigOptions['overrides'], startedWith: string): void {
  const { watch, existsSync } = process.getBuiltinModule('node:fs');
  let last = '';
  let timer: NodeJS.Timeout | undefined;
  // The folder, not the file: an editor that saves by renaming a new file over it ends a watch on the file.
  const watcher = watch(root, (_event, name) => {
    if (name !== 'agora.config.json') return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      let said: string;
      try {
        const now = JSON.stringify(config(overrides).file);
        // Put back as it was (an undo, a checkout): nothing to restart for.
        said = now === startedWith ? 'agora dev: agora.config.json is as this run started with it again; nothing to restart'
          : existsSync(resolve(root, 'agora.config.json')) ? 'agora dev: agora.config.json changed; restart `agora dev` to apply it (the port, folders and every page depend on it)'
          : 'agora dev: agora.config.json was removed; restart `agora dev` to run with the defaults';
      } catch (error) {
        said = `agora dev: agora.config.json changed and is not valid, so a restart would stop: ${(error as Error).message}`;
      }
      if (said === last) return;
      last = said;
      console.warn(said);
    }, 50);
  });
  watcher.on('error', () => watcher.close());
  watcher.unref();
}

program
  .command('init')
  .description('create a new site (config, one example post, README) in an empty or new folder')
  .argument('[dir]', 'folder to create the site in (default: the current folder, which must be empty)')
  .action(
    guarded(async (dir: string | undefined) => {
      const { initSite } = await generator();
      const site = await initSite({ dir: resolve(projectRoot(), dir ?? '.') });
      console.log(`created a site in ${site.root}: ${site.files.join(', ')}`);
      // Quoted for the shell where it needs it: `cd 내 노트 site` was three arguments.
      // A leading `-` would be read as an option of cd.
      const path = dir?.startsWith('-') ? `./${dir}` : dir;
      const cd = path ? `cd ${/^[\w@%+=:,./-]+$/u.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`} && ` : '';
      console.log(`next: ${cd}agora dev   (serves it and rebuilds on every edit)`);
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
      const path = await newPost({ contentDir: siteConfig().contentDir, title, category: opts.category, model: opts.model, summary: opts.summary, tags: opts.tags, authorType: opts.human ? 'human' : 'ai-agent', slug: opts.slug });
      console.log(`created ${path}`);
    }),
  );

// The writer's commands (comments, token, db, store, mcp) load the writer only when run, like serve.
addWriterCommands(program, storeConfig);

// A usage mistake is one line and where the usage is, for every command (the writer's
// too): the whole help (~30 lines on stderr) buried the line that said what was wrong.
(function hintAfterErrors(command: Command, name: string): void {
  command.showHelpAfterError(`(run \`${name} --help\` for usage)`);
  for (const sub of command.commands) hintAfterErrors(sub, `${name} ${sub.name()}`);
})(program, 'agora');

// Errors of subcommands defined in the packages are reported here, the same way. Not a
// top-level await: the compiled bundle is CommonJS (bin/compile.mjs).
void program.parseAsync(process.argv).catch(fail);
