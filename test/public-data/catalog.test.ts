import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { catalogJsonSchema, loadCatalog } from '../../packages/generator/src/catalog/load-catalog.ts';
import type { JsonSchema } from '../../packages/generator/src/catalog/catalog-schema.ts';
import { CONTENT_DIR } from './harness.ts';

/** A deliberately separate, tiny validator for the JSON Schema subset, so the loader's checker is not tested against itself. */
function validate(schema: JsonSchema, value: unknown, path = '$'): string[] {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (types.length && !types.includes(kind as never) && !(kind === 'integer' && types.includes('number'))) return [`${path}: type ${kind}`];
  const errors: string[] = [];
  if (schema.const !== undefined && value !== schema.const) errors.push(`${path}: const`);
  if (schema.enum && !schema.enum.includes(value as string)) errors.push(`${path}: enum`);
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) errors.push(`${path}: pattern`);
    if (schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${path}: minLength`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) errors.push(`${path}: maxLength`);
    if (schema.format === 'date' && Number.isNaN(Date.parse(`${value}T00:00:00Z`))) errors.push(`${path}: date`);
  }
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: minimum`);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: minItems`);
    value.forEach((item, i) => schema.items && errors.push(...validate(schema.items, item, `${path}[${i}]`)));
  }
  if (kind === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) errors.push(`${path}: required ${key}`);
    for (const [key, item] of Object.entries(record)) {
      const sub = schema.properties?.[key];
      if (sub) errors.push(...validate(sub, item, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: additional ${key}`);
    }
  }
  return errors;
}

const copies: string[] = [];

async function brokenCopy(edit: (text: string) => string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agora-catalog-'));
  copies.push(dir);
  await mkdir(join(dir, 'content', 'catalog'), { recursive: true });
  const text = await readFile(join(CONTENT_DIR, 'catalog', 'catalog.yaml'), 'utf8');
  await writeFile(join(dir, 'content', 'catalog', 'catalog.yaml'), edit(text));
  return join(dir, 'content');
}

test('catalog document', async (t) => {
  const raw: unknown = parse(await readFile(join(CONTENT_DIR, 'catalog', 'catalog.yaml'), 'utf8'));
  const { catalog, messages } = await loadCatalog(CONTENT_DIR, 'https://agora.example/');

  await t.test('should conform to catalogJsonSchema as authored and as loaded', () => {
    assert.deepEqual(validate(catalogJsonSchema, raw), []);
    assert.deepEqual(validate(catalogJsonSchema, catalog), []);
    assert.deepEqual(messages, []);
  });
  await t.test('should hold ten entries, six active with a simple endpoint and four pending_key without', () => {
    assert.ok(catalog);
    assert.equal(catalog.version, 2);
    assert.deepEqual(catalog.proxy, { call: '/agencatalog/api/call', auth: 'X-Agent-Token' });
    assert.equal(catalog.services.length, 10);
    const pending = catalog.services.filter((s) => s.status === 'pending_key');
    assert.deepEqual(pending.map((s) => s.slug), ['statutes-case-law', 'corporate-disclosures', 'economic-statistics', 'real-estate-trades']);
    assert.ok(pending.every((s) => s.simple_api === null));
    assert.ok(catalog.services.filter((s) => s.status === 'active').every((s) => s.simple_api?.no_key === true));
  });
  await t.test('should list every operation id of the spec', () => {
    const ids = catalog?.services.flatMap((s) => s.apis.map((a) => a.id));
    assert.deepEqual(ids, [
      'getUltraSrtNcst', 'getUltraFcst', 'getVilageFcst', 'getVersion', 'lawSearch.do', 'lawService.do', 'list.json', 'corpCode.json', 'fnlttSinglAcntAll.json',
      'StatisticSearch', 'StatisticTableList', 'KeyStatisticList', 'getRTMSDataSvcAptTrade', 'getAphusBassInfoV5', 'getAphusDtlInfoV5',
      'searchKeyword2', 'areaBasedList2', 'locationBasedList2', 'detailCommon2', 'status', 'validate', 'getCorpOutline_V2', 'getbizList_v2',
    ]);
  });
  await t.test('should make detail_url absolute with the base URL', () => {
    assert.equal(catalog?.services[0]?.detail_url, 'https://agora.example/agencatalog/weather-forecast/');
  });
});

