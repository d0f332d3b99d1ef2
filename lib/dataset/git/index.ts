/**
 * Git as the team's shared store: the sync engine over isomorphic-git, with
 * the file system and HTTP client passed in. Import this only where git work
 * runs (an extension page or offscreen document, Node); `lib/dataset` itself
 * stays free of git.
 */
import { Buffer } from 'buffer';

export * from './engine';
export * from './errors';
export * from './http';
export * from './review';
export { cloneIsComplete, gitdirOf, removeTree, type GitFs } from './store';

/** isomorphic-git needs `Buffer`; extension pages and workers have none: set the `buffer` package's before any git work. */
export function installBuffer(): void {
  const scope = globalThis as { Buffer?: unknown };
  scope.Buffer ??= Buffer;
}
