/**
 * Where a text run sits on a rendered page: the box of a transparent,
 * selectable span placed over the run's glyphs. A run's transform maps text
 * space to PDF user space (y up); the page viewport maps that to CSS pixels
 * (y down). The span's top-left corner is the run's baseline origin moved up
 * by the font's ascent, perpendicular to the baseline. Pure arithmetic.
 */

/** A 2-D affine transform `[a, b, c, d, e, f]` as PDF writes them. */
export type Matrix = readonly [number, number, number, number, number, number];

/** What geometry needs of a pdf.js text item. */
export interface RunShape {
  transform: readonly number[];
  width: number;
  height: number;
}

/** What geometry needs of the item's font style. */
export interface RunStyle {
  ascent?: number | null;
  descent?: number | null;
  vertical?: boolean;
  fontFamily?: string;
}

/** A span's placement in CSS pixels of the viewport it was computed for. */
export interface SpanBox {
  left: number;
  top: number;
  /** Font size (the run's glyph height). */
  fontSize: number;
  /** Rotation in radians, clockwise on screen. */
  angle: number;
  /** The width the span's text must be stretched or squeezed to. */
  width: number;
  fontFamily: string;
}

/** Multiplies two affine transforms: the result applies `n` first, then `m`. */
export function multiply(m: readonly number[], n: readonly number[]): Matrix {
  const [a1 = 1, b1 = 0, c1 = 0, d1 = 1, e1 = 0, f1 = 0] = m;
  const [a2 = 1, b2 = 0, c2 = 0, d2 = 1, e2 = 0, f2 = 0] = n;
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}

/** The share of the font size above the baseline: the font's ascent, else derived from its descent, else 0.8. */
export function ascentRatio(style: RunStyle | undefined): number {
  if (style?.ascent && style.ascent > 0) return style.ascent;
  if (style?.descent && style.descent < 0) return 1 + style.descent;
  return 0.8;
}

/** Places one run on a page whose viewport transform is `viewport` (CSS pixels at that viewport's scale). */
export function spanBox(run: RunShape, style: RunStyle | undefined, viewport: readonly number[], scale: number): SpanBox {
  const t = multiply(viewport, run.transform);
  let angle = Math.atan2(t[1], t[0]);
  if (style?.vertical) angle += Math.PI / 2;
  const fontSize = Math.hypot(t[2], t[3]);
  const ascent = fontSize * ascentRatio(style);
  const left = angle === 0 ? t[4] : t[4] + ascent * Math.sin(angle);
  const top = angle === 0 ? t[5] - ascent : t[5] - ascent * Math.cos(angle);
  const width = (style?.vertical ? run.height : run.width) * scale;
  return { left, top, fontSize, angle, width, fontFamily: style?.fontFamily || 'sans-serif' };
}

/** The horizontal stretch that makes text measured `measured` pixels wide fill `target` pixels (1 when either is not positive). */
export function stretchFor(target: number, measured: number): number {
  return target > 0 && measured > 0 ? target / measured : 1;
}

/** Most pixels one page canvas may hold (a larger page is drawn at a lower density). */
export const MAX_CANVAS_PIXELS = 8_388_608;

/** The share of the full density a quick first draw is made at. */
export const QUICK_DRAW_SHARE = 0.5;

/**
 * Canvas pixels per CSS pixel for a page drawn `width` × `height` CSS pixels large on a screen of `deviceRatio`
 * device pixels per CSS pixel: the screen's density, lowered so that the canvas holds at most
 * {@link MAX_CANVAS_PIXELS}. A quick draw (the document's first page, shown at once and sharpened after) is made at
 * half that density, and never above one pixel per CSS pixel.
 */
export function canvasDensity(width: number, height: number, deviceRatio: number, quick = false): number {
  let ratio = Number.isFinite(deviceRatio) && deviceRatio > 0 ? deviceRatio : 1;
  const area = width * height;
  if (area > 0 && area * ratio * ratio > MAX_CANVAS_PIXELS) ratio = Math.sqrt(MAX_CANVAS_PIXELS / area);
  return quick ? Math.min(ratio * QUICK_DRAW_SHARE, 1) : ratio;
}
