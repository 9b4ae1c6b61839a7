/**
 * openapi.json is what the writer sends: every route is exercised for each status it
 * can give here, every real answer is checked against the document (Ajv, through
 * test/helpers/openapi-answers.ts), and a client generated with openapi-typescript
 * type-checks code that holds and handles those real answers. `npm run test:contract`
 * does the same check for every answer of the whole writer suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { REPO_ROOT } from '../helpers/project.ts';
import { serveProject, commentDoc, postComment } from '../helpers/server.ts';
import { recordAnswers, type RecordedAnswer } from '../helpers/answer-recorder.ts';
import { createAnswerChecker } from '../helpers/openapi-answers.ts';

const run = promisify(execFile);
const OTHER = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const PENDING = '2025-07-08-nodejs-memory-leak-heap-snapshots';
const LIMITS = { limits: { commentsPerIpPerMinute: 8, viewsPerIpPerMinute: 3, duplicateWindowSeconds: 600 } };

/** A raw request (fetch cannot set `Host`). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('openapi.json against the real answers', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true, files: { 'agora.config.json': JSON.stringify(LIMITS) } });
  const answers: RecordedAnswer[] = [];
  recordAnswers(server.server, (a) => answers.push(a));
  const base = server.url;
  const doc = JSON.parse(await readFile(join(project.config.distDir, 'openapi.json'), 'utf8')) as Record<string, unknown>;
  const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract-test', version: '1' } } });

  // Comments: every status this writer can give without a fault in its store.
  const created = await postComment(base, OTHER, commentDoc({ author: 'contract-agent' }, 'A supplement that the contract test posts once and then again.'));
  assert.equal(created.status, 201);
  assert.equal((await postComment(base, OTHER, commentDoc({ author: 'contract-agent' }, 'A supplement that the contract test posts once and then again.'))).status, 200);
  assert.equal((await postComment(base, OTHER, commentDoc({ type: 'debate' }))).status, 400);
  assert.equal((await postComment(base, OTHER, commentDoc(), { 'X-API-Key': '' })).status, 401);
  assert.equal((await postComment(base, 'no-such-post', commentDoc())).status, 404);
  assert.equal((await postComment(base, OTHER, commentDoc({}, 'x'.repeat(20_000)))).status, 413);
  assert.equal((await postComment(base, OTHER, commentDoc(), { 'Content-Type': 'application/json' })).status, 415);
  // The post's folder in dist/ becomes a file: its page cannot be rebuilt, so the answer is 202.
  const pendingDir = join(project.config.distDir, 'troubleshooting', PENDING);
  await rm(pendingDir, { recursive: true, force: true });
  await writeFile(pendingDir, 'in the way');
  assert.equal((await postComment(base, PENDING, commentDoc({ author: 'pending-agent' }))).status, 202);
  assert.equal((await postComment(base, OTHER, commentDoc({ author: 'third' }))).status, 429);
  assert.equal((await fetch(`${base}/api/comments/${OTHER}`, { method: 'PATCH' })).status, 405);
  // `count` fits the slug's template: a generated client can send it.
  assert.equal((await postComment(base, 'count', commentDoc())).status, 405);

  // Views, reads, search, health.
  assert.equal((await fetch(`${base}/api/views/${OTHER}`, { method: 'PUT' })).status, 200);
  assert.equal((await fetch(`${base}/api/views/no-such-post`, { method: 'PUT' })).status, 404);
  assert.equal((await fetch(`${base}/api/views/${OTHER}`, { method: 'PUT' })).status, 200);
  assert.equal((await fetch(`${base}/api/views/${OTHER}`, { method: 'PUT' })).status, 429);
  for (const path of ['/api/posts', `/api/post/${OTHER}`, '/api/category/guide', '/api/model/gpt-5', '/api/tag/nginx', `/api/comments/${OTHER}`, '/api/comments/count', '/api/views', '/api/health', '/api/search?q=nginx', '/llms.txt', '/llms-full.txt', '/robots.txt', '/sitemap.xml', '/agents.md', '/comments/', '/debates/', `/troubleshooting/${OTHER}/`, `/troubleshooting/${OTHER}/post.md`, '/agencatalog/catalog.json', '/agencatalog/', '/agencatalog/weather-forecast/']) {
    assert.equal((await fetch(base + path)).status, 200, path);
  }
  for (const path of ['/api/post/no-such-post', '/api/model/nobody', '/api/comments/no-such-post', '/api/search', '/guide/no-such-post/', '/agencatalog/no-such-entry/']) {
    assert.ok([400, 404].includes((await fetch(base + path, { headers: { Accept: path.endsWith('/') ? 'text/html' : 'application/json' } })).status), path);
  }

  // A path parameter that is not valid percent-encoding: every templated GET answers 400.
  const templated = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([path, ops]) => path.includes('{') && 'get' in ops).map(([path]) => path);
  assert.ok(templated.length >= 8, templated.join(' '));
  for (const path of templated) assert.equal((await fetch(base + path.replace(/\{[^}]+\}/g, '%ZZ'), { headers: { Accept: 'application/json' } })).status, 400, path);

  // Public data without provider keys, and the proxy without a token.
  assert.equal((await fetch(`${base}/api/weather`)).status, 503);
  assert.equal((await fetch(`${base}/agencatalog/api/call`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status, 401);

  // MCP over Streamable HTTP.
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: mcpHeaders, body: initialize })).status, 200);
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status, 202);
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: mcpHeaders, body: '{"not": "json-rpc"}' })).status, 400);
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'text/html' }, body: initialize })).status, 406);
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'Content-Type': 'text/plain' }, body: initialize })).status, 415);
  assert.equal(await raw(`${base}/mcp`, 'POST', { ...mcpHeaders, Host: 'evil.example' }, initialize), 403);
  assert.equal((await fetch(`${base}/mcp`)).status, 405);
  // The 2026-07-28 revision: a method the server lacks is HTTP 404.
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'contract-test', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  assert.equal((await fetch(`${base}/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'prompts/list' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompts/list', params: { _meta: meta } }) })).status, 404);

  const check = createAnswerChecker(doc);

  await t.test('should match every real answer to its documented status, headers and body', () => {
    const results = answers.map(check);
    assert.deepEqual(results.flatMap((r) => r.problems), []);
    const seen = new Set(results.map((r) => r.key));
    for (const status of [200, 201, 202, 400, 401, 404, 405, 413, 415, 429]) assert.ok(seen.has(`POST /api/comments/{slug} ${status}`), `comment ${status} exercised`);
    for (const status of [200, 404, 429]) assert.ok(seen.has(`PUT /api/views/{slug} ${status}`), `view ${status} exercised`);
    for (const status of [200, 202, 400, 403, 404, 406, 415]) assert.ok(seen.has(`POST /mcp ${status}`), `mcp ${status} exercised`);
    assert.ok(seen.has('GET /mcp 405'));
    for (const path of templated) assert.ok(seen.has(`GET ${path} 400`), `GET ${path} 400 exercised`);
  });

  await t.test('should give as the 404 examples of the mirrors what the writer says', async () => {
    // Before: the examples said "No post has the slug `…`.", "No such category `news`." and so
    // on, without `field`, where the writer says `No post with slug "…"` with field `slug`.
    type Example = { error: { code: string; message: string; field?: string } };
    const paths = doc.paths as Record<string, { get: { responses: Record<string, { content: Record<string, { example: Example }> }> } }>;
    for (const [path, name] of [['/api/post/{slug}', '2025-01-10-nginx-reverse-proxy'], ['/api/comments/{slug}', '2025-01-10-nginx-reverse-proxy'], ['/api/category/{cat}', 'news'], ['/api/model/{model}', 'unknown-model'], ['/api/tag/{tag}', 'unknown-tag']] as const) {
      const example = paths[path]!.get.responses['404']!.content['application/json']!.example;
      const answer = await fetch(base + path.replace(/\{[^}]+\}/, name), { headers: { Accept: 'application/json' } });
      assert.equal(answer.status, 404, path);
      assert.deepEqual(await answer.json(), example, path);
    }
  });

  await t.test('should catch an answer the document does not describe (the check can fail)', () => {
    const strict = structuredClone(doc) as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }> }>> };
    const post = strict.paths['/api/comments/{slug}']!['post']!;
    delete post.responses['429'];
    post.responses['202']!.content!['application/json']!.schema = { $ref: '#/components/schemas/Comment' };
    delete post.responses['201']!.headers!['RateLimit'];
    const problems = answers.map(createAnswerChecker(strict)).flatMap((r) => r.problems).join('\n');
    assert.match(problems, /POST \/api\/comments\/\{slug\} 429: status not declared/);
    assert.match(problems, /POST \/api\/comments\/\{slug\} 202: body .*must NOT have additional properties/);
    assert.match(problems, /POST \/api\/comments\/\{slug\} 201: header ratelimit sent but not declared/);
  });

  await t.test('should type-check a client of the real answers with types generated by openapi-typescript', async () => {
    const dir = join(project.root, 'client');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'openapi-types.ts'), astToString(await openapiTS(doc as never)));
    const body = (method: string, status: number) => {
      const a = answers.find((x) => x.method === method && x.url.startsWith(method === 'PUT' ? '/api/views/' : '/api/comments/') && x.status === status);
      assert.ok(a, `${method} ${status} recorded`);
      return { json: a.body, headers: a.headers };
    };
    const limited = body('POST', 429);
    const good = `import type { paths } from './openapi-types';

type Post = paths['/api/comments/{slug}']['post'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Answer<O extends { responses: object }> = { [S in keyof O['responses']]: { status: S; body: JsonOf<O['responses'][S]> } }[keyof O['responses']];

// Real answers of this writer, as it sent them.
export const ok = ${body('POST', 200).json} satisfies JsonOf<Post['responses'][200]>;
export const created = ${body('POST', 201).json} satisfies JsonOf<Post['responses'][201]>;
export const pending = ${body('POST', 202).json} satisfies JsonOf<Post['responses'][202]>;
export const invalid = ${body('POST', 400).json} satisfies JsonOf<Post['responses'][400]>;
export const tooMany = ${limited.json} satisfies JsonOf<Post['responses'][429]>;
export const retryAfter: Post['responses'][429]['headers']['Retry-After'] = ${Number(limited.headers['retry-after'])};
export const policy: Post['responses'][429]['headers']['RateLimit-Policy'] = ${JSON.stringify(limited.headers['ratelimit-policy'])};
export const views = ${body('PUT', 200).json} satisfies JsonOf<paths['/api/views/{slug}']['put']['responses'][200]>;
export const viewsLimited = ${body('PUT', 429).json} satisfies JsonOf<paths['/api/views/{slug}']['put']['responses'][429]>;
// The 400 of a body over a rendering-work limit, in the shape the document promises.
export const tooComplex = { error: { code: 'comment_too_complex', message: 'body has 3000 headings; at most 100: use fewer headings', field: 'body', limit: 'maxHeadings', value: 3000, max: 100 } } satisfies JsonOf<Post['responses'][400]>;

/** What a client does with each answer of a comment POST. */
export function handle(answer: Answer<Post>): string {
  switch (answer.status) {
    case 200:
    case 201:
      return \`stored as \${answer.body.id} at \${answer.body.created_at}\`;
    case 202:
      return \`\${answer.body.status}: \${answer.body.message} (\${answer.body.id})\`;
    case 400:
      return \`invalid \${answer.body.error.field ?? ''}: \${answer.body.error.limit ?? ''} \${answer.body.error.value ?? 0} > \${answer.body.error.max ?? 0}\`;
    default:
      return \`\${answer.status} \${answer.body.error.code}: \${answer.body.error.message} \${answer.body.error.field ?? ''}\`;
  }
}
handle({ status: 202, body: pending });
handle({ status: 429, body: tooMany });

// MCP: a generated client writes JSON-RPC messages and reads the answers without a cast.
type Mcp = paths['/mcp']['post'];
type McpBody = Mcp['requestBody']['content']['application/json'];
export const ping = { jsonrpc: '2.0', id: 1, method: 'ping' } satisfies McpBody;
export const batch = [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_posts', arguments: { query: 'nginx' } } }] satisfies McpBody;
export const mcpAnswer = { jsonrpc: '2.0', id: 1, result: { tools: [] } } satisfies JsonOf<Mcp['responses'][200]>;
`;
    // The same client with the mistakes a stale document let through: each must be an error.
    const bad = `import type { paths } from './openapi-types';
type Post = paths['/api/comments/{slug}']['post'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
export const pendingAsComment = ${body('POST', 202).json} satisfies JsonOf<Post['responses'][201]>;
export const teapot: keyof Post['responses'] = 418;
export const notJsonRpc = { jsonrpc: '1.0', method: 'ping' } satisfies paths['/mcp']['post']['requestBody']['content']['application/json'];
`;
    await writeFile(join(dir, 'good.ts'), good);
    await writeFile(join(dir, 'bad.ts'), bad);
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true, types: [] }, files: ['good.ts', 'bad.ts'] }));
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const output = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    const errors = output.split('\n').filter((l) => /error TS\d+/.test(l));
    assert.deepEqual(errors.filter((l) => !/\bbad\.ts\(/.test(l)), [], 'the client of the real answers type-checks');
    assert.ok(errors.some((l) => /\bbad\.ts\(4,/.test(l)), `a 202 body is not a 201 body:\n${output}`);
    assert.ok(errors.some((l) => /\bbad\.ts\(5,/.test(l)), `418 is no declared status:\n${output}`);
    assert.ok(errors.some((l) => /\bbad\.ts\(6,/.test(l)), `a message is JSON-RPC 2.0:\n${output}`);
  });

});

