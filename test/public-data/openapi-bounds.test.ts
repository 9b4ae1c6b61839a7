/**
 * openapi.json's bounds of the simple endpoints' query parameters are the writer's: a
 * value just outside a documented minimum or maximum answers 400 naming the parameter,
 * and a value the document allows is not refused for that parameter. A client that
 * validates against the document then never sends what the writer refuses (an outside
 * sweep found `nx=150`, `lat=0`, `numOfRows=101` allowed by the document and refused).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitOpenApi } from '../../packages/generator/src/emit/openapi.ts';
import type { SiteModel } from '../../packages/generator/src/types.ts';
import { qs, realCatalog, startHarness } from './harness.ts';

interface Param {
  name: string;
  in: string;
  schema: { type?: string; minimum?: number; maximum?: number };
}

/** What each parameter needs beside it to reach its own check. */
const CONTEXT: Record<string, Record<string, Record<string, string>>> = {
  '/api/weather': { nx: { ny: '127' }, ny: { nx: '60' }, lat: { lon: '127' }, lon: { lat: '37.5' } },
  '/api/tour': { numOfRows: { action: 'area', areaCode: '1' }, pageNo: { action: 'area', areaCode: '1' }, mapX: { action: 'location', mapY: '37.5' }, mapY: { action: 'location', mapX: '127' }, radius: { action: 'location', mapX: '127', mapY: '37.5' } },
  '/api/corp': { numOfRows: { corpNm: 'agora' }, pageNo: { corpNm: 'agora' } },
  '/api/biznotice': {},
};
/** Whose documented bounds need another value to be accepted too: the point must also fall inside the KMA grid. */
const JOINT = new Set(['lat', 'lon']);

test('the documented bounds of the simple endpoints are the writer\'s', async (t) => {
  const catalog = await realCatalog();
  const site = { config: { title: 't', description: '', baseUrl: 'http://agora.test', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 }, catalog } as unknown as SiteModel;
  const doc = JSON.parse(emitOpenApi(site).body) as { paths: Record<string, { get?: { parameters?: Param[] } }> };
  const harness = await startHarness({ catalog });
  t.after(() => harness.stop());
  let probed = 0;
  for (const [path, context] of Object.entries(CONTEXT)) {
    for (const param of doc.paths[path]?.get?.parameters ?? []) {
      const { minimum, maximum, type } = param.schema;
      if (param.in !== 'query' || (minimum === undefined && maximum === undefined)) continue;
      const step = type === 'integer' ? 1 : 0.5;
      const ask = (value: number) => harness.get(`${path}${qs({ ...context[param.name], [param.name]: String(value) })}`);
      for (const outside of [minimum === undefined ? null : minimum - step, maximum === undefined ? null : maximum + step]) {
        if (outside === null) continue;
        const answer = await ask(outside);
        assert.equal(answer.status, 400, `${path} ${param.name}=${outside}`);
        assert.equal(answer.error.field, param.name, `${path} ${param.name}=${outside}: ${answer.error.message}`);
        probed++;
      }
      // Inside: the bounds themselves (the middle for the grid's coordinates) are not refused for this parameter.
      const inside = JOINT.has(param.name) ? [((minimum ?? 0) + (maximum ?? 0)) / 2] : [minimum, maximum].filter((v): v is number => v !== undefined);
      for (const value of inside) {
        const answer = await ask(value);
        assert.ok(answer.status !== 400 || answer.error.field !== param.name, `${path} ${param.name}=${value} is documented as allowed: ${answer.error.message}`);
      }
    }
  }
  assert.ok(probed >= 16, `bounds probed: ${probed}`);
});

