import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { JudgeSessions } from '../../../src/mcp/judge-sessions.js';
import type { RetrievalSession } from '../../../src/retrieve/retrieval-session.js';

// The registry never looks inside a session; any distinct object stands for one.
const session = (name: string): RetrievalSession => ({ name }) as unknown as RetrievalSession;
const peek = (s: JudgeSessions, id: string) => s.use(id, async (x, budget) => ({ value: { x, budget }, done: false }));

describe('JudgeSessions: bounded agent-judged sessions', () => {
  it('hands a session back by id with its budget, and ends it when a step says done', async () => {
    const sessions = new JudgeSessions();
    const a = session('a');
    const id = sessions.add(a, 1234);
    await expect(peek(sessions, id)).resolves.toEqual({ x: a, budget: 1234 });
    await sessions.use(id, async () => ({ value: 0, done: true }));
    expect(sessions.size).toBe(0);
    await expect(peek(sessions, id)).rejects.toThrow(`Retrieval session ${id} has finished and returned its answer`);
  });

  it('expires a session left alone longer than its time to live', async () => {
    let now = 0;
    const sessions = new JudgeSessions({ ttlMs: 1000, now: () => now });
    const id = sessions.add(session('a'), 10);
    now = 900;
    await peek(sessions, id); // judging keeps it alive
    now = 1800;
    await expect(peek(sessions, id)).resolves.toBeDefined();
    now = 2801;
    await expect(peek(sessions, id)).rejects.toThrow(`Retrieval session ${id} expired after 1 s without a judgement`);
    await expect(peek(sessions, id)).rejects.toBeInstanceOf(ConfigError);
  });

  it('drops the least recently used session when full, and names an unknown id', async () => {
    let now = 0;
    const sessions = new JudgeSessions({ maxSessions: 2, now: () => now });
    const a = sessions.add(session('a'), 1);
    now = 1;
    const b = sessions.add(session('b'), 1);
    now = 2;
    await peek(sessions, a); // a is now more recent than b
    now = 3;
    sessions.add(session('c'), 1);
    expect(sessions.size).toBe(2);
    await expect(peek(sessions, b)).rejects.toThrow('was dropped to make room (a server keeps at most 2 sessions)');
    await expect(peek(sessions, a)).resolves.toBeDefined();
    await expect(peek(sessions, 'nope')).rejects.toThrow('Unknown retrieval session "nope"');
  });

  it('refuses a second step on a session while one is running', async () => {
    const sessions = new JudgeSessions();
    const id = sessions.add(session('a'), 1);
    let release!: () => void;
    const first = sessions.use(id, () => new Promise<{ value: number; done: boolean }>((r) => (release = () => r({ value: 1, done: false }))));
    await expect(peek(sessions, id)).rejects.toThrow('is busy with another judge_context call');
    release();
    await expect(first).resolves.toBe(1);
    await expect(peek(sessions, id)).resolves.toBeDefined();
  });
});
