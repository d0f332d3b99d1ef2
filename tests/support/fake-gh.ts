/**
 * A stand-in for GitHub's `gh` CLI, for running a workflow's steps in the tests: a `gh` command put first on PATH
 * that records every call (its arguments, `GH_TOKEN`, `GH_REPO`, the text of its `--body-file`) and keeps a
 * repository's labels and issues in a JSON file beside it. It understands what the recheck workflow asks:
 * `label create NAME [--force]`, `issue list --label L --state open --limit N --json number --jq '.[].number'` (the
 * numbers of the open issues with that label, newest first, one a line), `issue create --title T --label L
 * --body-file F` (the new issue's URL), and `issue edit N --body-file F`. Anything else fails, as does a call
 * without `GH_TOKEN`, or an issue given a label the repository lacks, as gh does.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One call of the fake `gh`. */
export interface GhCall {
  args: string[];
  token: string | null;
  repo: string | null;
  /** The text of the file named by `--body-file`, when there is one. */
  body: string | null;
}

/** An issue of the fake repository. */
export interface GhIssue {
  number: number;
  title: string;
  labels: string[];
  body: string;
  state: 'open' | 'closed';
}

/** The fake `gh` on disk and what it saw. */
export interface FakeGh {
  /** The folder to put first on PATH. */
  bin: string;
  calls(): GhCall[];
  issues(): GhIssue[];
}

const SCRIPT = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const file = path.join(__dirname, 'state.json');
const s = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { calls: [], issues: [], labels: [] };
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i < 0 ? null : args[i + 1]; };
const bodyFile = opt('--body-file');
s.calls.push({ args, token: process.env.GH_TOKEN || null, repo: process.env.GH_REPO || null, body: bodyFile ? fs.readFileSync(bodyFile, 'utf8') : null });
const save = () => fs.writeFileSync(file, JSON.stringify(s, null, 1));
const fail = (message) => { save(); process.stderr.write(message + '\\n'); process.exit(1); };
if (!process.env.GH_TOKEN) fail('gh: set the GH_TOKEN environment variable');
const command = args.slice(0, 2).join(' ');
if (command === 'label create') {
  if (s.labels.includes(args[2]) && !args.includes('--force')) fail('label with name "' + args[2] + '" already exists');
  if (!s.labels.includes(args[2])) s.labels.push(args[2]);
} else if (command === 'issue list') {
  if (opt('--json') !== 'number' || opt('--jq') !== '.[].number') fail('fake gh: only --json number --jq .[].number is understood');
  const open = s.issues.filter((i) => (opt('--state') || 'open') === i.state && (!opt('--label') || i.labels.includes(opt('--label'))));
  const found = open.sort((a, b) => b.number - a.number).slice(0, Number(opt('--limit') || 30));
  process.stdout.write(found.map((i) => i.number + '\\n').join(''));
} else if (command === 'issue create') {
  const label = opt('--label');
  if (label && !s.labels.includes(label)) fail("could not add label: '" + label + "' not found");
  if (!opt('--title') || bodyFile === null) fail('fake gh: issue create needs --title and --body-file');
  const number = s.issues.length + 1;
  s.issues.push({ number, title: opt('--title'), labels: label ? [label] : [], body: fs.readFileSync(bodyFile, 'utf8'), state: 'open' });
  process.stdout.write('https://github.com/' + process.env.GH_REPO + '/issues/' + number + '\\n');
} else if (command === 'issue edit') {
  const issue = s.issues.find((i) => String(i.number) === args[2]);
  if (!issue) fail('GraphQL: Could not resolve to an issue with the number of ' + args[2]);
  if (bodyFile !== null) issue.body = fs.readFileSync(bodyFile, 'utf8');
  process.stdout.write('https://github.com/' + process.env.GH_REPO + '/issues/' + issue.number + '\\n');
} else fail('fake gh: unknown command ' + command);
save();
`;

/** Writes the fake `gh` into `folder` (with no issues yet); returns where it is and how to read what it saw. */
export function fakeGh(folder: string): FakeGh {
  const bin = path.join(folder, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(folder, 'gh.cjs'), SCRIPT);
  writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(folder, 'gh.cjs'))} "$@"\n`, {
    mode: 0o755,
  });
  const state = () => {
    const file = path.join(folder, 'state.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { calls: GhCall[]; issues: GhIssue[] }) : { calls: [], issues: [] };
  };
  return { bin, calls: () => state().calls, issues: () => state().issues };
}