test('the documented string rules of the simple endpoints are the writer\'s', async (t) => {
  const catalog = await realCatalog();
  const site = { config: { title: 't', description: '', baseUrl: 'http://agora.test', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 }, catalog } as unknown as SiteModel;
  const doc = JSON.parse(emitOpenApi(site).body) as { paths: Record<string, { get?: { parameters?: (Param & { schema: { pattern?: string; maxLength?: number; examples?: string[] } })[] } }> };
  const param = (path: string, name: string) => doc.paths[path]?.get?.parameters?.find((p) => p.name === name)?.schema;
  await t.test('business numbers in their printed form (docs/public-data.md) pass the documented pattern', () => {
    const bNo = param('/api/bizinfo', 'b_no')!;
    const pattern = new RegExp(bNo.pattern!);
    for (const value of ['124-81-00998,2208717483', '1248100998', ...(bNo.examples ?? [])]) assert.match(value, pattern);
    assert.doesNotMatch('12-481-00998', pattern);
  });
  await t.test('a corporation name over the documented maxLength is refused, one at it is not', async () => {
    const harness = await startHarness({ catalog });
    t.after(() => harness.stop());
    const max = param('/api/corp', 'corpNm')!.maxLength!;
    assert.equal(max, 100);
    const over = await harness.get(`/api/corp${qs({ corpNm: 'a'.repeat(max + 1) })}`);
    assert.equal(over.status, 400);
    assert.equal(over.error.field, 'corpNm');
    const at = await harness.get(`/api/corp${qs({ corpNm: 'a'.repeat(max) })}`);
    assert.ok(at.status !== 400 || at.error.field !== 'corpNm', at.error?.message);
  });
  await t.test('a tour content id the documented pattern allows is not refused for its length', async () => {
    // The document said `^[0-9]+$` while the writer takes 1 to 12 digits: a generated client
    // validating against it sent 13 digits and got 400 (found by an outside OpenAPI sweep).
    const harness = await startHarness({ catalog });
    t.after(() => harness.stop());
    const pattern = new RegExp(param('/api/tour', 'contentId')!.pattern!);
    for (const length of [1, 12, 13, 30]) {
      const value = '1'.repeat(length);
      const answer = await harness.get(`/api/tour${qs({ action: 'detail', contentId: value })}`);
      const refused = answer.status === 400 && answer.error.field === 'contentId';
      assert.equal(refused, !pattern.test(value), `contentId of ${length} digits: documented ${pattern.test(value) ? 'allowed' : 'refused'}, writer answered ${answer.status} ${answer.error?.message ?? ''}`);
    }
  });
});

test('the proxy\'s documented bound on a parameter string is the writer\'s, counted alike', async () => {
  // The description said "at most 500 characters" but the schema had no maxLength, and the
  // writer counted UTF-16 units: 300 emoji (300 characters to JSON Schema) were refused.
  const { parseProxyInput } = await import('../../packages/writer/src/public-data/routes/proxy-input.ts');
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const catalog = await realCatalog();
  const site = { config: { title: 't', description: '', baseUrl: 'http://agora.test', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 }, catalog } as unknown as SiteModel;
  const doc = JSON.parse(emitOpenApi(site).body) as { components: { schemas: { ProxyCall: { properties: { params: { additionalProperties: Record<string, unknown> } } } } } };
  const valueSchema = doc.components.schemas.ProxyCall.properties.params.additionalProperties;
  const documented = new Ajv2020({ strict: false }).compile(valueSchema);
  const overLength = (value: string) => {
    try {
      parseProxyInput(catalog, { service: 'weather-forecast', operation: 'getVilageFcst', params: { base_date: '20250112', base_time: '0500', nx: '60', ny: '127', pageNo: value } });
      return false;
    } catch (error) {
      return /at most \d+ characters/.test((error as Error).message);
    }
  };
  for (const value of ['7'.repeat(500), '\u{1F600}'.repeat(500), '7'.repeat(501), '\u{1F600}'.repeat(501)]) {
    assert.equal(overLength(value), !documented(value), `${[...value].length} × ${value.codePointAt(0)! > 0xffff ? 'emoji' : 'digit'}: documented ${documented(value) ? 'allowed' : 'refused'}`);
  }
});

test('a text parameter the writer trims is documented as needing a non-space', async () => {
  // An outside sweep found `corpNm=%20` allowed by the document (minLength 1) and refused
  // by the writer, which trims it to nothing: the document now says `pattern: \S`.
  const catalog = await realCatalog();
  const site = { config: { title: 't', description: '', baseUrl: 'http://agora.test', apiKey: 'k', writerUrl: '', lang: 'en', pageSize: 50 }, catalog } as unknown as SiteModel;
  const doc = JSON.parse(emitOpenApi(site).body) as { paths: Record<string, { get?: { parameters?: (Param & { schema: { minLength?: number; pattern?: string } })[] } }> };
  const texts = ['/api/tour', '/api/bizinfo', '/api/corp', '/api/biznotice'].flatMap((path) => (doc.paths[path]?.get?.parameters ?? []).filter((p) => p.schema.type === 'string' && p.schema.minLength === 1).map((p) => `${path} ${p.name} ${p.schema.pattern ?? 'no pattern'}`));
  assert.deepEqual(texts.sort(), ['/api/bizinfo p_nm \\S', '/api/biznotice q \\S', '/api/corp corpNm \\S', '/api/tour keyword \\S']);
});
