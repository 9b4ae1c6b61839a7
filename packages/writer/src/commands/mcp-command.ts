/**
 * `agora mcp`: the site's MCP server over stdio, for a local agent (an MCP client
 * spawns it). Logs go to stderr (stdout carries the protocol). Both protocol eras are
 * served (`serveStdio`: a 2026-07-28 `server/discover` opening or a 2025 `initialize`).
 *
 * Two ways to run, chosen by who holds the data folder:
 * - no writer runs on it: this process starts the writer as `agora start` does (build,
 *   store, rebuilds) on an ephemeral loopback port and serves the tools in process;
 * - a writer runs on it (`npm start`, holding `data/.writer.lock`; on PostgreSQL, the
 *   writer holding this site's `dist/`, which records its address in `.dist.lock`): this process opens
 *   nothing and passes every request to that writer's `POST /mcp` (mcp/bridge.ts), so
 *   the one writer keeps owning the store and `dist/`. Its address is `--writer`, else
 *   the one the writer recorded in the lock file after its pid (`<pid>\n<url>\n`: any
 *   port, whatever this process's `PORT`), else the configured `HOST`/`PORT`.
 *
 * Either way the server names the configured base URL (`baseUrl` / `AGORA_BASE_URL`).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { pino } from 'pino';
import type { AgoraConfig } from '@agora/generator';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { startServer } from '../server.ts';
import { logLevel } from '../logger.ts';
import { createMcpServer } from '../mcp/server.ts';
import { writerUrl } from '../mcp/http.ts';
import { bridgeServer, connectWriter } from '../mcp/bridge.ts';
import { openStdioSession } from '../mcp/stdio-session.ts';
import { runningWriter } from '../store/embedded/index.ts';
import { distLockPath, distWriter } from '../rebuild/dist-lock.ts';

/** The running writer's address and where it came from (said in the error when it does not answer). */
function writerAddress(given: string | undefined, recorded: string | null, lock: string, config: AgoraConfig): { url: string; from: string } {
  if (given) return { url: given, from: '--writer' };
  if (recorded) return { url: recorded, from: `recorded by the writer in ${lock}` };
  return { url: writerUrl(config), from: 'the configured HOST and PORT' };
}

/**
 * The `mcp` command.
 *
 * @example program.addCommand(mcpCommand(() => loadConfig()));
 */
export function mcpCommand(loadConfig: () => AgoraConfig): Command {
  return new Command('mcp')
    .description('serve the site as an MCP server over stdio (search, read, comment, public data)')
    .option('--writer <url>', 'when a writer already runs on this data folder: its address (default: the one it recorded in data/.writer.lock, else the configured HOST and PORT)')
    .action(async (opts: { writer?: string }) => {
      // Only an http(s) address reaches a writer: `127.0.0.1:8080` said only "Invalid URL", naming no option.
      if (opts.writer !== undefined && !(URL.canParse(opts.writer) && /^https?:$/.test(new URL(opts.writer).protocol))) {
        throw new Error(`Unexpected --writer \`${opts.writer}\`, expected the running writer's http(s) address like \`http://127.0.0.1:8080\``);
      }
      const config = loadConfig();
      const logger = pino({ level: logLevel(process.env.LOG_LEVEL, 'warn') }, pino.destination(2));
      // The embedded store has one writer, which holds the data folder. (The lock check
      // needs the folder: on a fresh site it does not exist yet.) PostgreSQL nodes share the
      // store, but each writes its own dist/: a writer holding this folder's dist/ (it
      // records its address there) serves it, and a node of our own would wait for it forever.
      const held = config.store.engine === 'files' ? (await mkdir(config.dataDir, { recursive: true }), await runningWriter(config.dataDir)) : null;
      const writer = held ? { ...held, holds: `the data folder \`${config.dataDir}\``, lock: join(config.dataDir, '.writer.lock') } : await distWriter(config.distDir).then((w) => w && { ...w, holds: `the site's \`${config.distDir}\``, lock: distLockPath(config.distDir) });
      if (writer) {
        const address = writerAddress(opts.writer, writer.url, writer.lock, config);
        const endpoint = new URL('/mcp', address.url);
        const client = await connectWriter(endpoint).catch((error: unknown) => {
          throw new Error(`A writer${writer.pid !== null ? ` (pid ${writer.pid})` : ''} holds ${writer.holds} but its MCP endpoint ${endpoint.href} (${address.from}) does not answer (${(error as Error).message}); pass its address with \`agora mcp --writer http://host:port\``);
        });
        logger.info({ writer: endpoint.href }, 'a writer runs on this data folder: serving its MCP endpoint over stdio');
        // Every request read is answered before the session ends (stdio-session.ts).
        const session = openStdioSession();
        const handle = serveStdio(() => bridgeServer(client, endpoint), { transport: session.transport });
        void session.finished.then(() => handle.close()).then(() => client.close()).then(() => process.exit(0));
        return;
      }
      const running = await startServer({ config: { ...config, port: 0, host: '127.0.0.1' }, logger, handleSignals: true });
      const session = openStdioSession();
      const handle = serveStdio(() => createMcpServer(running.agents, { client: 'stdio' }), { transport: session.transport });
      // The client closing stdin ends the session once its requests are answered: stop like SIGTERM does.
      void session.finished.then(() => handle.close()).then(() => running.close()).then(() => process.exit(0));
    });
}
