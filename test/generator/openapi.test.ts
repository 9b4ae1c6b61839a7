/** Tests of `emitOpenApi`: the document's shape, every spec-4 endpoint, and a clean Redocly lint. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fileURLToPath } from 'node:url';
import { emitOpenApi } from '../../packages/generator/src/emit/openapi.ts';
import type { SiteConfig, SiteModel } from '../../packages/generator/src/types.ts';
import type { Catalog } from '../../packages/generator/src/catalog/types.ts';
import { loadCatalog } from '../../packages/generator/src/catalog/load-catalog.ts';

const run = promisify(execFile);
const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** Every path and method of spec 4 (and the catalog paths of the catalog issue). */
const ENDPOINTS: readonly (readonly [string, string])[] = [
  ['get', '/api/posts'],
  ['get', '/api/post/{slug}'],
  ['get', '/api/category/{cat}'],
  ['get', '/api/model/{model}'],
  ['get', '/api/tag/{tag}'],
  ['get', '/api/comments/{slug}'],
  ['post', '/api/comments/{slug}'],
  ['get', '/api/comments/count'],
  ['get', '/api/views'],
  ['put', '/api/views/{slug}'],
  ['get', '/api/health'],
  ['get', '/api/search'],
  ['post', '/mcp'],
  ['get', '/agents.md'],
  ['get', '/llms.txt'],
  ['get', '/llms-full.txt'],
  ['get', '/sitemap.xml'],
  ['get', '/robots.txt'],
  ['get', '/comments/'],
  ['get', '/debates/'],
  ['get', '/{cat}/{slug}/'],
  ['get', '/{cat}/{slug}/post.md'],
  ['get', '/agencatalog/catalog.json'],
  ['get', '/agencatalog/'],
  ['get', '/agencatalog/{slug}/'],
  ['post', '/agencatalog/api/call'],
  ['get', '/api/weather'],
  ['get', '/api/apt'],
  ['get', '/api/tour'],
  ['get', '/api/bizinfo'],
  ['get', '/api/corp'],
  ['get', '/api/biznotice'],
];

/** The parts of the document the tests read. */
interface Doc {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  security?: unknown;
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>; securitySchemes: Record<string, Record<string, string>> };
}

interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  parameters?: { name: string; in: string; schema: unknown }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security: Record<string, string[]>[];
  servers?: { url: string }[];
}

/** The sample site's catalog (content/catalog/). */
const CATALOG: Catalog = (await loadCatalog(join(ROOT, 'content'), 'https://agora.example')).catalog!;

function site(config: Partial<SiteConfig> = {}, catalog: Catalog | null = CATALOG): SiteModel {
  return {
    config: { title: 'Agora test', description: 'A test site.', baseUrl: 'https://agora.example', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50, ...config },
    posts: [],
    bySlug: new Map(),
    comments: new Map(),
    views: new Map(),
    catalog,
    memo: new Map(),
  };
}

function documentOf(model: SiteModel): Doc {
  const output = emitOpenApi(model);
  assert.equal(output.path, 'openapi.json');
  return JSON.parse(output.body) as Doc;
}

function operation(doc: Doc, method: string, path: string): OperationDoc {
  const op = doc.paths[path]?.[method];
  assert.ok(op, `missing ${method.toUpperCase()} ${path}`);
  return op;
}

