/** The `survey` package's version, from its manifest (inlined in the packed bundle). */
import manifest from '../../packages/survey/package.json' with { type: 'json' };

/** What `survey --version` prints. */
export const SURVEY_VERSION: string = manifest.version;
