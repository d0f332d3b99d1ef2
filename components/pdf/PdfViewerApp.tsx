/** The PDF viewer page: header (title, page, zoom, find), sidebar (outline, claims), the pages, and the capture UI over them. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStore } from '../common/store';
import { kindLabel, plural, t } from '../../lib/i18n';
import { useLocale } from '../common/i18n';
import type { PdfViewerSession } from './session';
import type { OutlineEntry } from './viewer-state';

/** Root of the viewer page; `session` does the work, this draws its state. */
export function PdfViewerApp({ session }: { session: PdfViewerSession }) {
  useLocale();
  const state = useStore(session.viewer);
  const capture = useStore(session.capture);
  const scroller = useRef<HTMLDivElement>(null);
  const pages = useRef<HTMLDivElement>(null);
  const { actions } = session;

  useEffect(() => {
    performance.mark('recipe-lens:viewer-attached');
    session.attach(scroller.current!, pages.current!);
    return () => session.destroy();
  }, [session]);

  const counts = session.counts();
  const placed = session.placedClaims();
  return (
    <div class={`pdf-app${state.sidebar ? ' pdf-with-sidebar' : ''}`} data-phase={state.phase}>
      <header class="pdf-header" role="toolbar" aria-label={t('pdfViewer')}>
        <button
          type="button"
          class="pdf-icon"
          aria-label={t('pdfOutlineAndClaims')}
          aria-pressed={state.sidebar}
          title={t('pdfOutlineAndClaims')}
          onClick={actions.toggleSidebar}
          data-testid="pdf-sidebar-toggle"
        >
          ☰
        </button>
        <span class="pdf-logo" aria-hidden="true">
          RL
        </span>
        <div class="pdf-title" title={state.file}>
          <strong data-testid="pdf-title">{state.title || 'PDF'}</strong>
          <span class="pdf-muted" data-testid="pdf-meta">
            {[
              state.authors.slice(0, 3).join(', ') + (state.authors.length > 3 ? t('etAl') : ''),
              state.publisher,
              state.published,
              state.arxiv ? `arXiv:${state.arxiv}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </div>
        {state.phase === 'ready' && (
          <>
            <PageInput page={state.page} count={state.pageCount} onGo={actions.goToPage} />
            <div class="pdf-zoom" role="group" aria-label={t('pdfZoom')}>
              <button type="button" class="pdf-icon" aria-label={t('pdfZoomOut')} title={t('pdfZoomOut')} onClick={actions.zoomOut} data-testid="pdf-zoom-out">
                −
              </button>
              <button type="button" class="pdf-zoom-value" title={t('pdfFitWidth')} onClick={actions.fitWidth} data-testid="pdf-zoom">
                {Math.round(state.zoom * 100)}%
              </button>
              <button type="button" class="pdf-icon" aria-label={t('pdfZoomIn')} title={t('pdfZoomIn')} onClick={actions.zoomIn} data-testid="pdf-zoom-in">
                +
              </button>
            </div>
            <button
              type="button"
              class="pdf-icon"
              aria-label={t('pdfFindOpen')}
              title={t('pdfFindOpen')}
              onClick={actions.openFind}
              data-testid="pdf-find-open"
            >
              ⌕
            </button>
            <span class="pdf-counts" data-testid="pdf-counts" aria-live="polite">
              {!state.textReady ? (
                <span class="pdf-muted">{t('pdfReadingText')}</span>
              ) : (
                <>
                  {plural(counts.anchored, 'claimsOne', 'claimsMany')}
                  {counts.orphans > 0 && <span class="pdf-orphans"> · {plural(counts.orphans, 'orphansOne', 'orphansMany')}</span>}
                </>
              )}
            </span>
          </>
        )}
      </header>

      {state.find.open && <FindBar session={session} />}

      {state.phase === 'ready' && !state.sourceUrl && state.title && <SourceUrlBanner onSet={actions.setSourceUrl} />}

      {state.sidebar && (
        <aside class="pdf-sidebar" aria-label={t('pdfOutlineAndClaims')} data-testid="pdf-sidebar">
          <section>
            <h2>{t('pdfClaimsInDoc')}</h2>
            {placed.length === 0 ? (
              <p class="pdf-muted">{state.textReady ? t('pdfNonePainted') : t('pdfReadingTheText')}</p>
            ) : (
              <ul class="pdf-claim-list">
                {placed.map(({ claim, page }) => (
                  <li key={claim.id}>
                    <button type="button" class="pdf-link" onClick={() => actions.revealClaim(claim.id)} data-testid="pdf-claim-link" title={claim.quote.exact}>
                      <span class={`pdf-kind pdf-kind-${claim.kind}`}>{kindLabel(claim.kind)}</span> {claim.value} · {claim.model}
                      <span class="pdf-muted"> {t('pdfPageShort', page)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {capture.orphans.length > 0 && <p class="pdf-orphans">{t('pdfOrphansNote', capture.orphans.length)}</p>}
          </section>
          <section>
            <h2>{t('pdfOutline')}</h2>
            {state.outline.length ? <Outline entries={state.outline} onOpen={actions.openOutline} /> : <p class="pdf-muted">{t('pdfNoOutline')}</p>}
          </section>
        </aside>
      )}

      <main class="pdf-scroll" ref={scroller} tabIndex={-1} aria-label={t('pdfPages')} data-testid="pdf-scroll">
        {state.phase === 'loading' && (
          <p class="pdf-status" role="status">
            {t('pdfOpening')} {state.progress > 0 && state.progress < 1 ? `${Math.round(state.progress * 100)}%` : ''}
          </p>
        )}
        {state.phase === 'error' && (
          <div class="pdf-error" role="alert" data-testid="pdf-error">
            <p>{state.error}</p>
            {state.help && <p>{state.help}</p>}
            <p class="pdf-muted">{state.file}</p>
          </div>
        )}
        {state.phase === 'empty' && <OpenForm onOpen={actions.openFile} />}
        <div class="pdf-pages" ref={pages} />
      </main>
    </div>
  );
}

/** "Page [n] of N": type a number and press Enter to go there. */
function PageInput({ page, count, onGo }: { page: number; count: number; onGo: (page: number) => void }) {
  const [text, setText] = useState(String(page));
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setText(String(page));
  }, [page, editing]);
  return (
    <label class="pdf-page-input">
      <span class="pdf-sr">{t('pdfPageLabel')}</span>
      <input
        type="text"
        inputMode="numeric"
        value={text}
        size={4}
        data-testid="pdf-page-input"
        aria-label={t('pdfPageOf', count)}
        onFocus={(e) => {
          setEditing(true);
          (e.target as HTMLInputElement).select();
        }}
        onBlur={() => setEditing(false)}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            const n = Number(text);
            if (Number.isInteger(n) && n >= 1 && n <= count) onGo(n);
            (e.target as HTMLInputElement).blur();
          }
        }}
      />
      <span class="pdf-muted" data-testid="pdf-page-count">
        / {count}
      </span>
    </label>
  );
}

/** The find bar: a query, the match count, previous / next. */
function FindBar({ session }: { session: PdfViewerSession }) {
  const { find } = useStore(session.viewer);
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(find.query);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
    const focus = () => {
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('recipe-lens-find-focus', focus);
    return () => document.removeEventListener('recipe-lens-find-focus', focus);
  }, []);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (query !== find.query) session.actions.find(query);
    }, 200);
    return () => clearTimeout(timer);
  }, [query]);
  return (
    <div class="pdf-find" role="search" data-testid="pdf-find">
      <input
        ref={input}
        type="search"
        placeholder={t('pdfFind')}
        aria-label={t('pdfFind')}
        value={query}
        data-testid="pdf-find-input"
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (query !== find.query) session.actions.find(query);
            else session.actions.findStep(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            session.actions.closeFind();
          }
        }}
      />
      <span class="pdf-muted" data-testid="pdf-find-count" aria-live="polite">
        {find.searching ? '…' : find.query ? (find.count ? t('pdfMatchOf', find.index + 1, find.count) : t('pdfNoMatches')) : ''}
      </span>
      <button type="button" class="pdf-icon" aria-label={t('pdfPrevMatch')} onClick={() => session.actions.findStep(-1)}>
        ↑
      </button>
      <button type="button" class="pdf-icon" aria-label={t('pdfNextMatch')} onClick={() => session.actions.findStep(1)}>
        ↓
      </button>
      <button type="button" class="pdf-icon" aria-label={t('close')} onClick={() => session.actions.closeFind()}>
        ×
      </button>
    </div>
  );
}

/** Asks for the web address of a local PDF: claims are stored under an http(s) address. */
function SourceUrlBanner({ onSet }: { onSet: (url: string) => void }) {
  const [url, setUrl] = useState('');
  return (
    <form
      class="pdf-banner"
      data-testid="pdf-source-url"
      onSubmit={(e) => {
        e.preventDefault();
        onSet(url);
      }}
    >
      <span>{t('pdfLocalBanner')}</span>
      <input
        type="url"
        placeholder="https://…"
        value={url}
        required
        onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
        aria-label={t('pdfReportAddress')}
      />
      <button type="submit">{t('pdfUseAddress')}</button>
    </form>
  );
}

/** The outline as a nested list of links. */
function Outline({ entries, onOpen }: { entries: OutlineEntry[]; onOpen: (entry: OutlineEntry) => void }) {
  return (
    <ul class="pdf-outline">
      {entries.map((entry, i) => (
        <li key={i}>
          <button type="button" class="pdf-link" onClick={() => onOpen(entry)} data-testid="pdf-outline-entry">
            {entry.title}
          </button>
          {entry.children.length > 0 && <Outline entries={entry.children} onOpen={onOpen} />}
        </li>
      ))}
    </ul>
  );
}

/** The empty viewer: open a PDF by its address. */
function OpenForm({ onOpen }: { onOpen: (url: string) => void }) {
  const [url, setUrl] = useState('');
  return (
    <form
      class="pdf-open"
      onSubmit={(e) => {
        e.preventDefault();
        if (url.trim()) onOpen(url);
      }}
    >
      <h1>{t('pdfOpenTitle')}</h1>
      <p class="pdf-muted">{t('pdfOpenHint')}</p>
      <input
        type="url"
        value={url}
        placeholder="https://arxiv.org/pdf/…"
        onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
        aria-label={t('pdfAddress')}
      />
      <button type="submit">{t('pdfOpen')}</button>
    </form>
  );
}
