/** The public repositories issue 14 allows for training data, and the dev sets' repositories that are never used. */

/** Training repositories (GitHub owner/name). */
export const TRAINING_REPOSITORIES: readonly string[] = [
  'ramda/ramda', 'lodash/lodash', 'ReactiveX/rxjs', 'moment/luxon', 'gcanti/fp-ts', 'Effect-TS/effect', 'colinhacks/zod',
  'immerjs/immer', 'sindresorhus/type-fest', 'supermacro/neverthrow', 'sodiray/radash', 'josdejong/mathjs', 'd3/d3-array',
  'lit/lit', 'preactjs/preact', 'axios/axios', 'sindresorhus/ky', 'vitejs/vite', 'vitest-dev/vitest', 'nestjs/nest',
  'typeorm/typeorm', 'trpc/trpc', 'TanStack/query', 'honojs/hono', 'vuejs/core', 'sveltejs/svelte', 'puppeteer/puppeteer',
  'prettier/prettier', 'mermaid-js/mermaid',
];

/** The dev sets' repositories: they stay a check and must never become training data. */
export const DEV_REPOSITORIES: ReadonlySet<string> = new Set(['toss/es-toolkit', 'vueuse/vueuse', 'microsoft/playwright']);

/**
 * Why a mirror could not be brought (what the fetch tool answered when the data was last built); used only to
 * explain a missing mirror in the manifest.
 */
export const FETCH_NOTES: Readonly<Record<string, string>> = {
  'nestjs/nest': 'fetch refused: snapshot is 578,580,480 bytes, over the 524,288,000-byte limit',
  'puppeteer/puppeteer': 'fetch refused: snapshot is 1,685,555,200 bytes, over the 524,288,000-byte limit',
};
