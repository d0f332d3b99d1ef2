/**
 * The dataset service: the background's dataset operations (queue, keep-alive,
 * engine cache, the status line) with the browser's parts passed in.
 */
export { ActivityLine } from './activity';
export { connectionOf, EngineCache } from './engine-cache';
export { failureOf, notConnected } from './failure';
export { keptAlive, type IntervalTimers, type KeepAlive } from './keep-alive';
export type {
  ConnectionStore,
  DatasetEngine,
  DatasetServiceDeps,
  EngineFactory,
  EngineHooks,
  PullSchedule,
  DatasetStatePatch,
  SyncStore,
} from './ports';
export { OperationQueue } from './queue';
export { createDatasetService, type DatasetService } from './service';
