/** What the PDF viewer needs from the rest of the extension; the viewer page's entrypoint provides it. */
import type { DocumentCall, Handlers } from '../../lib/messages';
import type { CaptureApi } from '../capture/surface';

/** The viewer's access to the store and the browser: the capture API's `call`, and what only the viewer needs. */
export interface ViewerApi extends CaptureApi {
  /** Answers the background's calls to this tab (open the form, reveal, report, re-attach, confirm, the finder); returns a function that stops. */
  listen(handlers: Handlers<DocumentCall>): () => void;
  /** Whether the browser lets the extension read local files (null when it cannot tell). */
  fileAccess(): Promise<boolean | null>;
  /** Keeps pdf.js's engine booted for the next report; the session calls it once, when this report is sharp (`components/pdf/worker.ts`). */
  keepEngine(): void;
}
