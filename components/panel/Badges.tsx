/** Small shared pieces of the panel: evidence badge, kind chip, warnings. */
import type { ClaimKind, Evidence, SourceKind } from '../../lib/schema';
import { kindLabel, plural, t, type MessageKey } from '../../lib/i18n';
import type { EvidenceReason, Warning } from '../../lib/survey';

/** An evidence level badge with its explanation on hover. */
export function EvidenceBadge({ level, title }: { level: Evidence; title?: string | null }) {
  return (
    <span class={`ev ev-${level}`} title={title ?? t('evidenceLevelN', level)} aria-label={t('evidenceN', level) + (title ? `${t('colon')}${title}` : '')}>
      {level}
    </span>
  );
}

/** Why a row has its evidence level, in the current language: "A: 3 claims from a technical report". */
export function evidenceText(reason: EvidenceReason): string {
  if (reason.why !== 'sources') return t(reason.why === 'none' ? 'evWhyNone' : reason.why === 'undisclosed' ? 'evWhyUndisclosed' : 'evWhyThirdParty');
  const parts = reason.sources.map(({ kind, count }: { kind: SourceKind; count: number }) =>
    count === 1 ? t(`srcOne_${kind}` as MessageKey) : t(`srcMany_${kind}` as MessageKey, count),
  );
  const sources = parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(t('listSep'))}${t('listAnd')}${parts[parts.length - 1]}`;
  return t('evWhySources', reason.level, plural(reason.claims, 'evClaimsOne', 'evClaimsMany'), sources);
}

/** A claim kind chip in its kind's colour. */
export function KindChip({ kind }: { kind: ClaimKind }) {
  return <span class={`kind kind-${kind}`}>{kindLabel(kind)}</span>;
}

/** Names as a list in the current language: “a”, “b” or “c”. */
function listOr(names: readonly string[]): string {
  const quoted = names.map((n) => t('quoted', n));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(t('listSep'))}${t('listOr')}${quoted[quoted.length - 1]}`;
}

/** A warning's text in the current language (its English `message` when it carries no details to translate with). */
export function warningText(w: Warning): string {
  const args = w.args ?? [];
  switch (w.code) {
    case 'version_extrapolation':
      return args.length >= 2 ? t('warn_version_extrapolation', args[0]!, listOr(args.slice(1))) : w.message;
    case 'stale':
      return args.length === 2 ? t('warn_stale', args[0]!, plural(Number(args[1]), 'monthsOne', 'monthsMany')) : w.message;
    default:
      return t(`warn_${w.code}` as MessageKey);
  }
}

/** A list of rule warnings. */
export function Warnings({ warnings }: { warnings: readonly Warning[] }) {
  if (!warnings.length) return null;
  return (
    <ul class="warnings" data-testid="warnings">
      {warnings.map((w, i) => (
        <li key={`${w.code}:${w.claimId ?? ''}:${i}`} class={`warning warning-${w.code}`}>
          {warningText(w)}
        </li>
      ))}
    </ul>
  );
}
