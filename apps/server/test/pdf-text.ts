/**
 * Reads the text back out of an uncompressed pdfkit PDF (tests only): decodes each TJ/Tj hex string
 * with the ToUnicode map of the font selected by the preceding Tf. Enough for pdfkit's output with
 * embedded fonts; not a general PDF parser.
 */
export function pdfText(pdf: Buffer): string {
  const src = pdf.toString('latin1');
  const objects = new Map<string, string>();
  for (const m of src.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)) objects.set(m[1]!, m[2]!);
  const cmapOf = new Map<string, Map<number, string>>(); // resource name -> code -> text
  for (const body of objects.values()) {
    const font = /\/Font\s*<<([\s\S]*?)>>/.exec(body);
    if (!font) continue;
    for (const f of font[1]!.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
      const fontObj = objects.get(f[2]!) ?? '';
      const tu = /\/ToUnicode (\d+) 0 R/.exec(fontObj);
      if (!tu) continue;
      const cmap = objects.get(tu[1]!) ?? '';
      const map = new Map<number, string>();
      for (const range of cmap.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*\[([^\]]*)\]/g)) {
        const start = parseInt(range[1]!, 16);
        // A ligature maps to several code points in one entry (<0066 0066 0069> for "ffi").
        const values = [...range[3]!.matchAll(/<([0-9a-fA-F\s]+)>/g)].map((v) => v[1]!.replace(/\s+/g, ''));
        values.forEach((hex, i) => {
          let s = '';
          for (let k = 0; k < hex.length; k += 4) s += String.fromCharCode(parseInt(hex.slice(k, k + 4), 16));
          map.set(start + i, s);
        });
      }
      cmapOf.set(f[1]!, map);
    }
  }
  const out: string[] = [];
  let current = new Map<number, string>();
  for (const m of src.matchAll(/\/(\w+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
    if (m[1]) {
      current = cmapOf.get(m[1]) ?? new Map();
      continue;
    }
    let line = '';
    for (const h of m[2]!.matchAll(/<([0-9a-fA-F]+)>/g)) {
      const hex = h[1]!;
      for (let k = 0; k < hex.length; k += 4) line += current.get(parseInt(hex.slice(k, k + 4), 16)) ?? '';
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Pages of a PDF (page objects are never inside compressed object streams in pdfkit's output). */
export function pdfPageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
}
