// Dataset sync benchmark (issue 15): the sync engine in Node against the loopback git server
// (tests/support/git-server.ts: git http-backend behind Node, no hook — a host's own checks are not the
// client's cost), on a generated dataset of 10,000 claims over 500 models (one file per model) with a model
// record for every model. Three figures, each as wall time, bytes sent and received, and peak memory of
// this process (RSS and JS heap; lightning-fs keeps its IndexedDB in this heap through fake-indexeddb):
//   - first pull: clone and plan into an empty store (applied to the store in memory);
//   - publish of 20 changed claims, in 20 models;
//   - pull of another curator's 20 changes.
// Goals: publish ≤ 3 s, pull ≤ 3 s, bytes proportional to the models changed, not to the dataset: publish sent and pull
// received each ≤ 2 × the changed model files compressed + 20 KB.
// Used by run.mjs (BENCH_ONLY=dataset); `node scripts/bench/dataset/dataset.mjs` runs it alone.
import os from 'node:os';
import { deflateSync } from 'node:zlib';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { runAlone } from '../harness/harness.mjs';
import { createRandom } from '../harness/prng.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const CLAIMS = 10_000;
const MODELS = 500;
const CHANGED = 20;

const load = (file) => tsImport(path.join(ROOT, file), { parentURL: import.meta.url, tsconfig: false });

const KINDS = ['stage', 'algorithm', 'framework', 'reward', 'system', 'intention'];
const VALUES = ['GRPO', 'PPO', 'DAPO', 'CISPO', 'slime', 'verl', 'rule-based reward', 'RLVR', 'async rollout', 'Reasoning RL'];
const STAGES = ['reasoning_rl', 'agentic_rl', 'general_rl', 'sft_distillation', null];

/** A seeded dataset: `CLAIMS` claims over `MODELS` models, each model with a model record (also for tests that want a big dataset). */
export function generate() {
  const random = createRandom(15);
  const records = [];
  for (let m = 0; m < MODELS; m++) {
    const model = `Bench Model ${String(m).padStart(3, '0')}`;
    const url = `https://lab${m % 50}.example/reports/model-${m}`;
    for (let i = 0; i < CLAIMS / MODELS; i++) {
      const n = m * (CLAIMS / MODELS) + i;
      const value = random.pick(VALUES);
      const sentence = `In stage ${i}, ${model} is trained with ${value} and a ${random.pick(['verifiable', 'rubric', 'process'])} reward over ${random.int(1, 9)}k prompts.`;
      records.push({
        schema: 'rl-survey.claim/1',
        id: `clm_bench_${String(n).padStart(6, '0')}`,
        model,
        recipe: null,
        kind: random.pick(KINDS),
        stage: random.pick(STAGES),
        value,
        evidence: random.pick(['A', 'B', 'C']),
        evidence_reason: null,
        quote: { exact: sentence, prefix: 'the second post-training phase. ', suffix: ' Rewards are checked by rules.' },
        position: { start: i * 400, end: i * 400 + sentence.length },
        source: {
          url,
          title: `${model} technical report`,
          kind: 'technical_report',
          publisher: `Lab ${m % 50}`,
          published: '2026-10-01',
          accessed: '2026-11-29',
        },
        link: `${url}#:~:text=${encodeURIComponent(sentence.slice(0, 40))}`,
        note: '',
        curator: 'bench',
        created_at: '2026-11-29T10:00:00Z',
        updated_at: '2026-11-29T10:00:00Z',
      });
    }
    records.push({
      schema: 'rl-survey.model/1',
      model,
      recipe: null,
      vendor: `Lab ${m % 50}`,
      based_on: null,
      judgment: 'Generated for the benchmark.',
      updated_at: '2026-11-29T10:00:00Z',
    });
  }
  return records;
}

/** Runs `work` while sampling this process's memory; returns its result, wall time and peaks. */
async function measure(work) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    sample();
    return { result, ms, peakRss, peakHeap, heapBefore: base.heapUsed };
  } finally {
    clearInterval(timer);
  }
}

