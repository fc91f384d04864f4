import { spawn } from 'node:child_process';
import { ConfigError, JudgeError } from '../errors.js';
import { judgeRequest } from '../retrieve/candidate-view.js';
import type { Judgement } from '../retrieve/judgements.js';
import type { RetrievalSession } from '../retrieve/retrieval-session.js';
import { JudgeResponse } from '../schemas.js';

/** Limits of one run of a judge command. */
export const JUDGE_COMMAND_LIMITS = Object.freeze({
  /** Default time one cycle's judgement may take, in ms (an LLM call can be slow). */
  timeoutMs: 120_000,
  /** Most bytes read from the command's stdout. */
  maxOutputBytes: 10 * 1024 * 1024,
  /** Code sent per cycle, in approximate tokens. */
  tokenBudget: 8000,
});

/**
 * Judges the session's current candidates by running `command` in a shell with the judge request as JSON on
 * stdin (SCHEMAS.judgeRequest) and reading `{ "evaluations": [...] }` from its stdout (SCHEMAS.judgeResponse).
 * @throws JudgeError (exit code 7) when the command fails to start, exits non-zero, times out, prints too much
 *   or something that is not a judge response, or judges a path that is not a candidate.
 */
export async function judgeWithCommand(session: RetrievalSession, o: { command: string; timeoutMs: number; cwd: string }): Promise<Judgement[]> {
  const request = JSON.stringify(judgeRequest(session, JUDGE_COMMAND_LIMITS.tokenBudget));
  const stdout = await runJudge(o.command, request, o);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch (error) {
    const start = stdout.trim().slice(0, 80);
    throw new JudgeError(`The judge command printed no JSON in cycle ${session.cycle} (it began: ${JSON.stringify(start)}). It must print {"evaluations": [...]} on stdout; see SCHEMAS.judgeResponse.`, o.command, { cause: error });
  }
  const checked = JudgeResponse.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new JudgeError(`The judge command's answer in cycle ${session.cycle} is not a judge response: ${issue.path.join('.') || '(top level)'}: ${issue.message}. See SCHEMAS.judgeResponse.`, o.command);
  }
  return checked.data.evaluations;
}

/** Judges one cycle with the command and applies it; a judgement the session refuses becomes a JudgeError. */
export async function judgeCycle(session: RetrievalSession, o: { command: string; timeoutMs: number; cwd: string }): Promise<void> {
  const evaluations = await judgeWithCommand(session, o);
  try {
    await session.judge(evaluations);
  } catch (error) {
    if (error instanceof ConfigError) throw new JudgeError(`The judge command's answer in cycle ${session.cycle} was refused: ${error.message}`, o.command, { cause: error });
    throw error;
  }
}

function runJudge(command: string, input: string, o: { timeoutMs: number; cwd: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    // detached: the command gets its own process group, so a timeout ends the whole pipeline it started.
    const child = spawn(command, { shell: true, cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const out: Buffer[] = [];
    let outBytes = 0;
    let errTail = '';
    let failure: JudgeError | undefined;
    const stop = (error: JudgeError): void => {
      failure ??= error;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone: nothing left to stop.
      }
    };
    const timer = setTimeout(() => stop(new JudgeError(`The judge command took longer than ${Math.round(o.timeoutMs / 1000)} s and was stopped. Raise --judge-timeout or make it faster.`, command)), o.timeoutMs);
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > JUDGE_COMMAND_LIMITS.maxOutputBytes) stop(new JudgeError(`The judge command printed more than ${JUDGE_COMMAND_LIMITS.maxOutputBytes} bytes; it must print one JSON document.`, command));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => (errTail = (errTail + b.toString('utf8')).slice(-2000)));
    // A command that exits without reading its stdin makes the write fail with EPIPE; its exit status says why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    child.on('error', (error) => stop(new JudgeError(`The judge command could not be started: ${error.message}`, command, { cause: error })));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) {
        const last = errTail.trim().split('\n').at(-1) ?? '';
        return reject(new JudgeError(`The judge command ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${last ? `: ${last}` : ''}.`, command));
      }
      resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}