test('emitOpenApi', async (t) => {
  const doc = documentOf(site());

  await t.test('should describe an OpenAPI 3.1.0 document, version 1.0.0', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(doc.info.title, 'Agora test');
    assert.deepEqual(doc.servers.map((s) => s.url), ['https://agora.example']);
    assert.equal(doc.security, undefined, 'no global security');
  });

  await t.test('should have every endpoint of spec 4 with an operationId, summary, description and responses', () => {
    const ids = new Set<string>();
    for (const [method, path] of ENDPOINTS) {
      const op = operation(doc, method, path);
      assert.ok(op.operationId && op.summary && op.description, `${method} ${path} needs operationId, summary, description`);
      assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
      ids.add(op.operationId);
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')), `${method} ${path} needs a 2xx`);
    }
    const documented = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    assert.equal(documented, ENDPOINTS.length, 'no undeclared operations');
  });

  await t.test('should declare the 503 `starting` of every read that waits for a starting writer', () => {
    // Found against a writer that could not catch up (database away): search and the pages and
    // .md files asked for as markdown or JSON answered 503 starting, a status these operations did not list.
    for (const path of ['/api/search', '/comments/', '/debates/', '/{cat}/{slug}/', '/{cat}/{slug}/post.md', '/agencatalog/', '/agencatalog/{slug}/']) {
      const refused = operation(doc, 'get', path).responses['503'] as { headers?: Record<string, unknown>; content?: Record<string, { example?: { error: { code: string } } }> } | undefined;
      assert.ok(refused, `GET ${path} lists its 503`);
      assert.ok(refused.headers?.['Retry-After'], `GET ${path}: Retry-After`);
      assert.equal(refused.content?.['application/json']?.example?.error.code, 'starting', path);
    }
  });

  await t.test('should leave out the catalog, the proxy and the public-data endpoints on a site without a catalog', () => {
    const bare = documentOf(site({}, null));
    const gone = ENDPOINTS.filter(([, path]) => path.startsWith('/agencatalog') || /^\/api\/(weather|apt|tour|bizinfo|corp|biznotice)$/.test(path));
    assert.equal(gone.length, 10);
    for (const [method, path] of gone) assert.equal(bare.paths[path]?.[method], undefined, `${method} ${path}`);
    for (const [method, path] of ENDPOINTS.filter((e) => !gone.includes(e))) operation(bare, method, path);
    assert.equal(bare.components.securitySchemes['AgentToken'], undefined);
    // Every reference still resolves, and every schema is referenced (redocly's no-unused-components: an outside lint of a bare site warned of Envelope and ProxyCall).
    const refs = new Set((JSON.stringify(bare).match(/"#\/components\/schemas\/[^"]+"/g) ?? []).map((ref) => ref.slice(22, -1)));
    for (const name of refs) assert.ok(bare.components.schemas[name], `${name} resolves`);
    assert.deepEqual(Object.keys(bare.components.schemas).filter((name) => !refs.has(name)), []);
  });

  await t.test('should take in ProxyCall what the proxy takes: numbers and booleans, params left out', () => {
    // Before: strings only, params required; a client generated from it could not send `"nx": 60`.
    const schemas = (doc as unknown as { components: { schemas: Record<string, object> } }).components.schemas;
    const ajv = new Ajv2020({ strict: false });
    for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const valid = ajv.compile({ $ref: '#/components/schemas/ProxyCall' });
    for (const body of [
      { service: 'weather-forecast', operation: 'getVilageFcst', params: { base_date: '20261121', base_time: '0500', nx: 60, ny: 127 } },
      { service: 'weather-forecast', operation: 'getVersion' },
      { service: 'business-registration', operation: 'status', params: { b_no: 1248100998, strict: true } },
    ]) assert.ok(valid(body), `${JSON.stringify(body)}: ${ajv.errorsText(valid.errors)}`);
    for (const body of [{ service: 'weather-forecast', operation: 'getVersion', params: { a: null } }, { service: 'x', operation: 'y', params: { a: { b: 1 } } }, { operation: 'y' }]) assert.equal(valid(body), false, JSON.stringify(body));
  });

  await t.test('should document a 4xx for every operation that takes input', () => {
    for (const [method, path] of ENDPOINTS) {
      const op = operation(doc, method, path);
      if (!op.parameters?.length && !op.requestBody) continue;
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith('4')), `${method} ${path} takes input but documents no 4xx`);
    }
  });

  await t.test('should publish the ApiKey scheme with its public value', () => {
    const scheme = doc.components.securitySchemes['ApiKey'];
    assert.ok(scheme);
    assert.equal(scheme['type'], 'apiKey');
    assert.equal(scheme['in'], 'header');
    assert.equal(scheme['name'], 'X-API-Key');
    assert.equal(scheme['x-public-value'], 'k');
    assert.match(scheme['description'] ?? '', /`k`/);
    const token = doc.components.securitySchemes['AgentToken'];
    assert.equal(token?.['type'], 'apiKey');
    assert.equal(token?.['in'], 'header');
    assert.equal(token?.['name'], 'X-Agent-Token');
  });

  await t.test('should require the key only to post a comment and the token only for the proxy', () => {
    for (const [method, path] of ENDPOINTS) {
      const expected = path === '/api/comments/{slug}' && method === 'post' ? [{ ApiKey: [] }] : path === '/agencatalog/api/call' ? [{ AgentToken: [] }] : [];
      assert.deepEqual(operation(doc, method, path).security, expected, `${method} ${path}`);
    }
  });

  await t.test('should list every comment status the writer sends, with its headers', () => {
    const op = operation(doc, 'post', '/api/comments/{slug}');
    assert.deepEqual(Object.keys(op.responses).sort(), ['200', '201', '202', '400', '401', '403', '404', '405', '408', '413', '415', '429', '503', '507']);
    for (const [status, response] of Object.entries(op.responses as Record<string, { headers?: Record<string, { required?: boolean }> }>)) {
      assert.ok(response.headers?.['RateLimit'] && response.headers['RateLimit-Policy'], `${status}: RateLimit headers`);
      if (['200', '201', '202'].includes(status)) assert.equal(response.headers?.['Location']?.required, true, `${status}: Location`);
      if (['429', '503', '507'].includes(status)) assert.equal(response.headers?.['Retry-After']?.required, true, `${status}: Retry-After`);
    }
    assert.deepEqual(Object.keys(operation(doc, 'put', '/api/views/{slug}').responses).sort(), ['200', '400', '404', '408', '429', '503', '507']);
    assert.deepEqual(Object.keys(operation(doc, 'post', '/mcp').responses).sort(), ['200', '202', '400', '401', '403', '404', '406', '408', '413', '415', '429', '503']);
  });

  await t.test('should give Post exactly the fields of spec 2.1, all required', () => {
    const fields = ['title', 'date', 'model', 'author_type', 'category', 'summary', 'tags', 'url', 'slug', 'comment_count', 'views', 'content'];
    const post = doc.components.schemas['Post'];
    assert.deepEqual(Object.keys(post?.properties ?? {}), fields);
    assert.deepEqual(post?.required, fields);
  });

  await t.test('should send writes to the writer origin when it is set', () => {
    const split = documentOf(site({ writerUrl: 'https://writer.agora.example' }));
    assert.deepEqual(operation(split, 'post', '/api/comments/{slug}').servers, [{ url: 'https://writer.agora.example', description: 'Writer origin (comment posts, view counts, public-data calls)' }]);
    assert.ok(operation(split, 'put', '/api/views/{slug}').servers);
    assert.equal(operation(split, 'get', '/api/posts').servers, undefined);
    assert.equal(operation(doc, 'post', '/api/comments/{slug}').servers, undefined);
  });

  await t.test('should pass redocly lint', { timeout: 120_000 }, async (st) => {
    const dir = await mkdtemp(join(tmpdir(), 'agora-openapi-'));
    st.after(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'openapi.json');
    await writeFile(file, emitOpenApi(site()).body);
    const result = await run(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format=stylish'], { cwd: ROOT, timeout: 120_000 }).catch(
      (error: { code?: unknown; stdout?: string; stderr?: string }) => {
        assert.fail(`redocly lint failed (exit ${String(error.code)}):\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      },
    );
    // Stylish problem lines read `line:col  warning|error  rule  message`.
    assert.doesNotMatch(result.stdout + result.stderr, /^\s*\d+:\d+\s+(warning|error)\b/m);
  });
});
