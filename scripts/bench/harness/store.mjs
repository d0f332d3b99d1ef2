// The extension's store at benchmark sizes, and what its service worker holds: filling the database
// quickly from inside the service worker (raw puts of generated records, shaped like records.mjs's; the
// suites that time imports import through the options page instead), the service worker's JS heap read
// over the DevTools protocol, stopping the worker and watching it start, and the page lookup's round trip
// from a page script's world.

/** Stops the extension's service worker (as the browser does after 30 s idle), so the next call starts it again. */
export async function stopServiceWorker(context, page) {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * Watches the service worker of extension `extensionId` through a page's DevTools session (the ServiceWorker
 * domain): `states` are the running states it reports, in order (`stopped`, `starting`, `running`, `stopping`);
 * `stop()` stops it (`ServiceWorker.stopWorker`) and `start()` starts it, each waiting until it has;
 * `startsSince(i)` counts its starts after `states[i]` (changes to `starting`: the protocol may report one state
 * several times); `detach()` ends the session.
 */
export async function watchServiceWorker(context, page, extensionId) {
  const cdp = await context.newCDPSession(page);
  const scope = `chrome-extension://${extensionId}/`;
  const states = [];
  let versionId = null;
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions.filter((v) => v.scriptURL.startsWith(scope))) {
      versionId = v.versionId;
      states.push(v.runningStatus);
    }
  });
  const until = async (done, what) => {
    const deadline = Date.now() + 15_000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`the service worker of ${extensionId} did not report ${what} (last state: ${states.at(-1) ?? 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await cdp.send('ServiceWorker.enable');
  await until(() => versionId !== null, 'itself');
  return {
    states,
    async stop() {
      await cdp.send('ServiceWorker.stopWorker', { versionId });
      await until(() => states.at(-1) === 'stopped', 'stopped');
    },
    async start() {
      await cdp.send('ServiceWorker.startWorker', { scopeURL: scope });
      await until(() => states.at(-1) === 'running', 'running');
    },
    startsSince: (from) => states.filter((s, i) => i >= from && s === 'starting' && states[i - 1] !== 'starting').length,
    detach: () => cdp.detach().catch(() => undefined),
  };
}

/** The service worker of the extension in `context` (waits for it to start). */
export async function serviceWorker(context) {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
}

/**
 * Adds generated claims `from` … `to − 1` (ids `bench_000000` on, as records.mjs's generateStore makes
 * them: spread over `models` models, three source pages each) and a model record per model, straight into
 * the extension's database (a page's claims in one value) from its service worker, 10,000 per transaction. The database must exist
 * (open the options page first). Returns the time taken.
 */
export async function seedStore(context, { from = 0, to, models = 500 }) {
  const worker = await serviceWorker(context);
  const t0 = Date.now();
  await worker.evaluate(
    async ({ from, to, models }) => {
      const KINDS = ['stage', 'algorithm', 'framework', 'reward', 'system', 'intention', 'undisclosed'];
      const VALUES = ['GRPO', 'GSPO', 'CISPO', 'PPO', 'DPO', 'IcePop', 'slime', 'verl', 'rule-based reward', 'RLVR'];
      const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open('recipe-lens');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const claim = (i) => {
        const m = i % models;
        const value = VALUES[i % VALUES.length];
        return {
          schema: 'rl-survey.claim/1',
          id: `bench_${String(i).padStart(6, '0')}`,
          model: `Model-${m}`,
          recipe: null,
          kind: KINDS[i % KINDS.length],
          stage: null,
          value,
          evidence: 'B',
          evidence_reason: null,
          quote: {
            exact: `Model-${m} was post-trained with ${value} in stage ${i % 7}; passage ${i} describes the rollout, reward and the data mix used.`,
            prefix: 'previous sentence ends here. ',
            suffix: ' The next sentence follows.',
          },
          position: null,
          source: {
            url: `https://example.org/model-${m}/source-${i % 3}`,
            title: `Model-${m} report ${i % 3}`,
            kind: 'official_blog',
            publisher: null,
            published: '2026-10-01',
            accessed: '2026-11-20',
          },
          link: null,
          note: '',
          curator: 'bench',
          created_at: '2026-11-20T00:00:00Z',
          updated_at: '2026-11-20T00:00:00Z',
        };
      };
      for (let start = from; start < to; start += 10_000) {
        await new Promise((resolve, reject) => {
          const tx = db.transaction(['pages', 'models'], 'readwrite', { durability: 'relaxed' });
          const pages = tx.objectStore('pages');
          // A page's claims are one value (lib/db/pages.ts): group by URL, add to what the page already holds.
          const groups = new Map();
          for (let i = start; i < Math.min(to, start + 10_000); i++) {
            const c = claim(i);
            if (!groups.has(c.source.url)) groups.set(c.source.url, []);
            groups.get(c.source.url).push(c);
          }
          for (const [url, added] of groups) {
            pages.get(url).onsuccess = (event) => {
              const list = [...(event.target.result?.claims ?? []), ...added].sort((a, b) => (a.id < b.id ? -1 : 1));
              pages.put({ url, claims: list, ids: list.map((c) => c.id), models: [...new Set(list.map((c) => c.model))], fingerprints: [], arxiv: [] });
            };
          }
          if (start === from)
            for (let m = 0; m < models; m++)
              tx.objectStore('models').put({
                schema: 'rl-survey.model/1',
                model: `Model-${m}`,
                recipe: null,
                vendor: null,
                based_on: null,
                judgment: '',
                updated_at: '2026-11-01T00:00:00Z',
                key: `Model-${m}`,
              });
          tx.oncomplete = resolve;
          tx.onerror = () => reject(tx.error);
        });
      }
      db.close();
    },
    { from, to, models },
  );
  return Date.now() - t0;
}

