// A/B of the export and import code paths between an earlier commit and the working tree, in one
// Chromium page: both versions of the modules are bundled (the earlier one with the files named in
// AB_FILES taken from AB_BASE), loaded side by side, and timed in interleaved runs on the same 10,500
// generated records — so the machine's load falls on both alike. Prints the quartiles of each step for
// each version, and whether both export byte-identical files. A development tool, not a suite:
//   AB_BASE=<commit> node scripts/bench/panel-transfer/ab-export.mjs
// AB_STEPS=blob,partsCached times only those steps; AB_FILES names the files taken from AB_BASE (a file the base
// lacks cannot be named: name the base's files that would import it, e.g. lib/export/files.ts).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { ROOT } from '../harness/build.mjs';
import { CHROMIUM_FLAGS, chromiumPath } from '../../browsers.mjs';
import { describeLoad, noteLoad, serveLocally } from '../harness/harness.mjs';
import { median, quartiles } from '../harness/stats.mjs';
import { generateStore } from '../harness/records.mjs';

const BASE = process.env.AB_BASE ?? 'HEAD';
const FILES = (process.env.AB_FILES ?? 'lib/export/fragment.ts,lib/export/jsonl.ts,components/common/files.ts').split(',');
const RUNS = Number(process.env.AB_RUNS ?? 12);
/** AB_STEPS: the steps to time (comma-separated names of STEPS); all by default. */
const ONLY = process.env.AB_STEPS ? new Set(process.env.AB_STEPS.split(',')) : null;
const ENTRY = [
  "export * from './lib/import/files.ts';",
  "export * from './lib/export/jsonl.ts';",
  "export * from './lib/export/files.ts';",
  "export * from './lib/export/links.ts';",
  "export * from './lib/export/line-cache.ts';",
  "export * from './lib/import/preview.ts';",
].join('\n');

/** The bundle of ENTRY as an IIFE named `name`; with `base`, the FILES come from that commit. */
async function bundle(name, base) {
  const old = base
    ? new Map(FILES.map((f) => [path.join(ROOT, f), execFileSync('git', ['-C', ROOT, 'show', `${base}:${f}`], { encoding: 'utf8' })]))
    : new Map();
  const out = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: name,
    platform: 'browser',
    target: 'chrome120',
    minify: true,
    write: false,
    logLevel: 'silent',
    plugins: [
      { name: 'base', setup: (b) => b.onLoad({ filter: /\.tsx?$/ }, (a) => (old.has(a.path) ? { contents: old.get(a.path), loader: 'ts' } : undefined)) },
    ],
  });
  return out.outputFiles[0].text;
}

/** The download's Blob as each version builds it: one string, or the parts `blobParts` cuts (when the version has it). */
const STEPS = {
  buildExport: 'L.buildExport("jsonl", data).text.length',
  // With the page's cache of lines, warmed by the first run (a version without the option ignores it).
  buildExportCached: 'L.buildExport("jsonl", data, { lines: (L.cache ??= new L.ExportLineCache()) }).text.length',
  withLinks: 'L.withLinks(data.claims).length',
  toJsonl: 'L.toJsonl(linked, data.models).length',
  blob: 'new Blob(L.blobParts ? L.blobParts(text) : [text]).size',
  // For comparison: the same file's Blob from UTF-8 bytes encoded in the page.
  blobFromBytes: 'new Blob([new TextEncoder().encode(text)]).size',
  // The same from bytes encoded once beforehand (the first run encodes them): the copy alone.
  blobOfBytes: 'new Blob([(L.bytes ??= new TextEncoder().encode(text))]).size',
  // From parts of 256 Ki and 1 Mi code units.
  blobParts256k: 'new Blob((L.p256 ??= Array.from({ length: Math.ceil(text.length / 262144) }, (_, i) => text.slice(i * 262144, (i + 1) * 262144)))).size',
  blobParts1m: 'new Blob((L.p1m ??= Array.from({ length: Math.ceil(text.length / 1048576) }, (_, i) => text.slice(i * 1048576, (i + 1) * 1048576)))).size',
  blobParts16k: 'new Blob((L.p16k ??= Array.from({ length: Math.ceil(text.length / 16384) }, (_, i) => text.slice(i * 16384, (i + 1) * 16384)))).size',
  // From one part per record line (the lines written out, no join).
  blobOfLines: 'new Blob((L.lines ??= text.split(/(?<=\\n)/))).size',
  // One Blob per row (model, recipe), all of them, as an idle warm-up would make them one by one.
  rowBlobsAll: '(L.rowBlobs = rows.map((t) => new Blob([t]))).length',
  // The file composed from those row Blobs (made beforehand: the first run makes them).
  blobOfRowBlobs: 'new Blob((L.rowBlobs ??= rows.map((t) => new Blob([t])))).size',
  // Rows merged into chunks of about 256 Ki code units, one Blob each, all of them.
  chunkBlobsAll: '(L.chunkBlobs = chunks.map((t) => new Blob([t]))).length',
  // The file composed from those chunk Blobs (made beforehand).
  blobOfChunkBlobs: 'new Blob((L.chunkBlobs ??= chunks.map((t) => new Blob([t])))).size',
  // The file's one Blob made beforehand, wrapped in a new Blob with a short string after it (as the source records would be).
  blobOfWholeBlob: 'new Blob([(L.whole ??= new Blob(parts(text))), "x"]).size',
  // The same with the object URL a download makes and revokes.
  blobOfRowBlobsUrl: 'URL.revokeObjectURL(URL.createObjectURL(new Blob((L.rowBlobs ??= rows.map((t) => new Blob([t])))))) ?? 0',
  // The file as the pages download it: with parts of whole rows made by the first run and kept (a version without them builds one Blob).
  partsCached:
    'new Blob(L.JsonlPartCache ? L.buildJsonlParts(data, (L.pc ??= new L.JsonlPartCache((t) => new Blob(parts(t))))).parts : parts(L.buildExport("jsonl", data).text)).size',
  // The same with nothing made ahead (a new cache each run: every line, the order, every part), against one Blob of the plain export's text.
  partsCold:
    'new Blob(L.JsonlPartCache ? L.buildJsonlParts(data, new L.JsonlPartCache((t) => new Blob(parts(t)))).parts : parts(L.buildExport("jsonl", data).text)).size',
  parseImport: 'L.parseImport(file, "jsonl").records.length',
  planAllStored: 'L.planStoreImport(records, records).added',
};

