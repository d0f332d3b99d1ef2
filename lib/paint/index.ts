/** Painting claims on a page and finding the claims under a point. */
export * from './kinds';
export * from './painter';
