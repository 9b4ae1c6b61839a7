/** @module rtms: MOLIT apartment-trade client (XML to JSON). */
export { rtmsOperations } from './client.ts';
export { readTradeList, type TradeList } from './schema.ts';
