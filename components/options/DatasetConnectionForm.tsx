/** The Dataset card's connection form: address, branch, display name, token, username, where a publish goes, when to pull; save, test, cancel. */
import { t } from '../../lib/i18n';
import type { DatasetLink } from '../../lib/dataset/link';
import { type Form, formOf } from './dataset-form';

/** The connection form; `set` changes one field, `save` and `test` check it first. */
export function DatasetConnectionForm({
  form,
  hasToken,
  busy,
  link,
  set,
  setForm,
  save,
  test,
  clear,
  setEditing,
}: {
  form: Form;
  hasToken: boolean;
  busy: boolean;
  link: DatasetLink | null;
  set: <K extends keyof Form>(key: K, value: Form[K]) => void;
  setForm: (form: Form) => void;
  save: () => Promise<void>;
  test: () => Promise<void>;
  clear: () => void;
  setEditing: (editing: boolean) => void;
}) {
  return (
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
            placeholder={hasToken ? t('datasetTokenKept') : ''}
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
          <input type="checkbox" checked={form.pullOnStart} data-testid="dataset-pull-on-start" onChange={(e) => set('pullOnStart', e.currentTarget.checked)} />{' '}
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
        <button type="submit" class="primary" disabled={busy} data-testid="dataset-save">
          {t('datasetSave')}
        </button>
        <button type="button" disabled={busy} data-testid="dataset-test" onClick={() => void test()}>
          {t('datasetTest')}
        </button>
        <button
          type="button"
          disabled={busy}
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
  );
}
