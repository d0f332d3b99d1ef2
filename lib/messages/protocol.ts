/**
 * The one message protocol of Recipe Lens. Calls are grouped by direction
 * (who sends → who answers); each call has a zod schema for its request,
 * checked by the receiver, and a response type. Responses travel as
 * `{ ok: true, data }` or `{ ok: false, error }`: errors are values, never
 * uncaught exceptions.
 */
import { z } from 'zod';
import { ClaimId, ClaimRecord, HttpUrl, ModelRecord, SourceOverride, type ClaimKind, type SourceCorrection, type SourceKind, type Stage } from '../schema';
import type { LineError } from '../import/jsonl';
import type { FieldDiff } from '../import/merge';
import { IMPORT_FORMATS, IMPORT_MODES, MAX_IMPORT_BYTES, type ImportFormat, type ImportMode } from '../import/formats';

import { CHANNEL } from './channel';

export { CHANNEL };

const MAX_BATCH = 500;

/** A finder candidate's key: 16 hex digits (a hash of its sentence). */
const CandidateKey = z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hex digits');

/** Requests only a content script (top frame of an http(s) tab) may send to the background. */
export const contentToBackground = {
  /** The claims stored for a page (normalised URL) and the curator's correction of its source, if any. */
  'page.claims': z.object({ url: HttpUrl }),
  /** How the page's claims anchored: sets the toolbar badge to the orphan count. */
  'page.status': z.object({ url: HttpUrl, anchored: z.number().int().nonnegative(), orphans: z.number().int().nonnegative() }),
  /** Loads the capture script (toolbar, form, painting) into the sender's page: its small page script asks once it is needed. */
  'capture.load': z.object({}),
} as const;

/** A site the curator opted in to automatic finder runs: a host name, `*.` for its subdomains. */
export const FinderSite = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/, 'must be a host name such as example.com or *.example.com');

/** Address of a PDF the viewer can open: http(s), or a local file when the browser allows it. */
const PdfUrl = z
  .string()
  .max(8000)
  .refine((s) => /^(https?|file):\/\//i.test(s), 'must be an http(s) or file URL');

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
  /** Keys of the finder's candidates the curator dismissed on a page (normalised URL; a PDF's address in the viewer). */
  'dismissals.get': z.object({ url: HttpUrl }),
  /** Remembers a dismissed finder candidate for a page, so it does not come back. */
  'dismissals.add': z.object({ url: HttpUrl, key: CandidateKey, sentence: z.string().max(4000) }),
} as const;

