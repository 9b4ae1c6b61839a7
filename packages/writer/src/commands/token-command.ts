/**
 * `agora token create|list|revoke`: the operator's commands for agent tokens of the
 * catalog proxy. Thin: parses, opens the store the server uses (same configuration:
 * agora.config.json, then the environment, then `--data-dir`), calls `tokens.ts`,
 * prints, sets `process.exitCode`.
 */
import { Command } from 'commander';
import type { AgoraConfig } from '@agora/generator';
import { openStore } from '../store/open.ts';
import { withDataDirOption } from './data-dir-option.ts';
import type { TokenStore } from '../store/types.ts';
import { createToken, listTokens, revokeToken } from '../public-data/tokens.ts';

async function withTokens<T>(config: AgoraConfig, options: { dataDir?: string }, fn: (tokens: TokenStore) => Promise<T>): Promise<T> {
  const store = await openStore(await withDataDirOption(config, options.dataDir), 'tool');
  try {
    return await fn(store.tokens);
  } finally {
    await store.close();
  }
}

/**
 * The `token` command with its subcommands.
 *
 * @example program.addCommand(tokenCommand(() => loadConfig()));
 */
export function tokenCommand(loadConfig: () => AgoraConfig): Command {
  const token = new Command('token').description('issue, list and revoke agent tokens for POST /agencatalog/api/call');

  token
    .command('create')
    .description('issue a token (shown once; only its hash is stored)')
    .option('--label <label>', 'who or what the token is for', 'agent')
    .option('--data-dir <dir>', 'an existing data folder (default: dataDir of agora.config.json, $AGORA_DATA_DIR, or ./data)')
    .action(async (options: { label: string; dataDir?: string }) => {
      const { id, token: value } = await withTokens(loadConfig(), options, (t) => createToken(t, options.label));
      process.stdout.write(`id:    ${id}\ntoken: ${value}\n\nStore the token now: it is not kept and cannot be shown again.\nAgents send it as the X-Agent-Token header.\n`);
    });

  token
    .command('list')
    .description('list tokens (ids, labels, dates; never the tokens)')
    .option('--data-dir <dir>', 'an existing data folder (default: dataDir of agora.config.json, $AGORA_DATA_DIR, or ./data)')
    .option('--json', 'print JSON')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      const tokens = await withTokens(loadConfig(), options, listTokens);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`);
        return;
      }
      if (tokens.length === 0) process.stdout.write('no tokens; create one with `agora token create --label <label>`\n');
      for (const t of tokens) process.stdout.write(`${t.id}\t${t.revoked_at ? `revoked ${t.revoked_at}` : 'active'}\t${t.created_at}\t${t.label}\n`);
    });

  token
    .command('revoke')
    .description('revoke a token by id; calls with it then answer 403')
    .argument('<id>', 'token id, e.g. tok_1a2b3c4d')
    .option('--data-dir <dir>', 'an existing data folder (default: dataDir of agora.config.json, $AGORA_DATA_DIR, or ./data)')
    .action(async (id: string, options: { dataDir?: string }) => {
      if (await withTokens(loadConfig(), options, (t) => revokeToken(t, id))) {
        process.stdout.write(`revoked ${id}\n`);
        return;
      }
      throw new Error(`Cannot \`revoke\`: no token with id \`${id}\`; see \`agora token list\``);
    });

  return token;
}
