/**
 * Fail fast on a taken port: a build can take a while, and finding out only after it
 * that the port is busy wastes it. The probe listens and closes at once.
 */
import { createServer } from 'node:net';

/** Why `host:port` cannot be listened on now, or null when it can (the probe listens and closes at once). */
function listenError(host: string, port: number): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
}

/** The first port from `from` up (at most 20 tried) that is free on `host`, or null. */
async function nextFreePort(host: string, from: number): Promise<number | null> {
  for (let port = from; port <= Math.min(65535, from + 19); port++) if ((await listenError(host, port)) === null) return port;
  return null;
}

/** Throws, with the fix, when `host:port` cannot be listened on. Port 0 is always free. */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const error = await listenError(host, port);
  if (!error) return;
  // Not the port: the host is no address of this machine (or no name it can resolve).
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') {
    throw new Error(`Cannot listen on ${host}:${port}: \`${host}\` is not an address of this machine (${error.code}). Set \`HOST\` (or \`host\` in agora.config.json) to one of its addresses: \`127.0.0.1\` for this machine only, \`0.0.0.0\` for every interface (a container)`, { cause: error });
  }
  const taken = error.code === 'EADDRINUSE';
  const denied = error.code === 'EACCES';
  const why = taken ? 'the port is taken by another process' : denied ? 'this user may not open that port' : error.message;
  // A port that is free now, from the next one up (8080 → 8081), or from 8080 for a port below 1024.
  const other = await nextFreePort(host, port < 1024 ? 8080 : port === 65535 ? 1024 : port + 1);
  const choose = other === null ? 'Choose a free port with `-p <port>` (`agora start`, `serve`, `dev`) or `PORT=<port> npm start`' : `Port ${other} is free: \`-p ${other}\` (\`agora start\`, \`serve\`, \`dev\`) or \`PORT=${other} npm start\``;
  throw new Error(`Cannot listen on ${host}:${port}: ${why}. ${choose}${taken ? ', or stop the other process' : ''}`, { cause: error });
}
