/**
 * `agora db migrate|status`: the operator's commands for the PostgreSQL schema. Thin:
 * reads the store settings, calls `migrate`/`schemaStatus`, prints, sets `process.exitCode`.
 * The pg driver is loaded only when a subcommand runs, so other commands never pay for it.
 */
import { Command } from 'commander';
import type { AgoraConfig } from '@agora/generator';

/** The database URL, or an error naming the settings when the store is not PostgreSQL. */
function databaseUrlOf(config: AgoraConfig): string {
  if (config.store.engine !== 'postgres') {
    throw new Error('Cannot use `agora db` with the embedded files store: set `AGORA_STORE=postgres` and `DATABASE_URL` (or `store` and `databaseUrl` in agora.config.json)');
  }
  return config.store.databaseUrl;
}

/** Where the commands print (tests pass their own). */
export interface DbCommandOutput {
  out(text: string): void;
  err(text: string): void;
}

const STDIO: DbCommandOutput = { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };

/**
 * The `db` command with its subcommands.
 *
 * @param loadConfig Reads the configuration when a subcommand runs (so `-C <root>` applies).
 * @param output Where to print (default stdout and stderr).
 * @example program.addCommand(dbCommand(() => config()));
 */
export function dbCommand(loadConfig: () => AgoraConfig, output: DbCommandOutput = STDIO): Command {
  const print = output.out;
  /** Print an error the way the other commands do and set the exit code. */
  const reported = async (action: () => Promise<void>): Promise<void> => {
    try {
      await action();
    } catch (error) {
      output.err(`agora: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  };
  const db = new Command('db').description('the PostgreSQL store: schema migrations and status');

  db.command('migrate')
    .description('create or upgrade the schema (writer nodes also do this when they start)')
    .action(() =>
      reported(async () => {
        const { migrate } = await import('../store/postgres/index.ts');
        const result = await migrate(databaseUrlOf(loadConfig()));
        if (result.applied.length === 0) print(`schema is up to date (version ${result.to})\n`);
        for (const m of result.applied) print(`applied ${m.version}: ${m.name}\n`);
        if (result.applied.length > 0) print(`schema is at version ${result.to} (was ${result.from})\n`);
      }),
    );

  db.command('status')
    .description('show the schema version of the database and what `agora db migrate` would apply')
    .option('--json', 'print JSON')
    .action((options: { json?: boolean }) =>
      reported(async () => {
        const { schemaStatus } = await import('../store/postgres/index.ts');
        const status = await schemaStatus(databaseUrlOf(loadConfig()));
        if (options.json) return void print(`${JSON.stringify(status, null, 2)}\n`);
        print(`database schema: version ${status.version}; this agora: version ${status.latest}\n`);
        for (const m of status.pending) print(`pending ${m.version}: ${m.name}\n`);
        if (status.version > status.latest) {
          print('the database is newer than this agora: upgrade agora before starting it against this database\n');
          process.exitCode = 1;
        } else if (status.pending.length > 0) print('run `agora db migrate` (or start a writer node) to apply them\n');
      }),
    );

  return db;
}
