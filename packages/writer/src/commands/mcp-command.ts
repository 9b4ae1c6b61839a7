/**
 * `agora mcp`: the site's MCP server over stdio, for a local agent (an MCP client
 * spawns it). Logs go to stderr (stdout carries the protocol). Both protocol eras are
 * served (`serveStdio`: a 2026-07-28 `server/discover` opening or a 2025 `initialize`).
 *
 * Two ways to run, chosen by who holds the data folder:
 * - no writer runs on it: this process starts the writer as `agora start` does (build,
 *   store, rebuilds) on an ephemeral loopback port and serves the tools in process;
 * - a writer runs on it (`npm start`, holding `data/.writer.lock`): this process opens
 *   nothing and passes every request to that writer's `POST /mcp` (mcp/bridge.ts), so
 *   the one writer keeps owning the store and `dist/`. Its address is `--writer`, or
 *   else the configured `HOST`/`PORT`.
 *
 * Either way the server names the configured base URL (`baseUrl` / `AGORA_BASE_URL`).
 */
import { mkdir } from 'node:fs/promises';
import { Command } from 'commander';
import { pino } from 'pino';
import type { AgoraConfig } from '@agora/generator';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { startServer } from '../server.ts';
import { createMcpServer } from '../mcp/server.ts';
import { bridgeServer, connectWriter } from '../mcp/bridge.ts';
import { writerIsRunning } from '../store/embedded/index.ts';

/** Where a writer started with `config` listens, as a URL a local process can reach. */
export function writerUrl(config: Pick<AgoraConfig, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * The `mcp` command.
 *
 * @example program.addCommand(mcpCommand(() => loadConfig()));
 */
export function mcpCommand(loadConfig: () => AgoraConfig): Command {
  return new Command('mcp')
    .description('serve the site as an MCP server over stdio (search, read, comment, public data)')
    .option('--writer <url>', 'when a writer already runs on this data folder: its address (default: the configured HOST and PORT)')
    .action(async (opts: { writer?: string }) => {
      const config = loadConfig();
      const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
      // PostgreSQL nodes share the store: only the embedded store has one writer. (The
      // lock check needs the folder: on a fresh site it does not exist yet.)
      if (config.store.engine === 'files' && (await mkdir(config.dataDir, { recursive: true }), await writerIsRunning(config.dataDir))) {
        const endpoint = new URL('/mcp', opts.writer ?? writerUrl(config));
        const client = await connectWriter(endpoint).catch((error: unknown) => {
          throw new Error(`A writer holds the data folder \`${config.dataDir}\` but its MCP endpoint ${endpoint.href} does not answer (${(error as Error).message}); pass its address with \`agora mcp --writer http://host:port\``);
        });
        logger.info({ writer: endpoint.href }, 'a writer runs on this data folder: serving its MCP endpoint over stdio');
        const handle = serveStdio(() => bridgeServer(client));
        process.stdin.once('end', () => void handle.close().then(() => client.close()).then(() => process.exit(0)));
        return;
      }
      const running = await startServer({ config: { ...config, port: 0, host: '127.0.0.1' }, logger, handleSignals: true });
      const handle = serveStdio(() => createMcpServer(running.agents, { client: 'stdio' }));
      // The client closing stdin ends the session: stop like SIGTERM does.
      process.stdin.once('end', () => void handle.close().then(() => running.close()).then(() => process.exit(0)));
    });
}
