import './usageDetails.css';
import { day } from '../lib/format';
import { integer } from '../lib/quantity';

/** An ISO 8601 date-time as the service sends a quota period's ends (`2026-12-01T00:00:00Z`). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** "requests_used" -> "Requests used". */
function humanize(key: string): string {
  const s = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function show(v: unknown): string {
  if (v === null || v === undefined || v === '') return '–';
  if (typeof v === 'number') return integer(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (Array.isArray(v)) return v.map(show).join(', ');
  // A period's start or end reads as a local date ("Dec 1, 2026"), never as the raw ISO time.
  if (typeof v === 'string' && ISO_DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)))
    return day(Date.parse(v));
  return String(v);
}

/**
 * The usage record of GET /usage as a definition list. The spec does not show its fields, so every field the
 * service sent is listed with a readable name; nested objects become groups.
 */
export function UsageDetails({ usage }: { usage: Record<string, unknown> }) {
  const entries = Object.entries(usage);
  if (entries.length === 0) return <p className="muted">The service sent no usage details.</p>;
  return (
    <dl className="usage-details">
      {entries.map(([k, v]) =>
        typeof v === 'object' && v !== null && !Array.isArray(v) ? (
          <div key={k} className="usage-group">
            <dt>{humanize(k)}</dt>
            <dd>
              <UsageDetails usage={v as Record<string, unknown>} />
            </dd>
          </div>
        ) : (
          <div key={k}>
            <dt>{humanize(k)}</dt>
            <dd>{show(v)}</dd>
          </div>
        ),
      )}
    </dl>
  );
}
