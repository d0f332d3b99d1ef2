/** "This page": the active tab's claims in document order, its orphans, and its source metadata (editable). */
import { useEffect, useState } from 'preact/hooks';
import { SOURCE_KINDS } from '../../lib/schema/constants';
import type { ClaimRecord, SourceKind, SourceOverride } from '../../lib/schema';
import type { ResponseOf } from '../../lib/messages';
import { plural, sourceKindLabel, t } from '../../lib/i18n';
import { EnumSelect } from '../common/EnumSelect';
import { ClaimItem, type ClaimActions } from './ClaimItem';
import { FinderSection, type FinderCall } from './FinderSection';

/** Props of the page view. */
export interface PageViewProps {
  page: ResponseOf<'tab.page'> | null;
  claims: ReadonlyMap<string, ClaimRecord>;
  models: readonly string[];
  actions: ClaimActions;
  onCorrectSource(source: SourceOverride): Promise<void>;
  onPassage(id: string, action: 'reattach' | 'confirm'): void;
  /** Runs the claim finder in the tab, or acts on one of its candidates there (absent: no finder offered). */
  onFinder?: FinderCall;
}

/** The page view. */
export function PageView({ page, claims, models, actions, onCorrectSource, onPassage, onFinder }: PageViewProps) {
  if (!page) return <p class="muted pad">{t('readingActiveTab')}</p>;
  const report = page.report;
  if (!report)
    return (
      <p class="muted pad" data-testid="page-reason">
        {page.reason}
      </p>
    );
  const orphanSet = new Set(report.orphans);
  const ordered = report.order.map((id) => claims.get(id)).filter((c): c is ClaimRecord => !!c);
  const painted = ordered.filter((c) => !orphanSet.has(c.id));
  const orphans = ordered.filter((c) => orphanSet.has(c.id));
  const changed = new Map(report.changed.map((c) => [c.id, c]));
  return (
    <section class="page-view" aria-label={t('thisPage')} data-testid="page-view">
      <SourceEditor url={report.url} source={report.source} onSave={onCorrectSource} />
      {onFinder && <FinderSection url={report.url} call={onFinder} revision={report} />}
      {ordered.length === 0 ? (
        <div class="empty small">
          <p>
            <b>{t('pageEmptyTitle')}</b> {t('pageEmptyLead')}
            <b>{t('toolbarTag')}</b>
            {t('pageEmptyTail')}
          </p>
        </div>
      ) : (
        <>
          <h3>{plural(painted.length, 'inPageOrderOne', 'inPageOrderMany')}</h3>
          {painted.map((c) => (
            <div key={c.id}>
              <ClaimItem claim={c} actions={actions} models={models} showModel />
              {changed.has(c.id) && (
                <div class="changed" data-testid="panel-text-changed">
                  <strong>{t('textChanged')}</strong>
                  <del>{changed.get(c.id)!.old}</del>
                  <ins>{changed.get(c.id)!.now}</ins>
                  <button type="button" class="link" data-testid="panel-confirm-text" onClick={() => onPassage(c.id, 'confirm')}>
                    {t('confirmText')}
                  </button>
                </div>
              )}
            </div>
          ))}
          {orphans.length > 0 && (
            <>
              <h3 class="orphans-h" data-testid="orphans-heading">
                {plural(orphans.length, 'orphansHeadingOne', 'orphansHeadingMany')}
              </h3>
              {orphans.map((c) => (
                <div key={c.id}>
                  <ClaimItem claim={c} actions={actions} models={models} orphan showModel />
                  <button type="button" class="btn reattach" data-testid="panel-reattach" onClick={() => onPassage(c.id, 'reattach')}>
                    {t('reattachInPage')}
                  </button>
                </div>
              ))}
            </>
          )}
        </>
      )}
    </section>
  );
}

function SourceEditor({
  url,
  source,
  onSave,
}: {
  url: string;
  source: NonNullable<ResponseOf<'tab.page'>['report']>['source'];
  onSave(s: SourceOverride): Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(source.title);
  const [kind, setKind] = useState<SourceKind>(source.kind);
  const [publisher, setPublisher] = useState(source.publisher ?? '');
  const [published, setPublished] = useState(source.published ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setTitle(source.title);
    setKind(source.kind);
    setPublisher(source.publisher ?? '');
    setPublished(source.published ?? '');
  }, [url, source.title, source.kind, source.publisher, source.published]);
  if (!editing) {
    return (
      <div class="source-card" data-testid="page-source">
        <p class="source-title">{source.title}</p>
        <p class="muted small">
          {sourceKindLabel(source.kind)} · {source.publisher ?? t('publisherUnknown')} · {source.published ?? t('undated')}
          {` · ${source.corrected ? t('sourceCorrected') : t('sourceDetected')}`}
        </p>
        <p class="muted small url">{url}</p>
        <button type="button" class="link" data-testid="page-source-edit" onClick={() => setEditing(true)}>
          {t('correctSource')}
        </button>
      </div>
    );
  }
  return (
    <form
      class="source-card"
      onSubmit={async (e) => {
        e.preventDefault();
        if (published && !/^\d{4}-\d{2}-\d{2}$/.test(published)) return setError(t('errDateFormat'));
        try {
          await onSave({ url, title: title.trim(), kind, publisher: publisher.trim() || null, published: published || null });
          setEditing(false);
          setError(null);
        } catch (err) {
          setError(t('notSavedBecause', err instanceof Error ? err.message : String(err)));
        }
      }}
    >
      <label>
        {t('fieldTitle')}
        <input value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </label>
      <div class="grid2">
        <label>
          {t('fieldKind')}
          <EnumSelect values={SOURCE_KINDS} value={kind} data-testid="page-source-kind" label={sourceKindLabel} onChange={setKind} />
        </label>
        <label>
          {t('fieldPublisher')}
          <input value={publisher} onInput={(e) => setPublisher(e.currentTarget.value)} />
        </label>
        <label>
          {t('fieldPublished')}
          <input type="date" value={published} onInput={(e) => setPublished(e.currentTarget.value)} />
        </label>
      </div>
      <p class="muted small">{t('sourceAppliesAll')}</p>
      {error && <p class="error">{error}</p>}
      <footer class="claim-actions">
        <button type="button" class="btn" onClick={() => setEditing(false)}>
          {t('cancel')}
        </button>
        <button type="submit" class="btn primary" data-testid="page-source-save">
          {t('saveSource')}
        </button>
      </footer>
    </form>
  );
}
