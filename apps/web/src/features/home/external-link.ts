/**
 * The school's external admission address, when it is one a browser should follow: http(s) only,
 * so a stored `javascript:` or `data:` address never becomes a link.
 */
export function externalLink(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
