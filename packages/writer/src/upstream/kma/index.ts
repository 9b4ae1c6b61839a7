/** @module kma: KMA short-term forecast client, grid conversion and forecast schedule. */
export { kmaOperations, fetchVilageItems, fetchKmaPage, KMA_PATHS } from './client.ts';
export { toGrid, fromGrid, type GridPoint } from './grid.ts';
export { latestVilageBase, VILAGE_ISSUE_HOURS, type ForecastBase } from './base-time.ts';
export { toWeather, HOURLY_ELEMENTS, type WeatherHour, type WeatherDay } from './weather.ts';
