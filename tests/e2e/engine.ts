/** Reaching pdf.js's shared engine from the tests, in either browser: its script in a build, and its status. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ENGINE_STATUS, ENGINE_STATUS_QUERY, type EngineStatus } from '../../lib/pdf/engine-keeper';

/** The engine's script in an unpacked build (`/assets/engine.worker-<hash>.js`). */
export function engineScript(extensionDir: string): string {
  const file = readdirSync(path.join(extensionDir, 'assets')).find((name) => /^engine\.worker-.*\.js$/.test(name));
  if (!file) throw new Error('the build has no engine.worker script');
  return `/assets/${file}`;
}

/** What {@link askEngine} needs, passed into the page. */
export interface EngineQuery {
  script: string;
  query: typeof ENGINE_STATUS_QUERY;
  type: typeof ENGINE_STATUS;
}

/** The argument of {@link askEngine} for a build. */
export function engineQuery(extensionDir: string): EngineQuery {
  return { script: engineScript(extensionDir), query: ENGINE_STATUS_QUERY, type: ENGINE_STATUS };
}

/** Runs in an extension page: connects to the engine and resolves to its status (how many documents are open in it). */
export function askEngine({ script, query, type }: EngineQuery): Promise<EngineStatus> {
  return new Promise<EngineStatus>((resolve) => {
    const engine = new SharedWorker(script, { type: 'module', name: 'pdf.js' });
    engine.port.onmessage = (event) => {
      if (event.data?.type !== type) return;
      engine.port.close();
      resolve(event.data as EngineStatus);
    };
    engine.port.postMessage(query);
  });
}