/** Runs one DevTools protocol call in the service worker's own target (through a page's session: non-flat attachment). */
async function inServiceWorker(context, page, calls) {
  const cdp = await context.newCDPSession(page);
  try {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://'));
    if (!target) return null;
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false });
    let id = 0;
    const results = [];
    for (const [method, params] of calls) {
      const mine = ++id;
      const reply = new Promise((resolve) => {
        const on = (e) => {
          const m = JSON.parse(e.message);
          if (m.id === mine) {
            cdp.off('Target.receivedMessageFromTarget', on);
            resolve(m);
          }
        };
        cdp.on('Target.receivedMessageFromTarget', on);
      });
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: mine, method, params: params ?? {} }) });
      results.push((await reply).result);
    }
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    return results;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The service worker's JS heap in use after a full garbage collection (bytes), or null when no worker runs. */
export async function serviceWorkerHeap(context, page) {
  const r = await inServiceWorker(context, page, [['HeapProfiler.collectGarbage'], ['Runtime.getHeapUsage']]);
  return r ? r[1].usedSize : null;
}

/**
 * A page's memory in its JS engine after a full garbage collection (bytes): `heap` in use by the isolate
 * (the page and our content scripts' worlds) and `buffers`, the backing stores of its ArrayBuffers and
 * typed arrays, which live outside that heap; `total` is both.
 */
export async function pageHeap(context, page) {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = await cdp.send('Runtime.getHeapUsage');
    return { heap: usage.usedSize, buffers: usage.backingStorageSize ?? 0, total: usage.usedSize + (usage.backingStorageSize ?? 0) };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The page lookup's round trip as a page script makes it: `document.claims` for `url`, sent from the content
 * script's isolated world of `page` (a page of ours already loaded), `runs` times; returns the times (ms).
 */
export async function lookupTimes(context, page, url, runs = 5) {
  const cdp = await context.newCDPSession(page);
  try {
    const contexts = [];
    cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
    await cdp.send('Runtime.enable');
    const world = contexts.filter((c) => c.auxData?.type === 'isolated' && !c.name.startsWith('__playwright')).at(-1);
    if (!world) throw new Error('no content-script world on the page');
    const r = await cdp.send('Runtime.evaluate', {
      contextId: world.id,
      awaitPromise: true,
      returnByValue: true,
      // The page script's own call (`document.claims`); an answer that is not a success fails the bench, so an error's round trip is never timed as a lookup.
      expression: `(async () => { const out = []; for (let i = 0; i < ${runs}; i++) { const t = performance.now(); const reply = await chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'document.claims', payload: { url: ${JSON.stringify(url)} } }); if (!reply?.ok) throw new Error('lookup failed: ' + JSON.stringify(reply)); out.push([performance.now() - t, reply.data.claims.length]); } return out; })()`,
    });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
