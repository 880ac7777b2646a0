import { describe, expect, it } from 'vitest';
import { classesInHtml, classesOf, criticalCss, parseCss, unescapeCss } from './critical-css';
import { afterFirstPaint, CRITICAL_STYLES } from './spa';

/** A stylesheet shaped like the app's Tailwind build (layers, theme variables, @property, variants, print rules). */
const SHEET = [
  '/*! tailwindcss */',
  '@layer properties{@supports (x:y){*,:before,:after{--tw-shadow:0 0 #0000;--tw-font-weight:initial}}}',
  '@layer theme,base,components,utilities;',
  '@layer theme{:root,:host{--color-brand-900:#14532d;--color-red-500:red;--font-sans:system-ui;--default-font-family:var(--font-sans)}}',
  '@layer base{*,:after,:before{box-sizing:border-box}html{font-family:var(--default-font-family,sans-serif)}a:where([href]){color:inherit}}',
  '@layer components;',
  '@layer utilities{.flex{display:flex}.grid{display:grid}.text-brand-900{color:var(--color-brand-900)}.text-red-500{color:var(--color-red-500)}',
  '.font-bold{--tw-font-weight:700;font-weight:700}.shadow-sm{box-shadow:var(--tw-shadow)}',
  '.hover\\:underline:hover{text-decoration:underline}.py-0\\.5{padding-block:.125rem}.w-1\\/2{width:50%}',
  '.\\32 xl\\:flex{display:flex}.space-y-2:where(.space-y-2>:not(:last-child)){margin-top:.5rem}',
  '.a.b{color:red}.c>.d{color:blue}',
  '@media (min-width:40rem){.sm\\:grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}.sm\\:hidden{display:none}}',
  "@media print{.print\\:hidden{display:none}}}.no-print:not(.keep){opacity:1}.quote:before{content:\"}{\"}",
  '@media print{.no-print{display:none!important}.unused{color:red}}',
  '@page reportcard{size:A4 portrait}',
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}@property --tw-ring{syntax:"*";inherits:false}',
  '@keyframes spin{to{transform:rotate(360deg)}}',
].join('');

describe('the styles a rendered page needs (decision 049)', () => {
  it('reads class names as the markup writes them, from selectors and from class attributes', () => {
    expect(unescapeCss('hover\\:underline')).toBe('hover:underline');
    expect(unescapeCss('\\32 xl\\:flex')).toBe('2xl:flex');
    expect(classesOf('.w-1\\/2')).toEqual(['w-1/2']);
    expect(classesOf('.py-0\\.5')).toEqual(['py-0.5']);
    // What a functional pseudo-class holds is not required (`:not(.keep)` matches without it).
    expect(classesOf('.no-print:not(.keep)')).toEqual(['no-print']);
    expect(classesOf('a:where([href])')).toEqual([]);
    expect([...classesInHtml('<div class="flex  w-1/2"><p class="py-0.5">x</p><i data-class="nope"></i></div>')].sort()).toEqual([
      'flex',
      'py-0.5',
      'w-1/2',
    ]);
  });

  it('keeps the rules the markup may use and the variables they read, drops the rest, keeps the layer order', () => {
    const css = criticalCss(SHEET).forHtml(
      '<main class="flex text-brand-900 font-bold hover:underline sm:grid-cols-2 no-print w-1/2 a quote"><p class="d">x</p></main>',
    );
    // Element rules always; the classes used; their media queries (print rules stay in the full sheet).
    for (const kept of [
      '@layer theme,base,components,utilities;',
      'html{font-family:var(--default-font-family,sans-serif)}',
      '.flex{display:flex}',
      '.text-brand-900{color:var(--color-brand-900)}',
      '.hover\\:underline:hover{text-decoration:underline}',
      '.w-1\\/2{width:50%}',
      '@media (min-width:40rem){.sm\\:grid-cols-2{grid-template-columns:repeat(2,minmax(0,1fr))}}',
      '.no-print:not(.keep){opacity:1}',
      '.quote:before{content:"}{"}',
      '@keyframes spin{to{transform:rotate(360deg)}}',
      // The theme's variables the kept rules read, through var(--default-font-family) → --font-sans.
      '--color-brand-900:#14532d',
      '--font-sans:system-ui',
      '--default-font-family:var(--font-sans)',
      '*,:before,:after{--tw-font-weight:initial}',
    ])
      expect(css).toContain(kept);
    // Unused classes, a rule needing a class the page lacks (.a.b, .c>.d), unused variables and @property.
    for (const dropped of ['.grid{', '.text-red-500', '--color-red-500', '.shadow-sm', '--tw-shadow', '@property', '.a.b', '.c>.d', '.unused', '.sm\\:hidden', '.space-y-2', '@media print', '@page', 'display:none!important'])
      expect(css).not.toContain(dropped);
    expect(css.length).toBeLessThan(SHEET.length);
    // The kept text parses back to the same shape (no brace lost).
    expect(parseCss(css).length).toBeGreaterThan(0);
    expect(css.split('{').length).toBe(css.split('}').length);
  });

  it('with print asked (the full sheet comes later): the print rules of the classes used travel inline, and @page', () => {
    const css = criticalCss(SHEET, { print: true }).forHtml('<main class="flex no-print"><p>x</p></main>');
    expect(css).toContain('@media print{.no-print{display:none!important}}');
    expect(css).toContain('@page reportcard{size:A4 portrait}');
    // Still only what the markup may use.
    expect(css).not.toContain('.unused');
    expect(css).not.toContain('.print\\:hidden');
    expect(css.split('{').length).toBe(css.split('}').length);
  });

  it('every rule is kept for markup that uses every class, and each set of classes is answered once', () => {
    const all = criticalCss(SHEET);
    const first = all.forHtml('<p class="flex">a</p>');
    expect(all.forHtml('<p class="flex">b</p>')).toBe(first);
    expect(all.forHtml('<p class="shadow-sm">b</p>')).toContain('@property --tw-shadow{');
  });
});

