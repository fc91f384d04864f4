import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePositiveInt } from '../../../src/cli/index-commands.js';
import { ConfigError } from '../../../src/errors.js';
import { compilePathGlobs } from '../../../src/retrieve/path-globs.js';
import { resolveTask, type Task } from '../../../src/retrieve/task.js';

// Issue 9: bounded fuzzing of everything that parses caller input. Whatever comes in, the only error out is
// ConfigError (exit 2 with a message), never a TypeError or a picomatch internals error.

/** Runs `fn`; passes when it returns or throws a ConfigError with a non-empty message. */
function onlyConfigErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message.length).toBeGreaterThan(10);
  }
}

const anyValue = fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true });
const globish = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom('*', '?', '[', ']', '{', '}', '(', ')', '!', '@', '+', '/', '\\', '.', ',', '|', '^', '$', 'a', '-', ' ') }),
  fc.constantFrom('src/[abc', '**/{a,b', '!(x', 'a/**/b', '[z-a]', '\\', '{,}', '+(a|b', '[[:alpha:]', '***'),
);
const RUNS = { numRuns: 500, seed: 42 };

describe('option parsing never throws anything but ConfigError', () => {
  it('resolveTask with arbitrary fields of arbitrary types', () => {
    const task = fc.record(
      {
        text: fc.oneof(fc.string(), fc.string({ minLength: 9_990, maxLength: 10_010 }), anyValue),
        patterns: fc.oneof(fc.array(globish), anyValue),
        keywords: fc.oneof(fc.array(fc.string()), anyValue),
        excludes: fc.oneof(fc.array(globish), anyValue),
        focusAreas: fc.oneof(fc.array(fc.string()), anyValue),
        maxCycles: fc.oneof(fc.integer(), fc.double(), anyValue),
        minHigh: fc.oneof(fc.integer(), fc.double(), anyValue),
        highThreshold: fc.oneof(fc.double(), anyValue),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(fc.oneof(task, anyValue), (t) => onlyConfigErrors(() => resolveTask(t as Task))), RUNS);
  });

  it('resolveTask accepts what it promises to: a sane task comes back trimmed and complete', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== ''), fc.integer({ min: 1, max: 5 }), (text, maxCycles) => {
        const r = resolveTask({ text, maxCycles });
        expect(r).toMatchObject({ text: text.trim(), maxCycles, minHigh: 3, highThreshold: 0.7, patterns: [], keywords: [] });
      }),
      RUNS,
    );
  });

  it('parsePositiveInt: any string either parses to a positive integer or is a ConfigError naming the option', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String), fc.constantFrom('1e3', '0x10', ' 7 ', '', '-0', 'Infinity', 'NaN', '9'.repeat(400))), (s) => {
        try {
          const n = parsePositiveInt(s, '-k');
          expect(Number.isInteger(n) && n > 0).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).option).toBe('-k');
        }
      }),
      RUNS,
    );
  });

  it('compilePathGlobs with arbitrary include/exclude globs; a compiled predicate never throws on any path', () => {
    fc.assert(
      fc.property(fc.array(globish, { maxLength: 4 }), fc.array(globish, { maxLength: 4 }), fc.array(fc.string(), { maxLength: 5 }), (inc, exc, paths) => {
        onlyConfigErrors(() => {
          const accept = compilePathGlobs(inc, exc);
          for (const p of paths) expect(typeof (accept?.(p) ?? true)).toBe('boolean');
        });
      }),
      RUNS,
    );
  });
});
