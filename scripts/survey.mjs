#!/usr/bin/env node
// `npm run survey` in a checkout: the `survey` CLI straight from its TypeScript (tsx, no build step).
// The installable package (packages/survey) runs the same code bundled into plain JavaScript.
import { tsImport } from 'tsx/esm/api';

await tsImport('./survey/main.ts', { parentURL: import.meta.url, tsconfig: false });
