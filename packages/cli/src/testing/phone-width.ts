import type { Page } from 'playwright-core';

/** A phone's viewport (an iPhone 12 to 15's CSS pixels), the width issue 30 measures the pages at. */
export const PHONE = { width: 390, height: 844 } as const;

/** What sticks out of a page at the viewport's width, as measured in the browser. */
export interface PhoneOverflow {
  /** The viewport's width without a scroll bar (`documentElement.clientWidth`). */
  viewport: number;
  /** `documentElement.scrollWidth`: more than `viewport` means the page itself scrolls sideways. */
  scrollWidth: number;
  /**
   * Every table and chart (`svg`, outermost only) whose right edge is past the viewport's and that is not inside a box
   * that scrolls sideways (`overflow-x: auto` or `scroll`) ending within the viewport: "tag.class#id right".
   */
  escaped: string[];
  /** How many tables and charts were measured (hidden ones, e.g. in a closed `<details>`, are not). */
  measured: number;
}

// A string expression: this package compiles without the DOM library.
const MEASURE = `(() => {
  const viewport = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.getAttribute('class') ? '.' + el.getAttribute('class').trim().split(/\\s+/).join('.') : '') + (el.id ? '#' + el.id : '');
  const scrolls = (el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const escaped = [];
  let measured = 0;
  for (const el of document.querySelectorAll('table, svg')) {
    if (el.parentElement && el.parentElement.closest('svg')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    measured += 1;
    if (box.right <= viewport + 0.5) continue;
    let scroller = el.parentElement;
    while (scroller && scroller !== document.body && !scrolls(scroller)) scroller = scroller.parentElement;
    const inside = scroller && scroller !== document.body && scroller.getBoundingClientRect().right <= viewport + 0.5;
    if (!inside) escaped.push(name(el) + ' ' + Math.round(box.right));
  }
  return { viewport, scrollWidth: document.documentElement.scrollWidth, escaped, measured };
})()`;

/** Measures `page` as it is laid out now (set its viewport to `PHONE` first). */
export function measurePhoneOverflow(page: Page): Promise<PhoneOverflow> {
  return page.evaluate<PhoneOverflow>(MEASURE);
}
