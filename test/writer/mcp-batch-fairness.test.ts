import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { startTestServer } from '../helpers/server.ts';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** Words no post holds, each matched against the index's words one and two edits away. */
const TYPOS = 'qwxzvbnmk plokijuhy gtfrdeswq azsxdcfvg bhnjmkloi mnbvcxzlk poiuytrew lkjhgfdsa qazwsxedc rfvtgbyhn ujmikolpq';

test('one POST /mcp batch does not hold the event loop: another client is answered while it runs', async (t) => {
  // Found from outside: a 60 KB batch of 100 search_posts ran its searches back to back, and
  // another client's request waited ~0.6 s for all of them (4.5 s with six such batches).
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  const server = await startTestServer(project);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const endpoint = `${server.url}/mcp`;
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_posts', arguments: { query: TYPOS, limit: 50 } } });
  // The index is built on the first search: not in the measured batch.
  await (await fetch(endpoint, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(call(0)) })).text();

  const batch = await fetch(endpoint, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1))) });
  assert.equal(batch.status, 200);
  const reader = batch.body!.getReader();
  let received = '';
  const first = await reader.read();
  received += new TextDecoder().decode(first.value);
  // The batch has begun answering; a ping from another client now.
  let pingDone = false;
  const ping = fetch(endpoint, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })
    .then((res) => res.text())
    .then((body) => {
      pingDone = true;
      return body;
    });
  let answersBeforePing = -1;
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    received += new TextDecoder().decode(chunk.value);
    if (pingDone && answersBeforePing === -1) answersBeforePing = received.split('event: message').length - 1;
  }
  assert.match(await ping, /"result":\{\}/);
  assert.equal(received.split('event: message').length - 1, 100, 'every member of the batch is answered');
  assert.ok(answersBeforePing !== -1 && answersBeforePing < 100, `the other client's ping was answered while the batch ran (after ${answersBeforePing} of its 100 answers)`);
});
