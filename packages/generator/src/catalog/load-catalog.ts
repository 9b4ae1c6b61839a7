/**
 * Loads `content/catalog/catalog.yaml`, checks it against `catalogJsonSchema` and the
 * cross-field rules, and returns the catalog with absolute detail URLs, or `null`
 * with positioned messages when anything is wrong.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Message } from '../messages.ts';
import type { Catalog } from './types.ts';
import { catalogJsonSchema } from './catalog-schema.ts';
import { checkSchema, type SchemaIssue } from './check-schema.ts';
import { checkCatalogRules, type RuleIssue } from './catalog-rules.ts';
import { placeOf } from './yaml-position.ts';

export { catalogJsonSchema } from './catalog-schema.ts';

/** What `loadCatalog` answers. */
export interface LoadCatalogResult {
  /** The valid catalog, or `null` when the folder is missing or the file has errors. */
  catalog: Catalog | null;
  /** Every problem found, positioned in `catalog.yaml`. */
  messages: Message[];
}

/** Relative path of the catalog file inside the content folder. */
export const CATALOG_FILE = join('catalog', 'catalog.yaml');

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Load and validate the catalog.
 *
 * @param contentDir The content folder (holding `catalog/catalog.yaml`).
 * @param baseUrl Absolute site URL; detail URLs become `<baseUrl>/agencatalog/<slug>/`.
 * @returns The catalog (or `null`) and the messages; a missing `catalog/` folder gives `null` and no messages.
 * @example
 * const { catalog, messages } = await loadCatalog('content', 'https://agora.example');
 */
export async function loadCatalog(contentDir: string, baseUrl: string): Promise<LoadCatalogResult> {
  const path = join(contentDir, CATALOG_FILE);
  const file = relative(dirname(contentDir), path) || path;
  if (!(await exists(dirname(path)))) return { catalog: null, messages: [] };
  const at = (line: number, column: number, ruleId: string, message: string, fix: string): Message => ({ file, line, column, severity: 'error', ruleId, message, fix });
  if (!(await exists(path))) {
    return { catalog: null, messages: [at(1, 1, 'catalog-missing', `Missing \`${file}\``, 'create it with version, updated, proxy and services, or remove the catalog folder')] };
  }

  const lineCounter = new LineCounter();
  const doc = parseDocument(await readFile(path, 'utf8'), { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    const messages = doc.errors.map((error) => {
      const { line, col } = lineCounter.linePos(error.pos[0]);
      return at(line, col, 'catalog-yaml', `Unexpected YAML syntax: ${error.message.split('\n')[0]}`, 'fix the YAML syntax (indentation, quotes, colons)');
    });
    return { catalog: null, messages };
  }

  const toMessage = (ruleId: string) => (found: SchemaIssue | RuleIssue): Message => {
    const place = placeOf(doc, lineCounter, found.path, found.onKey === true);
    return at(place.line, place.column, 'ruleId' in found ? found.ruleId : ruleId, found.message, found.fix);
  };
  const value: unknown = doc.toJS();
  const schemaIssues = checkSchema(catalogJsonSchema, value);
  if (schemaIssues.length > 0) return { catalog: null, messages: schemaIssues.map(toMessage('catalog-schema')) };

  const catalog = value as Catalog;
  const ruleIssues = checkCatalogRules(catalog);
  if (ruleIssues.length > 0) return { catalog: null, messages: ruleIssues.map(toMessage('catalog-rule')) };

  return { catalog: withAbsoluteUrls(catalog, baseUrl), messages: [] };
}

function withAbsoluteUrls(catalog: Catalog, baseUrl: string): Catalog {
  const base = baseUrl.replace(/\/+$/, '');
  return { ...catalog, services: catalog.services.map((service) => ({ ...service, detail_url: `${base}${service.detail_url}` })) };
}
