/** Running the `survey` CLI as a child process (`node scripts/survey.mjs …`, or an installed `survey`), for the CLI's tests. */
import { spawn } from 'node:child_process';
import path from 'node:path';

const SCRIPT = path.resolve(import.meta.dirname, '..', '..', 'scripts', 'survey.mjs');

/** What a run printed and how it ended. */
export interface SurveyRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` with `args` in `cwd` without blocking this process (a test may serve what the command fetches). */
export function runCommand(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<SurveyRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI in `cwd`, so file names in messages are as typed. */
export function runSurvey(cwd: string, ...args: string[]): Promise<SurveyRun> {
  return runCommand(process.execPath, [SCRIPT, ...args], cwd, { ...process.env, NO_COLOR: '1' });
}
