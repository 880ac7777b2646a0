/**
 * The styles a page rendered on the server needs, to inline in its document (docs/decisions/
 * 049-card-page-at-the-floor.md): the app's whole stylesheet (~48 KB, Tailwind) blocks the first
 * paint while it is fetched and parsed, 20–30 ms on a phone even from the cache. From the rendered
 * markup's class names this keeps the rules that may apply to it, and drops the rest; the full
 * sheet then loads without blocking the paint.
 *
 * Conservative by construction (a superset of what applies, never less): a style rule is kept when
 * one of its selectors names only classes the markup has (element, attribute and id selectors are
 * not checked, the insides of functional pseudo-classes such as `:not(…)` and `:where(…)` are
 * ignored); at-rules that hold rules (`@layer`, `@media`, `@supports`, `@container`) keep what their
 * rules keep, except `@media print` and `@page` unless `print` is asked (the full stylesheet, when it is
 * in the document as `media="print"` from the start, prints the page); other at-rules (`@keyframes`, `@font-face`) are kept whole, `@property` only
 * for a custom property the kept styles use; and declarations of custom properties in rules made
 * only of them (Tailwind's theme and property defaults) only when the kept styles use them.
 */

type Node =
  | { kind: 'rule'; prelude: string; body: string }
  | { kind: 'group'; prelude: string; children: Node[] }
  | { kind: 'at'; prelude: string; body: string }
  | { kind: 'statement'; text: string };

const GROUPS = /^@(layer|media|supports|container)\b/i;
const PRINT_ONLY = /^@media\s+print\s*$/i;

/** Index just past the string or comment starting at `i`, or `i` when there is none. */
function skipQuoted(css: string, i: number): number {
  const c = css[i];
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c === '/' && css[i + 1] === '*') {
    const end = css.indexOf('*/', i + 2);
    return end < 0 ? css.length : end + 2;
  }
  return i;
}

/** Index of the `}` closing the block whose `{` is at `open`. */
function blockEnd(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; ) {
    const skipped = skipQuoted(css, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) return i;
    i++;
  }
  return css.length;
}

/** The stylesheet as a tree of rules (comments dropped). */
export function parseCss(css: string): Node[] {
  const nodes: Node[] = [];
  let i = 0;
  while (i < css.length) {
    // Whitespace and comments between rules.
    const skipped = css[i] === '/' && css[i + 1] === '*' ? skipQuoted(css, i) : i;
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (/\s/.test(css[i]!)) {
      i++;
      continue;
    }
    // The prelude runs to the first `{` or `;` outside strings.
    let j = i;
    while (j < css.length && css[j] !== '{' && css[j] !== ';' && css[j] !== '}') {
      const s = skipQuoted(css, j);
      j = s !== j ? s : j + 1;
    }
    const prelude = css.slice(i, j).trim();
    if (j >= css.length || css[j] === '}') {
      // A stray `}` or an unfinished rule: kept as text so nothing is lost.
      if (prelude) nodes.push({ kind: 'statement', text: prelude });
      i = j + 1;
      continue;
    }
    if (css[j] === ';') {
      nodes.push({ kind: 'statement', text: `${prelude};` });
      i = j + 1;
      continue;
    }
    const end = blockEnd(css, j);
    const body = css.slice(j + 1, end);
    if (prelude.startsWith('@'))
      nodes.push(GROUPS.test(prelude) ? { kind: 'group', prelude, children: parseCss(body) } : { kind: 'at', prelude, body });
    else nodes.push({ kind: 'rule', prelude, body });
    i = end + 1;
  }
  return nodes;
}

/** Splits at top-level commas (not inside parentheses, brackets or strings). */
function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; ) {
    const s = skipQuoted(text, i);
    if (s !== i) {
      i = s;
      continue;
    }
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  out.push(text.slice(start));
  return out;
}

/** `:not(…)`, `:where(…)`, `::part(…)` and the like removed with what they hold; attribute selectors too. */
function withoutArguments(selector: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\' && depth === 0) {
      out += c + (selector[i + 1] ?? '');
      i++;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += c;
  }
  return out;
}

const CLASS_IN_SELECTOR = /\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-]|[\u0080-\u{10ffff}])+)/gu;

/** `\:` → `:`, `\32 xl` → `2xl`: a class name as it is written in the markup. */
export function unescapeCss(name: string): string {
  return name.replace(/\\([0-9a-fA-F]{1,6}) ?|\\(.)/g, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : ch!,
  );
}

/** The class names a selector requires (outside functional pseudo-classes and attribute selectors). */
export function classesOf(selector: string): string[] {
  return [...withoutArguments(selector).matchAll(CLASS_IN_SELECTOR)].map((m) => unescapeCss(m[1]!));
}

