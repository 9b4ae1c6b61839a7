/** Requests on a keep-alive agent that report a dead server as a value, not a throw (kill and stop tests). */
import { request, type Agent } from 'node:http';

/** One view PUT on a keep-alive agent: the count answered, or null when no answer came. */
export function putView(agent: Agent, base: string, slug: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(`${base}/api/views/${slug}`, { method: 'PUT', agent }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve(res.statusCode === 200 ? (JSON.parse(text) as { views: number }).views : null));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
    req.end();
  });
}
