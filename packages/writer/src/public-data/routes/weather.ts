/**
 * `GET /api/weather`: the latest published short-term forecast for a grid cell
 * (nx, ny; defaults 60 and 127, each on its own) or a coordinate (lat, lon), as hourly
 * rows and daily extremes. Cached until the next forecast run is published; an answer
 * without forecast rows (the provider had none yet) is not cached.
 */
import type { SimpleAnswer } from './simple-call.ts';
import { AppError } from '../../errors.ts';
import { fetchVilageItems, latestVilageBase, toGrid, toWeather, type ForecastBase } from '../../upstream/kma/index.ts';
import type { UpstreamContext } from '../../upstream/types.ts';
import { UpstreamError } from '../../upstream/index.ts';
import type { PublicDataContext } from '../context.ts';
import { callService } from '../call-service.ts';
import { parseQuery } from '../query/parse-query.ts';
import { decimal, integer } from '../query/rules.ts';

const SPEC = {
  nx: { rule: integer(1, 149) },
  ny: { rule: integer(1, 253) },
  lat: { rule: decimal(32, 44, 'a latitude') },
  lon: { rule: decimal(123, 133, 'a longitude') },
};

/** Grid cell of the request, from nx/ny, lat/lon or the defaults. */
function gridOf(query: { nx?: string; ny?: string; lat?: string; lon?: string }): { nx: number; ny: number; lat?: number; lon?: number } {
  const grid = query.nx !== undefined || query.ny !== undefined;
  const coords = query.lat !== undefined || query.lon !== undefined;
  if (grid && coords) throw new AppError('validation', 'query/lat must not be combined with nx and ny; give either nx and ny, or lat and lon', { field: 'lat' });
  if (coords) {
    if (query.lat === undefined) throw new AppError('validation', 'query/lat is required together with lon', { field: 'lat' });
    if (query.lon === undefined) throw new AppError('validation', 'query/lon is required together with lat', { field: 'lon' });
    const lat = Number(query.lat);
    const lon = Number(query.lon);
    const cell = toGrid(lat, lon);
    if (cell.nx < 1 || cell.nx > 149 || cell.ny < 1 || cell.ny > 253) throw new AppError('validation', 'query/lat and lon must lie inside the KMA forecast grid', { field: 'lat' });
    return { ...cell, lat, lon };
  }
  // Each coordinate has its own default (spec 4.3: "defaults 60 and 127").
  return { nx: Number(query.nx ?? 60), ny: Number(query.ny ?? 127) };
}

/**
 * Items of the latest run, falling back to the previous run while the latest is not out yet.
 * KMA refusing the parameters (code 10: "최근 1일 간의 자료만 제공합니다." for a base date
 * it no longer keeps) refuses the run the server chose, not the caller's nx and ny, which
 * are checked before: a 502, not a 400 the caller could do nothing about.
 */
async function forecastItems(upstream: UpstreamContext, base: ForecastBase, cell: { nx: number; ny: number }) {
  const ask = (b: ForecastBase) =>
    fetchVilageItems(upstream, { base_date: b.baseDate, base_time: b.baseTime, nx: String(cell.nx), ny: String(cell.ny) }).catch((error: unknown) => {
      if (!(error instanceof UpstreamError && error.kind === 'params')) throw error;
      const detail = `refused the forecast run ${b.baseDate} ${b.baseTime}${error.detail ? `: ${error.detail}` : ''}`;
      throw new UpstreamError('failed', { provider: error.provider, url: error.url, ...(error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus }), detail, cause: error });
    });
  const latest = await ask(base);
  if (latest.items.length > 0) return { base, items: latest.items };
  const previous = latestVilageBase(new Date(base.publishedAt.getTime() - 60_000));
  return { base: previous, items: (await ask(previous)).items };
}

/**
 * The weather route.
 *
 * @param ctx The router's shared state.
 */
export function weatherRoute(ctx: PublicDataContext): SimpleAnswer {
  return async function weather(req) {
    const cell = gridOf(parseQuery(req.query, SPEC));
    const base = latestVilageBase(ctx.now());
    const envelope = await callService(ctx, {
      scope: 'api',
      slug: 'weather-forecast',
      operation: 'getVilageFcst',
      cacheParams: { nx: String(cell.nx), ny: String(cell.ny), base_date: base.baseDate, base_time: base.baseTime },
      // A fallback to the previous run is retried soon; the latest run is good until the next one.
      expiresAt: (fetchedAt, data) => {
        const found = data as { base_time?: string; hours?: unknown[] };
        if (!found.hours?.length) return fetchedAt;
        return found.base_time === base.baseTime ? base.nextPublishedAt : new Date(fetchedAt.getTime() + 10 * 60_000);
      },
      run: async (upstream) => {
        const found = await forecastItems(upstream, base, cell);
        return { nx: cell.nx, ny: cell.ny, base_date: found.base.baseDate, base_time: found.base.baseTime, ...toWeather(found.items) };
      },
    });
    const location = cell.lat === undefined ? {} : { lat: cell.lat, lon: cell.lon };
    return { ...envelope, data: { ...location, ...(envelope.data as object) } };
  };
}
