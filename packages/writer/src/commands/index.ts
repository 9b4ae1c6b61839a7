/**
 * @module @agora/writer/commands: the writer's CLI commands (comments, token, db, store,
 * mcp) for `agora`, without loading the writer. Each is added as a light placeholder
 * (name and description: enough for `agora --help`); only when commander dispatches to
 * it is its real module imported (Express, pino, pg, the MCP SDK, …) and the
 * placeholder completed from the real command: its subcommands, options and
 * arguments, or, for a command without subcommands, its action. `agora help <command>`
 * does the same before printing.
 */
import { Command } from 'commander';
import type { AgoraConfig, MissingKeys, StoreSnapshot } from '@agora/generator';

type CommandFactory = (loadConfig: () => AgoraConfig) => Command;

export interface WriterCommand {
  name: string;
  /** Shown by `agora --help`; the same as the real command's (a test compares them). */
  description: string;
  load: () => Promise<CommandFactory>;
}

export const WRITER_COMMANDS: readonly WriterCommand[] = [
  { name: 'comments', description: 'list, moderate, export and import stored comments (changes rebuild the affected pages)', load: async () => (await import('./comments-command.ts')).commentsCommand },
  { name: 'token', description: 'issue, list and revoke agent tokens for POST /agencatalog/api/call', load: async () => (await import('./token-command.ts')).tokenCommand },
  { name: 'agents', description: 'block, unblock and list signing agents (Web Bot Auth) on every writer node', load: async () => (await import('./agents-command.ts')).agentsCommand },
  { name: 'db', description: 'the PostgreSQL store: schema migrations and status', load: async () => (await import('./db-command.ts')).dbCommand },
  { name: 'store', description: 'move comments, views, tokens and quotas between store engines', load: async () => (await import('./store-command.ts')).storeCommand },
  { name: 'mcp', description: 'serve the site as an MCP server over stdio (search, read, comment, public data)', load: async () => (await import('./mcp-command.ts')).mcpCommand },
];

/** Make `placeholder` behave as `real`: take over its subcommands, options and arguments, or run it as a whole. */
function complete(placeholder: Command, real: Command): void {
  real.parent = placeholder.parent;
  // A usage mistake: one line and where the usage is, as the CLI's own commands say it.
  const hint = (command: Command, name: string) => command.showHelpAfterError(`(run \`agora ${name} --help\` for usage)`);
  hint(real, placeholder.name());
  for (const sub of real.commands) hint(sub, `${placeholder.name()} ${sub.name()}`);
  if (real.commands.length === 0) {
    // A command with its own action: hand it every word after its name (its help too).
    placeholder.helpOption(false).allowUnknownOption().allowExcessArguments().action(async () => {
      await real.parseAsync(placeholder.args, { from: 'user' });
    });
    return;
  }
  placeholder.description(real.description());
  for (const option of real.options) placeholder.addOption(option);
  for (const argument of real.registeredArguments) placeholder.addArgument(argument);
  for (const sub of real.commands) placeholder.addCommand(sub);
}

/**
 * Add the writer's commands to `program`, loaded only when one of them runs.
 *
 * @param loadConfig Reads the configuration when a subcommand runs (so `-C <root>` applies).
 * @example addWriterCommands(program, () => config());
 */
export function addWriterCommands(program: Command, loadConfig: () => AgoraConfig): void {
  const pending = new Map<Command, WriterCommand>();
  for (const entry of WRITER_COMMANDS) {
    const placeholder = new Command(entry.name).description(entry.description);
    pending.set(placeholder, entry);
    program.addCommand(placeholder);
  }
  const load = async (sub: Command) => {
    const entry = pending.get(sub);
    if (!entry) return;
    pending.delete(sub);
    complete(sub, (await entry.load())(loadConfig));
  };
  program.hook('preSubcommand', (_program, sub) => load(sub));
  // commander's own `help <command>` prints the help synchronously, before any hook: this one
  // (same name and text, listed last like it) completes a placeholder first.
  program
    .command('help')
    .argument('[command]')
    .description('display help for command')
    .action(async (name?: string) => {
      if (!name) program.help();
      const sub = program.commands.find((c) => c.name() === name || c.aliases().includes(name!));
      if (!sub) program.help({ error: true });
      await load(sub!);
      sub!.help();
    });
}

/**
 * The catalog entries whose provider key this environment lacks, for
 * `BuildOptions.missingKeys`: what `agora build` shows as `pending_key`, read as the
 * writer reads its keys (`public-data/key-status.ts`), without loading the writer.
 *
 * @param env The environment of the building process.
 * @example await build(config, { missingKeys: await missingKeysOf(process.env) })
 */
export async function missingKeysOf(env: NodeJS.ProcessEnv): Promise<MissingKeys> {
  const { keyStatusFromEnv } = await import('../public-data/key-status.ts');
  return keyStatusFromEnv(env).catalog;
}

/**
 * For `agora build`: run `fn` holding `dist/` (refused while a writer keeps it:
 * `rebuild/dist-lock.ts`) with the comments and views of the configured store (the one
 * the writer uses), opened as a tool and closed after, without loading the server.
 *
 * @example const { result } = await withStoreSnapshot(config, (store) => build(config, { store }));
 */
export async function withStoreSnapshot<T>(config: AgoraConfig, fn: (snapshot: StoreSnapshot) => Promise<T>): Promise<T> {
  const [{ withStore }, { loadSnapshot }, { withDist }] = await Promise.all([import('../store/with-store.ts'), import('../store/snapshot.ts'), import('../rebuild/dist-lock.ts')]);
  return withDist(config.distDir, () => withStore(config, async (store) => fn(await loadSnapshot(store))));
}
