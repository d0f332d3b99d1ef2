/**
 * A dataset's CI files as a host reads them: parsed with a real YAML parser, their `run:` lines (GitHub Actions) or
 * `script:` lines (GitLab CI) taken in order, and run the way the hosts run them (`bash -eo pipefail`, one line
 * after another, stopping at the first that fails).
 */
import { spawn } from 'node:child_process';
import yaml from 'js-yaml';

/** A GitHub Actions workflow's `run:` lines, every job's steps in order. */
export function githubRunLines(text: string): string[] {
  const doc = yaml.load(text) as { jobs: Record<string, { steps: Array<{ run?: string }> }> };
  return Object.values(doc.jobs).flatMap((job) => job.steps.flatMap((s) => (typeof s.run === 'string' ? [s.run] : [])));
}

/** A GitHub Actions step that runs a shell script: its name, its script, and its `env:` as written (`${{ … }}` kept). */
export interface GithubRunStep {
  name: string;
  run: string;
  env: Record<string, string>;
}

/** A workflow's `run:` steps with their names and `env:`, every job's in order. */
export function githubRunSteps(text: string): GithubRunStep[] {
  const doc = yaml.load(text) as { jobs: Record<string, { steps: Array<{ name?: string; run?: string; env?: Record<string, unknown> }> }> };
  return Object.values(doc.jobs).flatMap((job) =>
    job.steps.flatMap((s) =>
      typeof s.run === 'string'
        ? [{ name: s.name ?? s.run, run: s.run, env: Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, String(v)])) }]
        : [],
    ),
  );
}

/** A step's `env:` with each `${{ expression }}` replaced from `context` (as the runner does); an expression `context` lacks throws. */
export function githubStepEnv(step: GithubRunStep, context: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(step.env).map(([k, v]) => [
      k,
      v.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
        const value = context[expression];
        if (value === undefined) throw new Error(`step "${step.name}": no value for \${{ ${expression} }}`);
        return value;
      }),
    ]),
  );
}

/** A `.gitlab-ci.yml` job's `before_script:` and `script:` lines, in order. */
export function gitlabRunLines(text: string, job: string): string[] {
  const doc = yaml.load(text) as Record<string, { before_script?: string[]; script?: string[] }>;
  const j = doc[job];
  if (!j?.script) throw new Error(`no job ${job} with a script in the file`);
  return [...(j.before_script ?? []), ...j.script];
}

/** What a run of CI lines printed, and the first line that failed (null when all passed). */
export interface CiRun {
  code: number;
  output: string;
  failed: string | null;
}

/** Runs one shell line as the hosts do; resolves with its exit code and what it printed (never blocks the event loop, so a server in this process keeps answering). */
function runLine(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs `lines` one after another in `cwd` with `env` added to the environment given (`base`, default this process's). */
export async function runCiLines(lines: readonly string[], cwd: string, env: NodeJS.ProcessEnv, base: NodeJS.ProcessEnv = process.env): Promise<CiRun> {
  let output = '';
  for (const line of lines) {
    const run = await runLine(line, cwd, { ...base, GIT_TERMINAL_PROMPT: '0', ...env });
    output += `$ ${line}\n${run.output}`;
    if (run.code !== 0) return { code: run.code, output, failed: line };
  }
  return { code: 0, output, failed: null };
}

/** Runs GitHub steps one after another as the runner does (each in its own shell with its `env:` resolved from `context`), stopping at the first that fails. */
export async function runGithubSteps(
  steps: readonly GithubRunStep[],
  cwd: string,
  context: Record<string, string>,
  env: NodeJS.ProcessEnv,
  base: NodeJS.ProcessEnv = process.env,
): Promise<CiRun> {
  let output = '';
  for (const step of steps) {
    const run = await runCiLines([step.run], cwd, { ...env, ...githubStepEnv(step, context) }, base);
    output += run.output;
    if (run.code !== 0) return { ...run, output };
  }
  return { code: 0, output, failed: null };
}