const INDEX = `<!doctype html>
<html>
  <head>
    <script type="module" crossorigin src="/assets/index-e1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-s1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-c1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

describe('the shell of a page rendered on the server', () => {
  it('with the levers on: the stylesheet is not in the document (added after the first contentful paint; noscript), the app starts at the first interaction or when idle', () => {
    const shell = afterFirstPaint(INDEX, { inlineCss: true, idleStart: true })!;
    expect(shell.stylesheet).toBe('/assets/index-c1.css');
    expect(shell.html).toContain(`${CRITICAL_STYLES}<noscript><link rel="stylesheet" crossorigin href="/assets/index-c1.css"></noscript>`);
    // The sheet's only copy in the markup is inside noscript: nothing to fetch or parse before the first paint.
    expect(shell.html.match(/rel="stylesheet"/g)).toHaveLength(1);
    expect(shell.html).not.toMatch(/<script type="module"|rel="modulepreload"/);
    const boot = /<script>(.*?)<\/script>/.exec(shell.html)![1]!;
    expect(boot).toContain("addEventListener('pointerdown'");
    expect(boot).toContain("addEventListener('keydown'");
    expect(boot).toContain('requestIdleCallback');
    expect(boot).toContain(`c.rel='stylesheet';c.crossOrigin='';c.href="/assets/index-c1.css";c.id='portal-sheet';document.head.append(c)`);
    // Switched after the first contentful paint (or when the app starts), not after whatever frame comes first.
    expect(boot).toContain("getEntriesByName('first-contentful-paint')");
    expect(boot).toMatch(/let go=\(\)=>\{go=null;[^}]*sheet\(\);/);
    expect(boot).toContain('[data-print]');
    expect(boot).toContain('"/assets/index-e1.js"');
  });

  it('with the sheet-later lever off: the stylesheet in the document as print media, switched to all media after the first contentful paint', () => {
    const shell = afterFirstPaint(INDEX, { inlineCss: true, idleStart: true, sheetLater: false })!;
    expect(shell.html).toContain(
      `${CRITICAL_STYLES}<link rel="stylesheet" crossorigin href="/assets/index-c1.css" media="print" id="portal-sheet">` +
        '<noscript><link rel="stylesheet" crossorigin href="/assets/index-c1.css"></noscript>',
    );
    const boot = /<script>(.*?)<\/script>/.exec(shell.html)![1]!;
    expect(boot).toContain("c.media='all'");
    expect(boot).not.toContain('createElement(\'link\');c.rel=\'stylesheet\'');
  });

  it('with the levers off: the stylesheet as built, the app right after the first frame', () => {
    const shell = afterFirstPaint(INDEX)!;
    expect(shell.stylesheet).toBeNull();
    expect(shell.html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-c1.css">');
    expect(shell.html).not.toContain(CRITICAL_STYLES);
    const boot = /<script>(.*?)<\/script>/.exec(shell.html)![1]!;
    expect(boot).not.toContain('requestIdleCallback');
    expect(boot).toMatch(/^addEventListener\('click'.*requestAnimationFrame/);
  });
});
