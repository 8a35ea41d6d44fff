// The zipcodes package ships no types; this declares the part the sandbox uses.
declare module 'zipcodes' {
  export interface ZipInfo {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    state: string;
    country: string;
  }
  export function lookup(zip: string | number): ZipInfo | undefined;
  export function lookupByName(city: string, state: string): ZipInfo[];
  /** Great-circle distance in miles (rounded), or null when a ZIP is unknown. */
  export function distance(zipA: string | number, zipB: string | number): number | null;
  const _default: { lookup: typeof lookup; lookupByName: typeof lookupByName; distance: typeof distance };
  export default _default;
}
