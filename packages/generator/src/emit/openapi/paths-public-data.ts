/**
 * The six simple public-data endpoints (spec 4.3): GET, no key from the caller (the
 * server attaches the provider key), one envelope for every answer. One table row
 * per endpoint.
 */
import { allRateLimited, errorResponse, jsonResponse, PUBLIC, ref, upstreamErrors, writerServers, type OpenApiContext } from './builders.ts';
import { envelopeExample } from './examples.ts';
import { APT_PARAMS, BIZINFO_PARAMS, BIZNOTICE_PARAMS, CORP_PARAMS, TOUR_PARAMS, WEATHER_PARAMS } from './public-data-params.ts';
import type { Operation, Parameter, Paths } from './types.ts';

interface SimpleEndpoint {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Catalog entry behind the endpoint. */
  service: string;
  params: Parameter[];
  /** Example of `source` and `data` of a success. */
  example: { provider: string; operation: string; attribution: string; data: unknown };
  /** Example of a 400. */
  invalid: { field: string; message: string };
}

const ENDPOINTS: SimpleEndpoint[] = [
  {
    path: '/api/weather',
    operationId: 'getWeather',
    summary: 'Short-term weather forecast for a grid cell',
    description: 'The latest published short-term forecast (getVilageFcst, issued at 02, 05, …, 23 Korea time) for one 5 km by 5 km cell, as hourly rows of TMP, SKY, PTY, POP, PCP, REH, WSD, TMX and TMN (the day\'s extremes in the hour KMA issues them, 1500 and 0600, else null), plus each day\'s TMX and TMN in `days`. Cached until the next issue.',
    service: 'weather-forecast',
    params: WEATHER_PARAMS,
    example: {
      provider: 'Korea Meteorological Administration (KMA)',
      operation: 'getVilageFcst',
      attribution: 'Source: Korea Meteorological Administration, village forecast service (data.go.kr)',
      data: {
        hours: [{ date: '20250112', time: '0600', TMP: -3, SKY: 1, PTY: 0, POP: 0, PCP: '강수없음', REH: 60, WSD: 1.8, TMX: null, TMN: -5 }],
        days: [{ date: '20250112', TMX: 4, TMN: -6 }],
      },
    },
    invalid: { field: 'nx', message: 'query/nx must be a positive integer' },
  },
  {
    path: '/api/apt',
    operationId: 'getApartmentComplex',
    summary: 'Apartment-complex information',
    description: 'Basic (31 items) or detail (36 items) information of one apartment complex. `data` is `{found: true, kaptCode, item}`; a nonexistent code is not an error: `data` is `{found: false, kaptCode: null, requested, message: "no such complex"}` (spec 7: a null kaptCode means no data).',
    service: 'apartment-complex',
    params: APT_PARAMS,
    example: {
      provider: 'Ministry of Land, Infrastructure and Transport (K-apt)',
      operation: 'getAphusBassInfoV5',
      attribution: 'Source: Ministry of Land, Infrastructure and Transport, apartment management information system K-apt (data.go.kr)',
      data: { found: true, kaptCode: 'A10027875', item: { kaptCode: 'A10027875', kaptName: '…', kaptAddr: '…', kaptDongCnt: 12, hoCnt: 1200 } },
    },
    invalid: { field: 'kaptCode', message: 'query/kaptCode must be the letter A followed by 1 to 12 digits, e.g. A10027875, got "B1"' },
  },
  {
    path: '/api/tour',
    operationId: 'getTourism',
    summary: 'Tourism content',
    description: 'Tourism content by keyword, area, location or content id: `action` picks the operation (searchKeyword2, areaBasedList2, locationBasedList2, detailCommon2) and its required parameter. Lists answer `totalCount` and items; `location` items carry `dist` in meters.',
    service: 'tourism-content',
    params: TOUR_PARAMS,
    example: {
      provider: 'Korea Tourism Organization (TourAPI 4.0)',
      operation: 'searchKeyword2',
      attribution: 'Source: Korea Tourism Organization, TourAPI 4.0 (data.go.kr)',
      data: { totalCount: 1, items: [{ title: '경복궁', addr1: '서울특별시 종로구 사직로 161', mapx: '126.9769930325', mapy: '37.5788222356', contentid: '126508', contenttypeid: '12' }] },
    },
    invalid: { field: 'keyword', message: 'query/keyword must be 1 to 50 characters' },
  },
  {
    path: '/api/bizinfo',
    operationId: 'getBusinessRegistration',
    summary: 'Business registration status or authenticity',
    description: '`status`: registration status of up to 10 numbers (an unregistered number comes back as an item whose `tax_type` says so). `validate`: checks one registration against its opening date and representative name; `valid` is `01` on a match and `02` on a mismatch (a result, not an error).',
    service: 'business-registration',
    params: BIZINFO_PARAMS,
    example: {
      provider: 'National Tax Service',
      operation: 'status',
      attribution: 'Source: National Tax Service, business registration status service (odcloud, data.go.kr)',
      data: { match_cnt: 1, items: [{ b_no: '1234567891', b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '' }] },
    },
    invalid: { field: 'b_no', message: 'query/b_no must be a 10-digit business number, got "12345"' },
  },
  {
    path: '/api/corp',
    operationId: 'getCorporation',
    summary: 'Corporate overview',
    description: 'Corporate basic information (getCorpOutline_V2) by exactly one of name, corporate registration number or business registration number. No match answers `totalCount` 0.',
    service: 'corporate-info',
    params: CORP_PARAMS,
    example: {
      provider: 'Financial Services Commission',
      operation: 'getCorpOutline_V2',
      attribution: 'Source: Financial Services Commission, corporate basic information service (data.go.kr)',
      data: { totalCount: 1, items: [{ crno: '1301110006246', corpNm: '삼성전자(주)', bzno: '1248100998' }] },
    },
    invalid: { field: 'crno', message: 'query needs exactly one of corpNm, crno, bzno' },
  },
  {
    path: '/api/biznotice',
    operationId: 'getSupportNotices',
    summary: 'Small-business support notices',
    description: 'Support-programme notices (getbizList_v2), converted from XML to JSON: `totalCount` and items with itemId, title, excerpt (up to 2000 characters), application dates, writer, viewUrl and files.',
    service: 'support-notices',
    params: BIZNOTICE_PARAMS,
    example: {
      provider: 'Ministry of SMEs and Startups',
      operation: 'getbizList_v2',
      attribution: 'Source: Ministry of SMEs and Startups, support programme notices (data.go.kr)',
      data: { totalCount: 1, items: [{ itemId: '1001', title: '…', excerpt: '…', applicationStartDate: '2025-01-02', applicationEndDate: '2025-01-31', viewUrl: 'https://www.mss.go.kr/…', files: [] }] },
    },
    invalid: { field: 'startDate', message: 'query/startDate must be a date YYYY-MM-DD' },
  },
];

function simpleOperation(ctx: OpenApiContext, row: SimpleEndpoint): Operation {
  const { provider, operation, attribution, data } = row.example;
  return {
    operationId: row.operationId,
    summary: row.summary,
    description: `${row.description}\n\nNo key from the caller: the server holds the provider key. Catalog entry: \`${row.service}\` (\`/agencatalog/${row.service}/\`).`,
    tags: ['public-data'],
    parameters: row.params,
    security: PUBLIC,
    ...writerServers(ctx),
    responses: allRateLimited({
      '200': jsonResponse('The provider data in the envelope.', ref('Envelope'), envelopeExample(provider, operation, attribution, data)),
      '400': errorResponse('A query parameter breaks its rule; `error.field` names it.', 'validation', row.invalid.message, row.invalid.field),
      ...upstreamErrors(),
    }),
  };
}

/** Paths of the six simple endpoints. */
export function publicDataPaths(ctx: OpenApiContext): Paths {
  return Object.fromEntries(ENDPOINTS.map((row) => [row.path, { get: simpleOperation(ctx, row) }]));
}
