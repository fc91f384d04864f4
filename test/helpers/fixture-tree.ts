import { mkdir, mkdtemp, rm, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** A temporary folder with files written from a map of relative path -> content; removed by `dispose`. */
export interface TempTree {
  readonly root: string;
  readonly cacheDir: string;
  write(rel: string, content: string): Promise<void>;
  remove(rel: string): Promise<void>;
  dispose(): Promise<void>;
}

/** Creates a temp tree (and a separate cache dir beside it). */
export async function createTempTree(files: Record<string, string> = {}, copyFrom?: string): Promise<TempTree> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'codescout-test-'));
  const root = path.join(base, 'repo');
  const cacheDir = path.join(base, 'cache');
  await mkdir(root, { recursive: true });
  if (copyFrom) await cp(copyFrom, root, { recursive: true });
  const tree: TempTree = {
    root,
    cacheDir,
    async write(rel, content) {
      const abs = path.join(root, rel);
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, content);
    },
    async remove(rel) {
      await rm(path.join(root, rel), { recursive: true, force: true });
    },
    async dispose() {
      await rm(base, { recursive: true, force: true });
    },
  };
  for (const [rel, content] of Object.entries(files)) await tree.write(rel, content);
  return tree;
}

/** A maker of temp trees of `files` for the calling test file, each removed after the test that made it. */
export function tempTreesPerTest(files: Record<string, string> = {}): () => Promise<TempTree> {
  const trees: TempTree[] = [];
  afterEach(async () => {
    for (const t of trees.splice(0)) await t.dispose();
  });
  return async () => {
    const tree = await createTempTree(files);
    trees.push(tree);
    return tree;
  };
}

/** A small code base whose symbols answer known questions. */
export const SMALL_REPO: Record<string, string> = {
  'src/net/throttle.ts': `import { TokenBucket } from '../util/token-bucket';

/** Options of the request throttle. */
export interface ThrottleOptions {
  burst: number;
  refillPerSecond: number;
}

/** Rejects calls from a client that has used up its tokens. */
export function throttleRequests(options: ThrottleOptions) {
  const buckets = new Map<string, TokenBucket>();
  return (clientId: string): boolean => {
    let bucket = buckets.get(clientId);
    if (!bucket) {
      bucket = new TokenBucket(options.burst, options.refillPerSecond);
      buckets.set(clientId, bucket);
    }
    return bucket.take();
  };
}
`,
  'src/util/token-bucket.ts': `/** A bucket of tokens that refills at a steady pace. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(private readonly capacity: number, private readonly perSecond: number) {
    this.tokens = capacity;
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }
}
`,
  'src/util/dates.ts': `/** Parses an ISO 8601 date string such as 2024-05-01T10:00:00Z into a Date. */
export function parseIsoDate(text: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error(\`not an ISO date: \${text}\`);
  return date;
}

/** Formats a date as YYYY-MM-DD. */
export const formatDay = (date: Date): string => date.toISOString().slice(0, 10);
`,
  'src/users/password.ts': `import { scryptSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Hashes a password with a random salt. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('hex');
  return salt + ':' + scryptSync(password, salt, 32).toString('hex');
}

/** Checks a password against a stored salted hash. */
export function verifyPassword(password: string, stored: string): boolean {
  const [salt, hash] = stored.split(':');
  return timingSafeEqual(Buffer.from(hash!, 'hex'), scryptSync(password, salt!, 32));
}
`,
  'src/billing/invoice.ts': `/** A line of an invoice. */
export interface InvoiceLine {
  description: string;
  cents: number;
}

/** Sums the lines of an invoice and adds tax. */
export function invoiceTotal(lines: InvoiceLine[], taxRate: number): number {
  const net = lines.reduce((sum, line) => sum + line.cents, 0);
  return Math.round(net * (1 + taxRate));
}
`,
  'README.md': `# sample\n\nA small service used in codescout's tests.\n\n## Layout\n\nCode lives in src/.\n`,
};
