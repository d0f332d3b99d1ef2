/**
 * What the `recheck` benchmark runs, in one module so that tsx loads each file once (recheck-corpus.mjs imports it
 * with `tsImport`): the parse and recheck `survey recheck` runs on a fetched page, the plain anchoring pass as the
 * peer, the revision corpus and the judging the unit test uses.
 */
export { anchorAll } from '../../../lib/anchoring';
export { recheckPage } from '../../../lib/recheck/source';
export { haveRevisions, loadRevisions, REVISIONS } from '../../anchoring/corpus';
export { judgeVerdict, tallyVerdicts } from '../../anchoring/recheck-judge';
export { parsePage } from '../../survey/parse';
