import { BURSARY_MESSAGES, SCAN_MAX_BYTES } from '@portal/domain';
import { badRequest } from '../../http/errors';

/** The type of a scan by its first bytes (never by what the upload says it is). */
export function sniffScanType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'application/pdf' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 5 && bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

/** A scan data URL decoded and checked: its label and its bytes must agree, at most SCAN_MAX_BYTES. */
export function decodeScan(dataUrl: string): { mime: string; bytes: Buffer } {
  const m = /^data:(image\/png|image\/jpeg|application\/pdf);base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) throw badRequest({ scan: [BURSARY_MESSAGES.scanInvalid] });
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length > SCAN_MAX_BYTES) throw badRequest({ scan: [BURSARY_MESSAGES.scanTooLarge] });
  if (sniffScanType(bytes) !== m[1]) throw badRequest({ scan: [BURSARY_MESSAGES.scanInvalid] });
  return { mime: m[1], bytes };
}
