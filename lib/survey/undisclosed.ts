/**
 * Where an `undisclosed` claim belongs in the survey table: in the cell it
 * speaks about, as the seed writes "未公开" in its stages cell. Pure.
 *
 * - A claim with a stage speaks about that stage: the stages cell.
 * - Otherwise its value says: a framework, system or infrastructure → the
 *   framework cell; an intention, goal or motivation → the intention cell;
 *   stages, algorithms, rewards, a recipe, a pipeline → the stages cell.
 *   A value naming several ("RL framework and stages") stands in each.
 * - A value that names none of them ("general RL details") speaks about the
 *   recipe: the stages cell.
 */
import type { Stage } from '../schema';

/** A table column an undisclosed claim can stand in. */
export type UndisclosedColumn = 'framework' | 'stages' | 'intention';

const WORDS: ReadonlyArray<[UndisclosedColumn, RegExp]> = [
  ['framework', /framework|system|infra(?:structure)?|trainer|rollout engine|框架|系统|基础设施/i],
  ['stages', /stage|algorithm|reward|recipe|pipeline|method|objective|loss|optimi[sz]|阶段|算法|奖励|配方|流程|方法/i],
  ['intention', /intent|goal|motivation|purpose|design rationale|意图|目标|动机/i],
];
const ORDER: readonly UndisclosedColumn[] = ['framework', 'stages', 'intention'];

/** The cells an undisclosed claim (its value and stage) stands in, in table order (see the module comment). */
export function undisclosedColumns(item: { value: string; stage: Stage | null | undefined }): UndisclosedColumn[] {
  if (item.stage) return ['stages'];
  const found = new Set(WORDS.filter(([, re]) => re.test(item.value)).map(([column]) => column));
  return found.size === 0 ? ['stages'] : ORDER.filter((c) => found.has(c));
}
