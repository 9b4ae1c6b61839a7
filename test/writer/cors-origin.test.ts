/**
 * `AGORA_CORS_ORIGIN` is `*` or one origin: a blank one (a blank line in an
 * EnvironmentFile) sent an empty `Access-Control-Allow-Origin`, which browsers refuse,
 * and a path or a list was sent as it was, refused by every browser too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWriterSettings } from '../../packages/writer/src/config.ts';

test('AGORA_CORS_ORIGIN: * or one origin, blank is unset', () => {
  assert.equal(loadWriterSettings({}).corsOrigin, '*');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: '' }).corsOrigin, '*', 'blank (before: an empty header)');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: ' * ' }).corsOrigin, '*');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: 'https://app.example' }).corsOrigin, 'https://app.example');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: 'https://App.Example:8443/' }).corsOrigin, 'https://app.example:8443', 'a trailing slash and capitals forgiven');
  // Before: refused as "no path or list", though each is one origin.
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: 'https://bücher.example' }).corsOrigin, 'https://xn--bcher-kva.example', 'an IDN host, as browsers send it');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: 'https://app.example:443' }).corsOrigin, 'https://app.example', 'the default port, as browsers send it');
  assert.equal(loadWriterSettings({ AGORA_CORS_ORIGIN: 'http://[::1]:3000' }).corsOrigin, 'http://[::1]:3000');
  for (const value of ['https://app.example?x=1', 'https://app.example#x', 'https://app.example//', 'https://user:pw@app.example', 'https://app.example/path', 'https://a.example,https://b.example', 'https://a.example https://b.example', 'app.example', 'ftp://app.example', 'https://user@app.example']) {
    assert.throws(() => loadWriterSettings({ AGORA_CORS_ORIGIN: value }), /^Error: Unexpected AGORA_CORS_ORIGIN .*expected \* or one origin/, value);
  }
});