test('loadCatalog', async (t) => {
  t.after(() => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));
  await t.test('should answer null without messages when the catalog folder is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agora-empty-'));
    assert.deepEqual(await loadCatalog(dir, 'https://x'), { catalog: null, messages: [] });
    await rm(dir, { recursive: true });
  });
  await t.test('should point at the line of a bad status with the rule and the fix', async () => {
    const content = await brokenCopy((text) => text.replace('    status: pending_key\n    checked_date: 2026-11-21\n    detail_url: /agencatalog/economic-statistics/', '    status: waiting\n    checked_date: 2026-11-21\n    detail_url: /agencatalog/economic-statistics/'));
    const { catalog, messages } = await loadCatalog(content, 'https://x');
    assert.equal(catalog, null);
    assert.equal(messages.length, 1);
    const [message] = messages;
    assert.equal(message?.file, join('content', 'catalog', 'catalog.yaml'));
    assert.equal(message?.message, 'services[3].status must be active or pending_key, got "waiting"');
    assert.match(message?.fix ?? '', /active, pending_key/);
    const lines = (await readFile(join(content, 'catalog', 'catalog.yaml'), 'utf8')).split('\n');
    assert.equal(lines[(message?.line ?? 0) - 1], '    status: waiting');
    assert.equal(message?.column, 13);
  });
  await t.test('should report a missing field, a wrong type and an unknown field, each positioned', async () => {
    const content = await brokenCopy((text) =>
      text
        .replace('    free: true\n    rate_limit: { per_day: 10000, note: "10000 calls per day" }\n    attribution: "Source: Ministry of Government', '    free: "yes"\n    rate_limit: { per_day: 10000, note: "10000 calls per day" }\n    attribution: "Source: Ministry of Government')
        .replace('    provider: Bank of Korea (ECOS)\n', '')
        .replace('  - slug: support-notices\n', '  - slug: tourism-content\n    colour: blue\n'),
    );
    const { messages } = await loadCatalog(content, 'https://x');
    const texts = messages.map((m) => `${m.line}: ${m.message}`);
    assert.ok(texts.some((m) => /services\[1\]\.free must be true or false, got "yes"/.test(m)), texts.join('\n'));
    assert.ok(texts.some((m) => /services\[3\] is missing `provider`/.test(m)), texts.join('\n'));
    assert.ok(texts.some((m) => /services\[9\]\.colour is not a known field/.test(m)), texts.join('\n'));
    assert.ok(messages.every((m) => m.line > 1 && m.severity === 'error'));
  });
  await t.test('should report duplicate slugs with the first one named', async () => {
    const content = await brokenCopy((text) => text.replace('  - slug: support-notices\n', '  - slug: tourism-content\n').replace('detail_url: /agencatalog/support-notices/', 'detail_url: /agencatalog/tourism-content/'));
    const { messages } = await loadCatalog(content, 'https://x');
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.ruleId, 'catalog-unique-slug');
    assert.match(messages[0]?.message ?? '', /services\[9\]\.slug repeats slug `tourism-content`, first used at services\[6\]\.slug/);
  });
  await t.test('should report YAML syntax errors with their line', async () => {
    const content = await brokenCopy((text) => text.replace('proxy:\n  call: /agencatalog/api/call', 'proxy:\n  call: [/agencatalog/api/call'));
    const { catalog, messages } = await loadCatalog(content, 'https://x');
    assert.equal(catalog, null);
    assert.equal(messages[0]?.ruleId, 'catalog-yaml');
    assert.ok((messages[0]?.line ?? 0) >= 9);
  });
  await t.test('should require detail_url to match the slug', async () => {
    const content = await brokenCopy((text) => text.replace('detail_url: /agencatalog/corporate-info/', 'detail_url: /agencatalog/corp/'));
    const { messages } = await loadCatalog(content, 'https://x');
    assert.equal(messages[0]?.message, 'services[8].detail_url must be /agencatalog/corporate-info/, got "/agencatalog/corp/"');
  });
});
