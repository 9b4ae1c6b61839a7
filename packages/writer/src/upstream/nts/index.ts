/** @module nts: NTS business-registration client. */
export { fetchBizStatus, fetchBizValidation, splitBusinessNumbers, ntsOperations } from './client.ts';
export { readBizStatus, readBizValidation, type BizStatus, type BizValidation } from './schema.ts';
