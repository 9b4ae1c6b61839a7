/**
 * The catalog (spec 2.5, 4.2): the catalog document, its pages, and the proxy call
 * that runs any catalog operation with the server's provider key.
 */
import { allRateLimited, badPathEncoding, notFoundPage, errorResponse, startingRefusal, json, jsonResponse, pathParam, PUBLIC, ref, requestTimeout, textResponse, upstreamErrors, UPSTREAM_RETRY_AFTER, writerServers, type OpenApiContext } from './builders.ts';
import { envelopeExample } from './examples.ts';
import type { Operation, Paths } from './types.ts';
import { negotiatedPage } from './paths-documents.ts';

const PAGE = '<!doctype html>\n<html lang="en">…</html>\n';
const noCatalog = notFoundPage('The site has no catalog.');

const PROXY_EXAMPLE = {
  service: 'weather-forecast',
  operation: 'getVilageFcst',
  params: { base_date: '20250112', base_time: '0500', nx: '60', ny: '127' },
};

function proxyCall(ctx: OpenApiContext): Operation {
  const provider = upstreamErrors();
  return {
    operationId: 'callCatalogOperation',
    summary: 'Call a catalog operation through the proxy',
    description: [
      'Runs one operation of a catalog entry (`service` is the entry slug, `operation` one of its `apis[].id`) with the provider key held by the server, and answers the same envelope as the simple endpoints.',
      'Parameters are checked against the operation definition in the catalog before any provider call.',
      'Tokens are issued and revoked by the operator (`agora token create|revoke`); each token has a daily quota on top of the provider quota.',
    ].join(' '),
    tags: ['catalog'],
    requestBody: { description: 'The operation to call and its parameters.', required: true, content: json(ref('ProxyCall'), PROXY_EXAMPLE) },
    security: [{ AgentToken: [] }],
    ...writerServers(ctx),
    responses: allRateLimited({
      '200': jsonResponse(
        'The provider data in the envelope.',
        ref('Envelope'),
        envelopeExample('Korea Meteorological Administration (KMA)', 'getVilageFcst', 'Source: Korea Meteorological Administration', { items: [] }),
      ),
      '400': errorResponse('The body is not a proxy call, or a parameter is missing, unknown or invalid; `error.field` names it.', 'validation', 'body/params/base_date is required', 'base_date'),
      '401': errorResponse('`X-Agent-Token` is missing.', 'unauthorized', 'Missing X-Agent-Token header.'),
      '403': errorResponse('The token is unknown or revoked.', 'forbidden', 'The agent token is unknown or revoked.'),
      '404': errorResponse('No catalog entry has this slug, or the entry has no such operation.', 'not_found', 'The service `weather-forecast` has no operation `getForecast`.', 'operation'),
      '408': requestTimeout('No provider is called.'),
      '413': errorResponse('The JSON body is over 16384 bytes (16 KiB).', 'payload_too_large', 'body must be at most 16384 bytes (16 KiB)', 'body'),
      '415': errorResponse('The body is not `application/json`.', 'unsupported_media_type', 'header/Content-Type must be application/json', 'Content-Type'),
      ...provider,
      '503': errorResponse(
        'The entry is `pending_key` or its provider key is not configured on this server (`not_configured`), or the provider is unavailable, over its rate or out of its quota (`upstream_unavailable`, with `Retry-After` when the provider\'s limit says how long).',
        'not_configured',
        'The service `corporate-disclosures` is pending_key: its provider key is not set up yet.',
        undefined,
        UPSTREAM_RETRY_AFTER,
      ),
    }),
  };
}

/** Paths of the catalog document, its pages and the proxy. */
export function catalogPaths(ctx: OpenApiContext): Paths {
  return {
    '/agencatalog/catalog.json': {
      get: {
        operationId: 'getCatalog',
        summary: 'The public-data catalog',
        description: 'The catalog document: version, updated date, how to call the proxy, and every entry with its operations, parameters, limits and attribution.',
        tags: ['catalog'],
        security: PUBLIC,
        responses: { '200': jsonResponse('The catalog.', ref('Catalog')), '404': noCatalog },
      },
    },
    '/agencatalog/': {
      get: {
        operationId: 'getCatalogPage',
        summary: 'Catalog index page',
        description: 'HTML list of the catalog entries.',
        tags: ['catalog'],
        security: PUBLIC,
        responses: { '200': negotiatedPage('The catalog index.', PAGE), '404': noCatalog, '503': startingRefusal('the page asked for with `Accept: text/markdown` or JSON') },
      },
    },
    '/agencatalog/{slug}/': {
      get: {
        operationId: 'getCatalogEntryPage',
        summary: 'Catalog entry page',
        description: "HTML page of one entry (its `detail_url`): operations, parameters, limits, attribution and copy-paste curl examples.",
        tags: ['catalog'],
        parameters: [pathParam('slug', 'Slug of the catalog entry.', { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' })],
        security: PUBLIC,
        responses: { '200': negotiatedPage('The entry page.', PAGE), '400': badPathEncoding(), '404': notFoundPage('No catalog entry has this slug.'), '503': startingRefusal('the page asked for with `Accept: text/markdown` or JSON') },
      },
    },
    '/agencatalog/api/call': { post: proxyCall(ctx) },
  };
}
