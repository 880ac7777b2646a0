import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { RESULT_PIN_DIGITS } from '@portal/domain';

/**
 * The keys of the result-checker PINs (decision record 043), derived once from the server's PIN
 * secret (config `resultPinSecret`: RESULT_PIN_SECRET, or a file generated under DATA_DIR) with HKDF,
 * one per job so no key serves two:
 *
 * - `hash`: HMAC-SHA256 of a PIN, stored unique, so a check finds its card in one indexed lookup and a
 *   copy of the database alone cannot try the 10^12 PINs;
 * - `seal`: AES-256-GCM of a PIN's printable copy (the serial as associated data, so a copy cannot be
 *   moved to another card), erased when the admin seals the batch;
 * - `link`: HMAC of the short-lived PDF links a check hands out.
 */
export class PinSecrets {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;
  private readonly linkKey: Buffer;

  constructor(secret: string) {
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'portal-result-pins', info, 32));
    this.hashKey = derive('pin-hash');
    this.sealKey = derive('pin-printable');
    this.linkKey = derive('pin-pdf-link');
  }

  /** A new PIN: RESULT_PIN_DIGITS digits, each as likely as any other (crypto.randomInt). */
  static newPin(): string {
    return String(randomInt(0, 10 ** RESULT_PIN_DIGITS)).padStart(RESULT_PIN_DIGITS, '0');
  }

  hash(pin: string): string {
    return createHmac('sha256', this.hashKey).update(pin).digest('hex');
  }

  /** The printable copy: base64url(iv | tag | ciphertext). */
  seal(pin: string, serial: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(Buffer.from(serial));
    const body = Buffer.concat([cipher.update(pin, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The PIN of a printable copy; throws when it was not sealed by this key for this serial. */
  open(printable: string, serial: string): string {
    const raw = Buffer.from(printable, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(serial));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** A signed link payload: base64url(JSON).base64url(HMAC). */
  signLink(payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${createHmac('sha256', this.linkKey).update(body).digest('base64url')}`;
  }

  /** The payload of a link this key signed, or null. */
  readLink(token: string): unknown {
    const [body, mac] = token.split('.');
    if (!body || !mac || token.split('.').length !== 2) return null;
    const want = createHmac('sha256', this.linkKey).update(body).digest();
    const got = Buffer.from(mac, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    } catch {
      return null;
    }
  }
}
