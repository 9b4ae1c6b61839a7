/**
 * `AGORA_MCP_HOSTS` holds host names as a `Host` header names them: an entry written as a
 * URL or with a port matched no request, so it stops the start instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWriterSettings } from '../../packages/writer/src/config.ts';

test('AGORA_MCP_HOSTS: host names alone; a URL or a port stops the start naming the host to write', () => {
  // Found by a configuration test: with AGORA_MCP_HOSTS=https://agora.internal/ the writer
  // started, and POST /mcp with `Host: agora.internal` answered 403 "Invalid Host" — the setting
  // did nothing, silently. With AGORA_MCP_HOSTS=agora.internal the same request answered 200.
  assert.throws(() => loadWriterSettings({ AGORA_MCP_HOSTS: 'https://agora.internal/' }), /Unexpected AGORA_MCP_HOSTS entry "https:\/\/agora\.internal\/", expected a host name alone such as `agora\.internal` \(no scheme, port or path/);
  assert.throws(() => loadWriterSettings({ AGORA_MCP_HOSTS: 'a.example, agora.internal:8443' }), /entry "agora\.internal:8443".*such as `agora\.internal`/);
  assert.throws(() => loadWriterSettings({ AGORA_MCP_HOSTS: 'agora.internal/mcp' }), /entry "agora\.internal\/mcp"/);
  // Names, addresses and blanks as before.
  assert.deepEqual(loadWriterSettings({ AGORA_MCP_HOSTS: ' Agora.Internal , 10.0.0.5,,[::1], my_host ' }).mcpHosts, ['agora.internal', '10.0.0.5', '[::1]', 'my_host']);
  assert.deepEqual(loadWriterSettings({ AGORA_MCP_HOSTS: '' }).mcpHosts, []);
});
