/**
 * src/core/api: the only code in Lotwatch that talks to the Vehicle Auction Data Service
 * (docs/architecture.md "The parts").
 */
export { createApiClient } from './client';
export type {
  ApiClient,
  ApiClientOptions,
  CallOptions,
  History,
  LocationPage,
  ObjectData,
  PageOptions,
  ShippingList,
  VehicleDetail,
  VehiclePage,
  Warned,
} from './client';
export * from './errors';
export type { RequestRecord, RetryOptions } from './transport';
export { parseQuotaHeaders, parseRetryAfter, RateLimiter } from './quota';
export {
  normalizeVehicle,
  parseHistory,
  parseLocations,
  parseShipping,
  parseVehicleDetail,
  parseVehicleList,
  WireSchemas,
  type HistoryPage,
  type Page,
  type Parsed,
} from './parse';
export {
  ENUMS,
  MAX_PER_PAGE,
  checkLotPageUrl,
  checkVin,
  vinCheckDigitOk,
  type HistoryParams,
  type LocationParams,
  type SearchParams,
} from './validate';
export { VIDEO_ENDPOINTS, hostUrlOf, type JsonValue, type VideoEndpoint } from './video';
