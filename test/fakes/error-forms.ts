/**
 * Every error form a provider (or the data.go.kr gateway in front of it) is known to
 * send, selectable per provider with `fake.setMode(provider, form)`.
 */
import { gatewayJson, gatewayXml, json, plain, xml, type FakeReply } from './wire.ts';
import { FAKE_KEYS } from './keys.ts';

/** Error forms shared by all providers. Provider-specific modes (e.g. `no-data`) are handled by the provider. */
export const ERROR_FORMS = {
  /** XML OpenAPI_ServiceResponse, HTTP 200, code 30 (even when JSON was asked for). */
  'xml-key-error': () => gatewayXml('30', 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR'),
  /** The JSON copy with HTTP 403. */
  'json-key-error': () => gatewayJson('30', 'SERVICE_KEY_IS_NOT_REGISTERED_ERROR'),
  /** Bare HTTP 401. */
  'http-401': () => plain('Unauthorized', 401),
  /** Bare HTTP 403. */
  'http-403': () => plain('Forbidden', 403),
  /** HTTP 429 with a code-22 XML body. */
  'http-429': () => gatewayXml('22', 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR', 429),
  /** Code 22 with HTTP 200. */
  'quota-22': () => gatewayXml('22', 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR'),
  /** Code 23 (per second) with HTTP 200. */
  'rate-23': () => gatewayXml('23', 'LIMITED_NUMBER_OF_SERVICE_REQUESTS_PER_SECOND_EXCEEDS_ERROR'),
  /** A service header with code 10 (bad parameter), HTTP 200. */
  'params-10': () => json({ response: { header: { resultCode: '10', resultMsg: 'INVALID_REQUEST_PARAMETER_ERROR' } } }),
  /** A service header with code 99, HTTP 200. */
  'app-error': () => xml({ response: { header: { resultCode: '99', resultMsg: 'UNKNOWN_ERROR' } } }),
  /** Code 99 whose message repeats the request, key included, in the forms a server may print it. */
  'echo-key': () => {
    const key = FAKE_KEYS.dataGoKr;
    return xml({ response: { header: { resultCode: '99', resultMsg: `UNKNOWN ERROR serviceKey=${key} encoded=${encodeURIComponent(key)} decoded=${key.replace(/\+/g, ' ')} path=/x?ServiceKey=${encodeURIComponent(key)}` } } });
  },
  /** The same with escapes a server may print in another case or as HTML references. */
  'echo-key-escaped': () => {
    const key = FAKE_KEYS.dataGoKr;
    const lower = encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    const entities = [...key].map((c) => (/[a-z0-9]/i.test(c) ? c : `&#${c.codePointAt(0)};`)).join('');
    return xml({ response: { header: { resultCode: '99', resultMsg: `ERROR key=${lower} html=${entities}` } } });
  },
  /** A redirect elsewhere (relative: to this fake, which counts it if followed). */
  redirect: () => ({ status: 302, contentType: 'text/plain', body: 'Moved', headers: { location: '/kapt/elsewhere?moved=1' } }),
  /** HTTP 500 with an HTML page. */
  'http-500': () => ({ status: 500, contentType: 'text/html', body: '<html><body><h1>500 Internal Server Error</h1></body></html>' }),
  /** HTTP 503. */
  'http-503': () => plain('Service Unavailable', 503),
  /** Cut-off JSON with HTTP 200. */
  malformed: () => ({ status: 200, contentType: 'application/json', body: '{"response":{"header":{"resultCode":"00","resu' }),
  /** Not JSON, not XML. */
  garbage: () => ({ status: 200, contentType: 'text/plain', body: 'Service temporarily moved' }),
  /** Closes the connection without an answer. */
  'connection-reset': () => 'reset' as const,
  /** Answers after the client's timeout. */
  timeout: () => 'delay' as const,
  /** HTTP 200, chunked with no Content-Length, and a body that never ends (until the client hangs up). */
  endless: () => 'endless' as const,
} satisfies Record<string, () => FakeReply | 'reset' | 'delay' | 'endless'>;

/** Name of a shared error form. */
export type ErrorForm = keyof typeof ERROR_FORMS;

/** Whether a mode is a shared error form. */
export function isErrorForm(mode: string): mode is ErrorForm {
  return Object.hasOwn(ERROR_FORMS, mode);
}
