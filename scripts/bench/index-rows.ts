/** Table rows shared by bench-index and bench: build cost against the embedder's own throughput. */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { CodeIndex } from '../../src/index.js';
import { chunksPerSecond, type EmbedThroughput } from './embed-throughput.js';
import type { BuildResult } from './index-phases.js';
import { processPeakRssBytes } from './measure.js';
import { fmtBytes, fmtMs, fmtPct, type Row } from './report-table.js';

/** Embedder alone vs bare onnxruntime. */
export function embedRows(alone: EmbedThroughput): Row[] {
  const rate = chunksPerSecond(alone.chunks, alone.embedMs);
  const bare = alone.bareMs === null ? null : chunksPerSecond(alone.chunks, alone.bareMs);
  return [
    ['embedder alone', `${rate.toFixed(1)} chunks/s`, `embedder.embed on ${alone.chunks} of the index's chunk texts, ${alone.tokens} tokens`],
    ['bare onnxruntime', bare === null ? 'n/a' : `${bare.toFixed(1)} chunks/s`, bare === null ? '' : `InferenceSession.run on the same token ids; embedder/bare ${(rate / bare).toFixed(3)}`],
  ];
}

/**
 * Build time, throughput, overhead against the embedder alone (wall and CPU), RSS and disk use.
 * Overhead = 1 - build chunks/s / embedder chunks/s; negative means the build outran the sample, i.e. noise.
 */
export function buildRows(index: CodeIndex, build: BuildResult, alone: EmbedThroughput): Row[] {
  const { chunks, embedded } = build.report;
  const buildRate = chunksPerSecond(chunks, build.buildMs);
  const aloneRate = chunksPerSecond(alone.chunks, alone.embedMs);
  // CPU per embedded text: the build's work per text against the embedder's, robust to other processes' load.
  const cpuOverhead = 1 - alone.embedCpuMs / alone.chunks / (build.buildCpuMs / Math.max(1, embedded));
  const wal = statSync(path.join(index.indexDir, 'catalog.sqlite-wal'), { throwIfNoEntry: false })?.size ?? 0;
  return [
    ['model load', fmtMs(build.modelLoadMs), index.config.model.id],
    ['first file searchable by words', build.firstWordsMs === null ? 'n/a' : `${(build.firstWordsMs / 1000).toFixed(2)} s`, 'from the start of the build: the first commit of chunks'],
    ['all files searchable by words', build.allWordsMs === null ? 'n/a' : `${(build.allWordsMs / 1000).toFixed(2)} s`, 'every file chunked and committed; vectors follow'],
    ['full build', `${(build.buildMs / 1000).toFixed(2)} s`, `${embedded} embedded, ${build.report.reused} reused, ${build.report.skipped.length} skipped; CPU ${(build.buildCpuMs / 1000).toFixed(1)} s`],
    ['build throughput', `${buildRate.toFixed(1)} chunks/s`, `${chunksPerSecond(embedded, build.buildMs).toFixed(1)} embedded texts/s`],
    ...embedRows(alone),
    ['indexing overhead (wall)', fmtPct(1 - buildRate / aloneRate), '1 - build chunks/s / embedder chunks/s'],
    ['indexing overhead (CPU)', fmtPct(cpuOverhead), '1 - embedder CPU/text / build CPU/embedded text'],
    ['peak RSS (build)', fmtBytes(build.peakRssBytes), `sampled every 25 ms; process lifetime peak ${fmtBytes(processPeakRssBytes())}`],
    ['bytes on disk', fmtBytes(build.bytesOnDisk), `${(build.bytesOnDisk / Math.max(1, chunks)).toFixed(0)} bytes/chunk (catalog + WAL + HNSW; WAL now ${fmtBytes(wal)})`],
  ];
}
