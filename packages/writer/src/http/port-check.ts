/**
 * Fail fast on a taken port: a build can take a while, and finding out only after it
 * that the port is busy wastes it. The probe listens and closes at once.
 */
import { createServer } from 'node:net';

/** Throws, with the fix, when `host:port` cannot be listened on. Port 0 is always free. */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const taken = error.code === 'EADDRINUSE';
      const denied = error.code === 'EACCES';
      const why = taken ? 'the port is taken by another process' : denied ? 'this user may not open that port' : error.message;
      reject(new Error(`Cannot listen on ${host}:${port}: ${why}. Choose a free port: \`-p ${port === 8080 ? 8081 : 8080}\` (\`agora start\`, \`serve\`, \`dev\`) or \`PORT=${port === 8080 ? 8081 : 8080} npm start\`${taken ? ' or stop the other process' : ''}`, { cause: error }));
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
