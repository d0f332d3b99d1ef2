/** The "Current judgment" cell, edited in place: click or Enter to edit, Enter to save, Escape to cancel. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';

/** Shows a judgment and edits it in place. */
export function JudgmentEditor({ value, onSave, compact = false }: { value: string; onSave: (next: string) => Promise<void>; compact?: boolean }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (editing) area.current?.focus();
  }, [editing]);
  const save = async () => {
    try {
      await onSave(draft.trim());
      setEditing(false);
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  if (!editing) {
    return (
      <button
        type="button"
        class={`judgment ${compact ? 'judgment-compact' : ''} ${value ? '' : 'nd'}`}
        data-testid="judgment"
        title={t('judgmentEditTitle')}
        onClick={(e) => {
          e.stopPropagation();
          setEditing(true);
        }}
      >
        {value || t('judgmentAdd')}
      </button>
    );
  }
  return (
    <div class="judgment-edit" onClick={(e) => e.stopPropagation()}>
      <textarea
        ref={area}
        rows={compact ? 3 : 4}
        value={draft}
        data-testid="judgment-input"
        aria-label={t('colJudgment')}
        onInput={(e) => setDraft(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            setDraft(value);
            setEditing(false);
          }
        }}
      />
      <span class="muted small">{t('judgmentKeys')}</span>
      {error && <span class="error small">{error}</span>}
    </div>
  );
}
