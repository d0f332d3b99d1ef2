/** Rechecking sources: each claim's verdict on a source as served today, the new sentences worth a look, the fetching limits and the report. Pure. */
export * from './verdicts';
export * from './candidates';
export * from './fetch';
export * from './hidden';
export * from './report';
export * from './source';
export * from './word-diff';
export * from './stored';
export * from './run';
export * from './runner';
export * from './content';
export * from './view';