/** Requests only the extension's own pages (options, side panel, popup) may send to the background. */
export const pageToBackground = {
  /**
   * Checks an import file (JSONL, W3C annotations or a backup) against the store, storing nothing: counts,
   * conflicts, errors by line. The file comes as `text`, or as the id of an `Upload` handed over before.
   */
  'import.preview': z
    .object({
      text: z.string().max(MAX_IMPORT_BYTES).optional(),
      upload: z.string().max(100).optional(),
      fileName: z.string().max(500),
      format: z.enum(IMPORT_FORMATS),
      mode: z.enum(IMPORT_MODES),
    })
    .refine((r) => (r.text === undefined) !== (r.upload === undefined), 'give the file as text or as an upload, not both'),
  /** Stores a previewed import in one transaction, each conflict resolved as chosen (`rest` for those not listed); the file again (`text` or `upload`) only when the preview expired. */
  'import.commit': z.object({
    token: z.string().max(100),
    text: z.string().max(MAX_IMPORT_BYTES).optional(),
    upload: z.string().max(100).optional(),
    fileName: z.string().max(500),
    format: z.enum(IMPORT_FORMATS),
    mode: z.enum(IMPORT_MODES),
    resolutions: z.array(z.object({ ref: z.string().max(1000), take: z.enum(['mine', 'theirs']) })).max(200_000),
    rest: z.enum(['mine', 'theirs']),
  }),
  /** A full backup of the store as one document; records the backup time. */
  'backup.create': z.object({}),
  /** When the store was last backed up, how much changed since, and whether to remind the curator. */
  'backup.status': z.object({}),
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
  /** Runs the claim finder in a tab, or accepts or dismisses one of its candidates there (`key`), or records the page as not disclosed. */
  'tab.finder': z
    .object({ tabId: z.number().int(), action: z.enum(['run', 'accept', 'dismiss', 'undisclosed']), key: CandidateKey.optional() })
    .refine(
      (r) => (r.action === 'accept' || r.action === 'dismiss') === (r.key !== undefined),
      'accept and dismiss name a candidate key; run and undisclosed do not',
    ),
  /** The claims of a PDF open in the viewer: by its URL, its fingerprint and its arXiv id, plus the URL's source correction. */
  'pdf.claims': z.object({ url: HttpUrl.nullable(), fingerprint: z.string().min(1).max(200), arxiv: z.string().max(40).nullable() }),
  /** How a PDF's claims anchored in the viewer's tab: sets that tab's badge like `page.status`. */
  'pdf.status': z.object({ anchored: z.number().int().nonnegative(), orphans: z.number().int().nonnegative() }),
  /** Opens a PDF in the viewer: in the given tab (replacing what it shows) or in a new tab. */
  'pdf.open': z.object({ url: PdfUrl, tabId: z.number().int().nullable(), page: z.number().int().positive().nullable() }),
  /** The PDF the active tab of a window shows (by its address, else by asking the server), if any. */
  'tab.pdf': z.object({ windowId: z.number().int() }),
  /** The curator's settings. */
  'settings.get': z.object({}),
  /** Changes some of the curator's settings. */
  'settings.set': z.object({
    pdfAutoOpen: z.boolean().optional(),
    locale: z.enum(['auto', 'en', 'zh_CN']).optional(),
    finderSites: z.array(FinderSite).max(500).optional(),
  }),
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
  /** Runs the claim finder over the page's text: paints and lists its candidates. */
  'finder.run': z.object({}),
  /** Opens the claim form prefilled from a candidate (nothing is stored until the curator saves). */
  'finder.accept': z.object({ key: CandidateKey }),
  /** Dismisses a candidate: it is remembered for this page and never offered again. */
  'finder.dismiss': z.object({ key: CandidateKey }),
  /** Opens the claim form prefilled as "not disclosed", with the page as the source. */
  'finder.undisclosed': z.object({}),
} as const;

/** A candidate claim as the finder reports it to the panel and the popup. */
export interface FinderCandidate {
  key: string;
  kind: ClaimKind;
  value: string;
  stage: Stage | null;
  model: string | null;
  /** The sentence (at most 400 characters). */
  sentence: string;
  /** 1 for the best-scored candidate, 2 for the next, … */
  rank: number;
}

/** What the claim finder found on a page (candidates in document order). */
export interface FinderReport {
  url: string;
  candidates: FinderCandidate[];
  talksAboutRl: boolean;
  /** The page talks about RL but no candidate names a stage or algorithm: offer "record as not disclosed". */
  suggestUndisclosed: boolean;
}

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

/** The curator's settings as the background reports them. */
export interface CuratorSettings {
  /** PDF navigations open in Recipe Lens's viewer. */
  pdfAutoOpen: boolean;
  /** The language of the extension's pages: 'auto' follows the browser. */
  locale: 'auto' | 'en' | 'zh_CN';
  /** Sites (host names, `*.` for subdomains) where the claim finder runs by itself. */
  finderSites: string[];
}

/** How many of each record kind. */
export interface RecordCounts {
  claims: number;
  models: number;
  sources: number;
}

/** A conflict shown side by side: the stored version ("mine", `ours`) and the file's ("theirs"), field by field. */
export interface ConflictView {
  ref: string;
  label: string;
  diffs: FieldDiff[];
}

/** What importing a file would do (`import.preview`); nothing is stored. */
export interface ImportPreview {
  fileName: string;
  format: ImportFormat;
  mode: ImportMode;
  /** Pass to `import.commit`; null when the file cannot be imported (see `errors`). */
  token: string | null;
  /** Lines, annotations or backup entries read. */
  items: number;
  incoming: RecordCounts;
  added: number;
  /** Merge: replaced by a newer version. Replace: stored records the file holds again. */
  updated: number;
  unchanged: number;
  /** Replace mode: stored records the file does not hold (they go). */
  removed: number;
  /** The first conflicts (at most 500); `conflictCount` counts them all. */
  conflicts: ConflictView[];
  conflictCount: number;
  /** The first errors (at most 200); `errorCount` counts them all. */
  errors: LineError[];
  errorCount: number;
  /** Replace mode: what the store holds now. */
  store: RecordCounts | null;
}

