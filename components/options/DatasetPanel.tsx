/**
 * The "Dataset" card: connect the team's git repository (address, branch,
 * token, display name; Test connection says plainly what is wrong), then pull
 * and publish. A publish is shown first as a dry run (per model: claims added,
 * changed, deleted; the commit message), and a pull's conflicts are settled
 * side by side as an import's are. Long work shows its step.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConnectionCheck, DatasetFailure, DatasetLink, DatasetStatus, DatasetView, PublishDone, PublishDryRun, PullDone } from '../../lib/dataset/link';
import { changedModels } from '../../lib/dataset/summary';
import { plural, t } from '../../lib/i18n';
import type { ResponseOf } from '../../lib/messages';
import { activityText, type DatasetApi, failureText, pullSummary, statusParts } from '../common/dataset';
import { DatasetReviews } from './DatasetReviews';
import { Conflict } from './ImportPanel';

type Take = 'mine' | 'theirs';
const POLL_MS = 600;

interface Form {
  url: string;
  branch: string;
  token: string;
  name: string;
  username: string;
  target: 'branch' | 'review';
  pullOnStart: boolean;
  pullEveryMinutes: number;
}

function formOf(link: DatasetLink | null): Form {
  return {
    url: link?.url ?? '',
    branch: link?.branch ?? 'main',
    token: '',
    name: link?.name ?? '',
    username: link?.username ?? '',
    target: link?.target ?? 'branch',
    pullOnStart: link?.pullOnStart ?? false,
    pullEveryMinutes: link?.pullEveryMinutes ?? 0,
  };
}

function linkOf(form: Form): DatasetLink {
  return {
    url: form.url.trim(),
    branch: form.branch.trim(),
    name: form.name.trim(),
    username: form.username.trim(),
    target: form.target,
    pullOnStart: form.pullOnStart,
    pullEveryMinutes: Math.max(0, Math.min(1440, Math.round(form.pullEveryMinutes || 0))),
  };
}

/** What is missing or wrong in the form, before anything is sent (null: nothing). */
function formProblem(form: Form, hasToken: boolean): string | null {
  try {
    const u = new URL(form.url.trim());
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(u.hostname))) return t('datasetNeedHttps');
    if (u.username || u.password) return t('datasetNoCredentialsInUrl');
  } catch {
    return t('datasetNeedUrl');
  }
  if (!/^[A-Za-z0-9._/-]+$/.test(form.branch.trim()) || form.branch.includes('..')) return t('datasetNeedBranch');
  if (!form.name.trim()) return t('datasetNeedName');
  if (!form.token.trim() && !hasToken) return t('datasetNeedToken');
  return null;
}

