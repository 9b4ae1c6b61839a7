/**
 * `npm run bench:postgres [-- --sizes 10000 --quick …]`: the writer scenarios of
 * `bench/run.ts` on one embedded node, then on two nodes sharing a PostgreSQL that this
 * script starts itself (the test harness's private server: initdb into a temporary
 * folder, a free loopback port, removed at the end), so both are measured in the same
 * run on the same machine. Extra flags go to both runs; each run's JSON is kept as
 * `bench/results-embedded.json` and `bench/results-postgres.json`.
 */
import { spawn } from 'node:child_process';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startPostgres, POSTGRES_MISSING } from '../test/helpers/postgres.ts';
import { BENCH_DIR, REPO_ROOT } from './child.ts';

const extra = process.argv.slice(2);

function bench(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=agora-source', join(REPO_ROOT, 'bench', 'run.ts'), '--writer-only', ...args, ...extra], { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench/run.ts ${args.join(' ')} exited with ${code}`))));
  });
}

const server = await startPostgres();
if (!server) {
  console.error(POSTGRES_MISSING);
  process.exit(1);
}
try {
  console.log('\n== one embedded node ==');
  await bench(['--store', 'files', '--nodes', '1'], { AGORA_STORE: 'files' });
  await copyFile(join(BENCH_DIR, 'results.json'), join(BENCH_DIR, 'results-embedded.json'));
  console.log('\n== two nodes on PostgreSQL ==');
  await bench(['--store', 'postgres', '--nodes', '2'], { DATABASE_URL: await server.createDatabase() });
  await copyFile(join(BENCH_DIR, 'results.json'), join(BENCH_DIR, 'results-postgres.json'));
  console.log(`\nwrote ${join(BENCH_DIR, 'results-embedded.json')} and ${join(BENCH_DIR, 'results-postgres.json')}`);
} finally {
  await server.remove();
}
