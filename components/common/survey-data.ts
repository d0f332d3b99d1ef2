/** The whole store's records as the pages read them: `survey.data`, in parts, parsed once. */
import type { Caller } from '../../lib/messages/caller';
import type { ExportData } from '../../lib/export/files';
import { readAllParts } from '../../lib/messages/text-parts';

/** Reads every claim, model record and source record through `survey.data` (a long read comes in parts). */
export async function readSurvey(call: Caller<'survey.data'>): Promise<ExportData> {
  return JSON.parse(await readAllParts((request) => call('survey.data', request))) as ExportData;
}
