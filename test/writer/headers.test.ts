import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serveProject, API_KEY } from '../helpers/server.ts';
import { contentSecurityPolicy, formatCsp, securityHeaders } from '@agora/generator';

const SLUG = '2025-10-21-caddy-automatic-tls-setup';

/** The `/*` block of `_headers` as a map. */
function starBlock(headersFile: string): Record<string, string> {
  const block = headersFile.split(/\n\n/).find((b) => b.split('\n').some((line) => line === '/*')) ?? '';
  return Object.fromEntries(
    block
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => {
        const at = line.indexOf(': ');
        return [line.slice(2, at), line.slice(at + 2)];
      }),
  );
}

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

test('security headers', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true });
  const expected = securityHeaders(project.config.site);

  const answers: [string, RequestInit][] = [
    ['/', {}],
    [`/setups/${SLUG}/`, {}],
    [`/setups/${SLUG}/post.md`, {}],
    ['/api/posts', {}],
    [`/api/comments/${SLUG}`, {}],
    ['/llms.txt', {}],
    ['/assets/views.js', {}],
    ['/api/health', {}],
    ['/nowhere', { headers: { Accept: 'text/html' } }],
    ['/api/nowhere', {}],
    [`/api/views/${SLUG}`, { method: 'PUT' }],
    [`/api/comments/${SLUG}`, { method: 'POST', headers: { 'X-API-Key': 'wrong' } }],
    [`/api/comments/${SLUG}`, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST' } }],
    ['/agencatalog/api/call', { method: 'POST' }],
  ];

  await t.test('should send every security header on pages, files, JSON, errors and preflights', async () => {
    for (const [path, init] of answers) {
      const res = await fetch(server.url + path, init);
      for (const [name, value] of Object.entries(expected)) {
        assert.equal(res.headers.get(name), value, `${init.method ?? 'GET'} ${path} (${res.status}): ${name}`);
      }
    }
  });

  await t.test('should let a browser send what a signed comment carries (Content-Digest and the signature headers)', async () => {
    const res = await fetch(`${server.url}/api/comments/${SLUG}`, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-digest, x-api-key, signature' } });
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const name of ['content-type', 'content-digest', 'x-api-key', 'signature', 'signature-input', 'signature-agent']) assert.ok(allowed.includes(name), `Allow-Headers lacks ${name}: ${allowed.join(', ')}`);
  });

  await t.test('should let a script on another origin revalidate what it reads: If-None-Match passes the preflight, ETag is readable', async () => {
    // Before: `ETag` was exposed on /api/ answers but a preflight for If-None-Match did not allow it, and a
    // static file's preflight (llms.txt, post.md) was a bare 204 with no CORS header: Chromium refused both.
    const origin = 'https://elsewhere.example';
    for (const path of [`/api/comments/${SLUG}`, `/api/post/${SLUG}`, '/api/search?q=caddy', '/llms.txt', '/agents.md', `/setups/${SLUG}/post.md`, `/setups/${SLUG}/`, '/index.md', '/feed.json']) {
      const pre = await fetch(server.url + path, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match, if-modified-since' } });
      assert.equal(pre.status, 204, `OPTIONS ${path}`);
      assert.equal(pre.headers.get('access-control-allow-origin'), '*', `OPTIONS ${path}: Allow-Origin`);
      const allowed = (pre.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      for (const name of ['if-none-match', 'if-modified-since']) assert.ok(allowed.includes(name), `OPTIONS ${path}: Allow-Headers lacks ${name}: ${allowed.join(', ')}`);
      assert.match(pre.headers.get('access-control-allow-methods') ?? '', /\bGET\b/, `OPTIONS ${path}: Allow-Methods`);
    }
    for (const path of [`/api/comments/${SLUG}`, '/llms.txt', '/agents.md', `/setups/${SLUG}/post.md`, '/feed.json']) {
      const res = await fetch(server.url + path, { headers: { Origin: origin } });
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      assert.ok(exposed.includes('etag') && exposed.includes('last-modified'), `GET ${path}: Expose-Headers ${exposed.join(', ')}`);
    }
    const md = await fetch(`${server.url}/setups/${SLUG}/`, { headers: { Origin: origin, Accept: 'text/markdown' } });
    assert.match(md.headers.get('access-control-expose-headers') ?? '', /ETag/, 'negotiated markdown');
  });

  await t.test('should give pages a strict CSP: scripts and styles from files only, no framing', async () => {
    const csp = (await fetch(`${server.url}/setups/${SLUG}/`)).headers.get('content-security-policy') ?? '';
    // 'wasm-unsafe-eval' lets Pagefind compile its WebAssembly; JavaScript eval stays off.
    assert.match(csp, /(^|;)script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    assert.match(csp, /(^|;)style-src 'self'(;|$)/);
    assert.match(csp, /(^|;)script-src-attr 'none'(;|$)/);
    assert.match(csp, /(^|;)frame-ancestors 'none'(;|$)/);
    assert.match(csp, /(^|;)object-src 'none'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'|upgrade-insecure-requests/);
  });

  await t.test('should have no inline script, style or event handler in any generated page', async () => {
    const files = await htmlFiles(project.config.distDir);
    assert.ok(files.length > 20, `${files.length} pages`);
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      // JSON-LD is a data block (never executed, so outside script-src); any other script is a file under /assets/.
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) if (tag !== '<script type="application/ld+json">') assert.match(tag, /\bsrc="\/assets\/[^"]+\.js"/, `${file}: ${tag}`);
      for (const [, data] of html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)) assert.doesNotThrow(() => JSON.parse(data!), file);
      assert.doesNotMatch(html, /<style\b|\sstyle="|\son[a-z]+="|javascript:/i, file);
    }
  });

  await t.test('should write the same headers into _headers for every path', async () => {
    const file = await readFile(join(project.config.distDir, '_headers'), 'utf8');
    assert.deepEqual(starBlock(file), expected);
    const served = await fetch(`${server.url}/`);
    for (const [name, value] of Object.entries(starBlock(file))) assert.equal(served.headers.get(name), value, name);
  });

  await t.test('should give nginx and Caddy the same values in docs/deploy.md', async () => {
    const doc = await readFile(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
    const plain = securityHeaders({ writerUrl: '' });
    for (const [name, value] of Object.entries(plain)) {
      const quoted = /[\s;?]/.test(value) ? `"${value}"` : value;
      assert.ok(doc.includes(`add_header ${name} ${quoted} always;`), `nginx ${name}`);
      assert.ok(doc.includes(`        ${name} ${name === 'Content-Security-Policy' ? quoted : value}\n`), `Caddy ${name}`);
    }
  });

  await t.test('should allow a separate writer origin for the view counter and nothing more', () => {
    const csp = formatCsp(contentSecurityPolicy({ writerUrl: 'https://write.agora.example/base' }));
    assert.match(csp, /connect-src 'self' https:\/\/write\.agora\.example;/);
    assert.match(formatCsp(contentSecurityPolicy({ writerUrl: '' })), /connect-src 'self';/);
  });
});

test('wrong methods on writer routes', async (t) => {
  const { project, server } = await serveProject(t, { samplePosts: true, catalog: true });
  const cases: [string, string, string][] = [
    [`/api/comments/${SLUG}`, 'PATCH', 'GET, HEAD, POST, OPTIONS'],
    [`/api/comments/${SLUG}`, 'DELETE', 'GET, HEAD, POST, OPTIONS'],
    [`/api/comments/${SLUG}`, 'PUT', 'GET, HEAD, POST, OPTIONS'],
    [`/api/views/${SLUG}`, 'GET', 'PUT, OPTIONS'],
    [`/api/views/${SLUG}`, 'POST', 'PUT, OPTIONS'],
    [`/api/views/${SLUG}`, 'DELETE', 'PUT, OPTIONS'],
    ['/agencatalog/api/call', 'GET', 'POST, OPTIONS'],
    ['/agencatalog/api/call', 'PUT', 'POST, OPTIONS'],
    ['/api/weather', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/health', 'DELETE', 'GET, HEAD, OPTIONS'],
    // Files of the static site: every GET path of spec 4.1 is read-only.
    ['/api/comments/count', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/posts', 'POST', 'GET, HEAD, OPTIONS'],
    ['/api/views', 'PUT', 'GET, HEAD, OPTIONS'],
    [`/api/post/${SLUG}`, 'DELETE', 'GET, HEAD, OPTIONS'],
    ['/api/category/setups', 'PATCH', 'GET, HEAD, OPTIONS'],
    ['/llms.txt', 'POST', 'GET, HEAD, OPTIONS'],
    [`/setups/${SLUG}/`, 'POST', 'GET, HEAD, OPTIONS'],
    [`/setups/${SLUG}/post.md`, 'PUT', 'GET, HEAD, OPTIONS'],
  ];
  for (const [path, method, allow] of cases) {
    await t.test(`should answer ${method} ${path} with 405 and Allow`, async () => {
      const res = await fetch(server.url + path, { method, headers: { 'X-API-Key': API_KEY } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), allow);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'method_not_allowed');
      assert.match(body.error.message, new RegExp(`^${method} is not allowed here; allowed: ${allow}`));
    });
  }
  await t.test('should answer a preflight on a static file with 204 and Allow, and a wrong method on a missing path with 404', async () => {
    const preflight = await fetch(`${server.url}/llms.txt`, { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('allow'), 'GET, HEAD, OPTIONS');
    const missing = await fetch(`${server.url}/api/post/2020-01-01-no-such-post`, { method: 'DELETE' });
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { error: { code: string } }).error.code, 'not_found');
  });
  await t.test('should answer OPTIONS on pages, markdown and openapi.json as on any static file, and 404 where there is no file', async () => {
    // Express's automatic OPTIONS answer of the negotiating routes (GET and HEAD only) came first:
    // 200 text/plain "GET, HEAD" on every path ending in / or .md, files or not (found probing each route with OPTIONS).
    for (const path of ['/', `/setups/${SLUG}/`, `/setups/${SLUG}/post.md`, '/index.md', '/openapi.json']) {
      const res = await fetch(server.url + path, { method: 'OPTIONS' });
      assert.equal(res.status, 204, path);
      assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
    }
    for (const path of ['/no-such-page/', '/no-such-file.md']) {
      const res = await fetch(server.url + path, { method: 'OPTIONS' });
      assert.equal(res.status, 404, path);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'not_found', path);
    }
  });
  await t.test('should answer a NUL byte in a mirror name with 400, not a server error', async () => {
    for (const [path, field] of [['/api/post/a%00', 'slug'], ['/api/comments/a%00', 'slug'], ['/api/model/a%00', 'model'], ['/api/tag/a%00', 'tag'], ['/api/category/a%00', 'cat'], [`/setups/a%00/`, undefined]] as const) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as { error: { code: string; message: string; field?: string } };
      assert.equal(body.error.code, 'validation', path);
      assert.match(body.error.message, /NUL byte/, path);
      assert.equal(body.error.field, field, path);
    }
  });
  await t.test('should still serve GET and HEAD of the comments mirror', async () => {
    assert.equal((await fetch(`${server.url}/api/comments/${SLUG}`)).status, 200);
    assert.equal((await fetch(`${server.url}/api/comments/${SLUG}`, { method: 'HEAD' })).status, 200);
  });
});

