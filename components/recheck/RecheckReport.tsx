/** The recheck report: per model, each source's verdicts (an edited passage as a word diff with Accept), gone passages marked, and new sentences. */
import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { reportModels, wordDiff, type ReportItem, type ReportModel, type ReportSource, type StoredRecheck } from '../../lib/recheck';
import type { ClaimRecord } from '../../lib/schema';

/** What the report's buttons do. */
export interface ReportActions {
  /** Accepts an edited passage's new text for a claim. */
  accept(id: string): void;
  /** Opens a PDF in the viewer at a page. */
  openPdf(url: string, page: number): void;
}

/** Old → new as words: removed words struck through, added ones marked. */
function Diff({ before, after }: { before: string; after: string }) {
  return (
    <p class="rc-diff" data-testid="recheck-diff">
      {wordDiff(before, after).map((part, i) =>
        part.op === 'same' ? <span key={i}>{part.text}</span> : part.op === 'removed' ? <del key={i}>{part.text}</del> : <ins key={i}>{part.text}</ins>,
      )}
    </p>
  );
}

function Item({ item, actions, busy }: { item: ReportItem; actions: ReportActions; busy: boolean }) {
  const { claim, verdict } = item;
  const label = `${claim.value}${claim.stage ? ` · ${claim.stage}` : ''}`;
  return (
    <li
      class={`rc-item rc-${verdict.accepted_at ? 'accepted' : verdict.verdict}`}
      data-testid="recheck-item"
      data-claim={claim.id}
      data-verdict={verdict.verdict}
    >
      <div class="rc-line">
        <span class={`rc-pill rc-pill-${verdict.accepted_at ? 'accepted' : verdict.verdict}`}>
          {verdict.accepted_at ? t('recheckAccepted') : t(`recheckVerdict_${verdict.verdict}`)}
        </span>
        <strong>{label}</strong>
        <span class="muted">{claim.kind}</span>
      </div>
      {verdict.verdict === 'edited' && verdict.text !== null && !verdict.accepted_at && (
        <>
          <Diff before={claim.quote.exact} after={verdict.text} />
          <button type="button" class="primary" disabled={busy} onClick={() => actions.accept(claim.id)} data-testid="recheck-accept">
            {t('recheckAccept')}
          </button>
        </>
      )}
      {verdict.verdict === 'gone' && (
        <p class="rc-quote" data-testid="recheck-gone">
          <span class="muted">{t('recheckGoneHint')}</span> “{claim.quote.exact}”
        </p>
      )}
    </li>
  );
}

function Source({ source, actions, busy }: { source: ReportSource; actions: ReportActions; busy: boolean }) {
  const [showSame, setShowSame] = useState(false);
  const shown = source.items.filter((i) => showSame || i.verdict.verdict !== 'unchanged' || i.verdict.accepted_at);
  const same = source.items.length - source.items.filter((i) => i.verdict.verdict !== 'unchanged').length;
  return (
    <section class="rc-source" data-testid="recheck-source" data-url={source.url} data-status={source.status}>
      <header class="rc-source-head">
        <span class={`rc-pill rc-pill-${source.status}`}>{t(`recheckStatus_${source.status}`)}</span>
        <a href={source.url} target="_blank" rel="noreferrer noopener">
          {source.title || source.url}
        </a>
        <span class="muted small">{t('recheckCheckedAt', source.checkedAt.slice(0, 16).replace('T', ' '))}</span>
      </header>
      {source.reason && (
        <p class="error small" data-testid="recheck-reason">
          {t('recheckUnreachableWhy', source.reason)}
        </p>
      )}
      {shown.length > 0 && (
        <ul class="rc-items">
          {shown.map((item) => (
            <Item key={item.claim.id} item={item} actions={actions} busy={busy} />
          ))}
        </ul>
      )}
      {same > 0 && (
        <button type="button" class="link small" onClick={() => setShowSame(!showSame)} aria-expanded={showSame}>
          {showSame ? t('recheckHideSame') : t('recheckShowSame', same)}
        </button>
      )}
      {source.candidates.length > 0 && (
        <details class="rc-candidates" data-testid="recheck-candidates">
          <summary>{t('recheckCandidates', source.candidates.length)}</summary>
          <ol>
            {source.candidates.map((c) => (
              <li key={c.key}>
                <span class="muted small">
                  {c.kind} · {c.value}
                </span>{' '}
                {c.sentence}{' '}
                {c.page ? (
                  <button type="button" class="link" onClick={() => actions.openPdf(source.url, c.page!)} data-testid="recheck-candidate-page">
                    {t('recheckOpenPage', c.page)}
                  </button>
                ) : (
                  <a href={c.link} target="_blank" rel="noreferrer noopener" data-testid="recheck-candidate-link">
                    {t('recheckOpenAt')}
                  </a>
                )}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

function Model({ model, actions, busy }: { model: ReportModel; actions: ReportActions; busy: boolean }) {
  const c = model.counts;
  return (
    <article class="rc-model" data-testid="recheck-model" data-model={model.model}>
      <h3>
        {model.model} {model.undisclosedOnly && <span class="rc-pill rc-pill-undisclosed">{t('recheckUndisclosed')}</span>}
      </h3>
      <p class="muted small">{t('recheckModelCounts', c.unchanged, c.edited, c.gone, c.unreachable)}</p>
      {model.sources.map((s) => (
        <Source key={s.url} source={s} actions={actions} busy={busy} />
      ))}
    </article>
  );
}

/** The report over the stored rechecks; empty state when nothing was rechecked yet. */
export function RecheckReport({
  rechecks,
  claims,
  actions,
  busy,
  only,
}: {
  rechecks: StoredRecheck[];
  claims: ClaimRecord[];
  actions: ReportActions;
  busy: boolean;
  /** Only this model's part. */
  only?: string;
}) {
  const models = reportModels(rechecks, claims).filter((m) => !only || m.model === only);
  if (!models.length)
    return (
      <p class="muted" data-testid="recheck-empty">
        {t('recheckEmpty')}
      </p>
    );
  return (
    <div class="rc-report" data-testid="recheck-report">
      {models.map((m) => (
        <Model key={m.model} model={m} actions={actions} busy={busy} />
      ))}
    </div>
  );
}
