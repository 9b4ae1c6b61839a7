/**
 * The one success envelope of every public-data answer (simple endpoints and proxy):
 * `{"data": …, "source": {provider, operation, attribution, fetched_at, cached}}`.
 */
import type { CatalogService } from '@agora/generator';

/** Where the data came from. */
export interface EnvelopeSource {
  /** The public body that supplies the data (the entry's `provider`). */
  provider: string;
  /** Public operation id, e.g. `getVilageFcst`. */
  operation: string;
  /** Credit line to show with the data. */
  attribution: string;
  /** When the provider answered, ISO 8601. */
  fetched_at: string;
  /** Whether the answer came from this server's cache. */
  cached: boolean;
}

/** A public-data answer. */
export interface Envelope<T = unknown> {
  data: T;
  source: EnvelopeSource;
}

/**
 * Wrap data in the envelope.
 *
 * @param service The catalog entry.
 * @param operation The public operation id.
 * @param data Normalized data.
 * @param fetchedAt When the provider answered.
 * @param cached Whether it came from the cache.
 */
export function toEnvelope<T>(service: CatalogService, operation: string, data: T, fetchedAt: Date, cached: boolean): Envelope<T> {
  return { data, source: { provider: service.provider, operation, attribution: service.attribution, fetched_at: fetchedAt.toISOString(), cached } };
}
