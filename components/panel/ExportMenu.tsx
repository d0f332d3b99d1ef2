/** The survey view's compact "Export…" menu: what the survey currently shows, as records, table or annotations. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ExportKind } from '../../lib/export/files';
import { plural, t, type MessageKey } from '../../lib/i18n';

/** One export the menu offers. */
export interface PanelExportChoice {
  kind: ExportKind;
  lang: 'en' | 'zh';
}

const ITEMS: Array<PanelExportChoice & { label: MessageKey; id: string }> = [
  { id: 'jsonl', kind: 'jsonl', lang: 'en', label: 'exportJsonl' },
  { id: 'md-en', kind: 'md', lang: 'en', label: 'exportMdEn' },
  { id: 'md-zh', kind: 'md', lang: 'zh', label: 'exportMdZh' },
  { id: 'csv', kind: 'csv', lang: 'en', label: 'exportCsv' },
  { id: 'w3c', kind: 'w3c', lang: 'en', label: 'exportW3c' },
];

/**
 * The menu button and its items; `onExport` builds and downloads the file (its time, awaited, is shown in
 * `data-export-ms`). `prepared`: whether the panel has made an export of every row ahead (`data-export-prepared`).
 */
export function ExportMenu({
  rows,
  prepared = false,
  onExport,
}: {
  rows: number;
  prepared?: boolean;
  onExport(choice: PanelExportChoice): void | Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [ms, setMs] = useState<number | null>(null);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);
  const run = async (choice: PanelExportChoice) => {
    setOpen(false);
    const t0 = performance.now();
    await onExport(choice);
    setMs(performance.now() - t0);
  };
  return (
    <div
      class="export-menu"
      ref={root}
      data-testid="export-menu"
      data-export-ms={ms === null ? '' : ms.toFixed(1)}
      data-export-prepared={prepared ? 'yes' : 'no'}
    >
      <button
        type="button"
        class="export-button"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={rows === 0}
        data-testid="export-open"
        title={plural(rows, 'exportRowsOne', 'exportRowsMany')}
        onClick={() => setOpen((o) => !o)}
      >
        {t('exportMenu')}
      </button>
      {open && (
        <ul class="export-items" role="menu" aria-label={plural(rows, 'exportRowsOne', 'exportRowsMany')}>
          {ITEMS.map((item) => (
            <li key={item.id} role="none">
              <button type="button" role="menuitem" data-testid={`export-${item.id}`} onClick={() => void run(item)}>
                {t(item.label)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
