/**
 * The one message protocol of Recipe Lens. Calls are grouped by direction
 * (who sends → who answers); each call has a zod schema for its request,
 * checked by the receiver, and a response type. Responses travel as
 * `{ ok: true, data }` or `{ ok: false, error }`: errors are values, never
 * uncaught exceptions.
 */
import { z } from 'zod';
import { ClaimId, ClaimRecord, HttpUrl, ModelRecord, SourceOverride, type SourceCorrection, type SourceKind } from '../schema';
import type { LineError } from '../import/jsonl';

/** Tag on every message of ours, so stray messages are told apart at once. */
export const CHANNEL = 'recipe-lens';

const MAX_BATCH = 500;

/** Requests only a content script (top frame of an http(s) tab) may send to the background. */
export const contentToBackground = {
  /** The claims stored for a page (normalised URL) and the curator's correction of its source, if any. */
  'page.claims': z.object({ url: HttpUrl }),
  /** How the page's claims anchored: sets the toolbar badge to the orphan count. */
  'page.status': z.object({ url: HttpUrl, anchored: z.number().int().nonnegative(), orphans: z.number().int().nonnegative() }),
} as const;

/** Requests a content script or one of the extension's pages may send to the background. */
export const anyToBackground = {
  /** Stores new or edited claims (ids minted by the sender, so a retry never duplicates). */
  'claims.save': z.object({ claims: z.array(ClaimRecord).min(1).max(MAX_BATCH) }),
  /** Deletes claims; the answer carries them so the sender can offer undo. */
  'claims.delete': z.object({ ids: z.array(ClaimId).min(1).max(MAX_BATCH) }),
  /** Puts deleted claims back exactly as they were (undo). */
  'claims.restore': z.object({ claims: z.array(ClaimRecord).min(1).max(MAX_BATCH) }),
  /** Model names already in the store, most used first (completion in the claim form). */
  'models.names': z.object({}),
  /** Corrects a page's source metadata once; every claim on that page follows. */
  'source.correct': z.object({ source: SourceOverride }),
} as const;

/** Requests only the extension's own pages (options, side panel, popup) may send to the background. */
export const pageToBackground = {
  /** Imports survey-record JSONL: all lines valid or nothing stored. */
  'records.import': z.object({ text: z.string().max(64 * 1024 * 1024), fileName: z.string().max(500) }),
  /** Counts of what the store holds. */
  'store.summary': z.object({}),
  /** Every claim and model record, for the evidence panel, as one JSON string (fast to pass between processes). */
  'survey.data': z.object({}),
  /** The claims and model records of the first `models` models in model order: the panel paints these first. */
  'survey.head': z.object({ models: z.number().int().min(1).max(200) }),
  /** Stores a model record (the survey row's judgment, vendor, lineage). */
  'model.save': z.object({ record: ModelRecord }),
  /** Brings a claim's passage back: focuses a tab showing its page and scrolls to it, or opens the page. */
  'claims.reveal': z.object({ id: ClaimId, link: z.string().max(8000).nullable() }),
  /** What the active tab of a window shows: its claims in document order, orphans, and its source. */
  'tab.page': z.object({ windowId: z.number().int() }),
  /** Asks a tab to re-attach an orphan (next selection) or to confirm a drifted passage's new text. */
  'tab.passage': z.object({ tabId: z.number().int(), id: ClaimId, action: z.enum(['reattach', 'confirm']) }),
} as const;

/** Requests the background may send to a tab's content script. */
export const backgroundToContent = {
  /** Opens the claim form for the current selection (context menu, keyboard command). */
  'form.open': z.object({}),
  /** Claims changed somewhere: reload them when `url` is this page (or null: any page). */
  'claims.changed': z.object({ url: HttpUrl.nullable() }),
  /** Scrolls to a claim's painted passage and flashes it. */
  'passage.reveal': z.object({ id: ClaimId }),
  /** Reports the page: its URL, source, and claims in document order. */
  'page.report': z.object({}),
  /** Starts re-attaching an orphan: the curator's next selection becomes its passage. */
  'passage.reattach': z.object({ id: ClaimId }),
  /** Accepts a drifted passage's current text as the claim's quote. */
  'passage.confirm': z.object({ id: ClaimId }),
} as const;

