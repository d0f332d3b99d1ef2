import { describe, expect, it } from 'vitest';
import { ascentRatio, canvasDensity, MAX_CANVAS_PIXELS, multiply, spanBox, stretchFor } from '../../../lib/pdf';

// A US-letter page's viewport at scale 2: PDF y goes up from the bottom, CSS y goes down from the top.
const VIEWPORT = [2, 0, 0, -2, 0, 792 * 2];

describe('text-layer geometry', () => {
  it('composes transforms like PDF does (the right one first)', () => {
    expect(multiply([2, 0, 0, 2, 10, 20], [1, 0, 0, 1, 5, 5])).toEqual([2, 0, 0, 2, 20, 30]);
    expect(multiply([1, 0, 0, 1, 0, 0], [0, 1, -1, 0, 3, 4])).toEqual([0, 1, -1, 0, 3, 4]);
  });

  it('places an upright run with its top at the baseline minus the ascent, in viewport pixels', () => {
    const box = spanBox({ transform: [12, 0, 0, 12, 72, 700], width: 100, height: 12 }, { ascent: 0.75, fontFamily: 'serif' }, VIEWPORT, 2);
    expect(box.fontSize).toBe(24);
    expect(box.left).toBe(144);
    expect(box.top).toBe((792 - 700) * 2 - 24 * 0.75);
    expect(box.angle).toBe(0);
    expect(box.width).toBe(200);
    expect(box.fontFamily).toBe('serif');
  });

  it('turns a run written upwards (an arXiv margin stamp) by a quarter turn', () => {
    const box = spanBox({ transform: [0, 14, -14, 0, 20, 200], width: 300, height: 14 }, undefined, VIEWPORT, 2);
    expect(box.angle).toBeCloseTo(-Math.PI / 2);
    expect(box.fontSize).toBeCloseTo(28);
    // Moved left by the ascent (0.8 without style), perpendicular to the baseline.
    expect(box.left).toBeCloseTo(40 - 28 * 0.8);
    expect(box.top).toBeCloseTo((792 - 200) * 2);
    expect(box.fontFamily).toBe('sans-serif');
  });

  it('measures vertical text along its height', () => {
    expect(spanBox({ transform: [10, 0, 0, 10, 0, 0], width: 5, height: 40 }, { vertical: true }, VIEWPORT, 2).width).toBe(80);
  });

  it('derives the ascent from the descent when only that is known', () => {
    expect(ascentRatio({ descent: -0.25 })).toBe(0.75);
    expect(ascentRatio({ ascent: null, descent: null })).toBe(0.8);
  });

  it('stretches measured text to the run width, and leaves empty measures alone', () => {
    expect(stretchFor(120, 100)).toBeCloseTo(1.2);
    expect(stretchFor(120, 0)).toBe(1);
    expect(stretchFor(0, 50)).toBe(1);
  });
});

describe('canvas density of a drawn page', () => {
  // A letter page at 125 %: 1020 × 1320 CSS pixels.
  const [W, H] = [612 * (96 / 72) * 1.25, 792 * (96 / 72) * 1.25];

  it('draws at the screen density, and a quick first draw at half of it', () => {
    expect(canvasDensity(W, H, 1)).toBe(1);
    expect(canvasDensity(W, H, 1, true)).toBe(0.5);
    expect(canvasDensity(W, H, 2)).toBe(2);
    expect(canvasDensity(W, H, 2, true)).toBe(1);
  });

  it('never draws a quick canvas above one pixel per CSS pixel', () => {
    expect(canvasDensity(W / 2, H / 2, 3, true)).toBe(1);
  });

  it('lowers the density of a canvas that would hold too many pixels, the quick one with it', () => {
    const full = canvasDensity(W, H, 4);
    expect(full).toBeLessThan(4);
    expect(W * H * full * full).toBeCloseTo(MAX_CANVAS_PIXELS, -2);
    expect(canvasDensity(W, H, 4, true)).toBe(Math.min(1, full / 2));
  });

  it('takes a missing or broken device ratio as one', () => {
    expect(canvasDensity(W, H, 0)).toBe(1);
    expect(canvasDensity(W, H, Number.NaN, true)).toBe(0.5);
  });
});
