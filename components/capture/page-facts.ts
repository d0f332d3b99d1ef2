/** What a web page says about itself, as the capture controller's source fields and the panel's report take it. */
import { detectSource } from '../../lib/source';
import { today } from '../../lib/time';
import type { DecidedAddress, DocumentFacts } from './surface';

/**
 * The page's address and detected source: title, kind, publisher, publication date and the models it names. The
 * address and its site are the background's (by the Public Suffix List, which this script does not carry): the one
 * it answered the page's lookup for, or, before any answer, the page's own address with its host as its site.
 */
export function pageFacts(doc: Document, decided: DecidedAddress): DocumentFacts {
  const { url, title, kind, publisher, published, models } = detectSource(doc, decided.url, today(), { decided });
  return { url, title, kind, publisher, published, models };
}
