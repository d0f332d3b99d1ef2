/**
 * Importing survey records (JSONL) or W3C annotations: pick or drop files; each is read with progress and
 * checked by the background first (a dry run: new, updated, unchanged, conflicts side by side, bad lines),
 * then stored on confirmation in one all-or-nothing transaction per file.
 */
import { useState } from 'preact/hooks';
import type { ConflictView } from '../../lib/transfer';
import type { ImportFormat } from '../../lib/import/files';
import { plural, t } from '../../lib/i18n';
import {
  commitJob,
  describeLineError,
  previewFile,
  refusedReport,
  showValue,
  storedReport,
  type ImportApi,
  type ImportJob,
  type ImportReport,
} from './importer';

type Take = 'mine' | 'theirs';
type Stage = 'idle' | 'working' | 'preview' | 'done';

/** The import control: preview, conflicts, confirmation, and the report of what each file did. */
export function ImportPanel({ onImported, api }: { onImported: () => void; api: ImportApi }) {
  const [stage, setStage] = useState<Stage>('idle');
  const [jobs, setJobs] = useState<ImportJob[]>([]);
  const [choices, setChoices] = useState<Map<string, Take>>(new Map());
  const [rest, setRest] = useState<Map<number, Take>>(new Map());
  const [reports, setReports] = useState<ImportReport[]>([]);
  const [status, setStatus] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [format, setFormat] = useState<ImportFormat | 'auto'>('auto');
  const [dragging, setDragging] = useState(false);
  const [runs, setRuns] = useState(0);
  const [timing, setTiming] = useState<{ preview: number; commit: number }>({ preview: 0, commit: 0 });

  const finish = (done: ImportReport[], stored: boolean) => {
    setReports(done);
    setJobs([]);
    setChoices(new Map());
    setRest(new Map());
    setStatus(null);
    setProgress(null);
    setStage('done');
    setRuns((n) => n + 1);
    if (stored) onImported();
  };

  const start = async (files: FileList | File[]) => {
    const list = [...files];
    const t0 = performance.now();
    setStage('working');
    setReports([]);
    const found: ImportJob[] = [];
    for (const [i, file] of list.entries()) {
      const name = list.length > 1 ? t('fileOfFiles', file.name, i + 1, list.length) : file.name;
      setStatus(t('readingFile', name));
      setProgress({ loaded: 0, total: file.size });
      found.push(
        await previewFile(api, file, {
          format,
          mode: 'merge',
          onProgress: (loaded, total) => setProgress({ loaded, total }),
          onChecking: () => {
            setStatus(t('checkingFileLines', name));
            setProgress(null);
          },
        }),
      );
    }
    setTiming({ preview: performance.now() - t0, commit: 0 });
    if (!found.some((j) => j.preview?.token)) {
      finish(found.map(refusedReport), false);
      return;
    }
    setJobs(found);
    setStatus(null);
    setProgress(null);
    setStage('preview');
  };

  const confirm = async () => {
    const t0 = performance.now();
    setStage('working');
    const done: ImportReport[] = [];
    let stored = false;
    for (const [i, job] of jobs.entries()) {
      if (!job.preview?.token) {
        done.push(refusedReport(job));
        continue;
      }
      setStatus(t('storingFile', job.fileName));
      const resolutions = job.preview.conflicts.map((c) => ({ ref: c.ref, take: choices.get(`${i}\u0000${c.ref}`) ?? rest.get(i) ?? 'mine' }));
      try {
        const report = storedReport(job, await commitJob(api, job, resolutions, rest.get(i) ?? 'mine'));
        stored ||= report.stored;
        done.push(report);
      } catch (error) {
        done.push({ ...refusedReport({ ...job, failure: error instanceof Error ? error.message : String(error) }) });
      }
    }
    setTiming((t) => ({ ...t, commit: performance.now() - t0 }));
    finish(done, stored);
  };

  const cancel = () => finish([], false);
  const choose = (job: number, ref: string, take: Take) => setChoices((m) => new Map(m).set(`${job}\u0000${ref}`, take));
  const chooseAll = (job: number, take: Take) => {
    setChoices((m) => {
      const next = new Map(m);
      for (const c of jobs[job]?.preview?.conflicts ?? []) next.set(`${job}\u0000${c.ref}`, take);
      return next;
    });
    setRest((m) => new Map(m).set(job, take));
  };

  const importable = jobs.filter((j) => j.preview?.token).length;
  return (
    <section
      class="card"
      aria-labelledby="import-h"
      data-testid="import-panel"
      data-runs={runs}
      data-stage={stage}
      data-preview-ms={timing.preview.toFixed(0)}
      data-commit-ms={timing.commit.toFixed(0)}
    >
      <h2 id="import-h">{t('importRecords')}</h2>
      <p class="muted">
        {t('importIntroLead')}
        <code>rl-survey.claim/1</code>, <code>rl-survey.model/1</code>
        {t('importIntroTail')}
      </p>
      <div class="row">
        <label>
          {t('format')}{' '}
          <select
            value={format}
            data-testid="import-format"
            disabled={stage === 'working'}
            onChange={(e) => setFormat(e.currentTarget.value as ImportFormat | 'auto')}
          >
            <option value="auto">{t('formatDetect')}</option>
            <option value="jsonl">{t('exportJsonl')}</option>
            <option value="w3c">{t('exportW3c')}</option>
          </select>
        </label>
      </div>
      <label
        class={`drop ${dragging ? 'drop-on' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (stage !== 'working' && stage !== 'preview' && e.dataTransfer?.files.length) void start(e.dataTransfer.files);
        }}
      >
        <input
          type="file"
          accept=".jsonl,.ndjson,.json,.jsonld,application/x-ndjson,application/json,application/ld+json,text/plain"
          multiple
          data-testid="import-input"
          disabled={stage === 'working' || stage === 'preview'}
          onChange={(e) => {
            const input = e.currentTarget;
            if (input.files?.length) void start(input.files).then(() => (input.value = ''));
          }}
        />
        <span>{t('chooseFiles')}</span>
      </label>
      {status && (
        <p class="muted" role="status" data-testid="import-status">
          {status}
        </p>
      )}
      {progress && progress.total > 0 && (
        <progress class="progress" max={progress.total} value={progress.loaded} aria-label={t('readingTheFile')}>
          {Math.round((progress.loaded / progress.total) * 100)}%
        </progress>
      )}
      {stage === 'preview' && (
        <div class="preview" data-testid="import-previews">
          <h3>{t('checkBeforeImport')}</h3>
          <ul class="results">
            {jobs.map((job, i) => (
              <JobPreview
                key={`${i}:${job.fileName}`}
                job={job}
                take={(ref) => choices.get(`${i}\u0000${ref}`) ?? rest.get(i) ?? 'mine'}
                rest={rest.get(i) ?? 'mine'}
                onChoose={(ref, take) => choose(i, ref, take)}
                onChooseAll={(take) => chooseAll(i, take)}
              />
            ))}
          </ul>
          <div class="actions">
            <button type="button" class="primary" data-testid="import-confirm" onClick={() => void confirm()}>
              {importable === 1 ? t('importThisFile') : t('importFiles', importable)}
            </button>
            <button type="button" data-testid="import-cancel" onClick={cancel}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
      {reports.length > 0 && (
        <ul class="results" data-testid="import-results">
          {reports.map((r, i) => (
            <li key={`${i}:${r.fileName}`} class={r.stored ? 'ok' : 'bad'} data-testid="import-result">
              <strong>{r.fileName}</strong>
              <span> — {r.summary}</span>
              {r.errors.length > 0 && <ErrorList fileName={r.fileName} errors={r.errors} more={r.moreErrors} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Problem lines, each with its file and line. */
export function ErrorList({ fileName, errors, more }: { fileName: string; errors: ReadonlyArray<{ line: number; message: string }>; more: number }) {
  return (
    <ul class="errors" data-testid="import-errors">
      {errors.map((e, i) => (
        <li key={i}>{describeLineError(fileName, e)}</li>
      ))}
      {more > 0 && <li>{t('andMore', more)}</li>}
    </ul>
  );
}

function JobPreview({
  job,
  take,
  rest,
  onChoose,
  onChooseAll,
}: {
  job: ImportJob;
  take: (ref: string) => Take;
  rest: Take;
  onChoose: (ref: string, take: Take) => void;
  onChooseAll: (take: Take) => void;
}) {
  const p = job.preview;
  if (!p?.token) {
    const report = refusedReport(job);
    return (
      <li class="bad" data-testid="import-preview" data-file={job.fileName}>
        <strong>{job.fileName}</strong>
        <span> — {report.summary}</span>
        {report.errors.length > 0 && <ErrorList fileName={job.fileName} errors={report.errors} more={report.moreErrors} />}
      </li>
    );
  }
  const items = p.format === 'w3c' ? plural(p.items, 'annotationsOne', 'annotationsMany') : plural(p.items, 'linesOne', 'linesMany');
  const hidden = p.conflictCount - p.conflicts.length;
  return (
    <li class={p.conflictCount ? 'warn' : 'ok'} data-testid="import-preview" data-file={job.fileName}>
      <strong>{job.fileName}</strong>
      <span class="muted"> {t('parenthesised', items)}</span>
      <p class="counts" data-testid="preview-counts">
        {t('previewCounts', p.added, p.updated, p.unchanged, plural(p.conflictCount, 'conflictsOne', 'conflictsMany'))}
      </p>
      {p.sourceRecords && p.sourceRecords.incoming > 0 && (
        <p class="counts muted" data-testid="preview-source-records">
          {t('previewSourceRecords', p.sourceRecords.incoming, p.sourceRecords.added, p.sourceRecords.updated, p.sourceRecords.unchanged)}
        </p>
      )}
      {p.conflictCount > 0 && (
        <div class="conflicts">
          <p class="muted small">
            {t('conflictsExplained')}{' '}
            <button type="button" class="link" data-testid="keep-all-mine" onClick={() => onChooseAll('mine')}>
              {t('keepMineAll')}
            </button>{' '}
            ·{' '}
            <button type="button" class="link" data-testid="take-all-theirs" onClick={() => onChooseAll('theirs')}>
              {t('takeTheirsAll')}
            </button>
          </p>
          {p.conflicts.map((c) => (
            <Conflict key={c.ref} conflict={c} fileName={job.fileName} take={take(c.ref)} onChoose={(t) => onChoose(c.ref, t)} />
          ))}
          {hidden > 0 && (
            <p class="muted small">
              {t(hidden === 1 ? 'moreConflictsOne' : 'moreConflictsMany', hidden, rest === 'mine' ? t('keepMineLower') : t('takeTheirsLower'))}
            </p>
          )}
        </div>
      )}
    </li>
  );
}

/** One conflict side by side: the field, the store's version and the incoming one, with the choice between them. */
export function Conflict({ conflict, fileName, take, onChoose }: { conflict: ConflictView; fileName: string; take: Take; onChoose: (take: Take) => void }) {
  const name = `take:${conflict.ref}`;
  return (
    <div class="conflict" data-testid="conflict" data-ref={conflict.ref} data-take={take}>
      <div class="conflict-head">
        <strong>{conflict.label}</strong>
        <label>
          <input type="radio" name={name} checked={take === 'mine'} data-testid="take-mine" onChange={() => onChoose('mine')} /> {t('keepMine')}
        </label>
        <label>
          <input type="radio" name={name} checked={take === 'theirs'} data-testid="take-theirs" onChange={() => onChoose('theirs')} /> {t('takeTheirs')}
        </label>
      </div>
      <table class="diff">
        <thead>
          <tr>
            <th scope="col">{t('diffField')}</th>
            <th scope="col">{t('diffMine')}</th>
            <th scope="col">{t('diffTheirs', fileName)}</th>
          </tr>
        </thead>
        <tbody>
          {conflict.diffs.map((d) => (
            <tr key={d.field} data-field={d.field}>
              <th scope="row">{d.field}</th>
              <td data-testid="mine" class={take === 'mine' ? 'chosen' : ''}>
                {showValue(d.ours)}
              </td>
              <td data-testid="theirs" class={take === 'theirs' ? 'chosen' : ''}>
                {showValue(d.theirs)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
