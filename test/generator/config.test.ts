/**
 * `loadConfig` stops on every setting it cannot use, naming it and the fix: an unknown
 * key of agora.config.json (a typo like `baseURL` did nothing), a value of the wrong
 * type (`"title": 5` surfaced as `value.replace is not a function`), a port from any
 * source, an empty comment key, a writer URL, a language tag, a database URL that is
 * set but is not PostgreSQL's, `AGORA_SEARCH_INDEX` other than yes or no.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type LoadConfigOptions } from '@agora/generator';

async function withFile(file: unknown, env: NodeJS.ProcessEnv = {}, overrides?: LoadConfigOptions['overrides']) {
  const root = await mkdtemp(join(tmpdir(), 'agora-config-'));
  try {
    if (file !== undefined) await writeFile(join(root, 'agora.config.json'), JSON.stringify(file));
    return loadConfig({ root, env, ...(overrides ? { overrides } : {}) });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const refuses = async (file: unknown, message: RegExp, env: NodeJS.ProcessEnv = {}, overrides?: LoadConfigOptions['overrides']) =>
  assert.rejects(withFile(file, env, overrides), (error: Error) => {
    assert.match(error.message, message);
    return true;
  });

test('every setting it cannot use stops the load, naming it', async () => {
  await refuses({ baseURL: 'https://x.example' }, /Unexpected key `baseURL`.*did you mean `baseUrl`\?/);
  await refuses({ titel: 'x' }, /Unexpected key `titel`.*did you mean `title`\?/);
  await refuses({ colour: 'x' }, /Unexpected key `colour`.*the keys: title, description/);
  await refuses({ title: 5 }, /Unexpected `title` 5 .*expected a string/);
  await refuses({ description: ['x'] }, /Unexpected `description` \["x"\].*expected a string/);
  await refuses({ contentDir: 5 }, /Unexpected `contentDir` 5/);
  await refuses({ searchIndex: 'no' }, /Unexpected `searchIndex` "no".*expected a boolean/);
  await refuses({ title: '' }, /Unexpected empty `title`/);
  await refuses({ host: 5 }, /Unexpected `host` 5/);
  await refuses({ port: 'abc' }, /Unexpected `port` "abc".*expected a number/);
  await refuses({ port: -5 }, /Unexpected port `-5` \(`port` in agora.config.json\)/);
  // The flag as the user typed it (`-p abc` was reported as `NaN`).
  await refuses({}, /Unexpected port `abc` \(`--port`\)/, {}, { port: 'abc' });
  await refuses({}, /Unexpected port `70000` \(`--port`\)/, {}, { port: 70000 });
  await refuses({ lang: 'not a lang!!' }, /Unexpected `lang` "not a lang!!".*BCP 47/);
  await refuses({ lang: 'en_US' }, /with a hyphen: `en-US`/);
  await refuses({ trustProxy: 'loopback' }, /Unexpected key `trustProxy`.*go under `limits`: \{"limits": \{"trustProxy": …\}\}/);
  await refuses({}, /Unexpected `AGORA_API_KEY` "".*non-empty/, { AGORA_API_KEY: '' });
  await refuses({}, /Unexpected writer URL `notaurl`/, { AGORA_WRITER_URL: 'notaurl' });
  // A base URL with a path was taken, though every page links its files from the root of the host: a
  // site served under https://user.github.io/notes/ loaded without its stylesheet, and its canonical
  // links and sitemap named URLs its own links did not use.
  await refuses({ baseUrl: 'https://user.github.io/notes/' }, /Unexpected base URL `https:\/\/user\.github\.io\/notes`, expected the site's origin alone, such as `https:\/\/user\.github\.io`.*not under a path/);
  await refuses({}, /Unexpected base URL `https:\/\/agora\.example\?x=1`.*such as `https:\/\/agora\.example`/, { AGORA_BASE_URL: 'https://agora.example?x=1' });
  await refuses({}, /Unexpected base URL `https:\/\/agora\.example x`/, { AGORA_BASE_URL: 'https://agora.example x' });
  await refuses({}, /Unexpected `DATABASE_URL`.*"mysql:\/\/u:…@h\/d"/, { AGORA_STORE: 'postgres', DATABASE_URL: 'mysql://u:secret@h/d' });
  await refuses({}, /without a database: set `DATABASE_URL`/, { AGORA_STORE: 'postgres' });
  await refuses({}, /Unexpected `AGORA_SEARCH_INDEX` "maybe"/, { AGORA_SEARCH_INDEX: 'maybe' });
  await refuses({}, /Unexpected `dataDir` `.*agora\.config\.json`: it is a file, not a folder \(set `AGORA_DATA_DIR`/, { AGORA_DATA_DIR: 'agora.config.json' });
});

test('what it can use loads as before', async () => {
  const config = await withFile({ $schema: './x.json', title: 'T', lang: 'pt-BR', port: 9000, searchIndex: false, limits: { commentsPerIpPerMinute: 3 } }, { AGORA_WRITER_URL: 'https://api.example/', AGORA_SEARCH_INDEX: ' ' });
  assert.deepEqual([config.site.title, config.site.lang, config.port, config.searchIndex, config.site.writerUrl], ['T', 'pt-BR', 9000, false, 'https://api.example']);
  // What worked before the checks still does: a port as a string of digits, a writer behind a path, a key with a space inside.
  const lenient = await withFile({ port: '8081', searchShardPages: '500' }, { AGORA_WRITER_URL: 'https://x.example/agora/', AGORA_API_KEY: 'two words' });
  assert.deepEqual([lenient.port, lenient.searchShardPages, lenient.site.writerUrl, lenient.site.apiKey], [8081, 500, 'https://x.example/agora', 'two words']);
  assert.equal((await withFile(undefined, { AGORA_SEARCH_INDEX: 'off' })).searchIndex, false);
});

test('a blank HOST or folder variable is unset: the defaults, never the project root or every interface', async () => {
  // A blank line in an EnvironmentFile (`AGORA_DIST_DIR=`) built the site into the project
  // root and served it, agora.config.json and data/comments/*.json with it; `HOST=` listened
  // on every interface instead of 127.0.0.1.
  const blank = { HOST: '', AGORA_CONTENT_DIR: '', AGORA_DIST_DIR: ' ', AGORA_DATA_DIR: '', AGORA_CACHE_DIR: '' };
  const config = await withFile({}, blank);
  assert.equal(config.host, '127.0.0.1');
  assert.deepEqual(
    [config.contentDir, config.distDir, config.dataDir, config.cacheDir].map((dir) => dir.slice(config.root.length)),
    ['/content', '/dist', '/data', '/.cache'],
  );
  const fromFile = await withFile({ host: '0.0.0.0', distDir: 'public' }, { HOST: '', AGORA_DIST_DIR: '' });
  assert.deepEqual([fromFile.host, fromFile.distDir.slice(fromFile.root.length)], ['0.0.0.0', '/public']);
});

test('a base URL with a path, query or fragment stops the load: the pages link to root paths', async () => {
  // With AGORA_BASE_URL=http://host/sub the sitemap, llms.txt and canonical links named
  // /sub/… URLs that the writer answered 404, while the pages linked /api/posts, /assets/…
  await refuses({}, /Unexpected base URL `http:\/\/localhost:8080\/sub`, expected the site's origin alone, such as `http:\/\/localhost:8080`/, { AGORA_BASE_URL: 'http://localhost:8080/sub' });
  await refuses({ baseUrl: 'https://agora.example/docs/' }, /Unexpected base URL `https:\/\/agora\.example\/docs`/);
  await refuses({}, /Unexpected base URL `https:\/\/agora\.example\/\?x=1`/, { AGORA_BASE_URL: 'https://agora.example/?x=1' });
  await refuses({}, /Unexpected base URL `https:\/\/agora\.example#top`/, { AGORA_BASE_URL: 'https://agora.example#top' });
  // The root, with or without its slash, and a port, as before.
  assert.equal((await withFile({}, { AGORA_BASE_URL: 'https://agora.example/' })).site.baseUrl, 'https://agora.example');
  assert.equal((await withFile({ baseUrl: 'http://127.0.0.1:8080' })).site.baseUrl, 'http://127.0.0.1:8080');
});

test('the folders a build removes hold nothing it must keep, and the content folder holds neither', async () => {
  // "distDir": "." served agora.config.json and data/comments/*.json; "cacheDir": "." with
  // `agora build --force` would have removed the project; agora dev watches the content folder.
  const cases: [Record<string, string>, RegExp][] = [
    [{ distDir: '.' }, /^Unexpected `distDir` `[^`]+`: it holds the project folder .*what dist\/ holds is served, pruned by every build and removed by `agora build --force`; give it a folder of its own such as `dist`/],
    [{ distDir: '..' }, /`distDir` .*holds the project folder/],
    [{ cacheDir: '.' }, /^Unexpected `cacheDir` `[^`]+`: it holds the project folder .*removed whole by `agora build --force`.*such as `\.cache`/],
    [{ distDir: 'site', dataDir: 'site/data' }, /`distDir` .*holds the data folder/],
    [{ cacheDir: 'dist/cache' }, /`distDir` .*holds the cache folder/],
    [{ contentDir: '.' }, /^Unexpected `contentDir` `[^`]+`: it holds dist\/ .*agora dev` watches everything in the content folder.*give the posts a folder of their own such as `content`/],
    [{ contentDir: 'site', cacheDir: 'site/.cache' }, /`contentDir` .*holds the cache folder/],
  ];
  for (const [file, message] of cases) await refuses(file, message);
  await refuses({}, /`contentDir` .*holds dist\//, { AGORA_DIST_DIR: 'site/out', AGORA_CONTENT_DIR: 'site' });
  // Beside them, inside the data folder, or outside the project, as before.
  assert.match((await withFile({ distDir: 'public' })).distDir, /public$/);
  assert.match((await withFile({ distDir: 'dist-2', contentDir: 'dist-content' })).distDir, /dist-2$/, 'a common prefix is not an overlap');
  assert.match((await withFile({ distDir: 'data/site' })).distDir, /data\/site$/, 'dist/ inside the data folder harms neither');
  const outside = await withFile({}, { AGORA_DIST_DIR: join(tmpdir(), 'agora-elsewhere-dist') });
  assert.equal(outside.distDir, join(tmpdir(), 'agora-elsewhere-dist'));
});

test('agora.config.json saved with a byte-order mark loads, and a JSON syntax error names its line and column', async () => {
  const root = await mkdtemp(join(tmpdir(), 'agora-config-'));
  try {
    const path = join(root, 'agora.config.json');
    // Notepad and other Windows editors save UTF-8 with a BOM; posts with one are read, the config was
    // refused with "Unexpected token '\uFEFF'", a character no editor shows.
    await writeFile(path, '\uFEFF{"title": "With a BOM"}\n');
    assert.equal(loadConfig({ root, env: {} }).site.title, 'With a BOM');
    // A trailing comma on line 3 was reported as "at position 34".
    await writeFile(path, '{\n  "title": "x",\n  "lang": "en",\n}\n');
    assert.throws(() => loadConfig({ root, env: {} }), (error: Error) => {
      assert.match(error.message, /^Cannot read `.*agora\.config\.json:4:1`: Expected double-quoted property name in JSON \(line 4, column 1\); fix the JSON or delete the file$/);
      return true;
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a base or writer URL that is no URL stops the load naming the setting, not as a bare `Invalid URL`', async () => {
  // Found by a deployment test: AGORA_BASE_URL=http://localhost:99999 (a port too big) and
  // AGORA_WRITER_URL=https://w.example:abc passed the checks, and `agora build` / `start` then
  // stopped with `agora: Invalid URL` from an emitter, naming neither the variable nor the value.
  await refuses({}, /Unexpected base URL `http:\/\/localhost:99999`: it is no valid URL.*AGORA_BASE_URL/, { AGORA_BASE_URL: 'http://localhost:99999' });
  await refuses({ baseUrl: 'https://a.example:abc' }, /Unexpected base URL `https:\/\/a\.example:abc`: it is no valid URL.*`baseUrl` in agora\.config\.json/);
  await refuses({}, /Unexpected base URL `http:\/\/\[zz\]`: it is no valid URL/, { AGORA_BASE_URL: 'http://[zz]' });
  await refuses({}, /Unexpected writer URL `https:\/\/w\.example:abc`: it is no valid URL.*AGORA_WRITER_URL/, { AGORA_WRITER_URL: 'https://w.example:abc' });
  // A query or fragment was taken, and every page then posted to `https://w.example?x=1/api/comments/…`.
  await refuses({}, /Unexpected writer URL `https:\/\/w\.example\?x=1`.*without a query, fragment or user name/, { AGORA_WRITER_URL: 'https://w.example?x=1' });
  await refuses({}, /Unexpected writer URL `https:\/\/w\.example\/agora#x`/, { AGORA_WRITER_URL: 'https://w.example/agora#x' });
  // Valid ones as before: a port, an IPv6 address, a writer behind a path.
  assert.equal((await withFile({}, { AGORA_BASE_URL: 'http://[::1]:8080' })).site.baseUrl, 'http://[::1]:8080');
  assert.equal((await withFile({}, { AGORA_WRITER_URL: 'https://w.example:8443/agora/' })).site.writerUrl, 'https://w.example:8443/agora');
});

test('a blank PORT is unset and a port is decimal digits', async () => {
  // Found by a configuration test: `PORT= ` (a blank with a space, as an EnvironmentFile line can
  // hold) was Number(' ') = 0, so `agora start` listened on a random port; `PORT=0x4EB9` listened
  // on 20153 and `PORT=2.02e4` on 20200, though the message says "an integer from 0 to 65535".
  assert.equal((await withFile({}, { PORT: ' ' })).port, 8080);
  assert.equal((await withFile({ port: 9000 }, { PORT: '  ' })).port, 9000);
  assert.equal((await withFile({}, { PORT: ' 8081 ' })).port, 8081);
  await refuses({}, /Unexpected port `0x4EB9` \(`PORT`\), expected an integer from 0 to 65535/, { PORT: '0x4EB9' });
  await refuses({}, /Unexpected port `2\.02e4` \(`PORT`\)/, { PORT: '2.02e4' });
  await refuses({}, /Unexpected port `8080\.0` \(`--port`\)/, {}, { port: '8080.0' });
  await refuses({ port: '0x50' }, /Unexpected `port` "0x50"/);
});
