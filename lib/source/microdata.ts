/**
 * Schema.org microdata (`itemprop`) in a page's body: the headline, the
 * publication date, the publisher's and authors' names. Pure: reads the
 * `Document` passed in.
 */
import { collapse } from './meta';

/** An item property's value: `content`, then `datetime`, then the element's text. */
function propValue(el: Element): string {
  return collapse(el.getAttribute('content') ?? el.getAttribute('datetime') ?? el.textContent);
}

/** Elements carrying an item property (`itemprop` is a space-separated list). */
function props(root: ParentNode, name: string): Element[] {
  return [...root.querySelectorAll(`[itemprop~="${name}"]`)];
}

/** The name of an item (its `name` property) or, for a plain property, its value. */
function itemName(el: Element): string | null {
  if (el.hasAttribute('itemscope')) {
    const name = props(el, 'name')[0];
    return name ? propValue(name) || null : null;
  }
  return propValue(el) || null;
}

/** The first `headline` property's value, or null. */
export function microdataHeadline(doc: Document): string | null {
  for (const el of props(doc, 'headline')) {
    const value = propValue(el);
    if (value) return value;
  }
  return null;
}

/** Every `datePublished` property's value, in document order. */
export function microdataDatesPublished(doc: Document): string[] {
  return props(doc, 'datePublished')
    .map(propValue)
    .filter((v) => v !== '');
}

/** The names of the `publisher` items. */
export function microdataPublishers(doc: Document): string[] {
  return props(doc, 'publisher')
    .map(itemName)
    .filter((v): v is string => !!v);
}

/** The names of the `author` and `creator` items. */
export function microdataAuthors(doc: Document): string[] {
  return [...props(doc, 'author'), ...props(doc, 'creator')].map(itemName).filter((v): v is string => !!v);
}
