/**
 * The team's dataset: a git repository of survey records in the spec's
 * layout (`shared/spec/survey-records.md`, "The dataset repository"). This
 * part is pure — layout, reading, README, merging by identity, publish and
 * pull plans — and shared by the extension and the `survey` CLI; the git side
 * lives in `lib/dataset/git` with its file system and HTTP client passed in.
 */
export * from './hash';
export * from './build';
export * from './layout';
export * from './read';
export * from './readme';
export * from './merge';
export * from './publish';
export * from './pull';
export * from './status';
export * from './reviews';
export * from './sources';
