/**
 * Rules across fields that a JSON Schema cannot say: unique slugs, unique operation
 * ids and parameter names, and a detail_url that matches its slug. They run after the
 * schema check passed, so they may trust the shape.
 */
import type { Catalog } from './types.ts';
import type { DocPath, SchemaIssue } from './check-schema.ts';
import { formatPath } from './check-schema.ts';

/** A rule violation, with the first occurrence as `cause` for duplicates. */
export interface RuleIssue extends SchemaIssue {
  ruleId: string;
  cause?: DocPath;
}

type CatalogRule = (catalog: Catalog) => RuleIssue[];

function duplicates(names: string[], at: (index: number) => DocPath, ruleId: string, what: string): RuleIssue[] {
  const first = new Map<string, number>();
  const found: RuleIssue[] = [];
  names.forEach((name, index) => {
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, index);
      return;
    }
    found.push({
      ruleId,
      path: at(index),
      cause: at(earlier),
      message: `${formatPath(at(index))} repeats ${what} \`${name}\`, first used at ${formatPath(at(earlier))}`,
      fix: `give each ${what} a distinct value`,
    });
  });
  return found;
}

const catalogRules: Record<string, CatalogRule> = {
  'catalog-unique-slug': (catalog) =>
    duplicates(catalog.services.map((s) => s.slug), (i) => ['services', i, 'slug'], 'catalog-unique-slug', 'slug'),
  'catalog-unique-operation': (catalog) =>
    catalog.services.flatMap((service, s) =>
      duplicates(service.apis.map((op) => op.id), (i) => ['services', s, 'apis', i, 'id'], 'catalog-unique-operation', 'operation id'),
    ),
  'catalog-unique-param': (catalog) =>
    catalog.services.flatMap((service, s) =>
      service.apis.flatMap((op, o) =>
        duplicates(op.params.map((p) => p.name), (i) => ['services', s, 'apis', o, 'params', i, 'name'], 'catalog-unique-param', 'parameter name'),
      ),
    ),
  'catalog-detail-url': (catalog) =>
    catalog.services.flatMap((service, s) => {
      const expected = `/agencatalog/${service.slug}/`;
      if (service.detail_url === expected) return [];
      const path: DocPath = ['services', s, 'detail_url'];
      return [{ ruleId: 'catalog-detail-url', path, message: `${formatPath(path)} must be ${expected}, got ${JSON.stringify(service.detail_url)}`, fix: `write \`detail_url: ${expected}\` (the loader adds the base URL)` }];
    }),
};

/**
 * Run every cross-field rule.
 *
 * @param catalog A document that passed the schema check.
 * @returns The violations, in rule order.
 */
export function checkCatalogRules(catalog: Catalog): RuleIssue[] {
  return Object.values(catalogRules).flatMap((rule) => rule(catalog));
}