const load = noteLoad();
const code = `${await bundle('OLD', BASE)}\n${await bundle('NEW', null)}`;
const server = await serveLocally(new Map([['/', '<!doctype html><title>A/B</title>']]));
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/`);
  await page.addScriptTag({ content: code });
  const blobParts = readFileSync(path.join(ROOT, 'components/common/files.ts'), 'utf8').includes('export function blobParts');
  const res = await page.evaluate(
    async ({ file, steps, runs, withParts }) => {
      const parsed = OLD.parseImport(file, 'jsonl');
      const records = parsed.records;
      const data = { claims: records.filter((r) => r.schema === 'rl-survey.claim/1'), models: records.filter((r) => r.schema !== 'rl-survey.claim/1') };
      const linked = data.claims.map((c) => ({ ...c, link: 'https://example.org/#:~:text=x' }));
      const text = OLD.buildExport('jsonl', data).text;
      // blobParts lives in a component module: the new version cuts parts of 256 KiB as it does.
      const parts = (t) => {
        const out = [];
        for (let i = 0; i < t.length; ) {
          let end = Math.min(t.length, i + 262144);
          if (end < t.length && (t.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
          out.push(t.slice(i, end));
          i = end;
        }
        return out;
      };
      const versions = { old: { ...OLD }, new: { ...NEW, blobParts: withParts ? parts : undefined } };
      const out = { identical: OLD.buildExport('jsonl', data, { now: new Date(0) }).text === NEW.buildExport('jsonl', data, { now: new Date(0) }).text };
      // The file's lines grouped by row (model, recipe), each group's text with its line ends.
      const rows = [];
      let rowKey = null;
      for (const line of text.split('\n').slice(0, -1)) {
        const r = JSON.parse(line);
        const key = `${r.schema === 'rl-survey.source/1' ? 'source' : ''}\u0000${r.model}\u0000${r.recipe ?? ''}`;
        if (key !== rowKey) rows.push('');
        rowKey = key;
        rows[rows.length - 1] += `${line}\n`;
      }
      out.rowCount = rows.length;
      const chunks = [''];
      for (const row of rows) {
        if (chunks[chunks.length - 1].length + row.length > 262144 && chunks[chunks.length - 1]) chunks.push('');
        chunks[chunks.length - 1] += row;
      }
      out.chunkCount = chunks.length;
      out.rowsJoinIdentical = (await new Blob(rows.map((t) => new Blob([t]))).text()) === text;
      out.partsIdentical = NEW.JsonlPartCache
        ? (await new Blob(NEW.buildJsonlParts(data, new NEW.JsonlPartCache((t) => new Blob([t]))).parts).text()) === text
        : null;
      for (const [step, expr] of Object.entries(steps)) {
        const fn = new Function('L', 'data', 'linked', 'text', 'file', 'records', 'rows', 'chunks', 'parts', `return ${expr};`);
        const times = { old: [], new: [] };
        for (let i = 0; i < runs; i++)
          for (const v of i % 2 ? ['old', 'new'] : ['new', 'old']) {
            const t0 = performance.now();
            fn(versions[v], data, linked, text, file, records, rows, chunks, parts);
            times[v].push(performance.now() - t0);
          }
        out[step] = times;
      }
      return out;
    },
    { file: generateStore(), steps: ONLY ? Object.fromEntries(Object.entries(STEPS).filter(([k]) => ONLY.has(k))) : STEPS, runs: RUNS, withParts: blobParts },
  );
  console.log(`A/B in Chromium, ${RUNS} interleaved runs each: ${BASE} (old) vs the working tree (new); ms, quartiles q1 / median / q3`);
  for (const step of Object.keys(STEPS).filter((k) => !ONLY || ONLY.has(k))) {
    const q = (xs) => {
      const { q1, q3 } = quartiles(xs);
      return `${q1.toFixed(1)} / ${median(xs).toFixed(1)} / ${q3.toFixed(1)}`;
    };
    console.log(`  ${step.padEnd(18)} old ${q(res[step].old).padEnd(18)} new ${q(res[step].new)}`);
  }
  console.log(`  JSONL byte-identical between the versions: ${res.identical ? 'yes' : 'NO'}`);
  if (res.partsIdentical !== null)
    console.log(`  the working tree's file put together from parts reads back as the file: ${res.partsIdentical ? 'yes' : 'NO'}`);
  console.log(`  ${res.chunkCount} chunks of rows of about 256 Ki code units`);
  console.log(`  ${res.rowCount} row groups; a Blob of their Blobs reads back as the file: ${res.rowsJoinIdentical ? 'yes' : 'NO'}`);
  console.log(describeLoad(load()));
} finally {
  await browser.close();
  await server.close();
}
