/**
 * The data.go.kr result-code table (shared by the gateway's OpenAPI_ServiceResponse
 * and each service's header), mapped to failure kinds. `00` is success, `03` no data.
 */
import type { UpstreamFailure } from './upstream-error.ts';
import { own } from './shape.ts';

/** Outcome of a data.go.kr result code. */
export type ResultOutcome = 'ok' | 'no_data' | UpstreamFailure;

const CODES: Record<string, { name: string; outcome: ResultOutcome }> = {
  '00': { name: 'NORMAL_SERVICE', outcome: 'ok' },
  '01': { name: 'APPLICATION_ERROR', outcome: 'failed' },
  '02': { name: 'DB_ERROR', outcome: 'failed' },
  '03': { name: 'NO_DATA', outcome: 'no_data' },
  '04': { name: 'HTTP_ERROR', outcome: 'failed' },
  '05': { name: 'SERVICETIME_OUT', outcome: 'timeout' },
  '10': { name: 'INVALID_REQUEST_PARAMETER_ERROR', outcome: 'params' },
  '11': { name: 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR', outcome: 'params' },
  '12': { name: 'NO_OPENAPI_SERVICE_ERROR', outcome: 'failed' },
  '20': { name: 'SERVICE_ACCESS_DENIED_ERROR', outcome: 'key' },
  '21': { name: 'TEMPORARILY_DISABLE_THE_SERVICEKEY_ERROR', outcome: 'key' },
  '22': { name: 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR', outcome: 'quota' },
  '23': { name: 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR', outcome: 'rate' },
  '30': { name: 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR', outcome: 'key' },
  '31': { name: 'DEADLINE_HAS_EXPIRED_ERROR', outcome: 'key' },
  '32': { name: 'UNREGISTERED_IP_ERROR', outcome: 'key' },
  '33': { name: 'UNSIGNED_CALL_ERROR', outcome: 'key' },
  '99': { name: 'UNKNOWN_ERROR', outcome: 'failed' },
};

/**
 * Classify a result code such as `"00"`, `"0000"`, `"000"`, `30` or `"22"`.
 *
 * @returns The outcome and the code's name (`UNKNOWN_ERROR` for codes outside the table).
 */
export function classifyResultCode(code: unknown): { outcome: ResultOutcome; name: string } {
  const raw = String(code ?? '').trim();
  if (/^0+$/.test(raw)) return CODES['00'] as { name: string; outcome: ResultOutcome };
  const normalized = /^\d+$/.test(raw) ? raw.replace(/^0+(?=\d\d)/, '').padStart(2, '0') : raw;
  return own(CODES, normalized) ?? { name: `code ${raw || 'missing'}`, outcome: 'failed' };
}
