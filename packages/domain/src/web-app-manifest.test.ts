import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHORT_NAME_MAX, shortAppName, webAppManifest } from './web-app-manifest';

describe('the web app manifest', () => {
  it("carries the school's name, a short name that fits, the brand colour and the icons browsers ask for", () => {
    const m = webAppManifest('Role Models College');
    expect(m.name).toBe('Role Models College');
    expect(m.short_name).toBe('RMC');
    expect(m.theme_color).toBe('#14532d');
    expect(m.display).toBe('standalone');
    expect(m.start_url).toBe('/app');
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  });

  it('keeps a short name as it is and skips minor words in initials', () => {
    expect(shortAppName('Kings School')).toBe('Kings School');
    expect(shortAppName('Federal Government College of Lagos')).toBe('FGCL');
    expect(shortAppName('   ')).toBe('Portal');
    expect(webAppManifest('  ').name).toBe('School portal');
  });

  it('never gives a short name longer than a home screen shows, nor an empty one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        const short = shortAppName(name);
        expect([...short].length).toBeLessThanOrEqual(SHORT_NAME_MAX);
        expect(short.trim().length).toBeGreaterThan(0);
      }),
    );
  });
});
