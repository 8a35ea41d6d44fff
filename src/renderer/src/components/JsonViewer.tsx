import { useState } from 'react';
import type { JsonPath } from '../../../shared/callWatch';
import './jsonViewer.css';

/**
 * Values the buyer can pick (to watch them): every scalar becomes a button (Enter or Space picks it, like a click)
 * that hands its path from the root and its value to `onPick`; `isPicked` marks the ones already chosen.
 */
export interface JsonPicking {
  onPick: (path: JsonPath, value: unknown) => void;
  isPicked?: (path: JsonPath) => boolean;
  /** What a pick does, for the button's accessible name: "Watch" gives "Watch data.status". */
  verb: string;
}

/** A path as the pick buttons name it: `data.items[0].title`. */
function pathName(path: JsonPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Items of one array or object drawn before a "show more" button, so a huge answer stays responsive. */
const PAGE = 100;

function summary(value: object): string {
  if (Array.isArray(value)) return `[${value.length} ${value.length === 1 ? 'item' : 'items'}]`;
  const n = Object.keys(value).length;
  return `{${n} ${n === 1 ? 'key' : 'keys'}}`;
}

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span className="json-null">{String(value)}</span>;
}

function Node({
  name,
  value,
  depth,
  openDepth,
  path,
  picking,
}: {
  name: string | null;
  value: unknown;
  depth: number;
  openDepth: number;
  path: JsonPath;
  picking?: JsonPicking;
}) {
  const isTree = typeof value === 'object' && value !== null;
  const [open, setOpen] = useState(depth < openDepth);
  const [shown, setShown] = useState(PAGE);
  const label = name === null ? null : <span className="json-key">{name}:</span>;
  if (!isTree) {
    if (picking && path.length > 0) {
      const picked = picking.isPicked?.(path) ?? false;
      return (
        <li className="json-leaf">
          <button
            type="button"
            className={`json-pick${picked ? ' picked' : ''}`}
            aria-pressed={picked}
            aria-label={`${picking.verb} ${pathName(path)}: ${JSON.stringify(value) ?? String(value)}`}
            onClick={() => picking.onPick(path, value)}
          >
            {label} <Scalar value={value} />
          </button>
        </li>
      );
    }
    return (
      <li className="json-leaf">
        {label} <Scalar value={value} />
      </li>
    );
  }
  const entries: [string, string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), i, v])
    : Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, k, v]);
  return (
    <li>
      <button
        type="button"
        className="json-toggle"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        disabled={entries.length === 0}
      >
        <span className="json-caret" aria-hidden="true">
          {entries.length === 0 ? ' ' : open ? '▾' : '▸'}
        </span>
        {label} <span className="json-summary">{summary(value)}</span>
      </button>
      {open && entries.length > 0 && (
        <ul className="json-children">
          {entries.slice(0, shown).map(([k, step, v]) => (
            <Node
              key={k}
              name={k}
              value={v}
              depth={depth + 1}
              openDepth={openDepth}
              path={[...path, step]}
              picking={picking}
            />
          ))}
          {entries.length > shown && (
            <li>
              <button type="button" className="link-button" onClick={() => setShown(shown + PAGE)}>
                Show {Math.min(PAGE, entries.length - shown)} more of {entries.length - shown}
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

/**
 * A JSON value as a collapsible tree (objects and arrays open to `openDepth` levels) with a button that copies
 * the value as pretty-printed JSON. `label` names the region for screen readers. With `picking`, every scalar is a
 * button that picks it (mouse or keyboard).
 */
export function JsonViewer({
  value,
  label,
  openDepth = 2,
  picking,
}: {
  value: unknown;
  label: string;
  openDepth?: number;
  picking?: JsonPicking;
}) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  // Collapse/expand all remounts the tree with another opening depth.
  const [depth, setDepth] = useState({ n: openDepth, gen: 0 });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(value, null, 2));
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section className="json-viewer" aria-label={label}>
      <div className="json-tools">
        <button type="button" onClick={() => void copy()}>
          Copy JSON
        </button>
        <button type="button" onClick={() => setDepth({ n: 64, gen: depth.gen + 1 })}>
          Expand all
        </button>
        <button type="button" onClick={() => setDepth({ n: 1, gen: depth.gen + 1 })}>
          Collapse
        </button>
        <span className="muted small" role="status">
          {copied === 'done'
            ? 'Copied to the clipboard.'
            : copied === 'failed'
              ? 'Copying is blocked here; select the text instead.'
              : ''}
        </span>
      </div>
      <ul className="json-tree" key={depth.gen}>
        <Node name={null} value={value} depth={0} openDepth={depth.n} path={[]} picking={picking} />
      </ul>
    </section>
  );
}
