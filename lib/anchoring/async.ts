/**
 * Cooperative (chunked) versions of building the text index and anchoring
 * many passages, for the content script on large pages: work is done in
 * slices of a few milliseconds and the main thread is given back between
 * slices (`scheduler.yield()` where the browser has it, else a macrotask),
 * so no single task gets long enough to make the page janky.
 */
import type { AnchorResult, AnchorSelectors } from './anchor';
import { AnchorBatch } from './batch';
import { qgramIndexOf } from './qgram';
import { TextIndexBuilder, type TextIndex } from './text-index';

/** Options shared by the chunked functions. */
export interface ChunkOptions {
  /** Milliseconds of work per slice before yielding to the page (default 8). */
  budgetMs?: number;
  /** Aborts the work between slices; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Options of `anchorAllAsync`. */
export interface AnchorAllAsyncOptions extends ChunkOptions {
  /** A prebuilt index of `root` (else one is built, in slices). */
  index?: TextIndex;
  /** Called after each slice with how many passages are settled so far. */
  onProgress?: (done: number, total: number) => void;
}

/** Default slice length in milliseconds. */
export const DEFAULT_BUDGET_MS = 8;
/** DOM nodes read between two clock checks while building an index. */
const NODES_PER_CHECK = 256;
/** How many times a build restarts because the DOM changed under it before it settles for what it read. */
const MAX_RESTARTS = 3;

/** The current time in milliseconds (monotonic where available). */
function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** Gives the main thread back to the page: `scheduler.yield()` when the browser has it, else a zero-delay timeout. */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler && typeof scheduler.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Throws the signal's reason when it has been aborted. */
function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** A slice clock: `over()` says when the current slice has used its budget; `pause()` yields and starts a new slice. */
class Slicer {
  private start = now();
  constructor(
    private readonly budgetMs: number,
    private readonly signal: AbortSignal | undefined,
  ) {}
  over(): boolean {
    return now() - this.start >= this.budgetMs;
  }
  async pause(): Promise<void> {
    await yieldToMain();
    checkAbort(this.signal);
    this.start = now();
  }
}

/**
 * Builds the text index of `root` like `buildTextIndex`, reading the DOM in
 * slices of about `budgetMs` and yielding before the first and between them. If the subtree
 * changes while it is being read, the walk starts over (a few times at most),
 * so the index always describes one state of the DOM.
 */
export async function buildTextIndexAsync(root: Document | Element, options: ChunkOptions = {}): Promise<TextIndex> {
  const { budgetMs = DEFAULT_BUDGET_MS, signal } = options;
  checkAbort(signal);
  const slicer = new Slicer(budgetMs, signal);
  let dirty = false;
  const watch = typeof MutationObserver === 'function' ? new MutationObserver(() => (dirty = true)) : null;
  watch?.observe(root, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
  const changedSince = (): boolean => {
    if (watch && watch.takeRecords().length > 0) dirty = true;
    const was = dirty;
    dirty = false;
    return was;
  };
  try {
    // The walk starts in a task of its own: the caller's task (a script's evaluation, a message's handler) is not
    // made longer by a first slice of it.
    await slicer.pause();
    for (let attempt = 0; ; attempt++) {
      const builder = new TextIndexBuilder(root);
      let changed = false;
      changedSince();
      while (!builder.step(NODES_PER_CHECK)) {
        if (!slicer.over()) continue;
        await slicer.pause();
        if (changedSince() && attempt < MAX_RESTARTS) {
          changed = true;
          break;
        }
      }
      if (changed) continue;
      // Joining the text and its folded twin are a few megabytes of copying each on a large page: one slice each.
      while (!builder.joinStep()) if (slicer.over()) await slicer.pause();
      if (slicer.over()) await slicer.pause();
      return builder.finish();
    }
  } finally {
    watch?.disconnect();
  }
}

/**
 * Anchors many passages like `anchorAll`, in slices: a cheap exact pass
 * first settles every passage whose quote still occurs verbatim, then the
 * approximate search runs only for the rest. Yields to the page whenever a
 * slice has used its budget; results keep the input order and equal
 * `anchorAll`'s. The DOM should not change while this runs (ranges are built
 * from the index); rebuild and call again if it did.
 */
export async function anchorAllAsync(root: Document | Element, list: readonly AnchorSelectors[], options: AnchorAllAsyncOptions = {}): Promise<AnchorResult[]> {
  const { budgetMs = DEFAULT_BUDGET_MS, signal, onProgress } = options;
  const index = options.index ?? (await buildTextIndexAsync(root, { budgetMs, signal }));
  checkAbort(signal);
  const slicer = new Slicer(budgetMs, signal);
  const batch = new AnchorBatch(index, list);
  const tick = async (): Promise<void> => {
    if (!slicer.over()) return;
    onProgress?.(batch.settled, list.length);
    await slicer.pause();
  };
  // A large page's q-gram index, when the batch needs it, is built here in slices rather than inside a passage's search.
  for (;;) {
    if (batch.needsQGramIndex) {
      const q = qgramIndexOf(index, index.folded);
      while (!q.step()) await tick();
    }
    if (!batch.step()) break;
    await tick();
  }
  onProgress?.(batch.settled, list.length);
  return batch.results;
}
