/**
 * OpenDART client: `list.json` (pblntf_de is the receipt day), `fnlttSinglAcntAll.json`,
 * and `corpCode.json`, answered from the corpCode.xml ZIP, downloaded once a day per
 * client and searched by name.
 */
import { buildUrl, failure, parseBody, requestUpstream, sendUpstream } from '../http.ts';
import { gatewayFailure } from '../gateway-error.ts';
import type { OperationTable, Params, UpstreamContext } from '../types.ts';
import { dartOutcome, readCorpCodes, readDartList, type CorpCode } from './schema.ts';
import { firstZipEntry, isZip } from './unzip.ts';
import { parseXml } from '../xml.ts';

const CORP_CODES_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_MATCHES = 100;

async function getJson(ctx: UpstreamContext, path: string, query: Record<string, string | undefined>) {
  const url = buildUrl(ctx.baseUrl, path, { crtfc_key: ctx.key, ...query });
  const { body } = await requestUpstream(ctx, { url });
  const { outcome, detail } = dartOutcome(body);
  if (outcome === 'no_data') return readDartList(undefined);
  if (outcome !== 'ok') throw failure(ctx, url, outcome, { detail });
  return readDartList(body);
}

async function downloadCorpCodes(ctx: UpstreamContext): Promise<CorpCode[]> {
  const url = buildUrl(ctx.baseUrl, 'corpCode.xml', { crtfc_key: ctx.key });
  const { status, bytes } = await sendUpstream(ctx, { url });
  if (!isZip(bytes)) {
    const parsed = parseBody(bytes)?.body;
    const gateway = parsed === undefined ? null : gatewayFailure(parsed);
    const { outcome, detail } = parsed === undefined ? { outcome: 'malformed' as const, detail: `HTTP ${status}` } : dartOutcome(unwrapResult(parsed));
    throw failure(ctx, url, gateway?.kind ?? (outcome === 'ok' || outcome === 'no_data' ? 'malformed' : outcome), { status, detail: gateway?.detail ?? detail });
  }
  const xml = firstZipEntry(bytes);
  const codes = xml === undefined ? [] : readCorpCodes(parseXml(xml.toString('utf8')));
  if (codes.length === 0) throw failure(ctx, url, 'malformed', { status, detail: 'unreadable corpCode archive' });
  return codes;
}

/** Unwrap `<result>` of an XML error answer so `status` is at the top. */
function unwrapResult(parsed: unknown): unknown {
  return typeof parsed === 'object' && parsed !== null && 'result' in parsed ? (parsed as { result: unknown }).result : parsed;
}

/** Create the OpenDART operations, with their own daily cache of the company list. */
export function createDartOperations(): OperationTable {
  let codes: { at: number; list: Promise<CorpCode[]> } | undefined;
  const corpCodes = (ctx: UpstreamContext): Promise<CorpCode[]> => {
    const now = ctx.now().getTime();
    if (!codes || now - codes.at > CORP_CODES_TTL_MS) {
      const list = downloadCorpCodes(ctx);
      codes = { at: now, list };
      list.catch(() => (codes = undefined));
    }
    return codes.list;
  };
  return {
    'list.json': (p: Params, ctx) =>
      getJson(ctx, 'list.json', { bgn_de: p.bgn_de ?? p.pblntf_de, end_de: p.end_de ?? p.pblntf_de, pblntf_ty: p.pblntf_ty, page_no: p.page_no, page_count: p.page_count }),
    'fnlttSinglAcntAll.json': (p, ctx) => getJson(ctx, 'fnlttSinglAcntAll.json', { corp_code: p.corp_code, bsns_year: p.bsns_year, reprt_code: p.reprt_code, fs_div: p.fs_div ?? 'CFS' }),
    'corpCode.json': async (p, ctx) => {
      const name = (p.corp_name ?? '').toLowerCase();
      const matches = (await corpCodes(ctx)).filter(
        (c) => c.corp_name.toLowerCase().includes(name) && (!p.corp_code || c.corp_code === p.corp_code) && (p.full_code === 'true' || c.stock_code !== null),
      );
      return { total_count: matches.length, items: matches.slice(0, MAX_MATCHES) };
    },
  };
}