const mb = (n) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
const kb = (n) => (n >= 1024 * 1024 ? mb(n) : `${(n / 1024).toFixed(1)} KB`);

/** The benchmark; `log` prints progress. Returns the figures and the goal lines. */
export async function runDatasetBench({ log = console.log } = {}) {
  const loadStart = os.loadavg()[0];
  const { startGitServer } = await load('tests/support/git-server.ts');
  const { Curator } = await load('tests/support/curators.ts');
  const dataset = await load('lib/dataset/index.ts');
  const records = generate();
  const seedStart = performance.now();
  const files = { 'README.md': dataset.newReadme('Benchmark survey', records) };
  for (const [p, text] of dataset.layoutFiles(records)) files[p] = text;
  const datasetBytes = Object.values(files).reduce((n, t) => n + Buffer.byteLength(t), 0);
  const readmeBytes = Buffer.byteLength(files['README.md']);
  const server = await startGitServer({ checkPushes: false });
  server.createRepo('bench', { seed: files });
  log(
    `dataset: ${CLAIMS} claims over ${MODELS} models, ${Object.keys(files).length} files, ${mb(datasetBytes)} (README ${mb(readmeBytes)}), made and committed in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );
  const figures = {};
  try {
    let steps = {};
    const onStep = (step, ms) => (steps[step] = (steps[step] ?? 0) + ms);
    const stepsLine = () => {
      const line = Object.entries(steps)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`)
        .join(', ');
      steps = {};
      return line;
    };
    const a = new Curator({ url: server.url('bench'), user: 'alice', token: 'alice-token', name: 'Alice', fsName: 'bench-alice', onStep });
    const b = new Curator({ url: server.url('bench'), user: 'bob', token: 'bob-token', name: 'Bob', fsName: 'bench-bob', onStep });

    // First pull: clone and plan, applied to an empty store.
    const first = await measure(() => a.pull());
    figures.firstPull = {
      ms: first.ms,
      ...a.meter,
      peakRss: first.peakRss,
      peakHeap: first.peakHeap,
      added: first.result.outcome.plan.added,
      steps: stepsLine(),
    };
    log(
      `first pull (clone + plan of ${first.result.outcome.plan.added} records): ${(first.ms / 1000).toFixed(2)} s, sent ${kb(a.meter.sent)}, received ${kb(a.meter.received)}, peak RSS ${mb(first.peakRss)}, peak heap ${mb(first.peakHeap)} [${figures.firstPull.steps}]`,
    );
    await b.pull();
    stepsLine();

    // A changes 20 claims in 20 models, and publishes.
    const random = createRandom(20);
    const stamp = '2026-12-01T09:00:00Z';
    const changed = new Set();
    while (changed.size < CHANGED) changed.add(random.int(0, MODELS - 1));
    for (const m of changed) {
      const id = `clm_bench_${String(m * (CLAIMS / MODELS) + random.int(0, CLAIMS / MODELS - 1)).padStart(6, '0')}`;
      const claim = a.store.claim(id);
      // An edit the table shows (the value), so the README changes too.
      a.store.save({ ...claim, value: `${claim.value} (re-checked)`, note: `re-checked by Alice (${m})`, updated_at: stamp });
    }
    const sentBefore = a.meter.sent;
    const receivedBefore = a.meter.received;
    const publish = await measure(() => a.publish());
    const publishSent = a.meter.sent - sentBefore;
    const publishReceived = a.meter.received - receivedBefore;
    const changedFiles = [...new Set([...a.store.records.values()].filter((r) => r.updated_at === stamp).map((r) => dataset.recordPath(r)))];
    const changedBytes = changedFiles.reduce((n, p) => n + Buffer.byteLength(server.git('bench', 'show', `main:${p}`)), 0);
    // What git sends is zlib-compressed: the compressed sizes of the changed model files and of the new README.
    const changedDeflated = changedFiles.reduce((n, p) => n + deflateSync(server.git('bench', 'show', `main:${p}`)).byteLength, 0);
    const readmeDeflated = deflateSync(server.git('bench', 'show', 'main:README.md')).byteLength;
    figures.publish = {
      ms: publish.ms,
      sent: publishSent,
      received: publishReceived,
      peakRss: publish.peakRss,
      peakHeap: publish.peakHeap,
      files: publish.result.plan.models.length,
      changedFilesBytes: changedBytes,
      changedFilesDeflated: changedDeflated,
      readmeDeflated,
      steps: stepsLine(),
    };
    log(
      `publish of ${CHANGED} changed claims in ${publish.result.plan.models.length} models: ${(publish.ms / 1000).toFixed(2)} s, sent ${kb(publishSent)}, received ${kb(publishReceived)}, peak RSS ${mb(publish.peakRss)}, peak heap ${mb(publish.peakHeap)} (the ${changedFiles.length} model files are ${kb(changedBytes)}, ${kb(changedDeflated)} compressed; the README ${mb(readmeBytes)}, ${kb(readmeDeflated)} compressed; the dataset ${mb(datasetBytes)}) [${figures.publish.steps}]`,
    );

    // B pulls A's 20 changes.
    const bSent = b.meter.sent;
    const bReceived = b.meter.received;
    const pull = await measure(() => b.pull());
    const pullSent = b.meter.sent - bSent;
    const pullReceived = b.meter.received - bReceived;
    figures.pull = {
      ms: pull.ms,
      sent: pullSent,
      received: pullReceived,
      peakRss: pull.peakRss,
      peakHeap: pull.peakHeap,
      updated: pull.result.outcome.plan.updated,
      steps: stepsLine(),
    };
    log(
      `pull of another curator's ${pull.result.outcome.plan.updated} changes: ${(pull.ms / 1000).toFixed(2)} s, sent ${kb(pullSent)}, received ${kb(pullReceived)}, peak RSS ${mb(pull.peakRss)}, peak heap ${mb(pull.peakHeap)} [${figures.pull.steps}]`,
    );
  } finally {
    await server.close();
  }
  const loadEnd = os.loadavg()[0];
  const goals = [];
  const goal = (name, holds, figure) => goals.push({ name, holds, figure });
  goal(
    'dataset-publish-3s',
    figures.publish.ms <= 3000,
    `${(figures.publish.ms / 1000).toFixed(2)} s for ${CHANGED} claims in ${figures.publish.files} models of ${CLAIMS}`,
  );
  goal('dataset-pull-3s', figures.pull.ms <= 3000, `${(figures.pull.ms / 1000).toFixed(2)} s for ${figures.pull.updated} changes`);
  // Proportional: what a publish sends and a pull receives stays within twice the changed model files, compressed as git
  // sends them, plus 20 KB for the commit, the trees and the README's delta (a push sends changed files as deltas of the
  // host's versions, a fetch asks for a thin pack): the README and the dataset's size must not show.
  const bound = 2 * figures.publish.changedFilesDeflated + 20 * 1024;
  goal(
    'dataset-bytes-proportional',
    figures.publish.sent <= bound && figures.pull.received <= bound,
    `publish sent ${kb(figures.publish.sent)}, pull received ${kb(figures.pull.received)}; the ${figures.publish.files} changed model files are ${kb(figures.publish.changedFilesDeflated)} compressed (bound 2 × that + 20 KB = ${kb(bound)}); the README ${mb(readmeBytes)}, ${kb(figures.publish.readmeDeflated)} compressed; the dataset ${mb(datasetBytes)}`,
  );
  log(`load average ${loadStart.toFixed(1)} at the start, ${loadEnd.toFixed(1)} at the end (${os.cpus().length} CPUs)`);
  return { figures: { ...figures, datasetBytes, readmeBytes, loadAverage: { start: loadStart, end: loadEnd } }, goals };
}

/** The suite's bench function (suites.mjs): the run's figures and goal lines. */
export async function benchDataset({ log = console.log } = {}) {
  return runDatasetBench({ log });
}

/** The suite's goal lines, from its result. */
export function datasetGoals(result) {
  return result.goals;
}

await runAlone(import.meta.url, benchDataset, datasetGoals, { browser: 'none', extension: false });
