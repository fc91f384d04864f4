/** Seeded sampling helpers, so every run samples the same chunks, files and queries. */
import { seededRandom } from '../../src/retrieve/seeded-random.js';

export { seededRandom };

/** A seeded Fisher-Yates shuffle of a copy of `items`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Lower-case letters only, e.g. `qzkfwa`: a word no code base contains and FTS keeps whole. */
export function randomWord(random: () => number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(97 + Math.floor(random() * 26));
  return s;
}
