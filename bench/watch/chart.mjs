#!/usr/bin/env node
// The README's chart of the watcher benchmark, drawn from its JSON (bench/results/watch-<workload>.json, written by
// `npm run bench:watch`): recall and the p95 delay of sale results against the daily budget, one line per strategy,
// one column per workload. Vega-Lite compiles the spec, Vega renders it to SVG in Node (no browser, no canvas).
// Usage: node bench/watch/chart.mjs [out.svg]   (default bench/results/watch.svg)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { compile } from 'vega-lite';
import { parse, View } from 'vega';

const WORKLOADS = ['free', 'buyer', 'dealer'];
const out = process.argv[2] ?? 'bench/results/watch.svg';

const rows = [];
for (const id of WORKLOADS) {
  const file = `bench/results/watch-${id}.json`;
  if (!existsSync(file)) continue;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  for (const r of j.results) {
    const sale = r.kinds.sale_result;
    rows.push({
      workload: `${r.workload} (${r.days} d)`,
      order: WORKLOADS.indexOf(id),
      strategy: r.strategy,
      budget: r.budget_per_day,
      recall: Math.round(1000 * r.recall) / 10,
      // A strategy that caught no sale result has no delay to show: the point is left out. Under 36 s shows as 0.01 h.
      sale_p95_h:
        sale.delay_p95_ms === null ? null : Math.max(0.01, Math.round(sale.delay_p95_ms / 36_000) / 100),
    });
  }
}
if (rows.length === 0) {
  console.error('No bench/results/watch-*.json: run `npm run bench:watch` first.');
  process.exit(1);
}

const color = {
  field: 'strategy',
  type: 'nominal',
  title: 'strategy',
  scale: {
    domain: ['lotwatch', 'naive', 'round_robin', 'time_to_sale'],
    range: ['#d62728', '#7f7f7f', '#1f77b4', '#2ca02c'],
  },
};
const x = {
  field: 'budget',
  type: 'quantitative',
  title: 'requests a day',
  scale: { type: 'log', domain: [2, 1500] },
  axis: { values: [3, 10, 30, 100, 300, 1000] },
};
// Lines that coincide stay visible: each strategy has its own dash and point shape too.
const dash = {
  field: 'strategy',
  type: 'nominal',
  title: 'strategy',
  scale: {
    domain: ['lotwatch', 'naive', 'round_robin', 'time_to_sale'],
    range: [
      [1, 0],
      [6, 3],
      [2, 2],
      [8, 2, 2, 2],
    ],
  },
};
const shape = {
  field: 'strategy',
  type: 'nominal',
  title: 'strategy',
  scale: {
    domain: ['lotwatch', 'naive', 'round_robin', 'time_to_sale'],
    range: ['circle', 'square', 'triangle-up', 'diamond'],
  },
};
const panel = (field, title, extra = {}) => ({
  facet: { column: { field: 'workload', type: 'nominal', title: null, sort: { field: 'order' } } },
  spec: {
    width: 220,
    height: 160,
    layer: [
      {
        mark: { type: 'line', strokeWidth: 2 },
        encoding: { x, y: { field, type: 'quantitative', title, ...extra }, color, strokeDash: dash },
      },
      {
        mark: { type: 'point', filled: true, size: 45 },
        encoding: { x, y: { field, type: 'quantitative', title, ...extra }, color, shape },
      },
    ],
  },
});
const spec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: {
    text: 'Watcher benchmark: recall and p95 sale-result delay against the daily budget',
    anchor: 'start',
  },
  data: { values: rows },
  transform: [],
  vconcat: [
    panel('recall', 'recall (%)', { scale: { domain: [0, 100] } }),
    {
      ...panel('sale_p95_h', 'sale result, p95 delay (h, log)', { scale: { type: 'log' } }),
      transform: [{ filter: 'datum.sale_p95_h !== null' }],
    },
  ],
  config: { font: 'Helvetica, Arial, sans-serif', background: 'white' },
};

const view = new View(parse(compile(spec).spec), { renderer: 'none' });
const svg = await view.toSVG();
writeFileSync(out, svg);
console.log(`wrote ${out} (${rows.length} points, ${svg.length} bytes)`);
