/** @module tour: TourAPI 4.0 client. */
export { tourOperations } from './client.ts';
export { readTourList, readTourDetail, type TourList } from './schema.ts';
