/** A two-column results table (embedded store | PostgreSQL store), with the command and the machine's load. */
import { machineLine } from './report-table.js';

/** One row: what was measured, its value on each store, and an optional note. */
export type PairRow = readonly [label: string, embedded: string, postgres: string, note?: string];

/** Formats the table as text lines (printed to stdout and kept for the results file). */
export function formatSideBySide(o: { title: string; command: string; startedLoad: string; rows: readonly PairRow[] }): string {
  const rows: readonly PairRow[] = [['', 'embedded', 'PostgreSQL', ''], ...o.rows];
  const w = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: PairRow): string => `${r[0].padEnd(w[0]!)}  ${r[1].padStart(w[1]!)}  ${r[2].padStart(w[2]!)}${r[3] ? `  ${r[3]}` : ''}`;
  return [
    o.title,
    `command: ${o.command}`,
    `before: ${o.startedLoad}`,
    `after:  ${machineLine()}`,
    '-'.repeat(Math.min(110, w[0]! + w[1]! + w[2]! + 6)),
    ...rows.map(line),
  ].join('\n');
}
