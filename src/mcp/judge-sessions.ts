import { randomUUID } from 'node:crypto';
import { ConfigError } from '../errors.js';
import type { RetrievalSession } from '../retrieve/retrieval-session.js';

/** Bounds of the agent-judged retrieval sessions one server keeps. */
export const JUDGE_SESSION_LIMITS = Object.freeze({
  /** A session not judged for this long is dropped. */
  ttlMs: 10 * 60_000,
  /** Most live sessions; starting one more drops the least recently used. Each holds a few hundred chunk rows. */
  maxSessions: 32,
  /** Ended session ids remembered, so a late call hears why its session is gone. */
  rememberedEnds: 256,
});

/** Options of {@link JudgeSessions}. */
export interface JudgeSessionsOptions {
  readonly ttlMs?: number;
  readonly maxSessions?: number;
  /** Clock in ms (tests pass their own). */
  readonly now?: () => number;
}

interface Entry {
  readonly session: RetrievalSession;
  readonly tokenBudget: number;
  lastUsed: number;
  busy: boolean;
}

/**
 * The agent-judged retrieval sessions of one MCP server, by id: bounded in count and time to live, so a client
 * that walks away costs nothing for long. Every failure is a ConfigError that says what to do.
 */
export class JudgeSessions {
  private readonly live = new Map<string, Entry>();
  private readonly ended = new Map<string, string>();
  private readonly ttlMs: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(o: JudgeSessionsOptions = {}) {
    this.ttlMs = o.ttlMs ?? JUDGE_SESSION_LIMITS.ttlMs;
    this.maxSessions = o.maxSessions ?? JUDGE_SESSION_LIMITS.maxSessions;
    this.now = o.now ?? Date.now;
  }

  /** Live sessions. */
  get size(): number {
    this.sweep();
    return this.live.size;
  }

  /** Keeps a session and returns its id; drops the least recently used one when full. */
  add(session: RetrievalSession, tokenBudget: number): string {
    this.sweep();
    if (this.live.size >= this.maxSessions) {
      const oldest = [...this.live.entries()].filter(([, e]) => !e.busy).sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest) this.end(oldest[0], `was dropped to make room (a server keeps at most ${this.maxSessions} sessions)`);
    }
    const id = randomUUID();
    this.live.set(id, { session, tokenBudget, lastUsed: this.now(), busy: false });
    return id;
  }

  /**
   * Runs `step` on a session, one step at a time; ends the session when `step` says it is done.
   * @throws ConfigError for an unknown, expired or busy session.
   */
  async use<T>(id: string, step: (session: RetrievalSession, tokenBudget: number) => Promise<{ value: T; done: boolean }>): Promise<T> {
    this.sweep();
    const entry = this.live.get(id);
    if (!entry) {
      const why = this.ended.get(id);
      throw new ConfigError(
        why ? `Retrieval session ${id} ${why}. Start again with retrieve_context (judge: "agent").` : `Unknown retrieval session "${id}". Start one with retrieve_context (judge: "agent") and pass the sessionId it returns.`,
        'sessionId',
      );
    }
    if (entry.busy) throw new ConfigError(`Retrieval session ${id} is busy with another judge_context call; wait for it, then judge the cycle it returns.`, 'sessionId');
    entry.busy = true;
    try {
      const { value, done } = await step(entry.session, entry.tokenBudget);
      if (done) this.end(id, 'has finished and returned its answer');
      return value;
    } finally {
      entry.busy = false;
      entry.lastUsed = this.now();
    }
  }

  /** Drops every session (server shutdown). */
  clear(): void {
    for (const id of [...this.live.keys()]) this.end(id, 'ended when the server stopped');
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, e] of this.live) if (!e.busy && now - e.lastUsed > this.ttlMs) this.end(id, `expired after ${Math.round(this.ttlMs / 1000)} s without a judgement`);
  }

  private end(id: string, why: string): void {
    this.live.delete(id);
    this.ended.set(id, why);
    if (this.ended.size > JUDGE_SESSION_LIMITS.rememberedEnds) this.ended.delete(this.ended.keys().next().value!);
  }
}
