import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The renderer is read as a graph of its own files: a view that imports the frame which imports the view back
// loads in an order nobody chose, and breaks code-splitting. This walker resolves every relative import
// (static, `export … from`, and `import()`) of the .ts/.tsx files and reports any circle it finds.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/renderer/src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The relative module specifiers a file imports, in any form (type-only imports included: they are edges too). */
export function importSpecifiers(text: string): string[] {
  const found: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const m of text.matchAll(re)) if (m[1]) found.push(m[1]);
  return found;
}

/** The file a relative specifier names, or null for a non-code asset (CSS) or a file outside the renderer. */
function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) {
      return candidate.startsWith(ROOT) ? candidate : null;
    }
  }
  return null;
}

/** Every circle of the graph, each as the list of files around it (depth-first search, one report per circle). */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

function rendererGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ROOT)) {
    const deps = importSpecifiers(readFileSync(file, 'utf8'))
      .map((s) => resolveImport(file, s))
      .filter((d): d is string => d !== null);
    graph.set(file, deps);
  }
  return graph;
}

describe('renderer import graph', () => {
  it('reads every kind of relative import', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "import './styles.css';",
      "const V = lazy(() => import('./features/v/V'));",
      "import { useState } from 'react';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a', '../b', './c', './styles.css', './features/v/V']);
  });

  it('finds a circle when there is one', () => {
    const g = new Map([
      ['app', ['view', 'nav']],
      ['view', ['app']],
      ['nav', []],
    ]);
    expect(findCycles(g)).toEqual([['app', 'view', 'app']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no import circle in src/renderer', () => {
    const graph = rendererGraph();
    // The walker saw the renderer: the frame and its views are in the graph.
    expect(graph.size).toBeGreaterThan(30);
    const cycles = findCycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' → '));
    expect(cycles).toEqual([]);
  });
});