/** Every class name used in the markup's `class` attributes. */
export function classesInHtml(html: string): Set<string> {
  const out = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) for (const c of m[1]!.split(/\s+/)) if (c) out.add(c.replace(/&amp;/g, '&'));
  return out;
}

const CUSTOM_DECLARATION = /^\s*--[\w-]+\s*:/;
/** Declarations of a rule body, split at top-level semicolons. */
function declarations(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; ) {
    const s = skipQuoted(body, i);
    if (s !== i) {
      i = s;
      continue;
    }
    const c = body[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ';' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  out.push(body.slice(start));
  return out.filter((d) => d.trim());
}

const isCustomOnly = (body: string) => {
  const decls = declarations(body);
  return decls.length > 0 && !body.includes('{') && decls.every((d) => CUSTOM_DECLARATION.test(d));
};
const customName = (decl: string) => /^\s*(--[\w-]+)/.exec(decl)![1]!;
const VAR_USE = /--[\w-]+/g;

/** The rules of `nodes` that may apply to markup with these classes, serialised. */
function select(nodes: Node[], classes: Set<string>, print: boolean): Node[] {
  const out: Node[] = [];
  for (const n of nodes) {
    if (n.kind === 'rule') {
      const keep = splitList(n.prelude).some((sel) => classesOf(sel).every((c) => classes.has(c)));
      if (keep) out.push(n);
    } else if (n.kind === 'group') {
      // Printing uses the full stylesheet when it is in the document from the start (`media="print"`):
      // its print rules then need not travel inline; when it comes later, they do (`print`).
      if (!print && PRINT_ONLY.test(n.prelude)) continue;
      const children = select(n.children, classes, print);
      // `@layer a{}` keeps the layer's place in the order even when empty.
      if (children.length || /^@layer\b/i.test(n.prelude)) out.push({ ...n, children });
    } else if (print || !(n.kind === 'at' && /^@page\b/i.test(n.prelude))) out.push(n);
  }
  return out;
}

function serialise(nodes: Node[], keepVar: (name: string) => boolean): string {
  let css = '';
  for (const n of nodes) {
    if (n.kind === 'statement') css += n.text;
    else if (n.kind === 'group') css += `${n.prelude}{${serialise(n.children, keepVar)}}`;
    else if (n.kind === 'at') {
      const prop = /^@property\s+(--[\w-]+)/i.exec(n.prelude);
      if (!prop || keepVar(prop[1]!)) css += `${n.prelude}{${n.body}}`;
    } else if (isCustomOnly(n.body)) {
      const kept = declarations(n.body).filter((d) => keepVar(customName(d)));
      if (kept.length) css += `${n.prelude}{${kept.join(';')}}`;
    } else css += `${n.prelude}{${n.body}}`;
  }
  return css;
}

/** The custom properties used (read with `var(…)` or named by the kept styles), to a fixed point through the theme's own references. */
function usedVariables(nodes: Node[]): Set<string> {
  const definitions = new Map<string, string[]>();
  const direct = new Set<string>();
  const walk = (list: Node[]) => {
    for (const n of list) {
      if (n.kind === 'group') walk(n.children);
      else if (n.kind === 'rule' && isCustomOnly(n.body)) {
        for (const d of declarations(n.body)) {
          const name = customName(d);
          const value = d.slice(d.indexOf(':') + 1);
          definitions.set(name, [...(definitions.get(name) ?? []), ...(value.match(VAR_USE) ?? [])]);
        }
      } else if (n.kind === 'rule') for (const v of n.body.match(VAR_USE) ?? []) direct.add(v);
    }
  };
  walk(nodes);
  const used = new Set<string>();
  const visit = (name: string) => {
    if (used.has(name)) return;
    used.add(name);
    for (const v of definitions.get(name) ?? []) visit(v);
  };
  for (const v of direct) visit(v);
  return used;
}

export interface CriticalCss {
  /** The styles `html` may need, as one stylesheet's text. */
  forHtml(html: string): string;
}

/**
 * Parses `sheet` once; each distinct set of classes is answered once and remembered (a page's
 * markup uses the same few sets: the card's classes barely vary with its data).
 */
export function criticalCss(sheet: string, options: { print?: boolean; remember?: number } = {}): CriticalCss {
  const { print = false, remember = 64 } = options;
  const tree = parseCss(sheet);
  const answers = new Map<string, string>();
  return {
    forHtml(html) {
      const classes = classesInHtml(html);
      const key = [...classes].sort().join(' ');
      let css = answers.get(key);
      if (css === undefined) {
        const kept = select(tree, classes, print);
        const used = usedVariables(kept);
        css = serialise(kept, (name) => used.has(name));
        if (answers.size >= remember) answers.delete(answers.keys().next().value!);
        answers.set(key, css);
      }
      return css;
    },
  };
}
