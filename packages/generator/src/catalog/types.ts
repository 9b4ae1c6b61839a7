/**
 * Types of the public-data catalog document (spec section 2.5): the document, its
 * service entries, their simple endpoint and their operations.
 */

/** Whether an entry can be called now or still waits for the provider key. */
export type ServiceStatus = 'active' | 'pending_key';

/** Name of a provider key scheme. */
export type AuthScheme = 'ServiceKey' | 'OC key' | 'crtfc_key' | 'plain key';

/** The catalog document, served as `/agencatalog/catalog.json`. */
export interface Catalog {
  /** Document version; 2 for this format. */
  version: number;
  /** Date of the last edit, YYYY-MM-DD. */
  updated: string;
  /** Where and how agents call the proxy. */
  proxy: CatalogProxy;
  /** The entries, in display order. */
  services: CatalogService[];
}

/** Path of the proxy call and the header that carries the agent token. */
export interface CatalogProxy {
  call: string;
  auth: string;
}

/** One public-data API entry. */
export interface CatalogService {
  /** Kebab-case identifier, also the `service` of a proxy call. */
  slug: string;
  name: string;
  /** The public body that supplies the data. */
  provider: string;
  description: string;
  /** The keyless endpoint on this service, or `null` when the entry has none. */
  simple_api: SimpleApi | null;
  what_agent_gets: AgentGets[];
  use_cases: string[];
  apis: Operation[];
  auth: AuthScheme;
  free: boolean;
  rate_limit: RateLimit;
  /** Source credit line to show with the data. */
  attribution: string;
  status: ServiceStatus;
  /** Date the entry was last checked, YYYY-MM-DD. */
  checked_date: string;
  /** Site-relative in `catalog.yaml`; absolute once loaded. */
  detail_url: string;
}

/** A keyless endpoint on this service. */
export interface SimpleApi {
  label: string;
  method: 'GET';
  /** Site-relative path with an example query. */
  url: string;
  no_key: true;
  note: string;
}

/** One thing an agent gets from an entry and what it is good for. */
export interface AgentGets {
  data: string;
  use: string;
}

/** One callable operation of an entry. */
export interface Operation {
  /** Public operation id, e.g. `getVilageFcst`; the upstream client maps it to the real path. */
  id: string;
  name: string;
  note: string;
  params: OperationParam[];
  returns: string[];
  rate_limit: OperationRateLimit;
}

/** One parameter of an operation. */
export interface OperationParam {
  name: string;
  required: boolean;
  example: string;
  desc?: string;
}

/** Daily limit of an entry. */
export interface RateLimit {
  per_day: number;
  note: string;
}

/** Daily limit of an operation. */
export interface OperationRateLimit {
  per_day: number;
  note?: string;
}
