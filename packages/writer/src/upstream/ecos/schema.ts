/**
 * Reads Bank of Korea ECOS answers: `{"<Service>":{"list_total_count":N,"row":[…]}}`;
 * errors come with HTTP 200 as `{"RESULT":{"CODE":"INFO-200","MESSAGE":…}}` (also
 * nested under the service name). INFO-200 (no data) is an empty result.
 */
import { at, isRecord, list, num, own, scalars, text, type Scalar } from '../shape.ts';
import type { UpstreamFailure } from '../upstream-error.ts';

/** Outcome of an ECOS result code. */
export type EcosOutcome = 'no_data' | UpstreamFailure;

const CODES: Record<string, EcosOutcome> = {
  'INFO-100': 'key',
  'INFO-200': 'no_data',
  'ERROR-100': 'params',
  'ERROR-101': 'params',
  'ERROR-200': 'params',
  'ERROR-300': 'params',
  'ERROR-301': 'params',
  'ERROR-400': 'timeout',
  'ERROR-500': 'failed',
  'ERROR-600': 'failed',
  'ERROR-601': 'failed',
  // "과도한 OpenAPI호출로 이용이 제한되었습니다. 잠시후 이용해주시기 바랍니다.": a throttle ("again in a
  // while"), not the day's quota; told as that, a client waited until midnight KST.
  'ERROR-602': 'rate',
};

/** The error code in an answer, or null when it is a data answer. */
export function ecosResult(body: unknown, service: string): { outcome: EcosOutcome; detail: string } | null {
  const result = at(body, 'RESULT') ?? at(body, service, 'RESULT');
  if (!isRecord(result)) return null;
  const code = text(result.CODE) ?? 'missing';
  return { outcome: own(CODES, code) ?? 'failed', detail: code };
}

/** Rows of a data answer; `undefined` when the body has no such service root. */
export function readEcosRows(body: unknown, service: string): { list_total_count: number; items: Record<string, Scalar>[] } | undefined {
  const root = at(body, service);
  if (!isRecord(root)) return undefined;
  const items = list(root.row).map(scalars);
  return { list_total_count: num(root.list_total_count) ?? items.length, items };
}
