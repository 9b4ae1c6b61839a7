/**
 * `agora agents block|unblock|list`: the operator's commands for signing agents (Web
 * Bot Auth). A block names an origin (`https://agent.example`: every key of its
 * directory) or one key (its JWK thumbprint). Blocks live in the store the server uses
 * (`data/agents.json`, or the `agent_blocks` table), which every writer node reads on
 * each signed request: a block applies to the next request on every node, and a
 * blocked agent gets 403 `agent_blocked`. Comments already stored stay as they are
 * (hide them with `agora comments hide`).
 */
import { Command } from 'commander';
import type { AgoraConfig } from '@agora/generator';
import { openStore } from '../store/open.ts';
import { withDataDirOption } from './data-dir-option.ts';
import type { AgentBlock, AgentStore } from '../store/types.ts';
import { canonicalHost } from '../agents/key-directory.ts';

const DATA_DIR = 'an existing data folder (default: dataDir of agora.config.json, $AGORA_DATA_DIR, or ./data)';

async function withAgents<T>(config: AgoraConfig, options: { dataDir?: string }, fn: (agents: AgentStore) => Promise<T>): Promise<T> {
  const store = await openStore(await withDataDirOption(config, options.dataDir), 'tool');
  try {
    return await fn(store.agents);
  } finally {
    await store.close();
  }
}

/**
 * What a command-line word names: an origin (a URL: only its origin is kept) or a key thumbprint.
 *
 * @throws Error when it is neither.
 */
export function blockTarget(word: string): Pick<AgentBlock, 'kind' | 'value'> {
  if (/^https?:\/\//i.test(word)) {
    if (!URL.canParse(word)) throw new Error(`\`${word}\` is not a URL: name an agent origin such as https://agent.example`);
    // The spelling the writer knows the agent by (no trailing dot, IPv4-mapped IPv6 as IPv4):
    // a block stored in another one would match no request.
    return { kind: 'origin', value: canonicalHost(new URL(word)).origin };
  }
  if (/^[A-Za-z0-9_-]{16,128}$/.test(word)) return { kind: 'key', value: word };
  throw new Error(`\`${word}\` is neither an agent origin (https://agent.example) nor a key thumbprint (base64url, e.g. the keyid of a comment's agent)`);
}

/*
 * keyidMayStartWithDash: a JWK thumbprint is base64url, so one key in 64 starts with
 * `-` (`-ZYj4uhG…`). Commander would read it as an unknown option and refuse it, so
 * block and unblock let unknown options through as their argument; blockTarget still
 * refuses anything that is not an origin or a thumbprint, and a mistyped option
 * (`--dat-dir x`) ends in its error or in commander's "too many arguments".
 */

/**
 * The `agents` command with its subcommands.
 *
 * @example program.addCommand(agentsCommand(() => loadConfig()));
 */
export function agentsCommand(loadConfig: () => AgoraConfig): Command {
  const agents = new Command('agents').description('block, unblock and list signing agents (Web Bot Auth) on every writer node');

  agents
    .command('block')
    .description('block an agent origin (every key of its directory) or one key; its signed requests then answer 403')
    .argument('<origin-or-keyid>', 'an origin such as https://agent.example, or a JWK thumbprint (the keyid of a comment\'s agent)')
    .option('--data-dir <dir>', DATA_DIR)
    .allowUnknownOption() // see keyidMayStartWithDash
    .action(async (word: string, options: { dataDir?: string }) => {
      const target = blockTarget(word);
      const added = await withAgents(loadConfig(), options, (a) => a.block({ ...target, created_at: new Date().toISOString() }));
      process.stdout.write(`${added ? 'blocked' : 'already blocked'} ${target.kind} ${target.value}\n`);
    });

  agents
    .command('unblock')
    .description('lift a block')
    .argument('<origin-or-keyid>', 'as given to `agora agents block`')
    .option('--data-dir <dir>', DATA_DIR)
    .allowUnknownOption() // see keyidMayStartWithDash
    .action(async (word: string, options: { dataDir?: string }) => {
      const target = blockTarget(word);
      if (await withAgents(loadConfig(), options, (a) => a.unblock(target.kind, target.value))) {
        process.stdout.write(`unblocked ${target.kind} ${target.value}\n`);
        return;
      }
      throw new Error(`Cannot \`unblock\`: ${target.kind} ${target.value} is not blocked; see \`agora agents list\``);
    });

  agents
    .command('list')
    .description('list blocked agent origins and keys')
    .option('--data-dir <dir>', DATA_DIR)
    .option('--json', 'print JSON')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      const blocks = await withAgents(loadConfig(), options, (a) => a.blocks());
      if (options.json) return void process.stdout.write(`${JSON.stringify(blocks, null, 2)}\n`);
      if (blocks.length === 0) process.stdout.write('no blocked agents; block one with `agora agents block <origin-or-keyid>`\n');
      for (const b of blocks) process.stdout.write(`${b.kind}\t${b.value}\t${b.created_at}\n`);
    });

  return agents;
}
