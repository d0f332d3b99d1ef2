/**
 * The Dataset card's state and work, grouped by job: the connection (what is saved, the form, editing), the work
 * running (its step, the status, what went wrong), the publish (dry run, target, message, outcome) and the pull
 * (outcome, the conflicts' choices). The card's parts only show it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ConnectionCheck, DatasetFailure, DatasetStatus, DatasetView, PublishDone, PublishDryRun, PullDone } from '../../lib/dataset/link';
import { t } from '../../lib/i18n';
import type { ResponseOf } from '../../lib/messages';
import type { DatasetApi } from '../common/dataset';
import { type Form, formOf, formProblem, linkOf } from './dataset-form';

/** Which version of a conflicting record to keep. */
export type Take = 'mine' | 'theirs';
/** Where a publish goes. */
export type Target = 'branch' | 'review';
const POLL_MS = 600;

/** The work running and what it said: its step, the status (polled while it runs), and its problem, failure or check. */
function useWork(api: DatasetApi) {
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<DatasetStatus | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<DatasetFailure | null>(null);
  const [check, setCheck] = useState<ConnectionCheck | null>(null);

  // While work runs, the status tells its step.
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(() => {
      api.call('dataset.status', {}).then(setStatus, () => undefined);
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [busy, api]);

  /** Runs one piece of work with its progress line; the status is read again after. */
  const work = async <T>(label: string, run: () => Promise<T>): Promise<T | null> => {
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
  return { busy, status, setStatus, problem, setProblem, failure, setFailure, check, setCheck, work };
}

/** The Dataset card's state and what its buttons do. */
export function useDataset(api: DatasetApi, version: number, onPulled?: () => void) {
  // The connection.
  const [view, setView] = useState<DatasetView | null>(null);
  const [form, setForm] = useState<Form>(formOf(null));
  const [editing, setEditing] = useState(false);
  const { busy, status, setStatus, problem, setProblem, failure, setFailure, check, setCheck, work } = useWork(api);
  // The publish.
  const [dryRun, setDryRun] = useState<PublishDryRun | null>(null);
  const [target, setTarget] = useState<Target>('branch');
  const [message, setMessage] = useState('');
  const [published, setPublished] = useState<PublishDone | null>(null);
  // The pull.
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

  const clear = () => {
    setProblem(null);
    setFailure(null);
    setCheck(null);
    setPublished(null);
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

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  return {
    connection: { view, form, editing, setEditing, setForm, set, test, save, disconnect },
    work: { busy, status, problem, failure, check, clear },
    publishing: { dryRun, setDryRun, target, setTarget, message, setMessage, published, preview, publish },
    pulling: { pulled, setPulled, choices, setChoices, pull, settle },
  };
}
