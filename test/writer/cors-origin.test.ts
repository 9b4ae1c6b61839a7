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
  for (const value of ['https://app.example/path', 'https://a.example,https://b.example', 'https://a.example https://b.example', 'app.example', 'ftp://app.example', 'https://user@app.example']) {
    assert.throws(() => loadWriterSettings({ AGORA_CORS_ORIGIN: value }), /^Error: Unexpected AGORA_CORS_ORIGIN .*expected \* or one origin/, value);
  }
});