/** What `import.commit` stored, or that its preview is gone (send the text again). */
export type ImportOutcome =
  | {
      status: 'stored';
      fileName: string;
      mode: ImportMode;
      items: number;
      added: number;
      updated: number;
      unchanged: number;
      removed: number;
      kept: number;
      taken: number;
    }
  | { status: 'expired' };

/** Backups: the last one, changes since, and whether a reminder is due. */
export interface BackupStatus {
  lastBackupAt: string | null;
  changes: number;
  due: boolean;
  reason: string | null;
  /** When due by time: the days since the last backup (or the first change). */
  days?: number;
}

/** Response types, per call. */
export interface Responses {
  /** `autoFind`: the curator opted this site in to automatic finder runs. */
  'page.claims': { claims: ClaimRecord[]; source: SourceCorrection | null; autoFind?: boolean };
  'page.status': { badge: string };
  'capture.load': { loaded: boolean };
  'dismissals.get': { keys: string[] };
  'dismissals.add': { stored: boolean };
  'finder.dismiss': { dismissed: boolean };
  'claims.save': { claims: ClaimRecord[] };
  'claims.delete': { deleted: ClaimRecord[] };
  'claims.restore': { claims: ClaimRecord[] };
  'models.names': { names: string[] };
  'source.correct': { updated: number };
  'import.preview': ImportPreview;
  'import.commit': ImportOutcome;
  'backup.create': { text: string; createdAt: string; counts: RecordCounts };
  'backup.status': BackupStatus;
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
  'finder.run': FinderReport;
  'finder.accept': { opened: boolean };
  'finder.undisclosed': { opened: boolean };
  'tab.finder': { report: FinderReport | null; opened: boolean };
  'pdf.claims': { claims: ClaimRecord[]; source: SourceCorrection | null };
  'pdf.status': { badge: string };
  'pdf.open': { tabId: number };
  'tab.pdf': { tabId: number; url: string | null };
  'settings.get': CuratorSettings;
  'settings.set': CuratorSettings;
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
export type RequestOf<K extends CallName> = K extends keyof ToBackground
  ? z.input<ToBackground[K]>
  : K extends TabCall
    ? z.input<(typeof backgroundToContent)[K]>
    : never;
/** The validated request type a handler receives. */
export type ParsedRequestOf<K extends CallName> = K extends keyof ToBackground
  ? z.output<ToBackground[K]>
  : K extends TabCall
    ? z.output<(typeof backgroundToContent)[K]>
    : never;
/** The response type of a call. */
export type ResponseOf<K extends CallName> = Responses[K];

/** A message as it travels. */
export const Envelope = z.object({ channel: z.literal(CHANNEL), type: z.string().max(64), payload: z.unknown() });
export type Envelope = z.infer<typeof Envelope>;

/** An answer as it travels. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: string };

/**
 * Tag of a file's text handed by an extension page straight to the service worker (`postMessage` to its
 * registration: several times faster than a runtime message for megabytes), then named in `import.preview`.
 */
export const UPLOAD_CHANNEL = 'recipe-lens-upload';

/** One handed-over file text; the worker answers `{ ok: true }` on the message's port once it holds it. */
export const Upload = z.object({ channel: z.literal(UPLOAD_CHANNEL), id: z.string().min(8).max(100), text: z.string().max(MAX_IMPORT_BYTES) });
export type Upload = z.infer<typeof Upload>;

/** Tag of the broadcast the background sends to extension pages when claims change. */
export const NOTICE_CHANNEL = 'recipe-lens-notice';

/** A change broadcast to extension pages (no answer expected). */
export const ChangeNotice = z.object({ channel: z.literal(NOTICE_CHANNEL), type: z.literal('claims.changed'), url: HttpUrl.nullable() });
export type ChangeNotice = z.infer<typeof ChangeNotice>;

/** Builds the change broadcast for a page URL (null: many pages). */
export function changeNotice(url: string | null): ChangeNotice {
  return { channel: NOTICE_CHANNEL, type: 'claims.changed', url };
}
