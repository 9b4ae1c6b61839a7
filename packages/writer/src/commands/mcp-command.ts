/**
 * `agora mcp`: the site's MCP server over stdio, for a local agent (an MCP client
 * spawns it). It starts the writer as `agora start` does — build, store, rebuilds —
 * on an ephemeral loopback port, logs to stderr (stdout carries the protocol), and
 * serves the same tools as `/mcp`. Comments posted here go live as usual.
 */
import { Command } from 'commander';
import { pino } from 'pino';
import type { AgoraConfig } from '@agora/generator';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startServer } from '../server.ts';
import { createMcpServer } from '../mcp/server.ts';

/**
 * The `mcp` command.
 *
 * @example program.addCommand(mcpCommand(() => loadConfig()));
 */
export function mcpCommand(loadConfig: () => AgoraConfig): Command {
  return new Command('mcp')
    .description('serve the site as an MCP server over stdio (search, read, comment, public data)')
    .action(async () => {
      const config = { ...loadConfig(), port: 0, host: '127.0.0.1' };
      const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2));
      const running = await startServer({ config, logger, handleSignals: true });
      const server = createMcpServer(running.agents, { client: 'stdio' });
      const transport = new StdioServerTransport();
      // The client closing stdin ends the session: stop like SIGTERM does.
      transport.onclose = () => void running.close().then(() => process.exit(0));
      process.stdin.on('end', () => void server.close());
      await server.connect(transport);
    });
}