/** What a tab's content script reports about its page. */
export interface PageReport {
  url: string;
  title: string;
  source: { title: string; kind: SourceKind; publisher: string | null; published: string | null; corrected: boolean };
  models: string[];
  /** Claim ids in document order (anchored ones first, by position), then orphans. */
  order: string[];
  orphans: string[];
  /** Claims anchored to text that changed since capture: the stored quote and what the page says now. */
  changed: Array<{ id: string; old: string; now: string }>;
}

/** Result of `records.import`. */
export interface ImportResult {
  fileName: string;
  lines: number;
  stored: boolean;
  added: number;
  updated: number;
  unchanged: number;
  errors: LineError[];
}

/** Response types, per call. */
export interface Responses {
  'page.claims': { claims: ClaimRecord[]; source: SourceCorrection | null };
  'page.status': { badge: string };
  'claims.save': { claims: ClaimRecord[] };
  'claims.delete': { deleted: ClaimRecord[] };
  'claims.restore': { claims: ClaimRecord[] };
  'models.names': { names: string[] };
  'source.correct': { updated: number };
  'records.import': ImportResult;
  'store.summary': { claims: number; models: number; sources: number; pages: number; persisted: boolean | null; modelRecords: ModelRecord[] };
  'survey.data': { json: string };
  'survey.head': { claims: ClaimRecord[]; models: ModelRecord[] };
  'model.save': { record: ModelRecord };
  'claims.reveal': { how: 'tab' | 'opened' };
  'tab.page': { tabId: number; report: PageReport | null; reason: string | null };
  'form.open': { opened: boolean };
  'claims.changed': { reloaded: boolean };
  'page.report': PageReport;
  'passage.reveal': { found: boolean };
  'tab.passage': { done: boolean };
  'passage.reattach': { started: boolean };
  'passage.confirm': { confirmed: boolean };
}

/** Content-script → background call names. */
export type ContentCall = keyof typeof contentToBackground;
/** Calls both content scripts and extension pages may make. */
export type SharedCall = keyof typeof anyToBackground;
/** Extension page → background call names. */
export type PageCall = keyof typeof pageToBackground;
/** Background → content-script call names. */
export type TabCall = keyof typeof backgroundToContent;
/** Every call name. */
export type CallName = ContentCall | SharedCall | PageCall | TabCall;

type ToBackground = typeof contentToBackground & typeof anyToBackground & typeof pageToBackground;
/** The request payload type of a call. */
export type RequestOf<K extends CallName> = K extends keyof ToBackground ? z.input<ToBackground[K]> : K extends TabCall ? z.input<(typeof backgroundToContent)[K]> : never;
/** The validated request type a handler receives. */
export type ParsedRequestOf<K extends CallName> = K extends keyof ToBackground ? z.output<ToBackground[K]> : K extends TabCall ? z.output<(typeof backgroundToContent)[K]> : never;
/** The response type of a call. */
export type ResponseOf<K extends CallName> = Responses[K];

/** A message as it travels. */
export const Envelope = z.object({ channel: z.literal(CHANNEL), type: z.string().max(64), payload: z.unknown() });
export type Envelope = z.infer<typeof Envelope>;

/** An answer as it travels. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: string };

/** Tag of the broadcast the background sends to extension pages when claims change. */
export const NOTICE_CHANNEL = 'recipe-lens-notice';

/** A change broadcast to extension pages (no answer expected). */
export const ChangeNotice = z.object({ channel: z.literal(NOTICE_CHANNEL), type: z.literal('claims.changed'), url: HttpUrl.nullable() });
export type ChangeNotice = z.infer<typeof ChangeNotice>;

/** Builds the change broadcast for a page URL (null: many pages). */
export function changeNotice(url: string | null): ChangeNotice {
  return { channel: NOTICE_CHANNEL, type: 'claims.changed', url };
}
