import { describe, expect, it } from 'vitest';
import { formatDateTime, type Receipt } from '@portal/domain';
import { receiptPdf, receiptRows } from './payments.documents';

const receipt = (timeZone?: string): Receipt =>
  ({
    reference: 'FEES-TEST-1',
    admission_number: 'STU-0001',
    full_name: 'Ada Obi',
    current_class: 'JSS 1A',
    current_session: '2025/2026',
    term: '1st',
    email: 'ada@example.school',
    phone_number: null,
    amount: 4_500_000,
    paid_at: '2026-11-23T08:34:00.000Z',
    provider: 'simulator',
    school: { name: 'Test School', address: '', phone: '', email: '', motto: '', time_zone: timeZone },
  }) as unknown as Receipt;

describe('receipt PDF', () => {
  it('prints the payment time with the shared formatter in the school time zone, as the web receipt does', async () => {
    const paidOn = (r: Receipt) => receiptRows(r).find(([label]) => label === 'Paid on')?.[1];
    expect(paidOn(receipt())).toBe('23 Nov 2026, 09:34');
    expect(paidOn(receipt('Africa/Lagos'))).toBe(formatDateTime('2026-11-23T08:34:00.000Z', 'Africa/Lagos'));
    expect(paidOn(receipt('Europe/London'))).toBe('23 Nov 2026, 08:34');
    const pdf = await receiptPdf(receipt());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('names the receipt number; an offline payment shows its day, method, bank and reference', async () => {
    const offline = {
      ...receipt('Africa/Lagos'),
      receipt_number: 'R-000042',
      method: 'bank_teller',
      bank: 'First Bank',
      bank_reference: 'TLR-9981',
      paid_on: '2026-11-20',
    } as Receipt;
    expect(receiptRows(offline)).toEqual(
      expect.arrayContaining([
        ['Receipt number', 'R-000042'],
        // The day as every date is written, with no made-up time.
        ['Paid on', '20 Nov 2026'],
        ['Paid through', 'Bank teller'],
        ['Bank', 'First Bank'],
        ['Bank reference', 'TLR-9981'],
      ]),
    );
    // The PDF draws these rows (receiptRows), as the web receipt shows them.
    expect((await receiptPdf(offline)).subarray(0, 5).toString()).toBe('%PDF-');
    // An online payment keeps its provider and time, with no bank rows.
    const online = { ...receipt(), receipt_number: 'R-000043', method: 'online' } as Receipt;
    expect(receiptRows(online).map(([label]) => label)).not.toContain('Bank');
    expect(receiptRows(online)[0]).toEqual(['Receipt number', 'R-000043']);
  });
});
