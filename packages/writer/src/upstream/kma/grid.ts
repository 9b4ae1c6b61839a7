/**
 * KMA's forecast grid: Lambert conformal conic projection with 5 km cells
 * (RE 6371.00877 km, standard parallels 30° and 60°, origin 126°E 38°N at cell 43,136).
 */

const RE = 6371.00877;
const GRID = 5.0;
const SLAT1 = 30.0;
const SLAT2 = 60.0;
const OLON = 126.0;
const OLAT = 38.0;
const XO = 43;
const YO = 136;
const DEG = Math.PI / 180;

const re = RE / GRID;
const s1 = SLAT1 * DEG;
const s2 = SLAT2 * DEG;
const sn = Math.log(Math.cos(s1) / Math.cos(s2)) / Math.log(Math.tan(Math.PI / 4 + s2 / 2) / Math.tan(Math.PI / 4 + s1 / 2));
const sf = (Math.tan(Math.PI / 4 + s1 / 2) ** sn * Math.cos(s1)) / sn;
const ro = (re * sf) / Math.tan(Math.PI / 4 + (OLAT * DEG) / 2) ** sn;

/** A forecast grid cell. */
export interface GridPoint {
  nx: number;
  ny: number;
}

/**
 * Grid cell of a latitude and longitude.
 *
 * @example toGrid(37.5665, 126.978) // { nx: 60, ny: 127 }
 */
export function toGrid(lat: number, lon: number): GridPoint {
  const ra = (re * sf) / Math.tan(Math.PI / 4 + (lat * DEG) / 2) ** sn;
  let theta = lon * DEG - OLON * DEG;
  if (theta > Math.PI) theta -= 2 * Math.PI;
  if (theta < -Math.PI) theta += 2 * Math.PI;
  theta *= sn;
  return { nx: Math.floor(ra * Math.sin(theta) + XO + 0.5), ny: Math.floor(ro - ra * Math.cos(theta) + YO + 0.5) };
}

/**
 * Latitude and longitude of a grid cell's centre.
 *
 * @example fromGrid(60, 127) // { lat: 37.5799…, lon: 126.9894… }
 */
export function fromGrid(nx: number, ny: number): { lat: number; lon: number } {
  const xn = nx - XO;
  const yn = ro - ny + YO;
  let ra = Math.sqrt(xn * xn + yn * yn);
  if (sn < 0) ra = -ra;
  const alat = 2 * Math.atan(((re * sf) / ra) ** (1 / sn)) - Math.PI / 2;
  let theta: number;
  if (Math.abs(xn) <= 0) theta = 0;
  else if (Math.abs(yn) <= 0) theta = (Math.PI / 2) * Math.sign(xn);
  else theta = Math.atan2(xn, yn);
  return { lat: alat / DEG, lon: (theta / sn + OLON * DEG) / DEG };
}
