/**
 * Check real answers against `openapi.json` with Ajv (JSON Schema 2020-12, as OpenAPI
 * 3.1 embeds it): the path and method must be documented, the status declared, every
 * rate-limit, retry, location and allow header the answer carries declared (and every
 * required one present, its value valid), the media type declared and a JSON body
 * valid against its schema. An undocumented method of a documented writer path must
 * be the 405 with `Allow` that the document's description promises.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RecordedAnswer } from './answer-recorder.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
interface HeaderDoc {
  required?: boolean;
  schema?: Json;
}
interface ResponseDoc {
  headers?: Record<string, HeaderDoc>;
  content?: Record<string, { schema?: Json }>;
}
interface OperationDoc {
  parameters?: { name: string; in: string; schema: Json }[];
  responses: Record<string, ResponseDoc>;
}

/** Headers whose presence the document must declare when an answer carries them. */
const CONTRACT_HEADERS = ['location', 'retry-after', 'ratelimit', 'ratelimit-policy', 'allow'];

/** Paths served by the writer process: an undocumented one there is a gap in the document. */
const WRITER_PATH = /^\/(api\/|mcp$|agencatalog\/api\/)/;

const pointer = (...tokens: string[]) => tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/** The outcome for one answer. */
export interface AnswerCheck {
  /** `METHOD /path/template status`, or why it was not checked. */
  key: string;
  /** Checked against an operation (false: a static file the API does not describe). */
  documented: boolean;
  problems: string[];
}

/**
 * A checker for the answers of one server.
 *
 * @param doc The server's `openapi.json`.
 */
export function createAnswerChecker(doc: Json): (answer: RecordedAnswer) => AnswerCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'https://contract.test/openapi.json' });
  const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
  const validator = (ref: string) => {
    let v = compiled.get(ref);
    if (!v) compiled.set(ref, (v = ajv.compile({ $ref: `https://contract.test/openapi.json#/${ref}` })));
    return v;
  };
  const paths = doc.paths as Record<string, Record<string, OperationDoc>>;
  const templates = Object.keys(paths).map((template) => {
    const names: string[] = [];
    const source = template.split(/(\{[^}]+\})/).map((part) => (/^\{.+\}$/.test(part) ? (names.push(part.slice(1, -1)), '([^/]+)') : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('');
    return { template, names, regex: new RegExp(`^${source}$`) };
  }).sort((a, b) => a.names.length - b.names.length);

  /** The documented path of a request path whose parameters fit their schemas (one with the method first). */
  const match = (path: string, method: string) => {
    const ordered = [...templates.filter((t) => paths[t.template]![method]), ...templates.filter((t) => !paths[t.template]![method])];
    for (const t of ordered) {
      const m = t.regex.exec(path);
      if (!m) continue;
      const op = paths[t.template]![method] ?? Object.values(paths[t.template]!)[0];
      const fits = t.names.every((name, i) => {
        const schema = op?.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema;
        let value: string;
        try {
          value = decodeURIComponent(m[i + 1]!);
        } catch {
          // Not valid percent-encoding (`%ZZ`): any template's, answered with its documented 400.
          return true;
        }
        return !schema || ajv.validate(schema, value);
      });
      if (fits) return t.template;
    }
    return null;
  };

  return (answer) => {
    const path = answer.url.split('?')[0]!;
    // CORS preflight, promised by the document's description for the writer's paths.
    // A static file answers its preflight too (204 with Allow), a path with no file 404 as any method does (README);
    // /mcp refuses a foreign Origin or Host before anything (403).
    const preflightOk = (answer.status === 204 && (WRITER_PATH.test(path) || Boolean(answer.headers.allow))) || (answer.status === 403 && path === '/mcp') || (answer.status === 404 && !WRITER_PATH.test(path) && answer.body.includes('"not_found"'));
    if (answer.method === 'OPTIONS') return { key: `OPTIONS ${path} ${answer.status}`, documented: false, problems: preflightOk ? [] : [`OPTIONS ${path} answered ${answer.status}`] };
    const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
    const template = match(path, method);
    const problems: string[] = [];
    if (!template) {
      const writer = WRITER_PATH.test(path);
      if (writer && answer.status !== 404 && !(answer.status === 405 && answer.headers.allow)) problems.push(`undocumented writer route ${answer.method} ${path} answered ${answer.status}`);
      return { key: `${answer.method} ${path} (not in the document)`, documented: false, problems };
    }
    const operation = paths[template]![method];
    if (!operation) {
      // /mcp checks Host and Origin before the method: a foreign one is 403 on any method.
      if (path === '/mcp' && answer.status === 403) return { key: `${answer.method} ${template} 403`, documented: true, problems };
      if (answer.status !== 405 || !answer.headers.allow) problems.push(`${answer.method} ${template} is not documented and answered ${answer.status} (only 405 with Allow is promised)`);
      return { key: `${answer.method} ${template} ${answer.status}`, documented: true, problems };
    }
    const key = `${method.toUpperCase()} ${template} ${answer.status}`;
    // A conditional GET's 304 is HTTP caching, not part of the operation.
    if (answer.status === 304 && operation.responses['200']) return { key, documented: true, problems };
    const status = String(answer.status);
    const response = operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses['default'];
    if (!response) return { key, documented: true, problems: [`${key}: status not declared`] };
    const base = pointer('paths', template, method, 'responses', operation.responses[status] ? status : `${status[0]}XX`);
    const declared = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]));
    for (const name of CONTRACT_HEADERS) {
      if (answer.headers[name] !== undefined && !declared[name]) problems.push(`${key}: header ${name} sent but not declared`);
    }
    for (const [name, h] of Object.entries(declared)) {
      const value = answer.headers[name];
      if (value === undefined) {
        if (h.required) problems.push(`${key}: required header ${name} missing`);
        continue;
      }
      const schema = h.schema ?? {};
      const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      if (!ajv.validate(schema, typed)) problems.push(`${key}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(ajv.errors)}`);
    }
    const type = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const hasBody = answer.body.length > 0 || answer.truncated;
    if (!response.content) {
      if (hasBody && answer.method !== 'HEAD') problems.push(`${key}: a ${type} body where none is declared`);
      return { key, documented: true, problems };
    }
    if (!hasBody && answer.method === 'HEAD') return { key, documented: true, problems };
    const media = Object.keys(response.content).find((m) => m.toLowerCase() === type);
    if (!media) return { key, documented: true, problems: [...problems, `${key}: media type ${type || '(none)'} not declared (${Object.keys(response.content).join(', ')})`] };
    if (type === 'application/json' && !answer.truncated && response.content[media]!.schema) {
      let body: unknown;
      try {
        body = JSON.parse(answer.body);
      } catch {
        return { key, documented: true, problems: [...problems, `${key}: body is not JSON`] };
      }
      const validate = validator(`${base}/content/${pointer(media)}/schema`);
      if (!validate(body)) problems.push(`${key}: body ${ajv.errorsText(validate.errors, { separator: '; ' })}: ${answer.body.slice(0, 300)}`);
    }
    return { key, documented: true, problems };
  };
}
