#!/usr/bin/env node
// `survey`: the dataset command line (validate, render, merge, stats) over survey-record JSONL.
// The commands are TypeScript sharing lib/ with the extension; tsx loads them without a build step.
import { tsImport } from 'tsx/esm/api';

const { main } = await tsImport('./survey/cli.ts', { parentURL: import.meta.url, tsconfig: false });
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
