/**
 * The per-provider settings name a provider: a typo of one stops the start instead of
 * doing nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProviderConfig } from '../../packages/writer/src/public-data/config.ts';

test('a per-provider setting that names no provider stops the load, naming it and the fix', () => {
  // Found by a configuration test: `AGORA_QUOTA_DARTT=5`, `AGORA_QUOTA_dart=5` and
  // `AGORA_UPSTREAM_KAMA_URL=http://…` started the writer as if unset: the cap or the fake
  // they meant never applied, and nothing said so.
  assert.throws(() => loadProviderConfig({ AGORA_QUOTA_DARTT: '5' }), /Unexpected `AGORA_QUOTA_DARTT`: it names no provider.*AGORA_QUOTA_DART, AGORA_QUOTA_ECOS/);
  // A typo within two edits is named as config keys' are (`closestName`).
  assert.throws(() => loadProviderConfig({ AGORA_QUOTA_DARTT: '5' }), /did you mean `AGORA_QUOTA_DART`\?/);
  assert.throws(() => loadProviderConfig({ AGORA_UPSTREAM_KAMA_URL: 'http://127.0.0.1:1' }), /did you mean `AGORA_UPSTREAM_KMA_URL`\?/);
  assert.throws(() => loadProviderConfig({ AGORA_QUOTA_dart: '5' }), /Unexpected `AGORA_QUOTA_dart`.*did you mean `AGORA_QUOTA_DART`\?/);
  assert.throws(() => loadProviderConfig({ AGORA_UPSTREAM_KAMA_URL: 'http://127.0.0.1:1' }), /Unexpected `AGORA_UPSTREAM_KAMA_URL`: it names no provider.*AGORA_UPSTREAM_KMA_URL/);
  assert.throws(() => loadProviderConfig({ agora_upstream_kma_url: 'http://127.0.0.1:1' }), /did you mean `AGORA_UPSTREAM_KMA_URL`\?/);
  // The known ones, the general upstream settings, and a blank unknown one load as before.
  const config = loadProviderConfig({ AGORA_QUOTA_DART: '5', AGORA_UPSTREAM_KMA_URL: 'http://127.0.0.1:1/', AGORA_UPSTREAM_TIMEOUT_MS: '500', AGORA_UPSTREAM_RETRIES: '0', AGORA_QUOTA_OLD: '' });
  assert.deepEqual([config.providers.dart.quotaPerDay, config.providers.kma.baseUrl, config.timeoutMs, config.retries], [5, 'http://127.0.0.1:1', 500, 0]);
});
