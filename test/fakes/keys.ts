/**
 * The keys the fake providers accept. The data.go.kr key holds `+`, `/` and `=` like
 * real ones, and is handed to the server in its URL-encoded form.
 */

export const FAKE_KEYS = {
  /** ServiceKey of apis.data.go.kr and api.odcloud.kr. */
  dataGoKr: 'fake+Service/Key==',
  /** law.go.kr OC. */
  law: 'fakeoc',
  /** OpenDART crtfc_key. */
  dart: 'fakedartkey0123456789',
  /** ECOS key (a path segment). */
  ecos: 'FAKEECOSKEY42',
} as const;
