/**
 * WXT stops a content script when the document hears that a newer copy of it
 * started, and a page can forge that event (its name is built from the
 * extension's public id). Recipe Lens never injects a second copy of a script
 * (an extension reload is noticed through the runtime), so the event is
 * stopped before WXT's listener hears it.
 */
import { ContentScriptContext } from 'wxt/utils/content-script-context';

/** Stops "newer copy started" events for the calling content script (each script's bundle names its own). */
export function ignoreForgedRestarts(): void {
  const started = (ContentScriptContext as unknown as { SCRIPT_STARTED_MESSAGE_TYPE: string }).SCRIPT_STARTED_MESSAGE_TYPE;
  window.addEventListener(started, (e) => e.stopImmediatePropagation(), { capture: true });
}
