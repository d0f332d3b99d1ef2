/**
 * Typed clients made from the protocol: one `call(type, request)` function per
 * sender, narrowed to the calls its role may send, so that no one writes a
 * forwarding method by hand. Types only: nothing here runs, so a lean path
 * (the page script, the panel's first rows) may use them without loading zod.
 */
import type { CallName, DocumentSends, PageSends, RequestOf, ResponseOf } from './protocol';

/** The type-only mark that keeps callers of different calls apart (nothing carries it at run time). */
declare const sends: unique symbol;

/**
 * Sends one of the calls `K` to its receiver and resolves with the answer (rejects with the receiver's error).
 * A caller of more calls stands in for a caller of fewer, so a component asks only for the calls it makes; never the
 * other way round (the mark: `K` appears only in a constraint otherwise, where the type checker does not compare it).
 */
export type Caller<K extends CallName> = (<C extends K>(type: C, request: RequestOf<C>) => Promise<ResponseOf<C>>) & {
  readonly [sends]?: (call: K) => void;
};

/** The access of a component that needs nothing from the browser but these calls. */
export interface Calls<K extends CallName> {
  /** Sends one of the component's calls. */
  call: Caller<K>;
}

/** What the PDF viewer may send: it reads a document and is an extension page too. */
export type ViewerSends = DocumentSends | PageSends;

/** The caller of an extension page (options, side panel, popup): the `page` and `any` calls. */
export type PageCaller = Caller<PageSends>;

/** The caller of a document (the page's content scripts): the `document` and `any` calls. */
export type DocumentCaller = Caller<DocumentSends>;

/** The caller of the PDF viewer: a document's calls and an extension page's. */
export type ViewerCaller = Caller<ViewerSends>;
