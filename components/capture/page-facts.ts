/** What a web page says about itself, as the capture controller's source fields and the panel's report take it. */
import { detectSource } from '../../lib/source';
import { documentUrl } from '../../lib/source/url';
import { today } from '../../lib/time';
import type { DocumentFacts } from './surface';

/** The page's address and detected source: title, kind, publisher, publication date and the models it names. */
export function pageFacts(doc: Document): DocumentFacts {
  const { title, kind, publisher, published, models } = detectSource(doc, doc.location.href, today());
  return { url: documentUrl(doc), title, kind, publisher, published, models };
}
