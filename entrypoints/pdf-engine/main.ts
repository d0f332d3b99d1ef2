import { connectPdfEngine } from '../../components/pdf/worker';
import { ENGINE_CHANNEL, EngineKeeper, isEnginePing } from '../../lib/pdf/engine-keeper';
import { callAsPage } from '../shared/calls';

/**
 * The engine's keeper (an offscreen document on Chromium): holds a connection to pdf.js's shared engine so it stays
 * booted between reports, and asks the background to close it once no viewer has said it is open for a while
 * (`lib/pdf/engine-keeper.ts`); the engine then ends with the last viewer.
 */
function main(): void {
  connectPdfEngine();
  const channel = new BroadcastChannel(ENGINE_CHANNEL);
  const keeper = new EngineKeeper(
    () => {
      channel.close();
      void callAsPage('pdf.engine', { keep: false });
    },
    { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
  );
  channel.onmessage = (event) => {
    if (isEnginePing(event.data)) keeper.heard();
  };
}

main();
