/**
 * One-click backup and restore of the whole store, and the reminder to back up once the store has changed a
 * lot (50 changed records, or 14 days with unsaved changes) since the last backup.
 */
import { useEffect, useState } from 'preact/hooks';
import type { BackupStatus } from '../../lib/backup';
import type { RecordCounts } from '../../lib/transfer';
import type { BackupApi } from './api';
import { EXPORT_MIME, exportFileName, localDate } from '../../lib/export/files';
import { downloadText } from '../common/files';
import { commitJob, previewFile, refusedReport, storedReport, type ImportJob, type ImportReport } from './importer';
import { ErrorList } from './ImportPanel';
import { plural, t } from '../../lib/i18n';
import { backupReason } from '../common/i18n';

function describeCounts(c: RecordCounts): string {
  return t(
    'countsList',
    plural(c.claims, 'claimsOne', 'claimsMany'),
    plural(c.models, 'modelRecordsOne', 'modelRecordsMany'),
    plural(c.sources, 'sourceCorrectionsOne', 'sourceCorrectionsMany'),
  );
}

function when(timestamp: string): string {
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : `${localDate(d)} ${d.toTimeString().slice(0, 5)}`;
}

/** The backup card. `version` changes when the store does; `onRestored` runs after a restore. */
export function BackupPanel({ version = 0, onRestored, api }: { version?: number; onRestored: () => void; api: BackupApi }) {
  const [status, setStatus] = useState<BackupStatus | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [job, setJob] = useState<ImportJob | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [runs, setRuns] = useState(0);

  const refresh = () => api.call('backup.status', {}).then(setStatus, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  useEffect(() => {
    void refresh();
  }, [version, api]);

  const backup = async () => {
    setBusy(t('writingBackup'));
    setError(null);
    try {
      const { text, counts } = await api.call('backup.create', {});
      const fileName = exportFileName('backup', localDate());
      downloadText(fileName, text, EXPORT_MIME.backup);
      setMade(t('downloadedBackup', fileName, describeCounts(counts)));
      await refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };

  const choose = async (file: File) => {
    setReport(null);
    setMade(null);
    setBusy(t('readingFile', file.name));
    const found = await previewFile(api, file, {
      format: 'auto',
      mode: 'replace',
      onProgress: (loaded, total) => setBusy(`${t('readingFile', file.name)} ${Math.round((loaded / Math.max(1, total)) * 100)}%`),
      onChecking: () => setBusy(t('checkingFile', file.name)),
    });
    setBusy(null);
    if (found.preview?.token) setJob(found);
    else {
      setReport(refusedReport(found));
      setRuns((n) => n + 1);
    }
  };

  const restore = async () => {
    if (!job) return;
    setBusy(t('restoringFile', job.fileName));
    try {
      setReport(storedReport(job, await commitJob(api, job, [], 'mine')));
      onRestored();
    } catch (e) {
      setReport(refusedReport({ ...job, failure: e instanceof Error ? e.message : String(e) }));
    } finally {
      setJob(null);
      setBusy(null);
      setRuns((n) => n + 1);
      void refresh();
    }
  };

  const p = job?.preview;
  return (
    <section class="card" aria-labelledby="backup-h" data-testid="backup-panel" data-runs={runs}>
      <h2 id="backup-h">{t('backup')}</h2>
      {status?.due && (
        <p class="reminder" role="alert" data-testid="backup-reminder">
          <strong>{t('backupTimeLead')}</strong> {t('sentence', backupReason(status))}
        </p>
      )}
      <p class="muted" data-testid="backup-last">
        {status
          ? `${status.lastBackupAt ? t('lastBackup', when(status.lastBackupAt)) : t('noBackupYet')} · ${plural(status.changes, 'changedSinceOne', 'changedSinceMany')}`
          : t('readingBackupStatus')}
      </p>
      <div class="actions">
        <button type="button" class="primary" data-testid="backup-now" disabled={!!busy} onClick={() => void backup()}>
          {t('backUpNow')}
        </button>
        <label class="button-like">
          {t('restoreFromBackup')}
          <input
            type="file"
            class="visually-hidden"
            accept=".json,.jsonl,application/json,application/x-ndjson"
            data-testid="restore-input"
            disabled={!!busy || !!job}
            onChange={(e) => {
              const input = e.currentTarget;
              const file = input.files?.[0];
              if (file) void choose(file).then(() => (input.value = ''));
            }}
          />
        </label>
      </div>
      {busy && (
        <p class="muted" role="status">
          {busy}
        </p>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {made && (
        <p class="muted small" data-testid="backup-made">
          {made}
        </p>
      )}
      {p && job && (
        <div class="restore-preview" data-testid="restore-preview">
          <p>
            {t('restoringLead')}
            <strong>{job.fileName}</strong>
            {t('restoringTail')}
          </p>
          <ul>
            <li>{t('restoreNow', p.store ? describeCounts(p.store) : '—')}</li>
            <li>{t('restoreAfter', describeCounts(p.incoming))}</li>
            <li data-testid="restore-counts">{t('restoreCounts', p.added, p.updated, p.removed)}</li>
          </ul>
          <div class="actions">
            <button type="button" class="danger" data-testid="restore-confirm" onClick={() => void restore()}>
              {t('restoreConfirm')}
            </button>
            <button type="button" data-testid="restore-cancel" onClick={() => setJob(null)}>
              {t('cancel')}
            </button>
          </div>
        </div>
      )}
      {report && (
        <div class={report.stored ? 'ok-text' : 'error'} data-testid="restore-result">
          <strong>{report.fileName}</strong> — {report.summary}
          {report.errors.length > 0 && <ErrorList fileName={report.fileName} errors={report.errors} more={report.moreErrors} />}
        </div>
      )}
      <p class="muted small">{t('backupExplained')}</p>
    </section>
  );
}
