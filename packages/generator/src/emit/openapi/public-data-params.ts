/**
 * Query parameters of the six simple endpoints (spec 4.3, 4.5, 8). The writer checks
 * every rule here before any provider call and answers 400 naming the parameter.
 */
import { dateString, digits, queryParam } from './builders.ts';
import type { Parameter } from './types.ts';

const CONTENT_TYPES = [12, 14, 15, 25, 28, 32, 38, 39] as const;
const AREA_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 31, 32, 33, 34, 35, 36, 37, 38, 39] as const;

const numOfRows = queryParam('numOfRows', 'Items per page, at most 100.', { type: 'integer', minimum: 1, maximum: 100 });
const pageNo = queryParam('pageNo', 'Page number, from 1 to 10,000.', { type: 'integer', minimum: 1, maximum: 10000 });

export const WEATHER_PARAMS: Parameter[] = [
  queryParam('nx', 'Forecast grid column (5 km cells), 1 to 149; 60 when left out (`ny` has its own default); never with `lat`/`lon`.', { type: 'integer', minimum: 1, maximum: 149, default: 60 }),
  queryParam('ny', 'Forecast grid row (5 km cells), 1 to 253; 127 when left out (`nx` has its own default).', { type: 'integer', minimum: 1, maximum: 253, default: 127 }),
  queryParam('lat', 'Latitude in degrees (32 to 44: the KMA grid covers Korea); with `lon`, used instead of `nx` and `ny` (never together with them) and converted to the grid with KMA\'s Lambert conformal conic formula.', { type: 'number', minimum: 32, maximum: 44 }),
  queryParam('lon', 'Longitude in degrees (123 to 133); given together with `lat`.', { type: 'number', minimum: 123, maximum: 133 }),
];

export const APT_PARAMS: Parameter[] = [
  queryParam('kaptCode', 'Apartment-complex code: the letter A followed by 1 to 12 digits.', { type: 'string', pattern: '^A[0-9]{1,12}$', examples: ['A10027875'] }, true),
  queryParam('detail', '`0` for the 31 basic items (getAphusBassInfoV5), `1` for the 36 detail items (getAphusDtlInfoV5).', { type: 'integer', enum: [0, 1], default: 0 }),
];

export const TOUR_PARAMS: Parameter[] = [
  queryParam(
    'action',
    'Which operation: `search` (searchKeyword2; needs `keyword`), `area` (areaBasedList2; needs `areaCode`), `location` (locationBasedList2; needs `mapX` and `mapY`) or `detail` (detailCommon2; needs `contentId`).',
    { type: 'string', enum: ['search', 'area', 'location', 'detail'] },
    true,
  ),
  queryParam('keyword', 'Search keyword (action `search`).', { type: 'string', minLength: 1, pattern: '\\S', maxLength: 50 }),
  queryParam('areaCode', 'Area (action `area`): 1 Seoul, 2 Incheon, 3 Daejeon, 4 Daegu, 5 Gwangju, 6 Busan, 7 Ulsan, 8 Sejong, 31 Gyeonggi, 32 Gangwon, 33 North Chungcheong, 34 South Chungcheong, 35 North Gyeongsang, 36 South Gyeongsang, 37 North Jeolla, 38 South Jeolla, 39 Jeju.', { type: 'integer', enum: [...AREA_CODES] }),
  queryParam('contentTypeId', 'Content type: 12 sights, 14 cultural facilities, 15 festivals and events, 25 travel courses, 28 leisure sports, 32 lodging, 38 shopping, 39 restaurants.', { type: 'integer', enum: [...CONTENT_TYPES] }),
  queryParam('mapX', 'Longitude (action `location`).', { type: 'number', minimum: 124, maximum: 132 }),
  queryParam('mapY', 'Latitude (action `location`).', { type: 'number', minimum: 33, maximum: 43 }),
  queryParam('radius', 'Search radius in meters (action `location`).', { type: 'integer', minimum: 1, maximum: 20000 }),
  queryParam('contentId', 'Content id (action `detail`): 1 to 12 digits.', { type: 'string', pattern: '^[0-9]{1,12}$' }),
  numOfRows,
  pageNo,
  queryParam('arrange', 'Ordering: A title, C modified date, D created date; O, Q, R the same with an image only.', { type: 'string', enum: ['A', 'C', 'D', 'O', 'Q', 'R'] }),
];

export const BIZINFO_PARAMS: Parameter[] = [
  queryParam('action', '`status` (registration status of up to 10 numbers) or `validate` (authenticity of one registration).', { type: 'string', enum: ['status', 'validate'] }, true),
  queryParam(
    'b_no',
    'Business registration numbers: 10 digits each, with or without the hyphens of the printed form (124-81-00998), separated by spaces or commas; at most 10 (one with `validate`). A number the tax office does not know is an item saying so (`registered: false`), not an error.',
    { type: 'string', pattern: '^[ ,]*[0-9]{3}-?[0-9]{2}-?[0-9]{5}([ ,]+[0-9]{3}-?[0-9]{2}-?[0-9]{5}){0,9}[ ,]*$', examples: ['1234567891, 2208162517', '124-81-00998'] },
    true,
  ),
  queryParam('start_dt', 'Opening date, YYYYMMDD (required with `validate`).', digits(8, 'YYYYMMDD')),
  queryParam('p_nm', 'Representative name (required with `validate`).', { type: 'string', minLength: 1, pattern: '\\S', maxLength: 30 }),
];

export const CORP_PARAMS: Parameter[] = [
  queryParam('corpNm', 'Corporation name, partial match. Give exactly one of `corpNm`, `crno`, `bzno`.', { type: 'string', minLength: 1, pattern: '\\S', maxLength: 100 }),
  queryParam('crno', 'Corporate registration number, 13 digits. Give exactly one of `corpNm`, `crno`, `bzno`.', digits(13, '13 digits')),
  queryParam('bzno', 'Business registration number, 10 digits. Give exactly one of `corpNm`, `crno`, `bzno`.', digits(10, '10 digits')),
  numOfRows,
  pageNo,
];

export const BIZNOTICE_PARAMS: Parameter[] = [
  pageNo,
  numOfRows,
  queryParam('startDate', 'Earliest registration date, YYYY-MM-DD.', dateString('YYYY-MM-DD')),
  queryParam('endDate', 'Latest registration date, YYYY-MM-DD.', dateString('YYYY-MM-DD')),
  queryParam('q', 'Title substring filter, applied to the returned page only.', { type: 'string', minLength: 1, pattern: '\\S', maxLength: 30 }),
];
