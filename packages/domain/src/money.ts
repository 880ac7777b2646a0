/** Naira amounts: the API speaks naira with up to 2 decimals; storage is integer kobo. */

/** Converts a naira amount (number or decimal string) to integer kobo without float drift. */
export function nairaToKobo(naira: number | string): number {
  const s = typeof naira === 'number' ? naira.toFixed(2) : naira.trim();
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new RangeError(`Not a naira amount: ${s}`);
  const whole = Number(m[1]);
  const frac = Number((m[2] ?? '').padEnd(2, '0'));
  return whole * 100 + frac;
}

export function koboToNaira(kobo: number): number {
  return Math.round(kobo) / 100;
}

const nairaFormat = new Intl.NumberFormat('en-NG', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** ₦ with thousands separators: 1234567.5 -> "₦1,234,567.50". */
export function formatNaira(naira: number): string {
  const sign = naira < 0 ? '-' : '';
  return `${sign}₦${nairaFormat.format(Math.abs(naira))}`;
}

/**
 * The sum of naira amounts, added up in kobo so that no float drift creeps in (0.1 + 0.2 is 0.30):
 * `sumNaira(rows, (r) => r.amount_paid)`. The one way to total money read from API shapes.
 */
export function sumNaira<T>(items: readonly T[], amount: (item: T) => number): number {
  return koboToNaira(items.reduce((kobo, item) => kobo + Math.round(amount(item) * 100), 0));
}