/**
 * docs/deploy.md's nginx server block as nginx picks a location: an exact `=` match, else
 * the first regular expression that matches, else the longest prefix.
 */
function nginxLocation(block: string, path: string): string {
  const locations: { kind: string; match: string; body: string }[] = [];
  const opening = /^ {4}location (?:(=|~\*?) )?(\S+) \{/gm;
  for (let m = opening.exec(block); m; m = opening.exec(block)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; depth > 0 && i < block.length; i++) depth += block[i] === '{' ? 1 : block[i] === '}' ? -1 : 0;
    locations.push({ kind: m[1] ?? '', match: m[2]!, body: block.slice(m.index + m[0].length, i) });
  }
  const exact = locations.find((l) => l.kind === '=' && l.match === path);
  const regex = locations.find((l) => l.kind.startsWith('~') && new RegExp(l.match).test(path));
  const prefix = locations.filter((l) => l.kind === '' && !l.match.startsWith('@') && path.startsWith(l.match)).sort((a, b) => b.match.length - a.match.length)[0];
  const chosen = exact ?? regex ?? prefix;
  assert.ok(chosen, `an nginx location for ${path}`);
  return chosen.body;
}

/** The values docs/deploy.md's Caddyfile sets for `name` on `path` (every matching `header` applies). */
function caddyHeader(block: string, path: string, name: string): string[] {
  const glob = (p: string) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  const matchers = new Map<string, (p: string) => boolean>();
  for (const m of block.matchAll(/^ {4}@(\S+) (?:path (.+)|\{\n([\s\S]*?)\n {4}\})$/gm)) {
    const lines = m[2] !== undefined ? [`path ${m[2]}`] : m[3]!.split('\n').map((l) => l.trim());
    const tests = lines.filter((l) => /^(not )?path /.test(l)).map((l) => {
      const globs = l.replace(/^(not )?path /, '').split(/\s+/).map(glob);
      const any = (p: string) => globs.some((g) => g.test(p));
      return l.startsWith('not ') ? (p: string) => !any(p) : any;
    });
    if (tests.length > 0) matchers.set(m[1]!, (p) => tests.every((t) => t(p)));
  }
  const values: string[] = [];
  for (const m of block.matchAll(/^ {4}header (@\S+|\/\S*) (\S+) (.+)$/gm)) {
    const applies = m[1]!.startsWith('@') ? matchers.get(m[1]!.slice(1))?.(path) : glob(m[1]!).test(path);
    if (applies && m[2] === name) values.push(m[3]!.replace(/^"|"$/g, ''));
  }
  return values;
}

