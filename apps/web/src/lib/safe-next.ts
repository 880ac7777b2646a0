/**
 * The page to return to after sign-in, if it is a path of this site: it must start
 * with one "/" and contain no scheme, backslash or control character, so `?next=//evil.example`,
 * `/\evil.example` or `https://evil.example` can never send the user elsewhere.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return null;
  try {
    const url = new URL(next, window.location.origin);
    if (url.origin !== window.location.origin) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}
