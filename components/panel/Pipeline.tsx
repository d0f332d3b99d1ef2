/**
 * The seed's pipeline drawn for one model: Pretrain/Midtrain → SFT/Distillation
 * → Reasoning RL → Agentic/Tool RL → General/Preference RL → OPD/Distillation/Merge,
 * with VLM/Omni RL branching beside Agentic RL. Each stage is disclosed (with
 * its values) or "not disclosed" with the date it was last checked.
 */
import type { Stage } from '../../lib/schema';
import { stageLabel, t } from '../../lib/i18n';
import type { StageCell } from '../../lib/survey';

const MAIN_LINE: Stage[] = ['pretrain_midtrain', 'sft_distillation', 'reasoning_rl', 'agentic_rl', 'general_rl', 'opd_merge'];

/** The pipeline diagram; `onRecordUndisclosed` adds a "not disclosed" record for a stage. */
export function Pipeline({ stages, onRecordUndisclosed }: { stages: readonly StageCell[]; onRecordUndisclosed?: (stage: Stage) => void }) {
  const cell = (stage: Stage) => stages.find((s) => s.stage === stage);
  const node = (stage: Stage, branch = false) => {
    const c = cell(stage);
    const disclosed = !!c?.disclosed;
    return (
      <li
        key={stage}
        class={`stage ${disclosed ? 'stage-on' : 'stage-off'} ${branch ? 'stage-branch' : ''}`}
        data-testid={`stage-${stage}`}
        data-disclosed={disclosed}
      >
        <div class="stage-head">
          <span class="stage-dot" aria-hidden="true" />
          <span class="stage-name">{stageLabel(stage)}</span>
          {!disclosed && <span class="stage-nd">{t('notDisclosed')}</span>}
        </div>
        {disclosed ? (
          <div class="stage-values">
            {c!.items.map((item) => (
              <span key={item.value} class={`chip kind-${item.kind}`} title={t('chipTitle', item.claimIds.length, item.evidence)}>
                {item.value}
              </span>
            ))}
          </div>
        ) : (
          <div class="stage-values muted">
            {c?.lastChecked ? t('lastChecked', c.lastChecked) : t('noSourceForStage')}
            {onRecordUndisclosed && (
              <button type="button" class="link" onClick={() => onRecordUndisclosed(stage)}>
                {t('recordUndisclosed')}
              </button>
            )}
          </div>
        )}
      </li>
    );
  };
  return (
    <ol class="pipeline" aria-label={t('pipelineAria')}>
      {MAIN_LINE.map((stage) => [node(stage), stage === 'agentic_rl' ? node('vlm_omni_rl', true) : null])}
    </ol>
  );
}