/**
 * A body that does not arrive within `requestTimeoutMs` gets Node's 408 (the writer's JSON
 * error, written to the socket): the operations that take a body must declare it, as they
 * declare the 400 of a malformed chunk. Found by a generated client (hey-api) whose answers
 * were checked against openapi.json: the 408 of a dribbled comment, view or proxy call was
 * a status no operation declared.
 */
test('a dribbled body: the 408 every operation with a body can answer is declared', async (t) => {
  const limits = { headersTimeoutMs: 600, requestTimeoutMs: 800 };
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true, files: { 'agora.config.json': JSON.stringify({ limits }) } }, { AGORA_AGENT_TOKENS: 'contract-dribble-token-0123456789' });
  const check = createAnswerChecker(JSON.parse(await readFile(join(project.config.distDir, 'openapi.json'), 'utf8')) as Record<string, unknown>);
  const { port } = new URL(server.url);
  /** Send the head and one byte of a 100-byte body, dribble the rest, and parse what comes back. */
  const dribble = (method: string, path: string, headers: Record<string, string>) =>
    new Promise<RecordedAnswer>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk)).on('error', () => {});
      const drip = setInterval(() => socket.writable && socket.write(' '), 100);
      socket.on('close', () => {
        clearInterval(drip);
        const [head = '', body = ''] = received.split(/\r\n\r\n(.*)/s);
        const [statusLine = '', ...lines] = head.split('\r\n');
        const answerHeaders = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        resolve({ method, url: path, status: Number(statusLine.split(' ')[1]), headers: answerHeaders, body });
      });
      const head = Object.entries({ Host: '127.0.0.1', ...headers, 'Content-Length': '100' }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n-`);
    });
  const answers = await Promise.all([
    dribble('POST', `/api/comments/${OTHER}`, { 'X-API-Key': 'agora-public-comment-key', 'Content-Type': 'text/plain; charset=utf-8' }),
    dribble('PUT', `/api/views/${OTHER}`, {}),
    dribble('POST', '/agencatalog/api/call', { 'X-Agent-Token': 'contract-dribble-token-0123456789', 'Content-Type': 'application/json' }),
  ]);
  for (const answer of answers) {
    assert.equal(answer.status, 408, `${answer.method} ${answer.url}`);
    assert.equal((JSON.parse(answer.body) as { error: { code: string } }).error.code, 'request_timeout');
  }
  assert.deepEqual(answers.flatMap((answer) => check(answer).problems), []);
});

/**
 * The answers `npm run test:contract` recorded from the whole writer suite
 * (`AGORA_RECORDED_ANSWERS` names the folder); skipped otherwise.
 */
test('recorded answers of the writer suite', { skip: process.env.AGORA_RECORDED_ANSWERS ? false : 'set by npm run test:contract' }, async () => {
  const { readdir } = await import('node:fs/promises');
  const dir = process.env.AGORA_RECORDED_ANSWERS as string;
  const problems = new Map<string, number>();
  let checked = 0;
  let files = 0;
  const undocumented = new Set<string>();
  for (const name of (await readdir(dir)).filter((f) => f.endsWith('.jsonl'))) {
    const [head, ...lines] = (await readFile(join(dir, name), 'utf8')).split('\n').filter(Boolean);
    const check = createAnswerChecker((JSON.parse(head!) as { openapi: Record<string, unknown> }).openapi);
    files++;
    for (const line of lines) {
      const result = check(JSON.parse(line) as RecordedAnswer);
      checked++;
      if (!result.documented) undocumented.add(result.key.split(' ')[1]!.replace(/\/[^/]*$/, '/…'));
      for (const p of result.problems) problems.set(p.slice(0, 400), (problems.get(p.slice(0, 400)) ?? 0) + 1);
    }
  }
  console.log(`checked ${checked} answers of ${files} servers; ${undocumented.size} static path shapes outside the API description`);
  assert.ok(checked > 0, 'answers were recorded');
  assert.deepEqual([...problems].map(([p, n]) => `${n}× ${p}`), []);
});
