import { PANEL_FIRST_MODELS, sendEarlyCall } from '../shared/early-call';

/** The evidence panel's first script (classic, in its `<head>`): asks for the first rows before the panel's modules load. */
export default defineUnlistedScript(() => {
  sendEarlyCall('survey.head', { models: PANEL_FIRST_MODELS });
});
