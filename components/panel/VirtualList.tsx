/** A windowed list of fixed-height rows: only the rows in view (plus a margin) are in the DOM. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** Props of VirtualList. */
export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  overscan?: number;
  /** Index to keep in view (keyboard focus). */
  focusIndex?: number;
  renderRow: (item: T, index: number) => ComponentChildren;
  label: string;
}

/** Renders `items` inside a scrolling box, windowed. */
export function VirtualList<T>({ items, rowHeight, overscan = 6, focusIndex, renderRow, label }: VirtualListProps<T>) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el || focusIndex === undefined || focusIndex < 0) return;
    const top = focusIndex * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  }, [focusIndex, rowHeight]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  const rows = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} class="vrow" style={{ transform: `translateY(${i * rowHeight}px)`, height: `${rowHeight}px` }} role="listitem">
        {renderRow(items[i]!, i)}
      </div>,
    );
  }
  return (
    <div ref={box} class="vlist" role="list" aria-label={label} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <div class="vlist-inner" style={{ height: `${items.length * rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
