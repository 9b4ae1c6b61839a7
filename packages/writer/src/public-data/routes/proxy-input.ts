/**
 * Checks a proxy call body `{service, operation, params}` against the catalog: 404
 * for an unknown service or operation, 400 for a malformed body, unknown or missing
 * parameters, values that are not short scalars, or values an operation's rules refuse
 * (`proxy-rules.ts`).
 */
import { AppError } from '../../errors.ts';
import type { Catalog, CatalogService, Operation } from '@agora/generator';
import { findOperation, findService } from '../services.ts';
import { checkProxyParams, hasProxyRule } from './proxy-rules.ts';

/** A checked proxy call. */
export interface ProxyInput {
  service: CatalogService;
  operation: Operation;
  params: Record<string, string>;
}

const MAX_VALUE = 500;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function paramValue(name: string, value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new AppError('validation', `body/params/${name} must be a string, number or boolean`, { field: `params.${name}` });
  // Characters as JSON Schema's maxLength counts them (code points), which openapi.json declares.
  if (value.length > MAX_VALUE && [...value].length > MAX_VALUE) throw new AppError('validation', `body/params/${name} must be at most ${MAX_VALUE} characters`, { field: `params.${name}` });
  if (/\p{Cc}/u.test(value)) throw new AppError('validation', `body/params/${name} must not contain control characters`, { field: `params.${name}` });
  return value.trim();
}

/**
 * Check a parsed body.
 *
 * @param catalog The catalog.
 * @param body `req.body` after JSON parsing.
 */
export function parseProxyInput(catalog: Catalog, body: unknown): ProxyInput {
  if (!isObject(body)) throw new AppError('validation', 'body must be a JSON object {service, operation, params}', { field: 'body' });
  for (const key of Object.keys(body)) {
    if (!['service', 'operation', 'params'].includes(key)) throw new AppError('validation', `body/${key} is not a known field; allowed: service, operation, params`, { field: key });
  }
  if (typeof body.service !== 'string' || !body.service) throw new AppError('validation', 'body/service must be a catalog slug, e.g. weather-forecast', { field: 'service' });
  if (typeof body.operation !== 'string' || !body.operation) throw new AppError('validation', 'body/operation must be an operation id of the service, e.g. getVilageFcst', { field: 'operation' });
  if (body.params !== undefined && !isObject(body.params)) throw new AppError('validation', 'body/params must be an object of parameter names to values', { field: 'params' });

  const service = findService(catalog, body.service);
  if (!service) throw new AppError('not_found', `body/service \`${body.service}\` is not in the catalog; see /agencatalog/catalog.json`, { field: 'service' });
  const operation = findOperation(service, body.operation);
  if (!operation) {
    throw new AppError('not_found', `body/operation \`${body.operation}\` is not an operation of \`${service.slug}\`; known: ${service.apis.map((op) => op.id).join(', ')}`, { field: 'operation' });
  }

  const raw = body.params ?? {};
  const known = operation.params.map((p) => p.name);
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!known.includes(name)) {
      throw new AppError('validation', `body/params/${name} is not a parameter of ${operation.id}; allowed: ${known.join(', ') || 'none'}`, { field: `params.${name}` });
    }
    const text = paramValue(name, value);
    // An empty value is no value, unless the parameter has a rule: then it is checked as
    // the simple endpoint checks it (`q=` is a 400 there), not sent upstream unfiltered.
    if (text !== '' || hasProxyRule(service.slug, operation.id, name)) params[name] = text;
  }
  const missing = operation.params.find((p) => p.required && params[p.name] === undefined);
  if (missing) throw new AppError('validation', `body/params/${missing.name} is required by ${operation.id}${missing.desc ? ` (${missing.desc})` : ''}`, { field: `params.${missing.name}` });
  return { service, operation, params: checkProxyParams(service.slug, operation.id, params) };
}
