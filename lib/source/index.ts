/**
 * Source pages: URL normalisation, and detection of a page's kind, publisher,
 * publication date and models from a `Document` passed in. Pure: no browser
 * APIs, no storage.
 */
export { documentUrl, normalizeUrl, sameSite, type SiteOf, isTrackingParam, parseHttpUrl, TRACKING_PARAMS } from './url';
export { detectSource, type DetectedSource } from './detect';
export { detectPublished, type PublishedOptions } from './published';
export { guessModels, modelTokens } from './models';
export { normalizeDate } from './dates';
export {
  KNOWN_PUBLISHERS,
  publisherForHost,
  publisherForOwner,
  publisherForSiteName,
  publisherForTitle,
} from './publishers';
