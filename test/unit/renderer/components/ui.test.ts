/** The page head's figures (ui.tsx, PageFigures): what Positions, Today, Campaigns, Trades and Transactions show beside their title. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PageFigures } from '../../../../src-renderer/components/ui';

describe('PageFigures', () => {
  it('the demo badge first when the figures come from the demo, then the figures, small and muted in tabular numbers', () => {
    const html = renderToStaticMarkup(createElement(PageFigures, { demo: true }, '3 open positions'));
    expect(html).toMatch(/^<span class="badge badge-demo"[^>]*>DEMO<\/span><span class="muted small num">3 open positions<\/span>$/);
  });

  it('no badge for real figures, or where the page does not say', () => {
    expect(renderToStaticMarkup(createElement(PageFigures, { demo: false }, 'as of now'))).toBe('<span class="muted small num">as of now</span>');
    expect(renderToStaticMarkup(createElement(PageFigures, null, '12 trades'))).toBe('<span class="muted small num">12 trades</span>');
  });
});
