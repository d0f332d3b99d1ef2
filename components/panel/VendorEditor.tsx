/**
 * A model row's vendor: the stored one, or the one its first-party sources propose (marked as proposed until
 * saved). One click accepts the proposal; Edit (or Enter on the name) edits it in place: Enter saves, Escape
 * cancels, an empty name clears the stored vendor.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { rowVendor, type SurveyRow } from '../../lib/survey';

/** The vendor as text: the name, "(proposed)" after a proposal, "vendor unknown" when there is none. */
export function vendorText(row: SurveyRow): string {
  const { name, proposed } = rowVendor(row);
  if (!name) return t('vendorUnknown');
  return proposed ? t('vendorProposed', name) : name;
}

/** Shows a row's vendor and edits it. */
export function VendorEditor({ row, onSave }: { row: SurveyRow; onSave: (vendor: string | null) => Promise<void> }) {
  const { name, proposed } = rowVendor(row);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name ?? '');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => setDraft(name ?? ''), [name]);
  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const save = async (vendor: string | null) => {
    try {
      await onSave(vendor);
      setEditing(false);
      setError(null);
    } catch (e) {
      setError(t('notSavedBecause', e instanceof Error ? e.message : String(e)));
    }
  };

  if (editing) {
    return (
      <span class="vendor-edit">
        <input
          ref={input}
          value={draft}
          data-testid="vendor-input"
          aria-label={t('vendor')}
          placeholder={t('vendorPlaceholder')}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              // The field itself, not the state: a keystroke can arrive before the last input was rendered.
              void save(e.currentTarget.value.trim() || null);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              setDraft(name ?? '');
              setEditing(false);
            }
          }}
        />
        <button type="button" class="btn" data-testid="vendor-save" onClick={() => void save((input.current?.value ?? draft).trim() || null)}>
          {t('save')}
        </button>
        <button type="button" class="link" onClick={() => setEditing(false)}>
          {t('cancel')}
        </button>
        {error && <span class="error small">{error}</span>}
      </span>
    );
  }
  return (
    <span class="vendor-view">
      <span
        class={proposed ? 'vendor-proposed' : name ? '' : 'nd'}
        data-testid="vendor"
        data-proposed={String(proposed)}
        title={proposed ? t('vendorProposedTitle') : undefined}
      >
        {vendorText(row)}
      </span>{' '}
      {proposed && name && (
        <button type="button" class="link" data-testid="vendor-accept" onClick={() => void save(name)}>
          {t('vendorAccept')}
        </button>
      )}{' '}
      <button type="button" class="link" data-testid="vendor-edit" onClick={() => setEditing(true)}>
        {name ? t('vendorEdit') : t('vendorSet')}
      </button>
      {error && <span class="error small"> {error}</span>}
    </span>
  );
}
