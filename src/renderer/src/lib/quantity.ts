const intFmt = new Intl.NumberFormat('en-US');

/** "32,410", or an en dash for unknown. */
export function integer(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : intFmt.format(Math.round(n));
}

/** "1.2 kB", "340 B": a byte count for people. */
export function bytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** "1 request" / "3 requests". */
export function requests(n: number): string {
  return `${integer(n)} ${n === 1 ? 'request' : 'requests'}`;
}
