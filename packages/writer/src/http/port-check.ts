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
      // Not the port: the host is no address of this machine (or no name it can resolve).
      if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
        return reject(new Error(`Cannot listen on ${host}:${port}: \`${host}\` is not an address of this machine (${error.code}). Set \`HOST\` (or \`host\` in agora.config.json) to one of its addresses: \`127.0.0.1\` for this machine only, \`0.0.0.0\` for every interface (a container)`, { cause: error }));
      }
      const taken = error.code === 'EADDRINUSE';
      const denied = error.code === 'EACCES';
      const why = taken ? 'the port is taken by another process' : denied ? 'this user may not open that port' : error.message;
      // Another port than the one refused: the next one up (8080 → 8081), or 8080 for a port below 1024.
      const other = port < 1024 ? 8080 : port === 65535 ? port - 1 : port + 1;
      reject(new Error(`Cannot listen on ${host}:${port}: ${why}. Choose a free port: \`-p ${other}\` (\`agora start\`, \`serve\`, \`dev\`) or \`PORT=${other} npm start\`${taken ? ' or stop the other process' : ''}`, { cause: error }));
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