/** A failure: what to do (translated), the engine's sentence, and its details (the server's lines, `path:line` problems). */
export function FailureView({ failure, testId }: { failure: DatasetFailure; testId: string }) {
  return (
    <div class="dataset-failure" role="alert" data-testid={testId} data-code={failure.code}>
      <p>
        <strong>{failureText(failure)}</strong>
      </p>
      <p class="small">{failure.message}</p>
      {failure.details.length > 0 && (
        <ul class="errors" data-testid="dataset-failure-details">
          {failure.details.slice(0, 50).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
          {failure.details.length > 50 && <li>{t('andMore', failure.details.length - 50)}</li>}
        </ul>
      )}
    </div>
  );
}

/** The dry run: per model, what the publish adds, changes and deletes, where it goes, and the commit message. */
function DryRun({
  run,
  branch,
  target,
  message,
  onTarget,
  onMessage,
  onPublish,
  onCancel,
}: {
  run: PublishDryRun;
  branch: string;
  target: 'branch' | 'review';
  message: string;
  onTarget: (target: 'branch' | 'review') => void;
  onMessage: (message: string) => void;
  onPublish: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const models = changedModels(run.models);
  // Source records alone are a publish too (to the branch: a review carries claims and models only).
  const sources = run.sources ?? 0;
  const nothing = models.length === 0 && sources === 0;
  return (
    <div
      class="dataset-dry-run"
      data-testid="dataset-dry-run"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <h3 tabIndex={-1} ref={heading}>
        {t('datasetDryRunTitle')}
      </h3>
      {nothing ? (
        <p data-testid="dataset-nothing">{t('datasetNothingToPublish')}</p>
      ) : (
        <>
          <p class="counts" data-testid="dataset-dry-run-totals">
            {t('datasetDryRunTotals', run.totals.added, run.totals.changed, run.totals.deleted, run.totals.records)}
          </p>
          {sources > 0 && (
            <p class="muted small" data-testid="dataset-dry-run-sources">
              {t('datasetDryRunSources', sources)}
            </p>
          )}
          <table class="dataset-models">
            <thead>
              <tr>
                <th scope="col">{t('colModel')}</th>
                <th scope="col">{t('datasetAdded')}</th>
                <th scope="col">{t('datasetChanged')}</th>
                <th scope="col">{t('datasetDeleted')}</th>
                <th scope="col">{t('datasetModelRecord')}</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.model} data-testid="dataset-model-change" data-model={m.model}>
                  <th scope="row">{m.model}</th>
                  <td>{m.claims.added || '—'}</td>
                  <td>{m.claims.changed || '—'}</td>
                  <td>{m.claims.deleted || '—'}</td>
                  <td>{m.records.added ? t('datasetRecordAdded') : m.records.changed ? t('datasetRecordChanged') : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <fieldset class="dataset-target">
            <legend>{t('datasetPublishTo')}</legend>
            <label class="check">
              <input type="radio" name="dataset-target" checked={target === 'branch'} data-testid="dataset-target-branch" onChange={() => onTarget('branch')} />{' '}
              {t('datasetTargetBranch', branch)}
            </label>
            <label class="check">
              <input type="radio" name="dataset-target" checked={target === 'review'} data-testid="dataset-target-review" onChange={() => onTarget('review')} />{' '}
              {t('datasetTargetReview', run.reviewBranch)}
            </label>
          </fieldset>
          <label class="stack">
            <span>{t('datasetCommitMessage')}</span>
            <textarea rows={5} value={message} data-testid="dataset-commit-message" onInput={(e) => onMessage(e.currentTarget.value)} />
          </label>
        </>
      )}
      {run.conflicts.length > 0 && (
        <p class="reminder" data-testid="dataset-dry-run-conflicts">
          {plural(run.conflicts.length, 'datasetLeftOutOne', 'datasetLeftOutMany')}
        </p>
      )}
      <div class="actions">
        {!nothing && (
          <button type="button" class="primary" data-testid="dataset-publish-confirm" onClick={onPublish}>
            {t('datasetPublishNow')}
          </button>
        )}
        <button type="button" data-testid="dataset-publish-cancel" onClick={onCancel}>
          {nothing ? t('close') : t('cancel')}
        </button>
      </div>
    </div>
  );
}

/** The options page's Dataset card. */
export function DatasetPanel({ api, version = 0, onPulled }: { api: DatasetApi; version?: number; onPulled?: () => void }) {
  const [view, setView] = useState<DatasetView | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<DatasetStatus | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<DatasetFailure | null>(null);
  const [check, setCheck] = useState<ConnectionCheck | null>(null);
  const [dryRun, setDryRun] = useState<PublishDryRun | null>(null);
  const [target, setTarget] = useState<'branch' | 'review'>('branch');
  const [message, setMessage] = useState('');
  const [published, setPublished] = useState<PublishDone | null>(null);
  const [pulled, setPulled] = useState<PullDone | null>(null);
  const [choices, setChoices] = useState<Map<string, Take>>(new Map());

  const load = () =>
    api.call('dataset.get', {}).then(
      (v) => {
        setView(v);
        setStatus(v.status);
        if (!editing) setForm(formOf(v.link));
      },
      (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)),
    );
  useEffect(() => {
    void load();
  }, [api, version]);

  // While work runs, the status tells its step.
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(() => {
      api.call('dataset.status', {}).then(setStatus, () => undefined);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [busy, api]);

  const clear = () => {
    setProblem(null);
    setFailure(null);
    setCheck(null);
    setPublished(null);
  };

  /** Runs one piece of work with its progress line; the status is read again after. */
  const work = async <T,>(label: string, run: () => Promise<T>): Promise<T | null> => {
    setBusy(label);
    try {
      return await run();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
      return null;
    } finally {
      setBusy(null);
      void api.call('dataset.status', {}).then(setStatus, () => undefined);
    }
  };

  /** Checks the form and asks for the repository's origin (in the click); says what is wrong when it cannot go on. */
  const ready = async (): Promise<boolean> => {
    clear();
    const wrong = formProblem(form, !!view?.hasToken);
    if (wrong) {
      setProblem(wrong);
      return false;
    }
    const allowed = await api.allowHost(form.url.trim()).catch(() => false);
    if (!allowed) setFailure({ code: 'permission', message: new URL(form.url.trim()).origin, details: [] });
    return allowed;
  };

  const test = async () => {
    if (!(await ready())) return;
    const outcome = await work(t('datasetOpTest'), () => api.call('dataset.test', { link: linkOf(form), token: form.token.trim() }));
    if (!outcome) return;
    if (outcome.failure) setFailure(outcome.failure);
    else setCheck(outcome);
  };

  const save = async () => {
    if (!(await ready())) return;
    const next = await work(t('datasetSaving'), () => api.call('dataset.connect', { link: linkOf(form), token: form.token.trim() }));
    if (!next) return;
    setView(next);
    setStatus(next.status);
    setEditing(false);
    setForm(formOf(next.link));
  };

  const disconnect = async () => {
    clear();
    const next = await work(t('datasetDisconnecting'), () => api.call('dataset.disconnect', {}));
    if (!next) return;
    setView(next);
    setStatus(next.status);
    setForm(formOf(null));
    setDryRun(null);
    setPulled(null);
  };

  const preview = async (to = target) => {
    clear();
    const outcome = await work(t('datasetOpPreview'), () => api.call('dataset.preview', { target: to }));
    if (!outcome) return;
    if (outcome.failure) return setFailure(outcome.failure);
    setDryRun(outcome);
    setMessage(outcome.message);
  };

  const publish = async () => {
    if (!dryRun) return;
    clear();
    const custom = message.trim() && message.trim() !== dryRun.message.trim() ? message : undefined;
    const outcome = await work(t('datasetOpPublish'), () => api.call('dataset.publish', { message: custom, target }));
    setDryRun(null);
    if (!outcome) return;
    if (outcome.failure) setFailure(outcome.failure);
    else setPublished(outcome);
  };

  const afterPull = (outcome: ResponseOf<'dataset.pull'> | null) => {
    if (!outcome) return;
    if (outcome.failure) return setFailure(outcome.failure);
    setPulled(outcome);
    setChoices(new Map());
    onPulled?.();
  };
  const pull = async () => {
    clear();
    setPulled(null);
    afterPull(await work(t('datasetOpPull'), () => api.call('dataset.pull', {})));
  };
  /** Settles the conflicts shown as chosen (each defaults to keeping the local version); any new one waits. */
  const settle = async () => {
    if (!pulled) return;
    clear();
    const resolutions = pulled.conflicts.map((c) => ({ ref: c.ref, take: choices.get(c.ref) ?? ('mine' as const) }));
    afterPull(await work(t('datasetSettling'), () => api.call('dataset.settle', { resolutions, rest: 'later' })));
  };

  const link = view?.link ?? null;
  const connected = !!link && !editing;
  const running = status?.running;
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  return (
    <section class="card" aria-labelledby="dataset-h" data-testid="dataset-panel" data-connected={connected ? 'yes' : 'no'} aria-busy={!!busy}>
      <h2 id="dataset-h">{t('datasetTitle')}</h2>
      {!view && <p class="muted">{t('datasetReading')}</p>}
      {view && !link && !editing && (
        <div class="empty" data-testid="dataset-empty">
          <p>
            <strong>{t('datasetEmptyTitle')}</strong> {t('datasetEmptyLead')}
          </p>
          <div class="actions">
            <button type="button" class="primary" data-testid="dataset-connect-open" onClick={() => setEditing(true)}>
              {t('datasetConnectOpen')}
            </button>
          </div>
          <p class="muted small">{t('datasetEmptyTail')}</p>
        </div>
      )}
      {view && editing && (
        <form
          class="dataset-form"
          data-testid="dataset-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label class="field">
            <span>{t('datasetUrl')}</span>
            <input
              type="url"
              required
              placeholder={t('datasetUrlExample')}
              value={form.url}
              data-testid="dataset-url"
              onInput={(e) => set('url', e.currentTarget.value)}
            />
          </label>
          <div class="field-row">
            <label class="field">
              <span>{t('datasetBranch')}</span>
              <input type="text" required value={form.branch} data-testid="dataset-branch" onInput={(e) => set('branch', e.currentTarget.value)} />
            </label>
            <label class="field">
              <span>{t('datasetName')}</span>
              <input type="text" required value={form.name} data-testid="dataset-name" onInput={(e) => set('name', e.currentTarget.value)} />
            </label>
          </div>
          <div class="field-row">
            <label class="field">
              <span>{t('datasetToken')}</span>
              <input
                type="password"
                autocomplete="off"
                placeholder={view.hasToken ? t('datasetTokenKept') : ''}
                value={form.token}
                data-testid="dataset-token"
                onInput={(e) => set('token', e.currentTarget.value)}
              />
            </label>
            <label class="field">
              <span>{t('datasetUsername')}</span>
              <input
                type="text"
                placeholder={t('datasetUsernameHint')}
                value={form.username}
                data-testid="dataset-username"
                onInput={(e) => set('username', e.currentTarget.value)}
              />
            </label>
          </div>
          <p class="muted small">{t('datasetTokenExplained')}</p>
          <fieldset class="dataset-target">
            <legend>{t('datasetPublishTo')}</legend>
            <label class="check">
              <input type="radio" name="dataset-form-target" checked={form.target === 'branch'} onChange={() => set('target', 'branch')} />{' '}
              {t('datasetTargetBranchPlain')}
            </label>
            <label class="check">
              <input
                type="radio"
                name="dataset-form-target"
                checked={form.target === 'review'}
                data-testid="dataset-form-review"
                onChange={() => set('target', 'review')}
              />{' '}
              {t('datasetTargetReviewPlain')}
            </label>
          </fieldset>
          <div class="field-row">
            <label class="check">
              <input
                type="checkbox"
                checked={form.pullOnStart}
                data-testid="dataset-pull-on-start"
                onChange={(e) => set('pullOnStart', e.currentTarget.checked)}
              />{' '}
              {t('datasetPullOnStart')}
            </label>
            <label class="check">
              {t('datasetPullEvery')}{' '}
              <input
                type="number"
                min={0}
                max={1440}
                class="minutes"
                value={form.pullEveryMinutes}
                data-testid="dataset-pull-every"
                onInput={(e) => set('pullEveryMinutes', Number(e.currentTarget.value))}
              />{' '}
              {t('datasetMinutes')}
            </label>
          </div>
          <div class="actions">
            <button type="submit" class="primary" disabled={!!busy} data-testid="dataset-save">
              {t('datasetSave')}
            </button>
            <button type="button" disabled={!!busy} data-testid="dataset-test" onClick={() => void test()}>
              {t('datasetTest')}
            </button>
            <button
              type="button"
              disabled={!!busy}
              onClick={() => {
                clear();
                setEditing(false);
                setForm(formOf(link));
              }}
            >
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
      {connected && link && (
        <div class="dataset-connected">
          <p data-testid="dataset-where">
            {t('datasetConnectedTo')} <code>{link.url}</code> · <code>{link.branch}</code> · {link.name}
          </p>
          {status && (
            <ul class="dataset-status" data-testid="dataset-status" data-unpublished={status.unpublished} data-conflicts={status.conflicts}>
              {statusParts(status).map((part) => (
                <li key={part}>{part}</li>
              ))}
            </ul>
          )}
          {status?.lastError && <FailureView failure={status.lastError} testId="dataset-auto-error" />}
          {status && (
            <DatasetReviews
              reviews={status.reviews}
              busy={!!busy || !!dryRun}
              onUpdate={() => {
                setTarget('review');
                void preview('review');
              }}
            />
          )}
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={!!busy || !!dryRun}
              data-testid="dataset-publish"
              onClick={() => {
                // The dry run starts at the connection's target (a review, when the curator publishes for review).
                setTarget(link.target);
                void preview(link.target);
              }}
            >
              {t('datasetPublishEllipsis')}
            </button>
            <button type="button" disabled={!!busy} data-testid="dataset-pull" onClick={() => void pull()}>
              {t('datasetPullNow')}
            </button>
            <button
              type="button"
              disabled={!!busy}
              data-testid="dataset-edit"
              onClick={() => {
                clear();
                setEditing(true);
                setTarget(link.target);
              }}
            >
              {t('datasetEdit')}
            </button>
            <button type="button" class="link" disabled={!!busy} data-testid="dataset-disconnect" onClick={() => void disconnect()}>
              {t('datasetDisconnect')}
            </button>
          </div>
        </div>
      )}
      {busy && (
        <div class="dataset-progress" role="status" data-testid="dataset-progress">
          <progress class="progress" />
          <span>{running ? activityText(running) : busy}</span>
        </div>
      )}
      {problem && (
        <p class="error" role="alert" data-testid="dataset-problem">
          {problem}
        </p>
      )}
      {failure && <FailureView failure={failure} testId="dataset-failure" />}
      {check && (
        <p class="ok-text" role="status" data-testid="dataset-check">
          {check.empty ? t('datasetCheckEmpty', form.branch) : t('datasetCheckOk', form.branch)}
        </p>
      )}
      {dryRun && link && (
        <DryRun
          run={dryRun}
          branch={link.branch}
          target={target}
          message={message}
          onTarget={(to) => {
            setTarget(to);
            void preview(to);
          }}
          onMessage={setMessage}
          onPublish={() => void publish()}
          onCancel={() => setDryRun(null)}
        />
      )}
      {published && (
        <div class="ok-text" role="status" data-testid="dataset-published" data-status={published.status}>
          <p>
            {published.status === 'nothing'
              ? t('datasetNothingToPublish')
              : t(
                  'datasetPublishedTo',
                  published.pushedTo,
                  (published.commit ?? '').slice(0, 7),
                  published.totals.added + published.totals.changed + published.totals.deleted,
                )}
            {published.merges > 0 && ` ${t('datasetMerged')}`}
          </p>
          {published.conflicts > 0 && <p class="reminder">{plural(published.conflicts, 'datasetLeftOutOne', 'datasetLeftOutMany')}</p>}
          {published.reviewUrl && (
            <p>
              <a href={published.reviewUrl} target="_blank" rel="noreferrer noopener" data-testid="dataset-review-link">
                {t('datasetOpenReview')}
              </a>
            </p>
          )}
        </div>
      )}
      {pulled && (
        <div class={pulled.conflictCount ? 'dataset-pulled warn' : 'dataset-pulled ok-text'} role="status" data-testid="dataset-pulled">
          <p>{pullSummary(pulled)}</p>
          {pulled.conflictCount > 0 && (
            <div class="conflicts" data-testid="dataset-conflicts">
              <p class="muted small">{t('datasetConflictsExplained')}</p>
              {pulled.conflicts.map((c) => (
                <Conflict
                  key={c.ref}
                  conflict={c}
                  fileName={t('datasetTheDataset')}
                  take={choices.get(c.ref) ?? 'mine'}
                  onChoose={(take) => setChoices((m) => new Map(m).set(c.ref, take))}
                />
              ))}
              <div class="actions">
                <button type="button" class="primary" disabled={!!busy} data-testid="dataset-settle" onClick={() => void settle()}>
                  {t('datasetSettle')}
                </button>
                <button type="button" disabled={!!busy} data-testid="dataset-settle-later" onClick={() => setPulled(null)}>
                  {t('datasetLater')}
                </button>
              </div>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
