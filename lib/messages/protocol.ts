/**
 * The one message protocol of Recipe Lens: one entry per call, carrying who
 * may send it (`from`), the zod schema of its request (checked by the
 * receiver before any handler runs) and the type of its response, side by
 * side. Responses travel as `{ ok: true, data }` or `{ ok: false, error }`:
 * errors are values, never uncaught exceptions.
 *
 * Who sends (`Role`):
 * - `document`: a document being read — our content script in the top frame of an http(s) tab, or the PDF viewer;
 * - `page`: one of the extension's own pages (options, side panel, popup, the PDF viewer too);
 * - `any`: either;
 * - `background`: the service worker, calling a document in a tab (the document answers).
 */
import { z } from 'zod';
import type { BackupStatus } from '../backup';
import type { FinderReport } from '../capture/finder';
import type { PageReport } from '../capture/page-report';
import { IMPORT_FORMATS, IMPORT_MODES, MAX_IMPORT_BYTES } from '../import/formats';
import { ClaimId, ClaimRecord, HttpUrl, ModelRecord, type SourceCorrection, SourceOverride, type SourceRecord } from '../schema';
import { type Settings, SettingsPatch } from '../settings';
import type { TextPart } from './text-parts';
import {
  type ConnectionCheck,
  DatasetLink,
  type DatasetOutcome,
  type DatasetStatus,
  DatasetToken,
  type DatasetView,
  type PublishDone,
  type PublishDryRun,
  type PullDone,
} from '../dataset/link';
import type { ImportOutcome, ImportPreview, RecordCounts } from '../transfer';
import { RecheckScope, type RecheckRun } from '../recheck/run';
import { SourceFindings, type StoredRecheck } from '../recheck/stored';
import { CHANNEL, NOTICE_CHANNEL } from './channel';

export { CHANNEL, NOTICE_CHANNEL };

/** Who may send a call (see the file's comment). */
export type Role = 'document' | 'page' | 'any' | 'background';

/** The response type of a call: a type only, nothing at run time. */
function answer<T>(): T {
  return undefined as T;
}

const MAX_BATCH = 500;

/** A finder candidate's key: 16 hex digits (a hash of its sentence). */
const CandidateKey = z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hex digits');

