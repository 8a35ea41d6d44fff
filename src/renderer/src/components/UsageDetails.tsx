import './usageDetails.css';
import { integer } from '../lib/quantity';

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
