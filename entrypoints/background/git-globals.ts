/**
 * What git's packages expect of the global scope, set before they load:
 * lightning-fs's text encoder looks for `window` or `global`, and a service
 * worker has neither (it has `self`). Imported first by `dataset.ts`.
 */
const scope = globalThis as { global?: unknown };
scope.global ??= globalThis;

export {};
