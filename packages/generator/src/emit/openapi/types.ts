/**
 * The part of the OpenAPI 3.1 object model this document uses. Kept deliberately
 * small: what `emitOpenApi` builds, not a full description of the standard.
 */

/** A JSON Schema (2020-12) as OpenAPI 3.1 embeds it. */
export interface Schema {
  $ref?: string;
  type?: SchemaType | SchemaType[];
  description?: string;
  format?: string;
  pattern?: string;
  enum?: readonly (string | number | boolean | null)[];
  const?: string | number | boolean;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  propertyNames?: Schema;
  items?: Schema;
  oneOf?: Schema[];
}

/** JSON value types. */
export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

/** A named example value. */
export interface Example {
  summary?: string;
  description?: string;
  value: unknown;
}

/** Content of one media type: its schema and examples. */
export interface MediaType {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}

/** A response header. */
export interface Header {
  description: string;
  required?: boolean;
  schema: Schema;
}

/** One response of an operation. */
export interface Response {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

/** A path, query or header parameter. */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
  examples?: Record<string, Example>;
}

/** The request body of an operation. */
export interface RequestBody {
  description: string;
  required: boolean;
  content: Record<string, MediaType>;
}

/** A server (origin) of the API. */
export interface Server {
  url: string;
  description?: string;
}

/** Security requirement: scheme name to scopes (always empty for API keys). */
export type SecurityRequirement = Record<string, string[]>;

/** A code sample (`x-codeSamples`, shown by Redoc). */
export interface CodeSample {
  lang: string;
  label?: string;
  source: string;
}

/** One operation (method of a path). */
export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response>;
  security: SecurityRequirement[];
  servers?: Server[];
  'x-codeSamples'?: CodeSample[];
}

/** The methods the site answers. */
export type Method = 'get' | 'put' | 'post';

/** Operations of one path, by method. */
export type PathItem = Partial<Record<Method, Operation>>;

/** Path items by path template. */
export type Paths = Record<string, PathItem>;

/** An API-key scheme; `x-public-value` carries a key that is public by design. */
export interface SecurityScheme {
  type: 'apiKey';
  in: 'header';
  name: string;
  description: string;
  'x-public-value'?: string;
}

/** A tag grouping operations. */
export interface Tag {
  name: string;
  description: string;
}

/** The whole document. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    summary: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: Server[];
  tags: Tag[];
  paths: Paths;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, SecurityScheme>;
  };
}