/** Address of a PDF the viewer can open: http(s), or a local file when the browser allows it. */
const PdfUrl = z
  .string()
  .max(8000)
  .refine((s) => /^(https?|file):\/\//i.test(s), 'must be an http(s) or file URL');

/** How the store knows a document: its page address (null: a local PDF not given one yet), and a PDF's fingerprint and arXiv id. */
export const DocumentKey = z
  .object({
    url: HttpUrl.nullable(),
    /** A page's canonical link as the page offers it: the background decides whether it is honoured (`lib/messages/addresses.ts`). */
    canonical: z.string().max(8000).nullable().optional(),
    pdf: z.object({ fingerprint: z.string().min(1).max(200), arxiv: z.string().max(40).nullable() }).optional(),
  })
  .refine((key) => key.url !== null || key.pdf !== undefined, 'a web page is known by its address');
export type DocumentKey = z.infer<typeof DocumentKey>;

/** A document's claims and the curator's correction of its source, as the store answers. */
export interface DocumentClaims {
  /** The address the store answered for: for a page, the one the browser says it has (or its same-site canonical). */
  url?: string | null;
  /** That address's site (registrable domain by the Public Suffix List; null: none), for the capture script's detector. */
  site?: string | null;
  claims: ClaimRecord[];
  source: SourceCorrection | null;
  /** The curator opted this site in to automatic finder runs. */
  autoFind?: boolean;
}

/** Import and restore requests: the file as `text`, or as the id of an `Upload` handed over before. */
const ImportFile = {
  text: z.string().max(MAX_IMPORT_BYTES).optional(),
  upload: z.string().max(100).optional(),
  fileName: z.string().max(500),
  format: z.enum(IMPORT_FORMATS),
  mode: z.enum(IMPORT_MODES),
};

/**
 * A protocol entry whose request names document addresses: `speaksFor` lists them, and the receiver checks that the
 * sender may speak for each (`lib/messages/addresses.ts`) before the handler runs.
 */
function addressed<F extends Role, S extends z.ZodType, R>(entry: {
  from: F;
  request: S;
  response: R;
  speaksFor: (request: z.output<S>) => Array<string | null>;
}) {
  return entry;
}

/** Every call, by name. */
export const protocol = {
  // ── Documents ask for their claims and report how they anchored ──────────
  /** The claims stored for a document (a page's normalised URL; a PDF also by fingerprint and arXiv id) and its source correction. */
  'document.claims': addressed({ from: 'document', request: DocumentKey, response: answer<DocumentClaims>(), speaksFor: (r) => [r.url] }),
  /** How the sender's document anchored its claims: sets its tab's toolbar badge. */
  'document.status': {
    from: 'document',
    request: z.object({ anchored: z.number().int().nonnegative(), orphans: z.number().int().nonnegative() }),
    response: answer<{ badge: string }>(),
  },
  /** Loads the capture script (toolbar, form, painting) into the sender's page: its small page script asks once it is needed. */
  'capture.load': {
    from: 'document',
    // `styles`: the highlights' stylesheet comes too (the painting script, which brings it, did not run here).
    request: z.object({ styles: z.boolean().optional() }),
    response: answer<{ loaded: boolean }>(),
  },
  /** Loads the painting script (anchoring and highlights, no UI) into the sender's page: its page script asks once it found claims. */
  'paint.load': { from: 'document', request: z.object({}), response: answer<{ loaded: boolean }>() },

  // ── Claims ────────────────────────────────────────────────────────────────
  /** Stores new or edited claims (ids minted by the sender, so a retry never duplicates). */
  'claims.save': addressed({
    from: 'any',
    request: z.object({ claims: z.array(ClaimRecord).min(1).max(MAX_BATCH) }),
    response: answer<{ claims: ClaimRecord[] }>(),
    speaksFor: (r) => r.claims.map((c) => c.source.url),
  }),
  /** Deletes claims; the answer carries them so the sender can offer undo. */
  'claims.delete': { from: 'any', request: z.object({ ids: z.array(ClaimId).min(1).max(MAX_BATCH) }), response: answer<{ deleted: ClaimRecord[] }>() },
  /** Puts deleted claims back exactly as they were (undo). */
  'claims.restore': addressed({
    from: 'any',
    request: z.object({ claims: z.array(ClaimRecord).min(1).max(MAX_BATCH) }),
    response: answer<{ claims: ClaimRecord[] }>(),
    speaksFor: (r) => r.claims.map((c) => c.source.url),
  }),
  /**
   * Claims under an address whose site the stricter rule (the Public Suffix List) judges otherwise than the rule
   * before it, not yet acknowledged: kept, and listed once for the curator to check (`lib/source/address-review.ts`).
   */
  'addresses.review': { from: 'page', request: z.object({}), response: answer<{ claims: ClaimRecord[] }>() },
  /** The curator checked these claims of the notice: it does not list them again. */
  'addresses.acknowledge': { from: 'page', request: z.object({ ids: z.array(ClaimId).max(100_000) }), response: answer<{ acknowledged: number }>() },
  /** Model names already in the store, most used first (completion in the claim form). */
  'models.names': { from: 'any', request: z.object({}), response: answer<{ names: string[] }>() },
  /** Corrects a page's source metadata once; every claim on that page follows. */
  'source.correct': addressed({
    from: 'any',
    request: z.object({ source: SourceOverride }),
    response: answer<{ updated: number }>(),
    speaksFor: (r) => [r.source.url],
  }),
  /** Brings a claim's passage back: focuses a tab showing its page and scrolls to it, or opens the page. */
  'claims.reveal': {
    from: 'page',
    request: z.object({ id: ClaimId, link: z.string().max(8000).nullable() }),
    response: answer<{ how: 'tab' | 'opened' }>(),
  },

  // ── The whole survey ──────────────────────────────────────────────────────
  /** Counts of what the store holds. */
  'store.summary': {
    from: 'page',
    request: z.object({}),
    response: answer<{ claims: number; models: number; sources: number; pages: number; persisted: boolean | null; modelRecords: ModelRecord[] }>(),
  },
  /** Every claim and model record (and the source records), for the evidence panel, as one JSON string (fast to pass between processes). */
  'survey.data': {
    from: 'page',
    // Without `read`, a new read: the store serialised once, answered with its first part (`lib/messages/text-parts.ts`).
    request: z.object({ read: z.string().min(1).max(64).optional(), from: z.number().int().min(0).optional() }),
    response: answer<TextPart>(),
  },
  /** The claims and model records of the first `models` models in model order (and their sources' records): the panel paints these first. */
  'survey.head': {
    from: 'page',
    request: z.object({ models: z.number().int().min(1).max(200) }),
    response: answer<{ claims: ClaimRecord[]; models: ModelRecord[]; sources?: SourceRecord[] }>(),
  },
  /** Stores a model record (the survey row's judgment, vendor, lineage). */
  'model.save': { from: 'page', request: z.object({ record: ModelRecord }), response: answer<{ record: ModelRecord }>() },

  // ── The claim finder ──────────────────────────────────────────────────────
  /** Keys of the finder's candidates the curator dismissed on a page (normalised URL; a PDF's address in the viewer). */
  'dismissals.get': addressed({ from: 'any', request: z.object({ url: HttpUrl }), response: answer<{ keys: string[] }>(), speaksFor: (r) => [r.url] }),
  /** Remembers a dismissed finder candidate for a page, so it does not come back. */
  'dismissals.add': addressed({
    from: 'any',
    request: z.object({ url: HttpUrl, key: CandidateKey, sentence: z.string().max(4000) }),
    response: answer<{ stored: boolean }>(),
    speaksFor: (r) => [r.url],
  }),

  // ── Import, restore and backup ────────────────────────────────────────────
  /** Checks an import file (JSONL, W3C annotations or a backup) against the store, storing nothing: counts, conflicts, errors by line. */
  'import.preview': {
    from: 'page',
    request: z.object(ImportFile).refine((r) => (r.text === undefined) !== (r.upload === undefined), 'give the file as text or as an upload, not both'),
    response: answer<ImportPreview>(),
  },
  /** Stores a previewed import in one transaction, each conflict resolved as chosen (`rest` for those not listed); the file again only when the preview expired. */
  'import.commit': {
    from: 'page',
    request: z.object({
      token: z.string().max(100),
      ...ImportFile,
      resolutions: z.array(z.object({ ref: z.string().max(1000), take: z.enum(['mine', 'theirs']) })).max(200_000),
      rest: z.enum(['mine', 'theirs']),
    }),
    response: answer<ImportOutcome>(),
  },
  /** A full backup of the store as one document; records the backup time. */
  'backup.create': { from: 'page', request: z.object({}), response: answer<{ text: string; createdAt: string; counts: RecordCounts }>() },
  /** When the store was last backed up, how much changed since, and whether to remind the curator. */
  'backup.status': { from: 'page', request: z.object({}), response: answer<BackupStatus>() },

  // ── Tabs, as the panel and the popup reach them ───────────────────────────
  /** What the active tab of a window shows: its claims in document order, orphans, and its source. */
  'tab.page': {
    from: 'page',
    request: z.object({ windowId: z.number().int() }),
    response: answer<{ tabId: number; report: PageReport | null; reason: string | null }>(),
  },
  /** Asks a tab to re-attach an orphan (next selection) or to confirm a drifted passage's new text. */
  'tab.passage': {
    from: 'page',
    request: z.object({ tabId: z.number().int(), id: ClaimId, action: z.enum(['reattach', 'confirm']) }),
    response: answer<{ done: boolean }>(),
  },
  /** Runs the claim finder in a tab, or accepts or dismisses one of its candidates there (`key`), or records the page as not disclosed. */
  'tab.finder': {
    from: 'page',
    request: z
      .object({ tabId: z.number().int(), action: z.enum(['run', 'accept', 'dismiss', 'undisclosed']), key: CandidateKey.optional() })
      .refine(
        (r) => (r.action === 'accept' || r.action === 'dismiss') === (r.key !== undefined),
        'accept and dismiss name a candidate key; run and undisclosed do not',
      ),
    response: answer<{ report: FinderReport | null; opened: boolean }>(),
  },

  // ── PDFs ──────────────────────────────────────────────────────────────────
  /** Opens a PDF in the viewer: in the given tab (replacing what it shows) or in a new tab. */
  'pdf.open': {
    from: 'page',
    request: z.object({ url: PdfUrl, tabId: z.number().int().nullable(), page: z.number().int().positive().nullable() }),
    response: answer<{ tabId: number }>(),
  },
  /**
   * Keeps pdf.js's shared engine booted between reports (`keep`: a viewer opens its keeper, an offscreen document,
   * unless it is open), or lets it go (the keeper, once no viewer has been open for a while). `kept` says whether the
   * keeper is open now; always false where the browser has no offscreen documents (Firefox), where the engine lives
   * while a viewer is open.
   */
  'pdf.engine': { from: 'page', request: z.object({ keep: z.boolean() }), response: answer<{ kept: boolean }>() },
  /** The PDF the active tab of a window shows (by its address, else by asking the server), if any. */
  'tab.pdf': { from: 'page', request: z.object({ windowId: z.number().int() }), response: answer<{ tabId: number; url: string | null }>() },

  // ── Settings ──────────────────────────────────────────────────────────────
  /** The curator's settings. */
  'settings.get': { from: 'page', request: z.object({}), response: answer<Settings>() },
  /** Changes some of the curator's settings. */
  'settings.set': { from: 'page', request: SettingsPatch, response: answer<Settings>() },

  // ── The team's dataset (git) ──────────────────────────────────────────────
  /** The dataset connection (never the token itself: only whether one is stored) and its status. */
  'dataset.get': { from: 'page', request: z.object({}), response: answer<DatasetView>() },
  /** Stores the connection; an empty token keeps the stored one. Host permission is asked by the page first. */
  'dataset.connect': { from: 'page', request: z.object({ link: DatasetLink, token: DatasetToken }), response: answer<DatasetView>() },
  /** Forgets the connection, the token and the local clone (the claims stay). */
  'dataset.disconnect': { from: 'page', request: z.object({}), response: answer<DatasetView>() },
  /** Checks a connection (the stored token when `token` is empty): unreachable, bad token, no such branch, no write access. */
  'dataset.test': { from: 'page', request: z.object({ link: DatasetLink, token: DatasetToken }), response: answer<DatasetOutcome<ConnectionCheck>>() },
  /** Last pull and publish, local changes not yet published, conflicts waiting, the operation under way. */
  'dataset.status': { from: 'page', request: z.object({}), response: answer<DatasetStatus>() },
  /** What publishing would do (a dry run: nothing written or pushed); `target` defaults to the connection's. */
  'dataset.preview': {
    from: 'page',
    request: z.object({ target: z.enum(['branch', 'review']).optional() }),
    response: answer<DatasetOutcome<PublishDryRun>>(),
  },
  /** Publishes the local changes in one commit (to the branch or `curators/<name>`), merging by record when the branch moved. */
  'dataset.publish': {
    from: 'page',
    request: z.object({ message: z.string().max(20_000).optional(), target: z.enum(['branch', 'review']).optional() }),
    response: answer<DatasetOutcome<PublishDone>>(),
  },
  /** Pulls the dataset into the store: new and updated records, tombstones delete, conflicts wait for the curator. */
  'dataset.pull': { from: 'page', request: z.object({}), response: answer<DatasetOutcome<PullDone>>() },
  /** Pulls again and settles its conflicts as chosen (`rest` for those not listed). */
  'dataset.settle': {
    from: 'page',
    request: z.object({
      resolutions: z.array(z.object({ ref: z.string().max(1000), take: z.enum(['mine', 'theirs']) })).max(200_000),
      rest: z.enum(['mine', 'theirs', 'later']),
    }),
    response: answer<DatasetOutcome<PullDone>>(),
  },

  // ── Rechecking sources (an extension page runs the recheck; the run and its findings live in the store) ──
  /** Starts a recheck of a scope's sources (every source, one model's, one source), replacing the run before. */
  'recheck.start': { from: 'page', request: z.object({ scope: RecheckScope }), response: answer<{ run: RecheckRun }>() },
  /** The run (under way, stopped or finished), every source's last recheck and the live claims of those sources: what the report shows. */
  'recheck.state': {
    from: 'page',
    request: z.object({}),
    response: answer<{ run: RecheckRun | null; rechecks: StoredRecheck[]; claims: ClaimRecord[] }>(),
  },
  /** The live claims of a source, for the runner to recheck. */
  'recheck.source': { from: 'page', request: z.object({ url: HttpUrl }), response: answer<{ claims: ClaimRecord[] }>() },
  /** Stores one source's findings and its `source` record, and takes it off the run's pending list. */
  'recheck.save': { from: 'page', request: z.object({ findings: SourceFindings }), response: answer<{ stored: StoredRecheck; run: RecheckRun | null }>() },
  /** Forgets the run (the findings stay). */
  'recheck.clear': { from: 'page', request: z.object({}), response: answer<{ cleared: boolean }>() },
  /** The curator accepts an edited passage: the claim's quote and selectors move to the new text (the claim before, for undo). */
  'recheck.accept': { from: 'page', request: z.object({ id: ClaimId }), response: answer<{ before: ClaimRecord; after: ClaimRecord }>() },

  // ── The background calls a document in a tab ──────────────────────────────
  /** Opens the claim form for the current selection (context menu, keyboard command). */
  'form.open': { from: 'background', request: z.object({}), response: answer<{ opened: boolean }>() },
  /** Claims changed somewhere: reload them when `url` concerns this document (or null: any document). */
  'claims.changed': { from: 'background', request: z.object({ url: HttpUrl.nullable() }), response: answer<{ reloaded: boolean }>() },
  /** Scrolls to a claim's painted passage and flashes it. */
  'passage.reveal': { from: 'background', request: z.object({ id: ClaimId }), response: answer<{ found: boolean }>() },
  /** Reports the document: its URL, source, and claims in document order. */
  'page.report': { from: 'background', request: z.object({}), response: answer<PageReport>() },
  /** Starts re-attaching an orphan: the curator's next selection becomes its passage. */
  'passage.reattach': { from: 'background', request: z.object({ id: ClaimId }), response: answer<{ started: boolean }>() },
  /** Accepts a drifted passage's current text as the claim's quote. */
  'passage.confirm': { from: 'background', request: z.object({ id: ClaimId }), response: answer<{ confirmed: boolean }>() },
  /** Runs the claim finder over the document's text: paints and lists its candidates. */
  'finder.run': { from: 'background', request: z.object({}), response: answer<FinderReport>() },
  /** Opens the claim form prefilled from a candidate (nothing is stored until the curator saves). */
  'finder.accept': { from: 'background', request: z.object({ key: CandidateKey }), response: answer<{ opened: boolean }>() },
  /** Dismisses a candidate: it is remembered for this document and never offered again. */
  'finder.dismiss': { from: 'background', request: z.object({ key: CandidateKey }), response: answer<{ dismissed: boolean }>() },
  /** Opens the claim form prefilled as "not disclosed", with the document as the source. */
  'finder.undisclosed': { from: 'background', request: z.object({}), response: answer<{ opened: boolean }>() },
} satisfies Record<string, { from: Role; request: z.ZodType; response: unknown }>;

/** The protocol's type. */
export type Protocol = typeof protocol;
/** Every call name. */
export type CallName = keyof Protocol;
/** The calls a sender of role `R` makes (by the entry's `from`). */
export type CallFrom<R extends Role> = { [K in CallName]: Protocol[K]['from'] extends R ? K : never }[CallName];
/** Calls the background sends to a document in a tab. */
export type DocumentCall = CallFrom<'background'>;
/** Calls the background answers. */
export type BackgroundCall = Exclude<CallName, DocumentCall>;
/** The calls a document may send to the background. */
export type DocumentSends = CallFrom<'document' | 'any'>;
/** The calls an extension page may send to the background. */
export type PageSends = CallFrom<'page' | 'any'>;
/** The request payload type of a call, as sent. */
export type RequestOf<K extends CallName> = z.input<Protocol[K]['request']>;
/** The validated request type a handler receives. */
export type ParsedRequestOf<K extends CallName> = z.output<Protocol[K]['request']>;
/** The response type of a call. */
export type ResponseOf<K extends CallName> = Protocol[K]['response'];

/** Whether a string names a call of the protocol. */
export function isCallName(type: string): type is CallName {
  return Object.hasOwn(protocol, type);
}

/** A message as it travels. */
export const Envelope = z.object({ channel: z.literal(CHANNEL), type: z.string().max(64), payload: z.unknown() });
export type Envelope = z.infer<typeof Envelope>;

/** An answer as it travels. */
export type Reply<T> = { ok: true; data: T } | { ok: false; error: string };

/**
 * Tag of a file handed by an extension page straight to the service worker (`postMessage` to its
 * registration: several times faster than a runtime message for megabytes), then named in `import.preview`.
 */
export const UPLOAD_CHANNEL = 'recipe-lens-upload';

/**
 * One handed-over file: its text, or the file itself (a Blob crosses as a handle, not as its megabytes of text, and
 * the worker reads it as it parses it); the worker answers `{ ok: true }` on the message's port once it holds it.
 */
export const Upload = z.union([
  z.object({ channel: z.literal(UPLOAD_CHANNEL), id: z.string().min(8).max(100), text: z.string().max(MAX_IMPORT_BYTES) }),
  z.object({
    channel: z.literal(UPLOAD_CHANNEL),
    id: z.string().min(8).max(100),
    file: z.instanceof(Blob).refine((file) => file.size <= MAX_IMPORT_BYTES, 'the file is over the import limit'),
  }),
]);
export type Upload = z.infer<typeof Upload>;

/** A change broadcast to extension pages (no answer expected); `isChangeNotice` is the same check without zod. */
export const ChangeNotice = z.object({ channel: z.literal(NOTICE_CHANNEL), type: z.literal('claims.changed'), url: HttpUrl.nullable() });
export type ChangeNotice = z.infer<typeof ChangeNotice>;

/** Builds the change broadcast for a page URL (null: many pages). */
export function changeNotice(url: string | null): ChangeNotice {
  return { channel: NOTICE_CHANNEL, type: 'claims.changed', url };
}