test('docs/deploy.md: nginx and Caddy let other sites\' scripts read what the writer and _headers let them read', async (t) => {
  const { server } = await serveProject(t, { samplePosts: true, catalog: true });
  const doc = await readFile(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const nginx = /```nginx\n(# The writer closes idle connections[\s\S]*?)```/.exec(doc)?.[1];
  const caddy = /```caddy\n(agora\.example \{[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(nginx && caddy, 'the nginx server block and the Caddyfile');
  // The agent-facing documents: the llms files (a split site's parts too), markdown, the feeds, the JSON documents.
  const paths = ['/llms.txt', '/llms-full.txt', `/setups/${SLUG}/post.md`, '/index.md', '/reviews/index.md', '/agents.md', '/feed.atom', '/feed.json',
    '/comments/feed.atom', '/tags/nginx/feed.json', `/setups/${SLUG}/comments.atom`, `/setups/${SLUG}/comments.json`, '/openapi.json', '/agencatalog/catalog.json', '/api/posts'];
  for (const path of paths) {
    const served = await fetch(`${server.url}${path}`);
    await served.arrayBuffer();
    assert.equal(served.status, 200, path);
    assert.equal(served.headers.get('access-control-allow-origin'), '*', `the writer: ${path}`);
  }
  // Before: nginx and Caddy sent it on /api/ only; an agent in a browser could not read llms.txt, post.md or a feed.
  for (const path of [...paths, '/llms-full-2.txt']) {
    assert.match(nginxLocation(nginx, path), /add_header Access-Control-Allow-Origin \* always;/, `nginx: ${path}`);
    assert.deepEqual(caddyHeader(caddy, path, 'Access-Control-Allow-Origin'), ['*'], `Caddy: ${path}`);
  }
});

test('docs/deploy.md: nginx and Caddy send the JSON mirrors\' Cache-Control, as dist/_headers and the writer do', async () => {
  const doc = await readFile(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const nginx = /```nginx\n(# The writer closes idle connections[\s\S]*?)```/.exec(doc)?.[1];
  const caddy = /```caddy\n(agora\.example \{[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(nginx && caddy, 'the nginx server block and the Caddyfile');
  const value = 'public, max-age=0, must-revalidate';
  // Without it a CDN or browser may keep a mirror by heuristic freshness (RFC 9111 4.2.2: a
  // share of its age since Last-Modified), and show its comments and views late. Caddy's had none.
  for (const path of ['/api/posts', `/api/post/${SLUG}`, `/api/comments/${SLUG}`, '/api/comments/count', '/api/views', '/api/model/gpt-5']) {
    assert.ok(nginxLocation(nginx, path).includes(`add_header Cache-Control "${value}";`), `nginx: ${path}`);
    assert.deepEqual(caddyHeader(caddy, path, 'Cache-Control'), [value], `Caddy: ${path}`);
  }
});
