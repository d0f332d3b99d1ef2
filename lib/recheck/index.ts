/** Rechecking sources: each claim's verdict on a source as served today, and the new sentences worth a look. Pure. */
export * from './verdicts';
export * from './candidates';
