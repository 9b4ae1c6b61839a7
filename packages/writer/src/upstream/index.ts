/**
 * @module upstream: one client per public-data provider, shared HTTP handling and
 * the registry of every provider's operations by public operation id.
 */
import type { OperationTable, ProviderId } from './types.ts';
import { kmaOperations } from './kma/index.ts';
import { kaptOperations } from './kapt/index.ts';
import { tourOperations } from './tour/index.ts';
import { ntsOperations } from './nts/index.ts';
import { fscOperations } from './fsc/index.ts';
import { mssOperations } from './mss/index.ts';
import { lawOperations } from './law/index.ts';
import { createDartOperations } from './dart/index.ts';
import { ecosOperations } from './ecos/index.ts';
import { rtmsOperations } from './rtms/index.ts';

export * from './types.ts';
export { UpstreamError, type UpstreamFailure } from './upstream-error.ts';
export { requestUpstream, sendUpstream, buildUrl } from './http.ts';
export { redactUrl } from './redact.ts';

/**
 * Every provider's operations. DART keeps its company list per table, so each
 * router creates its own.
 */
export function createOperationTables(): Record<ProviderId, OperationTable> {
  return {
    kma: kmaOperations,
    kapt: kaptOperations,
    tour: tourOperations,
    nts: ntsOperations,
    fsc: fscOperations,
    mss: mssOperations,
    law: lawOperations,
    dart: createDartOperations(),
    ecos: ecosOperations,
    rtms: rtmsOperations,
  };
}
