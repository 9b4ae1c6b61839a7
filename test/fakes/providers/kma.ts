/**
 * Fake KMA VilageFcstInfoService_2.0: getUltraSrtNcst, getUltraSrtFcst,
 * getVilageFcst (the whole window: from the hour after the run to the end of the
 * third day after, 12 categories per hour plus TMN at 0600 and TMX at 1500, sorted by
 * time then category, paged) and getFcstVersion. Mode `no-data` answers code 03; mode
 * `too-old` code 10 with the message KMA gives a base_date older than a day.
 */
import { dataGoKr, plain, type FakeReply, type FakeRequest } from '../wire.ts';
import { addDays, checkServiceKey, operationOf } from './common.ts';

/** Real base path of the provider, below its host. */
export const KMA_BASE = '/1360000/VilageFcstInfoService_2.0';
const VILAGE_TIMES = ['0200', '0500', '0800', '1100', '1400', '1700', '2000', '2300'];
const VILAGE_CATEGORIES = ['TMP', 'UUU', 'VVV', 'VEC', 'WSD', 'SKY', 'PTY', 'POP', 'WAV', 'PCP', 'REH', 'SNO'];

type Row = Record<string, string | number>;

function value(category: string, hour: number, day: number): string {
  const temp = 8 + Math.round(6 * Math.sin(((hour - 9) / 24) * 2 * Math.PI)) + day;
  const wet = hour >= 15 && hour <= 18 && day === 1;
  const table: Record<string, string> = {
    TMP: String(temp), UUU: '1.2', VVV: '-0.8', VEC: '290', WSD: (1.5 + (hour % 4) / 2).toFixed(1), SKY: wet ? '4' : hour < 12 ? '1' : '3',
    PTY: wet ? '1' : '0', POP: wet ? '70' : '20', WAV: '0', PCP: wet ? '1mm 미만' : '강수없음', REH: String(55 + (hour % 5) * 5), SNO: '적설없음',
    TMN: (2 + day).toFixed(1), TMX: (14 + day).toFixed(1),
  };
  return table[category] ?? '0';
}

function vilageRows(baseDate: string, baseTime: string, nx: number, ny: number): Row[] {
  const rows: Row[] = [];
  const lastDate = addDays(baseDate, 3);
  let date = baseDate;
  let hour = Number(baseTime.slice(0, 2)) + 1;
  for (;;) {
    if (hour === 24) {
      date = addDays(date, 1);
      hour = 0;
    }
    if (date > lastDate) break;
    const day = Number(date) - Number(baseDate) > 0 ? 1 : 0;
    const fcstTime = `${String(hour).padStart(2, '0')}00`;
    const categories = [...VILAGE_CATEGORIES, ...(hour === 6 ? ['TMN'] : []), ...(hour === 15 ? ['TMX'] : [])];
    for (const category of categories) rows.push({ baseDate, baseTime, category, fcstDate: date, fcstTime, fcstValue: value(category, hour, day), nx, ny });
    hour++;
  }
  return rows;
}

function ultraRows(baseDate: string, baseTime: string, nx: number, ny: number): Row[] {
  const start = Number(baseTime.slice(0, 2)) + 1;
  const categories = ['LGT', 'PTY', 'RN1', 'REH', 'SKY', 'T1H', 'UUU', 'VEC', 'VVV', 'WSD'];
  return categories.flatMap((category) =>
    Array.from({ length: 6 }, (_, i) => {
      const hour = (start + i) % 24;
      const fcstDate = start + i >= 24 ? addDays(baseDate, 1) : baseDate;
      return { baseDate, baseTime, category, fcstDate, fcstTime: `${String(hour).padStart(2, '0')}00`, fcstValue: category === 'RN1' ? '강수없음' : value(category === 'T1H' ? 'TMP' : category, hour, 0), nx, ny };
    }),
  );
}

function ncstRows(baseDate: string, baseTime: string, nx: number, ny: number): Row[] {
  const observed: Record<string, string> = { PTY: '0', REH: '62', RN1: '0', T1H: '9.4', UUU: '1.1', VEC: '285', VVV: '-0.6', WSD: '1.3' };
  return Object.entries(observed).map(([category, obsrValue]) => ({ baseDate, baseTime, category, nx, ny, obsrValue }));
}

function page(req: FakeRequest, rows: Row[]): FakeReply {
  const pageNo = Number(req.query.get('pageNo') ?? 1);
  const numOfRows = Number(req.query.get('numOfRows') ?? 10);
  const item = rows.slice((pageNo - 1) * numOfRows, pageNo * numOfRows);
  if (item.length === 0) return dataGoKr(req.query, { resultCode: '03', resultMsg: 'NO_DATA' });
  return dataGoKr(req.query, { resultCode: '00', resultMsg: 'NORMAL_SERVICE' }, { dataType: 'JSON', items: { item }, pageNo, numOfRows, totalCount: rows.length });
}

/** Handle one KMA request. */
export function kma(req: FakeRequest): FakeReply {
  const operation = operationOf(req, KMA_BASE);
  if (!operation) return plain('Not Found', 404);
  const keyError = checkServiceKey(req);
  if (keyError) return keyError;
  if (req.mode === 'no-data') return dataGoKr(req.query, { resultCode: '03', resultMsg: 'NO_DATA' });
  // KMA keeps one day: an older (or unreadable) base_date answers code 10 with this message, HTTP 200.
  if (req.mode === 'too-old') return dataGoKr(req.query, { resultCode: '10', resultMsg: '최근 1일 간의 자료만 제공합니다.' });
  if (operation === 'getFcstVersion') {
    const ftype = req.query.get('ftype');
    const basedatetime = req.query.get('basedatetime');
    if (!ftype || !basedatetime) return dataGoKr(req.query, { resultCode: '11', resultMsg: 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR' });
    return page(req, [{ filetype: ftype, version: basedatetime }]);
  }
  const [baseDate, baseTime, nx, ny] = ['base_date', 'base_time', 'nx', 'ny'].map((name) => req.query.get(name) ?? '');
  if (!baseDate || !baseTime || !nx || !ny) return dataGoKr(req.query, { resultCode: '11', resultMsg: 'NO_MANDATORY_REQUEST_PARAMETERS_ERROR' });
  if (!/^\d{8}$/.test(baseDate) || !/^\d{4}$/.test(baseTime)) return dataGoKr(req.query, { resultCode: '10', resultMsg: 'INVALID_REQUEST_PARAMETER_ERROR' });
  const cell = [Number(nx), Number(ny)] as const;
  if (operation === 'getVilageFcst') {
    if (!VILAGE_TIMES.includes(baseTime)) return dataGoKr(req.query, { resultCode: '10', resultMsg: 'INVALID_REQUEST_PARAMETER_ERROR' });
    return page(req, vilageRows(baseDate, baseTime, ...cell));
  }
  if (operation === 'getUltraSrtFcst') return page(req, ultraRows(baseDate, baseTime, ...cell));
  if (operation === 'getUltraSrtNcst') return page(req, ncstRows(baseDate, baseTime, ...cell));
  return dataGoKr(req.query, { resultCode: '12', resultMsg: 'NO_OPENAPI_SERVICE_ERROR' });
}
