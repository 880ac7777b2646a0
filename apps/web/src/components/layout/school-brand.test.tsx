import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DefaultCrest } from './school-brand';

describe('the default crest', () => {
  it('is the favicon’s drawing, inline (no image to fetch before the first paint)', () => {
    const favicon = readFileSync(path.join(__dirname, '../../../public/favicon.svg'), 'utf8');
    const shapes = (svg: string) => [...svg.matchAll(/<(rect|path)\b([^>]*?)\/?>/g)].map((m) => `${m[1]} ${m[2]!.replace(/\s*\/$/, '').trim()}`);
    const inline = renderToStaticMarkup(<DefaultCrest />);
    expect(shapes(inline)).toEqual(shapes(favicon));
    expect(inline).toContain('viewBox="0 0 64 64"');
    expect(inline).toContain('aria-hidden="true"');
  });
});
