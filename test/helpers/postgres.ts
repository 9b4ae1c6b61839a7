/**
 * A real PostgreSQL for tests, from the machine's packages (Debian's `postgresql`):
 * `initdb` into a fresh temporary folder, `pg_ctl start` on a free loopback port with
 * its socket in that folder, removed again at the end. Each test file starts its own
 * server (about 1.5 s), so files run concurrently and one may stop or kill its server
 * without disturbing another.
 *
 * initdb refuses to run as root: then every server command runs as the `postgres`
 * system user (created by Debian's package) through `runuser`, and the folder is
 * chowned to it.
 *
 * When the binaries are missing the caller skips with `POSTGRES_MISSING`, except in CI
 * (`CI=true`), where these tests must run: there `startPostgres` throws.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './http.ts';

const run = promisify(execFile);

export const POSTGRES_MISSING =
  'PostgreSQL server binaries (initdb, pg_ctl, postgres) not found: install Debian\'s `postgresql` package (apt-get install postgresql) to run the PostgreSQL store tests';

export interface PostgresServer {
  /** URL of the database `postgres` (administration). */
  readonly adminUrl: string;
  readonly port: number;
  /** Make a fresh empty database; returns its URL. */
  createDatabase(): Promise<string>;
  /** Fast shutdown (connections are terminated), waiting until it is down. */
  stop(): Promise<void>;
  /** Start again on the same port, waiting until it accepts connections. */
  start(): Promise<void>;
  restart(): Promise<void>;
  /** SIGKILL the server and its backends (a crash; `start` then recovers). */
  kill(): Promise<void>;
  /** Stop the server and delete its folder. */
  remove(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pgCtl: string;
}

function hasServerBinaries(dir: string): boolean {
  return ['initdb', 'pg_ctl', 'postgres'].every((name) => existsSync(join(dir, name)));
}

/** Where initdb, pg_ctl and postgres are: `pg_config --bindir`, Debian's versioned folders (newest first), then PATH. */
export function findPostgresBinaries(): Binaries | null {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // pg_config comes with libpq-dev or the server package; not having it is fine.
  }
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    // Not Debian's layout.
  }
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  const dir = candidates.find(hasServerBinaries);
  return dir ? { initdb: join(dir, 'initdb'), pgCtl: join(dir, 'pg_ctl') } : null;
}


/** The `postgres` user's ids when we are root (initdb will not run as root). */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('Cannot run PostgreSQL as root and there is no `postgres` user: install Debian\'s `postgresql` package (it creates the user) or run the tests as another user');
  }
}

/** Every process whose parent is `pid` (the postmaster's backends). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

/**
 * Start a private PostgreSQL server.
 *
 * @returns The server, or null when the binaries are missing outside CI (skip with `POSTGRES_MISSING`).
 */
export async function startPostgres(): Promise<PostgresServer | null> {
  const binaries = findPostgresBinaries();
  if (!binaries) {
    if (process.env.CI === 'true') throw new Error(`${POSTGRES_MISSING}. In CI these tests must run: \`.ci/run\` installs the package`);
    return null;
  }
  const user = serverUser();
  const root = await mkdtemp(join(tmpdir(), 'agora-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  await mkdir(socketDir);
  if (user) {
    await chown(root, user.uid, user.gid);
    await chown(socketDir, user.uid, user.gid);
  }
  const asServer = (file: string, args: string[]) => (user ? run('runuser', ['-u', 'postgres', '--', file, ...args]) : run(file, args));
  const pgCtl = (...args: string[]) => asServer(binaries.pgCtl, ['-D', dataDir, ...args]);

  // If the test process dies without `remove`, do not leave a server behind.
  const onExit = () => {
    const args = ['-D', dataDir, '-m', 'immediate', 'stop'];
    spawnSync(user ? 'runuser' : binaries.pgCtl, user ? ['-u', 'postgres', '--', binaries.pgCtl, ...args] : args, { stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  try {
    await asServer(binaries.initdb, ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  } catch (error) {
    onExit();
    throw new Error(`Cannot initdb a test PostgreSQL in \`${dataDir}\`: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`, { cause: error });
  }

  let port = 0;
  // fsync=off: speed, and a killed server still recovers everything it acknowledged
  // (its WAL is in the OS cache); synchronous_commit stays on for exactly that.
  const start = async () => {
    const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
    await pgCtl('-l', join(root, 'server.log'), '-w', '-t', '60', '-o', options, 'start');
  };
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (error) {
      // Another process may have taken the port between our check and the start.
      if (attempt < 3) continue;
      const log = existsSync(join(root, 'server.log')) ? readFileSync(join(root, 'server.log'), 'utf8').slice(-2000) : '';
      onExit();
      throw new Error(`Cannot start the test PostgreSQL: ${(error as { stderr?: string }).stderr ?? (error as Error).message}\n${log}`, { cause: error });
    }
  }

  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let databases = 0;
  let prepared: Promise<string> | undefined;
  const createOne = async (): Promise<string> => {
    const name = `agora_test_${process.pid}_${++databases}`;
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => {});
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return `postgres://postgres@127.0.0.1:${port}/${name}`;
  };
  const stop = async () => {
    await pgCtl('-m', 'fast', '-w', '-t', '60', 'stop');
  };
  return {
    adminUrl,
    port,
    async createDatabase() {
      const ready = await (prepared ?? createOne()).catch(() => createOne());
      // CREATE DATABASE takes a few hundred ms: make the next one while this test runs.
      prepared = createOne();
      prepared.catch(() => {});
      return ready;
    },
    stop,
    start,
    async restart() {
      await stop();
      await start();
    },
    async kill() {
      const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const victims = [pid, ...childrenOf(pid)];
      for (const victim of victims) {
        try {
          process.kill(victim, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      // Shared memory is released only when every backend is gone; `start` needs that.
      while (victims.some((v) => { try { return alive(v); } catch { return false; } })) await new Promise((r) => setTimeout(r, 20));
      // The dead postmaster may linger as a zombie when nothing reaps orphans (containers
      // without an init); PostgreSQL would take it for a running server, so drop its lock files.
      rmSync(join(dataDir, 'postmaster.pid'), { force: true });
      for (const name of readdirSync(socketDir)) rmSync(join(socketDir, name), { force: true });
    },
    async remove() {
      process.removeListener('exit', onExit);
      await stop().catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Run one statement on its own connection (tests reach into the database directly). */
export async function sql<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
