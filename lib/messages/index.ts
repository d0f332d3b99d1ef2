/** The message protocol and its transport. */
export * from './protocol';
export * from './transport';
