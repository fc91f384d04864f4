import { SMALL_REPO } from '../../../helpers/fixture-tree.js';

/** Edits of the SMALL_REPO fixture that the layered-store tests make: a changed file and an added one. */
export const THROTTLE = 'src/net/throttle.ts';
/** throttle.ts with a new function appended. */
export const EDITED_THROTTLE = `${SMALL_REPO[THROTTLE]}
/** Drains a leaky bucket of queued requests at a fixed rate, oldest first. */
export function drainLeakyBucket(queue: string[], perTick: number): string[] {
  return queue.splice(0, perTick);
}
`;
export const COMPASS_PATH = 'src/geo/compass.ts';
export const COMPASS = 'export function compassHeading(degrees: number): string {\n  return ["north", "east", "south", "west"][Math.round(degrees / 90) % 4]!;\n}\n';
