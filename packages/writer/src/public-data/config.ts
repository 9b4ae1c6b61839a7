/**
 * Provider settings from the environment: base URL overrides (so tests can point at
 * fakes), keys, daily caps, timeouts and the per-token quota. Defaults live in one
 * table; a malformed value throws at once (a configuration error).
 */
import type { ProviderId } from '../upstream/types.ts';
import { closestName } from '@agora/generator/config';

/** Settings of one provider. */
export interface ProviderSettings {
  id: ProviderId;
  baseUrl: string;
  /** The key, URL-decoded; undefined when not configured. */
  key: string | undefined;
  /** Settings that may hold the key, most specific first. */
  keyEnvs: readonly string[];
  /** The setting the key came from; when none is set, the general one (the last of `keyEnvs`). */
  keyEnv: string;
  /** Daily cap of this server, overriding the catalog's rate_limit.per_day. */
  quotaPerDay: number | undefined;
}

/** Everything the public-data router reads from the environment. */
export interface PublicDataConfig {
  providers: Record<ProviderId, ProviderSettings>;
  timeoutMs: number;
  retries: number;
  /** Calls per agent token per KST day through the proxy. */
  tokenQuotaPerDay: number;
  cacheMaxEntries: number;
}

const DATA_GO_KR = 'AGORA_DATA_GO_KR_KEY';

/** Defaults per provider: real base URL, key settings, and the server's own cap where stricter than the catalog. */
export const PROVIDER_DEFAULTS: Record<ProviderId, { baseUrl: string; keyEnvs: readonly string[]; quotaPerDay?: number }> = {
  kma: { baseUrl: 'https://apis.data.go.kr/1360000/VilageFcstInfoService_2.0', keyEnvs: ['AGORA_KMA_KEY', DATA_GO_KR] },
  kapt: { baseUrl: 'https://apis.data.go.kr/1613000/AptBasisInfoServiceV5', keyEnvs: ['AGORA_KAPT_KEY', DATA_GO_KR] },
  tour: { baseUrl: 'https://apis.data.go.kr/B551011/KorService2', keyEnvs: ['AGORA_TOUR_KEY', DATA_GO_KR] },
  nts: { baseUrl: 'https://api.odcloud.kr/api/nts-businessman/v1', keyEnvs: ['AGORA_NTS_KEY', DATA_GO_KR] },
  fsc: { baseUrl: 'https://apis.data.go.kr/1160100/service/GetCorpBasicInfoService_V2', keyEnvs: ['AGORA_FSC_KEY', DATA_GO_KR] },
  mss: { baseUrl: 'https://apis.data.go.kr/1421000/mssBizService_v2', keyEnvs: ['AGORA_MSS_KEY', DATA_GO_KR] },
  rtms: { baseUrl: 'https://apis.data.go.kr/1613000/RTMSDataSvcAptTrade', keyEnvs: ['AGORA_RTMS_KEY', DATA_GO_KR] },
  law: { baseUrl: 'https://www.law.go.kr/DRF', keyEnvs: ['AGORA_LAW_OC'] },
  dart: { baseUrl: 'https://opendart.fss.or.kr/api', keyEnvs: ['AGORA_DART_KEY'], quotaPerDay: 10000 },
  ecos: { baseUrl: 'https://ecos.bok.or.kr/api', keyEnvs: ['AGORA_ECOS_KEY'] },
};

/** Name of the base-URL setting of a provider, e.g. `AGORA_UPSTREAM_KMA_URL`. */
export const urlEnv = (id: ProviderId): string => `AGORA_UPSTREAM_${id.toUpperCase()}_URL`;

/** Name of the daily-cap setting of a provider, e.g. `AGORA_QUOTA_DART`. */
export const quotaEnv = (id: ProviderId): string => `AGORA_QUOTA_${id.toUpperCase()}`;

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`Cannot read \`${name}\`: expected an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

function baseUrl(env: NodeJS.ProcessEnv, id: ProviderId): string {
  const raw = env[urlEnv(id)]?.trim() || PROVIDER_DEFAULTS[id].baseUrl;
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new Error(`Cannot read \`${urlEnv(id)}\`: expected an absolute http(s) URL, got ${JSON.stringify(raw)}`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`Cannot read \`${urlEnv(id)}\`: expected http or https, got ${url.protocol}`);
  return raw.replace(/\/+$/, '');
}

/** data.go.kr shows keys in an encoded and a decoded form; accept either. */
function decodeKey(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A per-provider setting naming no provider (`AGORA_QUOTA_DARTT`, `AGORA_QUOTA_dart`,
 * `AGORA_UPSTREAM_KAMA_URL`) stops the start: it was ignored, so the cap or the fake it
 * meant to set silently did not apply.
 */
function checkProviderNames(env: NodeJS.ProcessEnv): void {
  const ids = Object.keys(PROVIDER_DEFAULTS) as ProviderId[];
  const families = [
    { pattern: /^AGORA_QUOTA_(.+)$/i, name: quotaEnv },
    { pattern: /^AGORA_UPSTREAM_(.+)_URL$/i, name: urlEnv },
  ];
  for (const name of Object.keys(env)) {
    // A blank one sets nothing either way.
    if (!env[name]?.trim()) continue;
    for (const { pattern, name: settingOf } of families) {
      const given = pattern.exec(name)?.[1];
      if (given === undefined || name === settingOf(given.toLowerCase() as ProviderId) && ids.includes(given.toLowerCase() as ProviderId)) continue;
      const known = ids.map(settingOf);
      const meant = closestName(name, known);
      throw new Error(`Unexpected \`${name}\`: it names no provider, so it would do nothing${meant ? `; did you mean \`${meant}\`?` : ''} (the providers' settings: ${known.join(', ')}; docs/public-data.md)`);
    }
  }
}

/**
 * Read the provider configuration.
 *
 * @param env The environment (usually `process.env`).
 * @example const config = loadProviderConfig({ AGORA_DATA_GO_KR_KEY: 'abc' });
 */
export function loadProviderConfig(env: NodeJS.ProcessEnv): PublicDataConfig {
  checkProviderNames(env);
  const providers = {} as Record<ProviderId, ProviderSettings>;
  for (const id of Object.keys(PROVIDER_DEFAULTS) as ProviderId[]) {
    const defaults = PROVIDER_DEFAULTS[id];
    const keyEnv = defaults.keyEnvs.find((name) => decodeKey(env[name]) !== undefined) ?? (defaults.keyEnvs.at(-1) as string);
    const cap = env[quotaEnv(id)]?.trim() ? integer(env, quotaEnv(id), 0, 1) : defaults.quotaPerDay;
    providers[id] = { id, baseUrl: baseUrl(env, id), key: decodeKey(env[keyEnv]), keyEnvs: defaults.keyEnvs, keyEnv, quotaPerDay: cap };
  }
  return {
    providers,
    timeoutMs: integer(env, 'AGORA_UPSTREAM_TIMEOUT_MS', 8000, 100),
    retries: integer(env, 'AGORA_UPSTREAM_RETRIES', 1, 0),
    tokenQuotaPerDay: integer(env, 'AGORA_TOKEN_QUOTA_PER_DAY', 1000, 1),
    cacheMaxEntries: integer(env, 'AGORA_PUBLIC_DATA_CACHE_ENTRIES', 1000, 0),
  };
}
