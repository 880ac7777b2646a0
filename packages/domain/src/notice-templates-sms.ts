/**
 * How long an SMS is, and what it costs (decision record 037).
 *
 * A text whose every character is in the GSM 03.38 alphabet (basic table, or the extension table
 * through an escape) is sent as GSM-7: 160 characters in one unit, 153 per unit when it is split
 * (the rest carries the join header). The extension characters `^ { } \ [ ~ ] | €` and the form feed
 * take two of those characters each. Any other character (the naira sign ₦, curly quotes, an emoji,
 * Yoruba tone marks on most letters) makes the whole text UCS-2: 70 UTF-16 code units in one unit,
 * 67 per unit when split; a character outside the BMP (an emoji) takes two code units.
 *
 * An escape pair is never split between units by real handsets; the count here treats the text as one
 * run of septets, which may count one unit fewer than a provider for a text whose escape pair sits on
 * a unit boundary (a few characters in 153). Good enough for an estimate; the provider bills the truth.
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsLength {
  encoding: SmsEncoding;
  /** GSM-7 septets (extension characters count two) or UCS-2 code units. */
  characters: number;
  /** SMS units (parts) one message takes; 0 for an empty text. */
  units: number;
}

/** One unit's and a split message's unit sizes. */
export const SMS_UNIT_SIZES = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
} as const;

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

/** Encoding, length and units of `text` as an SMS. */
export function smsLength(text: string): SmsLength {
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENSION.has(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  const characters = gsm ? septets : text.length; // UTF-16 code units: a surrogate pair counts two
  return { encoding, characters, units: smsUnits(encoding, characters) };
}

/** Units for `characters` of `encoding`: one up to the single size, else parts of the split size. */
export function smsUnits(encoding: SmsEncoding, characters: number): number {
  if (characters <= 0) return 0;
  const size = SMS_UNIT_SIZES[encoding];
  return characters <= size.single ? 1 : Math.ceil(characters / size.part);
}

export interface SmsCostEstimate {
  encoding: SmsEncoding;
  /** The longest message's characters and units (what one parent's phone shows). */
  characters: number;
  units_per_message: number;
  /** Units over every message, each counted on its own text. */
  total_units: number;
  cost_kobo: number;
}

/**
 * The cost of sending `texts` (one per recipient, each rendered for them) at `unitCostKobo` a unit.
 * UCS-2 wins the encoding if any one text needs it (the screen warns the admin).
 */
export function estimateSmsCost(texts: readonly string[], unitCostKobo: number): SmsCostEstimate {
  let encoding: SmsEncoding = 'GSM-7';
  let characters = 0;
  let perMessage = 0;
  let total = 0;
  for (const t of texts) {
    const l = smsLength(t);
    if (l.encoding === 'UCS-2') encoding = 'UCS-2';
    characters = Math.max(characters, l.characters);
    perMessage = Math.max(perMessage, l.units);
    total += l.units;
  }
  const unitCost = Number.isFinite(unitCostKobo) && unitCostKobo > 0 ? Math.round(unitCostKobo) : 0;
  return { encoding, characters, units_per_message: perMessage, total_units: total, cost_kobo: total * unitCost };
}

/** Characters that turn a text into UCS-2 (shown to the admin so they can swap ₦ for NGN, curly quotes for straight). */
export function nonGsmCharacters(text: string): string[] {
  const out = new Set<string>();
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) out.add(ch);
  return [...out];
}
