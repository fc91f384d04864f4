/** The generated source tree the crash test edits, indexes and kills around. */
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

const TOPICS = ['parse', 'render', 'store', 'fetch', 'encode', 'merge', 'sort', 'score', 'route', 'cache'];

/** Source text of file `i` at edit `version`: distinct per (i, version), a few symbols each. */
function sourceOf(i: number, version: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  const Name = `${topic[0]!.toUpperCase()}${topic.slice(1)}`;
  return (
    `/** ${topic} helper ${i}, revision ${version}, for records of kind ${(i + version) % 7}. */\n` +
    `export function ${topic}Record${i}v${version}(input: string[], limit = ${i + version}): string[] {\n` +
    `  return input.filter((x, j) => j < limit).map((x) => x + '${topic}-${i}-${version}');\n}\n\n` +
    `export class ${Name}Cache${i} {\n  private entries = new Map<string, number>();\n` +
    `  put(key: string): void {\n    this.entries.set(key, ${i * 31 + version});\n  }\n` +
    `  get(key: string): number | undefined {\n    return this.entries.get(key) ?? ${version};\n  }\n}\n`
  );
}

/** Root-relative path of generated file `i`, e.g. `pkg3/merge/merge-15.ts`. */
export function relPathOf(i: number): string {
  return `pkg${i % 12}/${TOPICS[i % TOPICS.length]}/${TOPICS[i % TOPICS.length]}-${i}.ts`;
}

/** The tree under test: which generated files exist and at which version. */
export class Tree {
  readonly versions = new Map<number, number>();
  private nextId: number;
  constructor(readonly root: string, count: number) {
    for (let i = 0; i < count; i++) this.versions.set(i, 0);
    this.nextId = count;
  }
  async writeAll(): Promise<void> {
    for (const [i, v] of this.versions) await this.write(i, v);
  }
  async write(i: number, version: number): Promise<void> {
    const abs = path.join(this.root, relPathOf(i));
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, sourceOf(i, version));
    this.versions.set(i, version);
  }
  /** Random edits: rewrite some files, delete a few, add a few. Returns the root-relative paths it touched. */
  async mutate(random: () => number, edits: number): Promise<string[]> {
    const ids = [...this.versions.keys()];
    const touched = new Set<string>();
    for (let n = 0; n < edits; n++) {
      const roll = random();
      const i = ids[Math.floor(random() * ids.length)]!;
      if (roll < 0.7 && this.versions.has(i)) await this.write(i, this.versions.get(i)! + 1);
      else if (roll < 0.85 && this.versions.has(i) && this.versions.size > 10) {
        await unlink(path.join(this.root, relPathOf(i)));
        this.versions.delete(i);
      } else {
        touched.add(relPathOf(this.nextId));
        await this.write(this.nextId++, 0);
        continue;
      }
      touched.add(relPathOf(i));
    }
    return [...touched];
  }
}
