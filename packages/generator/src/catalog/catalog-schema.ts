/**
 * JSON Schema (2020-12) of the catalog document. The loader checks `catalog.yaml`
 * against it, tests check the authored document with it, and the OpenAPI document
 * embeds it. Only a small subset of JSON Schema is used (see `check-schema.ts`); the
 * `description` of a patterned string reads as the rule in error messages.
 */

/** The subset of JSON Schema this project uses. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: readonly (string | number | boolean)[];
  const?: string | number | boolean;
  pattern?: string;
  format?: 'date';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

/** JSON value types of the subset. */
export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

const text = (description: string, maxLength = 2000): JsonSchema => ({ type: 'string', minLength: 1, maxLength, description });
const date = (description: string): JsonSchema => ({ type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });
const perDay: JsonSchema = { type: 'integer', minimum: 1, description: 'calls allowed per day' };
const list = (items: JsonSchema, description: string): JsonSchema => ({ type: 'array', items, minItems: 1, description });
const object = (description: string, properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  additionalProperties: false,
});

const param = object(
  'operation parameter',
  {
    name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'a parameter name (letters, digits, underscores)' },
    required: { type: 'boolean', description: 'whether the parameter is required' },
    example: { type: 'string', description: 'example value, as a string' },
    desc: text('what the parameter means'),
  },
  ['desc'],
);

const operation = object('operation', {
  id: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_.]*$', description: 'the public operation id, e.g. getVilageFcst' },
  name: text('short name', 200),
  note: text('what the operation answers'),
  params: { type: 'array', items: param, description: 'parameters (may be empty)' },
  returns: list(text('returned field', 500), 'returned fields'),
  rate_limit: object('operation rate limit', { per_day: perDay, note: text('limit note') }, ['note']),
});

const simpleApi = {
  ...object('keyless endpoint on this service, or null', {
    label: text('button label', 200),
    method: { type: 'string', enum: ['GET'], description: 'HTTP method' },
    url: { type: 'string', pattern: '^/api/[a-z]+(\\?.*)?$', description: 'a site-relative path under /api/ with an example query' },
    no_key: { type: 'boolean', const: true, description: 'always true' },
    note: text('note on the endpoint'),
  }),
  type: ['object', 'null'],
} satisfies JsonSchema;

const service = object('service entry', {
  slug: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', description: 'a kebab-case identifier (lowercase letters and digits joined by single hyphens)' },
  name: text('display name', 200),
  provider: text('name of the public body that supplies the data', 200),
  description: text('what the entry offers'),
  simple_api: simpleApi,
  what_agent_gets: list(object('what an agent gets', { data: text('the data'), use: text('what it is good for') }), 'what an agent gets'),
  use_cases: list(text('use case', 500), 'use cases'),
  apis: list(operation, 'operations'),
  auth: { type: 'string', enum: ['ServiceKey', 'OC key', 'crtfc_key', 'plain key'], description: 'provider key scheme' },
  free: { type: 'boolean', description: 'whether the provider is free of charge' },
  rate_limit: object('entry rate limit', { per_day: perDay, note: text('limit note') }),
  attribution: text('source credit line', 500),
  status: { type: 'string', enum: ['active', 'pending_key'], description: 'whether the entry is callable now' },
  checked_date: date('date the entry was last checked'),
  detail_url: { type: 'string', pattern: '^(https?://[^\\s]+)?/agencatalog/[a-z0-9-]+/$', description: 'the detail page path /agencatalog/<slug>/' },
});

/** JSON Schema of the catalog document (spec 2.5). */
export const catalogJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://agora.local/schemas/catalog.json',
  title: 'Agora public-data catalog',
  ...object('catalog document', {
    version: { type: 'integer', const: 2, description: 'document version' },
    updated: date('date of the last edit'),
    proxy: object('proxy call', {
      call: { type: 'string', pattern: '^/[^\\s]*$', description: 'a site-relative path starting with /' },
      auth: { type: 'string', pattern: '^[A-Za-z0-9-]+$', description: 'an HTTP header name' },
    }),
    services: list(service, 'service entries'),
  }),
} satisfies JsonSchema;
