/**
 * What a reader cannot see is not a passage. A fetched page is parsed, never rendered, so a page could list a
 * claim's words in an element nobody sees and have a recheck call the claim unchanged. Before a recheck reads a
 * page, the elements hidden by markup are taken out: the `hidden` attribute, `aria-hidden="true"`, an inline
 * `display: none`, `visibility: hidden | collapse`, `content-visibility: hidden`, `opacity: 0` or `font-size: 0`,
 * and those the page's own `<style>` sheets hide that way by a plain selector (rules inside `@media` and other
 * at-rules are left alone: they may hide for print only). Pure: any `Document`.
 */

const HIDING = [
  /(?:^|;)\s*display\s*:\s*none\b/i,
  /(?:^|;)\s*visibility\s*:\s*(?:hidden|collapse)\b/i,
  /(?:^|;)\s*content-visibility\s*:\s*hidden\b/i,
  /(?:^|;)\s*opacity\s*:\s*0(?:\.0*)?\s*(?:!important)?\s*(?:;|$)/i,
  /(?:^|;)\s*font-size\s*:\s*0(?:px|em|rem|pt|%)?\s*(?:!important)?\s*(?:;|$)/i,
];

/** Whether a CSS declaration block (an inline `style` or a rule's body) hides what it applies to. */
export function declarationsHide(declarations: string): boolean {
  const text = declarations.replace(/\/\*[\s\S]*?\*\//g, '');
  return HIDING.some((re) => re.test(text));
}

/** The selectors of a style sheet's top-level rules that hide what they match (at-rules skipped). */
export function hidingSelectors(css: string): string[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let atRule = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') {
      if (depth === 0) {
        const head = text.slice(start, i).trim();
        atRule = head.startsWith('@');
        const close = text.indexOf('}', i);
        if (!atRule && close !== -1 && declarationsHide(text.slice(i + 1, close)))
          out.push(
            ...head
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          );
      }
      depth++;
    } else if (ch === '}') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) start = i + 1;
    } else if (ch === ';' && depth === 0) start = i + 1;
  }
  return out;
}

/** Takes out of `doc` every element its markup hides; returns how many were taken out. */
export function removeHidden(doc: Document): number {
  const doomed = new Set<Element>();
  for (const el of doc.querySelectorAll('[hidden], [aria-hidden], [style]')) {
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden')?.toLowerCase() === 'true' || declarationsHide(el.getAttribute('style') ?? ''))
      doomed.add(el);
  }
  for (const sheet of doc.querySelectorAll('style')) {
    for (const selector of hidingSelectors(sheet.textContent ?? '')) {
      // Pseudo-elements and states (::before, :hover) match nothing to take out, and a selector the parser refuses is skipped.
      if (/::|:(?:hover|focus|active|visited|target|checked)/i.test(selector)) continue;
      try {
        for (const el of doc.querySelectorAll(selector)) if (el !== doc.documentElement && el !== doc.body) doomed.add(el);
      } catch {
        // not a selector this parser knows
      }
    }
  }
  for (const el of doomed) el.remove();
  return doomed.size;
}
