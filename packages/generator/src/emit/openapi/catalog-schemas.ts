/**
 * Component schemas of the catalog document (spec 2.5), derived from the JSON Schema
 * the loader checks `catalog.yaml` against, so the two can never disagree. Nested
 * objects are lifted into named components and replaced by references.
 */
import { catalogJsonSchema, type JsonSchema } from '../../catalog/catalog-schema.ts';
import { ref } from './builders.ts';
import type { Schema } from './types.ts';

/** The named member of an object schema; throws when the catalog schema lost it. */
function member(schema: JsonSchema, key: string): JsonSchema {
  const found = schema.properties?.[key];
  if (!found) throw new Error(`Cannot find \`${key}\` in the catalog schema; update \`catalog-schemas.ts\``);
  return found;
}

/** The item schema of the named array member. */
function itemOf(schema: JsonSchema, key: string): JsonSchema {
  const items = member(schema, key).items;
  if (!items) throw new Error(`Cannot find the items of \`${key}\` in the catalog schema; update \`catalog-schemas.ts\``);
  return items;
}

/**
 * A copy of an object schema without the document-level keywords, with some members
 * replaced.
 *
 * @param schema
 *   Object schema from the catalog schema.
 * @param replacements
 *   Members to replace, by name.
 */
function lift(schema: JsonSchema, replacements: Record<string, Schema> = {}): Schema {
  const { $schema: _schema, $id: _id, title: _title, properties, ...rest } = schema;
  return { ...rest, properties: { ...properties, ...replacements } };
}

/** The same array member with its items replaced by a reference. */
function listOf(schema: JsonSchema, key: string, name: string): Schema {
  return { ...member(schema, key), items: ref(name) };
}

/** Schemas `Catalog`, `CatalogService` and their parts. */
export function catalogSchemas(): Record<string, Schema> {
  const root: JsonSchema = catalogJsonSchema;
  const service = itemOf(root, 'services');
  const operation = itemOf(service, 'apis');
  const simpleApi = member(service, 'simple_api');
  return {
    Catalog: {
      ...lift(root, { services: listOf(root, 'services', 'CatalogService') }),
      description: 'The public-data catalog document (spec 2.5), served at `/agencatalog/catalog.json`.',
    },
    CatalogService: lift(service, {
      simple_api: { oneOf: [ref('CatalogSimpleApi'), { type: 'null' }], description: 'The keyless endpoint on this service, or `null` when the entry has none.' },
      what_agent_gets: listOf(service, 'what_agent_gets', 'CatalogAgentGets'),
      apis: listOf(service, 'apis', 'CatalogOperation'),
      rate_limit: ref('CatalogRateLimit'),
    }),
    CatalogSimpleApi: { ...lift(simpleApi), type: 'object' },
    CatalogAgentGets: lift(itemOf(service, 'what_agent_gets')),
    CatalogRateLimit: lift(member(service, 'rate_limit')),
    CatalogOperation: lift(operation, {
      params: listOf(operation, 'params', 'CatalogParam'),
      rate_limit: ref('CatalogOperationRateLimit'),
    }),
    CatalogParam: lift(itemOf(operation, 'params')),
    CatalogOperationRateLimit: lift(member(operation, 'rate_limit')),
  };
}
