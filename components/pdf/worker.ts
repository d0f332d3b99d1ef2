/**
 * pdf.js's engine: its worker (a 1.2 MB script), run as a shared worker that every viewer page of the extension
 * connects to, started the moment the viewer's script runs so it parses on its own thread while the viewer's code
 * loads. A report opened while another is open, or soon after (a keeper page holds the engine for a while:
 * `lib/pdf/engine-keeper.ts`), finds it booted and its code warm. Handed to pdf.js as a port
 * (`components/pdf/pdfjs.ts`); without shared workers, a worker of the page's own; where no worker can start
 * (tests), pdf.js starts its own.
 */
import engineUrl from './engine.worker?worker&url';
import { ENGINE_CHANNEL, ENGINE_HELLO, ENGINE_PING_MS, VIEWER_LOCK_PREFIX, type EngineHello, type EnginePing } from '../../lib/pdf/engine-keeper';

/** The script pdf.js runs in its worker. */
export const PDF_WORKER_URL: string = engineUrl;

/** The engine's name: pages that connect to the same script under the same name share one engine. */
const ENGINE_NAME = 'pdf.js';

let started: MessagePort | Worker | null | undefined;

/** A connection to the shared engine (a port), else a worker of this page's own; null when no worker can start here. */
export function connectPdfEngine(): MessagePort | Worker | null {
  try {
    if (typeof SharedWorker === 'function') {
      const shared = new SharedWorker(engineUrl, { type: 'module', name: ENGINE_NAME });
      shared.port.start();
      holdLifeLock(shared.port);
      return shared.port;
    }
    return typeof Worker === 'function' ? new Worker(engineUrl, { type: 'module', name: ENGINE_NAME }) : null;
  } catch {
    return null;
  }
}

/**
 * Holds a Web Lock for as long as this page lives and names it to the engine, which waits on it: the lock is granted
 * to the engine once the page is gone, however it went (closed while its document was still opening, crashed), and
 * the engine then closes the documents this page left open in it.
 */
function holdLifeLock(port: MessagePort): void {
  const locks = typeof navigator === 'object' ? navigator.locks : undefined;
  if (!locks || typeof crypto?.randomUUID !== 'function') return;
  const lock = `${VIEWER_LOCK_PREFIX}${crypto.randomUUID()}`;
  void locks.request(lock, () => {
    const hello: EngineHello = { type: ENGINE_HELLO, lock };
    port.postMessage(hello);
    return new Promise<never>(() => {});
  });
}

/** This page's connection to the engine, made on first call (the viewer calls this first thing). */
export function startPdfWorker(): MessagePort | Worker | null {
  if (started === undefined) started = connectPdfEngine();
  return started;
}

/**
 * Tells the engine's keeper this viewer is open, now, every {@link ENGINE_PING_MS} and when the page goes away (for as
 * long as the page lives), after `ensureKeeper` has been asked to open the keeper. Called once per viewer.
 */
export function keepPdfEngine(ensureKeeper: () => Promise<unknown>): void {
  if (typeof BroadcastChannel !== 'function') return;
  const channel = new BroadcastChannel(ENGINE_CHANNEL);
  const ping: EnginePing = { type: 'viewer' };
  const say = () => channel.postMessage(ping);
  void ensureKeeper().then(say, () => undefined);
  setInterval(say, ENGINE_PING_MS);
  addEventListener('pagehide', say);
}
