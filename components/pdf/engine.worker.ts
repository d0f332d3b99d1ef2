/**
 * pdf.js's worker as a shared worker: the engine every viewer page of the extension connects to (and the keeper
 * that holds it between reports: `lib/pdf/engine-keeper.ts`), so a report opened after another finds pdf.js's code
 * loaded, compiled and warm. Each connection gets pdf.js's own handler; the engine also keeps count of the documents
 * open over each connection (a viewer closes its document when its page goes away) and tells that count to whoever
 * asks ({@link ENGINE_STATUS}). Started as a page's own worker (no shared workers), pdf.js sets itself up as usual.
 */
// @ts-expect-error pdf.js ships no types for its worker module.
import { WorkerMessageHandler } from 'pdfjs-dist/build/pdf.worker.min.mjs';
import { ENGINE_STATUS, isEngineHello, isEngineStatusQuery, type EngineStatus } from '../../lib/pdf/engine-keeper';

interface ConnectEvent {
  readonly ports: readonly MessagePort[];
}

/** The documents open in this engine, per connection (pdf.js numbers documents per page: "d0", "d1"…). */
const open = new Map<MessagePort, Set<string>>();

/** Counts the documents a connection opens and closes, from pdf.js's own messages, and answers status queries. */
function track(port: MessagePort): void {
  const docs = new Set<string>();
  open.set(port, docs);
  port.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { action?: unknown; targetName?: unknown; data?: { docId?: unknown } } | null;
    if (isEngineHello(data)) void navigator.locks?.request(data.lock, () => closeAll(port));
    else if (isEngineStatusQuery(data)) {
      let documents = 0;
      for (const set of open.values()) documents += set.size;
      const status: EngineStatus = { type: ENGINE_STATUS, documents };
      port.postMessage(status);
    } else if (data?.action === 'GetDocRequest' && typeof data.data?.docId === 'string') docs.add(data.data.docId);
    else if (data?.action === 'Terminate' && typeof data.targetName === 'string') docs.delete(data.targetName.replace(/_worker$/, ''));
  });
}

/**
 * Closes every document a connection left open, as pdf.js's own "Terminate" from its page would have: the page is
 * gone (its lock was granted to the engine) without closing them.
 */
function closeAll(port: MessagePort): void {
  const docs = open.get(port);
  open.delete(port);
  for (const docId of docs ?? []) {
    port.dispatchEvent(new MessageEvent('message', { data: { sourceName: docId, targetName: `${docId}_worker`, action: 'Terminate', data: null } }));
  }
  port.close();
}

(self as unknown as { onconnect: (event: ConnectEvent) => void }).onconnect = (event) => {
  const port = event.ports[0];
  if (!port) return;
  track(port);
  WorkerMessageHandler.initializeFromPort(port);
  port.start();
};
