/** Importing survey-record JSONL: pick or drop files; every line is checked, and a file is stored whole or not at all. */
import { useState } from 'preact/hooks';
import { callBackground, type ImportResult } from '../../lib/messages';

const MAX_BYTES = 64 * 1024 * 1024;

/** The import control and the report of what each file did. */
export function ImportPanel({ onImported }: { onImported: (result: ImportResult) => void }) {
  const [results, setResults] = useState<ImportResult[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [runs, setRuns] = useState(0);

  const importFiles = async (files: FileList | File[]) => {
    const list = [...files];
    const done: ImportResult[] = [];
    setResults([]);
    for (const [i, file] of list.entries()) {
      setBusy(`Importing ${file.name} (${i + 1} of ${list.length})…`);
      if (file.size > MAX_BYTES) {
        done.push({ fileName: file.name, lines: 0, stored: false, added: 0, updated: 0, unchanged: 0, errors: [{ line: 0, message: `the file is ${(file.size / 1048576).toFixed(1)} MB; the limit is 64 MB — split it and import the parts` }] });
        continue;
      }
      try {
        const result = await callBackground('records.import', { text: await file.text(), fileName: file.name });
        done.push(result);
        if (result.stored) onImported(result);
      } catch (error) {
        done.push({ fileName: file.name, lines: 0, stored: false, added: 0, updated: 0, unchanged: 0, errors: [{ line: 0, message: error instanceof Error ? error.message : String(error) }] });
      }
    }
    setResults(done);
    setBusy(null);
    setRuns((n) => n + 1);
  };

  return (
    <section class="card" aria-labelledby="import-h" data-testid="import-panel" data-runs={runs}>
      <h2 id="import-h">Import survey records</h2>
      <p class="muted">
        JSONL files of <code>rl-survey.claim/1</code> and <code>rl-survey.model/1</code> records. Every line is validated; a file with any bad line is
        not stored at all. Records already here are replaced only by newer ones.
      </p>
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
          if (e.dataTransfer?.files.length) void importFiles(e.dataTransfer.files);
        }}
      >
        <input
          type="file"
          accept=".jsonl,.ndjson,.json,application/x-ndjson,application/json,text/plain"
          multiple
          data-testid="import-input"
          disabled={!!busy}
          onChange={(e) => {
            const input = e.currentTarget;
            if (input.files?.length) void importFiles(input.files).then(() => (input.value = ''));
          }}
        />
        <span>Choose files or drop them here</span>
      </label>
      {busy && (
        <p class="muted" role="status">
          {busy}
        </p>
      )}
      {results.length > 0 && (
        <ul class="results" data-testid="import-results">
          {results.map((r) => (
            <li key={r.fileName} class={r.stored ? 'ok' : 'bad'} data-testid="import-result">
              <strong>{r.fileName}</strong>
              {r.stored ? (
                <span>
                  {' '}
                  — imported: {r.added} new, {r.updated} updated, {r.unchanged} unchanged ({r.lines} lines)
                </span>
              ) : (
                <>
                  <span> — not imported, nothing was changed. Fix these lines and import the file again:</span>
                  <ul class="errors">
                    {r.errors.slice(0, 50).map((e) => (
                      <li key={`${e.line}:${e.message}`}>
                        {e.line > 0 ? `line ${e.line}: ` : ''}
                        {e.message}
                      </li>
                    ))}
                    {r.errors.length > 50 && <li>…and {r.errors.length - 50} more</li>}
                  </ul>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
