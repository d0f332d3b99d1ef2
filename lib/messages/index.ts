/** The message protocol, who may send what, and answering calls (the browser transport is glue outside `lib`). */
export * from './protocol';
export type * from './caller';
export * from './roles';
export * from './dispatch';
export { CallError, unwrapReply, callNameOf, isChangeNotice } from './channel';
export { isContextInvalidated, isTransient, withRetry } from './retry';
