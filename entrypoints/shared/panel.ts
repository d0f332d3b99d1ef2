/** Opening the evidence panel: Chrome's side panel, or Firefox's sidebar. Call it inside the user gesture that asked. */
import { browser } from 'wxt/browser';

/** Opens the panel for a window; resolves false where the browser has neither API. */
export async function openEvidencePanel(windowId: number): Promise<boolean> {
  const api = browser as unknown as {
    sidePanel?: { open(options: { windowId: number }): Promise<void> };
    sidebarAction?: { open(): Promise<void> };
  };
  if (api.sidePanel?.open) {
    await api.sidePanel.open({ windowId });
    return true;
  }
  if (api.sidebarAction?.open) {
    await api.sidebarAction.open();
    return true;
  }
  return false;
}
