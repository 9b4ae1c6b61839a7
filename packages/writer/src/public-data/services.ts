/**
 * Which provider client serves which catalog entry, by slug, and how to find an
 * entry and its operation in the catalog.
 */
import type { Catalog, CatalogService, Operation } from '@agora/generator';
import type { ProviderId } from '../upstream/types.ts';

/** Provider of each catalog slug. */
export const SERVICE_PROVIDERS: Readonly<Record<string, ProviderId>> = {
  'weather-forecast': 'kma',
  'statutes-case-law': 'law',
  'corporate-disclosures': 'dart',
  'economic-statistics': 'ecos',
  'real-estate-trades': 'rtms',
  'apartment-complex': 'kapt',
  'tourism-content': 'tour',
  'business-registration': 'nts',
  'corporate-info': 'fsc',
  'support-notices': 'mss',
};

/** The catalog entry with this slug. */
export function findService(catalog: Catalog, slug: string): CatalogService | undefined {
  return catalog.services.find((service) => service.slug === slug);
}

/** The entry's operation with this id. */
export function findOperation(service: CatalogService, id: string): Operation | undefined {
  return service.apis.find((operation) => operation.id === id);
}
